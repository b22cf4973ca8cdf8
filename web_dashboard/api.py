"""``/api/...``: the console's actions, JSON in and out, each a POST with a
signed-in session and its CSRF token (:func:`web_dashboard.auth.api_guard`).

A console action is the referee's observation (``referee.observations.
ConsoleAction``): the body is its JSON form without ``kind`` and ``t``, which
the table's clock supplies. A card entered by hand at a table without sensors
is a ``console`` sighting in that seat's play zone, exactly what a camera would
report, so the table referee treats both the same way.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request, send_file, url_for

from referee.json_text import JSONTextError, loads
from referee.observations import CardSeen, ObservationError, ZoneCleared, from_dict
from referee.store import StoreError

from referee.game import Game

from .board import dashboard
from .scoresheets import summary
from .auth import api_guard, may_referee
from .room import LiveTable

api = Blueprint("api", __name__, url_prefix="/api")


class BadRequest(ValueError):
    """A request body this API cannot act on; the message says what to send (HTTP 400)."""


def _body(empty_ok: bool = False) -> dict:
    """The request's JSON object, read as hostile text (:mod:`referee.json_text`): never
    Flask's ``get_json``, which answers a deeply nested body with a ``RecursionError``."""
    raw = request.get_data(cache=True)
    if empty_ok and not raw.strip():
        return {}
    if not request.is_json:
        raise BadRequest("send a JSON object with Content-Type: application/json")
    try:
        data = loads(raw)
    except JSONTextError as exc:
        raise BadRequest(f"the body is {exc}: send one JSON object") from None
    if not isinstance(data, dict):
        raise BadRequest(f"send a JSON object {{...}}, not a JSON {type(data).__name__}")
    return data


def _table(table_id: str) -> LiveTable:
    table = dashboard().room.get(table_id)
    if table is None:
        raise LookupError(f"no table {table_id!r} at this event")
    return table


def _run(table_id: str, make: Any) -> Any:
    """Apply the observations ``make(table, body)`` returns and answer with what
    they did, or a message saying what to fix."""
    try:
        table = _table(table_id)
        made = make(table, _body())
        outputs = [out for observation in (made if isinstance(made, list) else [made])
                   for out in (table.enter_card(observation) if isinstance(observation, CardSeen)
                               else table.ingest(observation))]
    except LookupError as exc:
        return jsonify(error=str(exc)), 404
    except (ObservationError, BadRequest) as exc:
        return jsonify(error=str(exc)), 400
    except StoreError as exc:
        return jsonify(error=str(exc)), 503
    rejected = [o for o in outputs if o.kind == "rejected"]
    if rejected:        # stored as rejected, with its reason; nothing else changed
        return jsonify(error=rejected[0].data.get("reason", "refused")), 409
    return jsonify(ok=True, outputs=_jsonable(outputs))


def _jsonable(value: Any) -> Any:
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


@api.post("/tables/<table_id>/console")
@api_guard
def console_action(table_id: str) -> Any:
    def make(table: LiveTable, body: dict) -> Any:
        fields = {k: v for k, v in body.items() if k not in ("kind", "t", "source")}
        return from_dict({**fields, "kind": "console", "t": table.clock(), "by": "console"})
    return _run(table_id, make)


@api.post("/tables/<table_id>/cards")
@api_guard
def card_entry(table_id: str) -> Any:
    """A card put down (``{"seat": "S", "card": "Jh"}``), taken back
    (``"gone": true``) or the trick picked up (``{"pickup": true}``: every play
    zone cleared, as a camera reports it)."""
    def make(table: LiveTable, body: dict) -> Any:
        t = table.clock()
        if body.get("pickup"):
            return [ZoneCleared(source="console", t=t, zone=f"play:{seat}") for seat in "NESW"]
        seat = str(body.get("seat", "")).upper()
        seen = from_dict({"kind": "gone" if body.get("gone") else "seen", "source": "console", "t": t,
                          "zone": f"play:{seat}", "card": body.get("card")})
        if seen.card is None:
            raise ObservationError("say which card: {\"seat\": \"S\", \"card\": \"Jh\"}")
        return seen
    return _run(table_id, make)


