"""The tool pages' handlers: read the form, work it out with the rule system's pure functions (heavy
odds in the offload pool), render the page or, for the page's script, only its results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from pydantic import BaseModel

from adapters.web import chart
from adapters.web.locale import request_locale
from adapters.web.tools.forms import number, tool_values
from adapters.web.tools_texts import TOOLS_CATALOGUE
from gateway import AdapterServices, TooLong
from gateway.core.i18n import Catalogue
from gateway.core.web_pages import BudgetCalculator, Practice, PracticeRoller, RollerOdds, WebPage
from gateway.core.web_tool import HouseField, OddsChart, WebTool, in_locale, read_house

Say = Callable[..., str]
# The words of a tool page that are its system's (``PracticeRoller.words``, ``BudgetCalculator.words``):
# the adapter knows no rule system's degrees, contest bands, traits or tiers.
SYSTEM_WORDS = ("degree.", "contest.", "outcome.", "band.", "trait.", "tier.")


def sayer(locale: str, words: Catalogue | None = None) -> Say:
    """The tool pages' words in ``locale``; the system's own words from its ``words`` (without a
    catalogue, the word itself: ``trait.grace`` shows as ``grace``)."""

    def say(key: str, **params: Any) -> str:
        if key.startswith(SYSTEM_WORDS):
            return words.t(locale, key, **params) if words is not None else key.partition(".")[2]
        return TOOLS_CATALOGUE.t(locale, key, **params)

    return say


def partial(request: web.Request) -> bool:
    """The page's script asks for the results only (``partial=1``)."""
    return request.query.get("partial") == "1"


