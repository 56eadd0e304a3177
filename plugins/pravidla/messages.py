"""Every Pravidla message, in English and Czech (the default). Whole sentences per locale: a
variant that changes the grammar (a trait or a bare number, one success needed or more) is its own
template, never a glued fragment."""

from __future__ import annotations

from gateway.core.i18n import Catalogue

EN = {
    # rolls
    "degree.success": "Success",
    "degree.failure": "Failure",
    "roll.number": "{who} rolls {pool} {pool:plural:die:dice} against {target}: {faces} → {s}"
    " {s:plural:success:successes} ({degree}) #{id}",
    "roll.number.need": "{who} rolls {pool} {pool:plural:die:dice} against {target}, needing {need}"
    " {need:plural:success:successes}: {faces} → {s} {s:plural:success:successes} ({degree}) #{id}",
    "roll.trait": "{who} rolls {trait} {label} against {target}: {faces} → {s}"
    " {s:plural:success:successes} ({degree}) #{id}",
    "roll.trait.need": "{who} rolls {trait} {label} against {target}, needing {need}"
    " {need:plural:success:successes}: {faces} → {s} {s:plural:success:successes} ({degree}) #{id}",
    "side.number": "{pool} {pool:plural:die:dice}",
    "side.trait": "{trait} {label}",
    "contest": "{left} ({left_pool}) vs {right} ({right_pool}) against {target}: {left_faces} → {ls}"
    " {ls:plural:success:successes} vs {right_faces} → {rs} {rs:plural:success:successes}."
    " {winner} wins. #{id}",
    "contest.rerolled": "{left} ({left_pool}) vs {right} ({right_pool}) against {target}: {left_faces} →"
    " {ls} {ls:plural:success:successes} vs {right_faces} → {rs} {rs:plural:success:successes} after"
    " {n} {n:plural:tie:ties} rolled again. {winner} wins. #{id}",
    # a tie settled by the house rule contest_ties (plugins.pravidla.house)
    "contest.tie.attacker": "{left} ({left_pool}) vs {right} ({right_pool}) against {target}: {left_faces}"
    " → {ls} {ls:plural:success:successes} vs {right_faces} → {rs} {rs:plural:success:successes}. A tie:"
    " {winner} wins it as the attacker. #{id}",
    "contest.tie.defender": "{left} ({left_pool}) vs {right} ({right_pool}) against {target}: {left_faces}"
    " → {ls} {ls:plural:success:successes} vs {right_faces} → {rs} {rs:plural:success:successes}. A tie:"
    " {winner} wins it as the defender. #{id}",
    "contest.tie.standoff": "{left} ({left_pool}) vs {right} ({right_pool}) against {target}: {left_faces}"
    " → {ls} {ls:plural:success:successes} vs {right_faces} → {rs} {rs:plural:success:successes}. A tie:"
    " nobody wins. #{id}",
    "npc": "NPC",
    # odds
    "odds.roll": "Odds for {pool} {pool:plural:die:dice} against {target}: at least {need}"
    " {need:plural:success:successes} {chance}. Exactly: {table}.",
    "odds.contest": "Odds for {left} {left:plural:die:dice} against {right} {right:plural:die:dice} at"
    " {target}: the first side wins {first}, the second {second}; a round ties {tie} of the time and is"
    " rolled again.",
    "odds.contest.attacker": "Odds for {left} {left:plural:die:dice} against {right}"
    " {right:plural:die:dice} at {target}: the first side wins {first} (a tie, {tie}, goes to the"
    " attacker), the second {second}.",
    "odds.contest.defender": "Odds for {left} {left:plural:die:dice} against {right}"
    " {right:plural:die:dice} at {target}: the first side wins {first}, the second {second} (a tie, {tie},"
    " goes to the defender).",
    "odds.contest.standoff": "Odds for {left} {left:plural:die:dice} against {right}"
    " {right:plural:die:dice} at {target}: the first side wins {first}, the second {second}; a tie, where"
    " nobody wins, {tie}.",
    # tug of war
    "tug.started": "Tug of war: {left} against {right}; the first to lead by {lead} wins. Roll each round"
    " with tug roll.",
    "tug.round.leads": "Tug of war, round {round}: {left} {left_faces} → {ls}, {right} {right_faces} →"
    " {rs}. {leader} leads by {margin} of {lead}. #{id}",
    "tug.round.even": "Tug of war, round {round}: {left} {left_faces} → {ls}, {right} {right_faces} →"
    " {rs}. Back to even. #{id}",
    "tug.round.won": "Tug of war, round {round}: {left} {left_faces} → {ls}, {right} {right_faces} →"
    " {rs}. {leader} wins the tug of war, leading by {margin}. #{id}",
    "tug.status.leads": "Tug of war: {left} against {right}, to a lead of {lead}: {leader} leads by"
    " {margin} after {round} {round:plural:round:rounds}.",
    "tug.status.even": "Tug of war: {left} against {right}, to a lead of {lead}: even after {round}"
    " {round:plural:round:rounds}.",
    "tug.status.new": "Tug of war: {left} against {right}, to a lead of {lead}; no round rolled yet: tug"
    " roll rolls the first.",
    "tug.none": "No tug of war in this channel. Start one with tug start NAME N.",
    "tug.stopped": "The tug of war between {left} and {right} is called off.",
    "err.tug_stop": "Only whoever started the tug of war, or a Storyteller, can call it off.",
    # initiative
    "init.joined": "{name} joins the initiative: Stamina {stamina}, Wits {wits}{powers}.",
    "init.powers": ", switched on: {powers}",
    "power.hunting": "Hunting Instinct",
    "power.celerity.1": "Basic Celerity",
    "power.celerity.2": "Advanced Celerity",
    "power.hunting.acc": "Hunting Instinct",
    "power.celerity.1.acc": "Basic Celerity",
    "power.celerity.2.acc": "Advanced Celerity",
    "init.waiting": "In the initiative: {names}. The Storyteller sets the order with init roll.",
    "init.empty": "Nobody is in the initiative here. Join with init join.",
    "init.order": "Initiative: {order}.",
    "init.extra": "Extra actions (Celerity), after everyone's first: {passes}.",
    "init.dice": "Ties broken by the die: {rolls}.",
    "init.cleared": "The initiative is cleared.",
    "init.removed": "{name} leaves the initiative.",
    # characters
    "char.created": "{name} is made and active. A Storyteller sets the sheet: st set {name} TRAIT N.",
    "char.used": "{name} is your active character now.",
    "char.list": "Your Pravidla characters: {names}.",
    "char.list.none": "You have no Pravidla character yet: char new NAME makes one.",
    "sheet": "{name}: {traits}. Celerity: {celerity}. Hunting Instinct: {hunting}. Potence: {potence}.",
    "level.0": "none",
    "level.1": "basic",
    "level.2": "advanced",
    "yes": "yes",
    "no": "no",
    "st.set": "{name}: {field} {old} → {new}.",
    "field.celerity": "Celerity",
    "field.hunting": "Hunting Instinct",
    "field.potence": "Potence",
    # errors
    "err.roll_usage": "Write roll POOL [+N|-N] [tn 2-6] [need N] [vs POOL|vs NAME] [secret], for example"
    " roll 4 tn 5 or roll charm vs 2.",
    "err.too_long": "Those odds take too long to work out here; try smaller pools.",
    "err.odds_usage": "Write odds POOL [tn 2-6] [need N] [vs POOL], for example odds 4 tn 5.",
    "err.bad_pool": "I cannot read {word} as a pool: write a number of dice or a trait ({traits}).",
    "err.unknown_trait": "Unknown trait {word}. Traits: {traits}.",
    "err.unknown_trait.suggest": "Unknown trait {word}. Did you mean {name}?",
    "err.ambiguous_trait": "{word} could be {options}; write more of it.",
    "err.trait_needs_character": "{trait} is a trait and you have no active character here: roll a"
    " number, or make one with char new NAME.",
    "err.target": "The target number is 2 to 6 (a d6 shows 1 to 6): write tn 5.",
    "err.need": "need is a number of successes from 1 to the pool ({pool}): write need 2.",
    "err.option": "{word} needs a number after it: write {word} {example}.",
    "err.option_twice": "{word} is said once per roll: write it one time.",
    "err.pool_max": "A pool of {pool} is above the maximum of {max} dice.",
    "err.pool_min": "A pool needs at least one die; this one has {pool}.",
    "err.two_vs": "A contest has two sides: write vs once.",
    "err.no_character": "There is no Pravidla character called {name}.",
    "err.vs_name_needs_trait": "vs NAME rolls that character's same trait: roll a trait (roll charm vs"
    " Ravenwood), or write vs and a number of dice.",
    "err.stalemate": "Still tied after {n} rolls; try again.",
    "err.tug_usage": "Write tug start NAME N [POOL vs POOL] [tn 2-6], tug roll [POOL vs POOL], tug or tug"
    " stop.",
    "err.tug_lead": "The lead to win is a number from 1 to {max}: write tug start Nosferatu 3.",
    "err.tug_running": "A tug of war between {left} and {right} is already on here: tug roll rolls the next"
    " round, tug stop calls it off.",
    "err.tug_pools": "Which pools does the tug of war roll? Write tug roll 4 vs 4 (or give them at tug"
    " start).",
    "err.init_usage": "Write init, init join [hunting] [celerity basic|advanced], init add NAME STAMINA WITS"
    " [hunting] [celerity basic|advanced], init roll, init remove NAME or init clear.",
    "err.init_rating": "Stamina and Wits are rated 0 to {max}: write init add Ghoul 3 2.",
    "err.init_missing_power": "{name} has no {power} on the sheet.",
    "err.init_not_in": "{name} is not in the initiative.",
    "err.char_usage": "Write char new NAME, char use NAME, or char list (or just char) to list your"
    " characters.",
    "err.char_name": "A character name is 1 to 60 characters long.",
    "err.char_taken": "There is already a Pravidla character called {name}.",
    "err.char_not_yours": "You have no Pravidla character called {name}.",
    "err.no_active": "You have no active Pravidla character: char new NAME makes one, char use NAME picks"
    " one.",
    "err.st_usage": "Write st set NAME FIELD VALUE, with FIELD a trait ({traits}), celerity 0-2, hunting"
    " yes|no or potence 0-2.",
    "err.st_value": "{field} takes {allowed}; {value} is not one of them.",
    "err.st_range": "{field} can be {low}-{high}; {value} is out of range.",
    "err.st_levels": "{field} can be 0-2 (none, basic, advanced); {value} is not one of them.",
    "err.st_choice": "{field} can only be yes or no, not {value}.",
    "err.st_not_number": "{field} can be {low}-{high}; {value} is not a number.",
    "err.vs_trait": "After vs comes a character's name (they roll the same trait) or a number of dice: roll"
    " stamina vs Nosferatu, or roll stamina vs 3.",
    "err.same_trait": "In a contest the opponent rolls the same trait (the book: the same Attribute against"
    " the same target): write {word} vs {word}, or vs and a number of dice.",
    "err.self_contest": "{name} cannot contest {name}: a contest compares a character with another vampire"
    " or a human. Write another character's name after vs, or a number of dice.",
    "err.self_tug": "{name} cannot tug against {name}: a tug of war is a contest with another vampire or a"
    " human. Write tug start and the opponent's name.",
    "err.opponent_sheet": "There is no Pravidla character called {name}, so their {trait} is unknown: write a"
    " number of dice after vs (tug start {name} 3 {word} vs 4).",
}

