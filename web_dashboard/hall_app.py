"""The hall's web application: the table dashboard's application (sign-in,
sessions, CSRF, languages, error pages, SSE hub) with the hall's pages added
(``hall_pages``). It serves no table of its own: the tables are on their
boards, and the hall shows its copy of them."""

from __future__ import annotations

from typing import Any

from flask import Flask

from .app import create_app
from .board import Dashboard
from .hall_pages import hall_pages


def create_hall_app(board: Dashboard, live: Any) -> Flask:
    app = create_app(board)
    app.extensions["belote_hall"] = live
    app.register_blueprint(hall_pages)
    return app
