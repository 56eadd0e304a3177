"""Every Night Wanderers message, in English and Russian (the default). Each template is a whole
sentence (or a whole line) in its language; a reply may put several sentences one after another, but
never builds one sentence out of translated pieces."""

from __future__ import annotations

from gateway.core.i18n import Catalogue

EN = {
    "field.hp": "Health",
    "field.hpmax": "Health maximum",
    "field.blood": "Blood",
    "field.bloodmax": "Blood maximum",
    "field.kind": "kind",
    "field.clan": "clan",
    "field.humanity": "Humanity",
    "field.boost": "blood boost",
    "field.celerity": "Celerity",
    "field.hunting": "Hunting Instinct",
    "field.fortitude": "Fortitude",
    "field.frenzy": "frenzy",
    "field.dead": "final death",
    "field.potence": "Potence",
    "field.xp": "experience",
    "allowed.range": "{low} to {high}",
    "allowed.yes_no": "yes or no",
    "allowed.levels": "0, 1 or 2 (none, basic, advanced)",
    "terrain.words": "feeding, business, residential, slums, suburbs, countryside, wilderness",
    "err.unknown_clan": "The book names no clan {clan}. Clans: {clans}. A name of several words goes in"
    ' quotes: char new "Anna Maria" Dragazhar.',
    "degree.failure": "Failure",
    "degree.done": "Done",
    "degree.good": "Good",
    "degree.excellent": "Excellent",
    "degree.masterful": "Masterful",
    "band.optimal": "Optimal",
    "band.normal": "Normal",
    "band.medium": "Medium",
    "band.dangerous": "Dangerous",
    "band.critical": "Critical",
    "band.none": "no health left",
    "hunger.sated": "sated",
    "hunger.hungry": "hungry",
    "hunger.ravenous": "ravenous",
    "hunger.torpor": "empty",
    "kind.vampire": "vampire",
    "kind.human": "human",
    "kind.werewolf": "werewolf",
    "level.0": "none",
    "level.1": "basic",
    "level.2": "advanced",
    "yes": "yes",
    "no": "no",
    "npc": "NPC",
    # rolls
    "roll.number": "{who} rolls {pool} {pool:plural:die:dice} at difficulty {diff}: {faces} → {s}"
    " {s:plural:success:successes} ({degree}).",
    "roll.number.need": "{who} rolls {pool} {pool:plural:die:dice} at difficulty {diff}, needing {need}"
    " {need:plural:success:successes}: {faces} → {s} {s:plural:success:successes} ({degree}).",
    "roll.trait": "{who} rolls {trait} {label}, {pool} {pool:plural:die:dice} at difficulty {diff}: {faces}"
    " → {s} {s:plural:success:successes} ({degree}).",
    "roll.trait.need": "{who} rolls {trait} {label}, {pool} {pool:plural:die:dice} at difficulty {diff},"
    " needing {need} {need:plural:success:successes}: {faces} → {s} {s:plural:success:successes}"
    " ({degree}).",
    "note.pain": "Pain takes {n} {n:plural:die:dice}.",
    "note.clamped": "Difficulty {asked} becomes {diff} (difficulty runs from 2 to 6).",
    "side.number": "{pool} {pool:plural:die:dice}",
    "side.trait": "{trait} {label}",
    "contest": "{left} ({left_pool}) against {right} ({right_pool}) at difficulty {diff}: {left_faces} →"
    " {ls} {ls:plural:success:successes} against {right_faces} → {rs} {rs:plural:success:successes}."
    " {winner} wins.",
    "contest.rerolled": "{left} ({left_pool}) against {right} ({right_pool}) at difficulty {diff}:"
    " {left_faces} → {ls} {ls:plural:success:successes} against {right_faces} → {rs}"
    " {rs:plural:success:successes}, after {n} {n:plural:tie:ties} rolled again. {winner} wins.",
    # a tie settled by the house rule contest_ties (plugins.nightwanderers.house)
    "contest.tie.attacker": "{left} ({left_pool}) against {right} ({right_pool}) at difficulty {diff}:"
    " {left_faces} → {ls} {ls:plural:success:successes} against {right_faces} → {rs}"
    " {rs:plural:success:successes}. A tie: {winner} wins it as the attacker.",
    "contest.tie.defender": "{left} ({left_pool}) against {right} ({right_pool}) at difficulty {diff}:"
    " {left_faces} → {ls} {ls:plural:success:successes} against {right_faces} → {rs}"
    " {rs:plural:success:successes}. A tie: {winner} wins it as the defender.",
    "contest.tie.standoff": "{left} ({left_pool}) against {right} ({right_pool}) at difficulty {diff}:"
    " {left_faces} → {ls} {ls:plural:success:successes} against {right_faces} → {rs}"
    " {rs:plural:success:successes}. A tie: nobody wins.",
    "odds.roll": "Odds for {pool} {pool:plural:die:dice} at difficulty {diff}, needing {need}: success"
    " {chance}; Done {done}, Good {good}, Excellent {excellent}, Masterful {masterful}.",
    "odds.contest": "Odds for {left} {left:plural:die:dice} against {right} {right:plural:die:dice} at"
    " difficulty {diff}: the first side wins {first}, the second {second}; a round ties {tie} of the time"
    " and is rolled again.",
    "odds.contest.attacker": "Odds for {left} {left:plural:die:dice} against {right}"
    " {right:plural:die:dice} at difficulty {diff}: the first side wins {first} (a tie, {tie}, goes to the"
    " attacker), the second {second}.",
    "odds.contest.defender": "Odds for {left} {left:plural:die:dice} against {right}"
    " {right:plural:die:dice} at difficulty {diff}: the first side wins {first}, the second {second} (a"
    " tie, {tie}, goes to the defender).",
    "odds.contest.standoff": "Odds for {left} {left:plural:die:dice} against {right}"
    " {right:plural:die:dice} at difficulty {diff}: the first side wins {first}, the second {second}; a"
    " tie, where nobody wins, {tie}.",
    # characters and sheet
    "char.created.vampire": "{name} ({kind}) is made and active: {hp} HP, {blood} BP. A Storyteller sets"
    " the traits: st set {name} TRAIT N.",
    "char.created.mortal": "{name} ({kind}) is made and active: {hp} HP. A Storyteller sets the traits:"
    " st set {name} TRAIT N.",
    "char.used": "{name} is your active character now.",
    "char.list": "Your Night Wanderers characters: {names}.",
    "char.list.none": "You have no Night Wanderers character yet: char new NAME [CLAN] makes one.",
    "sheet.head": "{name}: {kind}, clan {clan}, Humanity {humanity}.",
    "sheet.traits": "Traits: {traits}.",
    "sheet.health": "Health {hp} of {max} ({band}).",
    "sheet.blood": "Blood {bp} of {max} BP ({hunger}).",
    "sheet.powers": "Celerity: {celerity}. Potence: {potence}. Hunting Instinct: {hunting}. Fortitude:"
    " {fortitude}. Experience: {xp}.",
    "sheet.boost": "Blood boost: +{n} to Strength and Physical.",
    "sheet.frenzy": "In frenzy (pain is ignored).",
    "status.torpor": "{name} is in torpor: paralysed until at least 1 BP is back (another vampire:"
    " give N NAME).",
    "status.unconscious": "{name} is unconscious and loses 1 HP a turn; at -10 comes final death.",
    "status.dead": "{name} has met final death.",
    "st.set": "{name}: {field} {old} → {new}.",
    # blood
    "wake": "{name} wakes for the night and loses 1 BP: {bp} of {max} left.",
    "wake.empty": "{name} wakes with no blood left to lose.",
    "heal": "{name} spends {n} BP on {n} {n:plural:turn:turns} of healing: Health {hp} of {hpmax}, blood"
    " {bp} of {bpmax}.",
    "discipline.basic": "{name} uses a basic discipline{what} for 1 BP: {bp} of {max} left.",
    "discipline.advanced": "{name} uses an advanced discipline{what} for 2 BP: {bp} of {max} left.",
    "discipline.what": " ({what})",
    "boost": "{name} spends {cost} BP to raise Strength and Physical by {n} (boost now +{total}): {bp} of"
    " {max} BP left.",
    "boost.end": "{name}'s blood boost fades.",
    "feed": "{name} feeds on a {source} for {n} {n:plural:turn:turns}: +{gain} BP, {bp} of {max}.",
    "source.human": "human",
    "source.cow": "cow",
    "source.dog": "dog",
    "source.cat": "cat",
    "feed.hospital": "The victim has lost {lost} of 10 BP and needs a hospital.",
    "feed.dead": "The victim is drained and dies.",
    "feed.animal": "The animal is drained.",
    "note.hungry": "{name} is hungry ({bp} BP): the sight or smell of blood calls for a frenzy check"
    " (frenzy).",
    "note.ravenous": "{name} is ravenous ({bp} BP): any living being nearby calls for a frenzy check, at +1"
    " difficulty when blood is seen (frenzy blood).",
    "note.torpor": "{name} has no blood left and falls into torpor.",
    "frenzy.resisted": "{name} holds the Beast back.",
    "frenzy.fell": "{name} falls into frenzy and attacks the nearest source of food or anger (or flees fire"
    " and sun); pain is ignored until frenzy end or the end of the episode (* * *).",
    "frenzy.end": "{name} comes out of the frenzy.",
    # combat
    "attack.line": "{attacker} ({attack_pool}) attacks {defender} ({defence_pool}) at difficulty {diff}:"
    " {attack_faces} → {a} against {defence_faces} → {d}.",
    "attack.line.dodge": "{attacker} ({attack_pool}) attacks {defender}, who dodges ({defence_pool}), at"
    " difficulty {diff}: {attack_faces} → {a} against {defence_faces} → {d}.",
    "attack.hit": "A hit: {damage} damage.",
    "attack.hit.deep": "A hit: {damage} deep damage.",
    "attack.miss": "A miss.",
    "attack.dodge_initiative": "{defender} out-dodged the attack: -1 on their next initiative roll.",
    "shoot.line": "{attacker} ({attack_pool}) shoots at {defender}, {range} range, difficulty {diff}:"
    " {attack_faces} → {a}.",
    "shoot.dodge": "{defender} dodges ({defence_pool}): {defence_faces} → {d}.",
    "range.long": "long",
    "range.medium": "medium",
    "range.point": "point-blank",
    "soak.halved": "{defender} soaks ({soak_pool}) at difficulty {diff}: {faces} → {s}, the damage is halved"
    " to {damage}.",
    "soak.failed": "{defender} soaks ({soak_pool}) at difficulty {diff}: {faces}, no success; {damage}"
    " damage.",
    "soak.deep": "Deep damage: no soaking without Fortitude.",
    "harm.hp": "{name}: Health {hp} of {max} ({band}).",
    "sun": "{name} spends {turns} {turns:plural:turn:turns} in {strength} sunlight: {damage} damage.",
    "sun.direct": "direct",
    "sun.indirect": "indirect",
    "fire": "{name} spends {turns} {turns:plural:turn:turns} in a {strength} fire: {damage} damage.",
    "fire.surprise": "A {strength} fire catches {name} by surprise: {damage} damage.",
    "fire.small": "small",
    "fire.large": "large",
    "note.frenzy_fire": "Fire and sunlight call for a frenzy check (frenzy).",
    "damage": "{name} takes {damage} damage.",
    "damage.deep": "{name} takes {damage} deep damage.",
    # hunting and stealth
    "hunt": "{who} hunts in {terrain} (difficulty {diff}): {faces} → {s} {s:plural:success:successes}"
    " ({degree}).",
    "hunt.found": "Possible prey is found; it still has to be taken.",
    "hunt.none": "No prey turns up.",
    "terrain.feeding": "a feeding ground",
    "terrain.business": "the business district",
    "terrain.residential": "the residential quarters",
    "terrain.slums": "the slums",
    "terrain.suburbs": "the suburbs",
    "terrain.countryside": "the countryside",
    "terrain.wilderness": "the wilderness",
    "sneak.line": "{sneaker} ({sneak_pool}) sneaks at difficulty 4: {sneak_faces} → {s}; {watcher}"
    " ({watch_pool}) watches at difficulty {diff}: {watch_faces} → {w}.",
    "sneak.unseen": "{sneaker} stays unseen.",
    "sneak.noticed": "{watcher} notices {sneaker}.",
    "sneak.heard": "{watcher} heard something: the next roll to find {sneaker} is at difficulty {next}.",
    # initiative
    "init.joined": "{name} joins the initiative{powers}.",
    "init.powers": ", switched on: {powers}",
    "power.hunting": "Hunting Instinct",
    "power.celerity.1": "Basic Celerity",
    "power.celerity.2": "Advanced Celerity",
    "init.waiting": "In the initiative: {names}. The Storyteller sets the order with init roll.",
    "init.empty": "Nobody is in the initiative here. Join with init join.",
    "init.order": "Initiative: {order}.",
    "init.extra": "Extra actions (Celerity), after everyone's first: {passes}.",
    "init.dice": "Dice, lower first: {rolls}.",
    "init.cleared": "The initiative is cleared.",
    "init.removed": "{name} leaves the initiative.",
    # errors
    "err.roll_usage": "Write roll POOL [+N|-N] [diff 2-6] [need N] [vs POOL|vs NAME [TRAIT]] [secret], for"
    " example roll 2 diff 4, roll persuasion or roll persuasion vs Mortal psyche.",
    "err.too_long": "Those odds take too long to work out here; try smaller pools.",
    "err.odds_usage": "Write odds POOL [diff 2-6] [need N] [vs POOL|vs NAME [TRAIT]], for example odds 4 diff"
    " 5.",
    "err.bad_pool": "I cannot read {word} as a pool: write a number of dice or a trait ({traits}).",
    "err.unknown_trait": "Unknown trait {word}. Traits: {traits}.",
    "err.unknown_trait.suggest": "Unknown trait {word}. Did you mean {name}?",
    "err.ambiguous_trait": "{word} could be {options}; write more of it.",
    "err.trait_needs_character": "{trait} is a trait and you have no active character here: roll a number,"
    " or make one with char new NAME.",
    "err.need": "need is a number of successes from 1 to the pool ({pool}): write need 2.",
    "err.option": "{word} needs a number after it: write {word} {example}.",
    "err.pool_max": "A pool of {pool} is above the maximum of {max} dice.",
    "err.pool_min": "A pool needs at least one die; this one has {pool}.",
    "err.two_vs": "A contest has two sides: write vs once.",
    "err.no_character": "There is no Night Wanderers character called {name}.",
    "err.vs_name_needs_trait": "vs NAME without a trait answers a trait of yours: roll one (roll seduction vs"
    " Ravenwood), name the other side's (roll 3 vs Ravenwood psyche), or write vs and a number of dice.",
    "err.stalemate": "Still tied after {n} rolls; try again.",
    "err.char_usage": "Write char new NAME [CLAN], char use NAME, or char to list your characters. Clans:"
    " {clans}.",
    "err.char_name": "A character name is 1 to 60 characters long.",
    "err.char_taken": "There is already a Night Wanderers character called {name}.",
    "err.char_not_yours": "You have no Night Wanderers character called {name}.",
    "err.no_active": "You have no active Night Wanderers character: char new NAME makes one, char use NAME"
    " picks one.",
    "err.st_usage": "Write st set NAME FIELD VALUE, with FIELD a trait ({traits}) or hp, hpmax, blood,"
    " bloodmax, kind, clan, humanity, celerity, potence, hunting, fortitude, frenzy, boost, xp, dead.",
    "err.st_value": "{value} does not fit {field}: it takes {allowed}.",
    "err.not_vampire": "{name} is no vampire and has no blood pool.",
    "err.not_enough_blood": "{name} has {bp} BP; this needs {cost}.",
    "err.torpor": "{name} is in torpor and cannot act.",
    "err.dead": "{name} has met final death.",
    "err.unconscious": "{name} is unconscious and cannot act.",
    "err.wake_twice": "{name} has already woken this night; the next night begins at {when}.",
    "err.nothing_to_heal": "{name} has no damage to heal.",
    "err.heal_too_much": "{name} has only {damage} damage to heal.",
    "err.discipline_usage": "Write discipline basic|advanced [NAME], for example discipline advanced"
    " Celerity.",
    "err.boost_usage": "Write boost N (1+2+...+N BP) or boost end.",
    "err.feed_usage": "Write feed N [human|cow|dog|cat] (1 BP a turn), for example feed 2.",
    "err.frenzy_usage": "Write frenzy, frenzy blood (a ravenous vampire sees blood) or frenzy end.",
    "err.attack_usage": "Write attack TARGET [claws|weapon|fangs] [dodge], or for NPCs attack [pool N]"
    " [str N] [def N] [soak N] [TARGET].",
    "err.shoot_usage": "Write shoot TARGET long|medium|point arrow|thrown [dodge|run] [pool N] [def N]"
    " [soak N].",
    "err.bow_point_blank": "A bow cannot shoot point-blank: use long or medium range.",
    "err.sun_usage": "Write sun direct|indirect TURNS [NAME].",
    "err.fire_usage": "Write fire small|large TURNS|surprise [NAME].",
    "err.hunt_usage": "Write hunt GROUND [POOL], with GROUND one of {terrains}.",
    "err.sneak_usage": "Write sneak [POOL] vs INSPECTION|NAME, for example sneak vs 3.",
    "err.init_usage": "Write init, init join [hunting] [celerity basic|advanced], init add NAME [hunting]"
    " [celerity basic|advanced], init roll, init remove NAME or init clear.",
    "err.init_missing_power": "{name} has no {power} on the sheet.",
    "err.init_not_in": "{name} is not in the initiative.",
    "err.storyteller_other": "Only a Storyteller can do that to someone else's character.",
    # --- nw-mech (issue 19, second pass): dodge initiative, torpor, exposure, bite, grapple, pursuit,
    # tug of war, the end of an episode, turns, dismemberment, Humanity for experience ---
    "init.dodge_bonus": "{name}: {bonus} on the initiative 2d6 for last turn's successful dodge.",
    "attack.hit.bite": "A bite: {damage} Health {damage:plural:level:levels} (deep damage).",
    "grapple.broken": "{target} lands a blow and breaks {holder}'s hold.",
    "exposure.carried": "One turn without damage is counted: the next turn of the same exposure takes a"
    " Health level.",
    "err.torpor_wait": "{name} is in torpor: paralysed, unable to move or do anything, heal or feed included."
    " Only blood brings a vampire out: another vampire can give it with give N NAME.",
    "frenzy.sated": "{name} is sated and the frenzy ends.",
    "give": "{giver} gives {n} BP of blood to {target}: {bp} of {max} BP now.",
    "give.heals": "{name} spends the first BP on 1 Health level at once.",
    "give.wakes": "{name} comes out of torpor.",
    "err.grapple_usage": "Write grapple TARGET, or for NPCs grapple [pool N] [str N] [def N] [TARGET].",
    "grapple.line": "{attacker} ({attack_pool}) grapples {defender} ({defence_pool}) at difficulty {diff}:"
    " {attack_faces} → {a} against {defence_faces} → {d}.",
    "grapple.held": "The grapple holds: {holder} holds {target} and deals damage every turn (grapple damage)"
    " until the one held lands a blow; a vampire may bite instead (bite).",
    "grapple.failed": "The grapple fails.",
    "err.grapple_none": "There is no hold of yours here.",
    "grapple.damage": "{holder} keeps the hold on {target}: {damage} damage.",
    "bite": "{holder} bites {target} instead of dealing damage.",
    "bite.drink": "Now the blood can be drunk: drink [N], 1 BP a turn.",
    "err.drink_usage": "Write drink [N]: N turns, 1 BP a turn (10 at most).",
    "err.drink_no_bite": "Drinking from {target} needs a bite first (bite).",
    "err.drink_empty": "{target} has no blood left.",
    "drink": "{holder} drinks from {target} for {n} {n:plural:turn:turns}: +{gain} BP, {bp} BP now.",
    "drink.npc": "{holder} drinks from {target} for {n} {n:plural:turn:turns}.",
    "drink.diablerie": "{target} is drained of all blood: this is Diablerie.",
    "grapple.released": "{holder} lets {target} go.",
    "err.pursue_usage": "Write pursue [celerity basic|advanced] vs QUARRY [celerity basic|advanced] [potence"
    " basic|advanced]; a character's Potence is read from the sheet.",
    "pursue.dice": "The powers are equal: 2d6, the lower wins: {rolls}.",
    "pursue.power": "{power} decides it.",
    "pursue.caught": "{pursuer} catches {quarry}.",
    "pursue.escaped": "{quarry} gets away from {pursuer}.",
    "power.potence.1": "Basic Potence",
    "power.potence.2": "Advanced Potence",
    "err.tug_usage": "Write tug start OPPONENT N POOL vs POOL [diff 2-6], for example tug start Tragander 3"
    " strength vs strength; then tug roll each turn, tug to see it, tug stop to call it off.",
    "err.tug_goal": "The lead that wins is 1 to {max} successes.",
    "err.tug_running": "A tug of war is already on here: tug stop calls it off.",
    "tug.started": "Tug of war: {left} ({lp} {lp:plural:die:dice}) against {right} ({rp}"
    " {rp:plural:die:dice}) at difficulty {diff}; the first to lead by {goal} {goal:plural:success:successes}"
    " wins. Each turn: tug roll.",
    "tug.even": "Even so far; a lead of {goal} {goal:plural:success:successes} wins.",
    "tug.leads": "{leader} leads by {n} of {goal}.",
    "tug.none": "There is no tug of war here.",
    "tug.round": "Turn {round}: {left} {left_faces} → {ls} {ls:plural:success:successes}, {right}"
    " {right_faces} → {rs} {rs:plural:success:successes}.",
    "tug.won": "{winner} wins with a lead of {n} {n:plural:success:successes}.",
    "tug.won.more": "{winner} wins with a lead of {n} {n:plural:success:successes} ({goal} needed).",
    "tug.stopped": "The tug of war is called off.",
    "episode.end": "The episode ends here.",
    "episode.end.effects": "The episode ends here. Frenzy, blood boosts and the episode's other effects end"
    " for: {names}.",
    "turn": "{n} {n:plural:turn passes:turns pass}.",
    "turn.bleeds": "{name} is unconscious and loses {n} HP.",
    "err.dismember_usage": "Write dismember NAME [TURNS], 1 to 5 turns.",
    "err.dismember_resists": "{name} can still resist: only a body in torpor, unconscious or in your hold can"
    " be dismembered.",
    "dismember": "{name} is being dismembered: {done} of {of} turns.",
    "err.humanity_max": "{name} has Humanity {humanity}; it goes no higher than {max}.",
    "err.humanity_xp": "{name} has {xp} experience; this needs {cost}.",
    "humanity.bought": "{name} buys {n} Humanity for {cost} experience: Humanity {humanity}, {xp}"
    " experience left.",
    "shoot.run": "A dodge on the run: no bonus to Dodge.",
    "err.give_full": "{name} can take only {room} BP now.",
    # --- issue 31, third pass: who may act, input that slips through ---
    "err.self_contest": "{name} cannot be their own opponent: a contest is a conflict with another person.",
    "err.feed_too_much": "A {source} holds at most {holds} BP (the book: a cow gives 5 BP, a dog 2, a cat 1;"
    " a human holds 10).",
    "err.st_max_below": "{name} has {field} {current} now, above the new maximum {value}: lower it first"
    " (st set {name} {pool} {value}).",
    "err.init_power_level": "{power} is basic or advanced (1 or 2), not {value}.",
    "level.potence.0": "none",
    "level.potence.1": "basic",
    "level.potence.2": "advanced",
    "err.not_in_frenzy": "{name} is not in frenzy.",
    "err.no_boost": "{name} has no blood boost to end.",
    "status.torpor.hp": "{name} is in torpor: no Health left, paralysed until blood comes back (another"
    " vampire: give N NAME; the first BP heals 1 Health level at once).",
    "sheet.head.kind": "{name}: {kind}, Humanity {humanity}.",
    "err.give_full.pool": "{name}'s blood pool is full ({bp} of {max} BP).",
    "degree.unseen": "unseen",
    "degree.noticed": "noticed",
    "degree.heard": "heard something",
    "err.wake_usage": "Write wake, with nothing after it: -1 BP, once a night.",
    "err.scene_end_usage": "Write scene end (or * * *), with nothing after it.",
    "err.self_target": "That is done to another character, not to {name} itself.",
}

