"""The fault campaign: real ``gateway serve`` processes under load while their outbound targets fail
and the processes themselves are killed, with a report of lost, duplicated and late messages.

``.venv/bin/python -m tests.fault [--commands N] [--rate R] [--only SCENARIO]`` (sqlite, group-commit,
refusal, kill, postgres, rolling) runs the long campaign (``__main__.py``); ``test_fault_slice.py`` is
the CI-sized slice. Definitions of every figure are in ``campaign.py``. ``python -m tests.fault.sockets``
is the idle-sockets condition (``sockets.py``, slice ``test_idle_sockets.py``).
"""
