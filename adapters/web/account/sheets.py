"""Every rule system's sheet pages, drawn from its declared sheet (``RuleSystem.sheet``, a
``gateway.SheetSpec``): the player's sheet and editor at ``/me/c/ID`` and the Storyteller's profile
at ``/st/c/ID`` hand their characters here. The page knows no rules: dots for ratings, boxes for
pools, the book's headings, powers and text come from the declaration, the values from the sheet
and the system's ``SheetSummary``.

The editor is one form per sheet. It posts every editable field with the value it was drawn with;
each field whose value changed becomes the field's declared command line (``set``, ``trait``, ``st
set``, ...) run through the router as the signed-in identity in a web channel of the character's
system, so the checks, refusal texts and audit rows are chat's. A refusal is shown beside its
field, with the value the person typed kept there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from aiohttp import web

from adapters.web.account.actor import Actor, text, word
from adapters.web.account.auth import Auth
from adapters.web.account.render import page
from adapters.web.account.store import Signed
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import COOKIE
from adapters.web.people import platform_label
from gateway import AdapterServices, Identity, Reply, SheetAction, SheetField, SheetSpec
from gateway.core.i18n import LANGUAGES
from gateway.core.sheet_spec import BudgetPool, label_in, powers_of
from gateway.core.summary import Power, SheetSummary
from gateway.features import profiles, records
from gateway.features.records import Character

ROLLS_SHOWN = 50
DOTS = 5  # a rating with no declared scale is drawn on five dots (more when it is higher)
NEW_POWER = "new"
# The declared action that sends a sheet to the system's export target (``sheet_export`` in its
# settings section, "discord:sheets"): offered only where one is set up, named after its platform.
EXPORT = "export"
BIO = "bio"  # the biography's text area: not a field of any system's sheet, ``char bio`` for all


@dataclass
class Drawn:
    """One field as the page draws it: its value from the sheet, and its editor's state."""

    field: SheetField
    label: str
    value: Any = None  # a rating's number, a text, a choice's label
    stored: str = ""  # what the editor's input holds (the word the command takes)
    was: str = ""  # the stored value the form was drawn with (what the person typed may differ)
    current: int = 0  # a pool's
    maximum: int = 0
    scale: int = 0  # a rating's dots, a pool's boxes
    powers: tuple[Power, ...] = ()
    editable: bool = False
    error: str | None = None
    end: str = ""  # a pool's last box's name (Incapacitated)


@dataclass
class Section:
    key: str | None
    label: str
    fields: list[Drawn] = field(default_factory=list)


@dataclass
class Counter:
    """One pool of the creation budget as the page shows it: what is left (negative: over)."""

    pool: BudgetPool
    label: str
    left: int


def spec_of(services: AdapterServices, system: str) -> SheetSpec | None:
    """The character's system's declared sheet; None for a system without one, or not installed."""
    found = services.systems().get(system)
    return found.sheet if found is not None else None


