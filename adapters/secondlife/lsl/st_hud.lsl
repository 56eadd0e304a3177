// Nightcap Storyteller HUD: Roll, Sheets (roster and management profile), Announce, Emote, Give HUD,
// Manage STs; it also shows the Storyteller log the gateway pushes to it.
//
// Needs the "Nightcap Config" script (nc_config.lsl) in the same object, and a copy of the
// "Nightcap Player HUD" object in its contents for Give HUD. Wire protocol: README.md.

string ROLE = "st-hud";
string PLAYER_HUD = "Nightcap Player HUD";
integer SECURE_URL = TRUE;
integer CMD_CHANNEL = 8;            // "/8 st roster" sends any command
integer CFG_ASK = 7100;
integer CFG_ANSWER = 7101;
float MIN_GAP = 1.2;
integer MAX_QUEUE = 16;
integer WINDOW = 120;

list B_MAIN = ["Roll", "Sheets", "Announce", "Emote", "Give HUD", "Manage STs"];
list B_SHEETS = ["Unlocked Sheets", "Approved Characters", "Search by Name", "Force Web Sync", "Back"];
list B_PROFILE_TAIL = ["To Discord", "Roll Stat", "Edit Info", "Edit Traits", "Edit Powers", "Set WP",
    "Set Ess", "Set Damage", "Show Sheet", "History", "Back"];
list B_FIELDS = ["Name", "Origin", "Subgroup", "Aptitude", "Advantage", "Weakness", "Back"];
list B_TRAITS = ["Physical", "Mental", "Social", "Spirit", "Back"];
list B_PAD = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Custom", "Back"];
list B_MODS = ["-3", "-2", "-1", "+0", "+1", "+2", "+3", "Back"];
list B_POWER_EDIT = ["Add Power", "Remove Power", "Back"];
list B_ALL_TIERS = ["Basic", "Adept", "Advanced", "Epic", "Legendary", "Back"];
list B_EMOTE = ["NPC (local)", "Region HUDs", "Everywhere", "Back"];
list B_STS = ["List STs", "Add ST", "Remove ST", "Back"];
list B_APPROVE = ["Approve", "Force Approve", "Back"];
list B_NAV = ["< Prev", "Next >", "Back"];
list B_BACK = ["Back"];

string gGateway;
string gSecret;
string gMyUrl;
key gUrlReq;
float gUrlRetryAt;
list gQueue;
key gReq = NULL_KEY;
string gReqPath;        // the request in flight, sent again after a 429 (it did not run)
string gReqBody;
float gNextSend;
integer gNonce;
list gSeen;
list gPushIds;          // "id/part" of the last pushes shown: a retried push is answered, not shown twice
integer gChan;
integer gListen;
float gMenuUntil;
string gMenu;
list gPick;             // full names behind numbered buttons
list gPickKeys;         // avatar keys behind numbered buttons (Give HUD, Add ST)
list gStatuses;         // sheet status behind each roster button
string gRosterStatus;   // the roster being browsed: unlocked, approved or all
string gRosterQuery;
integer gRosterPage;
string gChar;           // the character whose profile is open
string gCharStatus;
string gA;
string gB;

// ---------------------------------------------------------------- sizes

integer bytes(string s)
{
    string b = llStringToBase64(s);
    return llStringLength(b) / 4 * 3 - (llGetSubString(b, -2, -1) == "==") - (llGetSubString(b, -1, -1) == "=");
}

string fit(string s, integer max)
{
    if (llStringLength(s) > max) s = llGetSubString(s, 0, max - 1);
    while (bytes(s) > max) s = llDeleteSubString(s, -1, -1);
    return s;
}

string quoted(string s)
{
    return "\"" + llDumpList2String(llParseStringKeepNulls(s, ["\""], []), "'") + "\"";
}

// ---------------------------------------------------------------- gateway requests

string sign(string ts, key object, key owner, string body)
{
    return llHMAC(gSecret, ts + "\n" + (string)object + "\n" + (string)owner + "\n" + body, "sha256");
}

// A request signs where the object is too (the simulator's shard and region headers decide things).
string sign_request(string ts, string body)
{
    return llHMAC(gSecret, ts + "\n" + (string)llGetKey() + "\n" + (string)llGetOwner() + "\n"
        + llGetEnv("grid") + "\n" + llGetRegionName() + "\n" + body, "sha256");
}

send(string path, string body)
{
    if (llGetListLength(gQueue) >= MAX_QUEUE)
    {
        llOwnerSay("Still waiting for the gateway; try again in a moment.");
        return;
    }
    gQueue += [path, body];
    pump();
}

