"""Night Wanderers (placeholder while it is written)."""
