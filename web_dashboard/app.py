"""The Flask application factory: one app per :class:`Dashboard`, its pages,
streams and console API as blueprints (Flask's application-factory pattern),
so tests build as many independent apps as they like.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from .api import api
from .auth import auth
from .board import EXTENSION, Dashboard
from .i18n import LANGUAGES, STRINGS, card_label, pick_language, t
from .overlay_desk import overlay_desk
from .pages import pages
from .scoresheets import scoresheets
from .stream import stream


def create_app(board: Dashboard) -> Flask:
    app = Flask(__name__, instance_path=str(Path(board.instance).resolve()))
    app.extensions[EXTENSION] = board
    app.config.update(
        SECRET_KEY=board.accounts.secret_key(),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    for blueprint in (auth, pages, stream, api, scoresheets, overlay_desk):
        app.register_blueprint(blueprint)
    app.add_template_filter(card_label)

    @app.before_request
    def _language() -> None:
        g.lang = pick_language(request.args.get("lang") or request.cookies.get("lang"),
                               request.headers.get("Accept-Language"))

    @app.after_request
    def _headers(response: Any) -> Any:
        if request.args.get("lang") in LANGUAGES:
            response.set_cookie("lang", request.args["lang"], max_age=365 * 86400, samesite="Lax")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.errorhandler(HTTPException)
    def _error(exc: HTTPException) -> Any:
        """JSON for the API and the streams, a page that says what to do for people."""
        if request.path.startswith(("/api/", "/stream/")):
            return jsonify(error=exc.description), exc.code
        return render_template("error.html", code=exc.code, name=exc.name, message=exc.description), exc.code

    @app.context_processor
    def _i18n() -> dict:
        lang = g.get("lang", "fr")
        return {"lang": lang, "t": lambda key, **kw: t(lang, key, **kw), "strings": STRINGS[lang]}

    return app
