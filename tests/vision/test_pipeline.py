"""The real pipeline on rendered 1080p table video, checked against the scripted game.

Decks are enrolled the way a club does it: each card photographed once lying
on the table under the table's own camera (here: rendered through the same
camera as the game, in another light and position).
"""

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.table_plane import TableLayout, locate_table, recheck
from calibration.zones import default_zones
from referee.cards import card_name, parse_cards
from referee.observations import CardSeen, ZoneCleared
from referee.play_order import CAMERA_SURE
from vision.confidence import CUT_CAP
from vision.deck import warp_face
from vision.enrol import deck_from_faces
from vision.faces import builtin_faces, photo_faces
from vision.locate import order_corners
from vision.pipeline import Pipeline
from vision.render import Effects, HandPass, Pickup, Play, SceneRenderer, TableScene, Wait

SIZE, FPS = (1920, 1080), 30.0
from real_photos import CARDCOUNTER_REAL as DATASET   # tests/data (CC BY 4.0)
MAX_DELAY_FRAMES = 5


def enrolled_deck(faces: dict, scene: TableScene, seed: int):
    """Each card alone on the table, seen by the table camera, rectified: the deck."""
    r = SceneRenderer(faces, scene, seed=seed, size=SIZE)
    centre = (scene.width_mm / 2, scene.height_mm / 2, 0.0)
    quad = order_corners(r.card_corners(centre).astype(np.float32))
    return deck_from_faces({c: [warp_face(r.lone_card(c), quad)] for c in faces})


def run_game(faces, deck, script, seed, tilt=25.0, thumbnails=None):
    scene = TableScene.square(size=SIZE, tilt_deg=tilt, turn_deg=4)
    renderer = SceneRenderer(faces, scene, seed=seed, size=SIZE, effects=Effects(table_seed=seed))
    frames = renderer.frames(script, FPS)
    t0, first = next(frames)
    view = locate_table(first, TableLayout())          # calibrate from what the camera sees
    pipeline = Pipeline(deck, view.image_to_table, default_zones(), recheck=lambda f: recheck(f, view),
                        thumbnails=thumbnails)
    seen = [(t0, o) for o in pipeline.process(t0, first)]
    for t, frame in frames:
        seen += [(t, o) for o in pipeline.process(t, frame)]
    return renderer.truth, seen


def check_against_truth(truth, seen, max_wrong=0):
    """Every card and clearing reported once, in the right zone, soon after the card came
    to rest; nothing else reported; at most ``max_wrong`` cards misread. Returns the share
    of cards read."""
    cards = [(t, o) for t, o in seen if isinstance(o, CardSeen)]
    clears = [(t, o) for t, o in seen if isinstance(o, ZoneCleared)]
    assert len(cards) + len(clears) == len(seen), [o for _, o in seen]
    want_cards = [x for x in truth if x.kind == "card"]
    assert [o.zone for _, o in cards] == [x.zone for x in want_cards]
    read, wrong = 0, []
    for (t, o), x in zip(cards, want_cards):
        # seen within MAX_DELAY_FRAMES of the card coming to rest (issue 5), well before the
        # hand that played has left the picture (0.3 s, 9 frames, after the card stopped)
        assert x.t_rest - 1e-6 <= o.t and t <= x.t_rest + MAX_DELAY_FRAMES / FPS + 1e-6, (x, (t - x.t_rest) * FPS)
        read += o.card == x.card
        if o.card not in (x.card, None):
            wrong.append(f"{card_name(x.card)} read as {card_name(o.card)}")
    assert len(wrong) <= max_wrong, wrong
    want_clears = [x for x in truth if x.kind == "cleared"]
    assert sorted(o.zone for _, o in clears) == sorted(x.zone for x in want_clears)
    for t, o in clears:
        assert t <= want_clears[0].t_still + MAX_DELAY_FRAMES / FPS
    return read / len(want_cards)


