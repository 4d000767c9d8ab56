"""Keeping the speaker current: superseded public phrases dropped, short forms when behind (issue 15, item 11)."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kikimimi.games.base import SPEAKER, Say, hand
from kikimimi.voice.catalog import SHORT_SUFFIX, Catalog, CatalogError, catalog
from kikimimi.voice.clip import Clip
from kikimimi.voice.config import OutputSpec, VoiceSpec
from kikimimi.voice.router import FAST_SPEED, Voice

CATALOG = """
language = "en"
[values.suit]
heart = "heart"
spade = "spade"
[phrases]
"t.turn" = { text = "Seat {seat}, {suit}.", short = "{seat}, {suit}.", supersedes = "turn" }
"t.play" = { text = "Seat {seat} plays", short = "{seat} plays" }
"t.other" = "Something else."
"t.digit" = { text = "{count}.", outdates = ["turn"] }
"""


class _Audio:
    speech = None

    def find(self, line, params):  # noqa: ANN001
        return Clip((0.3 * np.sin(np.arange(1000) / 3)).astype(np.float32), 1000), "tts", ""


class _GatedSink:
    """Blocks each phrase until `gate` opens: the first phrase is 'playing' while the rest queue."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.playing = threading.Event()
        self.seconds: list[float] = []

    def play(self, clip, gain) -> None:  # noqa: ANN001
        self.seconds.append(clip.seconds)
        self.playing.set()
        assert self.gate.wait(5)

    def close(self) -> None:
        pass


@pytest.fixture
def rig(tmp_path: Path):
    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "t.en.toml").write_text(CATALOG)
    phrases = Catalog.load("en", folder)
    lines: list[tuple[str, str]] = []
    outputs = [OutputSpec(name, None, (1,), 1.0, "wav") for name in (SPEAKER, hand(1))]
    spec = VoiceSpec("en", "none", None, None, False, tmp_path / "wav")
    voice = Voice.open(spec, outputs, on_line=lambda out, line: lines.append((out, line.text)), phrases=phrases)
    voice.audio = _Audio()  # type: ignore[assignment]
    sinks = {}
    for name, out in voice.outputs.items():
        assert out.wav is not None
        out.wav.close()
        out.wav = sinks[name] = _GatedSink()  # type: ignore[assignment]
    yield voice, sinks, lines
    for sink in sinks.values():
        sink.gate.set()
    voice.close()


def _said(voice: Voice, sinks: dict, lines: list, output: str) -> list[str]:
    sinks[output].gate.set()
    assert voice.wait_idle(timeout=5)
    return [text for out, text in lines if out == output]


def test_a_queued_superseded_speaker_phrase_is_dropped_and_the_playing_one_is_not_cut(rig) -> None:
    voice, sinks, lines = rig
    voice.say(Say(SPEAKER, "t.turn", {"seat": 1, "suit": "heart"}))
    assert sinks[SPEAKER].playing.wait(5)  # seat 1's turn is playing: never cut
    voice.say(Say(SPEAKER, "t.play", {"seat": 1}))
    voice.say(Say(SPEAKER, "t.turn", {"seat": 2, "suit": "spade"}))  # queued, then superseded
    voice.say(Say(SPEAKER, "t.other", {}))
    voice.say(Say(SPEAKER, "t.turn", {"seat": 3, "suit": "heart"}))
    said = _said(voice, sinks, lines, SPEAKER)
    assert said[0] == "Seat 1, heart."
    assert [s for s in said if "2" in s] == []
    assert said[1] == "1 plays" or said[1] == "Seat 1 plays"  # the others keep their order
    assert said[2] == "Something else."
    assert said[3].endswith("3, heart.")
    assert len(said) == 4
    assert voice.outputs[SPEAKER].dropped == 1


def test_a_phrase_that_outdates_a_group_drops_its_waiting_phrases_but_not_its_own_kind(rig) -> None:
    voice, sinks, lines = rig
    voice.say(Say(SPEAKER, "t.other", {}))
    assert sinks[SPEAKER].playing.wait(5)
    voice.say(Say(SPEAKER, "t.digit", {"count": 3}))  # a digit waits; the next one must not drop it
    voice.say(Say(SPEAKER, "t.turn", {"seat": 2, "suit": "spade"}))  # "seat 2 to call": waits ...
    voice.say(Say(SPEAKER, "t.digit", {"count": 1}))  # ... and is stale once seat 2's call begins
    said = _said(voice, sinks, lines, SPEAKER)
    assert said == ["Something else.", "3.", "1."]
    assert voice.outputs[SPEAKER].dropped == 1