command(string text)
{
    ++gNonce;
    send("/sl/v1/command", llList2Json(JSON_OBJECT, ["text", text, "body_max", 16384, "nonce", gNonce]));
}

roster()
{
    ++gNonce;
    send("/sl/v1/command", llList2Json(JSON_OBJECT, ["text", "", "nonce", gNonce, "roster",
        llList2Json(JSON_OBJECT, ["status", gRosterStatus, "q", gRosterQuery, "page", gRosterPage])]));
}

pump()
{
    if (gReq != NULL_KEY || gQueue == [] || gGateway == "") return;
    if (llGetTime() < gNextSend) { tick(); return; }
    string path = llList2String(gQueue, 0);
    string body = llList2String(gQueue, 1);
    string ts = (string)llGetUnixTime();
    gReq = llHTTPRequest(gGateway + path, [HTTP_METHOD, "POST", HTTP_MIMETYPE, "application/json",
        HTTP_BODY_MAXLENGTH, 16384, HTTP_VERBOSE_THROTTLE, FALSE,
        HTTP_CUSTOM_HEADER, "X-Gateway-Timestamp", ts,
        HTTP_CUSTOM_HEADER, "X-Gateway-Signature", sign_request(ts, body)], body);
    if (gReq == NULL_KEY)
    {
        gNextSend = llGetTime() + 20.0;
        tick();
        return;
    }
    gQueue = llDeleteSubList(gQueue, 0, 1);
    gReqPath = path;
    gReqBody = body;
    gNextSend = llGetTime() + MIN_GAP;
}

answer(string body)
{
    integer i;
    string r = llJsonGetValue(body, ["replies", 0]);
    while (r != JSON_INVALID)
    {
        string text = llJsonGetValue(r, ["text"]);
        if (llJsonGetValue(r, ["private"]) == JSON_TRUE) llOwnerSay(text);
        else llSay(0, text);
        r = llJsonGetValue(body, ["replies", ++i]);
    }
    string list_ = llJsonGetValue(body, ["roster"]);
    if (list_ != JSON_INVALID) show_roster(list_);
}

show_roster(string data)
{
    if (llJsonGetValue(data, ["error"]) != JSON_INVALID) { llOwnerSay(llJsonGetValue(data, ["error"])); return; }
    gPick = llJson2List(llJsonGetValue(data, ["names"]));
    gStatuses = llJson2List(llJsonGetValue(data, ["statuses"]));
    gRosterPage = (integer)llJsonGetValue(data, ["page"]);
    string head = "Sheets (" + gRosterStatus + "): " + llJsonGetValue(data, ["total"]) + " found, page "
        + (string)(gRosterPage + 1) + " of " + llJsonGetValue(data, ["pages"]);
    if (gPick == []) head += "\nNothing here.";
    menu("roster", head, llJson2List(llJsonGetValue(data, ["labels"])) + B_NAV);
}

// ---------------------------------------------------------------- our URL and pushes

request_url()
{
    if (gMyUrl != "") llReleaseURL(gMyUrl);
    gMyUrl = "";
    if (SECURE_URL) gUrlReq = llRequestSecureURL();
    else gUrlReq = llRequestURL();
}

register()
{
    ++gNonce;
    send("/sl/v1/register", llList2Json(JSON_OBJECT, ["url", gMyUrl, "role", ROLE, "nonce", gNonce]));
}

integer verified(string ts, string sig, string body)
{
    if (ts == "" || sig == "") return FALSE;
    if (llAbs(llGetUnixTime() - (integer)ts) > WINDOW) return FALSE;
    if (llListFindList(gSeen, [sig]) != -1) return FALSE;
    if (sig != sign(ts, llGetKey(), llGetOwner(), body)) return FALSE;
    gSeen = llList2List([sig] + gSeen, 0, 15);
    return TRUE;
}

pushed(string body)
{
    string kind = llJsonGetValue(body, ["kind"]);
    string text = llJsonGetValue(body, ["text"]);
    if (kind == "stlog") llOwnerSay("[ST log] " + text);
    else if (kind == "announce") llDialog(llGetOwner(), fit("Announcement\n\n" + text, 511), ["OK"], -987654);
    else if (text != "") llOwnerSay(text);
}

integer fresh(string body)
{
    string tag = llJsonGetValue(body, ["id"]) + "/" + llJsonGetValue(body, ["part"]);
    if (llListFindList(gPushIds, [tag]) != -1) return FALSE;
    gPushIds = llList2List([tag] + gPushIds, 0, 15);
    return TRUE;
}

