"""Macros (issue 18): saved command lines with parameters, personal (following the person across linked
identities) or a channel's (a Storyteller's), expanded before parsing and then run exactly as typed.

``expand`` is the pure part (templates, binding, nesting, bounds); ``store`` reads and writes the
``macro`` table; ``commands`` holds ``macro add|list|show|remove``; ``seam`` is what the router calls.

For adapters (a menu of macro names: Discord's autocomplete, the Second Life HUD's Macros page) this
package offers ``names_seen`` (an adapter module, ``tests/core/test_plugin_api.py``)."""

from gateway.features.macros.store import names_seen

__all__ = ["names_seen"]