def test_an_earphone_phrase_is_never_dropped(rig) -> None:
    voice, sinks, lines = rig
    seat = hand(1)
    voice.say(Say(seat, "t.turn", {"seat": 1, "suit": "heart"}))
    assert sinks[seat].playing.wait(5)
    for n in (2, 3, 1):
        voice.say(Say(seat, "t.turn", {"seat": n, "suit": "spade"}))
        voice.say(Say(seat, "t.digit", {"count": n}))  # outdates "turn": only ever on the speaker
    said = _said(voice, sinks, lines, seat)
    assert [s.rstrip(".").split(",")[0][-1] for s in said] == ["1", "2", "2", "3", "3", "1", "1"]
    assert sum(s.endswith("spade.") for s in said) == 3  # every turn phrase kept, short or not
    assert voice.outputs[seat].dropped == 0


def test_supersession_off_keeps_every_phrase(rig) -> None:
    voice, sinks, lines = rig
    voice.supersede = False
    voice.say(Say(SPEAKER, "t.other", {}))
    assert sinks[SPEAKER].playing.wait(5)
    voice.say(Say(SPEAKER, "t.turn", {"seat": 2, "suit": "spade"}))
    voice.say(Say(SPEAKER, "t.turn", {"seat": 3, "suit": "heart"}))
    assert len(_said(voice, sinks, lines, SPEAKER)) == 3


def test_short_form_when_behind_full_when_not(rig) -> None:
    voice, sinks, lines = rig
    voice.say(Say(SPEAKER, "t.play", {"seat": 1}))  # nothing queued: full
    assert sinks[SPEAKER].playing.wait(5)
    voice.say(Say(SPEAKER, "t.play", {"seat": 2}))  # two phrases wait behind it: short
    voice.say(Say(SPEAKER, "t.other", {}))
    voice.say(Say(SPEAKER, "t.other", {}))
    voice.say(Say(SPEAKER, "t.play", {"seat": 3}))  # last, said at once: full
    said = _said(voice, sinks, lines, SPEAKER)
    assert said == ["Seat 1 plays", "2 plays", "Something else.", "Something else.", "Seat 3 plays"]


def test_short_forms_off_says_everything_in_full(rig) -> None:
    voice, sinks, lines = rig
    voice.short_forms = False
    voice.say(Say(SPEAKER, "t.other", {}))
    assert sinks[SPEAKER].playing.wait(5)
    for _ in range(3):
        voice.say(Say(SPEAKER, "t.play", {"seat": 2}))
    assert _said(voice, sinks, lines, SPEAKER)[1:] == ["Seat 2 plays"] * 3


# -- catalog ----------------------------------------------------------------------------------------


def _load(tmp_path: Path, body: str, lang: str = "en") -> Catalog:
    (tmp_path / f"x.{lang}.toml").write_text(f'language = "{lang}"\n[phrases]\n{body}\n')
    return Catalog.load(lang, tmp_path)


def test_catalog_reads_short_forms_and_groups(tmp_path: Path) -> None:
    c = _load(tmp_path, '"a" = { text = "Seat {seat} plays", short = "{seat} plays", supersedes = "turn" }\n'
                        '"b" = "Plain."')
    assert (c.group("a"), c.group("b"), c.group("missing")) == ("turn", None, None)
    assert c.has_short("a") and not c.has_short("b")
    full, short = c.render("a", {"seat": 2}), c.render("a", {"seat": 2}, short=True)
    assert (full.text, short.text) == ("Seat 2 plays", "2 plays")
    assert short.entry == "a" + SHORT_SUFFIX and full.entry == "a"
    assert c.render("b", short=True).text == "Plain."  # no short form: the full text


def test_japanese_short_form_has_its_reading(tmp_path: Path) -> None:
    c = _load(tmp_path, '"a" = { text = "{seat}番です", kana = "{seat}ばんです", short = "{seat}番", '
                        'short_kana = "{seat}ばん" }', "ja")
    line = c.render("a", {"seat": 2}, short=True)
    assert (line.text, line.reading) == ("2番", "にばん")


def test_catalog_reads_outdated_groups(tmp_path: Path) -> None:
    c = _load(tmp_path, '"a" = { text = "Seat {seat} plays", supersedes = "turn", outdates = ["ask"] }\n'
                        '"b" = { text = "Please tap.", supersedes = "ask" }\n'
                        '"c" = { text = "Next.", outdates = "turn" }\n'
                        '"d" = "Plain."')
    assert (c.drops("a"), c.drops("b"), c.drops("c"), c.drops("d"), c.drops("missing")) == (
        ("turn", "ask"), ("ask",), ("turn",), (), ())
    assert c.group("c") is None  # outdating a group is not joining it


