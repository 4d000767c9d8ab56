"""The table's commands: demo, play --feed, journal list/export."""

from __future__ import annotations

import subprocess
import sys

import pytest
from table_helpers import SCRIPTS

from kikimimi.app.cli import main
from kikimimi.games.registry import games
from kikimimi.table.config import load_config
from kikimimi.table.journal import Journal
from kikimimi.table.replay import replay


def test_demo_plays_one_whole_game_through_the_simulated_table(capsys):
    assert main(["demo", "--fast", "--text-only", "--lang", "en", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "state at the end" in out and "Ranked by" in out and "hand:2 earphone" in out


def test_demo_with_a_keyboard_seat_shows_only_what_that_seat_may_know(tmp_path):
    # Seat 1 moves first: the person lists (m) and listens to a piece, mistypes, takes basket pieces to the
    # field (the start), draws, passes, then leaves.
    proc = subprocess.run(
        [sys.executable, "-m", "kikimimi", "demo", "--seat", "1", "--fast", "--text-only", "--lang", "en",
         "--seed", "4"],
        input="m\nl 1\nzz\nb\nb\nb\nd\nx\nq\n", capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "hand:1 earphone" in out and "piece 5" in out and "not understood" in out
    assert "hand:2 earphone" not in out and "hand:3 earphone" not in out  # bots' earphones stay private
    assert "hand:2  ◀ (a tap)" in out and "hand:1  ◀ (a tap)" in out  # hand taps are never named
    assert out.count("hand:1 earphone") >= 2


def test_play_feed_then_journal_export_replays_to_the_same_state(sim_config, tmp_path, capsys):
    script = SCRIPTS / "trident_full_game.jsonl"
    assert main(["play", "--config", str(sim_config), "--feed", str(script), "--quiet", "--text-only"]) == 0
    capsys.readouterr()
    assert main(["journal", "list", "--config", str(sim_config)]) == 0
    listing = capsys.readouterr().out
    game_id = Journal(load_config(sim_config).journal).games()[0].id
    assert "(out)" in listing and game_id[:8] in listing
    out_file = tmp_path / "export.jsonl"
    assert main(["journal", "export", game_id[:12], "--config", str(sim_config), "-o", str(out_file)]) == 0
    exported = replay(out_file.read_text().splitlines(), lang="en").report()
    original = replay(script.read_text().splitlines(), lang="en").report()
    assert exported == original
    assert main(["journal", "export", "nope", "--config", str(sim_config)]) == 2


def test_a_bad_table_config_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "trident"\nlanguage = "fr"\n')
    assert main(["play", "--config", str(bad)]) == 2
    assert "language = 'fr'" in capsys.readouterr().err
    assert main(["play", "--config", str(tmp_path / "none.toml")]) == 2
    assert "no such table configuration" in capsys.readouterr().err


def test_sigterm_stops_the_table_cleanly_and_keeps_the_game(sim_config):
    import contextlib
    import signal
    import time

    from kikimimi.table.server import connect, socket_path

    proc = subprocess.Popen([sys.executable, "-m", "kikimimi", "play", "--config", str(sim_config)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The table's own signal that it runs (its control socket answers), not a fixed sleep: faster when idle,
    # and never a SIGTERM before the table is up when the machine is loaded.
    sock, deadline = socket_path(load_config(sim_config).journal), time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.communicate()[0]
        with contextlib.suppress(OSError):
            connect(sock, timeout=1.0).close()
            break
        assert time.monotonic() < deadline, "the table's control socket never answered"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0, out
    assert "table stopped" in out
    assert Journal(load_config(sim_config).journal).unfinished() is not None  # resumable next time


def test_the_live_log_keeps_hands_private_unless_the_priest_reveals_them(sim_config, capsys):
    script = str(SCRIPTS / "trident_full_game.jsonl")
    assert main(["play", "--config", str(sim_config), "--feed", script, "--text-only"]) == 0
    hidden = capsys.readouterr().out
    earphone_lines = [line for line in hidden.splitlines() if "earphone" in line]
    assert earphone_lines and all(line.rstrip().endswith("(private)") for line in earphone_lines)
    hand_taps = [line for line in hidden.splitlines() if "◀" in line and "hand:" in line]
    assert hand_taps and all(line.rstrip().endswith("(a tap)") for line in hand_taps)
    assert "seat 1 is out and wins!" in hidden  # the speaker is public
    assert main(["play", "--config", str(sim_config), "--feed", script, "--text-only", "--reveal-hands"]) == 0
    shown = capsys.readouterr().out
    assert any("earphone" in line and "Heart" in line for line in shown.splitlines())


@pytest.mark.parametrize("game", [info.id for info in games()])
def test_the_demo_plays_every_registered_game_to_its_end(game, capsys):
    assert main(["demo", "--game", game, "--fast", "--text-only", "--lang", "en", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "state at the end" in out and "speaker" in out


def test_games_lists_every_game_with_its_set_up_keys(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for info in games():
        assert info.id in out and all(key.name in out for key in info.setup_keys)


def test_a_bad_game_or_set_up_key_is_a_clear_message(capsys):
    assert main(["demo", "--game", "chess", "--fast", "--text-only"]) == 2
    assert "chess" in capsys.readouterr().err
    assert main(["demo", "--set", "first=9", "--fast", "--text-only"]) == 2
    assert "first" in capsys.readouterr().err
