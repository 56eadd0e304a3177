"""Slash commands generated from the commands' declarations (``adapters.discord.slash``): the
registration of the real five systems and the core, validated as Discord validates it; each
parameter kind as its Discord type; same-named commands of several systems merged; Discord's limits
kept; and the way back, option -> ``render`` -> the router's tokeniser -> ``bind``, for every
generated option (hypothesis) and through a running gateway."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nacl.signing import SigningKey
from sqlmodel import select

from adapters.discord import slash
from adapters.discord.cli import command_definitions, register
from adapters.discord.config import load
from gateway import Channel, Command
from gateway.core.app import Gateway
from gateway.core.params import NAME_KINDS, Param, bind
from gateway.core.parser import parse
from gateway.core.settings import Settings
from gateway.features import channels
from gateway.vault.models import Character
from tests.discord import kit
from tests.discord.conftest import CHANNEL, GUILD, DiscordEnv, discord_settings, start_env
from tests.discord.fake_discord import FakeDiscord, command_problems, invocation_problems

pytestmark = pytest.mark.both_modes

STORYTELLER = "600000000000000006"


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def sub(name: str, *options: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": name, "type": 1, "options": list(options)}]


def find(definitions: list[dict[str, Any]], *path: str) -> dict[str, Any]:
    item: dict[str, Any] = {"options": definitions}
    for name in path:
        item = next(o for o in item["options"] if o["name"] == name)
    return item


async def nothing(ctx: Any, inv: Any) -> None:
    return None


def cmd(name: str, *params: Param, system: str | None = "one", **kw: Any) -> Command:
    return Command(
        name, nothing, kw.pop("summary", f"{name} of {system}"), system=system, params=params, **kw
    )


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    """A gateway with every installed rule system and the core, as ``gateway serve`` loads them."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('real') / 'vault.db'}"
    yield Gateway(Settings(vault={"url": url}), platforms=())


@pytest.fixture(scope="module")
def with_kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('kit') / 'vault.db'}"
    yield Gateway(Settings(vault={"url": url}), platforms=(), extra_plugins=[kit])


def line(slashes: slash.Slashes, name: str, options: list[dict[str, Any]]) -> str:
    parsed = slash.command_line({"name": name, "options": options}, slashes)
    assert parsed is not None
    return parsed.line


# --------------------------------------------------------------------------- the real systems


def test_the_real_systems_register_as_discord_takes_them(real: Gateway) -> None:
    slashes = slash.of(real.services)
    definitions = slash.definitions(slashes)
    assert command_problems(definitions) == []
    assert len(definitions) <= slash.MAX_COMMANDS
    names = [c["name"] for c in definitions]
    assert names == sorted(names) and "gw" in names
    # Every registered command is a slash command or subcommand, or said to be reached with /gw.
    registered = {c.name for c in slash.registered(real.services)}
    reached = {
        s.words for top in slashes.commands for s in (top.subcommands or (top,)) if s.words is not None
    }
    missing = {
        name for name in registered - reached if not any(p.startswith(f"{name}:") for p in slashes.problems)
    }
    assert missing == set()
    assert {"char new", "st approve", "roll", "init join", "sp spend"} <= reached
    assert find(definitions, "char", "new")["type"] == slash.SUB_COMMAND
    assert find(definitions, "macro", "run", "name")["autocomplete"] is True


def test_every_declared_parameter_is_an_option_of_its_command(real: Gateway, with_kit: Gateway) -> None:
    """Once the systems declare their parameters, each is an option; now the kit's stand in."""
    for gateway in (real, with_kit):
        slashes = slash.of(gateway.services)
        definitions = slash.definitions(slashes)
        for command in slash.registered(gateway.services):
            leaf = next(
                (
                    s
                    for top in slashes.commands
                    for s in (top.subcommands or (top,))
                    if s.words == command.name
                ),
                None,
            )
            if leaf is None:
                continue
            path = [leaf.name] if leaf in slashes.commands else [command.name.split()[0], leaf.name]
            options = {o["name"] for o in find(definitions, *path).get("options", [])}
            assert {p.name for p in command.params} <= options, command.name
            same = [c for c in slash.registered(gateway.services) if c.name == command.name]
            if not any(c.declared for c in same):
                assert options == {"args"}, command.name  # no declaration: one free-text option
            elif not any(c.params for c in same):
                assert options == set(), command.name  # ``params=()``: it takes no arguments


