"""Voice packs: incremental rendering keyed by the text's hash, recorded overrides, the lookup order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from voice_helpers import CATALOG_EN, make_catalog, record, tone

from kikimimi.voice.catalog import Catalog, Line
from kikimimi.voice.clip import Clip
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
    assert [name for name in after if after[name] != before[name]] == ["test.hello.wav"]


def test_a_removed_phrase_leaves_the_pack(tmp_path: Path) -> None:
    synth = CountingSynth()
    render_pack(Catalog.load("en", make_catalog(tmp_path)), "espeak", "v1", synth, tmp_path / "pack")
    smaller = CATALOG_EN.replace('"test.hello" = "Hello table."\n', "")
    report = render_pack(Catalog.load("en", make_catalog(tmp_path, smaller)), "espeak", "v1", synth, tmp_path / "pack")
    assert report.removed == 1 and not (tmp_path / "pack" / "audio" / "test.hello.wav").exists()


def test_pack_lookup_refuses_audio_of_an_old_text(tmp_path: Path) -> None:
    catalog = Catalog.load("en", make_catalog(tmp_path))
    render_pack(catalog, "espeak", "v1", CountingSynth(), tmp_path / "pack")
    pack = Pack.load(tmp_path / "pack", "en", "espeak")
    assert pack is not None and pack.preload() > 0
    line = catalog.render("test.private", {"seat": 2})
    clip = pack.get(line, {"seat": 2})
    assert clip is not None and len(clip.samples) == int(0.01 * len(line.reading) * 22050)
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
