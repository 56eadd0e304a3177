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
    # declaring things (gateway.spec is a leaf: no import cycle)
    "hookimpl": "gateway.hookspecs",
    "RuleSystem": "gateway.spec",
    "SheetSpec": "gateway.sheet_spec",
    "SheetField": "gateway.sheet_spec",
    "SheetGroup": "gateway.sheet_spec",
    "SheetAction": "gateway.sheet_spec",
    "EditLines": "gateway.sheet_spec",
    "Choice": "gateway.sheet_spec",
    "Catalogue": "gateway.i18n",
    "DegreeColour": "gateway.spec",
    "Command": "gateway.spec",
    "Param": "gateway.params",
    "ParamError": "gateway.params",
    "bind": "gateway.params",
    "Role": "gateway.spec",
    "Handler": "gateway.spec",
    "AdapterSpec": "gateway.spec",
    "CliCommand": "gateway.spec",
    "CommandSet": "gateway.command_set",
    # running a command
    "CommandContext": "gateway.commands",
    # a system's characters: the row, and the look-ups every system shares
    "Character": "gateway.vault.models",
    "create_character": "gateway.characters",
    "find_character": "gateway.characters",
    "require_active": "gateway.characters",
    "pools_of": "gateway.characters",
    "Invocation": "gateway.types",
    "Reply": "gateway.types",
    "UserError": "gateway.errors",
    "PermissionDenied": "gateway.errors",
    # an answer worked out off the event loop (exact odds of large pools)
    "Offloaded": "gateway.offload",
    "Speaker": "gateway.offload",
    "TooLong": "gateway.offload",
    # what a sheet shows, for every platform (RuleSystem.summary)
    "SheetSummary": "gateway.summary",
    "RatedTrait": "gateway.summary",
    "PoolMeter": "gateway.summary",
    "Power": "gateway.summary",
    "FreeField": "gateway.summary",
    # a roll's typed result (``Reply.result`` holds its JSON; ``read_result`` reads that back)
    "RollResult": "gateway.results",
    "ContestResult": "gateway.results",
    "NotationResult": "gateway.results",
    "read_result": "gateway.results",
    # adapters
    "Adapter": "gateway.adapter",
    "Identity": "gateway.types",
    "Channel": "gateway.types",
    "InboundMessage": "gateway.types",
    "Outbound": "gateway.types",
    "RetryLater": "gateway.errors",
    "Throttled": "gateway.errors",
    "TargetAbsent": "gateway.errors",
    "Deferred": "gateway.errors",
    "Elsewhere": "gateway.errors",
    "DeliveryFailed": "gateway.errors",
    "Settled": "gateway.errors",
    "Repeated": "gateway.errors",
    "Services": "gateway.services",
    "Handled": "gateway.router",
    "Reading": "gateway.router",
    "AdapterServices": "gateway.services",
    # dice: handlers get a DiceSource; ScriptedDice and SeededDice are for tests and demos
    "DiceSource": "gateway.dice",
    "ScriptedDice": "gateway.dice",
    "SeededDice": "gateway.dice",
    "faces": "gateway.dice",
    "Settings": "gateway.settings",
    # running a gateway from a CLI subcommand a plugin adds (``gateway discord sync``)
    "Gateway": "gateway.app",
    "build_app": "gateway.app",
    "configure_logging": "gateway.logging",
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
    from gateway.adapter import Adapter as Adapter
    from gateway.app import Gateway as Gateway
    from gateway.app import build_app as build_app
    from gateway.characters import create_character as create_character
    from gateway.characters import find_character as find_character
    from gateway.characters import pools_of as pools_of
    from gateway.characters import require_active as require_active
    from gateway.command_set import CommandSet as CommandSet
    from gateway.commands import CommandContext as CommandContext
    from gateway.dice import DiceSource as DiceSource
    from gateway.dice import ScriptedDice as ScriptedDice
    from gateway.dice import SeededDice as SeededDice
    from gateway.dice import faces as faces
    from gateway.errors import Deferred as Deferred
    from gateway.errors import DeliveryFailed as DeliveryFailed
    from gateway.errors import Elsewhere as Elsewhere
    from gateway.errors import PermissionDenied as PermissionDenied
    from gateway.errors import Repeated as Repeated
    from gateway.errors import RetryLater as RetryLater
    from gateway.errors import Settled as Settled
    from gateway.errors import TargetAbsent as TargetAbsent
    from gateway.errors import Throttled as Throttled
    from gateway.errors import UserError as UserError
    from gateway.hookspecs import hookimpl as hookimpl
    from gateway.i18n import Catalogue as Catalogue
    from gateway.logging import configure_logging as configure_logging
    from gateway.offload import Offloaded as Offloaded
    from gateway.offload import Speaker as Speaker
    from gateway.offload import TooLong as TooLong
    from gateway.params import Param as Param
    from gateway.params import ParamError as ParamError
    from gateway.params import bind as bind
    from gateway.results import ContestResult as ContestResult
    from gateway.results import NotationResult as NotationResult
    from gateway.results import RollResult as RollResult
    from gateway.results import read_result as read_result
    from gateway.router import Handled as Handled
    from gateway.router import Reading as Reading
    from gateway.services import AdapterServices as AdapterServices
    from gateway.services import Services as Services
    from gateway.settings import Settings as Settings
    from gateway.sheet_spec import Choice as Choice
    from gateway.sheet_spec import EditLines as EditLines
    from gateway.sheet_spec import SheetAction as SheetAction
    from gateway.sheet_spec import SheetField as SheetField
    from gateway.sheet_spec import SheetGroup as SheetGroup
    from gateway.sheet_spec import SheetSpec as SheetSpec
    from gateway.spec import AdapterSpec as AdapterSpec
    from gateway.spec import CliCommand as CliCommand
    from gateway.spec import Command as Command
    from gateway.spec import DegreeColour as DegreeColour
    from gateway.spec import Handler as Handler
    from gateway.spec import Role as Role
    from gateway.spec import RuleSystem as RuleSystem
    from gateway.summary import FreeField as FreeField
    from gateway.summary import PoolMeter as PoolMeter
    from gateway.summary import Power as Power
    from gateway.summary import RatedTrait as RatedTrait
    from gateway.summary import SheetSummary as SheetSummary
    from gateway.types import Channel as Channel
    from gateway.types import Identity as Identity
    from gateway.types import InboundMessage as InboundMessage
    from gateway.types import Invocation as Invocation
    from gateway.types import Outbound as Outbound
    from gateway.types import Reply as Reply
    from gateway.vault.models import Character as Character