def test_storyteller_commands_need_manage_guild(real: Gateway) -> None:
    definitions = slash.definitions(slash.of(real.services))
    assert find(definitions, "st")["default_member_permissions"] == slash.MANAGE_GUILD
    for command in definitions:
        if "default_member_permissions" in command:
            roles = {c.role for c in slash.registered(real.services) if c.name.split()[0] == command["name"]}
            assert roles == {"storyteller"}, command["name"]


def test_the_same_commands_give_the_same_definitions_in_any_order(real: Gateway) -> None:
    commands = slash.registered(real.services)
    first = json.dumps(slash.definitions(commands, "nightcap"))
    shuffled = list(commands)
    random.Random(7).shuffle(shuffled)
    assert json.dumps(slash.definitions(shuffled, "nightcap")) == first


# --------------------------------------------------------------------------- kinds and merging


def test_each_kind_is_its_discord_type() -> None:
    params = (
        Param("name", "character", "who", required=True),
        Param("rating", "integer", "the rating", required=True, minimum=0, maximum=5),
        Param("modifier", "modifier", "+N/-N", minimum=-10, maximum=10),
        Param("tier", "choice", "tier", choices=("basic", "adept")),
        Param("field", "choice", "field", choices=tuple(f"f{i}" for i in range(30))),
        Param("wp", "flag", "spend Willpower", keyword="wp"),
        Param(
            "note", "text", "x" * 150, texts={"cs": ("Poznámka ke hodu", "poznámka"), "en": ("", "a note")}
        ),
        Param("switch", "house_rule", "a house rule"),
    )
    slashes = slash.build([cmd("act", *params, texts={"cs": ("Čin", ""), "ru": ("Действие", "")})])
    definitions = slashes.definitions()
    assert command_problems(definitions) == []
    act = find(definitions, "act")
    assert act["description_localizations"] == {"cs": "Čin", "ru": "Действие"}
    options = {o["name"]: o for o in act["options"]}
    assert [o["name"] for o in act["options"]][:2] == ["name", "rating"]  # required first
    assert (options["name"]["type"], options["name"]["autocomplete"]) == (3, True)
    assert (options["rating"]["type"], options["rating"]["min_value"], options["rating"]["max_value"]) == (
        4,
        0,
        5,
    )
    assert (options["modifier"]["type"], options["modifier"]["min_value"]) == (4, -10)
    assert options["tier"]["choices"] == [
        {"name": "basic", "value": "basic"},
        {"name": "adept", "value": "adept"},
    ]
    assert "choices" not in options["field"] and options["field"]["autocomplete"] is True  # 30 > 25
    assert options["wp"]["type"] == 5
    note = options["note"]
    assert note["type"] == 3 and note["max_length"] == slash.TEXT_LENGTH and len(note["description"]) <= 100
    assert note["name_localizations"] == {"cs": "poznámka-ke-hodu"}  # Discord's naming rule
    assert note["description_localizations"] == {"cs": "poznámka"}  # "en" is no Discord locale
    assert options["switch"]["autocomplete"] is True
    focus = slash.focused({"name": "act", "options": [opt("field", "f1", 3) | {"focused": True}]}, slashes)
    assert focus is not None and (focus.complete, focus.typed) == (slash.CHOICE, "f1")


def test_same_named_commands_of_several_systems_are_one_slash_command() -> None:
    one = cmd(
        "roll",
        Param("pool", "pool", "the pool", required=True),
        Param("modifier", "modifier", "+N", minimum=-5, maximum=5),
        Param("target", "integer", "the target", keyword="dc", minimum=1, maximum=8),
        system="one",
        summary="roll in One",
    )
    two = cmd(
        "roll",
        Param("pool", "pool", "the pool", required=True),
        Param("modifier", "modifier", "+N", minimum=-10, maximum=3),
        Param("target", "character", "whom", keyword="at"),
        Param("secret", "flag", "secret", keyword="secret"),
        system="two",
        summary="roll in Two",
    )
    slashes = slash.build([two, one], first="two")
    roll = find(slashes.definitions(), "roll")
    options = {o["name"]: o for o in roll["options"]}
    assert roll["description"] == "roll in Two"  # the default system's words
    assert list(options) == ["pool", "modifier", "target", "secret"]
    assert (options["modifier"]["min_value"], options["modifier"]["max_value"]) == (-10, 5)  # the widest
    assert options["target"]["type"] == 3 and "autocomplete" not in options["target"]  # kinds disagree
    assert options["pool"]["required"] is True and options["secret"]["required"] is False
    assert slashes.problems == ()
    core = cmd("roll", Param("expression", "notation", "dice notation"), system=None, summary="notation")
    assert (
        find(slash.build([core, one, two], first="one").definitions(), "roll")["description"] == "roll in One"
    )
    assert find(slash.build([core, one, two]).definitions(), "roll")["description"] == "notation"
    # Two systems typing positional parameters in another order: the first's order, and said so.
    a = cmd("give", Param("who", "character", "who"), Param("what", "word", "what"), system="a")
    b = cmd("give", Param("what", "word", "what"), Param("who", "character", "who"), system="b")
    assert [p for p in slash.build([a, b]).problems if p.startswith("give")] == [
        "give (b): parameters in another order than ['who', 'what']"
    ]


