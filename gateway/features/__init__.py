"""Built-in features every channel has, whatever its rule system: ``help``/``verify``/``system``/
``lang`` (``builtin``), linking a person across platforms, Storytellers and their log, macros,
house rules, statistics, dice notation, character transfer, and the read-only views adapters'
pages show (``records``, ``web_sessions``).
"""
