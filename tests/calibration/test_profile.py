"""The table profile's tags.csv and antennas.csv: what a club edits by hand, so every mistake is named."""

from __future__ import annotations

import pytest

from calibration.profile import ProfileError, TableProfile, normalize_uid
from firmware_bridge.mapping import DEFAULT_ZONES
from referee.cards import parse_card


def test_tags_round_trip_and_accept_the_usual_uid_spellings(tmp_path):
    profile = TableProfile(tmp_path)
    profile.tags_csv().write_text("uid,card\n04:a1:b2:c3,Jh\n04 A1 B2 C4 , 10♥\n\n")
    assert profile.tags() == {"04A1B2C3": parse_card("Jh"), "04A1B2C4": parse_card("Th")}
    profile.save_tags(profile.tags())
    assert profile.tags_csv().read_text() == "uid,card\n04A1B2C4,Th\n04A1B2C3,Jh\n"


def test_one_uid_enrolled_as_two_cards_is_an_enrolment_error_naming_the_line(tmp_path):
    profile = TableProfile(tmp_path)
    profile.tags_csv().write_text("uid,card\n04A1B2C3,Jh\n04A1B2C4,Qh\n04a1b2c3,9s\n")
    with pytest.raises(ProfileError, match=r"tags.csv:4: tag 04A1B2C3 is enrolled as both Jh and 9s.*calibrate tags"):
        profile.tags()


@pytest.mark.parametrize("text, message", [
    ("card,uid\n", r":1: the header must be uid,card"),
    ("uid,card\n04A1B2C3,2h\n", r":2: '2h' is not a Belote card"),
    ("uid,card\nZZ,Jh\n", r":2: 'ZZ' is not a tag UID"),
    ("uid,card\n04A1B2C3,Jh,extra\n", r":2: expected 2 columns"),
    (b"uid,card\n04A1B2C3,J\xe9\n", r"cannot read it"),
])
def test_bad_tag_files_say_where_and_what(tmp_path, text, message):
    profile = TableProfile(tmp_path)
    (profile.tags_csv().write_bytes if isinstance(text, bytes) else profile.tags_csv().write_text)(text)
    with pytest.raises(ProfileError, match=message):
        profile.tags()


def test_antennas_name_real_zones_once(tmp_path):
    profile = TableProfile(tmp_path)
    profile.save_antennas(DEFAULT_ZONES)
    assert profile.antennas() == DEFAULT_ZONES
    profile.antennas_csv().write_text("antenna,zone\n0,deal\n1,play:X\n")
    with pytest.raises(ProfileError, match=r":3: zone 'play:X' is not one of"):
        profile.antennas()
    profile.antennas_csv().write_text("antenna,zone\n0,deal\n0,play:N\n")
    with pytest.raises(ProfileError, match=r":3: antenna 0 is listed twice"):
        profile.antennas()


def test_a_profile_without_rfid_files_maps_nothing_and_a_missing_profile_is_named(tmp_path):
    assert TableProfile.existing(tmp_path).tags() == {} and TableProfile(tmp_path).antennas() == {}
    with pytest.raises(ProfileError, match="is not a table profile"):
        TableProfile.existing(tmp_path / "nope")


def test_normalize_uid_refuses_what_is_not_a_uid():
    assert normalize_uid("04-a1-b2-c3-d4-e5-f6") == "04A1B2C3D4E5F6"
    for bad in ("", "04A1B2", "04A1B2C3D", "G4A1B2C3"):
        with pytest.raises(ValueError):
            normalize_uid(bad)
