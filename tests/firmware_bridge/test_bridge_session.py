"""The host's recovery rules, frame by frame, with no port and no clock."""

from __future__ import annotations

from referee.cards import parse_card

from firmware_bridge.mapping import TableMap
from firmware_bridge.protocol import Ack, Debug, Err, Hb, Hello, Snap, Tag
from firmware_bridge.session import PILE_CONFIDENCE, LinkEvent, Session, TagEvent

A, B, C = "04A1B2C3D4E5F6", "DEADBEEF", "CAFEBABE"
TABLE = TableMap(cards={A: parse_card("Jh")}, zones={3: "play:S"})


def up(session: Session | None = None, boot: str = "00000001", seq: int = 0, t: float = 0.0) -> Session:
    """A session through its handshake: our HELLO acked, then HELLO."""
    s = session or Session(TABLE, silence_s=2.0)
    s.opened(t)
    hello_cmd = s.outbox.pop()
    assert hello_cmd.command == "HELLO"
    s.feed(t, Ack(seq, 10, hello_cmd.host_seq, "OK"))
    events = s.feed(t, Hello(seq + 1, 10, 1, "t", 9, boot))
    assert events[0] == LinkEvent(t, "connected", f"fw=t ants=9 boot={boot}")
    return s


def tags(events) -> list:
    return [(e.antenna, e.uid, e.present) for e in events if isinstance(e, TagEvent)]


def states(events) -> list:
    return [e.state for e in events if isinstance(e, LinkEvent)]


def test_everything_before_our_acked_hello_is_ignored():
    s = Session(TABLE)
    s.opened(0.0)
    cmd = s.outbox.pop()
    stale = [Hello(40000, 99999, 1, "old", 9, "0BADB007"), Ack(40001, 99999, (cmd.host_seq + 7) % 65536, "OK"),
             Tag(40002, 99999, 3, A, True), Snap(40003, 99999, ((), (B,)))]
    for frame in stale:
        assert s.feed(0.1, frame) == []
    assert not s.up and s.counters["stale"] == 4
    assert s.bad_frame(0.1, "crc", "x") == [], "noise before HELLO is not reported as bad frames"


def test_the_first_connection_asks_a_snap_and_reports_what_lies_there():
    s = up()
    assert [c.command for c in s.outbox] == ["SNAP"]
    events = s.feed(1.0, Snap(2, 20, ((), (), (), (A,))))
    assert tags(events) == [(3, A, True)]
    assert events[0].zone == "play:S" and events[0].card == parse_card("Jh")
    assert states(events) == [], "nothing was uncertain on a first connection"


def test_a_seq_gap_marks_the_state_uncertain_until_the_snap_reports_only_the_changes():
    s = up()
    s.outbox.clear()
    s.feed(0.0, Snap(2, 20, ((), (A, B))))
    events = s.feed(0.1, Tag(5, 30, 0, C, True))           # 3 and 4 were lost
    assert states(events) == ["resync"] and "2 frame(s) lost" in events[0].detail
    assert s.uncertain and [c.command for c in s.outbox] == ["SNAP"]
    assert tags(events) == [(0, C, True)], "the edge that did arrive still counts"
    assert events[1].uncertain
    events = s.feed(0.2, Snap(6, 40, ((C,), (A,))))
    assert tags(events) == [(1, B, False)]
    assert states(events) == ["connected"] and not s.uncertain


def test_seq_wraps_without_a_gap():
    s = up(seq=65533)
    s.feed(0.0, Snap(65535, 20, ()))
    assert states(s.feed(0.1, Tag(0, 30, 0, C, True))) == []


def test_a_new_boot_id_is_a_restart_and_the_state_is_kept_until_the_snap():
    s = up()
    s.feed(0.0, Snap(2, 20, ((A,),)))
    events = s.feed(0.5, Hello(0, 5, 1, "t", 9, "00000002"))
    assert states(events) == ["resync"] and "restarted" in events[0].detail
    assert s.antennas[0] == {A: None}, "kept, not cleared"
    events = s.feed(0.6, Snap(1, 30, ((A,),)))
    assert tags(events) == [] and states(events) == ["connected"]


def test_a_clock_going_back_is_a_restart_even_when_the_hello_was_lost():
    s = up()
    s.feed(0.0, Hb(2, 5000, ()))
    events = s.feed(0.1, Tag(3, 40, 0, C, True))
    assert states(events) == ["resync"] and s.counters["restarts"] == 1


def test_a_reconnect_after_a_loss_resyncs():
    s = up()
    s.feed(0.0, Snap(2, 20, ((A,),)))
    assert states(s.closed(1.0, "port lost")) == ["lost"]
    assert s.uncertain
    s = up(s, boot="00000001", t=2.0)
    assert s.uncertain and [c.command for c in s.outbox] == ["SNAP"]


def test_silence_declares_the_device_lost_once():
    s = up(t=0.0)
    assert s.tick(1.9) == ([], False)
    events, lost = s.tick(2.1)
    assert lost and states(events) == ["lost"] and "no frame" in events[0].detail
    assert s.closed(2.2, "again") == [], "a loss is reported once"


