"""The tag enrolment wizard against the virtual table, with a person who makes mistakes."""

from __future__ import annotations

import re

import pytest

from calibration.profile import TableProfile
from firmware_bridge.enrol import EnrolmentAborted, enrol_tags
from firmware_bridge.virtual_table import VirtualTable


def enrol(table, profile: TableProfile, **options) -> dict:
    """The wizard as ``calibrate tags`` runs it: from the profile's tags.csv, saving there."""
    return enrol_tags(table.path, profile.tags(), profile.save_tags, str(profile.tags_csv()), **options)


class Person:
    """Does what the wizard says, except where told to slip."""

    def __init__(self, table: VirtualTable, wrong_antenna=(), duplicate=(), slow=(), gives_up_at=None):
        self.table, self.said = table, []
        self.wrong_antenna, self.duplicate, self.slow = set(wrong_antenna), set(duplicate), set(slow)
        self.gives_up_at = gives_up_at
        self.current = None

    def __call__(self, text: str) -> None:
        self.said.append(text)
        asked = re.search(r"place .* \((\w\w)\) on antenna 0", text)
        if asked:
            card = self.current = asked.group(1)
            if card == self.gives_up_at:
                return
            if card in self.slow:
                self.slow.discard(card)            # forgets once: a misread, asked again
            elif card in self.wrong_antenna:
                self.wrong_antenna.discard(card)
                self.table.put(card, "play:S")
            elif card in self.duplicate:
                self.duplicate.discard(card)
                self.table.put("7s", "deal")        # an enrolled card by mistake
            else:
                self.table.put(card, "deal")
        elif "that tag is already" in text:
            self.table.put("7s", None)
            self.table.put(self.current, "deal")
        elif "not 0" in text:
            self.table.put(self.current, "deal")
        elif "take" in text:
            for uid, antenna in self.table.snapshot().items():
                if antenna in (0, 3):
                    self.table.remove(uid)


@pytest.fixture
def table():
    vt = VirtualTable(hb_s=0.1)
    vt.start()
    yield vt
    vt.stop()


def test_the_wizard_enrols_a_deck_through_mistakes_and_resumes_after_an_abort(table, tmp_path):
    person = Person(table, wrong_antenna={"7s"}, duplicate={"9s"}, slow={"Js"}, gives_up_at="Ah")
    with pytest.raises(EnrolmentAborted, match=r"no tag for Ah after 2 tries; 15 card\(s\) saved .*run the command again"):
        enrol(table, TableProfile(tmp_path), timeout_s=0.6, attempts=2, say=person)
    assert len(TableProfile(tmp_path).tags()) == 15
    said = "\n".join(person.said)
    assert "a tag was read on antenna 3, not 0" in said
    assert "that tag is already ♠7: take it off and lay ♠9" in said
    assert "no new tag read in 0.6 s (try 1/2)" in said
    assert "[1/32] place ♠7 (7s) on antenna 0" in said

    person = Person(table)
    enrolled = enrol(table, TableProfile(tmp_path), timeout_s=2.0, say=person)
    assert person.said[0] == "resuming: 15 card(s) already in " + str(tmp_path / "tags.csv")
    assert "[16/32] place ♥A (Ah) on antenna 0" in person.said
    expected = {uid: card for card, uid in table.tags.items()}
    assert enrolled == expected == TableProfile(tmp_path).tags()
    assert person.said[-1].startswith("all 32 cards enrolled")


def test_no_table_on_the_port_says_what_to_check(tmp_path):
    with pytest.raises(EnrolmentAborted, match="no table answered on .* check the cable"):
        enrol_tags(str(tmp_path / "ttyNONE"), {}, lambda cards: None, "tags.csv", timeout_s=0.5,
                   say=lambda text: None)

