"""Storyteller tools: permissions, approval and the sheet export, edits with audit rows, pools by hand,
NPC and stat rolls, announcements, the Storyteller log and history."""

from __future__ import annotations

from gateway.testing import Chat
from tests.nightcap.conftest import MakeChat
from tests.nightcap.helpers import audit_rows, build, character, ok, outbox_rows, pools, refused, stlog_rows

ST = {"as_": "ana", "st": True}

# A plausible argument list for every Storyteller command, so the refusal is about the role, not the words.
ARGS = {
    "st": "",
    "st add": "discord:1",
    "st remove": "discord:1",
    "st list": "",
    "st log": "Mira --since 2h",
    "st history": "Mira",
    "st roster": "unlocked",
    "st search": "Mi",
    "st show": "Mira",
    "st approve": "Mira",
    "st unapprove": "Mira",
    "st retire": "Mira",
    "st set": "Mira origin Human",
    "st trait": "Mira physical 9",
    "st power": "Mira add Doom legendary spirit",
    "st pool": "Mira essence 3",
    "st roll": "4",
    "st rollstat": "Mira physical",
    "st mod": "Mira -1",
    "st soak": "Mira 1",
    "st announce": "Hello",
    "st emote": "The wind howls",
    "st export": "Mira",
    "st import": "{}",
    "st sync": "",
}


async def test_a_player_is_refused_every_st_command_naming_the_role(chat: Chat) -> None:
    await build(chat)
    names = [c.name for c in chat.services.plugins.registry.visible("nightcap") if c.name.split()[0] == "st"]
    assert sorted(names) == sorted(ARGS)
    before = (len(await audit_rows(chat)), len(await stlog_rows(chat)), len(await outbox_rows(chat)))
    for name in names:
        replies = await chat.say(f"{name} {ARGS[name]}".strip(), "mira")
        assert len(replies) == 1
        assert replies[0].error == "forbidden", name
        assert replies[0].text == f"{name} needs the Storyteller role, which you do not have."
    reply = (await chat.say("st frobnicate Mira", "mira"))[0]
    assert reply.text == "st needs the Storyteller role, which you do not have."
    assert (len(await audit_rows(chat)), len(await stlog_rows(chat)), len(await outbox_rows(chat))) == before
    assert (await character(chat, "Mira")).sheet["traits"]["physical"] == 3


async def test_approval_sends_the_sheet_to_the_stlog_targets_and_the_export(make_chat: MakeChat) -> None:
    chat = await make_chat(
        stlog={"targets": ["discord:stlog", "secondlife:st-huds"]},
        nightcap={"sheet_export": "discord:sheets"},
    )
    await build(chat, approve=False)
    await ok(chat, "st approve mira", **ST)
    rows = [
        r for r in await outbox_rows(chat) if r.payload.get("stlog_kind") == "approve" or r.target == "sheets"
    ]
    assert [(r.platform, r.target, r.payload["kind"]) for r in rows] == [
        ("discord", "stlog", "stlog"),
        ("secondlife", "st-huds", "stlog"),
        ("discord", "sheets", "sheet"),
    ]
    export = rows[2].payload
    assert export["reason"] == "approve"
    assert export["sheet"]["name"] == "Mira" and export["sheet"]["status"] == "approved"
    assert set(export["sheet"]) == {"name", "status", "owner", "fields", "traits", "powers", "pools"}
    assert export["sheet"]["pools"]["willpower"] == {"current": 5, "max": 5}
    assert rows[0].payload["result"]["sheet"] == export["sheet"]
    assert export["text"].startswith("Mira (Nightcap, approved; player Mira)\n")

    await ok(chat, "st trait Mira physical 6", **ST)
    exported = await ok(chat, "st export Mira", **ST)
    assert exported.text == "Mira's sheet is queued for discord:sheets."
    await build(chat, "Dorian", "dorian")
    await build(chat, "Vex", "vex", approve=False)
    synced = await ok(chat, "st sync", **ST)
    assert synced.text == "2 approved sheets queued for discord:sheets; the export sends them paced."
    sheets = [r.payload for r in await outbox_rows(chat) if r.target == "sheets"]
    assert [(p["reason"], p["sheet"]["name"]) for p in sheets] == [
        ("approve", "Mira"),
        ("export", "Mira"),
        ("approve", "Dorian"),
        ("sync", "Dorian"),
        ("sync", "Mira"),
    ]
    assert sheets[1]["sheet"]["traits"]["physical"] == 6


