"""Nightcap's typed command parameters (``gateway.core.params``), by command: what the router binds, help
lists, Discord offers as options and the console completes. English only: Nightcap speaks English.

Where the book's words may be shortened (``phys``, ``adv``, tier ``2``), a parameter is a trait or
a word with suggested ``choices`` rather than a strict choice, so the handler's own reading (and
its refusal, which names the closest trait) stands. Rule refusals stay in the handlers.

A name of several words ends where the parameters after it read (``st trait Mira Vance physical 5``),
so a whole number after a name carries no range here: ``st trait Mira physical -1`` would not read,
the name would take every word, and the refusal would say the number is missing. The handler says
what the range is instead. A keyword's number (``max N``) is read apart and may carry its range.
"""

from __future__ import annotations

from gateway import Param
from gateway.rules import sheet_params
from plugins.nightcap.powers import TIERS
from plugins.nightcap.sheet import FIELDS, MAX_FIELD

MAX_NUMBER = 1000  # what a Storyteller may set a trait or a pool to

POOL = Param(
    "pool",
    "pool",
    "the dice: a number or traits joined by +, then +N/-N and wp (roll physical +1 wp)",
    required=True,
)
AGAINST = Param(
    "against",
    "pool",
    "the other side: a number, a trait, or a character and their trait (vs Dorian mental)",
    keyword="vs",
)
SECRET = Param("secret", "flag", "only you and the Storytellers see the result", keyword="secret")
TIER = Param("tier", "word", "the power's tier, by name or rank 1 to 5", choices=tuple(TIERS))
TRAIT = Param("trait", "trait", "one of your traits: physical, mental, social or spirit", required=True)


def _character(description: str, *, required: bool = True) -> Param:
    return Param("name", "character", description, required=required)


ROLL = (POOL, AGAINST, SECRET)
ODDS = (POOL, AGAINST)
CHALLENGE = (
    _character(
        "the character you challenge; challenge alone lists yours, challenge cancel withdraws", required=False
    ),
    Param("pool", "pool", "your trait, then +N/-N and wp"),
)
DEFEND = (Param("pool", "pool", "your trait, then +N/-N and wp; or power NAME [TIER]", required=True),)
CHAR_NEW = sheet_params.CHAR_NEW  # the same as every system's, with its translations
CHAR_USE = sheet_params.CHAR_USE
CHAR_SET = (
    Param("field", "choice", "the narrative field to write", required=True, choices=("name", *FIELDS)),
    Param("text", "text", f"what it says, up to {MAX_FIELD} characters", required=True),
)
TRAIT_SET = (TRAIT, Param("value", "integer", "the trait's new rating", required=True))
POWER_ADD = (
    Param("name", "power", "the power's name", required=True),
    Param("tier", "word", "its tier, by name or rank 1 to 5", required=True, choices=tuple(TIERS)),
    TRAIT,
)
POWER_REMOVE = (Param("name", "power", "one of your powers", required=True),)
POWER_USE = (
    Param("name", "power", "one of your powers", required=True),
    TIER,
    Param("bonus", "pool", "+N/-N and wp"),
    Param(
        "against",
        "pool",
        "a contest: a character and their power or trait, a number, or a character alone",
        keyword="vs",
    ),
    SECRET,
)
OWN_OR_NAMED = (_character("one of your characters, or an approved one you may see", required=False),)
INIT_JOIN = (
    _character("who joins: a character, or an NPC's name (Storytellers)", required=False),
    Param("physical", "integer", "an NPC's Physical, 0 to 20"),
)
INIT_MOVE = (
    _character("who moves"),
    Param("position", "integer", "their new place in the order, 1 first", required=True),
)
INIT_WP = (Param("off", "choice", "take the declared Willpower back", choices=("off",)),)
ATTACK = (
    _character("whom you attack"),
    Param("pool", "pool", "your trait, then +weapon, -N and wp"),
    Param("defence", "pool", "their defence: a trait, then +N/-N", keyword="vs"),
    Param("attacker", "character", "the character or NPC who attacks (Storytellers)", keyword="as"),
)
ST_SOAK = (
    _character("the character or NPC"),
    Param("soak", "integer", "their soak, 0 to 10", required=True),
)
EXTENDED_START = (
    Param("target", "integer", "successes needed", required=True, minimum=1),
    Param("rolls", "integer", "rolls allowed", required=True, minimum=1),
    Param("trait", "trait", "the trait every roll uses"),
)
EXTENDED_ROLL = (Param("pool", "pool", "a trait, then +N/-N and wp"),)
HEALTH = OWN_OR_NAMED
DAMAGE = (Param("amount", "integer", "levels of damage your character takes", required=True),)
HEAL = (Param("amount", "integer", "levels to heal, 1 Essence each (1 without it)"),)
ST_ROSTER = (
    Param(
        "which",
        "choice",
        "only sheets in creation or only approved ones",
        choices=("unlocked", "approved", "all"),
    ),
)
ST_SEARCH = (Param("text", "text", "any part of a character's name", required=True),)
ST_NAMED = (_character("the character"),)
ST_APPROVE = (
    _character("the submitted character"),
    Param("force", "flag", "approve over the creation budget", keyword="force"),
)
ST_SET = (
    _character("the character"),
    Param("field", "choice", "the narrative field", required=True, choices=("name", *FIELDS)),
    Param("value", "text", f"what it says, up to {MAX_FIELD} characters", required=True),
)
ST_TRAIT = (
    _character("the character"),
    Param("trait", "trait", "the trait", required=True),
    Param(
        "value",
        "integer",
        "its new rating, 0 or more, past the creation limits",
        required=True,
    ),
)
ST_POWER = (
    _character("the character"),
    Param(
        "action",
        "choice",
        "give or change a power, or take one away",
        required=True,
        choices=("add", "remove"),
    ),
    Param("power", "text", "add: POWER TIER TRAIT; remove: POWER", required=True),
)
# The pool is a word so that an unknown one is refused naming the pools; the number or the maximum
# after it, being whole numbers, end a character's name.
ST_POOL = (
    _character("the character"),
    Param("pool", "word", "the pool", required=True, choices=("willpower", "essence", "health", "damage")),
    Param("amount", "integer", "its new value, 0 or more"),
    Param(
        "max",
        "integer",
        "its new maximum instead (willpower or essence)",
        keyword="max",
        minimum=0,
        maximum=MAX_NUMBER,
    ),
)
ST_MOD = (
    _character("the character"),
    Param("change", "text", "+N or -N and a reason, or clear; nothing shows the standing modifier"),
)
ST_ROLL = (
    Param("pool", "pool", "a number of dice, then +N/-N and a label", required=True),
    Param("against", "pool", "the other side: a number of dice, +N/-N and a label", keyword="vs"),
    SECRET,
)
ST_ROLLSTAT = (
    _character("the character"),
    Param("pool", "pool", "their trait, then +N/-N and wp", required=True),
    SECRET,
)
ST_ANNOUNCE = (Param("text", "text", "the announcement", required=True),)
ST_EMOTE = (
    Param("text", "text", "the emote; begin with here to post it in this channel only", required=True),
)
TEAM_START = (Param("pool", "pool", "the leader's trait, then +N/-N", required=True),)
TEAM_LEADER = (_character("the team's leader (yours when you lead one)", required=False),)
TEAM_ASSIST = (
    _character("the leader you help (the only team here without it)", required=False),
    Param("wp", "flag", "spend Willpower on your roll", keyword="wp"),
)
TEAM_ROLL = (Param("wp", "flag", "spend Willpower on the leader's roll", keyword="wp"),)
