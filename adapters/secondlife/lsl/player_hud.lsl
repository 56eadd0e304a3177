// Nightcap Player HUD: the player's menus, talking to the Nightcap gateway over HTTP.
//
// CharGen menu while the sheet is unlocked (Character Info, Traits, Powers, View Sheet), Gameplay
// menu once a Storyteller approved it (Roll, Use Power, Sheet, Health, Daily Check-In, Refresh, and
// Challenge, Fight, Extended, Team for contests, combat, extended actions and teamwork).
// "+prove" in local chat prints the sheet's proof; "/7 <command>" sends any gateway command.
// Macros lists the wearer's macros (and the region's) and runs the one clicked. Web asks for a
// one-time sign-in link to the gateway's web pages and offers it with llLoadURL.
// Needs the "Nightcap Config" script (nc_config.lsl) in the same object. Wire protocol: README.md.

string ROLE = "player-hud";
integer SECURE_URL = TRUE;          // llRequestSecureURL (https) or llRequestURL (http)
integer CMD_CHANNEL = 7;            // "/7 roll 3" sends "roll 3"
integer RELAY_CHANNEL = -71770417;  // where region relays re-say the gateway's announcements
integer CFG_ASK = 7100;
integer CFG_ANSWER = 7101;
float MIN_GAP = 1.2;                // seconds between requests: under the ~25 per 20 s object throttle
integer MAX_QUEUE = 16;             // list entries (8 requests) waiting at most
integer WINDOW = 120;               // seconds a push's timestamp may be off

list B_CHARGEN = ["Character Info", "Traits", "Powers", "View Sheet", "Macros", "Web"];
list B_GAMEPLAY = ["Roll", "Use Power", "Sheet", "Health", "Daily Check-In", "Refresh", "Challenge",
    "Fight", "Extended", "Team", "Macros", "Web"];   // 12: a dialog's most
list B_INFO = ["Name", "Origin", "Subgroup", "Aptitude", "Advantage", "Weakness", "New Character",
    "Switch Character", "Submit", "Back"];
list B_TRAITS = ["Physical", "Mental", "Social", "Spirit", "Back"];
list B_TRAITS_BUDGET = ["Physical", "Mental", "Social", "Spirit", "Budget", "Back"];
list B_POWERS = ["Add Power", "Remove Power", "Budget", "Back"];
list B_TIERS = ["Basic", "Adept", "Advanced", "Back"];
list B_RATING = ["1", "2", "3", "4", "Back"];
list B_MODS = ["-3", "-2", "-1", "+0", "+1", "+2", "+3", "Back"];
list B_WP = ["Spend WP", "No WP", "Cancel"];
list B_HEALTH = ["Show Health", "Heal 1", "Take Damage", "Back"];
list B_DAMAGE = ["1", "2", "3", "4", "5", "Back"];
list B_CHALLENGE = ["Defend", "Concede", "Challenge", "Pending", "Back"];
list B_FIGHT = ["Join Fight", "Attack", "Order", "Next Turn", "Start Fight", "Roll Order", "Back"];
list B_EXTENDED = ["Start", "Roll", "Status", "Abandon", "Back"];
list B_EXT_SIZE = ["5 in 3", "10 in 5", "Custom", "Back"];   // the book's two defaults
list B_TEAM = ["Lead", "Help", "Help Leader", "Team Roll", "Team Status", "Cancel Team", "Back"];
list B_NAV = ["Back"];
list TIER_NAMES = ["Basic", "Adept", "Advanced", "Epic", "Legendary"];

