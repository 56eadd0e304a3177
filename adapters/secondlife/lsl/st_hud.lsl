// Nightcap Storyteller HUD: Roll, Sheets (roster and management profile), Announce, Emote, Give HUD,
// Manage STs; it also shows the Storyteller log the gateway pushes to it.
//
// Needs the "Nightcap Config" script (nc_config.lsl) in the same object, and a copy of the
// "Nightcap Player HUD" object in its contents for Give HUD. Wire protocol: README.md. The menus that
// set a field, roll a trait or give a power are drawn from the rule system's declaration ("decl",
// its "st" part), so a new system works unchanged; a button whose command it lacks is not shown.

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
list B_PROFILE_TAIL = ["To Discord", "Roll Stat", "Edit Info", "Edit Traits", "Edit Powers", "Show Sheet",
    "History", "Back"];
// Buttons and the Storyteller command each needs declared (the others: their own declared menus).
list NEEDS = ["Roll", "st roll", "Announce", "st announce", "Emote", "st emote", "Approve", "st approve",
    "Unapprove", "st unapprove", "To Discord", "st export", "Show Sheet", "st show"];
list B_MODS = ["-3", "-2", "-1", "+0", "+1", "+2", "+3", "Back"];
list B_POWER_EDIT = ["Add Power", "Remove Power", "Back"];
list B_MORE = ["More"];
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
string gDecl;           // the system's menu declaration (README: "decl")
string gDeclAsked;
integer gField;         // the declared field being set
list gLabels;           // an offer's buttons, the values behind them, its page
list gValues;
string gOfferId;
string gOfferText;
integer gAt;

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
    string decl = llJsonGetValue(body, ["decl"]);
    if (decl != JSON_INVALID) gDecl = decl;
    string tag = jget(body, ["state", "decl"]);
    if (tag == JSON_INVALID || tag == jget(gDecl, ["tag"]) || tag == gDeclAsked) return;
    gDeclAsked = tag;   // another system or language: its declaration, once
    ++gNonce;
    send("/sl/v1/command", llList2Json(JSON_OBJECT, ["text", "", "decl", tag, "body_max", 16384, "nonce", gNonce]));
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
    ++gNonce;   // the state names the declaration the menus are drawn from
    send("/sl/v1/command", llList2Json(JSON_OBJECT, ["text", "", "state", JSON_TRUE, "nonce", gNonce]));
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
    menu("main", "Nightcap Storyteller HUD", have(B_MAIN));
}

// ---------------------------------------------------------------- the declaration

// A path read one step at a time (player_hud.lsl: LSL-PyOptimizer's reader misreads several indexes).
string jget(string json, list path)
{
    integer i;
    for (i = 0; i < llGetListLength(path) && json != JSON_INVALID; ++i)
        json = llJsonGetValue(json, llList2List(path, i, i));
    return json;
}

// The Storyteller part of the declaration.
string d(list path)
{
    return jget(gDecl, ["st"] + path);
}

// Shown until the declaration is here, then only when the system declares the button's command.
list have(list buttons)
{
    list out;
    integer i;
    for (i = 0; i < llGetListLength(buttons); ++i)
    {
        string b = llList2String(buttons, i);
        integer at = llListFindList(NEEDS, [b]);
        integer ok = (at == -1 || gDecl == ""
            || llListFindList(llJson2List(d(["cmds"])), [llList2String(NEEDS, at + 1)]) != -1);
        if (b == "Roll Stat") ok = (d(["roll", 0]) != JSON_NULL && d(["roll", 0]) != JSON_INVALID);
        else if (b == "Edit Info") ok = (rows(FALSE, FALSE) != []);
        else if (b == "Edit Traits") ok = (rows(TRUE, FALSE) != []);
        else if (b == "Edit Powers") ok = (d(["power", "add"]) != JSON_INVALID);
        if (ok) out += [b];
    }
    return out;
}

// Column ``col`` of the declaration's rows at ``path`` (the traits' keys or labels, the tiers').
list column(list path, integer col)
{
    list out;
    integer i;
    string row = jget(gDecl, path + [0]);
    while (row != JSON_INVALID)
    {
        out += [llJsonGetValue(row, [col])];
        row = jget(gDecl, path + [++i]);
    }
    return out;
}

// The fields a Storyteller sets: numbers (Edit Traits) or the others (Edit Info), as labels or as
// their places in the declaration ("f3").
list rows(integer numeric, integer labels)
{
    list out;
    integer i;
    string row = d(["set", 0]);
    while (row != JSON_INVALID)
    {
        string kind = llJsonGetValue(row, [1]);
        if ((kind == "number" || kind == "typed") == numeric)
        {
            if (labels) out += [llJsonGetValue(row, [0])];
            else out += ["f" + (string)i];
        }
        row = d(["set", ++i]);
    }
    return out;
}

// Choices: ``labels`` on the buttons (10 a page with More), ``values`` what each stands for.
offer(string id, string text, list labels, list values)
{
    integer i;
    gLabels = [];
    for (i = 0; i < llGetListLength(labels); ++i) gLabels += [fit(llList2String(labels, i), 24)];
    gValues = values;
    gOfferId = id;
    gOfferText = text;
    offer_page(0);
}

offer_page(integer from)
{
    list shown;
    if (from >= llGetListLength(gLabels)) from = 0;
    gAt = from;
    if (llGetListLength(gLabels) <= 11) shown = gLabels;
    else shown = llList2List(gLabels, from, from + 9) + B_MORE;
    menu(gOfferId, gOfferText, shown + B_BACK);
}

