"""`voices render --game`: a table that plays one game renders that game's phrases, not every game's
(every registered game's is tens of thousands of lines, gigabytes on a Pi's card)."""

from __future__ import annotations

from kikimimi.app.cli import main
from kikimimi.app.voice_cli import game_catalogs
from kikimimi.games.registry import games
from kikimimi.voice.pack import pack_entries


def _entries(catalogs) -> set[str]:
    return {entry for each in catalogs for entry, _params, _line in pack_entries(each)}


def test_one_game_renders_its_phrases_and_the_common_ones_only():
    everything = _entries(game_catalogs("en"))
    trident = _entries(game_catalogs("en", ["trident"]))
    assert len(game_catalogs("en")) == len(games())
    assert trident < everything
    assert all(not entry.startswith(("suhjong:", "nimmt:", "numeron:", "royal-nine:")) for entry in trident)
    assert any(entry.startswith("trident:") for entry in trident)
    # the table's own phrases (reader lost, undo ...) come with any game, in that game's ranges (seats ...)
    common_keys = {entry.split("[")[0] for entry in everything if ":" not in entry.split("[")[0]}
    assert common_keys and common_keys <= {entry.split("[")[0] for entry in trident}


def test_an_unknown_game_is_refused_naming_the_known_ones(capsys, tmp_path):
    code = main(["voices", "render", "--lang", "en", "--game", "chess", "--out", str(tmp_path / "pack")])
    err = capsys.readouterr().err
    assert code == 1
    assert "unknown game 'chess'" in err and "trident" in err
    assert not (tmp_path / "pack").exists()


def test_render_on_every_core_from_the_command_line_in_a_pipe(tmp_path):
    """Two espeak-ng render processes, started by a parent whose own espeak-ng already runs (a forked one
    used to hang), with the progress bar's plain lines for a pipe."""
    import subprocess
    import sys

    from voice_helpers import make_catalog

    out = tmp_path / "pack"
    proc = subprocess.run([sys.executable, "-m", "kikimimi", "voices", "render", "--lang", "en", "--catalog",
                           str(make_catalog(tmp_path)), "--out", str(out), "--jobs", "2"],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert "126 rendered" in proc.stdout and "clips per CPU second" in proc.stdout
    assert "126/126 rendered (100%), " in proc.stderr and "clips/s" in proc.stderr
    assert "\x1b[" not in proc.stderr  # plain lines, no escapes
    assert len(list((out / "audio").glob("*.flac"))) == 126
