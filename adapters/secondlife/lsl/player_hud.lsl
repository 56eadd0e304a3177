// Nightcap Player HUD: the player's menus, talking to the Nightcap gateway over HTTP.
//
// CharGen menu while the sheet is unlocked (Character Info, Traits, Powers, View Sheet), Gameplay
// menu once a Storyteller approved it (Roll, Use Power, Sheet, Health, Daily Check-In, Refresh, and
// Challenge, Fight, Extended, Team for contests, combat, extended actions and teamwork).
// "+prove" in local chat prints the sheet's proof; "/7 <command>" sends any gateway command.
// Macros lists the wearer's macros (and the region's) and runs the one clicked. Web asks for a
// one-time sign-in link to the gateway's web pages and offers it with llLoadURL.
// The menus that build a command from choices (Roll, Use Power, the fields of Character Info and
// Traits, Powers, Switch Character) take their choices and command words from the rule system's
// declaration ("decl", asked for once per system and language), so a new system works unchanged;
// a menu whose command the system does not have is not shown.
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
list B_POWERS = ["Add Power", "Remove Power", "Back"];
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
list B_MORE = ["More"];
// Gameplay buttons and the command each needs declared ("" for none): a system without it has no button.
list NEEDS = ["Roll", "", "Use Power", "", "Sheet", "sheet", "Health", "health", "Daily Check-In", "checkin",
    "Refresh", "sheet", "Challenge", "challenge", "Fight", "init join", "Extended", "extended start",
    "Team", "team start", "View Sheet", "sheet", "Traits", "", "Powers", ""];

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
string gDecl;           // the system's menu declaration (README: "decl")
string gDeclAsked;      // the tag last asked for
list gValues;           // what the buttons of an offer page stand for, in order
list gLabels;
integer gAt;            // the first of them on the page shown
string gOfferId;
string gOfferText;
integer gField;         // the declared field being set

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

