"""The table referee on real observation streams (the simulator's), each altered to show one behaviour."""

from __future__ import annotations

import dataclasses
import json

import pytest

from referee.cards import card_name, parse_card
from referee.observations import CardGone, CardSeen, ConsoleAction, SensorState, ZoneCleared
from referee.oracle import Oracle
from referee.sensor_faults import Faults, parse_faults
from referee.simulate import simulate
from referee.table_referee import TableReferee

CLEAN = parse_faults("none")


def feed(referee, stream, oracle=None):
    outputs = []
    for obs in stream:
        pending = [obs]
        while pending:
            out = referee.ingest(pending.pop(0))
            outputs += out
            for o in out:
                if oracle is not None:
                    oracle.observe(o.as_dict())
                    answer = oracle.answer(o.data, obs.t) if o.kind == "conflict" else None
                    if answer is not None:
                        pending.append(answer)
    return outputs


def game_events(record):
    """The game facts of a record, without the referee's evidence fields."""
    keep = ("type", "dealer", "hands", "seat", "call", "card", "say")
    return [{k: e[k] for k in keep if k in e} for e in record[1:] if e["type"] != "correction"]


@pytest.fixture(scope="module")
def clean():
    return simulate(4, seed=5, faults=CLEAN)


def test_a_clean_table_gives_the_true_record_and_scores(clean):
    referee = TableReferee(header=clean.header)
    outputs = feed(referee, clean.observations)
    assert game_events(referee.record) == game_events(clean.record)
    assert [r.as_dict() for r in referee.results] == [r.as_dict() for r in clean.truth.results]
    assert not [o for o in outputs if o.kind in ("conflict", "violation", "rejected")]
    scores = [o.data for o in outputs if o.kind == "score"]
    assert len(scores) == len(clean.truth.results)
    assert scores[-1]["totals"] == {"NS": clean.truth.totals[0], "EW": clean.truth.totals[1]}
    play = next(e for e in referee.record if e["type"] == "play")
    assert play["evidence"] and any(str(x).startswith("cam0:") for x in play["evidence"])


def _first_play_obs(stream, source):
    return next(i for i, o in enumerate(stream) if isinstance(o, CardSeen) and o.source == source
                and o.zone and o.zone.startswith("play:"))


def test_a_camera_misread_against_the_rfid_is_a_conflict_not_an_accusation(clean):
    stream = list(clean.observations)
    i = _first_play_obs(stream, "camera")
    true_card = stream[i].card
    wrong = (true_card + 9) % 32
    stream[i] = dataclasses.replace(stream[i], card=wrong, confidence=0.7)
    referee = TableReferee(header=clean.header)
    outputs = feed(referee, stream)
    conflicts = [o.data for o in outputs if o.kind == "conflict"]
    assert len(conflicts) == 1 and conflicts[0]["kind"] == "card-mismatch"
    assert conflicts[0]["proposal"] == card_name(true_card) and conflicts[0]["alternative"] == card_name(wrong)
    assert not conflicts[0]["blocking"]
    assert not [o for o in outputs if o.kind == "violation"]
    assert game_events(referee.record) == game_events(clean.record)      # the RFID's card was recorded
    # Siding with the camera would make the rest of the hand impossible: refused, nothing lost.
    before = list(referee.record)
    out = referee.dismiss(conflicts[0]["id"], t=10_000)
    reason = out[0].data["reason"]
    assert [o.kind for o in out] == ["rejected"] and "would no longer fit, because hand 1 would not be finished" in reason
    assert reason.startswith("changing #") and "Nothing changed: it stays as recorded" in reason   # a referee's words
    assert referee.record == before and referee.conflicts[0].status == "open"
    out = referee.confirm(conflicts[0]["id"], t=10_001, by="referee")
    assert [o.kind for o in out] == ["resolved"] and referee.conflicts[0].status == "confirmed"


