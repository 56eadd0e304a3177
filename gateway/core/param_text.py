"""Typed parameters (``gateway.core.params``) in the reader's language: the one-line error for a line that
does not fit a command's declaration, and the lines ``help COMMAND`` shows for each parameter.

Pure functions over the core catalogue (``gateway.core.core_messages``); the labels and descriptions come
from the declaration (``Param.texts``), English where a locale has none.
"""

from __future__ import annotations

from gateway.core.core_messages import listing, say
from gateway.core.params import Param, ParamError
from gateway.core.spec import Command

# A word quoted back to the reader is cut: the line may be up to 2,000 characters.
WORD_SHOWN = 40


def explain(locale: str, command: Command, error: ParamError) -> str:
    """``damage: amount is missing: levels of damage. Usage: damage AMOUNT``, in ``locale``."""
    param = error.param
    fields: dict[str, object] = {"command": command.name, "word": error.word[:WORD_SHOWN]}
    if param is not None:
        fields["label"] = param.label_in(locale)
        fields["description"] = param.description_in(locale)
        fields["minimum"] = param.minimum
        fields["maximum"] = param.maximum
        fields["choices"] = listing(locale, [param.choice_label(c, locale) for c in param.choices], "or")
    line = say(locale, f"param.{error.problem}", **fields)
    return line + say(locale, "help.usage", usage=command.usage_in(locale))


def details(locale: str, param: Param) -> str:
    """``required, 1 to 10``: what a reader must know to write a value, in ``locale``."""
    parts = [say(locale, "param.required" if param.required else "param.optional")]
    if param.kind == "flag":
        parts.append(say(locale, "param.flag", keyword=param.keyword))
    elif param.keyword:
        parts.append(say(locale, "param.keyword", keyword=param.keyword))
    if param.minimum is not None and param.maximum is not None:
        parts.append(say(locale, "param.range", minimum=param.minimum, maximum=param.maximum))
    elif param.minimum is not None:
        parts.append(say(locale, "param.minimum", minimum=param.minimum))
    elif param.maximum is not None:
        parts.append(say(locale, "param.maximum", maximum=param.maximum))
    if param.choices:
        parts.append(listing(locale, [param.choice_label(c, locale) for c in param.choices], "or"))
    if param.many:
        parts.append(say(locale, "param.many"))
    return ", ".join(parts)


def param_lines(locale: str, command: Command) -> list[str]:
    """One line per parameter: ``pool: the dice to roll (required)``."""
    return [
        say(
            locale,
            "param.line",
            label=p.label_in(locale),
            description=p.description_in(locale),
            details=details(locale, p),
        )
        for p in command.params
    ]