GAME = [*[Play(s, c) for s, c in zip("SENW", parse_cards("Jh 9h Ah 7h"))], HandPass("E"), Pickup("NS"),
        Play("S", parse_cards("Ts")[0]), Wait(0.3)]


@pytest.fixture(scope="module")
def builtin_deck():
    faces = builtin_faces(four_colour=True)
    return faces, enrolled_deck(faces, TableScene.square(size=SIZE, tilt_deg=25, turn_deg=4), seed=11)


def test_a_trick_on_the_builtin_deck_is_reported_as_played(builtin_deck, tmp_path):
    faces, deck = builtin_deck
    truth, seen = run_game(faces, deck, GAME, seed=5, thumbnails=tmp_path)
    share = check_against_truth(truth, seen)
    print(f"built-in deck: {share:.0%} of the cards read")
    for _, o in seen:
        if isinstance(o, CardSeen):
            assert Path(o.evidence["thumbnail"]).exists()
            # read on 3 frames, or 2 that agreed confidently
            assert o.evidence["frames"] == 3 or (o.evidence["frames"] == 2 and o.card is not None)


def _confidences(seen) -> dict:
    """Card name -> the confidence it was reported at, for the cards read."""
    return {card_name(o.card): o.confidence for _, o in seen if isinstance(o, CardSeen) and o.card is not None}


def test_a_card_whose_look_alike_the_deck_lacks_is_never_read_surely(builtin_deck):
    """A deck enrolled without the Qh: a Jh seen live may be the Qh the deck
    cannot know, so it is read no surer than ``CUT_CAP``, below the
    referee's ``CAMERA_SURE``, which then asks before building on it. Cards
    whose look-alikes are all enrolled stay sure (one fewer rival can only
    widen their lead)."""
    faces, deck = builtin_deck
    lacking = deck_from_faces({c: f for c, f in deck.faces.items() if c != parse_cards("Qh")[0]})
    _, whole = run_game(faces, deck, GAME, seed=5)
    _, partial = run_game(faces, lacking, GAME, seed=5)
    whole, partial = _confidences(whole), _confidences(partial)
    assert whole["Jh"] > CAMERA_SURE >= CUT_CAP >= partial["Jh"] >= 0.8, (whole, partial)
    assert partial.keys() == whole.keys()
    assert all(partial[c] >= whole[c] > CAMERA_SURE for c in whole if c != "Jh"), (whole, partial)


def test_real_printed_cards_rendered_from_photos(tmp_path):
    photos = photo_faces(DATASET, per_card=2)
    cards = [c for c, v in photos.items() if len(v) == 2]
    game = [Play(s, c) for s, c in zip("SENW", cards[:4])] + [Pickup("EW")] + \
           [Play(s, c) for s, c in zip("WSEN", cards[4:8])] + [Wait(0.3)]
    scene = TableScene.square(size=SIZE, tilt_deg=25, turn_deg=4)
    deck = enrolled_deck({c: photos[c][1] for c in cards}, scene, seed=12)   # enrolled from another photo
    truth, seen = run_game({c: photos[c][0] for c in cards}, deck, game, seed=6, tilt=15)
    # Reading real cards ~70 px wide is the reader's hardest case (its own tests allow it to be
    # rarely wrong); what this part guarantees is checked strictly: zones, timing, clears.
    share = check_against_truth(truth, seen, max_wrong=1)
    print(f"real cards: {share:.0%} of the cards read")


