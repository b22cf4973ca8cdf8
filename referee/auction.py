"""The auction: who takes, in which trump mode, for how much, countered or not.

Two state machines share one interface, :class:`Auction`, chosen by the
``auction`` option:

* ``contree`` (seed 000 §4, 001): from the dealer's right, each player passes,
  bids at least ``bid_min`` by ``bid_step`` up to ``bid_max`` and higher than
  the last bid, or bids capot (at any time, nothing above it); an opponent of
  the last bidder may counter on their turn, which freezes the bids; the bidding
  side may then re-counter, which ends the auction. Three passes after a bid or
  a counter end the auction; four passes at the start end the hand with no
  points (next dealer).
* ``classic`` (seeds 002, 003, 004): a turned card; in round 1 a player takes
  the turned suit (``take``) or passes; if all pass, round 2 names another suit
  (``takes``, ``takeh``, ``taked``, ``takec``); if all pass again, redeal.

Call texts are DESIGN's: ``pass``, ``80h`` .. ``160c``, ``90sa``, ``100ta``,
``capoth``, ``counter``, ``recounter``; classic ``take``, ``takes`` ... ``pass``.

An illegal call is a :class:`~referee.violations.Violation` with a reason, and
it changes nothing: the referee has the player call again. A text that is not a
call at all is a :class:`CallError` (bad input, not a player's fault).

>>> from referee.rules import profile
>>> a = Auction(profile("ffb-contree"), dealer=0)          # N deals, W speaks first
>>> [v.rule for v in a.apply(3, "80h")], a.apply(2, "70s")[0].rule
([], 'bid-too-low')
>>> for seat, call in [(2, "90s"), (1, "counter"), (0, "pass"), (3, "pass"), (2, "pass")]:
...     _ = a.apply(seat, call)
>>> a.done, a.contract.call, a.contract.counter, a.contract.taker
(True, '90s', 2, 2)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .cards import SUIT_SYMBOLS, SUITS, Card, suit_of
from .rules import Options
from .seats import SEAT_NAMES, Seat, next_seat, team_of
from .trump_tables import ALL_TRUMP, MODE_NAMES, NO_TRUMP
from .violations import Violation

_MODE_WORDS = ("spades", "hearts", "diamonds", "clubs", "no trump", "all trump")


def _why(reason: str, turned: Optional[str] = None) -> tuple[tuple[str, object], ...]:
    """The params of a rule broken for several reasons (``contract-not-allowed``,
    ``counter-nothing``, ``counter-own-side``): which ``reason``, and the
    ``turned`` suit letter where the sentence names it."""
    return (("reason", reason),) + ((("turned", turned),) if turned else ())


class CallError(ValueError):
    """A text that is not a call of the auction."""


@dataclass(frozen=True)
class Call:
    """One parsed call. ``kind``: pass | bid | capot | counter | recounter | take."""

    kind: str
    value: Optional[int] = None      # bid
    mode: Optional[int] = None       # trump mode (referee.trump_tables) of a bid, capot, take
                                     # (None: take the turned suit)

    @property
    def text(self) -> str:
        if self.kind == "bid":
            return f"{self.value}{MODE_NAMES[self.mode]}"
        if self.kind == "capot":
            return f"capot{MODE_NAMES[self.mode]}"
        if self.kind == "take" and self.mode is not None:
            return f"take{MODE_NAMES[self.mode]}"
        return self.kind


# A bid's value has at most 3 digits (ASCII: int() would also read other scripts' digits, and any
# number of them, which then fails far from here).
_CALL_RE = re.compile(r"^(?:(?P<value>[0-9]{1,3})|(?P<capot>capot)|(?P<take>take))(?P<mode>sa|ta|[shdc])?$")


def parse_call(text: str) -> Call:
    """Parse a call text of the record.

    >>> parse_call("100ta"), parse_call("capotH").text, parse_call("take").text
    (Call(kind='bid', value=100, mode=5), 'capoth', 'take')
    >>> parse_call("80")
    Traceback (most recent call last):
    ...
    referee.auction.CallError: '80' is not a call: write pass, a bid like 80h (80..160, then s h d c sa ta), capoth, counter, recounter; classic: take, takes/takeh/taked/takec
    """
    t = str(text).strip().lower()
    for i, sym in enumerate(SUIT_SYMBOLS):
        t = t.replace(sym, MODE_NAMES[i])
    if t in ("pass", "counter", "recounter"):
        return Call(t)
    m = _CALL_RE.match(t)
    if m:
        mode = MODE_NAMES.index(m["mode"]) if m["mode"] else None
        if m["take"]:
            if mode is None or mode < NO_TRUMP:
                return Call("take", mode=mode)
        elif mode is not None:
            if m["capot"]:
                return Call("capot", mode=mode)
            return Call("bid", value=int(m["value"]), mode=mode)
    shown = repr(text) if len(str(text)) <= 20 else repr(str(text)[:17] + "...")
    raise CallError(f"{shown} is not a call: write pass, a bid like 80h (80..160, then s h d c sa ta), "
                    f"capoth, counter, recounter; classic: take, takes/takeh/taked/takec")


@dataclass(frozen=True)
class Contract:
    """What the auction decided. ``value`` is None for a capot bid and in
    classic belote; ``counter`` is the multiplier: 1, or the counter / re-counter
    multipliers (2 / 4 by default)."""

    taker: Seat
    mode: int
    value: Optional[int]
    capot: bool
    counter: int
    call: str

    @property
    def team(self) -> int:
        return team_of(self.taker)

    def as_dict(self) -> dict:
        """DESIGN's ``contract`` object: ``{"taker":"E","call":"100h","counter":1}``."""
        return {"taker": SEAT_NAMES[self.taker], "call": self.call, "counter": self.counter}


