"""Signing in, sessions, CSRF and who may read which feed.

The referee signs in with the password chosen at first run, or with a
per-table token (``/signin?token=...``) exchanged once for a session cookie
scoped to that table. Every change (every POST) carries the session's CSRF
token, in the ``X-CSRF-Token`` header for the console's API or a ``csrf``
form field for the sign-in form itself.

Overlay tokens are read-only: they open a feed's page and stream, never a
session, so they can never post.
"""

from __future__ import annotations

import functools
import hmac
import secrets
import time
from typing import Any, Callable, Optional
from urllib.parse import urlparse

from flask import Blueprint, abort, current_app, g, jsonify, redirect, render_template, request, session, url_for

from .board import dashboard

auth = Blueprint("auth", __name__)

#: Failed sign-ins allowed per address in ``WINDOW`` seconds before it must wait.
ATTEMPTS, WINDOW = 5, 60.0


def _recent_failures() -> list[float]:
    """This address's failed sign-ins in the last ``WINDOW`` seconds (kept per app)."""
    failures = current_app.extensions.setdefault("belote_signin_failures", {})
    address = request.remote_addr or ""
    failures[address] = [t for t in failures.get(address, []) if time.monotonic() - t < WINDOW]
    return failures[address]


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def csrf_ok() -> bool:
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf") or ""
    expected = session.get("csrf")
    # as bytes: compare_digest refuses str with characters outside ASCII, which anyone can send
    return isinstance(expected, str) and bool(expected) and hmac.compare_digest(
        sent.encode("utf-8", "surrogateescape"), expected.encode("utf-8", "surrogateescape"))


def referee_scope() -> Optional[list[str] | str]:
    """``"*"`` (every table), a list of table ids, or None when not signed in (or signed out:
    the session must still be alive on the server, not only in the cookie)."""
    if not session.get("user"):
        return None
    if "session_alive" not in g:
        g.session_alive = dashboard().accounts.session_alive(session.get("sid"))
    return session.get("tables") if g.session_alive else None


def may_referee(table_id: str) -> bool:
    scope = referee_scope()
    return scope == "*" or (isinstance(scope, list) and table_id in scope)


def may_read(table_id: str, feed: str) -> bool:
    """Whether this request may read ``feed`` of ``table_id``."""
    return reader(table_id, feed) is not None


def reader(table_id: str, feed: str) -> Optional[tuple[str, Any]]:
    """Who reads ``feed`` of ``table_id`` with this request, or None when nobody may:
    ``("session", id)``, ``("token", id)`` or ``("public", None)``. A stream is closed
    when its reader ends (signs out, its token is revoked)."""
    if may_referee(table_id):
        return ("session", session.get("sid"))
    if feed == "referee":
        return None
    if dashboard().public:
        return ("public", None)
    token = dashboard().accounts.find_token(request.args.get("token", ""))
    if token and token.kind == "overlay" and token.table_id == table_id and token.feed == feed:
        return ("token", token.id)
    return None


def api_guard(view: Callable[..., Any]) -> Callable[..., Any]:
    """A console action: signed in for the table and with the right CSRF token."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        table_id = kwargs.get("table_id")
        if referee_scope() is None:
            return jsonify(error="sign in first: open /console"), 401
        if not csrf_ok():
            return jsonify(error="missing or wrong CSRF token: reload the console and try again"), 403
        if table_id is not None and not may_referee(table_id):
            return jsonify(error=f"this session does not referee table {table_id!r}"), 403
        return view(*args, **kwargs)

    return wrapper


def page_guard(view: Callable[..., Any]) -> Callable[..., Any]:
    """A referee page: send the browser to the sign-in form when not signed in."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if referee_scope() is None:
            return redirect(url_for("auth.signin", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapper


def _safe_next(target: Optional[str]) -> str:
    """Where to go after signing in: a path of this site only (never another site, never a
    header split by a newline); anything else, the console."""
    if not target or len(target) > 2000 or not target.startswith("/") or target.startswith(("//", "/\\")) \
            or any(c in target for c in "\r\n\x00\\"):
        return url_for("pages.console")
    try:
        parsed = urlparse(target)
    except ValueError:                  # "http://[": not a URL at all
        return url_for("pages.console")
    return target if not parsed.scheme and not parsed.netloc else url_for("pages.console")


def _start_session(tables: list[str] | str) -> None:
    session.clear()
    session["user"] = "referee"
    session["sid"] = dashboard().accounts.start_session(tables)
    session["tables"] = tables
    session["csrf"] = secrets.token_urlsafe(24)
    session.permanent = True


@auth.route("/signin", methods=["GET", "POST"])
def signin() -> Any:
    accounts = dashboard().accounts
    next_url = _safe_next(request.values.get("next"))
    error = None
    if request.method == "GET" and request.args.get("token"):
        token = accounts.find_token(request.args["token"])
        if token and token.kind == "table":
            _start_session([token.table_id])
            return redirect(next_url)
        error = "bad_credentials"
    elif request.method == "POST":
        if not csrf_ok():
            abort(403, "The form expired: reload the page and sign in again.")
        if len(_recent_failures()) >= ATTEMPTS:
            abort(429, "Too many wrong passwords from this address: wait a minute and try again.")
        password = request.form.get("password", "")
        token = accounts.find_token(request.form.get("token", "").strip())
        if password and accounts.check_password(password):
            _start_session("*")
            return redirect(next_url)
        if token and token.kind == "table":
            _start_session([token.table_id])
            return redirect(next_url)
        error = "bad_credentials"
        _recent_failures().append(time.monotonic())
    return render_template("signin.html", error=error, next=next_url, csrf=csrf_token()), (401 if error else 200)


@auth.route("/signout", methods=["POST"])
def signout() -> Any:
    if not csrf_ok():
        abort(403, "The form expired: reload the page.")
    sid = session.get("sid")
    board = dashboard()
    board.accounts.end_session(sid)
    board.hub.call_soon_threadsafe(lambda: board.hub.close_owner(("session", sid)))
    session.clear()
    return redirect(url_for("auth.signin"))
