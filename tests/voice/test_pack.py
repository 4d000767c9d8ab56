"""Voice packs: incremental rendering keyed by the text's hash, recorded overrides, the lookup order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from voice_helpers import CATALOG_EN, make_catalog, record, tone

from kikimimi.games.base import Say
from kikimimi.voice.catalog import Catalog, Line
from kikimimi.voice.clip import LOUDNESS_LUFS, Clip, loudness
from kikimimi.voice.pack import Pack, RecordedPack, entry_id, render_pack
from kikimimi.voice.router import PhraseAudio


class CountingSynth:
    """A stand-in speech engine: a tone whose length depends on the text, counting what it renders."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, line: Line) -> Clip:
        self.texts.append(line.reading)
        return tone(300 + 10 * len(line.reading), 0.01 * len(line.reading))


def test_entry_ids() -> None:
    assert entry_id("table.resuming", {}) == "table.resuming"
    assert entry_id("test.card", {"suit": "heart", "count": 7}) == "test.card[count=7,suit=heart]"


def test_render_all_combinations_then_only_what_changed(tmp_path: Path) -> None:
    catalog = Catalog.load("en", make_catalog(tmp_path))
    synth = CountingSynth()
    report = render_pack(catalog, "espeak", "v1", synth, tmp_path / "pack")
    expected = 1 + 3 + 2 * 61  # hello, private x seats, card x suits x counts
    assert len(report.rendered) == expected == len(synth.texts) and not report.failed

    synth.texts.clear()
    assert render_pack(catalog, "espeak", "v1", synth, tmp_path / "pack").rendered == [] and synth.texts == []

    changed = CATALOG_EN.replace('"Hello table."', '"Hello, dear table."')
    catalog = Catalog.load("en", make_catalog(tmp_path, changed))
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "pack" / "audio").iterdir()}
    report = render_pack(catalog, "espeak", "v1", synth, tmp_path / "pack")
    assert report.rendered == ["test.hello"] and synth.texts == ["Hello, dear table."]
    after = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "pack" / "audio").iterdir()}
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    assert set(after) - set(before) == set(_files(pack, "test.hello"))  # the new text's clip, the old one gone
    assert len(set(before) - set(after)) == 1 and all(after[name] == before[name] for name in set(after) & set(before))


def _files(pack: Pack | None, entry: str) -> list[str]:
    assert pack is not None
    return [pack.clips[clip_id]["file"] for clip_id in pack.entries[entry]["clips"]]


def test_a_removed_phrase_leaves_the_pack_only_when_pruned(tmp_path: Path) -> None:
    synth = CountingSynth()
    render_pack(Catalog.load("en", make_catalog(tmp_path)), "espeak", "v1", synth, tmp_path / "pack")
    [hello] = _files(Pack.load(tmp_path / "pack", "en", "espeak"), "test.hello")
    smaller = Catalog.load("en", make_catalog(tmp_path, CATALOG_EN.replace('"test.hello" = "Hello table."\n', "")))
    report = render_pack(smaller, "espeak", "v1", synth, tmp_path / "pack")
    assert (report.removed, report.stale) == (0, 1) and (tmp_path / "pack" / "audio" / hello).exists()
    report = render_pack(smaller, "espeak", "v1", synth, tmp_path / "pack", prune=True)
    assert report.removed == 1 and not (tmp_path / "pack" / "audio" / hello).exists()
    assert "test.hello" not in Pack.load(tmp_path / "pack", "en", "espeak").entries


def test_pack_lookup_refuses_audio_of_an_old_text(tmp_path: Path) -> None:
    catalog = Catalog.load("en", make_catalog(tmp_path))
    render_pack(catalog, "espeak", "v1", CountingSynth(), tmp_path / "pack")
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    assert pack is not None and pack.preload() > 0
    line = catalog.render("test.private", {"seat": 2})
    clip = pack.get(line, {"seat": 2})
    assert clip is not None and len(clip.samples) == int(0.01 * len(line.reading) * 22050) and clip.rate == 22050
    edited = Line(line.key, "Seat 2, new words.", "Seat 2, new words.", "en")
    assert pack.get(edited, {"seat": 2}) is None
    assert Pack.load(tmp_path / "pack", "ja", "espeak") is None  # another language's pack is not used


