"""A sixth game written as docs/games-protocol.md says, in its own folder (tests/games/sixth): the suites
that run over every registered game, the simulator and the demo (with the console's panel) take it with
no change outside that folder. The registry finds it through KIKIMIMI_GAME_PATH."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
SIXTH = Path(__file__).parent / "sixth"
# Every test module that runs over the whole registry, asked for the sixth game only.
REGISTRY_WIDE = ["tests/games/test_conformance.py", "tests/games/test_properties.py",
                 "tests/table/test_commands.py", "tests/devices/test_deck_enroll.py",
                 "tests/voice/test_render_games.py"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KIKIMIMI_GAME_PATH": str(SIXTH)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_the_registry_wide_suites_accept_the_sixth_game():
    done = _run("-m", "pytest", "-p", "no:cacheprovider", "-k", "high-card", *REGISTRY_WIDE)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = int(re.findall(r"(\d+) passed", done.stdout)[-1])
    assert passed >= 20, done.stdout[-500:]  # the sixth game was really collected, not filtered away


def test_the_simulator_and_the_demo_play_the_sixth_game():
    done = _run("-m", "kikimimi", "simulate", "--game", "high-card", "--games", "30", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 30 and summary["invariant_checks"] == 60 and summary["invariant_violations"] == 0
    demo = _run("-m", "kikimimi", "demo", "--game", "high-card", "--text-only", "--fast", "--lang", "en")
    assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr[-2000:]
    assert "High card: over" in demo.stdout and "wins" in demo.stdout
