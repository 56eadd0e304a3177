"""House rules: each rule system's switches (``RuleSystem.house_rules``), kept per channel.

``declare`` is how a system declares them, ``store`` reads and writes the ``house_rule`` rows,
``commands`` gives ``house``, ``house set`` and ``house reset``, ``notes`` names the switches that
changed a roll's result in its line.
"""

from gateway.features.house_rules.declare import HouseRules, from_settings, switch

__all__ = ["HouseRules", "from_settings", "switch"]
