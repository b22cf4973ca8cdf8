"""What a play the console corrected cites as its evidence (issue 11: every accusation shows the reads it
rests on, so a referee can check them): the reads of the card named, never those of a card shown and
taken back."""

from referee.cards import parse_card
from referee.observations import CardGone, ConsoleAction
from referee.oracle import answered_stream
from referee.sensor_faults import parse_faults
from referee.simulate import simulate
from referee.table_referee import TableReferee


def test_a_card_named_for_one_shown_and_taken_back_cites_no_read_of_that_card():
    """Game 3400386 (contrée, RFID only), trick 2: W showed the ♣K and took it back; its tag, read back in
    W's hand, made the referee ask which card W played, and the console named the ♦J. The corrected play
    cited the ♣K's read as the ♦J's evidence. It now cites the console's answer (nobody read the ♦J); a
    card the question proposed from its own read (N's ♦10, read leaving with the pickup) cites that read."""
    sim = simulate(60, 3400386, parse_faults("realistic,camera=false"), "contree")
    referee = TableReferee(header=sim.header)
    seen = {}
    for obs in answered_stream(sim):
        referee.ingest(obs)
        seen[referee.n_obs] = obs
    named = {(e["replace"]["seat"], e["replace"]["card"]): e["replace"]["evidence"] for e in referee.game.events
             if e["type"] == "correction" and e["reason"] == "misread" and e["replace"]}
    assert set(named) >= {("W", "Jd"), ("N", "Td")}
    w = [seen[i] for i in named[("W", "Jd")]]
    assert all(isinstance(o, ConsoleAction) for o in w) and len(w) == 1
    n = [seen[i] for i in named[("N", "Td")]]
    assert n and all(isinstance(o, CardGone) and o.card == parse_card("Td") for o in n)
