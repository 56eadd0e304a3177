"""Which trait the other side of a contest rolls (pure): the book's pairings, for ``roll TRAIT vs
NAME`` when the opponent's trait is not named. A named trait (``vs Смертный па``) always wins.

The book ("Споры", "Бой", "Социальные взаимодействия", "Скрытность"):
- Example 2: d'Havilland's Убеждение against the stubborn mortal's ПА.
- Совращение: Соблазн against the seduced one's П-бросок (ПА). Example 1, two rivals seducing the
  same model, is Соблазн against Соблазн: name it (``vs Равенвуд соблазн``).
- Запугивание: Сила, Манипуляция or Разум against the opponent's ПА. Сила alone defaults to Сила
  (Example 3, arm wrestling), so a threat of violence names ПА.
- Удар: Невооруженный бой against Физ. Защита; a shot against Уворачиваться.
- Скрытность: Красться against Инспекция, and the other way round.
Any other trait is met by the same trait ("оппонент ... делает бросок на свой Атрибут").
Лидерство (Убеждение against Разум, for a victim inclined to disobey) names Разум.
"""

from __future__ import annotations

DEFENCE: dict[str, str] = {
    "persuasion": "psyche",
    "seduction": "psyche",
    "manipulation": "psyche",
    "mind": "psyche",
    "strength": "strength",
    "brawl": "defence",
    "shooting": "dodge",
    "sneak": "inspection",
    "inspection": "sneak",
}


def defence_for(trait: str) -> str:
    """The trait the defender rolls against ``trait`` when nobody names one."""
    return DEFENCE.get(trait, trait)
