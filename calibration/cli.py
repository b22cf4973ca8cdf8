"""``belote-table calibrate ...``: teaching the table its deck, camera, zones and tags.

Each sub-command is added by one ``add_*`` function listed in ``SUBCOMMANDS``;
another part adds its own by appending one ``"module:function"`` line there
(the function receives the ``calibrate`` group's subparsers). Keep those
modules light to import: heavy imports go inside the handlers.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: ``"module:function"`` adding one ``calibrate`` sub-command each, in ``--help`` order.
SUBCOMMANDS = (
    "calibration.cli:add_deck",
)


def register(subparsers) -> None:
    group = subparsers.add_parser("calibrate", help="calibrate the table: deck, camera, zones, tags",
                                  description="Calibrate the table and write its profile.")
    sub = group.add_subparsers(dest="calibrate_command", metavar="SUBCOMMAND", required=True)
    for entry in SUBCOMMANDS:
        module, function = entry.split(":")
        getattr(importlib.import_module(module), function)(sub)


def add_deck(sub) -> None:
    p = sub.add_parser(
        "deck", help="enrol a deck from photos of single cards",
        description="Enrol a deck from photos of single cards lying face up on the table, one card per "
                    "photo, each named after its card: Jh.jpg, Jh_2.png, 10h_top.jpg, QH.jpg. Blurred or "
                    "misplaced shots are refused with the reason; every one of the 32 cards needs at least "
                    "one accepted photo, or nothing is written.")
    p.add_argument("--images", required=True, metavar="DIR", help="directory of card photos")
    p.add_argument("--out", required=True, metavar="DECK", help="deck directory to write")
    p.add_argument("--partial", action="store_true",
                   help="write the deck even if some cards have no usable photo (they will never be read)")
    p.set_defaults(func=_deck)


def _deck(args: argparse.Namespace) -> int:
    from .deck import enrol_from_directory

    return enrol_from_directory(args.images, args.out, partial=args.partial)