async def test_no_export_configured(chat: Chat) -> None:
    await build(chat)
    text = 'No sheet export is configured: set [nightcap] sheet_export = "discord:sheets".'
    assert await refused(chat, "st export Mira", **ST) == text
    assert await refused(chat, "st sync", **ST) == text
    assert [r for r in await outbox_rows(chat) if r.payload.get("kind") == "sheet"] == []


async def test_storyteller_edits_ignore_limits_and_are_audited(chat: Chat) -> None:
    await build(chat)
    await ok(chat, "st trait Mira physical 12", **ST)
    await ok(chat, "st trait Mira spirit 6", **ST)
    await ok(chat, "st power Mira add Doom Gaze legendary mental", **ST)
    await ok(chat, "st power Mira add Ward epic spirit", **ST)
    await ok(chat, "st power Mira remove shadow", **ST)
    await ok(chat, "st set Mira subgroup Children of Ishtara", **ST)
    await ok(chat, "st pool Mira essence max 12", **ST)
    await ok(chat, "st pool Mira essence 12", **ST)
    await ok(chat, "st pool Mira health 4", **ST)
    c = await character(chat, "Mira")
    assert c.sheet["traits"] == {"physical": 12, "mental": 3, "social": 2, "spirit": 6}
    assert c.sheet["powers"] == [
        {"name": "Ward", "tier": "epic", "trait": "spirit"},
        {"name": "Doom Gaze", "tier": "legendary", "trait": "mental"},
    ]
    assert c.sheet["fields"]["subgroup"] == "Children of Ishtara"
    # Willpower's maximum follows Mental + Spirit; the current value stays where it was.
    assert await pools(chat, "Mira") == {"willpower": (5, 9), "essence": (12, 12), "damage": (4, 10)}
    rows = [
        (r.actor_key, r.action, r.field_name, r.old_value, r.new_value)
        for r in await audit_rows(chat)
        if r.action.startswith("st.") and r.action != "st.approve"
    ]
    assert rows == [
        ("console:ana", "st.trait", "physical", "3", "12"),
        ("console:ana", "st.trait", "spirit", "2", "6"),
        (
            "console:ana",
            "st.power",
            "Doom Gaze",
            None,
            '{"name": "Doom Gaze", "tier": "legendary", "trait": "mental"}',
        ),
        (
            "console:ana",
            "st.power",
            "Ward",
            '{"name": "Ward", "tier": "basic", "trait": "spirit"}',
            '{"name": "Ward", "tier": "epic", "trait": "spirit"}',
        ),
        (
            "console:ana",
            "st.power",
            "Shadow Step",
            '{"name": "Shadow Step", "tier": "adept", "trait": "physical"}',
            None,
        ),
        ("console:ana", "st.set", "subgroup", "", "Children of Ishtara"),
        ("console:ana", "st.pool_max", "essence", "10", "12"),
        ("console:ana", "st.pool", "essence", "10", "12"),
        ("console:ana", "st.pool", "damage", "0", "4"),
    ]
    edits = [r for r in await stlog_rows(chat) if r.kind == "st_edit"]
    assert len(edits) == len(rows)
    assert edits[0].text == "Storyteller Ana: Mira's Physical 3 → 12."
    history = await ok(chat, "st history Mira --limit 3", **ST)
    assert history.private
    assert history.text.splitlines() == [
        "History of Mira, last 3:",
        "2026-11-30 12:00 PST console:ana st.pool_max essence: 10 → 12",
        "2026-11-30 12:00 PST console:ana st.pool essence: 10 → 12",
        "2026-11-30 12:00 PST console:ana st.pool damage: 0 → 4",
    ]