@api.post("/tables/<table_id>/next-game")
@api_guard
def next_game(table_id: str) -> Any:
    """Start the table's next game once this one is over (it stays in the archive). A game
    still being played is only stopped when the body says so (``{"abandon": true}``: a club's
    time is up), and one not begun has nothing to archive."""
    board = dashboard()
    try:
        table = _table(table_id)
        abandon = _body(empty_ok=True).get("abandon", False)
    except LookupError as exc:
        return jsonify(error=str(exc)), 404
    except BadRequest as exc:
        return jsonify(error=str(exc)), 400
    if not isinstance(abandon, bool):
        return jsonify(error='"abandon" is true (stop this game before its end) or false'), 400
    game = Game.from_events(table.record())
    if len(game.events) < 2:
        return jsonify(error="this game has not begun: there is nothing to archive yet"), 409
    if not game.over and not abandon:
        return jsonify(error=f"the game is not over (hand {game.hand_number} is being played): finish it, "
                             f'or send {{"abandon": true}} to stop it here and start the next'), 409
    finished = summary(table.game_id, game)
    table.next_game()

    def add_to_standings() -> None:
        board.hub.finished.insert(0, finished)
        board.hub.update_club()
    board.hub.call_soon_threadsafe(add_to_standings)
    return jsonify(ok=True, game=table.game_id)


@api.get("/tables/<table_id>/thumbnails/<name>")
def thumbnail(table_id: str, name: str) -> Any:
    """A camera thumbnail cited as evidence (referee only: it shows a card)."""
    if not may_referee(table_id):
        return jsonify(error="sign in first: open /console"), 401
    path = dashboard().thumbnail(name)
    if path is None:
        return jsonify(error=f"no thumbnail {name!r}"), 404
    return send_file(path, mimetype="image/png", max_age=3600)


@api.get("/tables/<table_id>/tokens")
def list_tokens(table_id: str) -> Any:
    if not may_referee(table_id):
        return jsonify(error="sign in first: open /console"), 401
    return jsonify(tokens=[t.as_dict() for t in dashboard().accounts.tokens(table_id) if t.kind == "overlay"])


@api.post("/tables/<table_id>/tokens")
@api_guard
def new_token(table_id: str) -> Any:
    try:
        table_id = _table(table_id).id
        body = _body(empty_ok=True)
        feed, label = body.get("feed", "broadcast"), body.get("label", "")
        if feed not in ("broadcast", "venue"):
            raise BadRequest('"feed" is "broadcast" (delayed, with the hands) or "venue" (live, no hands)')
        if not isinstance(label, str) or len(label) > 80:
            raise BadRequest('"label" is a name for the token, at most 80 characters ("OBS stream")')
        token = dashboard().accounts.issue_token("overlay", table_id, feed, label)
    except LookupError as exc:
        return jsonify(error=str(exc)), 404
    except BadRequest as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(token=token, feed=feed,
                   overlay=url_for("pages.overlay", table_id=table_id, feed=feed, token=token, _external=True),
                   table=url_for("pages.table_screen", table_id=table_id, token=token, _external=True)
                   if feed == "venue" else None)


@api.post("/tables/<table_id>/tokens/<int:token_id>/revoke")
@api_guard
def revoke_token(table_id: str, token_id: int) -> Any:
    tokens = {t.id: t for t in dashboard().accounts.tokens(table_id)}
    if token_id not in tokens:
        return jsonify(error=f"no token {token_id} for table {table_id!r}"), 404
    board = dashboard()
    board.accounts.revoke_token(token_id)
    board.hub.call_soon_threadsafe(lambda: board.hub.close_owner(("token", token_id)))
    return jsonify(ok=True)