def test_discord_s_limits_are_kept() -> None:
    many = [cmd(f"big sub{i:02d}") for i in range(27)]
    wide = cmd("wide", *(Param(f"p{i}", "word", f"p{i}", required=i == 28) for i in range(30)))
    long = cmd("x" * 33)
    bare = cmd("init")
    slashes = slash.build([*many, wide, long, bare, cmd("init roll"), cmd("* * *")])
    definitions = slashes.definitions()
    assert command_problems(definitions) == []
    assert len(find(definitions, "big")["options"]) == 25
    assert [o["name"] for o in find(definitions, "wide")["options"]] == ["p28", *(f"p{i}" for i in range(24))]
    assert [o["name"] for o in find(definitions, "init")["options"]] == ["init", "roll"]  # /init init
    # Over 8000 characters, the options' translations go first: the English stays whole.
    texts = {"cs": ("", "č" * 100), "ru": ("", "ж" * 100)}
    wordy = [
        cmd(f"wordy s{i}", *(Param(f"p{j}", "word", "x" * 90, texts=texts) for j in range(4)))
        for i in range(20)
    ]
    fitted = find(slash.build(wordy).definitions(), "wordy")
    assert command_problems([fitted]) == [] and slash.text_size(fitted) <= slash.MAX_TEXT
    assert fitted["options"][0]["options"][0]["description"] == "x" * 90
    assert "description_localizations" not in fitted["options"][0]["options"][0]
    problems = " | ".join(slashes.problems)
    assert "big sub25, big sub26" in problems and "wide" in problems
    assert f"{'x' * 33}: no Discord name" in problems and "* * *: no Discord name" in problems


# --------------------------------------------------------------------------- the way back


def test_typed_options_build_the_line_a_person_types() -> None:
    plain = [
        Command(name, nothing, name, system="kit", private=name == "sheet") for name in ("prove", "sheet")
    ]
    slashes = slash.build([*kit.commands(), *plain])
    roll = [opt("pool", "physical"), opt("modifier", 1, 4)]
    assert line(slashes, "roll", roll) == "roll physical +1"
    assert line(
        slashes, "roll", [opt("pool", "dex+firearms  wp"), opt("modifier", 0, 4), opt("against", "mental")]
    ) == ("roll dex+firearms wp vs mental")
    secret = slash.command_line(
        {"name": "roll", "options": [opt("pool", "3"), opt("secret", True, 5)]}, slashes
    )
    assert secret is not None and (secret.line, secret.private) == ("roll 3 secret", True)
    approve = sub("approve", opt("name", "Mira  Vance"))
    assert line(slashes, "st", approve) == 'st approve "Mira Vance"'
    assert line(slashes, "char", sub("new", opt("name", 'Ann "Red" Lee'))) == "char new 'Ann \"Red\" Lee'"
    use = sub("use", opt("against", "Shield adept"), opt("name", "Ward"), opt("tier", "basic"))
    assert line(slashes, "power", use) == "power use Ward basic vs Shield adept"
    assert line(slashes, "team", sub("roll", opt("wp", True, 5))) == "team roll wp"
    assert line(slashes, "prove", [opt("args", "  ")]) == "prove"
    gw = slash.command_line({"name": "gw", "options": [opt("text", "sheet  Mira")]}, slashes)
    assert gw is not None and (gw.line, gw.private) == ("sheet Mira", True)  # declared: Command(private=True)
    gw = slash.command_line({"name": "gw", "options": [opt("text", "prove Mira secret")]}, slashes)
    assert gw is not None and (gw.line, gw.private) == ("prove Mira secret", True)  # a secret roll
    gw = slash.command_line({"name": "gw", "options": [opt("text", "prove Mira")]}, slashes)
    assert gw is not None and gw.private is False
    assert slash.command_line({"name": "sheet", "options": []}, slashes).private is True  # type: ignore[union-attr]
    # A forged payload's string in an integer option reaches the parser as typed, to be refused there.
    assert line(slashes, "trait", [opt("trait", "dex"), opt("rating", "lots")]) == "trait dex lots"
    # A later positional option without an earlier one would be read in its place: said, not run.
    gap = slash.command_line({"name": "roll", "options": [opt("modifier", 2, 4)]}, slashes)
    assert gap is not None and gap.before is not None
    assert [p.name for p in gap.before] == ["pool", "modifier"]
    alone = slash.command_line({"name": "roll", "options": [opt("dice", "2d6")]}, slashes)  # kitdice's roll
    assert alone is not None and (alone.line, alone.before) == ("roll 2d6", None)
    zero = slash.command_line({"name": "roll", "options": [opt("modifier", 0, 4)]}, slashes)
    assert zero is not None and (zero.line, zero.before) == ("roll", None)
    assert slash.command_line({"name": "nope"}, slashes) is None
    assert slash.command_line({"name": "st", "options": [{"type": 1, "name": "nope"}]}, slashes) is None