def test_an_unanswered_hello_or_snap_is_asked_again():
    s = Session(TABLE, hello_retry_s=1.0, snap_retry_s=1.0, silence_s=10)
    s.opened(0.0)
    s.outbox.clear()
    s.tick(1.1)
    assert [c.command for c in s.outbox] == ["HELLO"]
    s = up()
    s.outbox.clear()
    s.tick(1.2)
    assert [c.command for c in s.outbox] == ["SNAP"]


def test_a_partial_snap_never_removes_the_tags_it_could_not_list():
    s = up()
    s.feed(0.0, Snap(2, 20, ((A, B, C),)))
    s.feed(0.1, Err(3, 30, "snap-partial", 0, "next SNAP lists 1 of 3"))
    events = s.feed(0.2, Snap(4, 40, ((A,),)))
    assert tags(events) == []
    events = s.feed(0.3, Snap(5, 50, ((A,),)))
    assert sorted(tags(events)) == sorted([(0, B, False), (0, C, False)])


def test_piles_are_flagged_best_effort_and_unknown_tags_stay_unknown():
    s = up()
    s.feed(0.0, Snap(2, 20, ((), (), (), ())))
    first = s.feed(0.1, Tag(3, 30, 3, A, True))[0]
    second = s.feed(0.2, Tag(4, 40, 3, B, True))[0]
    assert first.to_observation().confidence == 1.0
    assert second.pile == 2 and second.to_observation().confidence == PILE_CONFIDENCE
    assert second.card is None and second.to_json()["card"] is None
    assert s.feed(0.3, Tag(5, 50, 7, A, True))[0].to_json()["zone"] is None


def test_a_device_speaking_another_protocol_is_refused_with_advice():
    s = Session(TABLE)
    s.opened(0.0)
    cmd = s.outbox.pop()
    s.feed(0.0, Ack(0, 1, cmd.host_seq, "OK"))
    events = s.feed(0.0, Hello(1, 1, 2, "9.0", 9, None))
    assert states(events) == ["bad-frame"] and "protocol 2" in events[0].detail and not s.up


def test_bad_frames_are_all_counted_by_kind_but_reported_at_most_once_a_second():
    s = up()
    first = s.bad_frame(0.1, "crc", "x")
    assert first[0].to_json() == {"kind": "link", "state": "bad-frame", "detail": "crc: x"}
    assert [s.bad_frame(0.1 + i / 100, "no-start", "noise") for i in range(1, 50)] == [[]] * 49
    events = s.bad_frame(1.2, "too-long", "z")
    assert events[0].detail == "too-long: z (and 49 more since the last report)"
    assert s.counters["crc"] == 1 and s.counters["no-start"] == 49 and s.counters["too-long"] == 1


def test_a_port_that_sends_only_garbage_says_to_check_the_baud_rate_once():
    s = Session(TABLE, silence_s=2.0)
    s.opened(0.0)
    said = []
    for i in range(60):                       # 6 s of noise, never a HELLO
        s.bad_frame(i / 10, "no-start", "noise")
        events, lost = s.tick(i / 10)
        assert not lost, "bytes keep coming: the port is not silent"
        said += events
    (warning,) = said
    assert warning.state == "bad-frame" and "check the baud rate (115200)" in warning.detail
    assert "22 unreadable" in warning.detail   # 0.0 .. 2.1 s



def test_debug_lines_become_notes_for_people():
    s = up()
    assert s.feed(0.4, Debug("hello"))[0].text == "device: hello"


def test_a_partial_pile_drops_a_tag_that_the_snap_lists_elsewhere():
    s = up()
    s.feed(0.0, Snap(2, 20, ((A, B, C), ())))
    s.feed(0.1, Err(3, 30, "snap-partial", 0, "next SNAP lists 1 of 2"))
    events = s.feed(0.2, Snap(4, 40, ((A,), (C,))))     # C was played from the pile to antenna 1
    assert sorted(tags(events)) == sorted([(0, C, False), (1, C, True)])
    assert s.antennas[0] == {A: None, B: None}


def test_growing_trouble_counters_in_heartbeats_are_told_to_people():
    s = up()
    assert s.feed(0.1, Hb(2, 500, (("up", "0"), ("txdrop", "0"), ("reinit", "1")))) == []
    notes = s.feed(0.6, Hb(3, 1000, (("up", "1"), ("txdrop", "3"), ("reinit", "1"))))
    assert [n.text for n in notes] == ["device: 3 more frame(s) dropped on a full serial buffer (txdrop=3)"]
    assert s.health["txdrop"] == "3"


def test_a_pile_too_big_for_one_snap_is_told_once_per_antenna_and_counted():
    """Issue 12: "snap-partial" was repeated about 9 times on stderr (every resync
    of the same big trick pile)."""
    s = up()
    notes = []
    for n in range(9):
        notes += [e for e in s.feed(0.1 * n, Err(3 + n, 30 + n, "snap-partial", 0, "next SNAP lists 12 of 16 tags"))
                  if not isinstance(e, (LinkEvent, TagEvent))]
    assert len(notes) == 1 and "antenna 0 is too big for one SNAP line" in notes[0].text
    assert "said once" in notes[0].text and s.counters["snap_partial"] == 9
    other = s.feed(1.0, Err(12, 40, "snap-partial", 1, "next SNAP lists 12 of 14 tags"))
    assert [e.text for e in other if not isinstance(e, (LinkEvent, TagEvent))][0].startswith("device: the pile on antenna 1")
