"""The JSON Lines record: every malformed line names its line and what to fix; what
is written reads back identically (real files on disk)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.demo import play_demo_game
from referee.game import Game
from referee.record import RecordError, read_lines, read_record, write_record

HEADER = '{"type":"game","version":1,"rules":"ffb-contree"}'


def test_a_written_record_reads_back_identically(tmp_path):
    events = play_demo_game(seed=9, rules="coinche", max_hands=3)
    path = tmp_path / "g.jsonl"
    write_record(path, events)
    assert read_record(path) == events
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") == len(events) and text.startswith('{"type":"game","version":1,')


@pytest.mark.parametrize("line,message", [
    ('{"type":"deal","dealer":"X"}', 'deal: "dealer" is "X", expected N, E, S or W'),
    ('{"type":"call","seat":"N"}', 'call: "call" is missing'),
    ('{"type":"play","seat":"N","card":7}', 'play: "card" is 7, expected a card'),
    ('{"type":"play","seat":"N","card":"7s","say":"belotte"}', '"say" is "belote" or "rebelote"'),
    ('{"type":"declare","seat":"N","cards":"Ah Kh Qh"}', 'declare: "cards" is "Ah Kh Qh"'),
    ('{"type":"correction","ref":"3","replace":null}', 'correction: "ref" is "3"'),
    ('{"type":"correction","ref":3}', '"replace" is missing'),
    ('{"type":"correction","ref":3,"replace":{"type":"game"}}', '"version" is missing'),
    ('{"type":"deal","dealer":"N","hands":{"N":[]}}', '"hands" maps each of N, E, S, W'),
    ('{"type":"deal","dealer":"N"', "not JSON"),
    ('[1, 2]', "an event is a JSON object"),
    ('{"type":"trick"}', 'unknown event type "trick"'),
    (HEADER, "a second game header"),
])
def test_malformed_lines_name_the_line_and_the_problem(line, message):
    with pytest.raises(RecordError) as info:
        read_lines([HEADER, '{"type":"deal","dealer":"N"}', line], "g.jsonl")
    assert str(info.value).startswith("g.jsonl:3: ") and message in str(info.value)
    assert info.value.line == 3


def test_the_header_comes_first_and_its_version_is_checked():
    with pytest.raises(RecordError, match="g.jsonl:1: the record starts with the \"game\" header"):
        read_lines(['{"type":"deal","dealer":"N"}'], "g.jsonl")
    with pytest.raises(RecordError, match="version 2: this program reads version 1"):
        read_lines(['{"type":"game","version":2,"rules":"classic"}'], "g.jsonl")


def test_blank_lines_only_at_the_end():
    assert len(read_lines([HEADER, "", ""])) == 1
    with pytest.raises(RecordError, match=":2: blank line inside the record"):
        read_lines([HEADER, "", '{"type":"deal","dealer":"N"}'], "g")


def test_unknown_fields_are_ignored_for_later_versions():
    events = read_lines([HEADER, '{"type":"deal","dealer":"N","camera":"cam0","t":12.5}'])
    assert events[1]["camera"] == "cam0"


def test_unreadable_files_say_so(tmp_path):
    with pytest.raises(RecordError, match="cannot read the record"):
        read_record(tmp_path / "missing.jsonl")
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match=r"b.jsonl:1: not UTF-8 text \(byte 0xff at column 1\)"):
        read_record(binary)


def test_bad_utf8_names_its_line(tmp_path):
    # issue 12: the first bad byte's line and column, the good lines before it untouched
    path = tmp_path / "g.jsonl"
    path.write_bytes(HEADER.encode() + b'\n{"type":"deal","dealer":"N"}\n{"type":"call","seat":"E","call":"pa\xe9ss"}\n')
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert caught.value.line == 3 and "byte 0xe9 at column 37" in str(caught.value)


@pytest.mark.parametrize("line, says", [
    ("[" * 100_000 + "]" * 100_000, "nested deeper than 16 levels"),
    ('{"type":"deal","dealer":"N","x":' + "9" * 5000 + "}", "a number with 5000 digits"),
    ('{"type":"call","seat":"E","call":"' + "9" * 5000 + 'h"}', "is not a call"),
    ('{"type":"deal","dealer":"N","x":NaN}', "NaN is not a number"),
    ('{"type":"deal","dealer":"N","x":1e999}', "too large"),
])
def test_hostile_lines_are_record_errors_naming_the_line(line, says):
    # issue 12: `referee check` threw a RecursionError / ValueError traceback on these
    with pytest.raises(RecordError, match=says) as caught:
        events = read_lines([HEADER, '{"type":"deal","dealer":"N"}', line][:3] if "call" in line else [HEADER, line])
        Game.from_events(events)
    assert caught.value.line in (2, 3)


def test_write_refuses_a_malformed_event_and_leaves_no_file(tmp_path):
    path = tmp_path / "g.jsonl"
    with pytest.raises(RecordError):
        write_record(path, [json.loads(HEADER), {"type": "play", "seat": "Q", "card": "7s"}])
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.one_of(st.text(max_size=40), st.builds(json.dumps, st.dictionaries(
    st.sampled_from(["type", "seat", "card", "call", "ref", "replace", "dealer", "hands", "version", "rules"]),
    st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.text(max_size=3), max_size=3)),
    max_size=5))), max_size=6))
def test_any_text_is_read_or_refused_with_a_line_number(lines):
    from referee.game import Game
    try:
        Game.from_events(read_lines([HEADER] + lines, "g.jsonl"), "g.jsonl")
    except RecordError as exc:
        assert exc.line is not None and str(exc).startswith(f"g.jsonl:{exc.line}: ")


def test_windows_line_ends_and_a_bom_are_read(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + '\r\n{"type":"deal","dealer":"N"}\r\n').encode())
    assert [e["type"] for e in read_record(path)] == ["game", "deal"]
