"""What a play the console corrected cites as its evidence (issue 11: every accusation shows the reads it
rests on, so a referee can check them): the reads of the card named, never those of a card shown and
taken back."""

from referee.observations import ConsoleAction
from referee.oracle import answered_stream

from replay import replayed


def test_a_card_named_for_one_shown_and_taken_back_cites_no_read_of_that_card():
    """Game 700042 (contrée, RFID only), trick 3: N's ♠9, recorded as N's card, was read back in N's
    hand, so the referee asked which card N played, and the console named the ♦J. The corrected play cited
    the ♠9's reads (leaving N's hand, landing in N's zone) as the ♦J's evidence. Nobody read the ♦J: it now
    cites the console's answer."""
    sim, referee = replayed(700042, "realistic,camera=false", "contree")
    seen = dict(enumerate(answered_stream(sim), 1))         # the observations by the ids the referee gave them
    named = {(e["replace"]["seat"], e["replace"]["card"]): e["replace"]["evidence"] for e in referee.game.events
             if e["type"] == "correction" and e["reason"] == "misread" and e["replace"]}
    evidence = [seen[i] for i in named[("N", "Jd")]]
    assert len(evidence) == 1 and isinstance(evidence[0], ConsoleAction)
    assert evidence[0].action == "resolve"