def test_a_moved_camera_is_reported_and_stops_card_reports_until_it_is_back():
    faces = builtin_faces()
    scene = TableScene.square(size=(1280, 720), tilt_deg=20)
    renderer = SceneRenderer(faces, scene, seed=3, size=(1280, 720))
    frames = list(renderer.frames([Wait(1.0), Play("S", 5), Wait(1.5), Play("E", 6), Wait(0.5)], FPS))
    view = locate_table(frames[0][1], TableLayout())
    pipeline = Pipeline(None, view.image_to_table, default_zones(), recheck=lambda f: recheck(f, view),
                        recheck_every=0.5, reader=lambda frame, quad: (None, 0.0))
    knock = np.float32([[1, 0, 25], [0, 1, 10]])
    knocked = (0.6, renderer.truth[1].t_rest - 0.6)     # knocked before S plays, put back before E plays
    seen = []
    for t, frame in frames:
        if knocked[0] <= t < knocked[1]:
            frame = cv2.warpAffine(frame, knock, (1280, 720))
        seen += [(type(o).__name__, getattr(o, "state", None) or o.zone) for o in pipeline.process(t, frame)]
    # S's card landed while the camera pointed elsewhere: not reported then (its zone would be a
    # guess), but as soon as the camera is back; then E's card as usual.
    assert seen == [("SensorState", "moved"), ("SensorState", "connected"), ("CardSeen", "play:S"),
                    ("CardSeen", "play:E")]