async def test_pool_limits_and_bad_words(chat: Chat) -> None:
    await build(chat)
    assert await refused(chat, "st pool Mira willpower 9", **ST) == (
        "Mira's Willpower maximum is 5: raise it first with st pool Mira willpower max 9."
    )
    assert await refused(chat, "st pool Mira health 11", **ST) == (
        "Mira's Health (damage) maximum is 10: the Health track ends there (Incapacitated)."
    )
    assert await refused(chat, "st pool Mira blood 3", **ST) == (
        "Unknown pool 'blood'. Write st pool NAME willpower|essence|health N,"
        " or st pool NAME willpower|essence max N."
    )
    assert await refused(chat, "st trait Nobody physical 3", **ST) == (
        "No Nightcap character called Nobody: st search TEXT finds one."
    )
    assert await refused(chat, "st approve Mira", **ST) == "Mira is already approved."


async def test_unapprove_returns_the_sheet_to_creation(chat: Chat) -> None:
    await build(chat)
    reply = await ok(chat, "st unapprove Mira", **ST)
    assert reply.text == "Mira is back in creation: the player can edit the sheet again."
    await ok(chat, "trait physical 2", "mira")
    assert await refused(chat, "prove") == (
        "Mira is not approved yet: prove works once a Storyteller approves the sheet"
        " (char submit when it is ready)."
    )


async def test_roster_search_show(chat: Chat) -> None:
    await build(chat, "Mira Vance")
    await build(chat, "Dorian", "dorian", approve=False)
    await ok(chat, "char new Vex", "vex")
    assert (await ok(chat, "st roster", **ST)).text == (
        "Characters (3): Dorian (submitted, Dorian), Mira Vance (approved, Mira), Vex (creation, Vex)."
    )
    assert (
        await ok(chat, "st roster approved", **ST)
    ).text == "Approved characters (1): Mira Vance (approved, Mira)."
    assert (await ok(chat, "st roster unlocked", **ST)).text == (
        "Unlocked characters (2): Dorian (submitted, Dorian), Vex (creation, Vex)."
    )
    assert (
        await ok(chat, "st search VAN", **ST)
    ).text == "Characters matching 'VAN' (1): Mira Vance (approved, Mira)."
    assert (await ok(chat, "st search %", **ST)).text == "Characters matching '%' (0): none."
    shown = await ok(chat, "st show mira vance", **ST)
    assert shown.private and shown.text.startswith("Mira Vance (Nightcap, approved; player Mira)\n")


async def test_npc_roll_and_rollstat(make_chat: MakeChat) -> None:
    chat = await make_chat(stlog={"targets": ["discord:stlog"]})
    await build(chat)
    chat.dice.extend([9, 5, 10, 1, 7])
    npc = await ok(chat, "st roll 4 +1 the ghoul", **ST)
    assert npc.result is not None
    assert (
        npc.text == "NPC roll by Storyteller Ana: the ghoul rolls 4+1 = 5 dice: 9 5 10 1 7 → 3 (Solid)"
        f" #{npc.result['id']}"
    )
    assert not npc.private and npc.result["npc"] is True
    chat.dice.extend([8, 8])
    stat = await ok(chat, "st rollstat Mira physical -1", **ST)
    assert stat.result is not None
    expected = f"Storyteller Ana rolls Mira's Physical 3-1 = 2 dice: 8 8 → 2 (Solid) #{stat.result['id']}"
    assert stat.text == expected
    logged = [r for r in await stlog_rows(chat) if r.kind == "st_roll"]
    assert [r.text for r in logged] == [npc.text, stat.text]
    assert logged[1].character_id == (await character(chat, "Mira")).id
    verify = await ok(chat, f"verify {stat.result['id']}", "bob")
    assert verify.result is not None and verify.result["roll"]["dice"] == [8, 8]
    chat.dice.extend([2])
    secret = await ok(chat, "st roll 1 secret", **ST)
    assert secret.private
    assert await refused(chat, "st roll ghoul", **ST) == (
        "A Storyteller roll starts each side with a number of dice. Write st roll N [+N|-N ...] [LABEL]"
        " [vs N [+N|-N ...] [LABEL]] [secret], e.g. st roll 4 +1 ghoul or st roll 6 vs 3."
    )


