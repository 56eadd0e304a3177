"""A chat-platform-agnostic message gateway for tabletop role-playing."""

__version__ = "0.1.0"
