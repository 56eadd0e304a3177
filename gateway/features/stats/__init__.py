"""Roll statistics and the fair-dice test (``stats``): counts from the roll log against exact odds.

``pvalue`` and ``fit`` are the tests (pure), ``tally`` and ``report`` the counts and figures,
``store`` the reading of the log, ``command`` the command. What a rule system says of one roll
(``RuleSystem.roll_distribution``) is ``gateway.rules.roll_distribution``, a plugin building block."""