async def test_announce_goes_to_every_chronicle_channel(make_chat: MakeChat) -> None:
    chat = await make_chat(nightcap={"announce_targets": ["secondlife:all-huds"]})
    await build(chat)
    # Channels the vault has seen: two chat rooms, a direct conversation, an HTTP caller, a Decanter room.
    await chat.say("help", "bob", platform="irc", channel="libera/#night")
    await chat.say("help", "bob", platform="matrix", channel="!room:example.org")
    await chat.say("help", "bob", platform="http", channel="script")
    await chat.say("help", "bob", platform="discord", channel="dm-1")
    await chat.say("help", "bob", platform="discord", channel="decanter-room")
    from gateway.core.types import Channel, Identity, InboundMessage

    await chat.services.router.handle(
        InboundMessage(
            sender=Identity("discord", "bob", "Bob"),
            channel=Channel("discord", "dm-2", direct=True),
            text="help",
        )
    )
    async with chat.services.vault.transaction() as session:
        from gateway.vault.models import ChannelRow

        row = await session.get(ChannelRow, "discord:decanter-room")
        assert row is not None
        row.system = "decanter"
        session.add(row)
    reply = await ok(chat, "st announce The moon is red tonight", **ST)
    assert reply.text == "Announcement from Storyteller Ana: The moon is red tonight"
    assert not reply.private
    assert reply.result is not None
    assert reply.result["targets"] == [
        "discord:dm-1",
        "irc:libera/#night",
        "matrix:!room:example.org",
        "secondlife:all-huds",
    ]
    rows = [r for r in await outbox_rows(chat) if r.payload.get("kind") == "announce"]
    assert [f"{r.platform}:{r.target}" for r in rows] == reply.result["targets"]
    assert rows[0].payload == {
        "kind": "announce",
        "text": "Announcement from Storyteller Ana: The moon is red tonight",
        "who": "Ana",
        "where": "console:main",
    }
    emote = await ok(chat, "st emote The wind howls.", **ST)
    assert emote.text == "The wind howls." and emote.result is not None
    assert emote.result["targets"] == reply.result["targets"]
    here = await ok(chat, "st emote here A door creaks.", **ST)
    assert here.result is not None and here.result["targets"] == []
    assert [r.kind for r in await stlog_rows(chat)][-3:] == ["announce", "emote", "emote"]


async def test_stlog_query(chat: Chat) -> None:
    await build(chat)
    await build(chat, "Dorian", "dorian")
    chat.clock.advance(hours=3)
    chat.dice.extend([7, 7, 7])
    roll = await ok(chat, "roll physical", "mira")
    chat.dice.extend([2, 2, 2])
    await ok(chat, "roll physical", "dorian")
    everything = await ok(chat, "st log", **ST)
    assert everything.private and everything.result is not None
    assert len(everything.result["entries"]) == 6  # two submits, two approvals, two rolls
    recent = await ok(chat, "st log --since 1h", **ST)
    assert recent.result is not None
    assert [e["kind"] for e in recent.result["entries"]] == ["roll", "roll"]
    mira = await ok(chat, "st log Mira --since 1h", **ST)
    assert (
        mira.text == "Storyteller log for Mira since 2026-11-30 14:00 PST, last 1:\n"
        f"2026-11-30 15:00 PST [roll] {roll.text}"
    )
    assert (await ok(chat, "st log Mira --since today --limit 1", **ST)).result["entries"][0][
        "text"
    ] == roll.text  # type: ignore[index]
    dated = await ok(chat, "st log --since 2026-12-01", **ST)
    assert dated.text == "The Storyteller log since 2026-12-01 00:00 PST is empty."
    assert await refused(chat, "st log --since soon", **ST) == (
        "I cannot read 'soon' as a time: write --since 2h, 30m, 3d, today, 2026-11-30 or 2026-11-30T18:00."
    )
    assert await refused(chat, "st log Nobody", **ST) == (
        "No Nightcap character called Nobody. Write st log [NAME] [--since 2h] [--limit N]."
    )