def test_a_brisk_phrase_and_a_joined_one_of_brisk_parts_are_said_faster_always(tmp_path: Path) -> None:
    (tmp_path / "x.en.toml").write_text('language = "en"\n[params]\nparts = "phrases"\n[phrases]\n'
                                        '"a" = { text = "Seat {seat}.", brisk = true }\n"b" = "Plain."\n'
                                        '"all" = "{parts}"\n')
    c = Catalog.load("en", tmp_path)
    assert c.brisk("a", {"seat": 3}) and not c.brisk("b", {}) and not c.brisk("missing", {})
    assert c.brisk("all", {"parts": (("a", {"seat": 1}), ("a", {"seat": 2}))})
    assert not c.brisk("all", {"parts": (("a", {"seat": 1}), ("b", {}))})  # a part at its own pace: all of it
    with pytest.raises(CatalogError, match="brisk"):
        _load(tmp_path, '"a" = { text = "Hi", brisk = "yes" }')


def test_the_lag_bench_plays_a_brisk_phrase_faster_only_where_the_table_keeps_current() -> None:
    from kikimimi.voice.lagbench import Said, simulate

    said = [Said(1, 0, SPEAKER, "t.reveal", "reveal", None, None, (), True, True),
            Said(2, 0, SPEAKER, "t.play", "play", None, None)]
    seconds = {"reveal": 5.0, "play": 1.0}
    assert simulate(said, 1.5, seconds, keep_current=True)["awaited"]["max_s"] == pytest.approx(5.0 / FAST_SPEED)
    assert simulate(said, 1.5, seconds, keep_current=False)["awaited"]["max_s"] == pytest.approx(5.0)


