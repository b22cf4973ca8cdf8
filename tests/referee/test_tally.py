"""A hand's result entered without its cards (``tally``): the way a club
without sensors keeps its scoresheet. A tallied hand must score exactly as the
same hand played card by card, and a tally that cannot be right is refused
with what to fix."""

import json

import pytest

from referee.game import Game
from referee.record import RecordError, write_record
from commands.main import main

HEADER = {"type": "game", "version": 1, "rules": "ffb-contree"}
# The played hand of docs/record-format.md's example: W 100s made, NS 62 + belote, EW 100.
DEAL = {"type": "deal", "dealer": "E"}
AUCTION = [("N", "80d"), ("W", "100s"), ("S", "pass"), ("W", "pass"), ("E", "pass"), ("N", "pass")]
PLAYS = ("N Qh,W Ah,S 8h,E 7h,W 8c,S Jc,E Qc,N Tc,N Jd,W Td,S 7d,E Kd,W Js,S 8s,E Ac,N Qs:belote,"
         "W Jh,S Th,E 7c,N 9h,S 7s,E 9c,N Ks:rebelote,W 9s,W Ad,S 8d,E Qd,N Kh,W Ts,S As,E Kc,N 9d")


def calls(auction=AUCTION):
    return [{"type": "call", "seat": s, "call": c} for s, c in auction]


def plays():
    out = []
    for item in PLAYS.split(","):
        seat, card = item.split()
        card, _, say = card.partition(":")
        out.append({"type": "play", "seat": seat, "card": card, **({"say": say} if say else {})})
    return out


def tally(ns=None, ew=None, belote=(), capot=None):
    event = {"type": "tally", "belote": list(belote), "capot": capot}
    if ns is not None:
        event["card_points"] = {"NS": ns, "EW": ew}
    return event


def test_a_tallied_hand_scores_as_the_same_hand_played():
    played = Game.from_events([HEADER, DEAL, *calls(), *plays()])
    tallied = Game.from_events([HEADER, DEAL, *calls(), tally(62, 100, ["NS"])])
    p, t = played.results[0], tallied.results[0]
    assert (t.result, t.score, t.card_points, t.belote) == (p.result, p.score, p.card_points, p.belote) \
        == ("made", (80, 200), (62, 100), (20, 0))
    assert tallied.totals == played.totals == (80, 200)
    assert tallied.phase == "deal" and tallied.next_dealer == played.next_dealer


def test_a_failed_contract_and_a_capot_go_through_the_same_scoring():
    failed = Game.from_events([HEADER, DEAL, *calls(), tally(90, 72)]).results[0]
    assert (failed.result, failed.score) == ("failed", (260, 0))     # the defence: 160 + the bid
    capot = Game.from_events([HEADER, DEAL, *calls(), tally(capot="EW", belote=["NS"])]).results[0]
    assert (capot.result, capot.capot, capot.card_points) == ("made", True, (0, 252))
    assert capot.score == (20, 350)                                  # capot 250 + the bid 100; NS keep belote


def test_declarations_and_penalties_count_in_a_tallied_hand():
    game = Game.from_events([HEADER, DEAL, *calls(), {"type": "penalty", "seat": "W"}, tally(40, 122)])
    assert game.results[0].result == "failed"                        # W's side gave the hand away


@pytest.mark.parametrize("events, message", [
    ([*calls()[:3], tally(62, 100)], "a tally during the auction: the auction is not over (E to speak)"),
    ([*calls(), *plays()[:2], tally(62, 100)], "2 card(s) of it were played"),
    ([*calls(), tally(62, 90)], "card points NS 62 + EW 90 = 152, but a hand has 162"),
    ([*calls(), tally(162, 0, capot="EW")], "a capot by EW takes every card point"),
    ([*calls(), tally(62, 100, ["NS", "NS"])], "belote for NS, but NS cannot have 2 belotes"),
])
def test_a_tally_that_cannot_be_right_is_refused_and_changes_nothing(events, message):
    game = Game.from_events([HEADER, DEAL, *events[:-1]])
    before = (game.phase, len(game.events), len(game.results))
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        game.apply(events[-1])
    assert (game.phase, len(game.events), len(game.results)) == before