// ---------------------------------------------------------------- dialogs

tick()
{
    llSetTimerEvent(1.0);
}

menu(string id, string text, list buttons)
{
    // Dialog limits: at most 12 buttons of 1 to 24 bytes, a message under 512 bytes.
    list safe;
    integer i;
    buttons = llList2List(buttons, 0, 11);
    for (i = 0; i < llGetListLength(buttons); ++i)
    {
        string b = fit(llList2String(buttons, i), 24);
        if (b == "") b = "?";
        safe += [b];
    }
    gMenu = id;
    listen_owner();
    llDialog(llGetOwner(), fit(text, 511), safe, gChan);
}

ask(string id, string text)
{
    gMenu = id;
    listen_owner();
    llTextBox(llGetOwner(), fit(text, 511), gChan);
}

listen_owner()
{
    if (gListen) llListenRemove(gListen);
    gListen = llListen(gChan, "", llGetOwner(), "");
    gMenuUntil = llGetTime() + 90.0;
    tick();
}

close_menu()
{
    if (gListen) llListenRemove(gListen);
    gListen = 0;
    gMenu = "";
}

main_menu()
{
    menu("main", "Nightcap Storyteller HUD", B_MAIN);
}

open_roster(string status, string query)
{
    gRosterStatus = status;
    gRosterQuery = query;
    gRosterPage = 0;
    roster();
}

profile()
{
    string toggle = "Approve";
    if (gCharStatus == "approved") toggle = "Unapprove";
    menu("profile", gChar + " (" + gCharStatus + ")", [toggle] + B_PROFILE_TAIL);
}

// Avatars in this region whose name contains ``part`` (case-insensitive), as numbered buttons.
scan(string id, string part)
{
    list agents = llGetAgentList(AGENT_LIST_REGION, []);
    list labels;
    integer i;
    gPick = [];
    gPickKeys = [];
    part = llToLower(part);
    for (i = 0; i < llGetListLength(agents) && llGetListLength(gPick) < 11; ++i)
    {
        key k = llList2Key(agents, i);
        string name = llGetDisplayName(k) + " (" + llGetUsername(k) + ")";
        if (llSubStringIndex(llToLower(name), part) != -1)
        {
            gPick += [name];
            gPickKeys += [k];
            labels += [fit((string)llGetListLength(gPick) + ". " + name, 24)];
        }
    }
    if (gPick == []) { llOwnerSay("Nobody in this region matches \"" + part + "\"."); return; }
    menu(id, "Pick an avatar:", labels + B_BACK);
}

integer picked_index(string label)
{
    integer n = (integer)label;
    if (n < 1 || n > llGetListLength(gPick)) return -1;
    return n - 1;
}

integer is_uuid(string s)
{
    if ((key)s) return TRUE;   // a key is true only when it is a well-formed, non-null UUID
    return FALSE;
}

