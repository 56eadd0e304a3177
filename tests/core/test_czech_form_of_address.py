"""One form of address in every Czech line the product shows: «vy» (vykání).

Why «vy»: a gateway answers strangers in public channels, and Czech software and services address
their users with «vy» ("Napište", "Nemáte"); the core, the web pages and the adapters always did. The
book (004) speaks of the players in the third person ("Vypravěč Kláře řekne, ať si hodí"), its one
imperative ("Opakuj hody") is to the reader of a rule, not to someone at the table. Pravidla said «ty»
("Napiš", "nemáš") until issue 31; this test keeps the other form from creeping back anywhere.

Every string constant in ``gateway/``, ``plugins/`` and ``adapters/`` with a letter only Czech uses
(and no Cyrillic) is read word by word for the forms of «ty»: the second person singular of a verb
("máš", "vytvoříš"), an imperative of one person ("napiš", "hoď", "zkus"), and the pronoun and its
possessive ("ty", "tebe", "tvou", "tvoje").
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CZECH = re.compile(r"[ěščřžůňťďĚŠČŘŽŮŇŤĎ]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
WORD = re.compile(r"[^\W\d_]+")
# The second person singular present ends in -áš, -íš, -eš, -ěš ("máš", "vytvoříš", "vybereš").
SINGULAR_VERB = re.compile(r"(áš|íš|eš|ěš)$")
NOT_VERBS = frozenset({"váš", "náš"})  # «vy»'s own possessive ("Váš kód"), and "our"
IMPERATIVES = frozenset(
    {
        "napiš", "hoď", "zkus", "vytvoř", "vyber", "zadej", "použij", "pošli", "přidej", "zvol",
        "opakuj", "nastav", "uveď", "ukaž", "podívej", "klikni", "otevři", "počkej", "spusť", "odešli",
        "zkontroluj", "přihlas", "požádej", "vyžádej", "odstraň", "zruš", "rozděl", "přečti", "vrať",
        "smaž", "nedávej", "napíšeš", "piš", "nech", "řekni", "vypiš", "zapiš", "hledej", "sáhni",
    }
)  # fmt: skip
PRONOUNS = frozenset(
    {
        "ty", "tebe", "tobě", "tebou", "tě", "tvůj", "tvoje", "tvá", "tvé", "tvou", "tvoji", "tvého",
        "tvému", "tvém", "tvým", "tvých", "tvými", "tví",
    }
)  # fmt: skip


def singular_forms(text: str) -> list[str]:
    """The words of ``text`` that address one person as «ty»."""
    found = []
    for word in WORD.findall(text):
        folded = word.casefold()
        verb = SINGULAR_VERB.search(folded) is not None and folded not in NOT_VERBS
        if verb or folded in IMPERATIVES or folded in PRONOUNS:
            found.append(word)
    return found


def czech_strings() -> list[tuple[str, int, str]]:
    """(file, line, text) of every Czech string constant in the product's code."""
    out = []
    for top in ("gateway", "plugins", "adapters"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    text = node.value
                    if CZECH.search(text) and not CYRILLIC.search(text):
                        out.append((str(path.relative_to(ROOT)), node.lineno, text))
    return out


def test_the_check_tells_the_two_forms_apart() -> None:
    assert singular_forms("Napiš roll POČET; nemáš aktivní postavu, zkus to znovu.") == [
        "Napiš",
        "nemáš",
        "zkus",
    ]
    assert singular_forms("vyřadí tvou postavu ze hry") == ["tvou"]
    assert singular_forms("Napište roll POČET; nemáte aktivní postavu, zkuste to znovu. Váš kód.") == []


def test_every_czech_line_says_vy() -> None:
    strings = czech_strings()
    assert len(strings) > 300, "the Czech texts were found"
    offending = [
        f"{path}:{line}: {', '.join(words)} in {text[:80]!r}"
        for path, line, text in strings
        if (words := singular_forms(text))
    ]
    assert not offending, "Czech says «vy» everywhere:\n" + "\n".join(offending)