def test_no_belote_where_the_rules_have_none():
    game = Game.from_events([{**HEADER, "options": {"belote": False}}, DEAL, *calls()])
    with pytest.raises(RecordError, match="no belote in this hand: belote is not played with these rules"):
        game.apply(tally(62, 100, ["EW"]))


def test_belote_only_for_a_side_that_was_dealt_it():
    hands = {"N": ["Qs", "Ks", "9h", "Qh", "Kh", "9d", "Jd", "Tc"], "E": ["7h", "Qd", "Kd", "7c", "9c", "Qc", "Kc", "Ac"],
             "S": ["7s", "8s", "As", "8h", "Th", "7d", "8d", "Jc"], "W": ["9s", "Ts", "Js", "Jh", "Ah", "Td", "Ad", "8c"]}
    game = Game.from_events([HEADER, {**DEAL, "hands": hands}, *calls()])
    with pytest.raises(RecordError, match="belote for EW, but EW was not dealt the king and queen of trumps"):
        game.apply(tally(62, 100, ["EW"]))


@pytest.mark.parametrize("event, message", [
    ({"type": "tally"}, '"card_points" is missing'),
    ({"type": "tally", "card_points": {"NS": 62}}, "expected the points of NS and EW"),
    ({"type": "tally", "card_points": {"NS": 62, "EW": -1}}, "expected the points of NS and EW"),
    ({"type": "tally", "capot": "N"}, '"capot" is "N", expected "NS", "EW" or null'),
    ({"type": "tally", "card_points": {"NS": 62, "EW": 100}, "belote": "NS"}, '"belote" is "NS", expected a list'),
])
def test_a_malformed_tally_says_what_to_write(event, message):
    game = Game.from_events([HEADER, DEAL, *calls()])
    with pytest.raises(RecordError, match=message):
        game.apply(event)


def test_a_tally_can_be_corrected_like_any_event():
    game = Game.from_events([HEADER, DEAL, *calls(), tally(62, 100)])
    assert game.results[0].score == (60, 200)
    game.apply({"type": "correction", "ref": 9, "replace": tally(62, 100, ["NS"])})
    assert game.results[0].score == (80, 200)


def test_referee_check_reads_a_record_with_tallies(tmp_path, capsys):
    path = tmp_path / "club.jsonl"
    write_record(path, [HEADER, DEAL, *calls(), tally(62, 100, ["NS"]),
                        {"type": "deal", "dealer": "N"},
                        *calls([("W", "90h"), ("S", "pass"), ("E", "pass"), ("N", "pass")]), tally(capot="EW")])
    assert main(["referee", "check", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [h["score"] for h in out["hands"]] == [{"NS": 80, "EW": 200}, {"NS": 0, "EW": 340}]
    assert out["totals"] == {"NS": 80, "EW": 540}
    path.write_text(path.read_text().replace('"NS":62', '"NS":61'))
    assert main(["referee", "check", str(path)]) == 2
    assert "club.jsonl:9: tally: card points NS 61 + EW 100 = 161, but a hand has 162" in capsys.readouterr().err


def test_the_table_referee_takes_a_tally_from_the_console():
    from referee.observations import from_dict, to_dict
    from referee.table_referee import TableReferee
    table = TableReferee("ffb-contree")
    actions = [{"action": "start", "seat": "E"}, *({"action": "call", "seat": s, "call": c} for s, c in
               [("N", "80d"), ("W", "100s"), ("S", "pass"), ("E", "pass"), ("N", "pass")])]
    for t, action in enumerate(actions):
        table.submit(from_dict({"kind": "console", "t": t, **action}))
    wrong = from_dict({"kind": "console", "t": 9, "action": "tally", "result": {"card_points": {"NS": 61, "EW": 100}}})
    assert to_dict(wrong)["result"] == {"card_points": {"NS": 61, "EW": 100}}     # stored as entered
    [out] = table.submit(wrong)
    assert out.kind == "rejected" and "= 161, but a hand has 162" in out.data["reason"]
    outs = table.submit(from_dict({"kind": "console", "t": 10, "action": "tally",
                                   "result": {"card_points": {"NS": 62, "EW": 100}, "belote": ["NS"]}}))
    assert [o.kind for o in outs] == ["event", "score"]
    assert outs[1].data["totals"] == {"NS": 80, "EW": 200} and table.mode == "idle"
