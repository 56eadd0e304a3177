"""Dramatic Systems' messages (English). Every line a person reads comes from here."""

from __future__ import annotations

from gateway.core.i18n import Catalogue

EN = {
    "degree.botch": "Botch",
    "degree.failure": "Failure",
    "degree.success": "Success",
    "dice": "{n} {n:plural:die:dice}",
    "dice.labelled": "{label} = {n} {n:plural:die:dice}",
    "willpower": " + Willpower",
    "difficulty": "difficulty {d}",
    "at_difficulty": "at difficulty {d}",
    "difficulty.clamped": "difficulty {d} (asked {asked})",
    "difficulty.adjusted": "difficulty {d} ({base} {changes})",
    "change.retry": "+{failures} for {failures:plural:a retry:retries}",
    "change.substitution": "{adj:+d} for {used} instead of {stated}",
    "reflex": " (a reflex: no action)",
    "lacking": " (no {names}: the book's Lack of Ability guidelines, the Storyteller's call)",
    "specialty": ", specialty 10s: {extra}",
    "faces.none": "no dice",
    "outcome": "{n} {n:plural:success:successes} ({degree})",
    "roll.line": "{who} rolls {dice}{wp} at {difficulty}{lacking}: {faces}{extra} → {outcome} #{id}",
    "side": "{name} {dice}{wp} at {difficulty}{lacking}: {faces}{extra} → {n} {n:plural:success:successes}",
    "resisted.attacker": "{left} vs {right}: {winner} wins by {margin} #{id}",
    "resisted.defender": "{left} vs {right}: {winner} resists ({how}) #{id}",
    "resisted.tie": "a tie goes to the defender",
    "resisted.more": "more successes",
    "opponent": "Defender",
    "odds.line": (
        "Odds for {dice}{wp} at {difficulty}{spec}: botch {botch}, failure {failure}, success {success};"
        " {spread}."
    ),
    "odds.spec": " with a specialty",
    "odds.at_least": "{k}+ {p}",
    "odds.resisted": "Odds for {left} against {right}: you win {win}, the defender {lose}.",
    "scene.end": "The scene ends here.",
    "scene.end_cleared": "The scene ends here; retry penalties cleared for {names}.",
    "char.created": (
        "{name} is your Dramatic Systems character now, with Willpower {wp}."
        " Storytellers set dots with st set."
    ),
    "char.used": "{name} is your active Dramatic Systems character.",
    "char.list": "Your Dramatic Systems characters: {names}. Active: {active}.",
    "char.none": "You have no Dramatic Systems characters yet: char new NAME makes one.",
    "none": "none",
    "sheet": (
        "{name} ({status}): {attributes}. Abilities: {abilities}. Secondary Abilities: {secondary}."
        " Specialties: {specialties}."
        " Willpower {wp} of {wp_max}."
    ),
    "set.done": "{name}: {field} {old} → {new}.",
    "approved": "{name}'s sheet is approved and locked; Storytellers can still edit it.",
}

CATALOGUE = Catalogue({"en": EN})
t = CATALOGUE.say