class Auction:
    """One hand's auction; feed it calls with :meth:`apply` until :attr:`done`.

    After it is done, :attr:`contract` is the contract, or None when everyone
    passed (:attr:`all_passed`).
    """

    def __init__(self, options: Options, dealer: Seat, turned: Optional[Card] = None):
        if options.auction == "classic" and turned is None:
            raise CallError("a classic auction needs the turned card (the deal's \"turned\")")
        self.options = options
        self.dealer = dealer
        self.turned = turned
        self.to_speak: Optional[Seat] = next_seat(dealer, options.clockwise)
        self.calls: list[tuple[Seat, str]] = []
        self.done = False
        self.contract: Optional[Contract] = None
        self.round = 1                       # classic: taking round 1 or 2
        self._passes = 0
        self._bid: Optional[Call] = None     # contrée: the last bid or capot
        self._bidder: Optional[Seat] = None
        self._counter = 1                    # 1, counter or re-counter multiplier

    @property
    def all_passed(self) -> bool:
        return self.done and self.contract is None

    @property
    def last_bid(self) -> Optional[str]:
        return self._bid.text if self._bid else None

    @property
    def countered(self) -> int:
        return self._counter

    def apply(self, seat: Seat, call: str | Call) -> list[Violation]:
        """Apply ``seat``'s call; an illegal call returns its violation and
        changes nothing. Raises :class:`CallError` if ``call`` is not a call."""
        parsed = call if isinstance(call, Call) else parse_call(call)
        text = parsed.text
        if self.done:
            return [self._violation("auction-over", seat, text, "the auction is over: play the first card")]
        if seat != self.to_speak:
            return [self._violation("out-of-turn", seat, text,
                                    f"{SEAT_NAMES[seat]} spoke out of turn: it is {SEAT_NAMES[self.to_speak]}'s turn",
                                    (("turn", SEAT_NAMES[self.to_speak]),))]
        check = self._check_classic if self.options.auction == "classic" else self._check_contree
        problem = check(seat, parsed)
        if problem:
            params = problem[2] if len(problem) > 2 else self._params(problem[0])
            return [self._violation(problem[0], seat, text, problem[1], params)]
        self.calls.append((seat, text))
        (self._take_classic if self.options.auction == "classic" else self._take_contree)(seat, parsed)
        self.to_speak = None if self.done else next_seat(seat, self.options.clockwise)
        return []

    def legal_calls(self) -> list[str]:
        """Every call the player to speak may make now (for consoles and bots)."""
        if self.done:
            return []
        modes = self._modes()
        if self.options.auction == "classic":
            cands = [Call("pass"), Call("take")] + [Call("take", mode=m) for m in range(4)]
        else:
            o = self.options
            cands = [Call("pass"), Call("counter"), Call("recounter")]
            cands += [Call("bid", value=v, mode=m) for v in range(o.bid_min, o.bid_max + 1, o.bid_step) for m in modes]
            cands += [Call("capot", mode=m) for m in modes]
        check = self._check_classic if self.options.auction == "classic" else self._check_contree
        return [c.text for c in cands if not check(self.to_speak, c)]

    # --- contrée ---------------------------------------------------------
    def _modes(self) -> list[int]:
        return [0, 1, 2, 3] + ([NO_TRUMP] if self.options.no_trump else []) + (
            [ALL_TRUMP] if self.options.all_trump else [])

    def _check_contree(self, seat: Seat, call: Call) -> Optional[tuple]:
        o = self.options
        if call.kind == "pass":
            return None
        if call.kind == "take":
            return ("contract-not-allowed", "this is a contrée auction: bid (e.g. 80h), counter or pass",
                    _why("contree"))
        if call.kind in ("bid", "capot"):
            if self._counter > 1:
                return "bid-after-counter", "the contract was countered: only pass or re-counter now"
            if self._bid is not None and self._bid.kind == "capot":
                return "bid-after-capot", "nothing can be bid over a capot: pass or counter"
            if call.mode not in self._modes():
                return ("contract-not-allowed", f"{_MODE_WORDS[call.mode]} contracts are not played with these rules",
                        _why("mode"))
            if call.kind == "capot":
                return None if o.capot_bid else ("contract-not-allowed", "capot cannot be bid with these rules",
                                                 _why("capot"))
            v = call.value
            if v < o.bid_min:
                return "bid-too-low", f"a bid is at least {o.bid_min}"
            if (v - o.bid_min) % o.bid_step:
                return "bid-step", (f"bids go by {o.bid_step}: {v} is not one of {o.bid_min}, "
                                    f"{o.bid_min + o.bid_step}, ...")
            if v > o.bid_max:
                return "bid-over-max", f"the highest bid is {o.bid_max}" + (", then capot" if o.capot_bid else "")
            if self._bid is not None and v <= self._bid.value:
                return "bid-not-higher", f"{v} does not beat the last bid {self._bid.text}"
            return None
        if not o.counter:
            return "contract-not-allowed", "counters are not played with these rules", _why("no-counter")
        if call.kind == "counter":
            if self._bid is None:
                return "counter-nothing", "there is no bid to counter yet", _why("no-bid")
            if self._counter > 1:
                return "counter-nothing", "the contract is already countered", _why("countered")
            if team_of(seat) == team_of(self._bidder):
                return "counter-own-side", "only an opponent of the last bidder may counter", _why("counter")
            return None
        if self._counter == 1:
            return "recounter-not-countered", "only a countered contract can be re-countered"
        if team_of(seat) != team_of(self._bidder):
            return "counter-own-side", "only the bidding side may re-counter", _why("recounter")
        return None

    def _take_contree(self, seat: Seat, call: Call) -> None:
        o = self.options
        if call.kind == "pass":
            self._passes += 1
            if self._bid is None and self._passes == 4:
                self.done = True
            elif self._bid is not None and self._passes == 3:
                self._finish()
            return
        self._passes = 0
        if call.kind in ("bid", "capot"):
            self._bid, self._bidder = call, seat
        elif call.kind == "counter":
            self._counter = o.counter_multiplier
        else:  # recounter ends the auction (000 §4.1)
            self._counter = o.recounter_multiplier
            self._finish()

    def _finish(self) -> None:
        b = self._bid
        self.contract = Contract(self._bidder, b.mode, b.value, b.kind == "capot", self._counter, b.text)
        self.done = True

    # --- classic ---------------------------------------------------------
    def _check_classic(self, seat: Seat, call: Call) -> Optional[tuple]:
        turned = suit_of(self.turned)
        if call.kind == "pass":
            return None
        if call.kind != "take":
            return ("contract-not-allowed", "classic belote: take, take a suit in the second round, or pass",
                    _why("classic"))
        if self.round == 1:
            if call.mode not in (None, turned):
                return "contract-not-allowed", (f"first round: only the turned suit {_MODE_WORDS[turned]} "
                                                f"can be taken (say take)"), _why("first-round", SUITS[turned])
            return None
        if call.mode is None:
            return "contract-not-allowed", "second round: name the trump suit (e.g. takes)", _why("second-round")
        if call.mode == turned and not self.options.second_round_turned_suit:
            return "contract-not-allowed", (f"second round: name a suit other than the turned "
                                            f"{_MODE_WORDS[turned]}"), _why("second-round-turned", SUITS[turned])
        return None

    def _take_classic(self, seat: Seat, call: Call) -> None:
        if call.kind == "pass":
            self._passes += 1
            if self._passes == 4:
                self.round, self._passes = self.round + 1, 0
                self.done = self.round > 2
            return
        mode = suit_of(self.turned) if call.mode is None else call.mode
        text = "take" if self.round == 1 else call.text
        self.contract = Contract(seat, mode, None, False, 1, text)
        self.done = True

    def _violation(self, rule: str, seat: Seat, call: str, reason: str,
                   params: tuple[tuple[str, object], ...] = ()) -> Violation:
        return Violation(rule=rule, seat=seat, call=call, params=params,
                         message=f"{SEAT_NAMES[seat]} called {call}: {reason}")

    def _params(self, rule: str) -> tuple[tuple[str, object], ...]:
        """The figures a bid violation's sentence names (:attr:`Violation.params`)."""
        o = self.options
        return {"bid-too-low": (("min", o.bid_min),), "bid-step": (("step", o.bid_step), ("min", o.bid_min)),
                "bid-over-max": (("max", o.bid_max),), "bid-not-higher": (("last", self.last_bid),)}.get(rule, ())

    def state(self) -> dict:
        """A JSON-able summary for screens."""
        return {"to_speak": SEAT_NAMES[self.to_speak] if self.to_speak is not None else None,
                "calls": [{"seat": SEAT_NAMES[s], "call": c} for s, c in self.calls],
                "round": self.round, "last_bid": self.last_bid, "counter": self._counter,
                "done": self.done,
                "contract": self.contract.as_dict() if self.contract else None}
