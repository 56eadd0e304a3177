"""Helpers several test areas share: chats playing a system, vault rows, statistics, enumeration."""
