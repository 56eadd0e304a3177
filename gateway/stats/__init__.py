"""Roll statistics and the fair-dice test (``stats``): counts from the roll log against exact odds.

``pvalue`` and ``fit`` are the tests (pure), ``shape`` what a rule system says of a roll (the
``gateway_roll_distribution`` hook), ``tally`` and ``report`` the counts and figures, ``store`` the
reading of the log, ``command`` the command."""
