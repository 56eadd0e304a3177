"""The core: one message's path and the API plugins and adapters are written against.

``router`` takes an ``InboundMessage`` (``types``), parses it (``parser``, typed ``params``), finds
the command in the ``registry`` the plugin manager (``plugins``, ``hookspecs``) filled from the
plugins' declarations (``spec``, ``command_set``), runs it in one unit of work with a
``CommandContext`` (``commands``) and hands back replies; ``events`` are told once the unit is
kept. ``app`` builds a running gateway from the ``settings``; ``services`` is what handlers and
adapters may use. The public names are re-exported by ``gateway`` itself.
"""