def test_fallback_order_recorded_then_pack_then_text(tmp_path: Path) -> None:
    catalog = Catalog.load("en", make_catalog(tmp_path))
    render_pack(catalog, "espeak", "", CountingSynth(), tmp_path / "pack")
    rec = tmp_path / "rec"
    record(rec, "test.private[seat=1]", tone(1000, 0.2))
    record(rec, "test.hello", tone(500, 0.2))
    audio = PhraseAudio("en", "espeak", RecordedPack.load(rec), Pack.load(tmp_path / "pack", "en", "espeak"), None)

    def source(key: str, params: dict) -> str:
        return audio.find(catalog.render(key, params), params)[1]

    assert source("test.private", {"seat": 1}) == "recorded"
    assert source("test.hello", {}) == "recorded"
    assert source("test.private", {"seat": 2}) == "pack"
    assert source("test.card", {"suit": "heart", "count": 99}) == "text"  # not rendered, no live speech
    assert source("no.such.key", {}) == "text"


def test_recorded_key_alone_covers_every_parameter(tmp_path: Path) -> None:
    record(tmp_path, "test.private", tone(700, 0.1))
    pack = RecordedPack.load(tmp_path)
    clip = pack.get("test.private", {"seat": 3})
    assert clip is not None and np.max(np.abs(clip.samples)) > 0.4


def test_one_pack_holds_every_games_phrases_each_under_its_namespace(tmp_path: Path) -> None:
    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "common.en.toml").write_text('language = "en"\n[phrases]\n"table.ready" = "Ready."\n')
    (folder / "one.en.toml").write_text('language = "en"\n[phrases]\n"game.over" = "One is over."\n')
    (folder / "two.en.toml").write_text('language = "en"\n[phrases]\n"game.over" = "Two is over."\n')
    catalogs = [Catalog.load("en", folder, namespace) for namespace in ("one", "two")]
    render_pack(catalogs, "espeak", "v1", CountingSynth(), tmp_path / "pack")
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    assert set(pack.entries) == {"table.ready", "one:game.over", "two:game.over"}
    for words in catalogs:  # each game's line finds its own audio
        assert pack.get(words.render("game.over"), {}) is not None


def _two_games(tmp_path: Path) -> list[Catalog]:
    folder = tmp_path / "catalog"
    folder.mkdir(exist_ok=True)
    (folder / "common.en.toml").write_text('language = "en"\n[phrases]\n"table.ready" = "Ready."\n')
    (folder / "one.en.toml").write_text('language = "en"\n[phrases]\n"game.over" = "One is over."\n')
    (folder / "two.en.toml").write_text('language = "en"\n[phrases]\n"game.over" = "Two is over."\n'
                                        '"game.seat" = "Seat {seat}."\n')
    return [Catalog.load("en", folder, namespace) for namespace in ("one", "two")]


def test_rendering_one_game_never_removes_another_games_pack(tmp_path: Path) -> None:
    """Issue 21: `voices render --game numeron` after the Trident removed the Trident's 923 clips."""
    one, two = _two_games(tmp_path)
    render_pack(one, "espeak", "v1", CountingSynth(), tmp_path / "pack")
    report = render_pack(two, "espeak", "v1", CountingSynth(), tmp_path / "pack")
    assert report.removed == 0 and report.other_games == 1 and report.kept == 1  # table.ready is common
    report = render_pack(two, "espeak", "v1", CountingSynth(), tmp_path / "pack", prune=True)
    assert report.removed == 0  # pruning the second game leaves the first alone too
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    assert set(pack.entries) == {"table.ready", "one:game.over", "two:game.over", *(
        f"two:game.seat[seat={n}]" for n in (1, 2, 3))}
    assert pack.coverage(one).complete and pack.coverage(two).complete
    assert pack.get(one.render("game.over"), {}) is not None


def test_an_interrupted_render_keeps_what_it_finished(tmp_path: Path) -> None:
    _one, two = _two_games(tmp_path)

    class DiesOnThird(CountingSynth):
        def __call__(self, line: Line) -> Clip:
            if len(self.texts) == 2:
                raise KeyboardInterrupt
            return super().__call__(line)

    with pytest.raises(KeyboardInterrupt):
        render_pack(two, "espeak", "v1", DiesOnThird(), tmp_path / "pack")
    assert len(Pack.load(tmp_path / "pack", "en", "espeak").entries) == 2
    again = CountingSynth()
    report = render_pack(two, "espeak", "v1", again, tmp_path / "pack")
    assert (report.kept, len(report.rendered)) == (2, 3) and len(again.texts) == 3