def option_values(spec: dict[str, Any], param: Param, keywords: set[str]) -> st.SearchStrategy[Any]:
    """What a Discord client may send for a registered option (the rest of a line as a person types
    it: no quotes, which the tokeniser reads as such; no keyword among the words of any). An
    integer within the command's own range: a merged option spans every system's, and a value
    outside this system's is its refusal, not a round trip."""
    rest = param.rest
    if spec["type"] == slash.BOOLEAN:
        return st.booleans()
    if spec["type"] == slash.USER:  # a picked user: their id
        return st.integers(1, 2**63 - 1).map(str)
    if spec["type"] == slash.INTEGER:
        low = param.minimum if param.minimum is not None else spec.get("min_value", -(10**6))
        high = param.maximum if param.maximum is not None else spec.get("max_value", 10**6)
        return st.integers(low, high)
    if "choices" in spec:
        return st.sampled_from([c["value"] for c in spec["choices"]])
    alphabet = st.characters(codec="utf-8", categories=("L", "N", "Zs", "P"), exclude_characters="#")
    if rest:
        alphabet = st.characters(codec="utf-8", categories=("L", "N", "Zs"))
    text = st.text(alphabet, min_size=1, max_size=30).filter(lambda t: t.strip() != "")
    if param.kind in NAME_KINDS:  # a name that reads as a number is the number a person typed after it
        text = text.filter(lambda t: not any(w.lstrip("+-").isdigit() for w in t.split()))
    # A word that is one of the command's keywords reads as that keyword, typed or sent.
    return text.filter(lambda t: not keywords & {w.casefold().strip("'\"") for w in t.split()})