chosen(string m)
{
    string id = gMenu;
    close_menu();
    if (m == "Back") { if (id == "approve") profile(); else if (id == "profile" || id == "roster") menu("sheets", "Sheets", B_SHEETS); else main_menu(); return; }
    if (id == "main")
    {
        if (m == "Roll") ask("roll", "NPC or situational roll: a pool such as 5, 4+1 or 6 vs 3.");
        else if (m == "Sheets") menu("sheets", "Sheets", B_SHEETS);
        else if (m == "Announce") ask("announce", "Announcement for every player wearing a Nightcap HUD:");
        else if (m == "Emote") menu("emote", "Emote as an NPC in local chat, to every HUD in this region, or everywhere the chronicle plays?", B_EMOTE);
        else if (m == "Give HUD") ask("give", "Type any part of the avatar's name:");
        else if (m == "Manage STs") menu("sts", "Storytellers", B_STS);
    }
    else if (id == "roll") command("st roll " + m);
    else if (id == "announce") command("st announce " + m);
    else if (id == "sheets")
    {
        if (m == "Unlocked Sheets") open_roster("unlocked", "");
        else if (m == "Approved Characters") open_roster("approved", "");
        else if (m == "Search by Name") ask("search", "Part of the character's name:");
        else if (m == "Force Web Sync") command("st sync");
    }
    else if (id == "search") open_roster("all", m);
    else if (id == "roster")
    {
        if (m == "< Prev") { gRosterPage -= 1; if (gRosterPage < 0) gRosterPage = 0; roster(); }
        else if (m == "Next >") { gRosterPage += 1; roster(); }
        else
        {
            integer i = picked_index(m);
            if (i < 0) return;
            gChar = llList2String(gPick, i);
            gCharStatus = llList2String(gStatuses, i);
            profile();
        }
    }
    else if (id == "profile")
    {
        string who = quoted(gChar);
        // The gateway refuses an unsubmitted, unfinished sheet unless the Storyteller forces it.
        if (m == "Approve") menu("approve", "Approve " + gChar + "? Force Approve also takes a sheet that was not submitted or whose budget is not spent.", B_APPROVE);
        else if (m == "Unapprove") { command("st unapprove " + who); gCharStatus = "creation"; }
        else if (m == "To Discord") command("st export " + who);
        else if (m == "Roll Stat") menu("stat", "Roll which of " + gChar + "'s traits?", B_TRAITS);
        else if (m == "Edit Info") menu("field", "Edit which field of " + gChar + "?", B_FIELDS);
        else if (m == "Edit Traits") menu("trait", "Set which trait of " + gChar + "?", B_TRAITS);
        else if (m == "Edit Powers") menu("power", "Powers of " + gChar, B_POWER_EDIT);
        else if (m == "Set WP") { gA = "willpower"; menu("pool", "Willpower " + gChar + " has now (0-9, Custom for more):", B_PAD); }
        else if (m == "Set Ess") { gA = "essence"; menu("pool", "Essence " + gChar + " has now (0-9, Custom for more):", B_PAD); }
        // The Health track counts damage taken: 0 unhurt, 10 Incapacitated (the book's "Ten levels").
        else if (m == "Set Damage") { gA = "damage"; menu("pool", "Damage taken by " + gChar + " (0 unhurt, 10 Incapacitated; Custom for 10 or more):", B_PAD); }
        else if (m == "Show Sheet") command("st show " + who);
        else if (m == "History") command("st history " + who);
    }
    else if (id == "approve")
    {
        string force = "";
        if (m == "Force Approve") force = " force";
        command("st approve " + quoted(gChar) + force);
        gCharStatus = "approved";
    }
    else if (id == "stat") { gA = llToLower(m); menu("stat_mod", "Modifier:", B_MODS); }
    else if (id == "stat_mod")
    {
        string mod = "";
        if (m != "+0") mod = " " + m;
        command("st rollstat " + quoted(gChar) + " " + gA + mod);
    }
    else if (id == "field") { gA = llToLower(m); ask("field_text", m + " of " + gChar + ":"); }
    else if (id == "field_text") command("st set " + quoted(gChar) + " " + gA + " " + m);
    else if (id == "trait") { gA = llToLower(m); menu("trait_pad", m + " of " + gChar + " (0-9, Custom for more):", B_PAD); }
    else if (id == "trait_pad")
    {
        if (m == "Custom") ask("trait_custom", gA + " rating:");
        else command("st trait " + quoted(gChar) + " " + gA + " " + m);
    }
    else if (id == "trait_custom") command("st trait " + quoted(gChar) + " " + gA + " " + (string)((integer)m));
    else if (id == "pool")
    {
        if (m == "Custom") ask("pool_custom", "New " + gA + " of " + gChar + " (a number):");
        else command("st pool " + quoted(gChar) + " " + gA + " " + m);
    }
    else if (id == "pool_custom") command("st pool " + quoted(gChar) + " " + gA + " " + (string)((integer)m));
    else if (id == "power")
    {
        if (m == "Add Power") ask("power_name", "Name of the power to give " + gChar + ":");
        else if (m == "Remove Power") ask("power_remove", "Name of the power to take from " + gChar + ":");
    }
    else if (id == "power_name") { gB = m; menu("power_tier", "Tier of " + m + ":", B_ALL_TIERS); }
    else if (id == "power_tier") { gA = llToLower(m); menu("power_trait", "Keyed trait:", B_TRAITS); }
    else if (id == "power_trait")
        command("st power " + quoted(gChar) + " add " + quoted(gB) + " " + gA + " " + llToLower(m));
    else if (id == "power_remove") command("st power " + quoted(gChar) + " remove " + quoted(m));
    else if (id == "emote")
    {
        if (m == "NPC (local)") ask("npc_name", "NPC name:");
        else if (m == "Region HUDs") ask("emote_region", "Emote for every HUD in this region:");
        else if (m == "Everywhere") ask("emote_all", "Emote for every channel of the chronicle (every region, Discord, ...):");
    }
    else if (id == "npc_name") { gA = m; ask("npc_text", "What does " + m + " do?"); }
    else if (id == "npc_text")
    {
        string own = llGetObjectName();
        llSetObjectName(fit(gA, 63));
        llSay(0, "/me " + m);
        llSetObjectName(own);
    }
    else if (id == "emote_region") command("st emote here " + m);
    else if (id == "emote_all") command("st emote " + m);
    else if (id == "give") scan("give_pick", m);
    else if (id == "give_pick")
    {
        integer i = picked_index(m);
        if (i < 0) return;
        llGiveInventory(llList2Key(gPickKeys, i), PLAYER_HUD);
        llOwnerSay("Gave a " + PLAYER_HUD + " to " + llList2String(gPick, i) + ".");
    }
    else if (id == "sts")
    {
        if (m == "List STs") command("st list");
        else if (m == "Add ST") ask("st_add", "Avatar UUID, or part of a name of someone in this region:");
        else if (m == "Remove ST") ask("st_remove", "Avatar UUID of the Storyteller to remove:");
    }
    else if (id == "st_add")
    {
        if (is_uuid(m)) command("st add sl:" + m);
        else scan("st_add_pick", m);
    }
    else if (id == "st_add_pick")
    {
        integer i = picked_index(m);
        if (i >= 0) command("st add sl:" + (string)llList2Key(gPickKeys, i));
    }
    else if (id == "st_remove")
    {
        if (is_uuid(m)) command("st remove sl:" + m);
        else llOwnerSay("That is not an avatar UUID.");
    }
}