@pytest.mark.parametrize(
    ("body", "lang", "says"),
    [
        ('"a" = { text = "Seat {seat} plays", short = "Seat plays" }', "en", "same parameters"),
        ('"a" = { text = "Seat {seat} plays", short = "{count} plays" }', "en", "same parameters"),
        ('"a" = { text = "Hi", short = "" }', "en", "non-empty"),
        ('"a" = { text = "Hi", supersedes = 3 }', "en", "supersedes"),
        ('"a" = { text = "Hi", outdates = [3] }', "en", "outdates"),
        ('"a" = { text = "Hi", outdates = ["tunr"] }\n"b" = { text = "Ho", supersedes = "turn" }', "en",
         "a group no phrase joins"),
        ('"a" = { text = "Hi", short_kana = "はい" }', "en", "without a `short`"),
        ('"a" = { text = "{seat}番", kana = "{seat}ばん", short = "{seat}" }', "ja", "short_kana"),
        ('"a" = { text = "{seat}番", kana = "{seat}ばん", short = "{seat}", short_kana = "{seat}番" }', "ja", "kanji"),
    ],
)
def test_catalog_refuses_bad_short_forms(tmp_path: Path, body: str, lang: str, says: str) -> None:
    with pytest.raises(CatalogError, match=says):
        _load(tmp_path, body, lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_trident_declares_its_turn_group_and_short_forms(lang: str) -> None:
    c = catalog(lang, "trident")
    assert c.group("turn.next") == c.group("turn.attacked") == c.group("play.next") == c.group("pass.next") == "turn"
    assert set(c.drops("play.next")) == {"turn", "piece", "ask"}  # a play makes a waiting start prompt stale
    assert c.drops("pending.accepted") == ("turn",)  # "seat 2: draw 2, or answer" is stale once it is accepted
    for key in ("turn.next", "penalty.wrong_play", "draw.owed", "turn.attacked"):
        assert c.has_short(key), key
        full = c.render(key, {"seat": 2, "suit": "heart", "count": 4})
        short = c.render(key, {"seat": 2, "suit": "heart", "count": 4}, short=True)
        assert len(short.reading) < len(full.reading), key


def test_time_stretch_is_faster_at_the_same_pitch() -> None:
    from kikimimi.voice.clip import time_stretch
    from kikimimi.voice.router import FAST_SPEED

    rate = 24000
    t = np.arange(2 * rate) / rate
    clip = Clip((0.5 * np.sin(2 * np.pi * 220 * t)).astype(np.float32), rate)
    fast = time_stretch(clip, FAST_SPEED)
    assert abs(fast.seconds - 2 / FAST_SPEED) < 0.01
    spectrum = np.abs(np.fft.rfft(fast.samples))
    assert abs(np.fft.rfftfreq(len(fast.samples), 1 / rate)[np.argmax(spectrum)] - 220) < 2


def test_an_earphone_behind_speaks_faster_and_drops_nothing(rig) -> None:
    from kikimimi.voice.router import FAST_SPEED

    voice, sinks, lines = rig
    voice.say(Say(hand(1), "t.other", {}))
    assert sinks[hand(1)].playing.wait(5)  # nothing behind it: at speed
    for _ in range(3):  # the first of these has two behind it: faster; the others not
        voice.say(Say(hand(1), "t.other", {}))
    assert len(_said(voice, sinks, lines, hand(1))) == 4
    assert [round(s, 2) for s in sinks[hand(1)].seconds] == [1.0, round(1 / FAST_SPEED, 2), 1.0, 1.0]


def test_the_lag_bench_plays_the_speakers_rules_out_in_simulated_time() -> None:
    from kikimimi.voice.lagbench import Said, simulate

    said = [Said(1, 0, SPEAKER, "t.other", "long", None, None),  # 3 s: the next tap's phrases wait
            Said(1, 0, hand(1), "t.turn", "turn", None, "turn"),  # private: never dropped
            Said(2, 0, SPEAKER, "t.turn", "turn", None, "turn", ("turn",)),
            Said(2, 0, SPEAKER, "t.play", "play", None, None),
            Said(3, 0, SPEAKER, "t.digit", "digit", None, None, ("turn",)),  # seat 2's turn is stale now
            Said(3, 0, hand(1), "t.digit", "digit", None, None, ("turn",))]
    seconds = {"long": 3.0, "turn": 1.0, "play": 0.5, "digit": 0.3}
    before = simulate(said, 1.0, seconds, keep_current=False)
    after = simulate(said, 1.0, seconds, keep_current=True)
    assert (before["superseded"], after["superseded"]) == (0, 1)
    assert before["speaker"]["count"] == 4 and after["speaker"]["count"] == 3
    assert after["speaker"]["max_s"] < before["speaker"]["max_s"]
    # A tap's answer is when its first phrase starts: tap 2's second phrase waits for its first, not for the table.
    assert before["speaker_answer"]["count"] == 3 and before["speaker_answer"]["max_s"] < before["speaker"]["max_s"]
    assert before["private_intact"] and after["private_intact"] and after["earphones"]["count"] == 2


def test_the_lag_bench_decides_behind_where_the_table_does_at_pick_up() -> None:
    from kikimimi.voice.lagbench import Said, simulate
    from kikimimi.voice.router import LOOKAHEAD_SECONDS
    from kikimimi.voice.sinks import GAP_SECONDS

    # A 3 s phrase, then one said 2 s later: it starts 1.15 s late, but the worker picks it up LOOKAHEAD_SECONDS
    # before the first ends, when it has waited 0.85 s (not behind): it plays in full.
    said = [Said(0, 0, SPEAKER, "t.other", "long", None, None),
            Said(1, 0, SPEAKER, "t.play", "play", "play.short", None)]
    seconds = {"long": 3.0, "play": 1.0, "play.short": 0.5}
    late = simulate(said, 2.0, seconds, keep_current=True)
    assert late["speaker"]["max_s"] == pytest.approx(3.0 + GAP_SECONDS - 2.0)
    assert 3.0 + GAP_SECONDS - LOOKAHEAD_SECONDS - 2.0 < 1.0 < late["speaker"]["max_s"]
    assert late["short"] == late["faster"] == 0
    # Said 0.5 s sooner, it has waited over a second when picked up: short and faster.
    later = simulate(said, 1.5, seconds, keep_current=True)
    assert later["short"] == later["faster"] == 1


def test_the_lag_bench_starts_the_next_taps_after_a_reveal_the_players_wait_to_hear() -> None:
    from kikimimi.voice.lagbench import Said, simulate

    # An 8 s reveal at tap 1; tap 2 says a 1 s phrase and tells seat 1. Players who wait for the reveal tap again
    # 1.5 s after it ends: nothing waits then. Without the wait tap 2's phrase would queue behind the reveal.
    said = [Said(1, 0, SPEAKER, "t.other", "reveal", None, None, (), True),
            Said(2, 0, SPEAKER, "t.play", "play", None, None),
            Said(2, 0, hand(1), "t.play", "play", None, None)]
    seconds = {"reveal": 8.0, "play": 1.0}
    waited = simulate(said, 1.5, seconds, keep_current=True)
    assert waited["speaker"]["max_s"] == 0.0 and waited["earphones"]["max_s"] == 0.0
    hurried = simulate([replace(item, waits=False) for item in said], 1.5, seconds, keep_current=True)
    assert hurried["speaker"]["max_s"] > 6.0
