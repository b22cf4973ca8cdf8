"""Cutting a serial byte stream into lines: resync on newlines, bounded memory on noise."""

from __future__ import annotations

import pytest

from firmware_bridge.bridge import LineSplitter
from firmware_bridge.protocol import MAX_LINE, BadFrame, decode, encode_fields

GOOD = encode_fields(["TAG", 1, 2, 3, "04A1B2C3", "ON"])


def test_lines_split_across_reads_come_out_whole():
    splitter = LineSplitter()
    assert splitter.feed(GOOD[:10]) == []
    assert splitter.feed(GOOD[10:] + b"\n" + GOOD[:3]) == [GOOD]
    assert splitter.feed(GOOD[3:] + b"\r\n") == [GOOD + b"\r"]


def test_an_endless_line_is_cut_as_it_grows_and_reported_too_long_when_it_ends():
    splitter = LineSplitter()
    for _ in range(1000):                      # 64 KB of noise without a newline
        assert splitter.feed(b"\xaa" * 64) == []
        assert len(splitter._buf) <= MAX_LINE + 2
    noise, good = splitter.feed(b"\n" + GOOD + b"\n")
    with pytest.raises(BadFrame) as exc:
        decode(noise)
    assert exc.value.kind == "too-long"
    assert decode(good).uid == "04A1B2C3", "the next line after the noise is read again"


def test_a_line_of_exactly_the_limit_passes_and_one_more_byte_does_not():
    body = b"HB,1,1,pad="
    for n, ok in ((MAX_LINE, True), (MAX_LINE + 1, False)):
        line = encode_fields(["HB", 1, 1, "pad=" + "x" * (n - len(body) - 6)])
        assert len(line) == n
        (got,) = LineSplitter().feed(line + b"\n")
        if ok:
            assert decode(got).counters[0][0] == "pad"
        else:
            with pytest.raises(BadFrame, match="too-long"):
                decode(got)
