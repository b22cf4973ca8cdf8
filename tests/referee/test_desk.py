"""The referee's desk (issue 12): what the console says back when the referee types something
that cannot be right as it stands: a card already played, a call out of the table's order, an
undo, a correction the later events no longer fit. Each answer says what happened and what to
do, in a referee's words; nothing is written that the referee did not mean."""

from __future__ import annotations

import pytest

from referee.cards import parse_card
from referee.observations import CardSeen
from referee.table_referee import TableReferee

N, E, S, W = range(4)


class Desk:
    """A table without sensors, run from the console as a club referee does: calls typed in,
    cards typed in one by one (each a console sighting in the player's play zone)."""

    def __init__(self):
        self.referee = TableReferee(header=TableReferee.make_header())
        self.t = 1.0
        self.referee.start(N, t=self.t)

    def call(self, seat, call):
        self.t += 1
        return self.referee.call(seat, call, t=self.t)

    def card(self, seat, card):
        self.t += 2
        return self.referee.submit(CardSeen(source="console", t=self.t, zone=f"play:{'NESW'[seat]}",
                                            card=parse_card(card)))

    def events(self):
        return [e for e in self.referee.record[1:]]


def _kinds(outputs):
    return [o.kind for o in outputs]


@pytest.fixture
def desk():
    return Desk()


def _contract(desk):
    for seat, call in ((W, "80h"), (S, "pass"), (E, "pass"), (N, "pass")):
        assert "rejected" not in _kinds(desk.call(seat, call))


def test_a_card_typed_that_was_already_played_says_why_and_enters_nothing(desk):
    _contract(desk)
    desk.card(W, "Jh")
    desk.card(S, "7h")                                   # W's ♥J is decided (written) now
    before = desk.events()
    out = desk.card(E, "Jh")
    assert _kinds(out) == ["rejected"]
    reason = out[0].data["reason"]
    assert reason.startswith("♥J was already played in this hand: W played it in trick 1 (#7 in the Events list)")
    assert "fix 7" in reason and "Nothing was entered" in reason
    out = desk.card(E, "7h")                             # still waiting on the table, typed for S
    assert _kinds(out) == ["rejected"] and "already on the table in front of S" in out[0].data["reason"]
    assert desk.events() == before
    assert "rejected" not in _kinds(desk.card(E, "8h"))   # the right card goes on as before


def test_a_call_typed_out_of_order_asks_before_any_violation(desk):
    out = desk.call(E, "pass")                            # W speaks first (the dealer is N)
    asked = [o.data for o in out if o.kind == "conflict"]
    assert [c["kind"] for c in asked] == ["call-order"] and asked[0]["blocking"]
    assert asked[0]["choices"] == ["confirm", "dismiss"]
    assert "E pass was entered, but it is W's turn to speak. Did E speak out of turn?" in asked[0]["message"]
    assert not desk.referee.violations() and [e["type"] for e in desk.events()] == ["deal"]
    desk.call(W, "80h")                                   # waits behind the question
    assert [e["type"] for e in desk.events()] == ["deal"]
    out = desk.referee.dismiss(asked[0]["id"], t=desk.t)  # typed in the wrong order: nothing written
    assert "was not written" in next(o.data["message"] for o in out if o.kind == "notice")
    assert [(e["seat"], e["call"]) for e in desk.events() if e["type"] == "call"] == [("W", "80h")]
    assert not desk.referee.violations()
    out = desk.call(N, "pass")                            # S's turn: N really spoke out of turn
    asked = [o.data for o in out if o.kind == "conflict"]
    desk.referee.confirm(asked[0]["id"], t=desk.t)
    assert [(v.rule, v.seat) for _, v in desk.referee.violations()] == [("out-of-turn", N)]


def test_undo_takes_back_the_referees_own_last_entry_and_says_what(desk):
    def undo(**kw):
        out = desk.referee.undo(t=desk.t, **kw)
        assert "rejected" not in _kinds(out), out
        return next(o.data["message"] for o in out if o.kind == "notice")

    desk.call(W, "80h")
    desk.call(S, "pass")
    assert undo() == "undone: #4 S's call pass"
    assert undo() == "undone: #3 W's call 80h"
    assert [e["type"] for e in desk.events()] == ["deal", "call", "call", "correction", "correction"]
    out = desk.referee.undo(t=desk.t)                   # nothing the referee entered is left
    assert _kinds(out) == ["rejected"] and "undo event N" in out[0].data["reason"]
    assert undo(ref=2) == "undone: #2 the deal by N"    # the table's own event, named
    assert desk.referee.game.phase == "deal"


def test_undo_takes_a_card_typed_in_off_the_table_before_it_is_written(desk):
    _contract(desk)
    desk.card(W, "Jh")
    desk.card(S, "7h")                                   # W's ♥J written; S's ♥7 waits for E's card
    out = desk.referee.undo(t=desk.t)
    assert [o.data["message"] for o in out if o.kind == "notice"] == \
        ["undone: S's card ♥7 (typed in, not yet written)"]
    desk.card(S, "8h")                                   # the card S really put down
    desk.card(E, "9h")
    assert [e["card"] for e in desk.events() if e["type"] == "play"] == ["Jh", "8h"]
    out = desk.referee.undo(t=desk.t)                    # E's ♥9 waits: taken off
    out = desk.referee.undo(t=desk.t)                    # then the last written entry: S's ♥8
    assert [o.data["message"] for o in out if o.kind == "notice"] == ["undone: #8 S's card ♥8"]


