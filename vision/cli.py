"""``belote-table vision ...``: reading cards in photos, and measuring it.

Each sub-command is added by one ``add_*`` function listed in ``SUBCOMMANDS``;
another part adds its own by appending one ``"module:function"`` line there
(the function receives the group's subparsers). Heavy imports (OpenCV) happen
inside the handlers, so the dispatcher starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

#: ``"module:function"`` adding one ``vision`` sub-command each, in ``--help`` order.
SUBCOMMANDS = (
    "vision.cli:add_recognize",
    "vision.cli:add_evaluate",
    "vision.cli:add_watch",
    "vision.cli:add_render",
)


def register(subparsers) -> None:
    from referee.cli import add_plugged_group

    add_plugged_group(subparsers, "vision", SUBCOMMANDS, help="find and read cards in images",
                      description="Find and read cards in images.")


def add_recognize(sub) -> None:
    p = sub.add_parser(
        "recognize", help="find and read every face-up card in images",
        description="Find and read every card lying face up in each image. A card that cannot be read "
                    "with confidence is listed with card null, never guessed. An image that cannot be read "
                    "is reported on stderr and skipped; the others are still processed, and the exit "
                    "status is then 2.")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--deck", required=True, metavar="DECK", help="enrolled deck directory (calibrate deck)")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line")
    p.set_defaults(func=_recognize)


def _recognize(args: argparse.Namespace) -> int:
    import cv2

    from .deck import Deck, DeckError
    from .recognize import recognize

    try:
        deck = Deck.load(args.deck)
    except DeckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if deck.partial_note():
        print(deck.partial_note(), file=sys.stderr)
    status = 0
    for path in args.images:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            print(f"error: {path}: cannot be read as an image (missing, or not a JPEG/PNG); skipped",
                  file=sys.stderr)
            status = 2
            continue
        cards = recognize(image, deck)
        if args.json:
            print(json.dumps({"image": path, "cards": cards}), flush=True)
        else:
            names = " ".join(c["card"] or "?" for c in cards) or "(no card)"
            print(f"{path}: {names}", flush=True)
        unread = sum(1 for c in cards if c["card"] is None)
        print(f"{path}: {len(cards)} card(s), {unread} unread", file=sys.stderr)
    return status


def add_evaluate(sub) -> None:
    p = sub.add_parser(
        "evaluate", help="measure card reading on a labelled photo set",
        description="Enrol a deck from part of a labelled photo set as a new user would (one single-card photo "
                    "per card, through calibrate deck's checks) and report read-right, read-wrong and abstention "
                    "rates on the other photos (a tuning half and a reporting half), with a confusion matrix and a "
                    "reliability plot per set; then bidly_deals' overlapping deals and rendered photo sets.")
    p.add_argument("--dataset", metavar="DIR", default=None,
                   help="a YOLO-labelled set like shared/datasets/cardcounter_real (default: that one)")
    p.add_argument("--out", metavar="DIR", default="vision-evaluation",
                   help="where to write report.json, confusion PNGs and the enrolled deck")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="test on at most N photos per set")
    p.add_argument("--rendered", type=int, default=2, metavar="K",
                   help="overhead scenes rendered per card from real card photos (0: none)")
    p.add_argument("--bidly", metavar="DIR", default="default",
                   help="shared/datasets/bidly_deals (default: beside the default dataset, when --dataset is not given)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=_evaluate)


def _evaluate(args: argparse.Namespace) -> int:
    from .evaluate import EvaluationError, format_table, run_evaluation

    try:
        report = run_evaluation(args.dataset, args.out, limit=args.limit, rendered_per_card=args.rendered,
                                progress=lambda m: print(m, file=sys.stderr, flush=True), bidly=args.bidly)
    except EvaluationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_table(report), flush=True)
    return 0


# -- watching a table, rendering one (handlers in vision.pipeline and vision.render) ----------

def lazy(target: str):
    """A handler (``"module:function"``) that imports its OpenCV-heavy module only when
    the command runs; the ``calibrate`` group uses it too."""
    def handler(args):
        module, function = target.split(":")
        return getattr(importlib.import_module(module), function)(args)
    return handler


def add_watch(sub) -> None:
    p = sub.add_parser("watch", help="watch a table and print what the camera observes",
                       description="Run the camera pipeline on a source and print each observation (card "
                                   "landed in a zone, zone cleared, camera moved) as it happens.")
    p.add_argument("--source", required=True, metavar="S", help="camera index, video, stream or image folder")
    p.add_argument("--profile", required=True, metavar="DIR", help="calibrated table profile")
    p.add_argument("--deck", metavar="DECK", help="enrolled deck (default PROFILE/deck)")
    p.add_argument("--thumbnails", metavar="DIR", help="save the face each observation was read from")
    p.add_argument("--live", action="store_true", help="drop frames like a live camera, even for a file")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=lazy("vision.pipeline:command_watch"))


def add_render(sub) -> None:
    p = sub.add_parser("render", help="render a video of a simulated table (tests, demos)",
                       description="Render a few tricks of a simulated game as the table camera would see "
                                   "them, with the truth of what happened beside it (.truth.json).")
    p.add_argument("--out", required=True, metavar="PATH", help="video file (.mp4/.avi) or folder for PNG frames")
    p.add_argument("--size", default="1920x1080", help="WIDTHxHEIGHT (default 1920x1080)")
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--tricks", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tilt", type=float, default=20.0, help="camera tilt from straight down, degrees")
    p.add_argument("--french", action="store_true", help="French indices R D V")
    p.add_argument("--four-colour", action="store_true", help="four-colour suits")
    p.set_defaults(func=lazy("vision.render:command"))
