"""Table configs and scripts for the live-table tests."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from kikimimi.games.trident.bots import BotTable
from kikimimi.games.trident.engine import Trident
from kikimimi.table.script import event_to_json
from kikimimi.table.server import connect

SCRIPTS = Path(__file__).parents[1] / "scripts"


def write_config(folder: Path, readers: dict[str, str] | None = None, outputs: str = 'sink = "transcript"',
                 extra: str = "") -> Path:
    """A table config in `folder`: simulated readers unless given, text-only outputs, a journal there.
    `outputs` is each output's settings; `{channel}` becomes 1 for the speaker, 2-4 for the seats."""
    readers = readers or {}
    lines = [
        'game = "trident"', 'language = "en"', 'deck = "trident-sim.toml"', f'journal = "{folder / "journal.sqlite"}"',
        extra, "[voice]", 'backend = "none"',
    ]
    for role in ("field", "hand:1", "hand:2", "hand:3"):
        lines += [f'[readers."{role}"]', readers.get(role, 'path = "sim"')]
    for channel, name in enumerate(("speaker", "hand:1", "hand:2", "hand:3"), start=1):
        lines += [f'[outputs."{name}"]', outputs.format(channel=channel)]
    path = folder / "table.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def bot_script(seed: int, folder: Path) -> Path:
    """A whole bot game as an event script (mistakes included)."""
    game, bots = Trident(), BotTable(seed)
    state = game.initial({"first": 1})
    lines = [json.dumps({"game": "trident", "first": 1, "rules": "standard"})]
    while (event := bots.next_event(state)) is not None:
        state, _ = game.apply(state, event)
        lines.append(json.dumps(event_to_json(event)))
    path = folder / f"bots-{seed}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def journal_events(journal: Path) -> list[dict[str, Any]]:
    """A journal's events as the table wrote them, read-only: a table may be writing it in another process,
    and a read-only open never creates the schema under its feet."""
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT event FROM events ORDER BY game_id, seq").fetchall()
    finally:
        db.close()
    return [json.loads(row[0]) for row in rows]


def socket_answers(path: Path) -> bool:
    """Whether a table's control socket at `path` takes a connection."""
    try:
        connect(path, timeout=1.0).close()
    except OSError:
        return False
    return True