// What the button clicked stands for; "" for More, which shows the next page.
string offered(string m)
{
    if (m == "More" && llGetListLength(gLabels) > 11) { offer_page(gAt + 10); return ""; }
    integer at = llListFindList(gLabels, [m]);
    if (at == -1) return "";
    return llList2String(gValues, at);
}

// A declared line: even items literal, odd items the names of the values put there.
string fill(string tpl, list names, list values)
{
    list parts = llJson2List(tpl);
    string out;
    integer i;
    for (i = 0; i < llGetListLength(parts); ++i)
    {
        string p = llList2String(parts, i);
        if (i % 2)
        {
            integer at = llListFindList(names, [p]);
            p = "";
            if (at != -1) p = llList2String(values, at);
        }
        out += p;
    }
    return out;
}

// One declared field of the open character: a text box, its choices, or a pad (Custom types more).
set_field(integer i)
{
    gField = i;
    string row = d(["set", i]);
    string kind = llJsonGetValue(row, [1]);
    gB = llJsonGetValue(row, [0]) + " of " + gChar;
    list values;
    integer n;
    if (kind == "text") { ask("field_text", gB + ":"); return; }
    if (kind == "choice" || kind == "flag")
    {
        offer("field_pick", gB + ":", column(["st", "set", i, 5], 1), column(["st", "set", i, 5], 0));
        return;
    }
    integer lo = (integer)llJsonGetValue(row, [3]);
    integer hi = (integer)llJsonGetValue(row, [4]);
    for (n = lo; n <= hi && n < lo + 10; ++n) values += [(string)n];
    if (kind == "typed") values += ["Custom"];
    offer("field_pick", gB + ":", values, values);
}

set_to(string value)
{
    command(fill(d(["set", gField, 2]), ["name", "value"], [quoted(gChar), value]));
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
    menu("profile", gChar + " (" + gCharStatus + ")", have([toggle]) + have(B_PROFILE_TAIL));
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

chosen_approve(string m)
{
    string force = "";
    if (m == "Force Approve") force = " force";
    command("st approve " + quoted(gChar) + force);
    gCharStatus = "approved";
}

chosen(string m)
{
    string id = gMenu;
    close_menu();
    if (m == "Back" && llListFindList(["stat", "field", "field_pick", "power", "power_tier", "power_trait"], [id]) != -1) { profile(); return; }
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
        if (m == "Approve" && d(["force"]) == "0") chosen_approve(m);   // no force declared to offer
        else if (m == "Approve") menu("approve", "Approve " + gChar + "? Force Approve also takes a sheet that was not submitted or whose budget is not spent.", B_APPROVE);
        else if (m == "Unapprove") { command("st unapprove " + who); gCharStatus = "creation"; }
        else if (m == "To Discord") command("st export " + who);
        else if (m == "Roll Stat") offer("stat", "Roll which of " + gChar + "'s traits?", column(["traits"], 1), column(["traits"], 0));
        else if (m == "Edit Info") offer("field", "Edit which field of " + gChar + "?", rows(FALSE, TRUE), rows(FALSE, FALSE));
        else if (m == "Edit Traits") offer("field", "Set which trait or pool of " + gChar + "?", rows(TRUE, TRUE), rows(TRUE, FALSE));
        else if (m == "Edit Powers") menu("power", "Powers of " + gChar, B_POWER_EDIT);
        else if (m == "Show Sheet") command("st show " + who);
        else if (m == "History") command("st history " + who);
    }
    else if (id == "approve") chosen_approve(m);
    else if (id == "stat")
    {
        gA = d(["roll", 0]) + " " + quoted(gChar) + " " + offered(m);
        if (llGetSubString(gA, -1, -1) == " ") return;   // More, or not a trait
        if ((integer)d(["roll", 1])) menu("stat_mod", "Modifier:", B_MODS);   // the declared step
        else command(gA);
    }
    else if (id == "stat_mod")
    {
        string mod = "";
        if (m != "+0") mod = " " + m;
        command(gA + mod);
    }
    else if (id == "field") { string f = offered(m); if (f != "") set_field((integer)llGetSubString(f, 1, -1)); }
    else if (id == "field_text") set_to(m);
    else if (id == "field_pick")
    {
        string v = offered(m);
        if (v == "Custom") ask("field_custom", gB + " (a number):");
        else if (v != "") set_to(v);
    }
    else if (id == "field_custom") set_to((string)((integer)m));
    else if (id == "power")
    {
        if (m == "Add Power") ask("power_name", "Name of the power to give " + gChar + ":");
        else if (m == "Remove Power") ask("power_remove", "Name of the power to take from " + gChar + ":");
    }
    else if (id == "power_name")
    {
        gB = m;
        offer("power_tier", "Tier of " + m + ":", column(["power", "tiers"], 1), column(["power", "tiers"], 0));
    }
    else if (id == "power_tier")
    {
        gA = offered(m);
        if (gA != "") offer("power_trait", "Keyed trait:", column(["traits"], 1), column(["traits"], 0));
    }
    else if (id == "power_trait")
    {
        string t = offered(m);
        if (t != "")
            command(fill(d(["power", "add"]), ["name", "power", "tier", "trait"], [quoted(gChar), quoted(gB), gA, t]));
    }
    else if (id == "power_remove") command(fill(d(["power", "remove"]), ["name", "power"], [quoted(gChar), quoted(m)]));
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
