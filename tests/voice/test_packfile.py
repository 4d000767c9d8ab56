"""`kikimimi voices export` / `voices import`: a pack rendered on one machine, carried as one file, checked
whole and installed on another; a damaged, cut-short or mismatched file is refused in one line and the pack
there is left as it was."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from test_pack import CountingSynth

from kikimimi.app.cli import main
from kikimimi.voice.catalog import Catalog
from kikimimi.voice.pack import Pack, entry_files, render_pack


def games_pack(tmp_path: Path, folder: Path) -> None:
    catalogs = tmp_path / "catalog"
    catalogs.mkdir(exist_ok=True)
    (catalogs / "common.en.toml").write_text('language = "en"\n[phrases]\n"table.ready" = "Ready."\n')
    (catalogs / "one.en.toml").write_text('language = "en"\n[phrases]\n"game.over" = "One is over."\n')
    (catalogs / "two.en.toml").write_text('language = "en"\n[phrases]\n"game.over" = "Two is over."\n'
                                          '"game.seat" = "Seat {seat}."\n')
    render_pack([Catalog.load("en", catalogs, name) for name in ("one", "two")], "espeak", "v1", CountingSynth(),
                folder)


def kikimimi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kikimimi", "voices", *args], capture_output=True, text=True,
                          timeout=60)


def test_a_game_exported_on_a_laptop_is_installed_beside_the_pis_other_games(tmp_path):
    laptop = tmp_path / "laptop" / "en-espeak"
    games_pack(tmp_path, laptop)
    out = tmp_path / "two.tar"
    done = kikimimi("export", "--lang", "en", "--backend", "espeak", "--pack", str(laptop), "--game", "two",
                    "--out", str(out))
    assert done.returncode == 0, done.stderr
    with tarfile.open(out) as tar:
        names = tar.getnames()
        header = json.load(tar.extractfile("kikimimi-pack.json"))
        exported = json.load(tar.extractfile("manifest.json"))
    assert header["games"] == ["two"] and header["lang"] == "en" and header["backend"] == "espeak"
    assert all(len(meta["sha256"]) == 64 for meta in header["files"].values())
    assert set(header["files"]) == set(names) - {"kikimimi-pack.json"}
    # The Pi already has game one's pack (rendered there): importing two keeps it.
    pi = tmp_path / "pi" / "packs"
    games_pack(tmp_path, pi / "en-espeak")
    manifest = json.loads((pi / "en-espeak" / "manifest.json").read_text())
    manifest["entries"] = {e: m for e, m in manifest["entries"].items() if not e.startswith("two:")}
    (pi / "en-espeak" / "manifest.json").write_text(json.dumps(manifest))
    done = kikimimi("import", str(out), "--packs", str(pi))
    assert done.returncode == 0, done.stderr
    assert f"installed {len(exported['entries'])} phrases of two (en-espeak" in done.stdout
    pack = Pack.load(pi / "en-espeak", "en", "espeak")
    assert pack is not None and {e.split(":")[0] for e in pack.entries if ":" in e} == {"one", "two"}
    laptop_pack = Pack.load(laptop, "en", "espeak")
    for entry in pack.entries:  # every clip as rendered, byte for byte (an entry's own, or its parts')
        files = entry_files(pack.entries[entry], pack.clips)
        assert files and files == entry_files(laptop_pack.entries[entry], laptop_pack.clips)
        for file, _size in files:
            assert (pi / "en-espeak" / "audio" / file).read_bytes() == (laptop / "audio" / file).read_bytes()
    assert not list((pi / "en-espeak").glob(".import-*"))


def _pack_file(tmp_path: Path) -> Path:
    laptop = tmp_path / "laptop" / "en-espeak"
    games_pack(tmp_path, laptop)
    out = tmp_path / "all.tar"
    assert main(["voices", "export", "--lang", "en", "--backend", "espeak", "--pack", str(laptop), "--out",
                 str(out)]) == 0
    return out


def _refused(out: Path, pi: Path, *words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`kikimimi voices import` (in this process: the command's own code, without a process's start-up)."""
    before = sorted(p.relative_to(pi) for p in pi.rglob("*")) if pi.exists() else []
    capsys.readouterr()
    code = main(["voices", "import", str(out), "--packs", str(pi)])
    stdout, stderr = capsys.readouterr()
    assert code == 1 and stdout == ""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("voices import: "), stderr
    assert all(word in lines[0] for word in words), lines[0]
    after = sorted(p.relative_to(pi) for p in pi.rglob("*")) if pi.exists() else []
    assert after == before or after == [Path("en-espeak")]  # nothing installed (at most the empty pack folder)


def test_a_damaged_file_is_refused_in_one_line_and_nothing_is_installed(tmp_path, capsys):
    out = _pack_file(tmp_path)
    data = bytearray(out.read_bytes())
    with tarfile.open(out) as tar:  # one byte of the first clip flipped, as a bad copy does
        clip = next(m for m in tar.getmembers() if m.name.startswith("audio/"))
    data[clip.offset_data + clip.size // 2] ^= 0xFF
    damaged = tmp_path / "damaged.tar"
    damaged.write_bytes(bytes(data))
    _refused(damaged, tmp_path / "pi", "damaged", clip.name, "checksum", capsys=capsys)
    short = tmp_path / "short.tar"  # a copy cut short
    short.write_bytes(bytes(data[: len(data) // 2]))
    _refused(short, tmp_path / "pi", "damaged", capsys=capsys)
    _refused(tmp_path / "missing.tar", tmp_path / "pi", "no such file", capsys=capsys)
    not_a_pack = tmp_path / "notes.tar"
    with tarfile.open(not_a_pack, "w") as tar:
        tar.add(tmp_path / "catalog" / "one.en.toml", arcname="one.en.toml")
    _refused(not_a_pack, tmp_path / "pi", "not a kikimimi voice pack file", capsys=capsys)


def test_a_pack_of_another_clip_format_is_refused(tmp_path, capsys):
    laptop = tmp_path / "laptop" / "en-espeak"
    games_pack(tmp_path, laptop)
    manifest = json.loads((laptop / "manifest.json").read_text())
    manifest["format"] = 99  # rendered by a kikimimi whose clips this one cannot play
    (laptop / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "other-format.tar"
    assert main(["voices", "export", "--lang", "en", "--backend", "espeak", "--pack", str(laptop), "--out",
                 str(out)]) == 0
    _refused(out, tmp_path / "pi", "clip format 99", capsys=capsys)


def test_export_names_what_is_missing(tmp_path):
    laptop = tmp_path / "laptop" / "en-espeak"
    games_pack(tmp_path, laptop)
    done = kikimimi("export", "--lang", "en", "--backend", "espeak", "--pack", str(laptop), "--game", "three",
                    "--out", str(tmp_path / "x.tar"))
    assert done.returncode == 1 and "no phrases of three" in done.stderr and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "x.tar").exists()