string gGateway;
string gSecret;
string gMyUrl;
key gUrlReq;
float gUrlRetryAt;
list gQueue;            // [path, body, path, body, ...]
key gReq = NULL_KEY;
string gReqPath;        // the request in flight, sent again after a 429 (it did not run)
string gReqBody;
float gNextSend;
integer gNonce;
list gSeen;
list gPushIds;          // "id/part" of the last pushes shown: a retried push is answered, not shown twice             // signatures of the last pushes accepted (replay guard)
string gState = "{}";   // the gateway's "state" object
integer gChan;
integer gListen;
float gMenuUntil;
string gMenu;           // which dialog or text box is open
list gPick;             // full names behind the buttons of a list dialog
string gA;              // choices made so far in a multi-step menu
string gB;
string gCmd;            // the command line being built, before its modifier and Willpower
integer gAskWp;         // whether the modifier step is followed by "Spend WP?"
integer gWantMacros;    // a "Macros" click waits for the gateway's list of the wearer's macros
integer gMacroAt;       // the first macro on the Macros page shown
integer MACROS_PAGE = 10;   // + More + Back = 12 buttons

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
    // The command parser groups words in double quotes; a quote inside the name would end it.
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
    send("/sl/v1/command", llList2Json(JSON_OBJECT,
        ["text", text, "state", JSON_TRUE, "body_max", 16384, "nonce", gNonce]));
}

// The names of the macros the wearer sees here (their own and the region's), for the Macros page.
ask_macros()
{
    ++gNonce;
    gWantMacros = TRUE;
    send("/sl/v1/command", llList2Json(JSON_OBJECT, ["text", "", "macros", JSON_TRUE, "nonce", gNonce]));
}

macro_page(integer from)
{
    if (gPick == [])
    {
        menu("macros_none", "No macros here yet. Save one: /7 macro add NAME = COMMAND", B_NAV);
        return;
    }
    if (from >= llGetListLength(gPick)) from = 0;
    gMacroAt = from;
    list labels;
    integer i;
    for (i = from; i < llGetListLength(gPick) && i < from + MACROS_PAGE; ++i)
        labels += [fit((string)(i + 1) + ". " + llList2String(gPick, i), 24)];
    if (llGetListLength(gPick) > MACROS_PAGE) labels += ["More"];
    menu("macros", "Run which macro? (" + (string)llGetListLength(gPick) + " in all)", labels + B_NAV);
}

refresh_state()
{
    ++gNonce;
    send("/sl/v1/command", llList2Json(JSON_OBJECT, ["text", "", "state", JSON_TRUE, "nonce", gNonce]));
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
        gNextSend = llGetTime() + 20.0;   // throttled by the simulator: wait out its window
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
        // A sign-in link ("web"): the viewer asks the wearer before it opens the page.
        string url = llJsonGetValue(r, ["url"]);
        if (url != JSON_INVALID && url != "")
            llLoadURL(llGetOwner(), "Sign in to the web pages (the link works once).", url);
        r = llJsonGetValue(body, ["replies", ++i]);
    }
    string names = llJsonGetValue(body, ["macros"]);
    if (gWantMacros && names != JSON_INVALID)
    {
        gWantMacros = FALSE;
        gPick = llJson2List(names);
        macro_page(0);
    }
    string state_ = llJsonGetValue(body, ["state"]);
    if (state_ != JSON_INVALID) gState = state_;
    if (llJsonGetValue(body, ["cut"]) != JSON_INVALID)
        llOwnerSay("(" + llJsonGetValue(body, ["cut"]) + " more lines did not fit; see the sheet on another platform)");
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

integer verified(string ts, string sig, key object, key owner, string body)
{
    if (ts == "" || sig == "") return FALSE;
    if (llAbs(llGetUnixTime() - (integer)ts) > WINDOW) return FALSE;
    if (llListFindList(gSeen, [sig]) != -1) return FALSE;
    if (sig != sign(ts, object, owner, body)) return FALSE;
    gSeen = llList2List([sig] + gSeen, 0, 15);
    return TRUE;
}