def test_garbage_is_rejected_with_a_reason_and_the_game_goes_on(clean):
    referee = TableReferee(header=clean.header)
    stream = list(clean.observations)
    feed(referee, stream[:50])
    last = stream[49]
    bad = [dataclasses.replace(last, t=last.t - 5),                            # time going back
           CardSeen(source="rfid", t=last.t + 0.01, zone="hand:N", card=40),   # not a card
           ConsoleAction(t=last.t + 0.01, action="confirm", ref=99),           # no such conflict
           ConsoleAction(t=last.t + 0.02, action="call")]                      # no seat
    reasons = []
    for obs in bad:
        out = referee.ingest(obs)
        assert [o.kind for o in out] == ["rejected"]
        reasons.append(out[0].data["reason"])
    assert "time goes back" in reasons[0] and "card" in reasons[1] and "conflict #99" in reasons[2]
    assert "which seat" in reasons[3]
    feed(referee, stream[50:])
    assert game_events(referee.record) == game_events(clean.record)
    assert referee.n_obs == len(stream) + len(bad)


def test_a_card_played_out_of_turn_is_flagged_with_its_evidence_and_played_in_turn_later():
    sim = simulate(6, seed=11, faults=dataclasses.replace(CLEAN, violations=1.0))
    planted = [p for p in sim.planted if p.kind == "out-of-turn"]
    assert planted, "the seed plants an out-of-turn card"
    referee = TableReferee(header=sim.header)
    feed(referee, sim.observations, Oracle(sim))
    found = [(h, v) for h, v in referee.violations() if v.rule == "out-of-turn"]
    assert [(h, v.trick, v.seat, v.card) for h, v in found] == [(p.hand, p.trick, p.seat, p.card) for p in planted]
    assert all(isinstance(x, int) for _, v in found for x in v.evidence[:2])   # observation ids
    assert [r.as_dict()["score"] for r in referee.results] == [r.as_dict()["score"] for r in sim.truth.results]


@pytest.mark.parametrize("kind", ["wrong-pickup", "misdeal", "revoke", "no-trump"])
def test_each_planted_violation_kind_is_flagged_and_nothing_else(kind):
    for seed in range(40):
        sim = simulate(6, seed=seed, faults=dataclasses.replace(CLEAN, violations=1.0))
        planted = [p for p in sim.planted if p.kind == kind]
        if planted:
            break
    referee = TableReferee(header=sim.header)
    feed(referee, sim.observations, Oracle(sim))
    found = referee.violations()
    assert sorted((p.hand, p.rule) for p in sim.planted) == sorted((h, v.rule) for h, v in found)
    assert all(v.message for _, v in found)
    if kind == "wrong-pickup":                        # the pile and the real winner, for other languages
        assert all(set(dict(v.params)) == {"pile", "winner"} for _, v in found if v.rule == kind)
    if kind == "misdeal":                             # the same dealer deals again; the redeal names it
        record = referee.record
        redeal = next(e for e in record if e["type"] == "deal" and e.get("misdeals"))
        planted = next(p for p in sim.planted if p.kind == "misdeal")
        assert redeal["dealer"] == "NESW"[planted.seat] and redeal["misdeals"][0]["rule"] == "misdeal"


def test_a_card_nobody_could_read_waits_for_the_console():
    sim = simulate(3, seed=5, faults=CLEAN)
    stream = list(sim.observations)
    i = _first_play_obs(stream, "camera")
    seat_zone, card = stream[i].zone, stream[i].card
    stream[i] = dataclasses.replace(stream[i], card=None, confidence=0.2)
    stream = [o for o in stream if not (o.source == "rfid" and getattr(o, "card", None) == card
                                        and o.zone in (seat_zone, "hand:" + seat_zone[-1]))]
    referee = TableReferee(header=sim.header)
    outputs = feed(referee, stream[:i + 40])
    conflicts = [o.data for o in outputs if o.kind == "conflict"]
    assert [c["kind"] for c in conflicts] == ["card-unknown"] and conflicts[0]["blocking"]
    plays_before = sum(e["type"] == "play" for e in referee.record)
    out = referee.resolve(conflicts[0]["id"], card, t=stream[i + 39].t)
    assert any(o.kind == "resolved" for o in out)
    assert sum(e["type"] == "play" for e in referee.record) > plays_before   # the held plays follow
    feed(referee, stream[i + 40:])
    assert game_events(referee.record) == game_events(sim.record)