def test_render_calibrate_watch_from_the_command_line(tmp_path, capsys):
    """The commands a user runs: render a clip, calibrate the table from it, watch it."""
    import json

    from vision.deck import Deck
    from commands.main import main

    clip, profile = tmp_path / "clip", tmp_path / "profile"
    assert main(["vision", "render", "--out", str(clip), "--size", "1280x720", "--fps", "15",
                 "--tricks", "1", "--seed", "2"]) == 0
    assert capsys.readouterr().out.strip() == str(clip)
    truth = json.loads((clip / "truth.json").read_text())
    assert main(["calibrate", "table", "--source", str(clip), "--profile", str(profile)]) == 0
    capsys.readouterr()
    Deck(faces={c: [f] for c, f in builtin_faces().items()}).save(profile / "deck")
    assert main(["vision", "watch", "--source", str(clip), "--profile", str(profile), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(o["kind"], o["zone"]) for o in lines if o["kind"] == "card"] == \
        [("card", x["zone"]) for x in truth if x["kind"] == "card"]
    assert sorted(o["zone"] for o in lines if o["kind"] == "cleared") == \
        sorted(x["zone"] for x in truth if x["kind"] == "cleared")
    for o in lines:
        if o["kind"] == "card":
            assert o["card"] in (None, *(x["card"] for x in truth)) and 0 <= o["confidence"] <= 1

    assert main(["vision", "watch", "--source", str(clip), "--profile", str(tmp_path / "none")]) == 2
    assert "calibrate table" in capsys.readouterr().err
    small = tmp_path / "small"                 # the camera now sends another resolution
    small.mkdir()
    cv2.imwrite(str(small / "0.png"), cv2.resize(cv2.imread(str(clip / "00000.png")), (640, 360)))
    assert main(["vision", "watch", "--source", str(small), "--profile", str(profile)]) == 2
    assert "640x360 but the table was calibrated on 1280x720" in capsys.readouterr().err


def test_a_lamp_switched_on_mid_trick_changes_nothing_but_the_light():
    from vision.deck import Deck

    faces = builtin_faces()
    size = (1280, 720)
    scene = TableScene.square(size=size, tilt_deg=20)
    renderer = SceneRenderer(faces, scene, seed=8, size=size, effects=Effects(table_seed=2))
    script = [Play("S", 3), Wait(1.0), Play("E", 12), Pickup("EW"), Wait(0.5)]
    frames = list(renderer.frames(script, FPS))
    view = locate_table(frames[0][1], TableLayout())
    pipeline = Pipeline(Deck(faces={c: [f] for c, f in faces.items()}), view.image_to_table, default_zones(),
                        recheck=lambda f: recheck(f, view))
    lamp_on = renderer.truth[0].t_still + 0.5
    seen = []
    for t, frame in frames:
        if t >= lamp_on:
            frame = cv2.convertScaleAbs(frame, alpha=1.35, beta=10)
        seen += [(t, o) for o in pipeline.process(t, frame)]
    got = [(type(o).__name__, o.zone) for _, o in seen]
    assert got[:2] == [("CardSeen", "play:S"), ("CardSeen", "play:E")]
    assert sorted(got[2:]) == [("ZoneCleared", "play:E"), ("ZoneCleared", "play:S")]


def test_quick_players_on_a_slow_camera_each_card_is_still_reported():
    """6 fps and half a second between plays: fewer frames to vote on, never a lost card."""
    from vision.deck import Deck

    faces = builtin_faces()
    size = (1280, 720)
    scene = TableScene.square(900, size=size, tilt_deg=8)
    renderer = SceneRenderer(faces, scene, seed=1, size=size)
    script = [Play(s, c, hold=0.5) for s, c in zip("SENW", parse_cards("7s 8s 9s Ts"))] + [Pickup("NS", hold=0.3)]
    pipeline = Pipeline(Deck(faces={c: [f] for c, f in faces.items()}), np.linalg.inv(scene.table_to_image),
                        scene.zones)
    seen = list(pipeline.run(renderer.frames(script, fps=6.0)))
    assert [o.zone for o in seen if isinstance(o, CardSeen)] == ["play:S", "play:E", "play:N", "play:W"]
    assert all(1 <= o.evidence["frames"] <= 3 for o in seen if isinstance(o, CardSeen))
    assert sorted(o.zone for o in seen if isinstance(o, ZoneCleared)) == ["play:E", "play:N", "play:S", "play:W"]


def test_a_card_straightened_in_its_zone_is_not_a_new_card():
    from vision.deck import Deck
    from vision.render import Nudge

    faces = builtin_faces()
    size = (1280, 720)
    renderer = SceneRenderer(faces, TableScene.square(size=size, tilt_deg=20), seed=4, size=size)
    script = [Play("S", 3), Play("E", 12), Nudge("S"), Play("N", 20), Nudge("N"), Pickup("NS")]
    frames = list(renderer.frames(script, 15.0))
    view = locate_table(frames[0][1], TableLayout())
    pipeline = Pipeline(Deck(faces={c: [f] for c, f in faces.items()}), view.image_to_table, default_zones())
    seen = [(type(o).__name__, o.zone) for t, f in frames for o in pipeline.process(t, f)]
    assert seen[:3] == [("CardSeen", "play:S"), ("CardSeen", "play:E"), ("CardSeen", "play:N")]
    assert sorted(seen[3:]) == [("ZoneCleared", "play:E"), ("ZoneCleared", "play:N"), ("ZoneCleared", "play:S")]


@pytest.mark.parametrize("tilt", [0, 45, 55])
def test_straight_down_or_at_a_steep_angle(tilt):
    from vision.deck import Deck

    faces = builtin_faces()
    size = (1280, 720)
    renderer = SceneRenderer(faces, TableScene.square(size=size, tilt_deg=tilt, turn_deg=10), seed=2, size=size)
    script = [Play(s, c) for s, c in zip("SENW", parse_cards("Jh 9h Ah 7h"))] + [HandPass("N"), Pickup("EW")]
    frames = list(renderer.frames(script, 15.0))
    view = locate_table(frames[0][1], TableLayout())
    pipeline = Pipeline(Deck(faces={c: [f] for c, f in faces.items()}), view.image_to_table, default_zones())
    seen = list(pipeline.run(frames))
    assert [o.zone for o in seen if isinstance(o, CardSeen)] == ["play:S", "play:E", "play:N", "play:W"]
    assert sorted(o.zone for o in seen if isinstance(o, ZoneCleared)) == ["play:E", "play:N", "play:S", "play:W"]


def _one_card_lands():
    """(the empty table, the table with a 5 at rest in play:S and the hand gone, the table's view)."""
    faces = builtin_faces()
    scene = TableScene.square(size=(1280, 720), tilt_deg=20)
    frames = SceneRenderer(faces, scene, seed=3, size=(1280, 720)).frames([Wait(0.4), Play("S", 5), Wait(1.0)],
                                                                          FPS)
    _, empty = next(frames)
    for _, still in frames:
        pass
    return empty, still, locate_table(empty, TableLayout())


@pytest.mark.parametrize("noise, reads", [(0, 1), (12, 2)])
def test_a_card_is_read_again_only_where_its_pixels_changed(noise, reads):
    """A voting frame that shows the card exactly as before repeats its read; one whose
    pixels around the card changed beyond the tracker's threshold (here: strong sensor
    noise) is read afresh. Either way the card is reported once, read."""
    empty, still, view = _one_card_lands()
    calls = []
    pipeline = Pipeline(None, view.image_to_table, default_zones(), recheck=lambda f: recheck(f, view),
                        reader=lambda frame, quad: calls.append(quad) or (5, 0.95))
    rng = np.random.default_rng(1)
    seen = []
    for i in range(16):
        frame = empty if i < 10 else still
        if noise and i > 11:
            frame = np.clip(still + rng.normal(0, noise, still.shape), 0, 255).astype(np.uint8)
        seen += pipeline.process(i / FPS, frame)
    assert [(type(o).__name__, o.zone, o.card) for o in seen] == [("CardSeen", "play:S", 5)]
    assert len(calls) == reads


@pytest.mark.parametrize("sure", [False, True])
def test_an_unsure_first_read_asks_the_corners_on_the_next_frame_the_same_question(monkeypatch, sure):
    """The frame that finds a card (table plane, change analysis, whole-face read)
    is the live loop's costliest; when the whole face is unsure, the card's index
    corners are read on the next frame of the still scene, from the frame the
    card was found on, and the card is reported as the corners name it. A sure
    whole-face read asks the corners nothing."""
    import vision.corner_merge
    import vision.read
    empty, still, view = _one_card_lands()
    pipeline = Pipeline(None, view.image_to_table, default_zones(), recheck=lambda f: recheck(f, view))
    whole, corners = [], []
    monkeypatch.setattr(vision.read, "read_card", lambda frame, quad, deck: whole.append(
        (pipeline.frame_no, frame)) or ((5, 0.95, {}) if sure else (None, 0.3, {})))
    monkeypatch.setattr(vision.corner_merge, "read_landed", lambda frame, quad, deck: corners.append(
        (pipeline.frame_no, frame)) or (5, 0.9))
    seen = []
    for i in range(16):
        frame = (empty if i < 10 else still).copy()
        seen += pipeline.process(i / FPS, frame)
    assert [(type(o).__name__, o.card) for o in seen] == [("CardSeen", 5)]
    assert len(whole) == 1
    if sure:
        assert corners == []
    else:
        assert len(corners) == 1
        assert corners[0][0] == whole[0][0] + 1 and corners[0][1] is whole[0][1]


def test_a_french_trick_on_one_heap_reports_each_newest_card_never_one_under_it():
    """Issue 11, item 5: four French cards (R/D/V, aces "1") played onto one
    heap, the deck enrolled from the table camera. Each landing is reported
    once, as the card on top: where the whole-face reader is unsure the
    landed card's own index corners decide (``corner_merge.read_landed``),
    and a card of the heap under it, whose index peeks out beside it, never
    takes its place (a wrong read, or a second report, fails here). Measured:
    3 of 4 read, 0 wrong; without the corner reads 2 of 4."""
    faces = builtin_faces(french=True)
    deck = enrolled_deck(faces, TableScene.square(size=SIZE, tilt_deg=25, turn_deg=4), seed=11)
    game = [Play(s, c) for s, c in zip("SENW", parse_cards("Jc As Qc 8s"))] + [Wait(0.3)]
    truth, seen = run_game(faces, deck, game, seed=1)
    share = check_against_truth(truth, seen)
    print(f"French heap: {share:.0%} of the newest cards read")
    assert share >= 0.75, f"{share:.0%} of the newest cards read"