CS = {
    "degree.success": "podařilo se",
    "degree.failure": "nepodařilo se",
    "roll.number": "{who} hází {pool} {pool:plural:kostkou:kostkami:kostkami}, cílové číslo {target}:"
    " {faces} → {s} {s:plural:úspěch:úspěchy:úspěchů} ({degree}) #{id}",
    "roll.number.need": "{who} hází {pool} {pool:plural:kostkou:kostkami:kostkami}, cílové číslo {target},"
    " potřebuje {need} {need:plural:úspěch:úspěchy:úspěchů}: {faces} → {s}"
    " {s:plural:úspěch:úspěchy:úspěchů} ({degree}) #{id}",
    "roll.trait": "{who} hází {trait_ins} {label}, cílové číslo {target}: {faces} → {s}"
    " {s:plural:úspěch:úspěchy:úspěchů} ({degree}) #{id}",
    "roll.trait.need": "{who} hází {trait_ins} {label}, cílové číslo {target}, potřebuje {need}"
    " {need:plural:úspěch:úspěchy:úspěchů}: {faces} → {s} {s:plural:úspěch:úspěchy:úspěchů} ({degree})"
    " #{id}",
    "side.number": "{pool} {pool:plural:kostka:kostky:kostek}",
    "side.trait": "{trait} {label}",
    "contest": "Měření sil, cílové číslo {target}: {left} ({left_pool}) {left_faces} → {ls}"
    " {ls:plural:úspěch:úspěchy:úspěchů}; {right} ({right_pool}) {right_faces} → {rs}"
    " {rs:plural:úspěch:úspěchy:úspěchů}. Vítězí {winner}. #{id}",
    "contest.rerolled": "Měření sil, cílové číslo {target}: {left} ({left_pool}) {left_faces} → {ls}"
    " {ls:plural:úspěch:úspěchy:úspěchů}; {right} ({right_pool}) {right_faces} → {rs}"
    " {rs:plural:úspěch:úspěchy:úspěchů}; předtím {n}× shoda, házelo se znovu. Vítězí {winner}. #{id}",
    "contest.tie.attacker": "Měření sil, cílové číslo {target}: {left} ({left_pool}) {left_faces} → {ls}"
    " {ls:plural:úspěch:úspěchy:úspěchů}; {right} ({right_pool}) {right_faces} → {rs}"
    " {rs:plural:úspěch:úspěchy:úspěchů}. Shoda: vítězí útočník {winner}. #{id}",
    "contest.tie.defender": "Měření sil, cílové číslo {target}: {left} ({left_pool}) {left_faces} → {ls}"
    " {ls:plural:úspěch:úspěchy:úspěchů}; {right} ({right_pool}) {right_faces} → {rs}"
    " {rs:plural:úspěch:úspěchy:úspěchů}. Shoda: vítězí obránce {winner}. #{id}",
    "contest.tie.standoff": "Měření sil, cílové číslo {target}: {left} ({left_pool}) {left_faces} → {ls}"
    " {ls:plural:úspěch:úspěchy:úspěchů}; {right} ({right_pool}) {right_faces} → {rs}"
    " {rs:plural:úspěch:úspěchy:úspěchů}. Shoda: nevítězí nikdo. #{id}",
    "npc": "protivník",
    "odds.roll": "Šance pro {pool} {pool:plural:kostku:kostky:kostek} proti cílovému číslu {target}:"
    " alespoň {need} {need:plural:úspěch:úspěchy:úspěchů}: {chance}. Přesný počet úspěchů: {table}.",
    "odds.contest": "Šance pro {left} {left:plural:kostku:kostky:kostek} proti {right}"
    " {right:plural:kostce:kostkám:kostkám}, cílové číslo {target}: první strana vyhraje {first}, druhá"
    " {second}; shoda v jednom kole {tie}, pak se hází znovu.",
    "odds.contest.attacker": "Šance pro {left} {left:plural:kostku:kostky:kostek} proti {right}"
    " {right:plural:kostce:kostkám:kostkám}, cílové číslo {target}: první strana vyhraje {first} (včetně"
    " shody, {tie}, kterou vyhrává útočník), druhá {second}.",
    "odds.contest.defender": "Šance pro {left} {left:plural:kostku:kostky:kostek} proti {right}"
    " {right:plural:kostce:kostkám:kostkám}, cílové číslo {target}: první strana vyhraje {first}, druhá"
    " {second} (včetně shody, {tie}, kterou vyhrává obránce).",
    "odds.contest.standoff": "Šance pro {left} {left:plural:kostku:kostky:kostek} proti {right}"
    " {right:plural:kostce:kostkám:kostkám}, cílové číslo {target}: první strana vyhraje {first}, druhá"
    " {second}; shoda, v níž nevyhraje nikdo, {tie}.",
    "tug.started": "Přetlačují se {left} a {right}; vyhrává ten, kdo jako první získá náskok {lead}."
    " Každé kolo se hází příkazem tug roll.",
    "tug.round.leads": "Přetlačování, {round}. kolo: {left} {left_faces} → {ls}, {right} {right_faces} →"
    " {rs}. Vede {leader} o {margin} (k vítězství je potřeba náskok {lead}). #{id}",
    "tug.round.even": "Přetlačování, {round}. kolo: {left} {left_faces} → {ls}, {right} {right_faces} →"
    " {rs}. Stav je opět vyrovnaný. #{id}",
    "tug.round.won": "Přetlačování, {round}. kolo: {left} {left_faces} → {ls}, {right} {right_faces} →"
    " {rs}. Přetlačování vyhrává {leader} s náskokem {margin}. #{id}",
    "tug.status.leads": "Přetlačují se {left} a {right} (na náskok {lead}): po {round}"
    " {round:plural:kole:kolech:kolech} vede {leader} o {margin}.",
    "tug.status.even": "Přetlačují se {left} a {right} (na náskok {lead}): po {round}"
    " {round:plural:kole:kolech:kolech} je stav vyrovnaný.",
    "tug.status.new": "Přetlačují se {left} a {right} (na náskok {lead}); zatím se nehodilo žádné kolo,"
    " první se hází příkazem tug roll.",
    "tug.none": "V tomto kanálu neprobíhá žádné přetlačování. Začíná se příkazem tug start JMÉNO N.",
    "tug.stopped": "Přetlačování je ukončeno: {left} a {right} se už nepřetlačují.",
    "err.tug_stop": "Přetlačování může ukončit jen ten, kdo ho začal, nebo Vypravěč.",
    "init.joined": "{name} je v iniciativě: Kondice {stamina}, Rozum {wits}{powers}.",
    "init.powers": ", zapnuto: {powers}",
    "power.hunting": "Lovecký instinkt",
    "power.celerity.1": "Základní Celerita",
    "power.celerity.2": "Pokročilá Celerita",
    # "nemá v deníku Pokročilou Celeritu": the accusative of each power name.
    "power.hunting.acc": "Lovecký instinkt",
    "power.celerity.1.acc": "Základní Celeritu",
    "power.celerity.2.acc": "Pokročilou Celeritu",
    "init.waiting": "V iniciativě: {names}. Pořadí určí Vypravěč příkazem init roll.",
    "init.empty": "Tady zatím nikdo není v iniciativě. Přidat se lze příkazem init join.",
    "init.order": "Iniciativa: {order}.",
    "init.extra": "Akce navíc (Celerita), až po první akci všech: {passes}.",
    "init.dice": "Shodu rozhodl hod kostkou: {rolls}.",
    "init.cleared": "Iniciativa je smazána.",
    "init.removed": "{name} už v iniciativě není.",
    "char.created": "Postava {name} je vytvořena a aktivní. Vypravěč nastaví deník: st set {name}"
    " VLASTNOST N.",
    "char.used": "Aktivní postava je teď {name}.",
    "char.list": "Vaše postavy v Pravidlech: {names}.",
    "char.list.none": "Zatím nemáte žádnou postavu v Pravidlech: vytvoříte ji příkazem char new JMÉNO.",
    "sheet": "{name}: {traits}. Celerita: {celerity}. Lovecký instinkt: {hunting}. Potence: {potence}.",
    "level.0": "žádná",
    "level.1": "základní",
    "level.2": "pokročilá",
    "yes": "ano",
    "no": "ne",
    "st.set": "{name}: {field} {old} → {new}.",
    "field.celerity": "Celerita",
    "field.hunting": "Lovecký instinkt",
    "field.potence": "Potence",
    "err.roll_usage": "Napište roll POČET [+N|-N] [tn 2-6] [need N] [vs POČET|vs JMÉNO] [secret], například"
    " roll 4 tn 5 nebo roll šarm vs 2.",
    "err.too_long": "Výpočet těchto šancí by tu trval příliš dlouho; zkuste menší počty kostek.",
    "err.odds_usage": "Napište odds POČET [tn 2-6] [need N] [vs POČET], například odds 4 tn 5.",
    "err.bad_pool": "„{word}“ nelze přečíst jako počet kostek: napište číslo nebo vlastnost ({traits}).",
    "err.unknown_trait": "Neznámá vlastnost „{word}“. Vlastnosti: {traits}.",
    "err.unknown_trait.suggest": "Neznámá vlastnost „{word}“. Nemysleli jste vlastnost {name}?",
    "err.ambiguous_trait": "„{word}“ může být {options}; napište víc písmen.",
    "err.trait_needs_character": "{trait} je vlastnost a vy tu nemáte aktivní postavu: hoďte zadaným počtem"
    " kostek (roll 3), nebo si postavu vytvořte příkazem char new JMÉNO.",
    "err.target": "Cílové číslo může být 2 až 6 (na k6 padne 1 až 6): napište například tn 5.",
    "err.need": "Za need patří počet potřebných úspěchů od 1 do počtu kostek ({pool}): napište need 2.",
    "err.option": "Za {word} patří číslo: napište {word} {example}.",
    "err.option_twice": "Napište {word} jen jednou.",
    "err.pool_max": "Počet kostek {pool} je nad povoleným maximem {max}.",
    "err.pool_min": "Hází se aspoň jednou kostkou; tady jich vychází {pool}.",
    "err.two_vs": "Měření sil má dvě strany: napište vs jen jednou.",
    "err.no_character": "Postava {name} v Pravidlech neexistuje.",
    "err.vs_name_needs_trait": "vs JMÉNO hází stejnou vlastností té postavy: hoďte vlastností (roll šarm vs"
    " Ravenwood), nebo napište vs a počet kostek.",
    "err.stalemate": "Ani po {n} hodech není rozhodnuto; zkuste to znovu.",
    "err.tug_usage": "Napište tug start JMÉNO N [POČET vs POČET] [tn 2-6], tug roll [POČET vs POČET], tug"
    " nebo tug stop.",
    "err.tug_lead": "Náskok k vítězství je číslo od 1 do {max}: napište tug start Nosferatu 3.",
    "err.tug_running": "Tady se už přetlačují {left} a {right}: tug roll hodí další kolo, tug stop"
    " přetlačování ukončí.",
    "err.tug_pools": "Jakými kostkami se přetlačuje? Napište tug roll 4 vs 4 (nebo je zadejte už při tug"
    " start).",
    "err.init_usage": "Napište init, init join [lovecký] [celerita základní|pokročilá], init add JMÉNO"
    " KONDICE ROZUM [lovecký] [celerita základní|pokročilá], init roll, init remove JMÉNO nebo init clear.",
    "err.init_rating": "Kondice a Rozum mají hodnotu 0 až {max}: napište init add Ghúl 3 2.",
    "err.init_missing_power": "{name} nemá v deníku {power}.",
    "err.init_not_in": "{name} není v iniciativě.",
    "err.char_usage": "Napište char new JMÉNO, char use JMÉNO, nebo char list (stačí i char) pro seznam"
    " postav.",
    "err.char_name": "Jméno postavy má 1 až 60 znaků.",
    "err.char_taken": "Postava {name} v Pravidlech už existuje.",
    "err.char_not_yours": "Nemáte žádnou postavu jménem {name}.",
    "err.no_active": "Nemáte aktivní postavu: char new JMÉNO ji vytvoří, char use JMÉNO ji vybere.",
    "err.st_usage": "Napište st set JMÉNO POLE HODNOTA, kde POLE je vlastnost ({traits}), celerita 0–2,"
    " lovecký ano|ne nebo potence 0–2.",
    "err.st_value": "{field} může být {allowed}; „{value}“ mezi tím není.",
    "err.st_range": "{field} může být {low}–{high}; {value} je mimo rozsah.",
    "err.st_levels": "{field} může být 0–2 (žádná, základní, pokročilá); „{value}“ mezi nimi není.",
    "err.st_choice": "{field} může být jen ano, nebo ne; hodnotu „{value}“ nelze použít.",
    "err.st_not_number": "{field} může být {low}–{high}; „{value}“ není číslo.",
    "err.vs_trait": "Za vs patří jméno postavy (ta hází stejnou vlastností), nebo počet kostek: roll kondice"
    " vs Nosferatu, nebo roll kondice vs 3.",
    "err.same_trait": "Při měření sil hází protivník stejnou vlastností proti stejnému cílovému číslu:"
    " napište {word} vs {word}, nebo za vs počet kostek.",
    "err.self_contest": "Postava {name} nemůže měřit síly sama se sebou: podle knihy se výkon postavy"
    " porovnává s výkonem jiného upíra nebo člověka. Za vs napište jméno jiné postavy, nebo počet kostek.",
    "err.self_tug": "Postava {name} se nemůže přetlačovat sama se sebou: přetlačování je měření sil s jiným"
    " upírem nebo člověkem. Napište tug start a jméno protivníka.",
    "err.opponent_sheet": "Postava {name} v Pravidlech není, takže hodnotu vlastnosti {trait} nelze zjistit:"
    " napište za vs počet kostek (tug start {name} 3 {word} vs 4).",
}

CATALOGUE = Catalogue({"en": EN, "cs": CS})
