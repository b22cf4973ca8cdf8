"""What one running dashboard holds (accounts, the live hub, the tables, the
instance folder) and how a request finds it.

Every blueprint reaches the dashboard through :func:`dashboard` (the app's
extension), and the application factory (``app.py``) puts it there, so the
blueprints never import the factory and the factory imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from flask import current_app

from .accounts import Accounts
from .hub import Hub
from .room import Room

#: The key the dashboard is kept under in ``app.extensions``.
EXTENSION = "belote_dashboard"


@dataclass
class Dashboard:
    """What one running dashboard holds: accounts, live hub, tables, settings."""

    accounts: Accounts
    hub: Hub
    room: Room = field(default_factory=Room)
    instance: Path = Path("var")
    public: bool = False           # venue and broadcast feeds open to all (no overlay token)

    @property
    def games(self) -> Path:
        """The folder of the games' event stores (``<table>-<n>.sqlite``): live and archived."""
        return Path(self.instance) / "games"

    @property
    def thumbnails(self) -> Path:
        """The folder of the camera's evidence thumbnails."""
        return Path(self.instance) / "thumbnails"

    def thumbnail(self, name: str) -> Optional[Path]:
        """The camera thumbnail ``name`` (evidence of a violation or conflict), if it
        exists; never a path outside the thumbnails folder."""
        root = self.thumbnails.resolve()
        path = (root / name).resolve()
        return path if path.parent == root and path.is_file() else None


def dashboard() -> Dashboard:
    """The dashboard of the app serving this request."""
    return current_app.extensions[EXTENSION]
