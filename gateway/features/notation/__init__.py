"""Standard dice notation in every channel: ``roll 2d6+3``, ``odds 20d6kh3``.

``parse`` (a Lark grammar) reads an expression and checks its limits, ``roll`` rolls it with the
gateway's ``DiceSource``, ``odds`` works out its exact distribution, ``text`` words both for each
platform, and ``command`` holds the commands and what ``verify`` and ``stats`` read of a logged
notation roll (a result of kind ``dice``). Everything but ``command`` is pure."""
