"""A chat-platform-agnostic message gateway for tabletop role-playing.

This package is the public API for plugin and adapter authors: import what you need from
``gateway`` itself (``from gateway import hookimpl, Command, CommandContext, Reply``), and the
test doubles from ``gateway.testing``. Everything else under ``gateway.`` is the core's own and may
change between releases.

The names load on first use (PEP 562), so ``python3 -m gateway`` starts before the dependencies are
installed and a plugin that needs one name does not import the whole core.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# name -> the module that defines it
_EXPORTS = {
    # declaring things (gateway.core.spec is a leaf: no import cycle)
    "hookimpl": "gateway.core.hookspecs",
    "RuleSystem": "gateway.core.spec",
    "SheetSpec": "gateway.core.sheet_spec",
    "SheetField": "gateway.core.sheet_spec",
    "SheetGroup": "gateway.core.sheet_spec",
    "SheetAction": "gateway.core.sheet_spec",
    "EditLines": "gateway.core.sheet_spec",
    "Choice": "gateway.core.sheet_spec",
    "Catalogue": "gateway.core.i18n",
    "DegreeColour": "gateway.core.spec",
    "Command": "gateway.core.spec",
    "Param": "gateway.core.params",
    "ParamError": "gateway.core.params",
    "bind": "gateway.core.params",
    "Role": "gateway.core.spec",
    "Handler": "gateway.core.spec",
    "AdapterSpec": "gateway.core.spec",
    "CliCommand": "gateway.core.spec",
    "CommandSet": "gateway.core.command_set",
    # running a command
    "CommandContext": "gateway.core.commands",
    # a system's characters: the row, and the look-ups every system shares
    "Character": "gateway.vault.models",
    "create_character": "gateway.features.characters",
    "find_character": "gateway.features.characters",
    "require_active": "gateway.features.characters",
    "pools_of": "gateway.features.characters",
    "Invocation": "gateway.core.types",
    "Reply": "gateway.core.types",
    "UserError": "gateway.core.errors",
    "PermissionDenied": "gateway.core.errors",
    # an answer worked out off the event loop (exact odds of large pools)
    "Offloaded": "gateway.core.offload",
    "Speaker": "gateway.core.offload",
    "TooLong": "gateway.core.offload",
    # what a sheet shows, for every platform (RuleSystem.summary)
    "SheetSummary": "gateway.core.summary",
    "RatedTrait": "gateway.core.summary",
    "PoolMeter": "gateway.core.summary",
    "Power": "gateway.core.summary",
    "FreeField": "gateway.core.summary",
    # a roll's typed result (``Reply.result`` holds its JSON; ``read_result`` reads that back)
    "RollResult": "gateway.core.results",
    "ContestResult": "gateway.core.results",
    "NotationResult": "gateway.core.results",
    "read_result": "gateway.core.results",
    # adapters
    "Adapter": "gateway.core.adapter",
    "Identity": "gateway.core.types",
    "Channel": "gateway.core.types",
    "InboundMessage": "gateway.core.types",
    "Outbound": "gateway.core.types",
    "RetryLater": "gateway.core.errors",
    "Throttled": "gateway.core.errors",
    "TargetAbsent": "gateway.core.errors",
    "Deferred": "gateway.core.errors",
    "Elsewhere": "gateway.core.errors",
    "DeliveryFailed": "gateway.core.errors",
    "Settled": "gateway.core.errors",
    "Repeated": "gateway.core.errors",
    "Services": "gateway.core.services",
    "Handled": "gateway.core.router",
    "Reading": "gateway.core.router",
    "AdapterServices": "gateway.core.services",
    # dice: handlers get a DiceSource; ScriptedDice and SeededDice are for tests and demos
    "DiceSource": "gateway.core.dice",
    "ScriptedDice": "gateway.core.dice",
    "SeededDice": "gateway.core.dice",
    "faces": "gateway.core.dice",
    "Settings": "gateway.core.settings",
    # running a gateway from a CLI subcommand a plugin adds (``gateway discord sync``)
    "Gateway": "gateway.core.app",
    "build_app": "gateway.core.app",
    "configure_logging": "gateway.ops.logging",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gateway' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    # What type checkers and editors see; at run time ``__getattr__`` does the same, lazily.
    from gateway.core.adapter import Adapter as Adapter
    from gateway.core.app import Gateway as Gateway
    from gateway.core.app import build_app as build_app
    from gateway.core.command_set import CommandSet as CommandSet
    from gateway.core.commands import CommandContext as CommandContext
    from gateway.core.dice import DiceSource as DiceSource
    from gateway.core.dice import ScriptedDice as ScriptedDice
    from gateway.core.dice import SeededDice as SeededDice
    from gateway.core.dice import faces as faces
    from gateway.core.errors import Deferred as Deferred
    from gateway.core.errors import DeliveryFailed as DeliveryFailed
    from gateway.core.errors import Elsewhere as Elsewhere
    from gateway.core.errors import PermissionDenied as PermissionDenied
    from gateway.core.errors import Repeated as Repeated
    from gateway.core.errors import RetryLater as RetryLater
    from gateway.core.errors import Settled as Settled
    from gateway.core.errors import TargetAbsent as TargetAbsent
    from gateway.core.errors import Throttled as Throttled
    from gateway.core.errors import UserError as UserError
    from gateway.core.hookspecs import hookimpl as hookimpl
    from gateway.core.i18n import Catalogue as Catalogue
    from gateway.core.offload import Offloaded as Offloaded
    from gateway.core.offload import Speaker as Speaker
    from gateway.core.offload import TooLong as TooLong
    from gateway.core.params import Param as Param
    from gateway.core.params import ParamError as ParamError
    from gateway.core.params import bind as bind
    from gateway.core.results import ContestResult as ContestResult
    from gateway.core.results import NotationResult as NotationResult
    from gateway.core.results import RollResult as RollResult
    from gateway.core.results import read_result as read_result
    from gateway.core.router import Handled as Handled
    from gateway.core.router import Reading as Reading
    from gateway.core.services import AdapterServices as AdapterServices
    from gateway.core.services import Services as Services
    from gateway.core.settings import Settings as Settings
    from gateway.core.sheet_spec import Choice as Choice
    from gateway.core.sheet_spec import EditLines as EditLines
    from gateway.core.sheet_spec import SheetAction as SheetAction
    from gateway.core.sheet_spec import SheetField as SheetField
    from gateway.core.sheet_spec import SheetGroup as SheetGroup
    from gateway.core.sheet_spec import SheetSpec as SheetSpec
    from gateway.core.spec import AdapterSpec as AdapterSpec
    from gateway.core.spec import CliCommand as CliCommand
    from gateway.core.spec import Command as Command
    from gateway.core.spec import DegreeColour as DegreeColour
    from gateway.core.spec import Handler as Handler
    from gateway.core.spec import Role as Role
    from gateway.core.spec import RuleSystem as RuleSystem
    from gateway.core.summary import FreeField as FreeField
    from gateway.core.summary import PoolMeter as PoolMeter
    from gateway.core.summary import Power as Power
    from gateway.core.summary import RatedTrait as RatedTrait
    from gateway.core.summary import SheetSummary as SheetSummary
    from gateway.core.types import Channel as Channel
    from gateway.core.types import Identity as Identity
    from gateway.core.types import InboundMessage as InboundMessage
    from gateway.core.types import Invocation as Invocation
    from gateway.core.types import Outbound as Outbound
    from gateway.core.types import Reply as Reply
    from gateway.features.characters import create_character as create_character
    from gateway.features.characters import find_character as find_character
    from gateway.features.characters import pools_of as pools_of
    from gateway.features.characters import require_active as require_active
    from gateway.ops.logging import configure_logging as configure_logging
    from gateway.vault.models import Character as Character
