"""Running a gateway: the ``gateway`` command (``cli``, plugins' subcommands in ``cli_plugins``),
``init``, ``config check``, ``status``, the HTTP ``server``, start-up ``banner``, logging,
readiness, Prometheus ``metrics`` and the systemd units in ``deploy/``.
"""
