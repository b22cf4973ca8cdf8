"""``belote-table calibrate ...``: teaching the table its deck, markers, camera, zones and tags.

Every sub-command writes into one table profile directory
(:class:`calibration.profile.TableProfile`), except ``deck`` and ``markers``,
which write a folder of their own. The handlers compose the parts: the
geometry is ``calibration``'s, frames come from ``vision.capture``, the deck's
enrolment is ``vision.enrol``'s and the tags' wizard is ``firmware_bridge.enrol``'s.
Heavy imports (OpenCV, pyserial) happen inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .bridge import READERS, codec_factory
from .output import fail, say


def register(subparsers: argparse._SubParsersAction) -> None:
    group = subparsers.add_parser("calibrate", help="calibrate the table: deck, camera, zones, tags",
                                  description="Calibrate the table and write its profile.")
    sub = group.add_subparsers(dest="calibrate_command", metavar="SUBCOMMAND", required=True)

    p = sub.add_parser(
        "deck", help="enrol a deck from photos of single cards",
        description="Enrol a deck from photos of single cards lying face up on the table, one card per "
                    "photo, each named after its card: Jh.jpg, Jh_2.png, 10h_top.jpg, QH.jpg. Blurred or "
                    "misplaced shots are refused with the reason; every one of the 32 cards needs at least "
                    "one accepted photo, or nothing is written. With --live, enrol at the table from its own "
                    "camera instead: each card is asked for in turn. The deck folder gets contact-sheet.png "
                    "(the faces learnt) and refused.png (each refused shot with its reason).")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--images", metavar="DIR", help="directory of card photos")
    src.add_argument("--live", metavar="SOURCE",
                     help="the table's camera (index, /dev/videoN, stream URL, video file or image folder)")
    p.add_argument("--out", required=True, metavar="DECK", help="deck directory to write")
    p.add_argument("--partial", action="store_true",
                   help="write the deck even if some cards have no usable photo (they will never be read)")
    p.set_defaults(func=_deck)

    p = sub.add_parser("markers", help="write the printable corner markers and ChArUco board (PDF at true scale)",
                       description="Write the four table-corner ArUco markers and a ChArUco board as PDF "
                                   "(print at 100%%, actual size) and PNG.")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--marker-mm", type=float, default=60.0, help="printed marker side (default 60)")
    p.set_defaults(func=_markers)

    p = sub.add_parser("camera", help="camera intrinsics from views of the ChArUco board",
                       description="Compute the camera's focal length and lens distortion from 10-20 views of "
                                   "the printed ChArUco board (a folder of images, a video or a camera).")
    p.add_argument("--source", required=True, metavar="S", help="folder of images, video file or camera index")
    p.add_argument("--profile", required=True, metavar="DIR", help="table profile directory (camera.json)")
    p.add_argument("--every", type=int, default=1, metavar="N", help="use one frame in N of a video (default 1)")
    p.set_defaults(func=_camera)

    p = sub.add_parser("table", help="table homography from the corner markers, zones and their preview",
                       description="Find the four corner markers in the camera view, compute the table "
                                   "homography, write the profile (table.json, zones.json if absent) and "
                                   "zones.png, the zones drawn over the camera view.")
    p.add_argument("--source", required=True, metavar="S", help="camera index, video, stream or image folder")
    p.add_argument("--profile", required=True, metavar="DIR", help="table profile directory")
    p.add_argument("--width-mm", type=float, default=0.0,
                   help="table width; the corner markers sit 15 mm in from its edges "
                        "(default: the profile's, else 800)")
    p.add_argument("--height-mm", type=float, default=0.0, help="its height (default: the width)")
    p.add_argument("--marker-mm", type=float, default=60.0)
    p.set_defaults(func=_table)

    p = sub.add_parser("zones", help="write the zones and draw them over the camera view",
                       description="Write zones.json (table millimetres; defaults for the table's size) and "
                                   "a picture of the zones over the camera view.")
    p.add_argument("--profile", required=True, metavar="DIR")
    p.add_argument("--source", metavar="S", help="camera or image to draw over (default: a plain background)")
    p.add_argument("--out", metavar="PNG", help="preview picture (default PROFILE/zones.png)")
    p.add_argument("--reset", action="store_true", help="replace zones.json with the defaults")
    p.set_defaults(func=_zones)

    p = sub.add_parser(
        "tags", help="enrol a deck's RFID tags, card by card",
        description="Asks for each of the 32 cards in turn, reads its tag, refuses a tag already "
                    "enrolled, retries misreads, and writes DIR/tags.csv after every card "
                    "(run it again to resume).")
    p.add_argument("--port", required=True, metavar="URL", help="the table's serial port (pyserial URL)")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="the table profile directory")
    p.add_argument("--antenna", type=int, default=0, help="the antenna to lay each card on (default 0)")
    p.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="seconds to wait for each card before asking again (default 30)")
    p.add_argument("--restart", action="store_true", help="forget the cards already in tags.csv")
    p.add_argument("--reader", default="table", choices=READERS,
                   help="'table' (default), or a single off-the-shelf reader: 'uid-lines', 'pn532'")
    p.set_defaults(func=_tags)


def _deck(args: argparse.Namespace) -> int:
    from referee.cards import CARD_NAMES
    from vision.confidence import told_apart
    from vision.deck import DeckError
    from vision.enrol import enrol_deck

    if args.live is not None:
        return _deck_live(args.live, args.out)
    try:
        deck, problems = enrol_deck(args.images, args.out, progress=say, require_all=not args.partial)
    except DeckError as exc:
        return fail(str(exc))
    for problem in problems:
        say(f"warning: {problem}")
    missing = deck.missing()
    unsure = [c for c in deck.cards if not told_apart(c, deck)]
    tail = f"; never read (no photo): {', '.join(CARD_NAMES[c] for c in missing)}" if missing else ""
    if unsure:
        tail += f"; never read surely (each looks like one of those): {', '.join(CARD_NAMES[c] for c in unsure)}"
    say(f"deck written to {args.out}: {len(deck.cards)} cards{tail}")
    _learn_corners(args.out)
    return 0


def _learn_corners(out: str) -> None:
    """The index-corner reader's model (``vision.corner_read``), learnt now
    and kept beside the faces (``corners.npz``): it takes a few seconds per
    deck, which a table's pipeline or the first ``vision recognize`` would
    otherwise spend when it starts."""
    from referee.cards import CARD_NAMES
    from vision.corner_read import corner_model
    from vision.deck import Deck

    say("learning the deck's index corners (for heaps and fans; a few seconds)")
    deck = Deck.load(out)
    model = corner_model(deck)
    unlearnt = [CARD_NAMES[c] for c in deck.cards if c not in model.anchors]
    if unlearnt:
        say(f"warning: no clear index found on the face of {', '.join(unlearnt)}: read whole only, never from "
            f"a corner in a heap or fan (check those faces on the contact sheet)")
    say(f"index-corner model kept in {Path(out) / 'corners.npz'}")


def _deck_live(source: str, out: str) -> int:
    """The 32 cards shown to the table's camera one at a time, each asked for on
    stderr; nothing is written unless every card was seen."""
    from referee.cards import card_name
    from vision.capture import Capture, CaptureError
    from vision.enrol import LiveEnrolment

    live = LiveEnrolment()
    said = ""
    try:
        with Capture(source) as cap:
            say(f"show {card_name(live.expected)} face up under the camera, alone on the table")
            for frame in cap:
                verdict = live.offer(frame.image)
                if verdict.message != said:
                    say(verdict.message)
                    said = verdict.message
                if live.done:
                    break
    except CaptureError as exc:
        return fail(str(exc))
    if not live.done:
        missing = ", ".join(card_name(c) for c in live.order if c not in live.faces)
        return fail(f"the camera stopped before every card was shown; still to show: {missing}; "
                    f"nothing was written")
    live.finish(out, say)
    say(f"deck written to {out}: 32 cards")
    _learn_corners(out)
    return 0


def _markers(args: argparse.Namespace) -> int:
    from calibration.markers import write_sheets

    for path in write_sheets(Path(args.out), marker_mm=args.marker_mm):
        print(path)
    print(f"print the PDFs at 100% (actual size); tape corner-0 at North-West, then 1, 2, 3 clockwise, "
          f"{args.marker_mm:g} mm markers", file=sys.stderr)
    return 0


def _camera(args: argparse.Namespace) -> int:
    from calibration.camera import calibrate_camera
    from calibration.profile import TableProfile
    from calibration.table_plane import CalibrationError
    from vision.capture import Capture, CaptureError

    def frames():
        with Capture(args.source, live=False) as cap:
            for frame in cap:
                if frame.index % args.every == 0:
                    yield frame.image

    def progress(i: int, corners: int) -> None:
        print(f"view {i + 1}: {'board not found' if corners == 0 else f'{corners} corners'}", file=sys.stderr)

    try:
        camera = calibrate_camera(frames(), progress=progress)
    except (CalibrationError, CaptureError) as exc:
        return fail(str(exc))
    TableProfile(args.profile).save_camera(camera)
    print(json.dumps({"rms_px": round(camera.rms_px, 3), "views": camera.views,
                      "focal_px": [round(camera.matrix[0, 0], 1), round(camera.matrix[1, 1], 1)]}))
    if camera.rms_px > 1.0:
        print(f"warning: reprojection error {camera.rms_px:.2f} px is high: use sharper views, "
              f"and check the board is printed flat at actual size", file=sys.stderr)
    return 0


def _table(args: argparse.Namespace) -> int:
    import cv2

    from calibration.profile import ProfileError, TableProfile
    from calibration.table_plane import CalibrationError, TableLayout, locate_table
    from calibration.zones import draw_zones
    from vision.capture import CaptureError, first_still_frame

    profile = TableProfile(args.profile)
    try:
        layout = TableLayout(args.width_mm, args.height_mm or args.width_mm, args.marker_mm) if args.width_mm \
            else profile.layout()
        image = first_still_frame(args.source)
        view = locate_table(image, layout, profile.camera())
        profile.save_table(layout, view)
        zones = profile.zones()
        if not profile.zones_json().exists():
            profile.save_zones(zones)
    except (CalibrationError, CaptureError, ProfileError) as exc:
        return fail(str(exc))
    preview = profile.preview_png()
    cv2.imwrite(str(preview), draw_zones(image, view, zones, layout))
    print(json.dumps({"profile": str(profile.dir), "markers": sorted(view.markers_px),
                      "error_mm": round(view.error_mm, 2), "preview": str(preview)}))
    print(f"table calibrated from {len(view.markers_px)} markers (error {view.error_mm:.2f} mm); "
          f"check the zones in {preview}", file=sys.stderr)
    return 0


def _zones(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from calibration.profile import ProfileError, TableProfile
    from calibration.zones import default_zones, draw_zones
    from vision.capture import CaptureError, first_still_frame

    profile = TableProfile(args.profile)
    try:
        layout = profile.layout()
        zones = default_zones(layout) if args.reset else profile.zones()
        profile.save_zones(zones)
        view = profile.view()
        image = first_still_frame(args.source) if args.source else None
    except (ProfileError, CaptureError) as exc:
        return fail(str(exc))
    if image is None:   # no camera at hand: draw over a plain table the size of the calibrated view
        w, h = view.image_size
        image = np.full((h, w, 3), 60, np.uint8)
    out = Path(args.out) if args.out else profile.preview_png()
    cv2.imwrite(str(out), draw_zones(image, view, zones, layout))
    print(out)
    print(f"{len(zones)} zones written to {profile.zones_json()}; edit it (table mm) to reshape them",
          file=sys.stderr)
    return 0


def _tags(args: argparse.Namespace) -> int:
    from calibration.profile import ProfileError, TableProfile
    from firmware_bridge.enrol import EnrolmentAborted, enrol_tags

    profile = TableProfile(args.out)
    try:
        enrolled = {} if args.restart else profile.tags()
        enrol_tags(args.port, enrolled, profile.save_tags, str(profile.tags_csv()), antenna=args.antenna,
                   timeout_s=args.timeout, say=say, codec_factory=codec_factory(args.reader, args.antenna))
    except ProfileError as exc:
        return fail(f"{exc} (or start over with --restart)")
    except EnrolmentAborted as exc:
        return fail(str(exc))
    return 0
