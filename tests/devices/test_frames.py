"""Frame parsers: examples of every kind of damage, and properties over arbitrary bytes."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kikimimi.devices.frames import Rdm6300Parser, UidLineParser, rdm6300_frame

A, B = "0102030405", "1a2b3c4d5e"


def feed_all(parser, chunks):
    out = []
    for chunk in chunks:
        out += parser.feed(chunk)
    return out


def test_frame_builder_checksum_is_xor_of_the_five_bytes():
    frame = rdm6300_frame("62E3086CED")
    assert frame == b"\x0262E3086CED08\x03"  # a real tag's frame from an RDM6300 data sheet example


def test_noise_between_frames_is_dropped_and_counted():
    p = Rdm6300Parser()
    assert p.feed(b"\xff\x00junk" + rdm6300_frame(A) + b"\r\n" + rdm6300_frame(B)) == [A, B.lower()]
    assert p.dropped == 2


def test_frame_split_across_writes_at_every_position():
    frame = rdm6300_frame(A)
    for cut in range(1, len(frame)):
        p = Rdm6300Parser()
        assert feed_all(p, [frame[:cut], frame[cut:]]) == [A]
        assert p.dropped == 0


def test_bad_checksum_is_never_a_tap():
    bad = bytearray(rdm6300_frame(A))
    bad[11:13] = b"00"
    p = Rdm6300Parser()
    assert p.feed(bytes(bad)) == []
    assert p.dropped == 1


def test_truncated_frame_resynchronises_on_next_stx():
    p = Rdm6300Parser()
    assert p.feed(rdm6300_frame(A)[:7] + rdm6300_frame(B)) == [B.lower()]
    assert p.dropped == 1


def test_missing_etx_is_dropped():
    p = Rdm6300Parser()
    assert p.feed(rdm6300_frame(A)[:-1] + b"X") == []
    assert p.dropped >= 1


VALID = re.compile(rb"\x02([0-9A-Fa-f]{10})([0-9A-Fa-f]{2})\x03")


def valid_frames(data: bytes) -> list[str]:
    """An independent reading of the stream: every well-formed frame with a right checksum."""
    uids = []
    for m in VALID.finditer(data):
        body = bytes.fromhex(m.group(1).decode())
        check = 0
        for byte in body:
            check ^= byte
        if check == int(m.group(2), 16):
            uids.append(m.group(1).decode().lower())
    return uids


frame_or_noise = st.one_of(
    st.binary(max_size=20),
    st.text("0123456789ABCDEF", min_size=10, max_size=10).map(lambda s: rdm6300_frame(s)),
    st.text("0123456789ABCDEF", min_size=10, max_size=10).map(lambda s: rdm6300_frame(s)[:-3]),
    st.sampled_from([b"\x02", b"\x03", b"\x02\x02", b"\x0200000000000\x03"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(frame_or_noise, max_size=12), st.lists(st.integers(0, 200), max_size=8))
def test_rdm6300_reports_exactly_the_valid_frames_however_split(parts, cuts):
    data = b"".join(parts)
    points = sorted({c % (len(data) + 1) for c in cuts})
    chunks = [data[i:j] for i, j in zip([0, *points], [*points, len(data)], strict=True)]
    assert feed_all(Rdm6300Parser(), chunks) == valid_frames(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_rdm6300_never_raises_and_only_reports_valid_frames(data):
    assert Rdm6300Parser().feed(data) == valid_frames(data)


def test_uid_line_events():
    p = UidLineParser()
    events = p.feed(b"READY kikimimi-bridge 1\r\nUID 04A1B2C3D4E5F6\r\nREMOVED\nUID 04:a1:b2:c3\nbogus line\n")
    assert [(e.kind, e.value) for e in events] == [
        ("info", "READY kikimimi-bridge 1"), ("uid", "04a1b2c3d4e5f6"), ("removed", ""), ("uid", "04a1b2c3")]
    assert p.dropped == 1


def test_uid_line_split_and_overlong_lines():
    p = UidLineParser()
    assert p.feed(b"UID 04A1") == []
    assert [e.value for e in p.feed(b"B2C3\n")] == ["04a1b2c3"]
    assert p.feed(b"UID " + b"A" * 500 + b"\nUID 0102A0B0\n")[0].value == "0102a0b0"
    assert p.dropped == 1


@pytest.mark.parametrize(("size", "tap"), [(2, False), (3, False), (4, True), (5, False), (6, False),
                                           (7, True), (8, False), (10, True), (16, False)])
def test_uid_line_takes_only_real_uid_sizes(size, tap):
    """Real tags have 4, 7 or 10 byte UIDs; any other length is a garbled line: dropped, not a tap."""
    p = UidLineParser()
    events = p.feed(b"UID " + b"A1" * size + b"\n")
    assert [e.kind for e in events] == (["uid"] if tap else [])
    assert p.dropped == (0 if tap else 1)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_uid_line_never_raises_and_uids_come_from_uid_lines(data):
    for event in UidLineParser().feed(data):
        if event.kind == "uid":
            assert re.search(rb"(^|\n)\s*UID[ :]+" + b":?".join(
                re.escape(event.value[i:i + 2].encode()) + b"" for i in range(0, len(event.value), 2)), data,
                re.IGNORECASE)