def test_console_corrections_are_events_with_who_and_why(clean):
    referee = TableReferee(header=clean.header)
    stream = list(clean.observations)
    first_play = next(i for i, o in enumerate(stream) if isinstance(o, ZoneCleared))
    feed(referee, stream[:first_play])
    t = stream[first_play - 1].t
    plays = [n for n, e in enumerate(referee.record, 1) if e["type"] == "play"]
    ref = plays[0]
    old = referee.record[ref - 1]["card"]
    new = "7s" if old != "7s" else "8s"
    out = referee.replace(ref, parse_card(new), t=t, by="referee Zoe", reason="misread")
    event = next(o.data["event"] for o in out if o.kind == "event")
    assert event == {**event, "type": "correction", "ref": ref, "by": "referee Zoe", "reason": "misread"}
    assert event["replace"]["card"] == new
    out = referee.undo(t=t, by="referee Zoe")                    # the referee's own last entry: the fix
    event = next(o.data["event"] for o in out if o.kind == "event")
    assert event["ref"] == ref and event["replace"]["card"] == old
    notice = next(o.data["message"] for o in out if o.kind == "notice")
    assert notice.startswith("undone: #") and f"the fix of #{ref} to " in notice      # says what it undid
    assert referee.game.events[ref - 1]["card"] == old and referee.snapshot()["private"]["hands"] is not None
    out = referee.undo(t=t, by="referee Zoe")    # the entry before: the last call, which the play needs
    reason = out[0].data["reason"]
    assert [o.kind for o in out] == ["rejected"] and "call pass) is refused" in reason, reason
    assert "would no longer fit, because the auction would not be over yet" in reason and "Nothing changed" in reason
    assert "no longer fits:" not in reason                       # not the engine's words
    out = referee.undo(t=t, by="referee Zoe", reason="played too fast", ref=plays[-1])
    event = next(o.data["event"] for o in out if o.kind == "event")
    assert event["replace"] is None and event["ref"] == plays[-1]
    snap = referee.snapshot()
    json.dumps(snap)                                             # JSON-able for the screens
    assert snap["phase"] == "play" and snap["private"]["hands"] is not None


def test_a_penalty_gives_the_hand_to_the_other_side(clean):
    referee = TableReferee(header=clean.header)
    stream = list(clean.observations)
    cut = next(i for i, o in enumerate(stream) if isinstance(o, ZoneCleared))
    feed(referee, stream[:cut])
    referee.penalty(0, "must-follow", t=stream[cut - 1].t, by="referee")
    feed(referee, stream[cut:])
    penalty = next(e for e in referee.record if e["type"] == "penalty")
    assert {k: penalty[k] for k in ("seat", "rule", "reason", "by")} == \
        {"seat": "N", "rule": "must-follow", "reason": "must-follow", "by": "referee"}   # docs/record-format.md
    first = referee.results[0]
    truth = clean.truth.results[0]
    if first.contract is not None:
        assert first.penalty == 0 and first.score[0] == 0 and first.score[1] > 0
        assert first.score != truth.score or truth.score[0] == 0


def test_an_imported_record_gives_back_the_same_game_and_violations():
    sim = simulate(10, seed=3, faults=Faults(violations=0.6))
    referee = TableReferee(header=sim.header)
    feed(referee, sim.observations, Oracle(sim))
    again = TableReferee.from_record(json.loads(json.dumps(referee.record)))
    assert again.record == referee.record
    assert [(h, v.as_dict()) for h, v in again.violations()] == [(h, v.as_dict()) for h, v in referee.violations()]
    assert again.game.summary() == referee.game.summary()


