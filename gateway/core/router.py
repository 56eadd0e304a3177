"""The router: one inbound message in, replies out, everything in between in one unit of work.

dedupe -> identity -> channel settings -> parse -> find command -> permission -> handler -> commit.
A ``UserError`` anywhere rolls the whole unit back and becomes a one-line error reply. A handler that
answers with an ``Offloaded`` (heavy pure work) has its unit rolled back; the work runs off the loop
(``gateway.core.offload``) and its answer is kept in a second unit, as any answer is.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import structlog
from sqlalchemy.exc import IntegrityError

from gateway.core.commands import Command, CommandContext
from gateway.core.core_messages import listing, locale_for, say
from gateway.core.errors import PermissionDenied, Repeated, UserError
from gateway.core.offload import Awaited, Offloaded, TooLong
from gateway.core.param_text import explain
from gateway.core.params import ParamError, bind
from gateway.core.parser import split_comment, strip_prefix, tokenize
from gateway.core.payloads import reply_payload
from gateway.core.suggest import closest_commands, runnable_names
from gateway.core.types import InboundMessage, Invocation, Reply
from gateway.features import people, roles
from gateway.features.house_rules.store import for_channel
from gateway.features.macros.expand import Expanded
from gateway.features.macros.messages import say as macro_say
from gateway.features.macros.seam import macro_error
from gateway.features.macros.seam import plan as macro_plan
from gateway.vault import repo
from gateway.vault.sender import Sender, SenderValues, resolve_sender
from gateway.vault.unit import Unit

if TYPE_CHECKING:
    from gateway.core.services import Services
    from gateway.core.spec import RuleSystem

log = structlog.get_logger(__name__)

# Runs of a unit that hit a unique key. Roll ids are five of 31 letters: with 30,000 rolls logged, a
# new id clashes about once per thousand rolls, so two clashes running do happen in a long campaign
# (the Second Life benchmark, filling one vault with tens of thousands of rolls, met them).
ATTEMPTS = 5


T = TypeVar("T")


@dataclass(frozen=True)
class Reading:
    """What an adapter's callback (``Router.run``'s ``state``) is given, inside the message's unit
    after its command ran: the unit (``unit.session`` for ORM reads), the resolved sender, the
    channel's rule system, the reader's language and whether the sender is a Storyteller."""

    unit: Unit
    sender: Sender
    system: str
    locale: str
    storyteller: bool


@dataclass(frozen=True)
class Handled(Generic[T]):
    """What ``Router.run`` hands an adapter, all read in the message's own unit: the replies; the
    sender as the unit resolved it (None when the line never reached the vault: chat, or a failure
    before the look-up); the language the replies are in; whether the sender is a Storyteller (None
    when the unit failed before that was known); and what the adapter's ``state`` callback returned
    (None when it did not run: no callback, or a command refused and rolled back)."""

    replies: list[Reply]
    sender: SenderValues | None
    locale: str
    storyteller: bool | None
    state: T | None
    # The channel's rule system's language (else ``[gateway] locale``): ``reader_locale``'s last resort.
    default_locale: str

    def reader_locale(self, fallback: str | None = None) -> str:
        """The language for words the adapter says itself: the person's, else the channel's, else
        ``fallback`` (the adapter's own guess, such as a Discord client's language), else the
        rule system's (as ``AdapterServices.reader_locale``, without a unit of its own)."""
        if self.sender is None:
            return fallback or self.locale
        default = fallback or self.default_locale
        return locale_for(self.sender.person_locale, self.sender.channel_locale, default)


# An adapter's read inside the message's unit (``Router.run``).
StateOf = Callable[[Reading], Awaitable[T]]


def typed_prefix(message: InboundMessage, configured: str) -> str:
    """What the reader types before a command where ``message`` came from: the platform's own
    prefix (an IRC network's), else the gateway's ``[gateway] prefix`` in a chat room where
    commands need one, else nothing (the console, a HUD, a slash command)."""
    return message.prefix or (configured if message.prefixed else "")


class _ChatLine(Exception):
    """A bare line (no prefix) that names no command of this channel's system: ordinary chat."""


@dataclass(frozen=True)
class _Line:
    """One reading of a command line: its words, the whole text, whether it came bare (no prefix),
    and its ``# comment`` (None: none; "": one left out, the command reading no ``#``)."""

    words: tuple[str, ...]
    text: str
    bare: bool
    comment: str | None = None


