# ruff: noqa: E501
"""The web pages' own words, in every language the gateway ships."""

from __future__ import annotations

from gateway.core.i18n import Catalogue

CATALOGUE = Catalogue(
    {
        "en": {
            "nav.skip": "Skip to the content",
            "nav.tools": "Tools",
            "nav.mine": "My characters",
            "nav.main": "Site",
            "footer.text": "Dice, sheets and the Storyteller log of your chronicle, on every platform you play.",
            "error.404.heading": "Page not found",
            "error.404.body": "There is no page at this address. It may have moved, or the link was mistyped.",
            "error.405.heading": "This page is not for opening directly",
            "error.405.body": "This address takes a form's answer, not a visit. Go back to the page you came from.",
            "error.500.heading": "Something went wrong on our side",
            "error.500.body": "The page could not be made. Nothing you sent was half saved: try again in a moment.",
            "site.title": "Nightcap gateway",
            "nav.home": "Home",
            "nav.language": "Language",
            "home.heading": "Tools and pages",
            "home.intro": "Practice tools from the books. Nothing you try here is saved.",
            "error.heading": "Something is wrong with this request",
            "notfound.heading": "Not found",
            "notfound.body": "There is no page at this address.",
        },
        "cs": {
            "nav.skip": "Přejít na obsah",
            "nav.tools": "Nástroje",
            "nav.mine": "Moje postavy",
            "nav.main": "Web",
            "footer.text": "Kostky, deníky postav a záznam vypravěče vaší kroniky na každé platformě, kde hrajete.",
            "error.404.heading": "Stránka nenalezena",
            "error.404.body": "Na této adrese žádná stránka není. Možná se přesunula, nebo je odkaz chybně opsaný.",
            "error.405.heading": "Tuto stránku nelze otevřít přímo",
            "error.405.body": "Tato adresa přijímá odeslaný formulář, ne návštěvu. Vraťte se na stránku, ze které jste přišli.",
            "error.500.heading": "Chyba na naší straně",
            "error.500.body": "Stránku se nepodařilo sestavit. Nic z odeslaného se neuložilo napůl: zkuste to za chvíli znovu.",
            "site.title": "Brána Nightcap",
            "nav.home": "Úvod",
            "nav.language": "Jazyk",
            "home.heading": "Nástroje a stránky",
            "home.intro": "Cvičné nástroje z pravidel. Nic, co tu zkusíte, se neukládá.",
            "error.heading": "S tímto požadavkem je něco špatně",
            "notfound.heading": "Nenalezeno",
            "notfound.body": "Na této adrese žádná stránka není.",
        },
        "ru": {
            "nav.skip": "Перейти к содержимому",
            "nav.tools": "Инструменты",
            "nav.mine": "Мои персонажи",
            "nav.main": "Сайт",
            "footer.text": "Кубики, листы персонажей и журнал рассказчика вашей хроники на любой платформе, где вы играете.",
            "error.404.heading": "Страница не найдена",
            "error.404.body": "По этому адресу страницы нет. Возможно, она переехала или ссылка набрана с ошибкой.",
            "error.405.heading": "Эту страницу нельзя открыть напрямую",
            "error.405.body": "Этот адрес принимает отправленную форму, а не переход. Вернитесь на страницу, с которой пришли.",
            "error.500.heading": "Ошибка на нашей стороне",
            "error.500.body": "Страницу не удалось собрать. Ничего из отправленного не сохранилось наполовину: попробуйте чуть позже.",
            "site.title": "Шлюз Nightcap",
            "nav.home": "Главная",
            "nav.language": "Язык",
            "home.heading": "Инструменты и страницы",
            "home.intro": "Тренировочные инструменты из книг. Ничего из того, что вы здесь пробуете, не сохраняется.",
            "error.heading": "С этим запросом что-то не так",
            "notfound.heading": "Не найдено",
            "notfound.body": "По этому адресу страницы нет.",
        },
    }
)
