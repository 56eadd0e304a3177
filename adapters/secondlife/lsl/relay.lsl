// Nightcap Region Relay: receives the gateway's announcements and emotes at its HTTP-in URL and
// says them region-wide on RELAY_CHANNEL, where every Nightcap Player HUD in the region listens.
//
// Rez one per region (it is not an attachment), with the "Nightcap Config" script next to it.
// It forwards the gateway's signature untouched: a HUD checks it against this relay's object and
// owner keys, so a message typed on RELAY_CHANNEL by anything else is ignored. Protocol: README.md.

string ROLE = "relay";
integer SECURE_URL = TRUE;
integer RELAY_CHANNEL = -71770417;
integer CFG_ASK = 7100;
integer CFG_ANSWER = 7101;
integer WINDOW = 120;

string gGateway;
string gSecret;
string gMyUrl;
key gUrlReq;
key gReq = NULL_KEY;
integer gNonce;
integer gTries;
list gSeen;

string sign(string ts, string body)
{
    return llHMAC(gSecret, ts + "\n" + (string)llGetKey() + "\n" + (string)llGetOwner() + "\n" + body, "sha256");
}

// A request signs where the relay is too (the simulator's shard and region headers decide things).
string sign_request(string ts, string body)
{
    return llHMAC(gSecret, ts + "\n" + (string)llGetKey() + "\n" + (string)llGetOwner() + "\n"
        + llGetEnv("grid") + "\n" + llGetRegionName() + "\n" + body, "sha256");
}

request_url()
{
    if (gMyUrl != "") llReleaseURL(gMyUrl);
    gMyUrl = "";
    if (SECURE_URL) gUrlReq = llRequestSecureURL();
    else gUrlReq = llRequestURL();
}

register()
{
    string body = llList2Json(JSON_OBJECT, ["url", gMyUrl, "role", ROLE, "nonce", ++gNonce]);
    string ts = (string)llGetUnixTime();
    gReq = llHTTPRequest(gGateway + "/sl/v1/register", [HTTP_METHOD, "POST", HTTP_MIMETYPE, "application/json",
        HTTP_VERBOSE_THROTTLE, FALSE,
        HTTP_CUSTOM_HEADER, "X-Gateway-Timestamp", ts,
        HTTP_CUSTOM_HEADER, "X-Gateway-Signature", sign_request(ts, body)], body);
    if (gReq == NULL_KEY) llSetTimerEvent(20.0);   // throttled: try again after the window
}

default
{
    state_entry()
    {
        gNonce = (integer)llFrand(1000000.0);
        llMessageLinked(LINK_THIS, CFG_ASK, "", NULL_KEY);
    }

    on_rez(integer param)
    {
        llResetScript();
    }

    changed(integer change)
    {
        if (change & CHANGED_OWNER) llResetScript();
        if (change & (CHANGED_REGION_START | CHANGED_REGION)) request_url();
    }

    link_message(integer sender, integer num, string str, key id)
    {
        if (num != CFG_ANSWER) return;
        integer first = (gGateway == "");
        gGateway = str;
        gSecret = (string)id;
        if (first) request_url();
    }

    http_request(key id, string method, string body)
    {
        if (id == gUrlReq)
        {
            gUrlReq = NULL_KEY;
            if (method == URL_REQUEST_GRANTED) { gMyUrl = body; gTries = 0; register(); }
            else llSetTimerEvent(10.0);
            return;
        }
        if (method != "POST") { llHTTPResponse(id, 405, "POST only"); return; }
        string ts = llGetHTTPHeader(id, "x-gateway-timestamp");
        string sig = llGetHTTPHeader(id, "x-gateway-signature");
        if (ts == "" || llAbs(llGetUnixTime() - (integer)ts) > WINDOW || llListFindList(gSeen, [sig]) != -1
            || sig != sign(ts, body))
        {
            llHTTPResponse(id, 401, "refused");
            return;
        }
        gSeen = llList2List([sig] + gSeen, 0, 15);
        llHTTPResponse(id, 200, "ok");
        // The gateway keeps relay bodies under 900 bytes: with this envelope, under llRegionSay's 1023.
        llRegionSay(RELAY_CHANNEL, "NCGW|" + ts + "|" + sig + "|" + body);
    }

    http_response(key id, integer status, list meta, string body)
    {
        if (id != gReq) return;
        gReq = NULL_KEY;
        if (status == 200) return;
        if (status == 401 || status == 403) { llOwnerSay("The gateway refused this relay: " + body); return; }
        if (++gTries < 8) llSetTimerEvent(30.0 * gTries);   // 499, 5xx, 429: register again later
    }

    timer()
    {
        llSetTimerEvent(0.0);
        if (gMyUrl == "") request_url();
        else register();
    }
}
