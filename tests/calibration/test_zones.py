"""Zones in table millimetres: the play zones tile the middle, files round-trip, the preview shows them."""

import json

import cv2
import numpy as np
import pytest

from calibration.profile import ProfileError, TableProfile
from calibration.table_plane import TableLayout, TableView
from calibration.zones import default_zones, draw_zones, load_zones, save_zones
from referee.observations import ZONES
from vision.track import zone_at
from commands.main import main


def test_every_point_of_the_middle_belongs_to_exactly_one_play_zone():
    zones = default_zones(TableLayout(800, 800))
    assert set(zones) == set(ZONES)
    play = {k: v for k, v in zones.items() if k.startswith("play:")}
    for x in range(240, 561, 16):
        for y in range(240, 561, 16):
            inside = [k for k, poly in play.items()
                      if cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (x + 0.5, y + 0.3), False) > 0]
            assert len(inside) == 1, (x, y, inside)
    assert zone_at(play, (400, 470)) == "play:S" and zone_at(play, (470, 400)) == "play:E"
    assert zone_at(play, (30, 30)) is None


def test_zones_file_round_trips_and_bad_files_say_how_to_fix(tmp_path):
    zones = default_zones()
    save_zones(tmp_path / "zones.json", zones)
    again = load_zones(tmp_path / "zones.json")
    assert set(again) == set(zones) and all(np.allclose(again[k], zones[k], atol=0.05) for k in zones)
    (tmp_path / "bad.json").write_text(json.dumps({"zones": {"play:X": [[0, 0], [1, 0], [1, 1]]}}))
    with pytest.raises(ValueError, match="unknown zone name.*play:X"):
        load_zones(tmp_path / "bad.json")
    with pytest.raises(ProfileError, match="calibrate table"):
        TableProfile(tmp_path / "nowhere").view()


def test_preview_outlines_each_zone_over_the_camera_view(tmp_path, capsys):
    layout = TableLayout()
    image_to_table = cv2.getPerspectiveTransform(np.float32([[200, 40], [1080, 40], [1180, 700], [100, 700]]),
                                                 layout.corners())
    view = TableView(image_to_table, (1280, 720))
    blank = np.full((720, 1280, 3), 50, np.uint8)
    zones = default_zones(layout)
    preview = draw_zones(blank, view, zones, layout)
    for name, poly in zones.items():        # tinted inside each zone
        x, y = np.round(view.to_image(poly.mean(axis=0, keepdims=True))[0] + [0, 25]).astype(int)
        assert abs(int(preview[y, x].astype(int).sum()) - 150) > 20, name
    profile = TableProfile(tmp_path)
    profile.save_table(layout, view)
    assert main(["calibrate", "zones", "--profile", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().endswith("zones.png")
    assert set(load_zones(tmp_path / "zones.json")) == set(ZONES)
