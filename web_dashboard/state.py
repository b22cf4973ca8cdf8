"""The dashboard's state of one table, built from its table referee's snapshot.

Pages and feeds speak this one shape (documented in ``docs/dashboard.md``);
:mod:`web_dashboard.views` then cuts it down for each feed.
"""

from __future__ import annotations

from typing import Any


def dashboard_state(table_id: str, name: str, referee: Any, meta: dict) -> dict:
    state = dict(referee.snapshot())
    state["table"] = {"id": table_id, "name": name, **meta, **state.get("table", {})}
    return state
