"""Rule options and the named profiles built from them.

Rulebooks disagree on many details (``shared/rules/VARIANTS.md``), so every
variation a seed mentions is an option of :class:`Options`, and a *profile* is
a named set of option values. A profile name plus overrides fully defines how a
game is refereed:

>>> opts = profile("classic", target=501)
>>> opts.auction, opts.undertrump, opts.target
('classic', 'must', 501)
>>> profile("ffb-contree").scoring, profile("ffb-contree").rounding
('made+bid', '10-5up')
>>> profile("contree", scoring="bid").scoring
'bid'

The seeds are cited by number: 000 FFB official contrée rules, 001 contrée as
played online (the three scoring methods and their tables), 002 classic belote
with the 81 litige, 003 classic to 501, 004 classic belote in depth with its
list of variations. :data:`PROFILE_NOTES` says, profile by profile, which
passage each choice follows and what was decided where the seeds are silent.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping


class RulesError(ValueError):
    """An unknown profile or option, or a value an option does not take."""


@dataclass(frozen=True)
class Options:
    """Every rule option. Field comments name the choices an option takes and
    the seed passage it comes from."""

    # --- seats and play order --------------------------------------------
    clockwise: bool = False                 # 004 variation "Direction of play"; 003 plays clockwise

    # --- auction ---------------------------------------------------------
    auction: str = "contree"                # "contree" (bids, 000 §4) | "classic" (turned card, 002/004)
    bid_min: int = 80                       # 000 §4.1 "at least 80"
    bid_step: int = 10                      # 000 §4.1 "a multiple of 10"
    bid_max: int = 160                      # 001 "between 80 and 160 or a capot"
    capot_bid: bool = True                  # "capot" may be bid at any time (000 §4.1)
    no_trump: bool = False                  # sa contracts allowed (001)
    all_trump: bool = False                 # ta contracts allowed (001)
    counter: bool = True                    # counter / re-counter (000 §4.1)
    counter_multiplier: int = 2             # 000 "multiplied by 2" (some clubs x3: VARIANTS)
    recounter_multiplier: int = 4           # 000 "multiplied by 4"
    second_round_turned_suit: bool = False  # classic round 2: the turned suit may be named again
                                            # (002 "any suit") | not (004 "other than the face up card")
    redeal_same_dealer: bool = False        # all pass: same dealer (002) | next dealer (000 §4.1, 004)

    # --- play (used by referee/play.py) ------------------------------------
    undertrump: str = "discard"             # opponent trumped higher, you cannot overtrump:
                                            # "discard" (000 §5.2 note) | "must" (004 "pisser")
                                            # | "always" (004 variation: even on the partner)
    beat_partner_on_trump_lead: bool = True  # trump led: beat the highest trump even when it is the
                                            # partner's (000 §5.2, 004 "whoever holds the trick") | not
                                            # (001's reminder "unless ... their partner is currently
                                            # winning the trick": then any trump). In ta every card is
                                            # a trump (001): false there spares the partner's card too
    all_trump_must_beat: bool = True        # ta: beat the highest card of the suit led if you can
    no_trump_values: str = "001"            # sa card values: "001" (A 19) | "plain" (A 11)

    # --- belote / rebelote ------------------------------------------------
    belote: bool = True                     # K+Q of trump score 20 (000 §7)
    belote_must_say: bool = True            # "belote" then "rebelote" must be said (000 §7) | not (003 silent)
    belote_invincible: bool = True          # kept when the contract fails (000 §7) | to the defence (001)
    belote_king_first: bool = False         # 004 variation: the king must be played first
    belote_counts_for_contract: bool = True  # 000 §4.2, 001 "guarantees to make the contract"
    capot_failed_loses_belote: bool = True  # 001: a bid capot that fails loses the takers' belote | not:
                                            # a said belote is invincible even then (000 §7, ffb-contree)

    # --- declarations -----------------------------------------------------
    declarations: bool = False              # tierce, fifty, hundred, squares (002, 004); none in 000 §8
    declarations_count_for_contract: bool = True   # 004 variation "Criteria for winning the contract"
    dedans_declarations_to_defence: bool = True    # 004 "162 plus the losing team's declarations"
    capoted_keep_declarations: bool = False  # 004 scoring variation: a capot team still scores them

    # --- hand scoring -----------------------------------------------------
    scoring: str = "made+bid"               # 001's methods "made" | "bid" | "made+bid";
                                            # "classic": each side scores what it made (002/003/004)
    rounding: str = "none"                  # card points: "none" | "10-5up" (001: 1-4 down, 5-9 up)
                                            # | "10-6up" | "5" (004 variation: nearest 5)
    make_rule: str = "bid-and-more"         # "bid": reach the bid (001) | "bid-and-more": and beat the
                                            # defence (000 §4.2) | "at-least-defence" (004)
                                            # | "more-than-defence" (004 variation) | "threshold" (002/003)
    threshold: int = 82                     # make_rule "threshold": 82 (003; 002 "more than 81")
    threshold_with_belote: int = 92         # 003 "the goal of the contract is 92 points"
    failed_value: int = 160                 # to the defence on a failed contract: 160 (001) | 162 (003/004)
    failed_subtract: bool = False           # 000 §10.1.2: the failed takers also lose the hand's value
                                            # (their score goes down) | not (001: "they score 0")
    counter_scope: str = "contract"         # "contract": 001's fixed tables to the winner, 0 to the other
                                            # | "hand": every score of the hand multiplied (000 §4.1 wording)
                                            # | "bid": the winner scores 160 (+ bid x m): only the bid is
                                            # multiplied (a common club table; colver's)
    capot_value: int = 250                  # unbid capot: 250 (001) | 252 (003/004)
    litige: str = "takers-lose"             # takers' total equals the defence's:
                                            # "takers-lose" (000 §10.1.1, 004 variation) | "hold": defence
                                            # scores, takers' points go to the next hand's winner (002, 004)
                                            # | "abeyance": both held, 004's first variation | "split"
    dix_de_der: int = 10                    # 000 §9.1
    capot_dix_de_der: int = 100             # 000 §9.2: total 252

    # --- match --------------------------------------------------------------
    target: int = 1000                      # 000 §11 "usually 1000"; 003: 501
    both_over: str = "higher"               # both teams over target on one hand: "higher" (003)
                                            # | "taker" (the side that made the last hand) | "draw" (004)
    arret: bool = False                     # l'Arrêt (004 "Ending the game")
    play_violation_penalty: str = "none"    # an illegal play: "none" (reported; the referee may enter a
                                            # penalty) | "hand-lost" (the offending side loses the hand)

    def replace(self, **changes: Any) -> "Options":
        return with_overrides(self, changes)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_CHOICES: dict[str, tuple[str, ...]] = {
    "auction": ("contree", "classic"),
    "undertrump": ("discard", "must", "always"),
    "no_trump_values": ("001", "plain"),
    "scoring": ("made", "bid", "made+bid", "classic"),
    "rounding": ("none", "10-5up", "10-6up", "5"),
    "make_rule": ("bid", "bid-and-more", "at-least-defence", "more-than-defence", "threshold"),
    "counter_scope": ("contract", "hand", "bid"),
    "litige": ("takers-lose", "hold", "abeyance", "split"),
    "both_over": ("higher", "taker", "draw"),
    "play_violation_penalty": ("none", "hand-lost"),
}


def option_choices(name: str) -> tuple[str, ...] | None:
    """The values a text option takes (None for numbers and booleans)."""
    return _CHOICES.get(name)


def with_overrides(base: Options, overrides: Mapping[str, Any]) -> Options:
    """``base`` with some options changed, each checked by name, type and value.

    >>> with_overrides(Options(), {"target": "501", "belote-must-say": "no"}).belote_must_say
    False
    >>> with_overrides(Options(), {"rounding": "up"})
    Traceback (most recent call last):
    ...
    referee.rules.RulesError: option 'rounding' takes one of none, 10-5up, 10-6up, 5, not 'up'
    """
    names = {f.name for f in dataclasses.fields(Options)}
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


def parse_overrides(items: list[str] | None) -> dict[str, str]:
    """``["target=501", "rounding=none"]`` (the CLI's ``--option``) as a dict."""
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--option {item!r}: write key=value, e.g. --option target=501")
        out[key.strip()] = value.strip()
    return out


PROFILES: dict[str, Options] = {
    "ffb-contree": Options(rounding="10-5up", capot_failed_loses_belote=False),
    "contree": Options(no_trump=True, all_trump=True, belote_invincible=False,
                       rounding="10-5up", make_rule="bid"),
    "coinche": Options(no_trump=True, all_trump=True, belote_invincible=False,
                       rounding="10-5up", declarations=True, make_rule="bid-and-more"),
    "classic": Options(auction="classic", undertrump="must", belote_must_say=False,
                       declarations=True, scoring="classic", make_rule="at-least-defence",
                       failed_value=162, capot_value=252, counter=False, capot_bid=False,
                       both_over="draw"),
    "classic-501": Options(auction="classic", undertrump="must",
                           belote_must_say=True,
                           declarations=False, scoring="classic", make_rule="threshold",
                           failed_value=162, capot_value=252, counter=False, capot_bid=False,
                           clockwise=True, target=501),
}

#: The rulebooks the profiles follow, by the names a player knows them by
#: (``referee profiles`` prints this legend; the texts are ``shared/seeds/NNN_*.txt``).
RULEBOOKS: dict[str, str] = {
    "FFB rules": "the official rules of Belote Contrée of the French Belote Federation (ffbelote.org; seed 000)",
    "online contrée rules": "Belote Contrée as played online: bids 80-160 or capot, sa/ta contracts, the three "
                            "scoring methods with their counter and capot tables (seed 001)",
    "classic rules": "classic Belote with the turned card, declarations and the 81-point litige (seed 002)",
    "501 rules": "classic Belote to 501: 82 to make, 92 with belote, capot 252 (seed 003)",
    "classic Belote guide": "classic Belote in depth, with its long list of variations (seed 004)",
}

#: Why each profile is what it is, passage by passage (``referee profiles`` prints it),
#: citing the rulebooks of :data:`RULEBOOKS` by name.
PROFILE_NOTES: dict[str, str] = {
    "ffb-contree": (
        "The FFB rules, with the online contrée rules' 'points made + bid' tables where the FFB rules are "
        "silent. Bids 80..160 by tens or capot, suits only (FFB rules §4.1); no declarations (FFB rules §8); "
        "belote must be said and is invincible (FFB rules §7), on a failed bid capot too (the online "
        "contrée rules' loss of the belote there is capot_failed_loses_belote); made = total >= bid and "
        "more than the defence (FFB rules §10.1.1), so a tie fails (litige=takers-lose); card points "
        "rounded to 10, 5 up (online contrée rules), the rounded figure never makes a contract (online "
        "contrée rules); failed = 160 + bid to the defence, 0 to the takers (online contrée rules; FFB "
        "rules §10.1.2's 'subtracted from the score of the team that failed' is failed_subtract=true); "
        "countered: (160 + bid) x2/x4 to the winner, 0 to the other (online contrée rules); bid capot "
        "500/1000/2000 made or failed, unbid capot 250 + bid (online contrée rules); belote added outside "
        "any multiplier; all pass: next dealer (FFB rules §4.1); game to 1000, both over: the higher total "
        "(FFB rules §11 silent)."),
    "contree": (
        "The online contrée rules: sa and ta contracts with their card values; scoring method an option "
        "(made | bid | made+bid, default made+bid) with each method's counter and capot tables; made = "
        "reach the bid ('as many as bid'; belote counts toward it); belote goes to the defence when the "
        "contract fails ('not guaranteed'); a failed bid capot loses the takers' belote; rounding to 10, "
        "5 up; up to four belotes in ta. The play follows the rules common to all: trump led, beat the "
        "highest trump even the partner's (FFB rules §5.2, classic Belote guide); the online rules' reminder "
        "'unless ... their partner is currently winning the trick' is beat_partner_on_trump_lead=false."),
    "coinche": (
        "contree plus the online contrée rules' remark that coinche has declarations: tierce, fifty, "
        "hundred, squares, ranked as in the classic Belote guide (square > 5-sequence, longer > shorter, higher > "
        "lower, trump wins ties, else the earliest from dealer's right); the taker must beat the defence "
        "so make_rule bid-and-more; declarations count toward the contract and go to the defence on a "
        "failure."),
    "classic": (
        "classic Belote guide with the classic rules: turned card, two taking rounds (round 2 another suit, "
        "classic Belote guide), all pass twice: next dealer (classic Belote guide; the classic rules' same dealer is "
        "redeal_same_dealer); declarations at the first trick ranked as in the classic Belote guide; must undertrump "
        "when an opponent has trumped (Pagat's 'pisser'); takers need at least as many points as the "
        "defence (classic Belote guide), else dedans: 162 + all declarations to the defence; capot 252 + "
        "declarations: a defence without a trick forfeits its own, takers without a trick give the "
        "defence 'all the declarations of both teams' (classic Belote guide); belote is not required to be said "
        "(classic Belote guide declare it when played; a forgotten word is not penalised) and stays with its "
        "holder; game to 1000, both over on one hand: drawn (classic Belote guide)."),
    "classic-501": (
        "The 501 rules: play clockwise ('the direction of play is clockwise'); no declarations (none "
        "named); 82 to make, 92 when a belote is announced; failed: 'the team makes a contract to get "
        "only belote points, if you have one, and the opposing team scores 162 points and points belote' "
        "(the takers keep their belote, the opponents 162 + their own); belote said when played ('say "
        "belote and rebelote'); capot 252; game to 501, both over: the higher total."),
}


def profile(name: str, **overrides: Any) -> Options:
    """The options of profile ``name``, with ``overrides`` applied."""
    try:
        base = PROFILES[name]
    except KeyError:
        raise RulesError(f"unknown rules profile {name!r}: choose one of {', '.join(PROFILES)}") from None
    return with_overrides(base, overrides) if overrides else base
