// Nightcap Config: the gateway address and the shared secret, for the other scripts in this object.
//
// Put this script in every Nightcap object (Player HUD, ST HUD, relay) next to the main script,
// edit the two lines below, save, and set the script to NO MODIFY for the next owner: a no-modify
// script's source cannot be opened, so the secret cannot be read out of a HUD you hand out.
// The secret is the gateway's [secondlife] shared_secret; the URL has no trailing slash.

string GATEWAY = "https://gateway.example.org";
string SECRET = "paste the [secondlife] shared_secret here";

integer CFG_ASK = 7100;     // another script asks for the configuration
integer CFG_ANSWER = 7101;  // the answer: str = gateway URL, id = secret

answer()
{
    llMessageLinked(LINK_THIS, CFG_ANSWER, GATEWAY, (key)SECRET);
}

default
{
    state_entry()
    {
        answer();
    }

    on_rez(integer param)
    {
        answer();
    }

    link_message(integer sender, integer num, string str, key id)
    {
        if (num == CFG_ASK) answer();
    }
}
