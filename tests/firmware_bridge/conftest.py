"""Fixtures for the firmware bridge's tests (helpers live in bridge_helpers.py)."""

from bridge_helpers import any_table, linked, mega_build, table, table_map  # noqa: F401  (pytest fixtures)