pushed(string body)
{
    string kind = llJsonGetValue(body, ["kind"]);
    string text = llJsonGetValue(body, ["text"]);
    if (kind == "refresh")
    {
        string state_ = llJsonGetValue(body, ["state"]);
        if (state_ != JSON_INVALID) gState = state_;
        else refresh_state();
        llOwnerSay(text);
    }
    else if (kind == "announce")
    {
        llDialog(llGetOwner(), fit("Announcement\n\n" + text, 511), ["OK"], -987654);
    }
    else if (kind == "reply" && llJsonGetValue(body, ["private"]) == JSON_FALSE) llSay(0, text);
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

string st(list path)
{
    return llJsonGetValue(gState, path);
}

main_menu()
{
    string mode = st(["mode"]);
    string who = st(["char"]);
    if (mode == "gameplay")
    {
        menu("main", who + " (approved)\nWillpower " + pool("willpower") + "  Essence " + pool("essence")
            + "  Damage " + pool("damage"), B_GAMEPLAY);
    }
    else if (mode == "chargen") menu("main", who + " (CharGen: unlocked)", B_CHARGEN);
    else menu("main", "No character yet: Character Info > New Character.", B_CHARGEN);
}

string pool(string name)
{
    string p = st(["pools", name]);
    if (p == JSON_INVALID) return "-";
    return llJsonGetValue(p, [0]) + "/" + llJsonGetValue(p, [1]);
}

list power_names()
{
    list names;
    integer i;
    string p = st(["powers", 0, 0]);
    while (p != JSON_INVALID && i < 11)
    {
        names += [p];
        p = st(["powers", ++i, 0]);
    }
    return names;
}

pick(string id, string text, list names)
{
    list labels;
    integer i;
    gPick = llList2List(names, 0, 10);
    for (i = 0; i < llGetListLength(gPick); ++i)
        labels += [fit((string)(i + 1) + ". " + llList2String(gPick, i), 24)];
    menu(id, text, labels + B_NAV);
}

string picked(string label)
{
    integer n = (integer)label;
    if (n < 1 || n > llGetListLength(gPick)) return "";
    return llList2String(gPick, n - 1);
}

// The book's Roll: "apply a modifier if the scene calls for one", then "Before the dice leave your
// hand the HUD asks whether you want to spend a point". Every roll of the HUD takes these two steps.
ask_mod(string cmd, string what, integer wp)
{
    gCmd = cmd;
    gAskWp = wp;
    menu("mod", "Modifier for " + what + ":", B_MODS);
}

ask_wp(string cmd, string text)
{
    gCmd = cmd;
    gB = "";
    menu("wp", text, B_WP);
}

string wp_prompt()
{
    return "Spend 1 Willpower (" + pool("willpower") + ") for a guaranteed success?";
}

chosen(string m)
{
    string id = gMenu;
    close_menu();
    if (m == "Back" || m == "Cancel" || llStringTrim(m, STRING_TRIM) == "") { main_menu(); return; }
    if (id == "main")
    {
        if (m == "Character Info") menu("info", "Character Info", B_INFO);
        else if (m == "Traits") menu("traits", "Place 6 points over a base of 1; none above 4, one 4 at most.", B_TRAITS_BUDGET);
        else if (m == "Powers") menu("powers", "3 dots: Basic 1, Adept 2, Advanced 3.", B_POWERS);
        else if (m == "View Sheet" || m == "Sheet") command("sheet");
        else if (m == "Roll") menu("roll", "Roll which trait?", B_TRAITS);
        else if (m == "Use Power") pick("use", "Use which power?", power_names());
        else if (m == "Health") menu("health", "Damage taken " + pool("damage"), B_HEALTH);
        else if (m == "Daily Check-In") command("checkin");
        else if (m == "Refresh") command("sheet");
        else if (m == "Challenge") menu("challenge", "Contests: answer a challenge, or make one.", B_CHALLENGE);
        else if (m == "Fight") menu("fight", "Combat in this region.", B_FIGHT);
        else if (m == "Extended") menu("extended", "An extended action: successes over several rolls.", B_EXTENDED);
        else if (m == "Team") menu("team", "Teamwork: lead the roll, or help the leader.", B_TEAM);
        else if (m == "Macros") ask_macros();
        else if (m == "Web") command("web");
    }
    else if (id == "macros")
    {
        // "macro NAME" runs a macro whatever its name (one named like a command runs only so).
        if (m == "More") macro_page(gMacroAt + MACROS_PAGE);
        else if (picked(m) != "") command("macro " + picked(m));
    }
    else if (id == "info")
    {
        if (m == "New Character") ask("new", "Name of the new character:");
        else if (m == "Switch Character") pick("use_char", "Play which character?", llJson2List(st(["chars"])));
        else if (m == "Submit") command("char submit");
        else { gA = llToLower(m); ask("field", m + " of " + st(["char"]) + ":"); }
    }
    else if (id == "new") command("char new " + quoted(m));
    else if (id == "use_char") { if (picked(m) != "") command("char use " + quoted(picked(m))); }
    else if (id == "field") command("char set " + gA + " " + m);
    else if (id == "traits")
    {
        if (m == "Budget") command("char budget");
        else { gA = llToLower(m); menu("rating", m + " rating (1 to 4):", B_RATING); }
    }
    else if (id == "rating") command("trait " + gA + " " + m);
    else if (id == "powers")
    {
        if (m == "Add Power") ask("power_name", "Name of the power:");
        else if (m == "Remove Power") pick("power_remove", "Remove which power?", power_names());
        else if (m == "Budget") command("char budget");
    }
    else if (id == "power_name") { gA = m; menu("power_tier", "Tier of " + m + ":", B_TIERS); }
    else if (id == "power_tier") { gB = llToLower(m); menu("power_trait", "Which trait does it key off?", B_TRAITS); }
    else if (id == "power_trait") command("power add " + quoted(gA) + " " + gB + " " + llToLower(m));
    else if (id == "power_remove") { if (picked(m) != "") command("power remove " + quoted(picked(m))); }
    else if (id == "roll") ask_mod("roll " + llToLower(m), m, TRUE);
    else if (id == "mod")
    {
        gB = "";
        if (m != "+0") gB = " " + m;
        if (gAskWp) menu("wp", wp_prompt(), B_WP);
        else command(gCmd + gB);
    }
    else if (id == "wp")
    {
        if (m == "Spend WP") command(gCmd + gB + " wp");
        else command(gCmd + gB);
    }
    else if (id == "use")
    {
        gA = picked(m);
        if (gA == "") return;
        integer learned = llListFindList(TIER_NAMES, [llToUpper(llGetSubString(tier_of(gA), 0, 0))
            + llGetSubString(tier_of(gA), 1, -1)]);
        if (learned < 0) learned = 0;
        menu("use_tier", "Use " + gA + " at which tier? (Essence " + pool("essence") + ")",
            llList2List(TIER_NAMES, 0, learned) + B_NAV);
    }
    else if (id == "use_tier") ask_mod("power use " + quoted(gA) + " " + llToLower(m), gA + " (" + m + ")", TRUE);
    else if (id == "challenge")
    {
        if (m == "Defend") menu("defend", "Defend with which trait?", B_TRAITS);
        else if (m == "Concede") command("concede");
        else if (m == "Challenge") ask("challenge_name", "Challenge whom? (a character's name)");
        else if (m == "Pending") command("challenge");
    }
    else if (id == "defend") ask_mod("defend " + llToLower(m), m, TRUE);
    else if (id == "challenge_name") { gA = m; menu("challenge_trait", "Challenge " + m + " with which trait?", B_TRAITS); }
    else if (id == "challenge_trait") ask_mod("challenge " + quoted(gA) + " " + llToLower(m), m, TRUE);
    else if (id == "fight")
    {
        if (m == "Join Fight") command("init join");
        else if (m == "Attack") ask("attack_name", "Attack whom? (a name in the fight)");
        else if (m == "Order") command("init list");
        else if (m == "Next Turn") command("init next");
        else if (m == "Start Fight") command("init start");
        else if (m == "Roll Order") command("init roll");
    }
    else if (id == "attack_name") { gA = m; menu("attack_trait", "Attack " + m + " with which trait?", B_TRAITS); }
    else if (id == "attack_trait")
        ask_mod("attack " + quoted(gA) + " " + llToLower(m), m + " (a weapon is worth +1 or +2)", TRUE);
    else if (id == "extended")
    {
        if (m == "Start") menu("ext_size", "Successes to reach, in how many rolls? (5 in 3: difficult; 10 in 5: real effort)", B_EXT_SIZE);
        else if (m == "Roll") ask_mod("extended roll", "this step", TRUE);
        else if (m == "Status") command("extended status");
        else if (m == "Abandon") command("extended abandon");
    }
    else if (id == "ext_size")
    {
        if (m == "Custom") ask("ext_size", "Successes and rolls, e.g. 7 in 4:");
        else
        {
            list w = llParseString2List(llToLower(m), [" ", "in"], []);
            gA = (string)((integer)llList2String(w, 0)) + " " + (string)((integer)llList2String(w, 1));
            menu("ext_trait", "Roll which trait each time?", B_TRAITS);
        }
    }
    else if (id == "ext_trait") command("extended start " + gA + " " + llToLower(m));
    else if (id == "team")
    {
        if (m == "Lead") menu("team_trait", "Lead with which trait?", B_TRAITS);
        else if (m == "Help") ask_wp("assist", "Help the leader: +1 die, or spend 1 Willpower (" + pool("willpower") + ") for a sure success?");
        else if (m == "Help Leader") ask("assist_name", "Help whom? (the leader's name)");
        else if (m == "Team Roll") ask_wp("team roll", wp_prompt());
        else if (m == "Team Status") command("team status");
        else if (m == "Cancel Team") command("team cancel");
    }
    else if (id == "team_trait") ask_mod("team start " + llToLower(m), m, FALSE);
    else if (id == "assist_name")
        ask_wp("assist " + quoted(m), "Help " + m + ": +1 die, or spend 1 Willpower (" + pool("willpower") + ") for a sure success?");
    else if (id == "health")
    {
        if (m == "Show Health") command("health");
        else if (m == "Heal 1") command("heal 1");
        else if (m == "Take Damage") menu("damage", "How much damage?", B_DAMAGE);
    }
    else if (id == "damage") command("damage " + m);
}

string tier_of(string power)
{
    integer i;
    string p = st(["powers", 0, 0]);
    while (p != JSON_INVALID)
    {
        if (p == power) return st(["powers", i, 1]);
        p = st(["powers", ++i, 0]);
    }
    return "basic";
}

// ---------------------------------------------------------------- events

default
{
    state_entry()
    {
        gChan = -1 - (integer)llFrand(1000000000.0);
        gNonce = (integer)llFrand(1000000.0);
        llListen(0, "", llGetOwner(), "+prove");
        llListen(CMD_CHANNEL, "", llGetOwner(), "");
        llListen(RELAY_CHANNEL, "", NULL_KEY, "");
        llMessageLinked(LINK_THIS, CFG_ASK, "", NULL_KEY);
    }

    on_rez(integer param)
    {
        llResetScript();   // releases the URL; a fresh one is asked for in state_entry's chain
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
        else if (channel == 0) command("prove");
        else if (channel == CMD_CHANNEL) command(message);
        else if (channel == RELAY_CHANNEL)
        {
            // "NCGW|<timestamp>|<signature>|<body>", signed for the relay's own object and owner keys.
            list parts = llParseStringKeepNulls(llGetSubString(message, 0, 80), ["|"], []);
            if (llList2String(parts, 0) != "NCGW") return;
            string ts = llList2String(parts, 1);
            string sig = llList2String(parts, 2);
            string body = llGetSubString(message, llStringLength(ts) + llStringLength(sig) + 7, -1);
            if (verified(ts, sig, id, llGetOwnerKey(id), body)) { if (fresh(body)) pushed(body); }
        }
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
        if (!verified(ts, sig, llGetKey(), llGetOwner(), body)) { llHTTPResponse(id, 401, "refused"); return; }
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