def test_pack_clips_are_compressed_at_a_speech_rate_and_one_loudness(tmp_path: Path) -> None:
    loud, quiet = tone(440, 1.0, rate=48000, amp=0.9), tone(440, 1.0, rate=48000, amp=0.05)
    clips = {"test.hello": loud, "test.private": quiet}
    catalog = Catalog.load("en", make_catalog(tmp_path))
    words = Catalog(catalog.lang, {k: catalog.phrases[k] for k in ("test.hello", "test.private")}, catalog.values)
    render_pack(words, "espeak", "v1", lambda line: clips[line.key], tmp_path / "pack")
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    a, b = pack.get(words.render("test.hello"), {}), pack.get(words.render("test.private", {"seat": 1}), {"seat": 1})
    assert a.rate == b.rate == 24000 and len(a.samples) == 24000
    assert abs(loudness(a) - LOUDNESS_LUFS) < 0.5 and abs(loudness(b) - LOUDNESS_LUFS) < 0.5
    wav_bytes = 2 * 48000
    assert all(meta["bytes"] < wav_bytes / 2 for meta in pack.clips.values())


def test_a_table_whose_pack_misses_its_game_says_so_once_with_the_command(tmp_path: Path, caplog) -> None:
    from kikimimi.voice.config import OutputSpec, VoiceSpec
    from kikimimi.voice.router import Voice

    one, two = _two_games(tmp_path)
    render_pack(one, "espeak", "", CountingSynth(), tmp_path / "pack")
    spec = VoiceSpec("en", "espeak", tmp_path / "pack", None, False, None)
    voice = Voice.open(spec, [OutputSpec("speaker", None, (1,), 1.0, "null")], phrases=one)
    alerts: list = []
    try:
        assert voice.check_pack(one).complete
        with caplog.at_level("WARNING", logger="kikimimi.voice"):
            for _ in range(3):
                coverage = voice.check_pack(two)
        voice.alerts_to(alerts.append)  # the table takes the alerts once it runs: the one raised before comes
        voice.check_pack(two)
    finally:
        voice.close()
    [alert] = alerts  # the Priest is told once, on the console, as in the log
    assert alert.key == "voice.pack_incomplete" and (alert.params["held"], alert.params["wanted"]) == (1, 5)
    assert alert.params["command"].startswith("kikimimi voices render --lang en --backend espeak --game two")
    assert (coverage.held, coverage.wanted) == (1, 5)  # the common phrase only
    [warning] = [r.getMessage() for r in caplog.records if "voice pack" in r.getMessage()]
    assert "holds 1 of 5 phrases" in warning and "for two" in warning
    assert f"kikimimi voices render --lang en --backend espeak --game two --out {tmp_path / 'pack'}" in warning


def test_a_joined_phrase_plays_its_parts_pack_clips_in_turn_not_live_speech(tmp_path: Path) -> None:
    """A reveal is one utterance made of parts; when the pack holds every part, it is said from their clips
    (no live speech, which a Pi takes seconds over), a breath apart; with a part missing, as any line."""
    from types import SimpleNamespace

    from kikimimi.games.phrasebook import ANNOUNCE, joined
    from kikimimi.voice.router import PART_GAP_SECONDS, Voice

    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "common.en.toml").write_text('language = "en"\n[phrases]\n"table.ready" = "Ready."\n')
    (folder / "g.en.toml").write_text('language = "en"\n[params]\nparts = "phrases"\n[phrases]\n'
                                      '"announce" = { text = "{parts}", short = "{parts}" }\n'
                                      '"g.seat" = { text = "Seat {seat}.", short = "{seat}." }\n'
                                      '"g.over" = "Over."\n')
    words = Catalog.load("en", folder, "g")
    render_pack([words], "espeak", "v1", CountingSynth(), tmp_path / "pack")
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    audio = PhraseAudio("en", "espeak", None, pack, None)
    say = joined("speaker", ANNOUNCE, [Say("speaker", "g.seat", {"seat": 2}), Say("speaker", "g.over")])
    parts = words.parts(say.key, say.params)
    assert [line.text for line, _ in parts] == ["Seat 2.", "Over."]
    clip, source, key = audio.find_parts(parts)
    seat, over = pack.get(*parts[0]), pack.get(*parts[1])
    assert clip is not None and source == "pack" and seat is not None and over is not None
    assert len(clip.samples) == len(seat.samples) + int(PART_GAP_SECONDS * clip.rate) + len(over.samples)
    assert key.count("pack:") == 2
    short = words.parts(say.key, say.params, short=True)
    assert [line.text for line, _ in short] == ["2.", "Over."] and audio.find_parts(short)[0] is not None

    voice = SimpleNamespace(audio=audio)  # the router's lookup alone: no sound card in this test
    line = words.render(say.key, say.params)
    assert Voice._find(voice, words, say.key, dict(say.params), line, False)[1] == "pack"  # type: ignore[arg-type]
    missing = joined("speaker", ANNOUNCE, [Say("speaker", "g.seat", {"seat": 9}), Say("speaker", "g.over")])
    assert audio.find_parts(words.parts(missing.key, missing.params))[0] is None  # seat 9 was never rendered
    line = words.render(missing.key, missing.params)
    assert Voice._find(voice, words, missing.key, dict(missing.params), line, False)[1] == "text"  # type: ignore[arg-type]


