"""Open JTalk's start-up keeps onnxruntime's telemetry off.

pyopenjtalk-plus 0.3.4 starts onnxruntime when it is imported (its model for the reading of 何), and
onnxruntime's Linux wheels keep usage telemetry under `~/.cache/Microsoft/DeveloperTools/.onnxruntime/`
(or `$XDG_CACHE_HOME/Microsoft/...`) and try to upload it to Microsoft. Each case runs in a fresh process
with a temporary HOME and cache folder, since onnxruntime reads its switch once per process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# What the table does at start: the speech worker starts the jtalk backend and renders one phrase.
TABLE_STARTUP = """
from kikimimi.voice.catalog import catalog
from kikimimi.voice.tts import SpeechWorker
worker = SpeechWorker("jtalk", "ja")
assert worker.start() is None, worker.error
clip = worker.render(catalog("ja").render("bringup.this_is_seat", {"seat": 2})).result(timeout=60)
assert len(clip.samples) > clip.rate // 4, "Open JTalk said nothing"
worker.stop()
"""
# The same library imported without the project's start-up: shows this onnxruntime does write the folder.
BARE_IMPORT = "import pyopenjtalk; pyopenjtalk.tts('こんにちは')"


def telemetry_files(tmp_path: Path, code: str) -> list[str]:
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir(parents=True)
    cache.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}  # onnxruntime's switch
    env.update(HOME=str(home), XDG_CACHE_HOME=str(cache))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return sorted(str(p.relative_to(tmp_path)) for root in (home, cache) for p in root.rglob("*")
                  if "Microsoft" in p.parts)


def test_open_jtalk_startup_writes_no_onnxruntime_telemetry(tmp_path: Path) -> None:
    bare = telemetry_files(tmp_path / "bare", BARE_IMPORT)
    if not bare:
        pytest.skip("this onnxruntime keeps no telemetry folder even when left on: nothing to turn off")
    assert telemetry_files(tmp_path / "table", TABLE_STARTUP) == []
