"""Our hand scoring against two engines no one here wrote (``docs/differential.md``, "Scoring").

Each peer plays seeded random deals itself, to the end, under a random contract
(taker side, bid, counter); our engine replays the same cards (the play
engine's agreement is ``test_differential_play.py``'s business) and scores the
hand with options that match the peer's choices. A disagreement is either a
bug (the test fails and prints the deal) or a documented rule difference,
recognised by one narrow named predicate (``bench/scoring.py``) that recomputes
the peer's figure from ours with that one rule changed; each is counted, none
is dropped. ``python -m bench scoring`` runs the same on 50,000 more deals.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the bench package, at the repo root

from bench.scoring import (BELOTE_CLI_DIFFERENCES, BELOTE_CLI_OPTIONS, COLVER_DIFFERENCES,  # noqa: E402
                           belote_cli_hands, colver_hands, compare, compare_declarations)
from referee.scoring import score_hand  # noqa: E402

DEALS = int(os.environ.get("DIFF_DEALS", "10000"))


def test_colver_scores_agree_but_for_documented_rule_differences():
    documented, undocumented = compare(colver_hands(DEALS), COLVER_DIFFERENCES)
    print(f"colver: {DEALS} hands, documented {dict(documented)}, undocumented {len(undocumented)}",
          file=sys.stderr)
    assert not undocumented, "\n".join(undocumented[:20])
    assert documented["colver_bid_capot_is_a_250_bid"] > DEALS // 50   # the capot tables were exercised


def test_belote_cli_scores_agree_but_for_documented_rule_differences():
    documented, undocumented = compare(belote_cli_hands(DEALS), BELOTE_CLI_DIFFERENCES)
    print(f"belote-cli: {DEALS} hands, documented {dict(documented)}, undocumented {len(undocumented)}",
          file=sys.stderr)
    assert not undocumented, "\n".join(undocumented[:20])


def test_the_comparison_notices_a_scoring_difference():
    """With seed 004's base rule (a tie makes the contract) instead of belote-cli's litige, the
    comparison must disagree exactly on the tied hands."""
    options = BELOTE_CLI_OPTIONS.replace(make_rule="at-least-defence")
    changed = 0
    for h in belote_cli_hands(2000, seed=7):
        if h.ours.score != h.theirs:
            continue                                  # a documented difference already
        rescored = score_hand(options, h.contract, h.play.card_points, h.play.tricks_won, h.belote, h.declarations)
        if rescored.score != h.theirs:
            changed += 1
            assert h.ours.result == "litige", h.text
    assert changed > 0


def test_belote_cli_declarations_agree_but_for_documented_rule_differences():
    documented, undocumented, with_declarations = compare_declarations(DEALS)
    print(f"belote-cli declarations: {DEALS} deals ({with_declarations} with declarations), documented "
          f"{dict(documented)}, undocumented {len(undocumented)}", file=sys.stderr)
    assert not undocumented, "\n".join(undocumented[:10])
    assert with_declarations > DEALS // 3
