"""The e2ee parts that need no homeserver: the Quick start without the crypto packages, and the
vault URL as mautrix's ``Database`` takes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from adapters.matrix.crypto import PENDING_FOR, AccountCrypto, CryptoDatabase, Pending, store_url

ROOT = Path(__file__).resolve().parents[2]


def test_the_adapter_imports_and_says_what_to_install_without_python_olm() -> None:
    """In a fresh interpreter where ``import olm`` fails, the adapter still imports, mautrix's crypto
    is never loaded, and the reason names the extra."""
    script = (
        "import sys; sys.modules['olm'] = None\n"
        "import adapters.matrix, adapters.matrix.account, adapters.matrix.adapter\n"
        "from adapters.matrix.crypto import missing\n"
        "print(missing()); print('mautrix.crypto' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout.splitlines()
    assert out == ["olm is not installed (pip install 'nightcap-gateway[matrix-e2ee]')", "False"]


def test_the_crypto_store_url_is_the_vaults_database() -> None:
    assert store_url("sqlite+aiosqlite:////srv/gateway/vault.db") == "sqlite:///srv/gateway/vault.db"
    relative = store_url("sqlite+aiosqlite:///vault.db")
    assert relative == f"sqlite://{Path('vault.db').resolve()}"
    assert (
        store_url("postgresql+asyncpg://gw:s%40cret@db:5432/gateway?ssl=require")
        == "postgresql://gw:s%40cret@db:5432/gateway?ssl=require"
    )


def test_an_event_whose_key_never_comes_is_given_up_after_its_time() -> None:
    e2ee = AccountCrypto(CryptoDatabase("sqlite+aiosqlite:////tmp/unused.db"), None, "k")  # type: ignore[arg-type]
    e2ee.pending = [
        Pending("!a:x", {"event_id": "$old"}, True, until=100.0),
        Pending("!a:x", {"event_id": "$new"}, True, until=100.0 + PENDING_FOR),
    ]
    assert [p.event["event_id"] for p in e2ee.take_pending(200.0)] == ["$new"]
    assert e2ee.undecryptable == 1 and e2ee.pending == []
