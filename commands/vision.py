"""``belote-table vision ...``: reading cards in photos and measuring it, watching
a table through its camera, rendering a simulated one.

Heavy imports (OpenCV) happen inside the handlers, so the dispatcher starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .output import fail, say


def register(subparsers: argparse._SubParsersAction) -> None:
    group = subparsers.add_parser("vision", help="find and read cards in images",
                                  description="Find and read cards in images.")
    sub = group.add_subparsers(dest="vision_command", metavar="SUBCOMMAND", required=True)
    for add in (add_recognize, add_evaluate, add_watch, add_render):
        add(sub)


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

    from vision.deck import Deck, DeckError
    from vision.recognize import recognize

    try:
        deck = Deck.load(args.deck)
    except DeckError as exc:
        return fail(str(exc))
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
    p.add_argument("--rendered", type=int, default=6, metavar="K",
                   help="rendered protocols: K webcam shots per card, 3K French photos per set (0: none)")
    p.add_argument("--rendered-decks", metavar="A,B", default=None,
                   help="face sources to render (bidly-scans, cardcounter-cut, drawn-french; default all)")
    p.add_argument("--rendered-sets", metavar="A,B", default=None,
                   help="rendered sets (webcam-light-grey, webcam-beige, webcam-white, french-dark, french-green)")
    p.add_argument("--halves", default="report", metavar="H",
                   help="halves of the rendered sets: report, tune or report,tune (default report)")
    p.add_argument("--no-real", action="store_true", help="rendered sets only (no real photo set)")
    p.add_argument("--no-label-fixes", action="store_true",
                   help="count against the data set's labels as given, without vision/label_fixes.csv's corrections")
    p.add_argument("--bidly", metavar="DIR", default="default",
                   help="shared/datasets/bidly_deals (default: beside the default dataset, when --dataset is not given)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=_evaluate)


def _evaluate(args: argparse.Namespace) -> int:
    from vision.evaluate import EvaluationError, format_table, run_evaluation

    try:
        split = lambda v: v.split(",") if v else None                  # noqa: E731
        report = run_evaluation(args.dataset, args.out, limit=args.limit, rendered_per_card=args.rendered,
                                progress=lambda m: print(m, file=sys.stderr, flush=True), bidly=args.bidly,
                                real=not args.no_real, rendered_decks=split(args.rendered_decks),
                                rendered_sets=split(args.rendered_sets), rendered_halves=split(args.halves),
                                fix_labels=not args.no_label_fixes)
    except EvaluationError as exc:
        return fail(str(exc))
    print(json.dumps(report) if args.json else format_table(report), flush=True)
    return 0


# -- watching a table, rendering one --------------------------------------------------------

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
    p.set_defaults(func=_watch)


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
    p.set_defaults(func=_render)


def _watch(args: argparse.Namespace) -> int:
    """Observations, one per line, as the camera makes them."""
    from calibration.profile import ProfileError, TableProfile
    from vision.capture import Capture, CaptureError
    from vision.deck import Deck, DeckError
    from vision.pipeline import FrameSizeError, Pipeline, observation_json

    profile = TableProfile(args.profile)
    try:
        profile.view()                         # the table first: without it nothing else matters
        deck = Deck.load(args.deck or profile.deck_dir())
        pipeline = Pipeline.from_profile(profile, deck, thumbnails=args.thumbnails)
        cap = Capture(args.source, live=args.live or None)
    except (ProfileError, DeckError, CaptureError) as exc:
        return fail(str(exc))
    if deck.partial_note():
        say(deck.partial_note())
    with cap:
        try:
            for frame in cap:
                if frame.index % 300 == 0:
                    say(f"frame {frame.index} (t={frame.t:.1f} s, {cap.dropped} dropped)")
                for obs in pipeline.process(frame.t, frame.image):
                    o = observation_json(obs)
                    text = json.dumps(o) if args.json else " ".join(f"{k}={v}" for k, v in o.items() if k != "evidence")
                    print(text, flush=True)
        except (FrameSizeError, CaptureError) as exc:    # another resolution; a camera gone silent
            return fail(str(exc))
    return 0


def _render(args: argparse.Namespace) -> int:
    """A rendered game clip (a video, or a folder of PNG frames) and its truth beside it."""
    import cv2

    from referee.cards import card_name
    from vision.faces import builtin_faces
    from vision.render import SceneRenderer, TableScene, demo_script

    w, h = (int(v) for v in args.size.lower().split("x"))
    scene = TableScene.square(size=(w, h), tilt_deg=args.tilt)
    renderer = SceneRenderer(builtin_faces(french=args.french, four_colour=args.four_colour), scene,
                             seed=args.seed, size=(w, h))
    out = Path(args.out)
    if out.suffix:
        writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), args.fps, (w, h))
        if not writer.isOpened():
            return fail(f"cannot write {out}: use .mp4 or .avi, or a folder name for PNG frames")
    else:
        out.mkdir(parents=True, exist_ok=True)
        writer = None
    n = 0
    for n, (t, frame) in enumerate(renderer.frames(demo_script(args.seed, args.tricks), args.fps)):
        if writer is not None:
            writer.write(frame)
        else:
            cv2.imwrite(str(out / f"{n:05d}.png"), frame)
        if n % 100 == 0:
            say(f"frame {n} (t={t:.1f} s)")
    if writer is not None:
        writer.release()
    truth = out.with_suffix(".truth.json") if out.suffix else out / "truth.json"
    truth.write_text(json.dumps([{"kind": x.kind, "zone": x.zone, "card": card_name(x.card) if x.card is not None else None,
                                  "t_rest": round(x.t_rest, 3), "t_still": round(x.t_still, 3)}
                                 for x in renderer.truth], indent=1) + "\n")
    print(out)
    say(f"{n + 1} frames; what happened is in {truth}")
    return 0
