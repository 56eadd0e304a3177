"""Small durable state of one Matrix account: the core's adapter state (``gateway.core.adapter_state``).

Keys in scope ``matrix:<account>``: ``session`` (user id, homeserver, access token, device id),
``sync`` (the ``next_batch`` token), ``dm:<user id>`` (the direct room with that user), ``left:<room id>``
(a room the bot was kicked or banned from), ``encrypted:<room id>`` (an encrypted room, told once that
the bot cannot read it). Scope ``matrix``, key ``txn_nonce``: a random tag of this
vault, part of every transaction id, so a fresh vault never reuses an old vault's ids on a device;
key ``pickle_key``: the key mautrix pickles the Olm and Megolm sessions with (``adapters/matrix/crypto.py``;
the sessions themselves are in mautrix's own tables of the same database).
"""

from __future__ import annotations

from gateway.core.adapter_state import AdapterState

# ``VaultState(vault, scope)``: the name the account code knows it by.
VaultState = AdapterState

__all__ = ["VaultState"]
