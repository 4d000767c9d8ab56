"""Runs a Voice in its own process (PortAudio reads the device list once per process).

    python player.py JOB.json   ->  prints one JSON object: health, transcript lines, first-frame delays

JOB: {"lang", "catalog_dir", "voice": {[voice] table}, "outputs": {[outputs] table},
      "says": [[to, key, params], ...], "base_dir"}
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from kikimimi.games.base import Say
from kikimimi.voice.catalog import Catalog
from kikimimi.voice.config import parse_voice
from kikimimi.voice.router import Voice


class NoPortAudio:
    """Makes `import sounddevice` fail as it does on a machine without libportaudio2."""

    def find_spec(self, name, path=None, target=None):  # noqa: ANN001, ANN201 - importlib protocol
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return None


def main() -> int:
    job = json.loads(Path(sys.argv[1]).read_text())
    if job.get("no_portaudio"):
        sys.meta_path.insert(0, NoPortAudio())
    spec, outputs = parse_voice(job["voice"], job["outputs"], job["lang"], sys.argv[1], Path(job["base_dir"]))
    phrases = Catalog.load(job["lang"], Path(job["catalog_dir"]))
    lines: list[list[str]] = []
    firsts: list[list] = []
    voice = Voice.open(
        spec,
        outputs,
        on_line=lambda out, line: lines.append([out, line.text]),
        on_first_frame=lambda out, said, frame: firsts.append([out, frame - said]),
        phrases=phrases,
    )
    started = time.perf_counter()
    for to, key, params in job["says"]:
        voice.say(Say(to, key, params))
    returned = time.perf_counter() - started
    idle = voice.wait_idle(timeout=30)
    health = {name: [h.status, h.detail] for name, h in voice.health().items()}
    voice.close()
    print(json.dumps({"health": health, "lines": lines, "first_frames": firsts, "idle": idle, "say_seconds": returned}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