RU = {
    "field.hp": "Здоровье",
    "field.hpmax": "максимум Здоровья",
    "field.blood": "Запас Крови",
    "field.bloodmax": "максимум Запаса Крови",
    "field.kind": "вид",
    "field.clan": "клан",
    "field.humanity": "Гуманность",
    "field.boost": "усиление кровью",
    "field.celerity": "Быстрота",
    "field.hunting": "Охотничий Инстинкт",
    "field.fortitude": "Стойкость",
    "field.frenzy": "Безумие",
    "field.dead": "Окончательная Смерть",
    "field.potence": "Могущество",
    "field.xp": "опыт",
    "allowed.range": "от {low} до {high}",
    "allowed.yes_no": "да или нет",
    "allowed.levels": "0, 1 или 2 (нет, начальная, продвинутая)",
    "terrain.words": "кормушка, деловая часть, жилые кварталы, трущобы, пригороды, деревня, дикая местность",
    "err.unknown_clan": "Клана «{clan}» в книге нет. Кланы: {clans}. Имя из нескольких слов пишите в"
    ' кавычках: char new "Анна Мария" Драгазар.',
    "degree.failure": "Провал",
    "degree.done": "Сделано",
    "degree.good": "Хорошо",
    "degree.excellent": "Прекрасно",
    "degree.masterful": "Мастерски",
    "band.optimal": "Оптимальный",
    "band.normal": "Нормальный",
    "band.medium": "Средний",
    "band.dangerous": "Опасный",
    "band.critical": "Критический",
    "band.none": "уровней Здоровья не осталось",
    "hunger.sated": "Жажды нет",
    "hunger.hungry": "Жажда",
    "hunger.ravenous": "ненасытность",
    "hunger.torpor": "крови нет",
    "kind.vampire": "вампир",
    "kind.human": "человек",
    "kind.werewolf": "оборотень",
    "level.0": "нет",
    "level.1": "начальная",
    "level.2": "продвинутая",
    "yes": "да",
    "no": "нет",
    "npc": "НПС",
    "roll.number": "{who}: {pool} {pool:plural:кубик:кубика:кубиков}, трудность {diff}: {faces} → {s}"
    " {s:plural:успех:успеха:успехов} ({degree}).",
    "roll.number.need": "{who}: {pool} {pool:plural:кубик:кубика:кубиков}, трудность {diff}, нужно {need}"
    " {need:plural:успех:успеха:успехов}: {faces} → {s} {s:plural:успех:успеха:успехов} ({degree}).",
    "roll.trait": "{who}: {trait} {label}, {pool} {pool:plural:кубик:кубика:кубиков}, трудность {diff}:"
    " {faces} → {s} {s:plural:успех:успеха:успехов} ({degree}).",
    "roll.trait.need": "{who}: {trait} {label}, {pool} {pool:plural:кубик:кубика:кубиков}, трудность {diff},"
    " нужно {need} {need:plural:успех:успеха:успехов}: {faces} → {s} {s:plural:успех:успеха:успехов}"
    " ({degree}).",
    "note.pain": "Боль отнимает {n} {n:plural:кубик:кубика:кубиков}.",
    "note.clamped": "Трудность {asked} заменена на {diff}: трудность бывает от 2 до 6.",
    "side.number": "{pool} {pool:plural:кубик:кубика:кубиков}",
    "side.trait": "{trait} {label}",
    "contest": "Спор, трудность {diff}. {left} ({left_pool}): {left_faces} → {ls}"
    " {ls:plural:успех:успеха:успехов}. Соперник — {right} ({right_pool}): {right_faces} → {rs}"
    " {rs:plural:успех:успеха:успехов}. Побеждает {winner}.",
    "contest.rerolled": "Спор, трудность {diff}. {left} ({left_pool}): {left_faces} → {ls}"
    " {ls:plural:успех:успеха:успехов}. Соперник — {right} ({right_pool}): {right_faces} → {rs}"
    " {rs:plural:успех:успеха:успехов}; до этого {n:plural:была:были:было} {n} {n:plural:ничья:ничьи:ничьих},"
    " {n:plural:её:их:их} перекинули. Побеждает {winner}.",
    "contest.tie.attacker": "Спор, трудность {diff}. {left} ({left_pool}): {left_faces} → {ls}"
    " {ls:plural:успех:успеха:успехов}. Соперник — {right} ({right_pool}): {right_faces} → {rs}"
    " {rs:plural:успех:успеха:успехов}. Ничья: побеждает атакующий — {winner}.",
    "contest.tie.defender": "Спор, трудность {diff}. {left} ({left_pool}): {left_faces} → {ls}"
    " {ls:plural:успех:успеха:успехов}. Соперник — {right} ({right_pool}): {right_faces} → {rs}"
    " {rs:plural:успех:успеха:успехов}. Ничья: побеждает защищающийся — {winner}.",
    "contest.tie.standoff": "Спор, трудность {diff}. {left} ({left_pool}): {left_faces} → {ls}"
    " {ls:plural:успех:успеха:успехов}. Соперник — {right} ({right_pool}): {right_faces} → {rs}"
    " {rs:plural:успех:успеха:успехов}. Ничья: никто не побеждает.",
    "odds.roll": "Шансы для {pool} {pool:plural:кубика:кубиков:кубиков}, трудность {diff}, нужно {need}:"
    " успех {chance}; Сделано {done}, Хорошо {good}, Прекрасно {excellent}, Мастерски {masterful}.",
    "odds.contest": "Шансы для {left} {left:plural:кубика:кубиков:кубиков} против {right}"
    " {right:plural:кубика:кубиков:кубиков}, трудность {diff}: первая сторона побеждает с вероятностью"
    " {first}, вторая — {second}; ничья в одном броске — {tie}, тогда бросок повторяется.",
    "odds.contest.attacker": "Шансы для {left} {left:plural:кубика:кубиков:кубиков} против {right}"
    " {right:plural:кубика:кубиков:кубиков}, трудность {diff}: первая сторона побеждает с вероятностью"
    " {first} (включая ничью, {tie}: её выигрывает атакующий), вторая — {second}.",
    "odds.contest.defender": "Шансы для {left} {left:plural:кубика:кубиков:кубиков} против {right}"
    " {right:plural:кубика:кубиков:кубиков}, трудность {diff}: первая сторона побеждает с вероятностью"
    " {first}, вторая — {second} (включая ничью, {tie}: её выигрывает защищающийся).",
    "odds.contest.standoff": "Шансы для {left} {left:plural:кубика:кубиков:кубиков} против {right}"
    " {right:plural:кубика:кубиков:кубиков}, трудность {diff}: первая сторона побеждает с вероятностью"
    " {first}, вторая — {second}; ничья, в которой не побеждает никто, — {tie}.",
    "char.created.vampire": "Персонаж {name} ({kind}) создан и выбран активным: Здоровье {hp}, Запас Крови"
    " {blood} BP. Атрибуты и трюки задаёт DM: st set {name} АТРИБУТ N.",
    "char.created.mortal": "Персонаж {name} ({kind}) создан и выбран активным: Здоровье {hp}. Атрибуты и"
    " трюки задаёт DM: st set {name} АТРИБУТ N.",
    "char.used": "Активный персонаж: {name}.",
    "char.list": "Ваши персонажи в Ночных скитальцах: {names}.",
    "char.list.none": "У вас ещё нет персонажа в Ночных скитальцах: его создаёт char new ИМЯ [КЛАН].",
    "sheet.head": "{name}: {kind}, клан {clan}, Гуманность {humanity}.",
    "sheet.traits": "Атрибуты и трюки: {traits}.",
    "sheet.health": "Здоровье {hp} из {max} ({band}).",
    "sheet.blood": "Запас Крови {bp} из {max} BP ({hunger}).",
    "sheet.powers": "Быстрота: {celerity}. Могущество: {potence}. Охотничий Инстинкт: {hunting}. Стойкость:"
    " {fortitude}. Опыт: {xp} {xp:plural:очко:очка:очков}.",
    "sheet.boost": "Усиление кровью: +{n} к Силе и ФА.",
    "sheet.frenzy": "В Безумии: боль не ощущается.",
    "status.torpor": "{name}: Оцепенение — паралич, пока не вернётся хотя бы 1 BP (другой вампир:"
    " give N ИМЯ).",
    "status.unconscious": "{name} без сознания и теряет по уровню Здоровья за ход; на -10 наступает"
    " Окончательная Смерть.",
    "status.dead": "{name}: Окончательная Смерть.",
    "st.set": "{name}: {field}: {old} → {new}.",
    "wake": "{name} просыпается и теряет 1 BP: осталось {bp} из {max}.",
    "wake.empty": "{name} просыпается, но терять уже нечего: крови нет.",
    "heal": "{name} тратит {n} BP на лечение ({n} {n:plural:ход:хода:ходов}): Здоровье {hp} из {hpmax}, Запас"
    " Крови {bp} из {bpmax}.",
    "discipline.basic": "{name} использует начальный уровень Дисциплины{what} за 1 BP: осталось {bp} из"
    " {max}.",
    "discipline.advanced": "{name} использует продвинутый уровень Дисциплины{what} за 2 BP: осталось {bp} из"
    " {max}.",
    "discipline.what": " ({what})",
    "boost": "{name} тратит {cost} BP и поднимает Силу и ФА на {n} (усиление теперь +{total}): осталось"
    " {bp} из {max} BP.",
    "boost.end": "Усиление кровью у персонажа {name} проходит.",
    "feed": "{name} пьёт кровь {source} {n} {n:plural:ход:хода:ходов}: +{gain} BP, теперь {bp} из {max}.",
    "source.human": "человека",
    "source.cow": "коровы",
    "source.dog": "собаки",
    "source.cat": "кошки",
    "feed.hospital": "Жертва потеряла {lost} из 10 BP и нуждается в госпитализации.",
    "feed.dead": "Из жертвы выпита вся кровь: она умирает.",
    "feed.animal": "Из животного выпита вся кровь.",
    "note.hungry": "{name} испытывает Жажду ({bp} BP): вид или запах крови требует броска от Безумия"
    " (frenzy).",
    "note.ravenous": "{name}: {bp} BP, ненасытность. Любое живое существо рядом требует броска от Безумия, а"
    " вид крови повышает его трудность на 1 (frenzy кровь).",
    "note.torpor": "У персонажа {name} не осталось крови: Оцепенение.",
    "frenzy.resisted": "{name} сдерживает Зверя.",
    "frenzy.fell": "{name} впадает в Безумие и бросается на ближайший источник пищи или раздражения (от огня"
    " и солнца спасается бегством); боль не чувствуется до frenzy end или до конца эпизода (* * *).",
    "frenzy.end": "{name} выходит из Безумия.",
    "attack.line": "{attacker} ({attack_pool}) атакует, цель — {defender} ({defence_pool}), трудность {diff}:"
    " {attack_faces} → {a} против {defence_faces} → {d}.",
    "attack.line.dodge": "{attacker} ({attack_pool}) атакует, цель — {defender}, увертывается"
    " ({defence_pool}); трудность {diff}: {attack_faces} → {a} против {defence_faces} → {d}.",
    "attack.hit": "Попадание: {damage} {damage:plural:уровень:уровня:уровней} Здоровья.",
    "attack.hit.deep": "Попадание: {damage} {damage:plural:уровень:уровня:уровней} глубоких повреждений.",
    "attack.miss": "Промах.",
    "attack.dodge_initiative": "{defender} увертывается успешнее атакующего: -1 к следующему броску"
    " инициативы.",
    "shoot.line": "{attacker} ({attack_pool}) стреляет, цель — {defender}, {range}, трудность {diff}:"
    " {attack_faces} → {a}.",
    "shoot.dodge": "{defender} увертывается ({defence_pool}): {defence_faces} → {d}.",
    "range.long": "с дальнего расстояния",
    "range.medium": "со среднего расстояния",
    "range.point": "в упор",
    "soak.halved": "{defender} поглощает повреждения ({soak_pool}), трудность {diff}: {faces} → {s}; они"
    " уменьшены вдвое, до {damage} {damage:plural:уровня:уровней:уровней}.",
    "soak.failed": "{defender} пытается поглотить повреждения ({soak_pool}), трудность {diff}: {faces},"
    " успехов нет; остаётся {damage} {damage:plural:уровень:уровня:уровней}.",
    "soak.deep": "Глубокие повреждения без Стойкости не поглощаются.",
    "harm.hp": "{name}: Здоровье {hp} из {max} ({band}).",
    "sun": "{name}: {strength} солнечный свет, {turns} {turns:plural:ход:хода:ходов} — {damage}"
    " {damage:plural:уровень:уровня:уровней} глубоких повреждений.",
    "sun.direct": "прямой",
    "sun.indirect": "непрямой",
    "fire": "{name}: {strength} огонь, {turns} {turns:plural:ход:хода:ходов} — {damage}"
    " {damage:plural:уровень:уровня:уровней} глубоких повреждений.",
    "fire.surprise": "{name}: неожиданный ожог, {strength} огонь — {damage}"
    " {damage:plural:уровень:уровня:уровней} глубоких повреждений.",
    "fire.small": "небольшой",
    "fire.large": "большой",
    "note.frenzy_fire": "Огонь и солнечный свет требуют броска от Безумия (frenzy).",
    "damage": "{name} теряет {damage} {damage:plural:уровень:уровня:уровней} Здоровья.",
    "damage.deep": "{name} получает {damage} {damage:plural:уровень:уровня:уровней} глубоких повреждений.",
    "hunt": "{who} охотится: {terrain}, трудность {diff}: {faces} → {s} {s:plural:успех:успеха:успехов}"
    " ({degree}).",
    "hunt.found": "Возможная добыча найдена; её ещё нужно добыть.",
    "hunt.none": "Добычи не видно.",
    "terrain.feeding": "кормушка",
    "terrain.business": "деловая часть города",
    "terrain.residential": "жилые кварталы",
    "terrain.slums": "трущобы",
    "terrain.suburbs": "пригороды",
    "terrain.countryside": "деревня",
    "terrain.wilderness": "дикая местность",
    "sneak.line": "{sneaker} ({sneak_pool}) крадётся, трудность 4: {sneak_faces} → {s}; {watcher}"
    " ({watch_pool}) следит, трудность {diff}: {watch_faces} → {w}.",
    "sneak.unseen": "{sneaker}: никто ничего не замечает.",
    "sneak.noticed": "{watcher} видит, кто крадётся: {sneaker}.",
    "sneak.heard": "{watcher}: «что-то послышалось». Следующий бросок, чтобы обнаружить, кто крадётся"
    " ({sneaker}), — с трудностью {next}.",
    "init.joined": "{name} вступает в инициативу{powers}.",
    "init.powers": ", активно: {powers}",
    "power.hunting": "Охотничий Инстинкт",
    "power.celerity.1": "Начальная Быстрота",
    "power.celerity.2": "Продвинутая Быстрота",
    "init.waiting": "В инициативе: {names}. Порядок определит DM командой init roll.",
    "init.empty": "Здесь пока никого нет в инициативе. Вступить: init join.",
    "init.order": "Инициатива: {order}.",
    "init.extra": "Дополнительные действия (Быстрота), после первых действий всех: {passes}.",
    "init.dice": "Кубики (меньшая сумма ходит первой): {rolls}.",
    "init.cleared": "Инициатива сброшена.",
    "init.removed": "{name} выходит из инициативы.",
    "err.roll_usage": "Пишите roll ПУЛ [+N|-N] [трудность 2-6] [нужно N] [против ПУЛ|против ИМЯ [АТРИБУТ]]"
    " [тайно], например roll 2 трудность 4, roll убеждение или roll убеждение против Смертный па.",
    "err.too_long": "Эти шансы считать здесь слишком долго; попробуйте пулы поменьше.",
    "err.odds_usage": "Пишите odds ПУЛ [трудность 2-6] [нужно N] [против ПУЛ|против ИМЯ [АТРИБУТ]], например"
    " odds 4 трудность 5.",
    "err.bad_pool": "Не понимаю «{word}»: напишите число кубиков или атрибут ({traits}).",
    "err.unknown_trait": "Неизвестный атрибут или трюк «{word}». Есть: {traits}.",
    "err.unknown_trait.suggest": (
        "Неизвестный атрибут или трюк «{word}». Может быть, вы имели в виду «{name}»?"
    ),
    "err.ambiguous_trait": "«{word}» может означать: {options}; напишите подробнее.",
    "err.trait_needs_character": "{trait} — атрибут, а активного персонажа здесь нет: бросьте число или"
    " создайте персонажа командой char new ИМЯ.",
    "err.need": "нужно — число нужных успехов от 1 до размера пула ({pool}): напишите нужно 2.",
    "err.option": "После {word} нужно число: напишите {word} {example}.",
    "err.pool_max": "Пул из {pool} {pool:plural:кубика:кубиков:кубиков} больше максимума ({max}).",
    "err.pool_min": "В пуле должен быть хотя бы один кубик; здесь {pool}.",
    "err.two_vs": "У спора две стороны: напишите «против» (или vs) один раз.",
    "err.no_character": "Персонажа по имени {name} в Ночных скитальцах нет.",
    "err.vs_name_needs_trait": "«против ИМЯ» без атрибута отвечает на ваш атрибут: бросьте атрибут (roll"
    " соблазн против Равенвуд), назовите атрибут соперника (roll 3 против Равенвуд па) или напишите"
    " «против» и число кубиков.",
    "err.stalemate": "Ничья и после {n} бросков; попробуйте ещё раз.",
    "err.char_usage": "Пишите char new ИМЯ [КЛАН], char use ИМЯ или просто char для списка. Кланы: {clans}.",
    "err.char_name": "Имя персонажа — от 1 до 60 знаков.",
    "err.char_taken": "Персонаж по имени {name} в Ночных скитальцах уже есть.",
    "err.char_not_yours": "У вас нет персонажа по имени {name}.",
    "err.no_active": "У вас нет активного персонажа: char new ИМЯ создаёт, char use ИМЯ выбирает.",
    "err.st_usage": "Пишите st set ИМЯ ПОЛЕ ЗНАЧЕНИЕ; ПОЛЕ — атрибут или трюк ({traits}), здоровье (hp),"
    " максимум Здоровья (hpmax), кровь (blood), максимум крови (bloodmax), вид (kind), клан (clan),"
    " гуманность (humanity), быстрота (celerity),"
    " могущество (potence), инстинкт (hunting), стойкость (fortitude), безумие (frenzy), усиление (boost),"
    " опыт (xp) или смерть (dead).",
    "err.st_value": "Значение «{value}» не подходит для поля «{field}»: допустимо {allowed}.",
    "err.not_vampire": "{name} — не вампир: Запаса Крови нет.",
    "err.not_enough_blood": "У персонажа {name} {bp} BP, а нужно {cost}.",
    "err.torpor": "{name} в Оцепенении и не может действовать.",
    "err.dead": "{name}: Окончательная Смерть.",
    "err.unconscious": "{name} без сознания и не может действовать.",
    "err.wake_twice": "{name}: пробуждение этой ночью уже было; следующая ночь начнётся {when}.",
    "err.nothing_to_heal": "У персонажа {name} нет ран.",
    "err.heal_too_much": "{name}: восстановить можно только {damage} {damage:plural:уровень:уровня:уровней}"
    " Здоровья.",
    "err.discipline_usage": "Пишите discipline начальная|продвинутая [НАЗВАНИЕ], например discipline"
    " продвинутая Быстрота.",
    "err.boost_usage": "Пишите boost N (1+2+...+N BP) или boost end.",
    "err.feed_usage": "Пишите feed N [человек|корова|собака|кошка] (1 BP за ход), например feed 2.",
    "err.frenzy_usage": "Пишите frenzy, frenzy кровь (ненасытный вампир видит кровь) или frenzy end.",
    "err.attack_usage": "Пишите attack ЦЕЛЬ [когти|оружие|клыки] [увертка], для НПС attack [пул N] [сила N]"
    " [защита N] [поглощение N] [ЦЕЛЬ].",
    "err.shoot_usage": "Пишите shoot ЦЕЛЬ дальняя|средняя|в упор стрела|метательное [увертка|бег] [пул N]"
    " [защита N] [поглощение N].",
    "err.bow_point_blank": "Из лука в упор не стреляют: выберите дальнюю или среднюю дистанцию.",
    "err.sun_usage": "Пишите sun прямой|непрямой ХОДЫ [ИМЯ].",
    "err.fire_usage": "Пишите fire небольшой|большой ХОДЫ|внезапно [ИМЯ].",
    "err.hunt_usage": "Пишите hunt МЕСТНОСТЬ [ПУЛ]; МЕСТНОСТЬ: {terrains}.",
    "err.sneak_usage": "Пишите sneak [ПУЛ] против ИНСПЕКЦИЯ|ИМЯ, например sneak против 3.",
    "err.init_usage": "Пишите init, init join [инстинкт] [быстрота начальная|продвинутая], init add ИМЯ"
    " [инстинкт] [быстрота начальная|продвинутая], init roll, init remove ИМЯ или init clear.",
    "err.init_missing_power": "У персонажа {name} на листе нет способности: {power}.",
    "err.init_not_in": "{name} не участвует в инициативе.",
    "err.storyteller_other": "Только DM может делать это с чужим персонажем.",
    # --- nw-mech (issue 19, second pass): увертка и инициатива, Оцепенение, солнце, укус, захват, погоня,
    # противоборство, конец эпизода, ходы, расчленение, Гуманность за опыт ---
    "init.dodge_bonus": "{name}: {bonus} к броску 2d6 на инициативу за удачную увертку в прошлом ходу.",
    "attack.hit.bite": "Укус снимает {damage} {damage:plural:уровень:уровня:уровней} Здоровья (глубокие"
    " повреждения).",
    "grapple.broken": "{target} наносит удачный удар и вырывается из захвата.",
    "exposure.carried": "Один ход без повреждений засчитан: следующий такой же ход снимет уровень Здоровья.",
    "err.torpor_wait": "Персонаж {name} в Оцепенении: он парализован и не может двигаться или что-либо"
    " делать, в том числе лечиться и питаться. Выйти из Оцепенения можно, только получив кровь: другой"
    " вампир может напоить его командой give N ИМЯ.",
    "frenzy.sated": "{name} насыщается, и Безумие проходит.",
    "give": "{giver} отдаёт {n} BP своей крови, получатель — {target}: теперь {bp} из {max} BP.",
    "give.heals": "{name}: первый BP сразу восстанавливает 1 уровень Здоровья.",
    "give.wakes": "{name} выходит из Оцепенения.",
    "err.grapple_usage": "Пишите grapple ЦЕЛЬ, для НПС grapple [пул N] [сила N] [защита N] [ЦЕЛЬ].",
    "grapple.line": "{attacker} ({attack_pool}) пытается сделать захват, защищается {defender}"
    " ({defence_pool}), трудность {diff}: {attack_faces} → {a} против {defence_faces} → {d}.",
    "grapple.held": "Захват удался: {holder} держит цель ({target}) и каждый ход наносит повреждения (grapple"
    " damage), пока схваченный не нанесёт удачный удар; вампир может вместо этого укусить (bite).",
    "grapple.failed": "Захват не удался.",
    "err.grapple_none": "Здесь нет захвата, который вы держите.",
    "grapple.damage": "Ход захвата (держит {holder}, в захвате — {target}): {damage}"
    " {damage:plural:уровень:уровня:уровней} повреждений.",
    "bite": "Укус вместо повреждений: кусает {holder}, жертва — {target}.",
    "bite.drink": "Теперь можно сосать кровь: drink [N], 1 BP за ход.",
    "err.drink_usage": "Пишите drink [N]: N ходов, по 1 BP за ход (не больше 10).",
    "err.drink_no_bite": "Чтобы пить кровь (жертва — {target}), сначала нужен укус: bite.",
    "err.drink_empty": "{target}: крови больше не осталось.",
    "drink": "{holder} пьёт кровь {n} {n:plural:ход:хода:ходов}, жертва — {target}: +{gain} BP, теперь {bp}"
    " BP.",
    "drink.npc": "{holder} пьёт кровь {n} {n:plural:ход:хода:ходов}, жертва — {target}.",
    "drink.diablerie": "{target}: выпита вся кровь вампира. Это Диаблери.",
    "grapple.released": "{holder} разжимает захват, цель ({target}) свободна.",
    "err.pursue_usage": "Пишите pursue [быстрота начальная|продвинутая] против ДОБЫЧА [быстрота"
    " начальная|продвинутая] [могущество начальное|продвинутое]; Могущество персонажа берётся из листа.",
    "pursue.dice": "Силы равны, бросаются 2d6, меньшее побеждает: {rolls}.",
    "pursue.power": "Решает {power}.",
    "pursue.caught": "{pursuer} настигает добычу: {quarry}.",
    "pursue.escaped": "Погоня не удалась: {quarry} уходит (преследует {pursuer}).",
    "power.potence.1": "Начальное Могущество",
    "power.potence.2": "Продвинутое Могущество",
    "err.tug_usage": "Пишите tug start ПРОТИВНИК N ПУЛ против ПУЛ [трудность 2-6], например tug start"
    " Трагандер 3 сила против сила; затем tug roll каждый ход, tug — положение, tug stop — прекратить.",
    "err.tug_goal": "Перевес для победы — от 1 до {max} успехов.",
    "err.tug_running": "Здесь уже идёт противоборство: tug stop его прекращает.",
    "tug.started": "Противоборство: {left} ({lp} {lp:plural:кубик:кубика:кубиков}) и {right} ({rp}"
    " {rp:plural:кубик:кубика:кубиков}), трудность {diff}; побеждает первый, кто наберёт перевес в {goal}"
    " {goal:plural:успех:успеха:успехов}. Каждый ход: tug roll.",
    "tug.even": "Пока равенство; для победы нужен перевес в {goal} {goal:plural:успех:успеха:успехов}.",
    "tug.leads": "{leader} впереди: перевес {n} из {goal}.",
    "tug.none": "Здесь нет противоборства.",
    "tug.round": "Ход {round}: {left} {left_faces} → {ls} {ls:plural:успех:успеха:успехов}, {right}"
    " {right_faces} → {rs} {rs:plural:успех:успеха:успехов}.",
    "tug.won": "Побеждает {winner}: перевес в {n} {n:plural:успех:успеха:успехов}.",
    "tug.won.more": "Побеждает {winner}: перевес в {n} {n:plural:успех:успеха:успехов} (для победы нужно было"
    " {goal}).",
    "tug.stopped": "Противоборство прекращено.",
    "episode.end": "Эпизод окончен.",
    "episode.end.effects": "Эпизод окончен. Безумие, усиление кровью и прочие эффекты эпизода прошли:"
    " {names}.",
    "turn": "{n:plural:Проходит:Проходят:Проходят} {n} {n:plural:ход:хода:ходов}.",
    "turn.bleeds": "{name} теряет {n} {n:plural:уровень:уровня:уровней} Здоровья.",
    "err.dismember_usage": "Пишите dismember ИМЯ [ХОДЫ], от 1 до 5 ходов.",
    "err.dismember_resists": "{name} ещё может сопротивляться: расчленить можно только того, кто в"
    " Оцепенении, без сознания или в вашем захвате.",
    "dismember": "{name}: расчленение, {done} {done:plural:ход:хода:ходов} из {of}.",
    "err.humanity_max": "{name}: Гуманность {humanity}, а выше {max} она не бывает.",
    "err.humanity_xp": "{name}: {xp} {xp:plural:очко:очка:очков} опыта, а нужно {cost}.",
    "humanity.bought": "{name}: +{n} Гуманности за {cost} {cost:plural:очко:очка:очков} опыта; Гуманность"
    " теперь {humanity}, опыта осталось {xp}.",
    "shoot.run": "Увертка на бегу: без бонуса к Уворачиванию.",
    "err.give_full": "{name}: Запас Крови почти полон, можно принять не больше {room} BP.",
    # --- issue 31, третий проход: кто может действовать, ввод, который проскальзывал ---
    "err.self_contest": "Соперником не может быть тот же персонаж ({name}): спор — это конфликт с другой"
    " личностью.",
    "err.feed_too_much": "Из {source} можно выпить не больше {holds} BP: корова даёт 5 BP, собака 2, кошка 1;"
    " в человеке 10 BP.",
    "err.st_max_below": "{name}: {field} сейчас {current}, это больше нового максимума {value}; сначала"
    " снизьте его (st set {name} {pool} {value}).",
    "err.init_power_level": "{power} бывает только начальной или продвинутой (1 или 2), а не «{value}».",
    "level.potence.0": "нет",
    "level.potence.1": "начальное",
    "level.potence.2": "продвинутое",
    "err.not_in_frenzy": "{name} не в Безумии.",
    "err.no_boost": "У персонажа {name} нет усиления кровью.",
    "status.torpor.hp": "{name}: Оцепенение — уровней Здоровья не осталось, паралич, пока вампир не получит"
    " кровь (другой вампир: give N ИМЯ; первый BP сразу восстанавливает 1 уровень Здоровья).",
    "sheet.head.kind": "{name}: {kind}, Гуманность {humanity}.",
    "err.give_full.pool": "Запас Крови персонажа {name} полон: {bp} из {max} BP.",
    "degree.unseen": "не замечено",
    "degree.noticed": "замечено",
    "degree.heard": "что-то послышалось",
    "err.wake_usage": "Пишите wake без слов после команды: −1 BP, раз за ночь.",
    "err.scene_end_usage": "Пишите scene end (или * * *) без слов после команды.",
    "err.self_target": "Это делают с другим персонажем, а не с тем же самым ({name}).",
}

CATALOGUE = Catalogue({"en": EN, "ru": RU})
