"""Each rule system's own settings table, validated once at start against its ``settings_model``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from gateway.core.spec import RuleSystem


class SystemSettingsError(ValueError):
    """A rule system's table does not validate; the message names the table and each bad field."""


def validate_system_settings(systems: Iterable[RuleSystem], settings: Any) -> dict[str, BaseModel]:
    """The validated ``[<system name>]`` table of every system that declares a ``settings_model``."""
    validated: dict[str, BaseModel] = {}
    for system in systems:
        model = system.settings_model
        if model is None:
            continue
        try:
            validated[system.name] = model.model_validate(settings.section(system.name))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in error['loc']) or '(table)'}: {error['msg']}"
                for error in exc.errors()
            )
            raise SystemSettingsError(
                f"[{system.name}] settings of rule system {system.title!r} are invalid: {problems}"
            ) from exc
    return validated