@dataclass(frozen=True)
class _Turn:
    """What every command of one line shares (a macro's several commands too): its unit, message,
    sender, rule system, reader's language, and whether the sender is a Storyteller."""

    unit: Unit
    message: InboundMessage
    sender: Sender
    system: RuleSystem
    locale: str
    storyteller: bool


class _CommentIsText(Exception):
    """A command given a ``# comment`` logged no roll: the ``#`` may be its own text."""


class _Later(Exception):
    """A handler answered with an ``Offloaded``: its unit is rolled back before the computation."""

    def __init__(self, deferred: Offloaded[Any] | Awaited) -> None:
        self.deferred = deferred


# What ``Router.observe`` is called with: rule system, command name, outcome, seconds taken.
Observer = Callable[[str, str, str, float], None]
NONE = "-"  # the system or command label of a message that failed before either was known


class _Ran:
    """Which command one message ran, for ``Router.observe`` (filled in by ``_run``)."""

    __slots__ = ("command", "default_locale", "locale", "sender", "state", "storyteller", "system", "values")

    def __init__(self, locale: str) -> None:
        self.system = NONE
        self.command: str | None = None
        self.locale = locale  # the sender's language, once known: for a failure's reply
        self.default_locale = locale  # the channel's rule system's, once known
        self.sender: Sender | None = None  # live only inside the unit that resolved it
        self.values: SenderValues | None = None  # its values, read inside that unit
        self.storyteller: bool | None = None
        self.state: Any = None

    def handled(self, replies: list[Reply]) -> Handled[Any]:
        return Handled(replies, self.values, self.locale, self.storyteller, self.state, self.default_locale)