def expected(param: Param, value: Any) -> Any:
    if param.kind == "flag":
        return value is True
    if param.kind == "person":
        return f"discord:{value}"
    if isinstance(value, str) and param.many:  # one option's text, read back word by word
        return value.split()
    if isinstance(value, str):
        value = " ".join(value.split())
        return value.replace('"', "'") if '"' in value and "'" in value and not param.rest else value
    return value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_generated_option_comes_back_through_the_parser(with_kit: Gateway, data: st.DataObject) -> None:
    """option -> render -> the router's tokeniser -> bind gives back each value sent, for every
    registered command with declared parameters (the kit's, the core's and the systems')."""
    slashes = slash.of(with_kit.services)
    definitions = slashes.definitions()
    declared = sorted(
        (c for c in slash.registered(with_kit.services) if c.params), key=lambda c: (c.system or "", c.name)
    )
    command = data.draw(st.sampled_from(declared))
    words = command.name.split()
    top = slashes.get(words[0])
    assert top is not None
    path = [words[0]] if len(words) == 1 else [words[0], "-".join(words[1:])]
    if len(words) == 1 and top.sub(words[0]) is not None:
        path = [words[0], words[0]]  # a word that is a command and a group runs as /sp sp
    spec = find(definitions, *path)
    merged = {p.name: p for p in (top.sub(path[-1]) or top).params}
    keywords = {p.keyword.casefold() for c in declared for p in c.params if p.keyword}
    values: dict[str, Any] = {}
    # Positional values as a person types them: in order with none left out before one given (a
    # later one alone reads as the earlier, typed or sent), nothing after the rest of the line.
    closed = False
    for param in command.params:
        o = next(o for o in spec["options"] if o["name"] == param.name)
        wanted = o.get("required", False) or param.required or data.draw(st.booleans())
        if param.keyword is None:
            if closed or not wanted:
                closed = True
                continue
            closed = param.rest
        if wanted:
            if merged[param.name].kind != param.kind:
                return  # merged into a plain string with another system's kind: that system's reading
            values[param.name] = data.draw(option_values(o, param, keywords))
    options = [
        opt(k, v, next(o["type"] for o in spec["options"] if o["name"] == k)) for k, v in values.items()
    ]
    sent = options if len(path) == 1 else sub(path[1], *options)
    parsed = slash.command_line({"name": words[0], "options": sent}, slashes)
    assert parsed is not None
    invocation = parse(parsed.line)
    assert invocation is not None and invocation.name.split() == [words[0]]
    bound = bind(command.params, list(invocation.words)[len(words) - 1 :])
    for param in command.params:
        if param.name in values and not (param.kind == "modifier" and values[param.name] == 0):
            # (a modifier of 0 is left out of the line, and an optional positional one with it)
            want = expected(param, values[param.name])
            if param.kind == "flag" or want != "":
                assert bound.get(param.name, False) == want, (parsed.line, param.name)


# --------------------------------------------------------------------------- through the gateway