// The declaration the state names, when this HUD has another one (once per system and language).
took_state(string state_)
{
    gState = state_;
    string tag = st(["decl"]);
    if (tag == JSON_INVALID || tag == d(["tag"]) || tag == gDeclAsked) return;
    gDeclAsked = tag;
    ++gNonce;
    send("/sl/v1/command", llList2Json(JSON_OBJECT, ["text", "", "decl", tag, "body_max", 16384,
        "nonce", gNonce]));
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
    string decl = llJsonGetValue(body, ["decl"]);
    if (decl != JSON_INVALID) gDecl = decl;
    string state_ = llJsonGetValue(body, ["state"]);
    if (state_ != JSON_INVALID) took_state(state_);
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
        if (state_ != JSON_INVALID) took_state(state_);
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

// A path read one step at a time: a path of several indexes into an array of arrays is misread by
// the JSON reader the tests run (LSL-PyOptimizer's, which picks a later row that reuses an index).
string jget(string json, list path)
{
    integer i;
    for (i = 0; i < llGetListLength(path) && json != JSON_INVALID; ++i)
        json = llJsonGetValue(json, llList2List(path, i, i));
    return json;
}

string st(list path)
{
    return jget(gState, path);
}

main_menu()
{
    string mode = st(["mode"]);
    string who = st(["char"]);
    if (mode == "gameplay") menu("main", who + " (approved)" + pools_line() + fields_text(), have(B_GAMEPLAY));
    else if (mode == "chargen") menu("main", who + " (CharGen: unlocked)" + fields_text(), have(B_CHARGEN));
    else menu("main", "No character yet: Character Info > New Character.", have(B_CHARGEN));
}

string d(list path)
{
    return jget(gDecl, path);
}

integer declared(string cmd)
{
    return llListFindList(llJson2List(d(["cmds"])), [cmd]) != -1;
}

// The buttons whose command the system declares (Roll, Use Power, Traits and Powers: their own menus).
list have(list buttons)
{
    list out;
    integer i;
    for (i = 0; i < llGetListLength(buttons); ++i)
    {
        string b = llList2String(buttons, i);
        integer at = llListFindList(NEEDS, [b]);
        string need = llList2String(NEEDS, at + 1);
        integer ok = (at == -1 || (need != "" && declared(need)));
        if (b == "Roll") ok = (d(["roll", 0]) != JSON_NULL && d(["roll", 0]) != JSON_INVALID);
        else if (b == "Use Power") ok = (d(["power", "use"]) != JSON_INVALID);
        else if (b == "Traits") ok = (numbers() != []);
        else if (b == "Powers") ok = (d(["power", "add"]) != JSON_INVALID);
        if (ok) out += [b];
    }
    return out;
}

// "\nWillpower 4/5  Essence 9/10": the sheet's pools by their declared names.
string pools_line()
{
    string out;
    integer i;
    string p = d(["pools", 0, 0]);
    while (p != JSON_INVALID)
    {
        if (st(["pools", p]) != JSON_INVALID)
        {
            if (out != "") out += "  ";
            out += d(["pools", i, 1]) + " " + pool(p);
        }
        p = d(["pools", ++i, 0]);
    }
    if (out == "") return "";
    return "\n" + out;
}

// The sheet's text and choice fields, one a line ("Origin: Mage").
string fields_text()
{
    string out;
    integer i;
    string label = st(["fields", 0, 0]);
    while (label != JSON_INVALID)
    {
        out += "\n" + label + ": " + st(["fields", i, 1]);
        label = st(["fields", ++i, 0]);
    }
    return out;
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

// Choices from the declaration: ``labels`` on the buttons (10 a page with More), ``values`` what
// each stands for (a trait's key, a tier's word, a field's number).
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
    menu(gOfferId, gOfferText, shown + B_NAV);
}

// What the button clicked on an offer page stands for; "" for More, which shows the next page.
string offered(string m)
{
    if (m == "More" && llGetListLength(gLabels) > 11) { offer_page(gAt + 10); return ""; }
    integer at = llListFindList(gLabels, [m]);
    if (at == -1) return "";
    return llList2String(gValues, at);
}

// A declared command line: even items literal, odd items the names of the values put there.
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

// The character's traits in the sheet's order, by their declared labels; a click gives the key.
offer_traits(string id, string text)
{
    list labels;
    list keys;
    integer i;
    string k = d(["traits", 0, 0]);
    while (k != JSON_INVALID)
    {
        if (st(["traits", k]) != JSON_INVALID)
        {
            labels += [d(["traits", i, 1])];
            keys += [k];
        }
        k = d(["traits", ++i, 0]);
    }
    offer(id, text, labels, keys);
}

// The fields a player sets: numbers (the Traits menu) or the others (Character Info), as labels
// or as their places in the declaration ("f3").
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

list numbers()
{
    return rows(TRUE, FALSE);
}

info_menu()
{
    list labels;
    list values;
    if (st(["char"]) != JSON_INVALID)
    {
        labels = rows(FALSE, TRUE);
        values = rows(FALSE, FALSE);
    }
    if (declared("char new")) { labels += ["New Character"]; values += ["new"]; }
    if (st(["chars", 0]) != JSON_INVALID && d(["use"]) != JSON_INVALID)
    {
        labels += ["Switch Character"];
        values += ["switch"];
    }
    integer i;
    string act = d(["acts", 0]);
    while (act != JSON_INVALID && st(["char"]) != JSON_INVALID)
    {
        string when = llJsonGetValue(act, [2]);
        if (when == "[]" || llListFindList(llJson2List(when), [st(["status"])]) != -1)
        {
            labels += [llJsonGetValue(act, [0])];
            values += ["a" + (string)i];
        }
        act = d(["acts", ++i]);
    }
    offer("info", "Character Info", labels, values);
}

// One declared field: a text box, its choices, or a pad of numbers (Custom types a wider one).
set_field(integer i)
{
    gField = i;
    string row = d(["set", i]);
    string kind = llJsonGetValue(row, [1]);
    string text = llJsonGetValue(row, [0]) + " of " + st(["char"]) + ":";
    list labels;
    list values;
    integer n;
    if (kind == "text") { ask("field", text); return; }
    if (kind == "choice" || kind == "flag")
    {
        string c = jget(row, [5, 0, 0]);
        while (c != JSON_INVALID)
        {
            values += [c];
            labels += [jget(row, [5, n, 1])];
            c = jget(row, [5, ++n, 0]);
        }
        offer("field_pick", text, labels, values);
        return;
    }
    integer lo = (integer)llJsonGetValue(row, [3]);
    integer hi = (integer)llJsonGetValue(row, [4]);
    for (n = lo; n <= hi && n < lo + 10; ++n) values += [(string)n];
    if (kind == "typed") values += ["Custom"];
    offer("field_pick", text, values, values);
}

// After the trait: the modifier and Willpower steps the command declares, then the line.
roll_with(string cmd, string what, integer mod, integer wp)
{
    if (mod) ask_mod(cmd, what, wp);
    else if (wp) ask_wp(cmd, wp_prompt());
    else command(cmd);
}

roll_power(string tier, string what)
{
    string cmd = d(["power", "use", 0]) + " " + quoted(gA);
    if (tier != "") cmd += " " + tier;
    roll_with(cmd, what, (integer)d(["power", "use", 2]), (integer)d(["power", "use", 3]));
}

// The declared tiers: up to the one learned (use), or those a player may take (add).
offer_tiers(string id, string text, string learned)
{
    list labels;
    list values;
    integer i;
    string v = d(["power", "tiers", 0, 0]);
    while (v != JSON_INVALID)
    {
        if (learned != "" || (integer)d(["power", "tiers", i, 2]))
        {
            values += [v];
            labels += [d(["power", "tiers", i, 1])];
        }
        if (llToLower(v) == llToLower(learned)) v = JSON_INVALID;
        else v = d(["power", "tiers", ++i, 0]);
    }
    offer(id, text, labels, values);
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
        if (m == "Character Info") info_menu();
        else if (m == "Traits") offer("traits", "Set which trait?", rows(TRUE, TRUE), numbers());
        else if (m == "Powers") menu("powers", "Powers of " + st(["char"]), B_POWERS);
        else if (m == "View Sheet" || m == "Sheet") command("sheet");
        else if (m == "Roll") offer_traits("roll", "Roll which trait?");
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
        string v = offered(m);
        string what = llGetSubString(v, 0, 0);
        if (v == "new") ask("new", "Name of the new character:");
        else if (v == "switch") pick("use_char", "Play which character?", llJson2List(st(["chars"])));
        else if (what == "a") command(fill(d(["acts", (integer)llGetSubString(v, 1, -1), 1]), [], []));
        else if (what == "f") set_field((integer)llGetSubString(v, 1, -1));
    }
    else if (id == "new") command("char new " + quoted(m));
    else if (id == "use_char") { if (picked(m) != "") command(fill(d(["use"]), ["name"], [quoted(picked(m))])); }
    else if (id == "field") command(fill(d(["set", gField, 2]), ["value"], [m]));
    else if (id == "field_pick")
    {
        string v = offered(m);
        if (v == "Custom") ask("field", d(["set", gField, 0]) + " of " + st(["char"]) + ":");
        else if (v != "") command(fill(d(["set", gField, 2]), ["value"], [v]));
    }
    else if (id == "traits") { if (offered(m) != "") set_field((integer)llGetSubString(offered(m), 1, -1)); }
    else if (id == "powers")
    {
        if (m == "Add Power") ask("power_name", "Name of the power:");
        else if (m == "Remove Power") pick("power_remove", "Remove which power?", power_names());
    }
    else if (id == "power_name") { gA = m; offer_tiers("power_tier", "Tier of " + m + ":", ""); }
    else if (id == "power_tier")
    {
        gB = offered(m);
        if (gB != "") offer_traits("power_trait", "Which trait does it key off?");
    }
    else if (id == "power_trait")
    {
        string k = offered(m);
        if (k != "") command(fill(d(["power", "add"]), ["power", "tier", "trait"], [quoted(gA), gB, k]));
    }
    else if (id == "power_remove")
    {
        if (picked(m) != "") command(fill(d(["power", "remove"]), ["power"], [quoted(picked(m))]));
    }
    else if (id == "roll")
    {
        string k = offered(m);
        if (k != "") roll_with(d(["roll", 0]) + " " + k, m, (integer)d(["roll", 1]), (integer)d(["roll", 2]));
    }
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
        if ((integer)d(["power", "use", 1])) offer_tiers("use_tier", "Use " + gA + " at which tier?" + pools_line(), tier_of(gA));
        else roll_power("", gA);
    }
    else if (id == "use_tier") { if (offered(m) != "") roll_power(offered(m), gA + " (" + m + ")"); }
    else if (id == "challenge")
    {
        if (m == "Defend") offer_traits("defend", "Defend with which trait?");
        else if (m == "Concede") command("concede");
        else if (m == "Challenge") ask("challenge_name", "Challenge whom? (a character's name)");
        else if (m == "Pending") command("challenge");
    }
    else if (id == "defend") { if (offered(m) != "") ask_mod("defend " + offered(m), m, TRUE); }
    else if (id == "challenge_name") { gA = m; offer_traits("challenge_trait", "Challenge " + m + " with which trait?"); }
    else if (id == "challenge_trait") { if (offered(m) != "") ask_mod("challenge " + quoted(gA) + " " + offered(m), m, TRUE); }
    else if (id == "fight")
    {
        if (m == "Join Fight") command("init join");
        else if (m == "Attack") ask("attack_name", "Attack whom? (a name in the fight)");
        else if (m == "Order") command("init list");
        else if (m == "Next Turn") command("init next");
        else if (m == "Start Fight") command("init start");
        else if (m == "Roll Order") command("init roll");
    }
    else if (id == "attack_name") { gA = m; offer_traits("attack_trait", "Attack " + m + " with which trait?"); }
    else if (id == "attack_trait")
    {
        if (offered(m) != "") ask_mod("attack " + quoted(gA) + " " + offered(m), m + " (a weapon is worth +1 or +2)", TRUE);
    }
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
            offer_traits("ext_trait", "Roll which trait each time?");
        }
    }
    else if (id == "ext_trait") { if (offered(m) != "") command("extended start " + gA + " " + offered(m)); }
    else if (id == "team")
    {
        if (m == "Lead") offer_traits("team_trait", "Lead with which trait?");
        else if (m == "Help") ask_wp("assist", "Help the leader: +1 die, or spend 1 Willpower (" + pool("willpower") + ") for a sure success?");
        else if (m == "Help Leader") ask("assist_name", "Help whom? (the leader's name)");
        else if (m == "Team Roll") ask_wp("team roll", wp_prompt());
        else if (m == "Team Status") command("team status");
        else if (m == "Cancel Team") command("team cancel");
    }
    else if (id == "team_trait") { if (offered(m) != "") ask_mod("team start " + offered(m), m, FALSE); }
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
