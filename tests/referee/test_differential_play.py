"""Our play engine against two engines no one here wrote (``docs/differential.md``).

On 10,000 seeded random deals per peer, every position of a random game is
compared (:func:`bench.referee.compare`): the player to play and the legal
cards, then each trick's winner and the tricks won, then the card points. A
disagreement is either a bug (the test fails and prints it) or a documented
rule difference, recognised by one of the narrow named predicates in
``bench/referee.py`` (``POINT_DIFFERENCES``) and counted, never silently dropped.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the bench package, at the repo root

from bench.referee import BeloteCli, Colver, compare, peer_options  # noqa: E402
from referee.rules import profile  # noqa: E402
from referee.trump_tables import trump_mask  # noqa: E402

DEALS = 10_000


def _check_peer(peer):
    undocumented, documented, positions = compare(peer, DEALS, peer_options(peer))
    print(f"{peer.name}: {DEALS} deals, {positions} positions compared, documented differences "
          f"{dict(documented)}, undocumented {len(undocumented)}", file=sys.stderr)
    assert positions == 32 * DEALS
    assert not undocumented, "\n".join(d.text for d in undocumented[:20])
    return documented


def test_colver_agrees_on_every_legal_set_trick_winner_and_card_points():
    documented = _check_peer(Colver)
    assert set(documented) <= {"colver_capot_in_card_points"}


def test_belote_cli_agrees_on_every_legal_set_trick_winner_and_card_points():
    documented = _check_peer(BeloteCli)
    # ta comes up in one deal in six: its card values always differ (and nothing else does)
    assert documented["belote_cli_all_trump_values"] > DEALS // 10
    assert set(documented) == {"belote_cli_all_trump_values"}


def test_the_comparison_notices_a_rule_difference():
    """Under the contrée undertrump rule our engine must disagree with classic belote-cli,
    and only where belote-cli forces an undertrump that contrée leaves free: its legal set is
    then a strict part of ours, and made of trumps only."""
    options = profile("ffb-contree", no_trump_values="plain")
    undocumented, _, _ = compare(BeloteCli, 300, options)
    assert len(undocumented) > 10, "a real rule difference went unnoticed"
    for d in undocumented:
        assert d.kind == "legal", d.text
        assert d.theirs & ~d.ours == 0 and d.theirs != d.ours, d.text
        assert d.trump < 4 and d.theirs & ~trump_mask(d.trump) == 0, d.text
