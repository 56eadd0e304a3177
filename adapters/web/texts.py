"""The web pages' own words, in every language the gateway ships."""

from __future__ import annotations

from gateway.i18n import Catalogue

CATALOGUE = Catalogue(
    {
        "en": {
            "site.title": "Nightcap gateway",
            "nav.home": "Home",
            "nav.language": "Language",
            "home.heading": "Tools and pages",
            "home.intro": "Practice tools from the books. Nothing here is saved to the vault.",
            "error.heading": "Something is wrong with this request",
            "notfound.heading": "Not found",
            "notfound.body": "There is no page at this address.",
        },
        "cs": {
            "site.title": "Brána Nightcap",
            "nav.home": "Úvod",
            "nav.language": "Jazyk",
            "home.heading": "Nástroje a stránky",
            "home.intro": "Cvičné nástroje z pravidel. Nic z toho se neukládá do trezoru.",
            "error.heading": "S tímto požadavkem je něco špatně",
            "notfound.heading": "Nenalezeno",
            "notfound.body": "Na této adrese žádná stránka není.",
        },
        "ru": {
            "site.title": "Шлюз Nightcap",
            "nav.home": "Главная",
            "nav.language": "Язык",
            "home.heading": "Инструменты и страницы",
            "home.intro": "Тренировочные инструменты из книг. Здесь ничего не сохраняется в хранилище.",
            "error.heading": "С этим запросом что-то не так",
            "notfound.heading": "Не найдено",
            "notfound.body": "По этому адресу страницы нет.",
        },
    }
)
