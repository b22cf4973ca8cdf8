"""Rule options and the named profiles built from them.

Rulebooks disagree on many details (``shared/rules/VARIANTS.md``), so every
variation a seed mentions is an option of :class:`Options`, and a *profile* is
a named set of option values. A profile name plus overrides fully defines how a
game is refereed:

>>> opts = profile("classic", target=501)
>>> opts.auction, opts.undertrump, opts.target
('classic', 'must', 501)
>>> profile("ffb-contree").scoring
'made+bid'

Each profile's docstring (in :data:`PROFILE_NOTES`) says which seed passage
each of its choices follows.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping


class RulesError(ValueError):
    """An unknown profile or option, or a value an option does not take."""


@dataclass(frozen=True)
class Options:
    """Every rule option. Field comments name the choices an option takes."""

    # --- seats and play order --------------------------------------------
    clockwise: bool = False                 # 004 variation "Direction of play"

    # --- auction ---------------------------------------------------------
    auction: str = "contree"                # "contree" (bids) | "classic" (turned card)
    bid_min: int = 80
    bid_step: int = 10
    bid_max: int = 160                      # highest numbered bid; capot above it
    capot_bid: bool = True                  # "capot" may be bid (000 §4.1)
    no_trump: bool = False                  # sa contracts allowed (001)
    all_trump: bool = False                 # ta contracts allowed (001)
    counter: bool = True                    # counter / re-counter allowed
    counter_multiplier: int = 2
    recounter_multiplier: int = 4
    redeal_same_dealer: bool = False        # all pass: 002 same dealer, 000/004 next dealer

    # --- play ------------------------------------------------------------
    undertrump: str = "discard"             # opponent trumped higher, you cannot overtrump:
                                            # "discard" (000 §5.2 note) | "must" (004 "pisser")
                                            # | "always" (004 variation: even on the partner)
    all_trump_must_beat: bool = True        # ta: beat the highest card of the suit led if you can
    no_trump_values: str = "001"            # sa card values: "001" (A 19) | "plain" (A 11)

    # --- belote / rebelote ------------------------------------------------
    belote: bool = True
    belote_must_say: bool = True            # must be said when played (000 §7)
    belote_invincible: bool = True          # kept when the contract fails (000 §7)
    belote_king_first: bool = False         # 004 variation: king must be played first
    belote_counts_for_contract: bool = True  # 000 §4.2, 001 "guarantees to make"

    # --- declarations -----------------------------------------------------
    declarations: bool = False              # tierce, fifty, hundred, squares (002, 004)
    declarations_count_for_contract: bool = True   # 004 variation "Criteria"
    capoted_keep_declarations: bool = False  # 004 scoring variation

    # --- hand scoring -----------------------------------------------------
    scoring: str = "made+bid"               # contree: "made" | "bid" | "made+bid";
                                            # classic: "classic"
    rounding: str = "none"                  # "none" | "10-5up" (nearest 10, 5 up) | "10-6up"
    make_rule: str = "bid-and-more"         # contree: reach the bid and beat the defence
                                            # classic: "at-least-defence" (004) | "more-than-defence"
                                            # | "threshold" (82, or 92 with belote: 003)
    threshold: int = 82                     # for make_rule "threshold"
    threshold_with_belote: int = 92         # 003
    failed_value: int = 160                 # points to the defence on a failed contract (160/162)
    failed_plus_bid: bool = True            # ... plus the bid (001 made+bid)
    counter_scope: str = "contract"         # "contract": (160 + bid) x mult to the winner, other 0;
                                            # "hand": every point multiplied
    capot_value: int = 250                  # unbid capot (250 / 252)
    capot_plus_bid: bool = True             # 001 made+bid: 250 + contract
    capot_bid_value: int = 500              # bid capot, made or failed (001)
    litige: str = "hold"                    # equal points: "hold" (takers' points wait for the
                                            # next hand) | "takers-lose" | "split"
    dix_de_der: int = 10
    capot_dix_de_der: int = 100             # 000 §9.2: total 252

    # --- match --------------------------------------------------------------
    target: int = 1000
    both_over: str = "higher"               # both teams over target: "higher" wins | "taker" | "draw"
    arret: bool = False                     # l'Arrêt (004)

    def replace(self, **changes: Any) -> "Options":
        return with_overrides(self, changes)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_CHOICES: dict[str, tuple[str, ...]] = {
    "auction": ("contree", "classic"),
    "undertrump": ("discard", "must", "always"),
    "no_trump_values": ("001", "plain"),
    "scoring": ("made", "bid", "made+bid", "classic"),
    "rounding": ("none", "10-5up", "10-6up"),
    "make_rule": ("bid-and-more", "at-least-defence", "more-than-defence", "threshold"),
    "counter_scope": ("contract", "hand"),
    "litige": ("hold", "takers-lose", "split"),
    "both_over": ("higher", "taker", "draw"),
}


def with_overrides(base: Options, overrides: Mapping[str, Any]) -> Options:
    """``base`` with some options changed, each checked by name, type and value."""
    names = {f.name: f for f in dataclasses.fields(Options)}
    clean: dict[str, Any] = {}
    for key, value in overrides.items():
        name = key.replace("-", "_")
        if name not in names:
            raise RulesError(f"unknown rule option {key!r}; `belote-table referee profiles` lists them")
        current = getattr(base, name)
        if isinstance(current, bool):
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "false", "no", "0"):
                value = value.lower() in ("true", "yes", "1")
            if not isinstance(value, bool):
                raise RulesError(f"option {key!r} is true or false, not {value!r}")
        elif isinstance(current, int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise RulesError(f"option {key!r} is a whole number, not {value!r}") from None
        elif name in _CHOICES and value not in _CHOICES[name]:
            raise RulesError(f"option {key!r} takes one of {', '.join(_CHOICES[name])}, not {value!r}")
        clean[name] = value
    return dataclasses.replace(base, **clean)


PROFILES: dict[str, Options] = {
    "ffb-contree": Options(),
    "contree": Options(no_trump=True, all_trump=True, belote_invincible=False,
                       rounding="10-5up"),
    "coinche": Options(no_trump=True, all_trump=True, belote_invincible=False,
                       rounding="10-5up", declarations=True),
    "classic": Options(auction="classic", undertrump="must", belote_must_say=False,
                       declarations=True, scoring="classic", make_rule="at-least-defence",
                       failed_value=162, failed_plus_bid=False, capot_value=252,
                       capot_plus_bid=False, counter=False, capot_bid=False),
    "classic-501": Options(auction="classic", undertrump="must", belote_must_say=False,
                           declarations=False, scoring="classic", make_rule="threshold",
                           failed_value=162, failed_plus_bid=False, capot_value=252,
                           capot_plus_bid=False, counter=False, capot_bid=False,
                           belote_invincible=False, target=501),
}

#: Why each profile is what it is, passage by passage (``referee profiles`` prints it).
PROFILE_NOTES: dict[str, str] = {
    "ffb-contree": "Seed 000 (FFB official rules), with seed 001's made+bid tables where 000 is silent.",
    "contree": "Seed 001: no-trump and all-trump, three scoring methods, belote to the defence on a failed contract.",
    "coinche": "contree + declarations ranked as in seed 004.",
    "classic": "Seed 004 base rules with 002: turned card, declarations, must undertrump, dedans, capot 252, to 1000.",
    "classic-501": "Seed 003: 82 to make (92 with belote), failed = 162 to the defence, capot 252, to 501.",
}


def profile(name: str, **overrides: Any) -> Options:
    """The options of profile ``name``, with ``overrides`` applied."""
    try:
        base = PROFILES[name]
    except KeyError:
        raise RulesError(f"unknown rules profile {name!r}: choose one of {', '.join(PROFILES)}") from None
    return with_overrides(base, overrides) if overrides else base
