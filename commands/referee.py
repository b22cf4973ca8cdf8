"""``belote-table referee ...``: the rules engine on its own (legal, check,
profiles) and the terminal ``demo``; the table referee's own sub-commands
(simulate, ingest, export) are added from :mod:`commands.table`.

Results go to stdout, everything meant for a person to stderr; bad input exits
2 with a message that says what to fix (a record's errors name the line).
Only the standard library and ``referee`` are imported here, lazily where it
matters, so the commands start fast.
"""

from __future__ import annotations

import argparse
import json
import sys

from .output import fail


def register(subparsers: argparse._SubParsersAction) -> None:
    referee = subparsers.add_parser("referee", help="the rules engine: legal cards, check a game record, profiles",
                                    description="The rules engine on its own, without a table.")
    sub = referee.add_subparsers(dest="referee_command", metavar="COMMAND", required=True)

    legal = sub.add_parser("legal", help="the legal cards of a hand on a trick",
                           description="Print the legal cards of the hand of the player to play next, "
                                       "space-separated, in the order given.")
    _rules_args(legal)
    legal.add_argument("--trump", required=True, help="trump mode: s h d c, sa (no trump) or ta (all trump)")
    legal.add_argument("--trick", default="", help='cards already played to the trick, leader first, e.g. "As 7s"')
    legal.add_argument("--hand", required=True, help='the cards of the player to play, e.g. "Ks 9s Jh"')
    legal.add_argument("--explain", action="store_true",
                       help="also say on stderr why each other card is illegal (the player to play is S)")
    legal.set_defaults(func=_legal)

    check = sub.add_parser("check", help="replay a game record: contracts, points, scores, violations",
                           description="Replay a JSON Lines game record and print each hand's contract, card "
                                       "points, score, result and violations, then the totals and the winner.")
    check.add_argument("record", metavar="GAME.jsonl", help="the game record (- reads it from stdin)")
    check.add_argument("--json", action="store_true", help="print one JSON object (DESIGN's shape)")
    check.add_argument("--strict", action="store_true", help="exit 1 when the game has violations")
    check.set_defaults(func=_check)

    profiles = sub.add_parser("profiles", help="the rules profiles with their options and notes")
    profiles.add_argument("--json", action="store_true", help="one JSON object: profile -> options and notes")
    profiles.set_defaults(func=_profiles)

    # The terminal demo; the top-level `belote-table demo` is the dashboard's (commands/web.py).
    _demo_args(sub.add_parser("demo", help="play a seeded simulated game in the terminal",
                              description=_DEMO_TEXT))
    from . import solve, table_referee
    table_referee.register_referee(sub)   # the table referee's simulate, ingest, export
    solve.register_referee(sub)           # the double-dummy analysis


_DEMO_TEXT = ("Play a short seeded game with simulated players through the rules engine and print the "
              "deals, calls, plays, violations and the score sheet.")


def _demo_args(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--rules", default="ffb-contree", help="rules profile (default ffb-contree)")
    demo.add_argument("--hands", type=int, default=4, help="hands to play (0: to the target score)")
    demo.add_argument("--record", metavar="FILE", help="also write the game record to FILE")
    demo.set_defaults(func=_demo)


def _rules_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="ffb-contree", help="rules profile (see `referee profiles`)")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="override a rule option, e.g. --option undertrump=must (repeatable)")


def _legal(args: argparse.Namespace) -> int:
    from referee.cards import CardError, card_name, parse_cards
    from referee.play import PlayError, cards_in_order, legal_cards
    from referee.rules import RulesError, parse_overrides, profile
    from referee.trump_tables import parse_trump

    try:
        options = profile(args.rules, **parse_overrides(args.option))
        trump = parse_trump(args.trump)
        trick = parse_cards(args.trick)
        hand = parse_cards(args.hand)
        if len(set(hand)) != len(hand):
            raise PlayError("the hand lists the same card twice")
        mask = legal_cards(options, trump, trick, hand)
    except (CardError, RulesError, PlayError) as exc:
        return fail(str(exc))
    print(" ".join(card_name(c) for c in cards_in_order(mask, hand)))
    if args.explain:
        for line in _why_illegal(options, trump, trick, hand, mask):
            print(line, file=sys.stderr)
    return 0


def _why_illegal(options, trump: int, trick: list[int], hand: list[int], legal: int) -> list[str]:
    """One line per illegal card of ``hand``: the rule and the play engine's sentence, with the
    player to play seated at S and the trick's players before them."""
    from referee.cards import card_name, mask_of
    from referee.play import HandPlay
    from referee.seats import SOUTH

    step = 1 if options.clockwise else 3
    leader = (SOUTH - len(trick) * step) & 3
    hands = [0, 0, 0, 0]
    for i, card in enumerate(trick):
        hands[(leader + i * step) & 3] = 1 << card
    hands[SOUTH] = mask_of(hand)
    state = HandPlay(trump, leader, options, hands)
    for card in trick:
        state.play(card)
    lines = []
    for card in hand:
        if not legal >> card & 1:
            violation = state.copy().play(card)
            lines.append(f"{card_name(card)}: {violation.rule}: {violation.message}")
    return lines


def _check(args: argparse.Namespace) -> int:
    from referee.game import Game
    from referee.record import RecordError, read_record
    from referee.scoresheet import scoresheet_text

    source = "<stdin>" if args.record == "-" else args.record
    try:
        events = read_record(args.record)
        game = Game.from_events(events, source)
    except RecordError as exc:
        return fail(str(exc))
    if game.phase in ("auction", "play"):
        where = "the auction" if game.phase == "auction" else f"trick {game.play.trick_number}"
        print(f"{source}: the record ends during hand {game.hand_number} ({where}); "
              f"that hand is not scored", file=sys.stderr)
    summary = game.summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(scoresheet_text(game, title=source))
    violations = sum(len(h["violations"]) for h in summary["hands"])
    return 1 if args.strict and violations else 0


def _profiles(args: argparse.Namespace) -> int:
    import textwrap

    from referee.rules import PROFILE_NOTES, PROFILES, Options, option_choices

    if args.json:
        print(json.dumps({name: {"options": opts.as_dict(), "notes": PROFILE_NOTES[name]}
                          for name, opts in PROFILES.items()}, ensure_ascii=False))
        return 0
    default = Options()
    for name, opts in PROFILES.items():
        print(name)
        print(textwrap.fill(PROFILE_NOTES[name], width=100, initial_indent="  ", subsequent_indent="  "))
        shown = [f"{k}={_show(v)}" for k, v in opts.as_dict().items()
                 if getattr(default, k) != v or k in ("auction", "scoring", "target")]
        print(textwrap.fill("options: " + ", ".join(shown), width=100, initial_indent="  ",
                            subsequent_indent="    "))
    print("\nEvery option, with its default (override with --option key=value or the record's \"options\"):")
    for key, value in default.as_dict().items():
        choices = option_choices(key)
        print(f"  {key}={_show(value)}" + (f"   ({' | '.join(choices)})" if choices else ""))
    return 0


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _demo(args: argparse.Namespace) -> int:
    from referee.demo import play_demo_game, print_game
    from referee.record import write_record
    from referee.rules import RulesError, profile

    try:
        profile(args.rules)
    except RulesError as exc:
        return fail(str(exc))
    print(f"playing a seeded game (seed {args.seed}, {args.rules})...", file=sys.stderr)
    events = play_demo_game(seed=args.seed, rules=args.rules, max_hands=args.hands or None)
    if args.record:
        write_record(args.record, events)
        print(f"record written to {args.record}", file=sys.stderr)
    print_game(events, sys.stdout)
    return 0