class ToolPages:
    """Every rule system's pages (``RuleSystem.web_tools``) and the system-free odds forms
    (``gateway_web_tools``), each at ``/tools/<slug>``, drawn by kind: an odds form, a practice
    table, a budget calculator."""

    def __init__(self, services: AdapterServices) -> None:
        self.services = services
        self.pages: dict[str, WebPage] = {}
        for tool in services.web_tools():
            if tool.slug in self.pages:
                raise ValueError(f"two web tools with the slug {tool.slug!r}")
            self.pages[tool.slug] = tool

    @property
    def max_pool(self) -> int:
        return self.services.settings.gateway.max_pool

    def house(
        self, system: str, names: tuple[str, ...], request: web.Request, locale: str
    ) -> tuple[dict[str, Any], list[HouseField], list[str]]:
        """The house-rule fields ``names`` of ``system`` from the query (a chat ``odds`` link
        carries its channel's): their values, the form's fields, the refusals."""
        found = self.services.systems().get(system)
        model = found.house_rules if found else None
        settings = self.services.system_settings(system)  # a validated section, or None
        section = settings if isinstance(settings, BaseModel) else None
        return read_house(model, section, names, request.query, locale)

    async def redirect_index(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/tools/")

    async def index(self, request: web.Request) -> web.Response:
        """The practice pages (a budget calculator, a practice table) first, then the odds forms by
        system and title."""
        locale = request_locale(request)
        say = sayer(locale)
        titles = {name: system.title for name, system in self.services.systems().items()}
        practice: list[tuple[str, str, str]] = []
        listed: list[tuple[str, str, str]] = []
        for tool in self.pages.values():
            system = titles.get(tool.system, tool.system)
            if isinstance(tool, BudgetCalculator):
                practice.append((f"/tools/{tool.slug}", say("budget.title"), system))
            elif isinstance(tool, PracticeRoller):
                practice.append((f"/tools/{tool.slug}", say("roller.title"), system))
            else:
                listed.append((f"/tools/{tool.slug}", in_locale(tool.title, locale), system))
        listed.sort(key=lambda entry: (entry[2], entry[1]))
        context = {"tt": say, "listed": practice + listed}
        return aiohttp_jinja2.render_template("tools/index.html", request, context)

    async def tool(self, request: web.Request) -> web.Response:
        found = self.pages.get(request.match_info["slug"])
        if isinstance(found, BudgetCalculator):
            return await self.budget(request, found)
        if isinstance(found, PracticeRoller):
            return await self.roller(request, found)
        return await self.odds_form(request, found)

    # ------------------------------------------------------------ a budget calculator

    async def budget(self, request: web.Request, tool: BudgetCalculator) -> web.Response:
        locale = request_locale(request)
        say = sayer(locale, tool.words)
        budget = tool.limits(self.services.system_settings(tool.system))
        shown = tool.evaluate(request.query, budget, say("budget.duplicate", name="{name}"))
        context = {
            "tt": say,
            "view": shown,
            "budget": budget,
            "traits": tool.traits,
            "tiers": tool.tiers,
        }
        name = "tools/budget_result.html" if partial(request) else "tools/budget.html"
        return aiohttp_jinja2.render_template(name, request, context)

    # ------------------------------------------------------------ a dice roller practice table

    async def roller(self, request: web.Request, tool: PracticeRoller) -> web.Response:
        locale = request_locale(request)
        say = sayer(locale, tool.words)
        q = request.query
        top = self.max_pool
        errors: list[str] = []

        def read(name: str, label: str, default: int | None, low: int, high: int) -> int | None:
            value, error = number(q, name, say(label), default, low, high, say)
            if error:
                errors.append(error)
            return value

        switches, house_fields, errors = self.house(tool.system, tool.house, request, locale)
        pool = read("pool", "roller.pool", 3, 0, top)
        modifier = read("mod", "roller.modifier", 0, -top, top)
        opposing = read("opp", "roller.opposing", None, 0, top)
        their = read("their", "roller.their", 0, -top, top)
        dice = opposition = None
        if not errors and pool is not None and modifier is not None:
            dice = pool + modifier
            if opposing is not None and their is not None:
                opposition = opposing + their
            for n in (dice, opposition):
                if n is not None and n > top:
                    errors.append(say("err.pool", n=n, max=top))
        charts: list[OddsChart] = []
        rolled: Practice | None = None
        if not errors and dice is not None:
            try:
                computed = await self.services.offload.run(tool.odds, dice, opposition, switches)
            except TooLong:
                errors.append(say("err.too_long"))
            else:
                charts = roller_charts(computed, dice, opposition, say)
                if q.get("roll") == "1":
                    rolled = tool.practice(dice, opposition, self.services.dice, switches)
        context = {
            "tt": say,
            "form": {k: q.get(k, "") for k in ("pool", "mod", "opp", "their")},
            "defaults": {"pool": "3", "mod": "0", "their": "0"},
            "dice": dice,
            "opposition": opposition,
            "dice_words": lambda n: dice_words(n, say),
            "errors": errors,
            "house": house_fields,
            "charts": chart.figure(charts, locale, tool.slug),
            "rolled": rolled,
            "outcome": outcome_line(rolled, say) if rolled else "",
        }
        name = "tools/roller_result.html" if partial(request) else "tools/roller.html"
        return aiohttp_jinja2.render_template(name, request, context)

    # ------------------------------------------------------------ an odds form

    async def odds_form(self, request: web.Request, found: WebTool | None) -> web.Response:
        locale = request_locale(request)
        say = sayer(locale)
        if found is None:
            return aiohttp_jinja2.render_template("tools/missing.html", request, {"tt": say}, status=404)
        values, errors = tool_values(found.fields, request.query, locale, self.max_pool, say)
        switches, house_fields, wrong = self.house(found.system, found.house, request, locale)
        errors += wrong
        charts: list[OddsChart] = []
        if not errors:
            try:
                charts = list(await self.services.offload.run(found.odds, values, locale, switches))
            except TooLong:
                errors.append(say("err.too_long"))
        fields = [
            {
                "name": f.name,
                "label": in_locale(f.label, locale),
                "value": request.query.get(f.name, str(f.default if f.text is None else f.text))
                if not f.check
                else "",
                "checked": values.get(f.name, f.default) == 1 if f.check else False,
                "choices": [(v, in_locale(label, locale)) for v, label in f.choices],
                "check": f.check,
                "text": f.text is not None,
                "max_length": f.max_length,
                "low": f.low,
                "high": self.max_pool if f.high is None else f.high,
            }
            for f in found.fields
        ]
        system = self.services.systems().get(found.system)
        context = {
            "tt": say,
            "tool": found,
            "title": in_locale(found.title, locale),
            "intro": in_locale(found.intro, locale) if found.intro else "",
            "system": system.title if system else found.system,
            "fields": fields,
            "house": house_fields,
            "errors": errors,
            "charts": chart.figure(charts, locale, found.slug),
        }
        name = "tools/tool_result.html" if partial(request) else "tools/tool.html"
        return aiohttp_jinja2.render_template(name, request, context)


def dice_words(n: int, say: Say) -> str:
    return say("roller.chance") if n <= 0 else say("roller.count", n=n)


def roller_charts(computed: RollerOdds, dice: int, opposition: int | None, say: Say) -> list[OddsChart]:
    charts = [
        OddsChart(
            say("roller.degrees", dice=dice_words(dice, say)),
            tuple((say(f"degree.{k}"), p) for k, p in computed.degrees),
        )
    ]
    if opposition is not None:
        charts.append(OddsChart(say("roller.contest"), tuple((say(k), p) for k, p in computed.contest)))
        charts.append(
            OddsChart(
                say("roller.their_degrees", dice=dice_words(opposition, say)),
                tuple((say(f"degree.{k}"), p) for k, p in computed.their_degrees),
            )
        )
    return charts


def outcome_line(rolled: Practice, say: Say) -> str:
    contest = rolled.contest
    if contest is None:
        return ""
    if contest.outcome in ("deadlock", "both_botch"):
        return say(f"outcome.{contest.outcome}")
    side = "left" if contest.winner == 0 else "right"
    return say(f"outcome.{side}", margin=contest.margin, band=say(f"band.{contest.outcome}"))
