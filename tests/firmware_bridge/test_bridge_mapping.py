"""tags.csv and antennas.csv: what a club edits by hand, so every mistake is named."""

from __future__ import annotations

import pytest

from referee.cards import parse_card

from firmware_bridge.mapping import (DEFAULT_ZONES, ProfileError, load_antennas, load_map, load_tags,
                                     normalize_uid, write_antennas, write_tags)


def test_tags_round_trip_and_accept_the_usual_uid_spellings(tmp_path):
    path = tmp_path / "tags.csv"
    path.write_text("uid,card\n04:a1:b2:c3,Jh\n04 A1 B2 C4 , 10♥\n\n")
    assert load_tags(path) == {"04A1B2C3": parse_card("Jh"), "04A1B2C4": parse_card("Th")}
    write_tags(path, load_tags(path))
    assert path.read_text() == "uid,card\n04A1B2C4,Th\n04A1B2C3,Jh\n"


def test_one_uid_enrolled_as_two_cards_is_an_enrolment_error_naming_the_line(tmp_path):
    path = tmp_path / "tags.csv"
    path.write_text("uid,card\n04A1B2C3,Jh\n04A1B2C4,Qh\n04a1b2c3,9s\n")
    with pytest.raises(ProfileError, match=r"tags.csv:4: tag 04A1B2C3 is enrolled as both Jh and 9s.*calibrate tags"):
        load_tags(path)


@pytest.mark.parametrize("text, message", [
    ("card,uid\n", r":1: the header must be uid,card"),
    ("uid,card\n04A1B2C3,2h\n", r":2: '2h' is not a Belote card"),
    ("uid,card\nZZ,Jh\n", r":2: 'ZZ' is not a tag UID"),
    ("uid,card\n04A1B2C3,Jh,extra\n", r":2: expected 2 columns"),
])
def test_bad_tag_files_say_where_and_what(tmp_path, text, message):
    path = tmp_path / "tags.csv"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message):
        load_tags(path)


def test_antennas_name_real_zones_once(tmp_path):
    path = tmp_path / "antennas.csv"
    write_antennas(path, DEFAULT_ZONES)
    assert load_antennas(path) == DEFAULT_ZONES
    path.write_text("antenna,zone\n0,deal\n1,play:X\n")
    with pytest.raises(ProfileError, match=r":3: zone 'play:X' is not one of"):
        load_antennas(path)
    path.write_text("antenna,zone\n0,deal\n0,play:N\n")
    with pytest.raises(ProfileError, match=r":3: antenna 0 is listed twice"):
        load_antennas(path)


def test_a_profile_without_rfid_files_maps_nothing_and_a_missing_profile_is_named(tmp_path):
    table = load_map(tmp_path)
    assert table.card_for("04A1B2C3") is None and table.zone_for(0) is None
    with pytest.raises(ProfileError, match="no such profile directory"):
        load_map(tmp_path / "nope")


def test_normalize_uid_refuses_what_is_not_a_uid():
    assert normalize_uid("04-a1-b2-c3-d4-e5-f6") == "04A1B2C3D4E5F6"
    for bad in ("", "04A1B2", "04A1B2C3D", "G4A1B2C3"):
        with pytest.raises(ValueError):
            normalize_uid(bad)