class SheetPages:
    def __init__(self, services: AdapterServices, auth: Auth, actor: Actor) -> None:
        self.services = services
        self.auth = auth
        self.actor = actor

    async def locale(self, request: web.Request, signed: Signed, system: str) -> str:
        """The page's chosen language (``?lang=``, its cookie), else the one chat answers in for
        that system (Pravidla's Czech, Night Wanderers' Russian)."""
        for choice in (request.query.get("lang"), request.cookies.get(COOKIE)):
            if choice in LANGUAGES:
                return choice
        known = self.services.systems().get(system)
        identity = Identity(signed.platform, signed.id, signed.display_name, verified=True)
        channel = self.actor.channel(signed, system)
        return await self.services.reader_locale(identity, channel, known.default_locale if known else None)

    def spec(self, character: Character) -> SheetSpec:
        found = spec_of(self.services, character.system)
        if found is None:
            raise web.HTTPNotFound(text="No sheet pages for this rule system.\n")
        return found

    async def context(
        self,
        request: web.Request,
        signed: Signed,
        character: Character,
        *,
        storyteller: bool,
        errors: Mapping[str, str] | None = None,
        typed: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        spec = self.spec(character)
        locale = await self.locale(request, signed, character.system)
        known = self.services.systems().get(character.system)
        async with self.services.vault.transaction() as session:
            summary = await self.services.sheet_summary(session, character, locale)
            assert character.id is not None
            rolls = await records.rolls_of(session, character.id, ROLLS_SHOWN)
            profile = await profiles.profile(session, character.id)
        sections = draw(spec, character, summary, locale, storyteller, errors or {}, typed or {})
        own = not storyteller  # a portrait and a biography are the owner's, approved or not
        editing = any(d.editable for s in sections for d in s.fields)
        counters = self.counters(spec, character, locale) if own and editing else []
        return {
            "counters": counters,
            "spend": {key: c.pool for c in counters for key in (*c.pool.ratings, c.pool.powers) if key},
            "biography": profiles.paragraphs(profile.biography),
            "bio_editable": own,
            "bio_was": profile.biography,
            "bio_stored": (typed or {}).get(BIO, profile.biography),
            "bio_error": (errors or {}).get(BIO),
            "bio_max": profiles.BIO_MAX,
            "portrait_tag": profile.portrait_tag,
            "portrait_editable": own,
            "portrait_kib": self.auth.settings.portrait_kib,
            "character": character,
            "summary": summary,
            "rolls": rolls,
            "spec": spec,
            "sections": sections,
            "editing": editing,
            "actions": [
                (a.key, self.action_label(a, character.system, locale))
                for a in self.offered(spec, character, storyteller=storyteller)
            ],
            "refused": len(errors or {}),
            "trait_labels": {f.key: f.label(locale) for f in spec.fields if f.kind == "rating"},
            "players_edit": spec.players_edit(),
            "storyteller_view": storyteller,
            "system_title": known.title_in(locale) if known else character.system,
            "sheet_locale": locale,
            "sa": partial(CATALOGUE.t, locale),  # the sheet's own words, in the sheet's language
        }

    def counters(self, spec: SheetSpec, character: Character, locale: str) -> list[Counter]:
        """What is left of the creation budget, pool by pool, on a sheet still in creation: the
        page's script counts it again from the same declaration as the player types."""
        if spec.budget is None:
            return []
        budget = spec.budget(self.services.system_settings(character.system))
        if character.status not in budget.statuses:
            return []
        sheet = character.sheet or {}
        return [Counter(pool, pool.label(locale), pool.left(spec, sheet)) for pool in budget.pools]

    def offered(self, spec: SheetSpec, character: Character, *, storyteller: bool) -> list[SheetAction]:
        """The sheet's buttons this viewer gets on this sheet; the export only with a target."""
        return [
            a
            for a in spec.actions
            if a.offered(storyteller=storyteller, status=character.status)
            and (a.key != EXPORT or export_target(self.services, character.system) is not None)
        ]

    def action_label(self, action: SheetAction, system: str, locale: str) -> str:
        """A sheet button in the web's words where the web has them (approve, submit, ...), else the
        system's own label; the export says where the sheet goes ("Send to Discord")."""
        target = export_target(self.services, system) if action.key == EXPORT else None
        if target is not None:
            return CATALOGUE.t(locale, "profile.export", platform=platform_label(target, locale))
        key = f"sheets.action.{action.key}"
        known = key in CATALOGUE.messages[CATALOGUE.fallback]
        return CATALOGUE.t(locale, key) if known else action.label(locale)

    def chosen(
        self, spec: SheetSpec, character: Character, form: Mapping[str, str], *, storyteller: bool
    ) -> SheetAction | None:
        """The sheet button the form was sent with (None: Save changes); 400 for one this viewer is
        not offered on this sheet."""
        key = form.get("action", "save")
        if key == "save":
            return None
        found = next(
            (a for a in self.offered(spec, character, storyteller=storyteller) if a.key == key), None
        )
        if found is None:
            raise web.HTTPBadRequest(text="Unknown action.\n")
        return found

    async def player(
        self,
        request: web.Request,
        signed: Signed,
        character: Character,
        messages: list[Reply] | None = None,
        errors: Mapping[str, str] | None = None,
        typed: Mapping[str, str] | None = None,
        *,
        status: int = 200,
        portrait_error: str | None = None,
    ) -> web.Response:
        return page(
            request,
            self.auth,
            "sheet.html",
            status=status,
            signed=signed,
            storyteller=await self.auth.is_storyteller(signed),
            **await self.context(request, signed, character, storyteller=False, errors=errors, typed=typed),
            messages=messages or (),
            portrait_error=portrait_error,
        )

    async def player_edit(
        self, request: web.Request, signed: Signed, character: Character, form: dict[str, str]
    ) -> web.Response:
        """The changed fields as the player's command lines, on the character made active for them."""
        spec = self.spec(character)
        self.chosen(spec, character, form, storyteller=False)  # a bad one changes nothing
        refused = await self.made_active(signed, character, spec)
        if refused:
            return await self.player(request, signed, character, refused)
        messages, errors, typed = await self.apply(signed, character, spec, form, storyteller=False)
        fresh = await records.character(self.services.vault, character.id or 0)
        return await self.player(request, signed, fresh or character, messages, errors, typed)

    async def profile(
        self,
        request: web.Request,
        signed: Signed,
        character: Character,
        extra: dict[str, Any],
        messages: list[Reply] | None = None,
        errors: Mapping[str, str] | None = None,
        typed: Mapping[str, str] | None = None,
    ) -> web.Response:
        return page(
            request,
            self.auth,
            "sheet.html",
            signed=signed,
            storyteller=True,
            **await self.context(request, signed, character, storyteller=True, errors=errors, typed=typed),
            **extra,
            messages=messages or (),
        )

    async def act(
        self, signed: Signed, character: Character, form: dict[str, str]
    ) -> tuple[list[Reply], dict[str, str], dict[str, str]]:
        """A Storyteller's form: the changed fields as ``st`` lines, then the button's action."""
        return await self.apply(signed, character, self.spec(character), form, storyteller=True)

    async def apply(
        self,
        signed: Signed,
        character: Character,
        spec: SheetSpec,
        form: Mapping[str, str],
        *,
        storyteller: bool,
    ) -> tuple[list[Reply], dict[str, str], dict[str, str]]:
        """Runs the form's lines: (the replies to show on top, refusals by field, typed values kept)."""
        chosen = self.chosen(spec, character, form, storyteller=storyteller)
        messages: list[Reply] = []
        errors: dict[str, str] = {}
        typed: dict[str, str] = {}
        lines = changed_lines(spec, character, form, storyteller=storyteller)
        if not storyteller:
            lines.extend(biography_line(form))
        for key, line in lines:
            replies = await self.actor.run(signed, line, character.system)
            refused = [r for r in replies if r.error]
            if refused:
                errors[key] = " ".join(r.text for r in refused)
                if key.endswith(f".{NEW_POWER}"):
                    typed[key.split(".")[0]] = form.get(f"{NEW_POWER}.power", "")
                elif key == BIO:
                    typed[key] = form.get(BIO, "")
                elif "." not in key:
                    typed[key] = form.get(f"v.{key}", "")
            else:
                messages.extend(replies)
        if chosen is not None and not errors:  # a submit or an approval of what was just refused: no
            messages.extend(
                await self.actor.run(signed, chosen.line.format(name=word(character.name)), character.system)
            )
        return messages, errors, typed

    async def made_active(self, signed: Signed, character: Character, spec: SheetSpec) -> list[Reply]:
        """A player's commands act on the active character: the edited one is made so first, as a
        player would in chat (``spec.use``). Chat's refusal, if any; empty once it is active."""
        if await records.active_character_id(self.services.vault, signed.person_id) == character.id:
            return []
        line = spec.use.format(name=word(character.name))
        return [r for r in await self.actor.run(signed, line, character.system) if r.error]


def draw(
    spec: SheetSpec,
    character: Character,
    summary: SheetSummary,
    locale: str,
    storyteller: bool,
    errors: Mapping[str, str],
    typed: Mapping[str, str],
) -> list[Section]:
    """The sheet's fields under the book's headings, in the declared order (fields without a
    heading first: who the character is before what they can do)."""
    sheet = character.sheet or {}
    pools = {p.key: (p.current, p.max) for p in summary.pools}
    sections: dict[str | None, Section] = {None: Section(None, "")}
    for group in spec.groups:
        sections[group.key] = Section(group.key, group.label(locale))
    for f in spec.fields:
        editable = spec.editable(f, storyteller=storyteller, status=character.status)
        refused = [text for key, text in errors.items() if key == f.key or key.startswith(f"{f.key}.")]
        drawn = Drawn(f, f.label(locale), editable=editable, error=" ".join(refused) or None)
        if f.kind == "pool":
            if f.key not in pools:
                continue  # a pool the character does not have (a human's blood)
            drawn.current, drawn.maximum = pools[f.key]
            drawn.scale = max(drawn.maximum, drawn.current)
            drawn.stored = str(drawn.current)
            drawn.end = label_in(f.end, locale) if f.end else ""
        elif f.kind == "powers":
            drawn.powers = tuple(powers_of(f.value(sheet)))
        else:
            value = f.value(sheet)
            stored = f.stored(sheet)
            if f.kind == "rating":
                drawn.value = as_int(value)
                drawn.scale = max(f.maximum or DOTS, drawn.value)
                drawn.stored = str(as_int(stored))
            elif f.kind in ("choice", "flag"):
                found = f.choice(stored)
                drawn.value = found.label(locale) if found else ""
                drawn.stored = found.value if found else ""
            else:
                drawn.value = f.shown(value, locale)
                drawn.stored = f.shown(stored, locale)
            unset = stored in (None, "", 0, "0", False)
            if not editable and (drawn.value in ("", None) or (unset and (f.hide_zero or f.power))):
                continue  # nothing to show that nobody here may fill in (a power not held)
        drawn.was = drawn.stored if f.kind != "powers" else ""
        if f.key in typed:
            drawn.stored = typed[f.key]
        sections.setdefault(f.group, Section(f.group, f.group or "")).fields.append(drawn)
    return [s for s in sections.values() if s.fields]


def export_target(services: AdapterServices, system: str) -> str | None:
    """The platform the system's sheets are exported to (``sheet_export = "discord:sheets"`` in
    its settings section), read without knowing the system; None when none is set up."""
    target = getattr(services.system_settings(system), "sheet_export", None)
    if not target:
        return None
    return str(target).partition(":")[0]


def as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def biography_line(form: Mapping[str, str]) -> list[tuple[str, str]]:
    """``char bio`` with the text area's text when it changed (its paragraphs as ``//``), or
    ``char bio --clear`` when it was emptied."""
    if BIO not in form:
        return []
    posted, was = profiles.typed(form[BIO]), profiles.typed(form.get(f"w.{BIO}", ""))
    if posted == was:
        return []
    return [(BIO, f"char bio {text(posted)}" if posted else "char bio --clear")]


def changed_lines(
    spec: SheetSpec, character: Character, form: Mapping[str, str], *, storyteller: bool
) -> list[tuple[str, str]]:
    """(field key, command line) for each editable field whose posted value differs from the one
    the form was drawn with (``w.KEY``). Lowered ratings go first, so that a creation budget has
    the points back before another trait asks for them; powers removed before one is added."""
    name = word(character.name)
    lowered: list[tuple[str, str]] = []
    rest: list[tuple[str, str]] = []
    for f in spec.fields:
        if not spec.editable(f, storyteller=storyteller, status=character.status):
            continue
        lines = spec.lines_of(f)
        if f.kind == "powers":
            remove = lines.remove_of(storyteller)
            for index in range(100):
                held = form.get(f"p.{index}")
                if held is None:
                    break
                if form.get(f"remove.{index}") and remove:
                    lowered.append((f"powers.{index}", remove.format(name=name, power=text(held))))
            add = lines.of(storyteller)
            new = " ".join(form.get(f"{NEW_POWER}.power", "").split())
            if new and add:
                tier, trait = (
                    word(form.get(f"{NEW_POWER}.tier", "")),
                    word(form.get(f"{NEW_POWER}.trait", "")),
                )
                rest.append(
                    (f"powers.{NEW_POWER}", add.format(name=name, power=text(new), tier=tier, trait=trait))
                )
            continue
        if f"v.{f.key}" not in form:
            continue
        posted = " ".join(form[f"v.{f.key}"].split()) if not f.multiline else form[f"v.{f.key}"].strip()
        was = form.get(f"w.{f.key}", "")
        was = " ".join(was.split()) if not f.multiline else was.strip()
        if posted == was:
            continue
        template = lines.of(storyteller)
        if template is None:
            continue
        value = text(posted) if f.kind == "text" else word(posted)
        line = template.format(name=name, key=f.key, value=value, max=form.get(f"m.{f.key}", ""))
        down = (
            f.kind in ("rating", "number") and posted.isdigit() and was.isdigit() and int(posted) < int(was)
        )
        (lowered if down else rest).append((f.key, line))
    return lowered + rest