def test_a_camera_only_table_audits_each_hand_from_the_cards_played():
    sim = simulate(12, seed=21, faults=Faults(rfid=False, misread=0, unreadable=0, violations=0.8))
    referee = TableReferee(header=sim.header)
    outputs = feed(referee, sim.observations, Oracle(sim))
    assert all("hands" not in e for e in referee.record if e["type"] == "deal")
    kinds = {o.data["kind"] for o in outputs if o.kind == "conflict"}
    # Every card rests on one camera read: each accusation is "to confirm" first, at the console.
    assert "to-confirm" in kinds and kinds <= {"camera-only", "card-unknown", "out-of-turn", "to-confirm"}
    play_rules = {"must-follow", "must-trump", "must-overtrump"}
    planted = sorted((p.hand, p.trick, p.seat) for p in sim.planted if p.rule in play_rules)
    found = sorted((h, v.trick, v.seat) for h, v in referee.violations() if v.rule in play_rules)
    assert planted and found == planted
    assert not [v for _, v in referee.violations() if v.rule not in play_rules | {"out-of-turn"}]
    assert [r.score for r in referee.results] == [r.score for r in sim.truth.results]


def test_card_gone_from_a_play_zone_before_it_settles_was_never_played(clean):
    stream = list(clean.observations)
    i = _first_play_obs(stream, "camera")
    shown = dataclasses.replace(stream[i], card=(stream[i].card + 1) % 32, t=stream[i].t - 0.9)
    gone = CardGone(source="camera", t=stream[i].t - 0.5, zone=stream[i].zone, card=shown.card)
    stream[i:i] = [shown, gone]
    stream.sort(key=lambda o: o.t)
    referee = TableReferee(header=clean.header)
    outputs = feed(referee, stream)
    assert any(o.kind == "notice" and "taken back" in o.data["message"] for o in outputs)
    assert game_events(referee.record) == game_events(clean.record)


def _classic_deal(dealer, packet_sizes, turned="9h"):
    """RFID reads of a classic deal's first round (packets to each seat from the dealer's right)."""
    from referee.seats import turn_order
    deck = [c for c in range(32) if c != parse_card(turned)]
    obs, t, i = [ConsoleAction(t=0.5, action="start", seat=dealer)], 1.0, 0
    for size in packet_sizes:
        for seat in turn_order((dealer - 1) & 3):
            for _ in range(size):
                t += 0.2
                obs.append(CardSeen(source="rfid", t=t, zone=f"hand:{'NESW'[seat]}", card=deck[i], uid=f"U{i}"))
                i += 1
            t += 0.4
    obs.append(CardSeen(source="camera", t=t + 0.5, zone="deal", card=parse_card(turned)))
    return obs, t + 1.0


def test_classic_belote_takes_the_turned_card_from_the_dealing_area():
    referee = TableReferee(rules="classic")
    obs, t = _classic_deal(0, (3, 2))
    feed(referee, obs)
    out = referee.call(3, "take", t=t)              # W, on the dealer's right, takes
    deal = next(e for e in referee.record if e["type"] == "deal")
    assert deal["turned"] == "9h" and "hands" not in deal
    assert [o.kind for o in out].count("violation") == 0 and referee.record[-1]["call"] == "take"

    spoilt = TableReferee(rules="classic")
    obs, t = _classic_deal(0, (4, 1))
    outputs = feed(spoilt, obs) + spoilt.call(3, "take", t=t)
    assert [o.data["rule"] for o in outputs if o.kind == "violation"] == ["misdeal"]
    # Its params say why for a French page, and name no card: the message may name a held one.
    assert [o.data["params"] for o in outputs if o.kind == "violation"] == [{"reason": "deal"}]


RFID_ONLY = parse_faults("camera=false")


def _refereed(sim):
    referee = TableReferee(header=sim.header)
    outputs = feed(referee, sim.observations, Oracle(sim))
    return referee, outputs