class Router:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.registry = services.plugins.registry
        # Told of every command run, once it is done (``gateway.ops.metrics``); None: nobody counts.
        self.observe: Observer | None = None

    async def handle(self, message: InboundMessage) -> list[Reply]:
        return (await self.run(message)).replies

    async def run(self, message: InboundMessage, state: StateOf[T] | None = None) -> Handled[T]:
        """Run one inbound message; the replies with what the unit learnt on the way (``Handled``).
        ``state``, when given, runs inside the unit once the command succeeded, so an adapter's own
        reads (a HUD's sheet state) share the command's transaction instead of opening another."""
        ran = _Ran(self.services.settings.gateway.locale)
        replies = await self._handle(message, ran, state)
        return ran.handled(replies)

    async def _handle(self, message: InboundMessage, ran: _Ran, state: StateOf[Any] | None) -> list[Reply]:
        # Every adapter's text passes here: what the vault cannot store is replaced before any of it runs.
        message = message.storable()
        started = time.perf_counter()
        settings = self.services.settings
        try:
            text = strip_prefix(message.text, settings.gateway.prefix, required=message.prefixed)
            bare = False
            if text is None:
                # Chat, unless the whole line is a bare command's name (Decanter's "* * *").
                text = self.registry.bare_match(message.text)
                if text is None:
                    return []
                bare = True
            body, comment = split_comment(text)
            words = tokenize(body)
            if not words:
                return []
            line = _Line(tuple(words), text, bare, comment)
            if comment is None:
                return await self._attempts(message, line, ran, started, state)
            return await self._commented(message, line, ran, started, state)
        except _ChatLine:
            return []  # raised inside the transaction, so nothing it touched is kept
        except Repeated:
            raise  # the adapter refuses it (a replayed signature)
        except UserError as exc:
            reply = Reply(text=exc.message, error=exc.code)
            outcome = "denied" if isinstance(exc, PermissionDenied) else "user_error"
        except Exception:
            log.exception("command failed", platform=message.sender.platform, text=message.text[:200])
            reply = Reply(text=say(ran.locale, "internal"), error="internal")
            outcome = "internal_error"
        if self.observe is not None:
            self.observe(ran.system, ran.command or NONE, outcome, time.perf_counter() - started)
        if not message.sync_reply:
            async with self.services.vault.unit() as unit:
                await self._queue(unit, message, [reply])
        return [reply]

    async def _commented(
        self, message: InboundMessage, line: _Line, ran: _Ran, started: float, state: StateOf[Any] | None
    ) -> list[Reply]:
        """A line with a ``# comment``. A command that logs a roll keeps the comment with it; one
        that logs none is run again with the whole line, ``#`` and all, as its text (``announce
        Room # 3``); when it cannot read that, its first reading stands, the comment left out."""
        try:
            return await self._attempts(message, line, ran, started, state)
        except _CommentIsText:
            first: UserError | None = None
        except UserError as exc:
            first = exc  # ``announce # hello`` has no text before the comment: the whole line may do
        whole = replace(line, words=tuple(tokenize(line.text)), comment=None)
        try:
            return await self._attempts(message, whole, ran, started, state)
        except UserError:
            if first is not None:
                raise first from None
        return await self._attempts(message, replace(line, comment=""), ran, started, state)

    async def _attempts(
        self, message: InboundMessage, line: _Line, ran: _Ran, started: float, state: StateOf[Any] | None
    ) -> list[Reply]:
        """The message's unit of work, run again while a unique key clashes."""
        for attempt in range(1, ATTEMPTS + 1):
            ran.command = None  # a retry that finds the message handled by a racer ran nothing
            try:
                replies = await self._unit_of_work(message, line, ran, state)
                if self.observe is not None and ran.command is not None:  # None: a stored answer
                    self.observe(ran.system, ran.command, "ok", time.perf_counter() - started)
                return replies
            except IntegrityError:
                # A random roll id clashed, or a redelivery raced us: run the unit again.
                if attempt == ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    async def _unit_of_work(
        self, message: InboundMessage, line: _Line, ran: _Ran, state: StateOf[Any] | None
    ) -> list[Reply]:
        try:
            async with self.services.vault.unit() as unit:
                known = await self._answered(unit, message)
                if known is not None:
                    await self._read(unit, message, ran, state)
                    return known
                answer = await self._run(unit, message, line, ran)
                if isinstance(answer, Offloaded | Awaited):
                    raise _Later(answer)  # out of the unit: it must not hold the vault meanwhile
                await self._keep(unit, message, answer)
                await self._read(unit, message, ran, state)
            # The vault wakes the outbox for what the unit queued once it is committed.
            return answer
        except _Later as later:
            deferred = later.deferred
        return await self._finish(message, deferred, ran, state)

    async def _read(self, unit: Unit, message: InboundMessage, ran: _Ran, state: StateOf[Any] | None) -> None:
        """What the adapter learns from this unit: the sender's values (read again, a handler may
        have changed them: ``lang``), and its ``state`` callback's answer. A unit that answered
        from the stored replies resolved no sender yet: it does here."""
        sender = ran.sender
        if sender is None or ran.storyteller is None:
            sender = await self._resolve(unit, message, ran)
            ran.storyteller = await self._is_storyteller(unit, message, sender)
        ran.values = sender.values()
        if state is not None:
            ran.state = await state(Reading(unit, sender, ran.system, ran.locale, ran.storyteller))

    async def _resolve(self, unit: Unit, message: InboundMessage, ran: _Ran) -> Sender:
        """The sender, its channel's rule system and the reader's language, kept in ``ran``."""
        settings = self.services.settings
        default_system = settings.gateway.default_system
        owner = settings.vault.owner or None
        sender = await resolve_sender(unit, message.sender, message.channel, default_system, owner)
        ran.sender, ran.values = sender, sender.values()
        system_name = sender.channel_system or default_system
        system = self.registry.systems.get(system_name)
        ran.system = system_name
        # ``[gateway] locale`` speaks for a channel whose rule system is not installed.
        ran.default_locale = system.default_locale if system else settings.gateway.locale
        ran.locale = locale_for(sender.person_locale, sender.channel_locale, ran.default_locale)
        return sender

    async def _answered(self, unit: Unit, message: InboundMessage) -> list[Reply] | None:
        """The first run's answer to a message id seen before (Stripe-style), else None; records
        the id in ``unit`` when it is new."""
        platform, message_id = message.sender.platform, message.message_id
        if not message_id or not await repo.seen_message(unit, platform, message_id):
            return None
        if message.refuse_repeat:
            raise Repeated(message_id)
        if not message.sync_reply:
            return []  # queued replies went out already
        stored = await repo.stored_response(unit, platform, message_id)
        if stored.request not in (None, repo.request_digest(message.channel.key, message.text)):
            raise UserError("That message id was used for another command.", code="conflict")
        return [Reply(**r) for r in stored.replies]

    async def _keep(self, unit: Unit, message: InboundMessage, replies: list[Reply]) -> None:
        """Queue the replies (asynchronous platforms), or keep them for the message id's retries."""
        if not message.sync_reply:
            await self._queue(unit, message, replies)
        elif message.message_id and not message.refuse_repeat:  # a refused repeat never needs it
            digest = repo.request_digest(message.channel.key, message.text)
            replies_json = [r.as_json() for r in replies]
            await repo.store_response(unit, message.sender.platform, message.message_id, digest, replies_json)

    async def _finish(
        self,
        message: InboundMessage,
        deferred: Offloaded[Any] | Awaited,
        ran: _Ran,
        state: StateOf[Any] | None,
    ) -> list[Reply]:
        """A deferred answer: computed off the loop (or awaited) with no unit open, then kept in a
        unit of its own, unless a racer with the same message id kept one first (then that one is
        the answer). The adapter's reads run in that unit, the sender resolved in it again (the
        first unit rolled back)."""
        if isinstance(deferred, Awaited):
            replies = _as_list(await deferred.run())
        else:
            try:
                value = await self.services.offload.run(deferred.compute)
            except TooLong:
                raise UserError(deferred.too_long, code="too_long") from None
            replies = _as_list(deferred.render(value))
        if message.sync_reply and not message.message_id and state is None:
            return replies  # nothing to keep, nothing to read
        for attempt in range(1, ATTEMPTS + 1):
            ran.sender, ran.storyteller = None, None
            try:
                async with self.services.vault.unit() as unit:
                    known = await self._answered(unit, message)
                    await self._read(unit, message, ran, state)
                    if known is not None:
                        return known
                    await self._keep(unit, message, replies)
                return replies
            except IntegrityError:
                if attempt == ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    async def _run(
        self, unit: Unit, message: InboundMessage, line: _Line, ran: _Ran
    ) -> list[Reply] | Offloaded[Any] | Awaited:
        """Run the command the line's words name; a command given a comment that logs no roll
        raises ``_CommentIsText`` (its unit rolls back)."""
        words, bare, comment = list(line.words), line.bare, line.comment
        ran.sender, ran.storyteller = None, None  # a retry's unit resolves its own
        sender = await self._resolve(unit, message, ran)
        system_name, locale = ran.system, ran.locale
        system = self.registry.systems.get(system_name)
        found = self.registry.find(system_name, words) if system is not None else None
        if bare and (found is None or not found[0].bare):
            raise _ChatLine()
        ran.command = NONE if found is None else found[0].name
        if system is None:
            raise UserError(say(locale, "not_installed", name=system_name))
        if found is None:
            # The seam of ``gateway.features.macros``: a line calling a macro runs the commands it stands for.
            planned = await macro_plan(unit, sender, self.registry, system_name, words, locale)
            if planned is not None:
                ran.command = "macro"
                storyteller = ran.storyteller = await self._is_storyteller(unit, message, sender)
                turn = _Turn(unit, message, sender, system, locale, storyteller)
                return await self._macro(turn, planned, comment)
            storyteller = ran.storyteller = await self._is_storyteller(unit, message, sender)
            unknown = self._unknown(message, system_name, words, locale, storyteller)
            raise UserError(unknown, code="unknown_command")
        command, used = found
        storyteller = ran.storyteller = await self._is_storyteller(unit, message, sender)
        turn = _Turn(unit, message, sender, system, locale, storyteller)
        answer, ctx = await self._command(turn, command, words[used:], line.text, comment)
        if comment and not ctx.logged:
            raise _CommentIsText()
        return answer if isinstance(answer, Offloaded | Awaited) else ctx.commented(_as_list(answer))

    async def _command(
        self, turn: _Turn, command: Command, words: Sequence[str], text: str, comment: str | None
    ) -> tuple[Sequence[Reply] | Reply | Offloaded[Any] | Awaited | None, CommandContext]:
        """One command, authorised and run: its handler's answer and the context it ran in."""
        ctx = CommandContext(
            message=turn.message,
            unit=turn.unit,
            sender=turn.sender,
            system=turn.system,
            locale=turn.locale,
            storyteller=turn.storyteller,
            dice=self.services.dice,
            services=self.services,
            now=self.services.clock(),
            comment=comment or None,
            house=await for_channel(
                turn.unit,
                turn.system,
                self.services.plugins.system_settings,
                turn.sender.channel_key,
                turn.sender.take_house_rules(turn.system.name),
            ),
        )
        self._authorise(ctx, command)
        args = self._bind(ctx, command, words)
        if people.has_people(command.params):  # a person's name is read into an identity key here
            args = await people.resolve(ctx.session, command.params, args, ctx.locale)
        invocation = Invocation(command.name, tuple(words), text, comment=ctx.comment, args=args)
        return await command.handler(ctx, invocation), ctx

    @staticmethod
    def _bind(ctx: CommandContext, command: Command, words: Sequence[str]) -> dict[str, Any]:
        """The words read by the command's typed parameters; a line that does not fit them is a
        one-line error in the reader's language, before the handler sees it."""
        if not command.params:
            return {}
        try:
            return bind(command.params, words)
        except ParamError as exc:
            raise UserError(explain(ctx.locale, command, exc)) from None

    async def _macro(
        self, turn: _Turn, planned: list[Expanded], comment: str | None
    ) -> list[Reply] | Offloaded[Any] | Awaited:
        """A macro's commands, each found and authorised as if typed, in this one unit: a refusal of
        any is the macro's one error line, and nothing any of them did is kept."""
        system, locale = turn.system.name, turn.locale
        replies: list[Reply] = []
        logged = False
        for step in planned:
            words = list(step.words)
            try:
                found = self.registry.find(system, words)
                if found is None:
                    unknown = self._unknown(turn.message, system, words, locale, turn.storyteller)
                    raise UserError(unknown, code="unknown_command")
                command, used = found
                answer, ctx = await self._command(
                    turn, command, words[used:], step.text, comment or step.comment
                )
            except UserError as exc:
                raise macro_error(locale, step.chain[0], exc) from None
            logged = logged or bool(ctx.logged)
            if isinstance(answer, Offloaded | Awaited):
                if len(planned) == 1:
                    return answer
                raise UserError(macro_say(locale, "offload", macro=step.chain[0], command=command.name))
            replies.extend(ctx.commented(_as_list(answer)))
        if comment and not logged:
            raise _CommentIsText()
        return replies

    async def _is_storyteller(self, unit: Unit, message: InboundMessage, sender: Sender) -> bool:
        if not message.sender.verified:
            return False
        if "storyteller" in message.roles:  # the platform's own role (a Discord role)
            return True
        owner = self.services.settings.vault.owner
        known = (sender.person_id, sender.storyteller)
        return await roles.is_storyteller(unit, sender.identity_key, owner, known, sender.owner_person)

    def _unknown(
        self, message: InboundMessage, system: str, words: list[str], locale: str, storyteller: bool
    ) -> str:
        """The unknown-command line, offering the closest names this person may run, each written
        as the reader types it there (``!roll``, ``!help`` on IRC)."""
        options = closest_commands(words, runnable_names(self.registry.visible(system), storyteller))
        prefix = typed_prefix(message, self.services.settings.gateway.prefix)
        word = words[0][:40]
        if not options:
            return say(locale, "unknown", word=word, help=f"{prefix}help")
        typed = [f"{prefix}{option}" for option in options]
        return say(
            locale, "unknown.suggest", word=word, options=listing(locale, typed, "or"), help=f"{prefix}help"
        )

    def _authorise(self, ctx: CommandContext, command: Command) -> None:
        if command.role == "player" and not ctx.message.sender.verified:
            raise PermissionDenied(say(ctx.locale, "need.player", command=command.name))
        if command.role == "storyteller" and not ctx.storyteller:
            raise PermissionDenied(say(ctx.locale, "need.storyteller", command=command.name))
        if not self.services.plugins.permission(ctx, command):
            raise PermissionDenied(say(ctx.locale, "not_allowed", command=command.name))

    async def _queue(self, unit: Unit, message: InboundMessage, replies: Sequence[Reply]) -> None:
        """Replies for platforms that answer asynchronously go through the outbox, in this transaction."""
        now = self.services.clock()
        for reply in replies:
            payload = reply_payload(
                reply,
                recipient=message.sender.id,
                recipient_name=message.sender.display_name,
                reply_to=message.reply_to or message.message_id,
            )
            await repo.enqueue(unit, message.channel.platform, message.channel.id, payload, now=now)


def _as_list(value: Sequence[Reply] | Reply | None) -> list[Reply]:
    if value is None:
        return []
    if isinstance(value, Reply):
        return [value]
    return list(value)