// ---------------------------------------------------------------- events

default
{
    state_entry()
    {
        gChan = -1 - (integer)llFrand(1000000000.0);
        gNonce = (integer)llFrand(1000000.0);
        llListen(CMD_CHANNEL, "", llGetOwner(), "");
        llMessageLinked(LINK_THIS, CFG_ASK, "", NULL_KEY);
    }

    on_rez(integer param)
    {
        llResetScript();
    }

    changed(integer change)
    {
        if (change & CHANGED_OWNER) llResetScript();
        if (change & (CHANGED_REGION | CHANGED_TELEPORT | CHANGED_REGION_START)) request_url();
    }

    link_message(integer sender, integer num, string str, key id)
    {
        if (num != CFG_ANSWER) return;
        integer first = (gGateway == "");
        gGateway = str;
        gSecret = (string)id;
        if (first) request_url();
    }

    touch_start(integer n)
    {
        if (llDetectedKey(0) != llGetOwner()) return;
        if (gGateway == "") { llOwnerSay("No configuration: add the Nightcap Config script."); return; }
        main_menu();
    }

    listen(integer channel, string name, key id, string message)
    {
        if (channel == gChan) chosen(message);
        else if (channel == CMD_CHANNEL) command(message);
    }

    http_request(key id, string method, string body)
    {
        if (id == gUrlReq)
        {
            gUrlReq = NULL_KEY;
            if (method == URL_REQUEST_GRANTED) { gMyUrl = body; register(); }
            else { gUrlRetryAt = llGetTime() + 10.0; tick(); }
            return;
        }
        if (method != "POST") { llHTTPResponse(id, 405, "POST only"); return; }
        string ts = llGetHTTPHeader(id, "x-gateway-timestamp");
        string sig = llGetHTTPHeader(id, "x-gateway-signature");
        if (!verified(ts, sig, body)) { llHTTPResponse(id, 401, "refused"); return; }
        llHTTPResponse(id, 200, "ok");
        if (fresh(body)) pushed(body);
    }

    http_response(key id, integer status, list meta, string body)
    {
        if (id != gReq) return;
        gReq = NULL_KEY;
        if (status == 200) answer(body);
        else if (status == 429)
        {
            gQueue = [gReqPath, gReqBody] + gQueue;   // refused before it ran: send it again, re-signed
            gNextSend = llGetTime() + 5.0;
        }
        else if (status == 401 || status == 403) llOwnerSay("The gateway refused this HUD: " + body);
        else llOwnerSay("The gateway did not answer (" + (string)status + "); try again.");
        pump();
    }

    timer()
    {
        float now = llGetTime();
        if (gListen && now > gMenuUntil) close_menu();
        if (gUrlRetryAt > 0.0 && now > gUrlRetryAt) { gUrlRetryAt = 0.0; request_url(); }
        pump();
        if (!gListen && gUrlRetryAt == 0.0 && (gQueue == [] || gReq != NULL_KEY)) llSetTimerEvent(0.0);
    }
}