def test_a_refused_undo_is_worded_for_a_referee(desk):
    _contract(desk)
    for seat, card in ((W, "Jh"), (S, "7h"), (E, "8h"), (N, "9h")):
        desk.card(seat, card)
    desk.referee.replace(7, parse_card("Qh"), t=desk.t)            # W's card was ♥Q
    before = desk.events()
    out = desk.referee.undo(ref=3, t=desk.t)
    reason = out[0].data["reason"]
    assert _kinds(out) == ["rejected"]
    assert reason == ("console undo: undoing #3 (W's call 80h) is refused: #7 (W's card ♥Q) would no longer fit, "
                      "because the auction would not be over yet, so a play cannot come there. Nothing changed: "
                      "take back the later events first (newest first), or fix the event instead of undoing it")
    out = desk.referee.undo(ref=2, t=desk.t)
    assert "undoing #2 (the deal by N) is refused: #3 (W's call 80h) would no longer fit, because it would come " \
        "before the first deal" in out[0].data["reason"]
    out = desk.referee.undo(ref=99, t=desk.t)
    assert "there is no event #99 to undo" in out[0].data["reason"]
    assert desk.events() == before


def test_undoing_a_card_of_a_finished_hand_says_which_deal_would_not_fit():
    """The issue's example: "event 80 no longer fits: a deal while hand 2 is still at trick 7"."""
    from referee.simulate import simulate
    from referee.sensor_faults import parse_faults
    from test_table import feed

    sim = simulate(3, seed=5, faults=parse_faults("none"))
    referee = TableReferee(header=sim.header)
    feed(referee, sim.observations)
    deal3 = [n for n, e in enumerate(referee.record, 1) if e["type"] == "deal"][2]
    last = referee.record[deal3 - 2]                        # hand 2's last card
    out = referee.undo(t=sim.observations[-1].t, ref=deal3 - 1)
    assert [o.kind for o in out] == ["rejected"]
    assert f"undoing #{deal3 - 1} ({last['seat']}'s card " in out[0].data["reason"]
    assert f"#{deal3} (the deal by {referee.record[deal3 - 1]['dealer']}) would no longer fit, because hand 2 " \
           "would not be finished (it would still be at trick 8) when that deal comes" in out[0].data["reason"]


def test_the_engines_refusal_of_a_correction_comes_out_in_a_referees_words():
    """Whatever asked for the correction (a question answered, a fix): "correction of event 77:
    event 78 no longer fits: a deal while hand 2 is still at trick 8: finish it, or correct/undo
    its events" is what the engine says, not what the console shows."""
    from referee.desk import worded
    from referee.game import Game
    from referee.proposals import correction
    from referee.record import RecordError
    from referee.simulate import simulate
    from referee.sensor_faults import parse_faults

    sim = simulate(3, seed=5, faults=parse_faults("none"))
    game = Game.from_events(sim.record)
    deal3 = [n for n, e in enumerate(sim.record, 1) if e["type"] == "deal"][2]
    with pytest.raises(RecordError) as refused:
        game.apply(correction(deal3 - 1, None, "undo", {}))
    engine = str(refused.value)
    assert engine.startswith(f"correction of event {deal3 - 1}: event {deal3} no longer fits: a deal while hand 2")
    said = worded(engine, game)
    assert said.startswith(f"changing #{deal3 - 1} (") and "no longer fits:" not in said
    assert f"#{deal3} (the deal by" in said and "hand 2 would not be finished" in said
    assert worded("the game is over", game) == "the game is over"


def test_the_simulated_referee_confirms_a_call_heard_out_of_order():
    """The oracle (the demo's assistant referee) answers a call-order question as the table said
    it: the simulator's players never speak out of turn, so the question means the table saw the
    hand otherwise; confirmed, the call is written with its violation and the game goes on."""
    import dataclasses

    from referee.observations import ConsoleAction
    from referee.oracle import Oracle
    from referee.sensor_faults import parse_faults
    from referee.simulate import simulate
    from test_table import feed

    sim = simulate(1, seed=5, faults=parse_faults("none"))
    stream = list(sim.observations)
    first, second = [i for i, o in enumerate(stream) if isinstance(o, ConsoleAction) and o.action == "call"][:2]
    stream[first], stream[second] = (dataclasses.replace(stream[second], t=stream[first].t),
                                     dataclasses.replace(stream[first], t=stream[second].t))
    referee = TableReferee(header=sim.header)
    outputs = feed(referee, stream, Oracle(sim))
    asked = [o.data for o in outputs if o.kind == "conflict" and o.data["kind"] == "call-order"]
    assert asked and referee.conflicts[asked[0]["id"] - 1].status == "confirmed"
    assert ("out-of-turn", "NESW".index(asked[0]["seat"])) in [(v.rule, v.seat) for _, v in referee.violations()]


def test_a_fix_or_an_answer_that_names_nothing_says_what_it_named(desk):
    desk.call(W, "80h")
    out = desk.referee.replace(3, parse_card("Qh"), t=desk.t)
    assert out[0].data["reason"] == ("console fix: #3 is W's call 80h, not a card played; fix takes the number of "
                                     "a card in the Events list")
    assert "there is no event #40" in desk.referee.replace(40, parse_card("Qh"), t=desk.t)[0].data["reason"]
    assert "there is no conflict #7" in desk.referee.confirm(7, t=desk.t)[0].data["reason"]