def test_a_card_taken_back_whose_leaving_was_read_late_is_not_an_accusation_later():
    # RFID-only, seed 200353, hand 1, trick 5: W shows ♥A, takes it back and plays ♥9; the tag
    # leaving the play zone and coming back to W's hand is read only after ♥9 was put down, by
    # then ♥A was recorded as W's card. At trick 7 W really plays ♥A: that is no "already-played".
    # (W's later card in the trick is its play: the referee no longer needs to ask about it.)
    sim = simulate(1, seed=200353, faults=RFID_ONLY)
    ah, h9 = parse_card("Ah"), parse_card("9h")
    back = [o for o in sim.observations if isinstance(o, CardSeen) and o.zone == "hand:W" and o.card == ah]
    assert back and sim.plays[(1, 5, 3)] == h9 and sim.plays[(1, 7, 3)] == ah     # the scenario is there
    referee, outputs = _refereed(sim)
    assert not referee.violations() and not sim.planted
    assert [r.as_dict() for r in referee.results] == [r.as_dict() for r in sim.truth.results]


def test_a_card_nobody_saw_put_down_says_nothing_of_the_order_of_its_trick():
    # RFID-only, seed 101478, hand 1, trick 6: E leads ♠8 but neither its leaving E's hand nor its
    # arrival was read; N had put ♠J down before it (planted out of turn). Only the pickup shows E's
    # card: when it was put down is unknown, so no table can tell N came first. The simulator
    # counts the planted card untraced; the referee neither accuses N nor asks the console about
    # the order (it used to ask, on every such trick: a question per hand nobody could answer).
    sim = simulate(1, seed=101478, faults=RFID_ONLY)
    assert [(p.kind, p.trick, p.seat, p.traced) for p in sim.planted] == [("out-of-turn", 6, 0, False)]
    referee, outputs = _refereed(sim)
    assert not [o for o in outputs if o.kind == "conflict" and o.data["kind"] == "out-of-turn"]
    assert referee.violations() == []
    assert [r.as_dict() | {"violations": []} for r in referee.results] == \
        [r.as_dict() | {"violations": []} for r in sim.truth.results]


def test_a_led_card_only_the_camera_read_is_asked_before_the_others_are_judged_against_it():
    # Classic, seed 100112, hand 1, trick 3: the camera misreads S's lead as ♦10 and no tag read
    # confirms it; E, N and W (read by RFID) then seem not to follow diamonds: their violations
    # rest on the lead, read once, and are "to confirm". The lead is asked about before anyone is
    # accused; the only violation is the planted out-of-turn at trick 4.
    sim = simulate(1, seed=100112, faults=Faults(), rules="classic")
    referee, outputs = _refereed(sim)
    asked = [o.data for o in outputs if o.kind == "conflict" and o.data["kind"] == "to-confirm"]
    assert any(c["seat"] == "S" and c["trick"] == 3 for c in asked)
    assert [(v.rule, v.trick, v.seat) for _, v in referee.violations()] == [("out-of-turn", 4, 0)]
    assert [r.score for r in referee.results] == [r.score for r in sim.truth.results]


def test_a_tricks_last_card_stays_on_the_screens_until_the_pickup(clean):
    """The last card of a trick is written with its pickup; until then the screens must still show
    it in the trick and nobody as to play."""
    stream = list(clean.observations)
    pickup = next(i for i, o in enumerate(stream) if isinstance(o, ZoneCleared))
    referee = TableReferee(header=clean.header)
    feed(referee, stream[:pickup])
    feed(referee, [SensorState("console", stream[pickup].t - 0.01, "connected", "clock")])
    snap = referee.snapshot()
    trick = [e for e in clean.record if e["type"] == "play"][:4]
    assert snap["trick"] == [e["card"] for e in trick] and snap["to_play"] is None
    assert not snap["zones"]                       # decided: not a card still being judged
    assert len([e for e in referee.record if e["type"] == "play"]) == 3       # written with its pickup
    feed(referee, stream[pickup:])
    assert game_events(referee.record) == game_events(clean.record)
