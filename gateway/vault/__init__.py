"""The vault: SQLModel tables, the engine with its unit of work, migrations and repository functions."""

from gateway.vault.engine import Vault

__all__ = ["Vault"]
