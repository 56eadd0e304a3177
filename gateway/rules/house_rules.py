"""What a rule system uses to declare and apply its house rules (``gateway.features.house_rules``): the
base model and ``switch`` for its fields, settings that stand for defaults, and the roll line's
note naming the switches that changed a roll."""

from gateway.features.house_rules.declare import HouseRules, from_settings, switch
from gateway.features.house_rules.notes import changed_result, note, odds_note

__all__ = ["HouseRules", "changed_result", "from_settings", "note", "odds_note", "switch"]