@pytest.mark.endpoint_only
async def test_registration_is_accepted_by_the_fake(
    tmp_path: Path, fake: FakeDiscord, key: SigningKey
) -> None:
    settings_ = discord_settings(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", fake, key, {})
    config = load(settings_.section("discord"))
    generated = command_definitions(settings_)
    status, stored = await register(config, fake.bot_token, None, generated)
    assert status == 200, stored
    assert [c["name"] for c in stored] == [c["name"] for c in generated]
    # What Discord stored is what the same settings generate again: nothing to register anew.
    assert slash.changed(stored, command_definitions(settings_)) == []
    edited = json.loads(json.dumps(generated))
    find(edited, "st")["options"][0]["description"] = "changed"
    del find(edited, "st")["default_member_permissions"]
    assert slash.changed(stored, edited) == ["st"]
    assert slash.changed(stored, [c for c in generated if c["name"] != "gw"]) == ["gw"]
    without_echo = json.loads(json.dumps(stored))
    for command in without_echo:  # Discord leaves required: false out of what it returns
        for o in command.get("options", []):
            if o.get("required") is False:
                del o["required"]
    assert slash.changed(without_echo, generated) == []


@pytest.fixture
async def st_env(tmp_path: Path, fake: FakeDiscord, key: SigningKey, mode: str) -> AsyncIterator[DiscordEnv]:
    sections = {"vault": {"owner": f"discord:{STORYTELLER}"}}
    hooks = {"stlog": fake.add_webhook("200")}
    env = await start_env(
        f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", fake, key, hooks, sections, mode=mode
    )
    yield env
    await env.client.close()


async def content(env: DiscordEnv, name: str, options: list[dict[str, Any]], **kw: Any) -> str:
    definitions = slash.definitions(slash.of(env.gateway.services))
    assert invocation_problems(definitions, {"name": name, "options": options}) == []
    answer = await env.command(name, options, **kw)
    assert answer["type"] == 4, answer
    return str(answer["data"]["content"])


async def play(env: DiscordEnv, system: str) -> None:
    await channels.set_system(env.gateway.services.vault, Channel("discord", f"{GUILD}/{CHANNEL}"), system)


async def test_a_typed_roll_rolls_what_a_person_types(st_env: DiscordEnv) -> None:
    """/roll pool:3 modifier:1 in a Nightcap channel rolls ``roll 3 +1`` (a pool of physical +1 is
    the same line: see ``test_typed_options_build_the_line_a_person_types``)."""
    st_env.dice.extend([9, 2, 7, 7, 9, 2, 7, 7])
    typed = await content(st_env, "roll", [opt("pool", "3"), opt("modifier", 1, 4)])
    written = await content(st_env, "gw", [opt("text", "roll 3 +1")])
    assert typed.split("#")[0] == written.split("#")[0]
    assert "rolls 3+1 = 4 dice: 9 2 7 7" in typed, typed


async def test_the_router_binds_what_the_options_rendered(st_env: DiscordEnv) -> None:
    await play(st_env, kit.SYSTEM)
    answer = await content(st_env, "trait", [opt("trait", "dex"), opt("rating", 3, 4)])
    assert answer == 'kit trait {"rating": 3, "trait": "dex"}'
    moved = await content(st_env, "init", sub("move", opt("name", "Mira Vance"), opt("position", 2, 4)))
    assert moved == 'kit init move {"name": "Mira Vance", "position": 2}'
    definitions = slash.definitions(slash.of(st_env.gateway.services))
    refused = {"name": "trait", "options": [opt("trait", "dex"), opt("rating", 6, 4)]}
    assert invocation_problems(definitions, refused) == ["rating: 6 above 5"]  # the client holds the range


async def test_a_later_option_without_an_earlier_one_is_refused_in_the_reader_s_language(
    st_env: DiscordEnv,
) -> None:
    """``/roll modifier:2`` with no pool would roll a pool of +2: the answer says what to fill in,
    in the reader's language, and nothing runs."""
    english = await content(st_env, "roll", [opt("modifier", 2, 4)])
    assert english == "Fill in pool too: modifier cannot be given without it."
    await content(st_env, "gw", [opt("text", "lang cs")])
    czech = await content(st_env, "roll", [opt("modifier", 2, 4)])
    assert czech == "Vyplňte také parametr „pool“: bez něj nelze zadat „modifikátor“."
    assert await st_env.rows(platform="discord") == []  # nothing logged, nothing sent


def test_night_wanderers_clan_is_a_picker_of_the_one_char_new(real: Gateway) -> None:
    """One ``/char new`` for every system: the shared name (required) and Night Wanderers' clan
    (optional: the other systems take none) as Discord's choices, the book's twelve, labelled in
    Russian and Czech; the options come back as the line the router binds."""
    slashes = slash.of(real.services)
    options = {o["name"]: o for o in find(slash.definitions(slashes), "char", "new")["options"]}
    assert list(options) == ["name", "clan"]
    assert options["name"]["required"] is True and options["clan"]["required"] is False
    clans = [c["value"] for c in options["clan"]["choices"]]
    assert len(clans) == 12 and {"lesang", "bellemort", "werewolves", "human"} <= set(clans)
    assert options["clan"]["name_localizations"] == {"cs": "klan", "ru": "клан"}
    # Each clan as the book names it in Russian; the value sent back stays the key.
    by_value = {c["value"]: c for c in options["clan"]["choices"]}
    assert by_value["lesang"]["name_localizations"] == {"ru": "Лесанг"}
    assert by_value["bellemort"]["name_localizations"] == {"ru": "Бель Морт"}
    assert "клан по книге" in options["clan"]["description_localizations"]["ru"]
    picked = sub("new", opt("name", "Анна Мария"), opt("clan", "bellemort"))
    assert line(slashes, "char", picked) == "char new Анна Мария clan bellemort"
    assert line(slashes, "char", sub("new", opt("name", "Мира"))) == "char new Мира"


async def test_a_picked_clan_makes_the_character_of_that_clan(st_env: DiscordEnv) -> None:
    await play(st_env, "nightwanderers")
    made = await content(st_env, "char", sub("new", opt("name", "Анна Мария"), opt("clan", "bellemort")))
    assert made.startswith("Персонаж Анна Мария (вампир) создан"), made
    typed = await content(
        st_env, "char", sub("new", opt("name", "Тень Драгазар"))
    )  # the clan typed, as before
    assert typed.startswith("Персонаж Тень (вампир) создан"), typed
    async with st_env.gateway.services.vault.transaction() as session:
        sheets = {c.name: c.sheet for c in (await session.exec(select(Character))).all()}
    assert {name: (s["clan"], s["humanity"]) for name, s in sheets.items()} == {
        "Анна Мария": ("bellemort", 7),
        "Тень": ("dragazhar", 5),
    }
