"""``belote-table calibrate ...``: teaching the table its deck, camera, zones and tags.

Each sub-command is added by one ``add_*`` function listed in ``SUBCOMMANDS``;
another part adds its own by appending one ``"module:function"`` line there
(the function receives the ``calibrate`` group's subparsers). Keep those
modules light to import: heavy imports go inside the handlers.
"""

from __future__ import annotations

import argparse

from vision.cli import lazy

#: ``"module:function"`` adding one ``calibrate`` sub-command each, in ``--help`` order.
SUBCOMMANDS = (
    "calibration.cli:add_deck",
    "calibration.cli:add_markers",
    "calibration.cli:add_camera",
    "calibration.cli:add_table",
    "calibration.cli:add_zones",
    "firmware_bridge.cli:register_calibrate",
)


def register(subparsers) -> None:
    from referee.cli import add_plugged_group

    add_plugged_group(subparsers, "calibrate", SUBCOMMANDS, help="calibrate the table: deck, camera, zones, tags",
                      description="Calibrate the table and write its profile.")


def add_deck(sub) -> None:
    p = sub.add_parser(
        "deck", help="enrol a deck from photos of single cards",
        description="Enrol a deck from photos of single cards lying face up on the table, one card per "
                    "photo, each named after its card: Jh.jpg, Jh_2.png, 10h_top.jpg, QH.jpg. Blurred or "
                    "misplaced shots are refused with the reason; every one of the 32 cards needs at least "
                    "one accepted photo, or nothing is written. With --live, enrol at the table from its own "
                    "camera instead: each card is asked for in turn.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--images", metavar="DIR", help="directory of card photos")
    src.add_argument("--live", metavar="SOURCE",
                     help="the table's camera (index, /dev/videoN, stream URL, video file or image folder)")
    p.add_argument("--out", required=True, metavar="DECK", help="deck directory to write")
    p.add_argument("--partial", action="store_true",
                   help="write the deck even if some cards have no usable photo (they will never be read)")
    p.set_defaults(func=_deck)


def _deck(args: argparse.Namespace) -> int:
    from vision.enrol import enrol_from_directory, enrol_live

    if args.live is not None:
        return enrol_live(args.live, args.out)
    return enrol_from_directory(args.images, args.out, partial=args.partial)


# -- camera, table and zones (handlers in calibration.markers/camera/table/zones) --------------

def add_markers(sub) -> None:
    p = sub.add_parser("markers", help="write the printable corner markers and ChArUco board (PDF at true scale)",
                       description="Write the four table-corner ArUco markers and a ChArUco board as PDF "
                                   "(print at 100%%, actual size) and PNG.")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--marker-mm", type=float, default=60.0, help="printed marker side (default 60)")
    p.set_defaults(func=lazy("calibration.markers:command"))


def add_camera(sub) -> None:
    p = sub.add_parser("camera", help="camera intrinsics from views of the ChArUco board",
                       description="Compute the camera's focal length and lens distortion from 10-20 views of "
                                   "the printed ChArUco board (a folder of images, a video or a camera).")
    p.add_argument("--source", required=True, metavar="S", help="folder of images, video file or camera index")
    p.add_argument("--profile", required=True, metavar="DIR", help="table profile directory (camera.json)")
    p.add_argument("--every", type=int, default=1, metavar="N", help="use one frame in N of a video (default 1)")
    p.set_defaults(func=lazy("calibration.camera:command"))


def add_table(sub) -> None:
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
    p.set_defaults(func=lazy("calibration.table:command"))


def add_zones(sub) -> None:
    p = sub.add_parser("zones", help="write the zones and draw them over the camera view",
                       description="Write zones.json (table millimetres; defaults for the table's size) and "
                                   "a picture of the zones over the camera view.")
    p.add_argument("--profile", required=True, metavar="DIR")
    p.add_argument("--source", metavar="S", help="camera or image to draw over (default: a plain background)")
    p.add_argument("--out", metavar="PNG", help="preview picture (default PROFILE/zones.png)")
    p.add_argument("--reset", action="store_true", help="replace zones.json with the defaults")
    p.set_defaults(func=lazy("calibration.zones:command"))
