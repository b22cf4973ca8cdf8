"""The French protocol played as a user plays it (``vision.protocols``)."""

from referee.cards import parse_card
from vision import protocols
from vision.faces import builtin_faces


def test_a_shot_calibrate_deck_refuses_is_followed_by_the_next(tmp_path):
    """The tune half's first 9 of clubs passes the shot check as rendered but
    not as the JPEG file ``calibrate deck`` reads (one side's edge support
    falls under glare): the protocol must judge the file, as the user's
    ``calibrate deck`` does, and take the next shot, or the card is silently
    missing from the deck (the French sets lost every 9 of clubs that way)."""
    faces = {c: f for c, f in builtin_faces(french=True).items() if c in {parse_card("9c"), parse_card("7s")}}
    deck, used, _ = protocols.enrol("french-dark", faces, "tune", tmp_path)
    assert sorted(deck.cards) == sorted(used) == sorted(faces)