def test_rendering_in_parallel_with_open_jtalk_ends_without_an_error_on_the_terminal(tmp_path: Path) -> None:
    """The render processes ended with "Error in sys.excepthook" on stderr, once per process, after every
    Japanese render: it reads as a failure to whoever renders a pack."""
    import subprocess
    import sys

    script = (
        "from pathlib import Path\n"
        "from kikimimi.voice.catalog import catalog\n"
        "from kikimimi.voice.pack import _file_name, _render_all, text_hash\n"
        "if __name__ == '__main__':\n"
        "    words = catalog('ja', 'suhjong')\n"
        "    lines = {k: words.render(k, {}) for k in ('table.ready', 'table.paused', 'table.unpaused')}\n"
        "    todo = [(e, {}, l, text_hash(l, 'jtalk'), _file_name(e)) for e, l in lines.items()]\n"
        f"    folder = Path({str(tmp_path)!r})\n"
        "    (folder / 'audio').mkdir()\n"
        "    print(sum(isinstance(out, tuple) for _, out in _render_all(todo, folder, 'jtalk', 'ja', None, 2)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "3", done.stderr
    assert "Error" not in done.stderr, done.stderr


CATALOG_SCORES = """
language = "en"
[params]
total = "number"
[phrases]
"test.score" = "Seat {seat} scores {count}, {total} in all."
"test.hello" = "Hello table."
"""


def test_a_phrase_with_many_values_is_built_from_its_spoken_parts_each_rendered_once(tmp_path: Path) -> None:
    """3 seats x 61 x 61 score lines: their parts ("Seat 2 scores 45," and "60 in all.") are rendered once each
    (3 x 61 + 61 clips, not 11,163), and an entry is its parts said in turn with the pause of the comma."""
    from kikimimi.voice.clip import join_clips
    from kikimimi.voice.pack import COMPOSE_FROM, PART_PAUSES

    words = Catalog.load("en", make_catalog(tmp_path, CATALOG_SCORES))
    synth = CountingSynth()
    report = render_pack(words, "espeak", "v1", synth, tmp_path / "pack")
    assert COMPOSE_FROM <= 3 * 61 * 61 and len(report.rendered) == 3 * 61 * 61 + 1 and not report.failed
    assert sorted(synth.texts) == sorted({*synth.texts}) and len(synth.texts) == 3 * 61 + 61 + 1
    assert "Seat 2 scores 45," in synth.texts and "60 in all." in synth.texts and "Hello table." in synth.texts
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    assert pack is not None and len(list((tmp_path / "pack" / "audio").iterdir())) == len(synth.texts)
    params = {"seat": 2, "count": 45, "total": 60}
    clip = pack.get(words.render("test.score", params), params)
    first, second = (pack._part(c) for c in pack.entries[entry_id("test.score", params)]["clips"])
    assert clip is not None and np.array_equal(clip.samples, join_clips([first, second], PART_PAUSES["comma"]).samples)
    assert pack.get(words.render("test.hello"), {}) is not None  # a few entries: said whole, one clip


def test_a_render_cut_off_anywhere_resumes_from_the_clips_on_disk_checking_each(tmp_path: Path) -> None:
    """A clip finished after the last manifest write is checked (readable, whole) and kept; a damaged one is
    rendered again; nothing finished is rendered twice."""
    words = Catalog.load("en", make_catalog(tmp_path))
    first = CountingSynth()
    render_pack(words, "espeak", "v1", first, tmp_path / "pack")
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    [hello] = _files(pack, "test.hello")
    (tmp_path / "pack" / "manifest.json").unlink()  # cut off before the manifest was ever written
    damaged = tmp_path / "pack" / "audio" / hello
    damaged.write_bytes(damaged.read_bytes()[:40])
    again = CountingSynth()
    report = render_pack(words, "espeak", "v1", again, tmp_path / "pack")
    assert again.texts == ["Hello table."] and report.clips_kept == len(first.texts) - 1 and not report.failed
    assert Pack.load(tmp_path / "pack", "en", "espeak").coverage(words).complete


def test_an_older_flac_pack_is_still_read_and_a_render_makes_it_anew(tmp_path: Path) -> None:
    """Format 2 (one FLAC per entry, named by the entry): the table says its clips as before; rendering the
    game into it renders its entries as parts and removes the old files."""
    import json

    from kikimimi.voice.pack import pack_clip, text_hash, write_clip

    words = Catalog.load("en", make_catalog(tmp_path, 'language = "en"\n[phrases]\n"test.hello" = "Hello table."\n'))
    line = words.render("test.hello")
    folder = tmp_path / "pack"
    size = write_clip(folder / "audio" / "test.hello.flac", pack_clip(tone(440, 0.5)))
    entries = {"test.hello": {"key": "test.hello", "params": {}, "hash": text_hash(line, "espeak", "v1"),
                              "file": "test.hello.flac", "frames": 11025, "rate": 22050, "bytes": size}}
    (folder / "manifest.json").write_text(json.dumps({"format": 2, "lang": "en", "backend": "espeak", "voice": "v1",
                                                      "entries": entries}))
    old = Pack.load(folder, "en", "espeak")
    assert old is not None and old.preload() == size and old.get(line, {}) is not None
    synth = CountingSynth()
    report = render_pack(words, "espeak", "v1", synth, folder)
    assert synth.texts == ["Hello table."] and report.rendered == ["test.hello"] and report.clips_removed == 1
    assert not (folder / "audio" / "test.hello.flac").exists()
    assert Pack.load(folder, "en", "espeak").get(line, {}) is not None


def test_the_speech_rate_is_part_of_the_voice_so_a_changed_rate_renders_the_pack_again(tmp_path: Path) -> None:
    from kikimimi.voice.tts import ESPEAK_RATES, BackendUnavailable, EspeakBackend, voice_identity

    try:
        table_pace, slower = EspeakBackend("en"), EspeakBackend("en", rate=170)
    except BackendUnavailable as exc:
        pytest.skip(f"needs espeak-ng (Debian package espeak-ng): {exc}")
    assert voice_identity(table_pace).endswith(f"@{ESPEAK_RATES['en']}wpm")
    assert voice_identity(slower) != voice_identity(table_pace)
    words = Catalog.load("en", make_catalog(tmp_path))
    render_pack(words, "espeak", voice_identity(slower), CountingSynth(), tmp_path / "pack")
    again = CountingSynth()
    report = render_pack(words, "espeak", voice_identity(table_pace), again, tmp_path / "pack")
    assert report.kept == 0 and len(again.texts) == report.clips_rendered == 126 and report.clips_removed == 126
    assert Pack.load(tmp_path / "pack", "en", "espeak").voice == voice_identity(table_pace)


def test_a_phrase_splits_only_where_the_voice_pauses() -> None:
    from kikimimi.voice.pack import PART_PAUSES, spoken_parts

    comma, stop, space = PART_PAUSES["comma"], PART_PAUSES["stop"], PART_PAUSES["space"]
    assert spoken_parts("1番 45点 合計67点。", "ja") == (["1番", "45点", "合計67点。"], [space, space])
    assert spoken_parts("104、10番 ", "ja") == (["104、", "10番"], [comma])
    assert spoken_parts("0イート0バイト", "ja") == (["0イート0バイト"], [])  # no pause mark: said whole
    assert spoken_parts("Seat 1 scores 45, 67 in all.", "en") == (["Seat 1 scores 45,", "67 in all."], [comma])
    assert spoken_parts("Row 1: 1 card. Ends at 0.", "en") == (["Row 1:", "1 card.", "Ends at 0."], [comma, stop])
    assert spoken_parts("Ends at 1.5 now", "en") == (["Ends at 1.5 now"], [])  # a decimal point is no pause
