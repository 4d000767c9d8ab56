"""Voice packs: every phrase pre-rendered to audio, so the table speaks without waiting for a TTS engine.

A pack folder (`voices/packs/<lang>-<backend>/`) holds `audio/<entry>.wav` and `manifest.json`. An entry
is a phrase key with its parameters, written `key[name=value,...]` (`turn.seat[seat=2]`, or just
`table.resuming`). The manifest keeps, per entry, a hash of the spoken text with the language, backend
and voice, so re-rendering after a catalog edit renders the changed texts again and nothing else.

A recorded pack is a folder of WAV files recorded by the table's owner, named by entry
(`turn.seat[seat=2].wav`) or by key alone (`table.resuming.wav`, used for any parameters). It
overrides speech phrase by phrase.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kikimimi.voice.catalog import Catalog, Line
from kikimimi.voice.clip import Clip, read_wav, to_int16, write_wav

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FORMAT = 1


def entry_id(key: str, params: Mapping[str, Any] | None) -> str:
    """`key[a=1,b=x]` with parameters sorted by name; the key alone without parameters."""
    if not params:
        return key
    inner = ",".join(f"{name}={params[name]}" for name in sorted(params))
    return f"{key}[{inner}]"


def spoken_text(line: Line, backend: str) -> str:
    """What the backend actually reads: Open JTalk the display text (with the catalog's [readings]),
    espeak-ng the kana reading."""
    return line.natural if backend == "jtalk" else line.reading


def text_hash(line: Line, backend: str, voice: str = "") -> str:
    material = "\x1f".join((line.lang, backend, voice, spoken_text(line, backend)))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


def _file_name(entry: str) -> str:
    return entry.replace("/", "_").replace(os.sep, "_") + ".wav"


@dataclass
class RenderReport:
    rendered: list[str]
    kept: int
    removed: int
    failed: dict[str, str]
    seconds: float


class Pack:
    """A pre-rendered pack: the manifest in memory, audio loaded into memory at start (within a budget)."""

    def __init__(self, folder: Path, lang: str, backend: str, voice: str, entries: dict[str, dict[str, Any]]):
        self.folder, self.lang, self.backend, self.voice = folder, lang, backend, voice
        self.entries = entries
        self._audio: dict[str, tuple[np.ndarray, int]] = {}  # entry -> int16 samples, rate (half of float32)

    @classmethod
    def load(cls, folder: Path, lang: str, backend: str) -> Pack | None:
        """The pack in `folder`, or None when there is none (or it is for another language/backend)."""
        path = folder / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("voice pack %s is unreadable (%s); render it again with `kikimimi voices render`", path, exc)
            return None
        if data.get("format") != FORMAT or data.get("lang") != lang or data.get("backend") != backend:
            log.warning(
                "voice pack %s is for %s-%s (format %s), not %s-%s; not used",
                folder,
                data.get("lang"),
                data.get("backend"),
                data.get("format"),
                lang,
                backend,
            )
            return None
        return cls(folder, lang, backend, str(data.get("voice", "")), dict(data.get("entries", {})))

    def preload(self, budget_bytes: int = 256 << 20) -> int:
        """Read audio into memory (as much as the budget allows) so a lookup never touches the disk."""
        used = 0
        for entry, meta in self.entries.items():
            if used + 2 * int(meta.get("frames", 0)) > budget_bytes:
                break
            if self._read(entry) is not None:
                used += self._audio[entry][0].nbytes
        return used

    def get(self, line: Line, params: Mapping[str, Any] | None) -> Clip | None:
        """The rendered audio for the line, if rendered from the same text (a stale entry is not used)."""
        entry = entry_id(line.entry or line.key, params)
        meta = self.entries.get(entry)
        if meta is None or meta.get("hash") != text_hash(line, self.backend, self.voice):
            return None
        held = self._audio.get(entry)
        if held is None:
            return self._read(entry)
        return Clip(held[0].astype(np.float32) / 32768.0, held[1])

    def _read(self, entry: str) -> Clip | None:
        try:
            clip = read_wav(self.folder / "audio" / self.entries[entry]["file"])
        except (OSError, EOFError, ValueError, KeyError) as exc:
            log.warning("voice pack %s: entry %s unreadable (%s)", self.folder, entry, exc)
            return None
        self._audio[entry] = (to_int16(clip.samples), clip.rate)
        return clip


class RecordedPack:
    """WAV files recorded by the table's owner, all in memory."""

    def __init__(self, clips: dict[str, Clip]):
        self.clips = clips

    @classmethod
    def load(cls, folder: Path) -> RecordedPack:
        clips: dict[str, Clip] = {}
        for path in sorted(folder.glob("*.wav")):
            try:
                clips[path.stem] = read_wav(path)
            except (OSError, EOFError, ValueError, Exception) as exc:  # wave.Error is not an OSError
                log.warning("recorded phrase %s is not a usable WAV (%s); skipped", path, exc)
        return cls(clips)

    def get(self, key: str, params: Mapping[str, Any] | None) -> Clip | None:
        return self.clips.get(entry_id(key, params)) or self.clips.get(key)


def pack_entries(catalog: Catalog, keys: Iterable[str] | None = None) -> Iterable[tuple[str, dict[str, Any], Line]]:
    """Every phrase of the catalog with every parameter value the games use."""
    for key in sorted(keys if keys is not None else catalog.phrases):
        for params in catalog.combinations(key):
            yield entry_id(catalog.entry_key(key), params), params, catalog.render(key, params)


def render_pack(
    catalog: Catalog | Sequence[Catalog],
    backend_name: str,
    voice: str,
    synth: Callable[[Line], Clip],
    folder: Path,
    progress: Callable[[int, int, str], None] | None = None,
) -> RenderReport:
    """Render what is missing or changed into `folder`; drop entries no longer in the catalogs. Several
    catalogs (every game's, one language) go into one pack: game phrases are stored under their
    namespace, the common ones once."""
    started = time.perf_counter()
    catalogs = [catalog] if isinstance(catalog, Catalog) else list(catalog)
    catalog = catalogs[0]
    old = Pack.load(folder, catalog.lang, backend_name)
    old_entries = old.entries if old is not None and old.voice == voice else {}
    wanted = list({entry[0]: entry for each in catalogs for entry in pack_entries(each)}.values())
    entries: dict[str, dict[str, Any]] = {}
    rendered: list[str] = []
    failed: dict[str, str] = {}
    kept = 0
    for n, (entry, params, line) in enumerate(wanted, 1):
        digest = text_hash(line, backend_name, voice)
        file = _file_name(entry)
        previous = old_entries.get(entry)
        if previous and previous.get("hash") == digest and (folder / "audio" / file).exists():
            entries[entry] = previous
            kept += 1
            continue
        try:
            clip = synth(line)
        except Exception as exc:
            failed[entry] = str(exc)
            continue
        write_wav(folder / "audio" / file, clip)
        entries[entry] = {
            "key": line.key,
            "params": params,
            "hash": digest,
            "file": file,
            "frames": len(clip.samples),
            "rate": clip.rate,
            "text": spoken_text(line, backend_name),
        }
        rendered.append(entry)
        if progress:
            progress(n, len(wanted), entry)
        if len(rendered) % 200 == 0:  # a long render interrupted keeps what it did
            _write_manifest(folder, catalog.lang, backend_name, voice, {**old_entries, **entries})
    removed = 0
    for entry, meta in old_entries.items():
        if entry not in entries:
            removed += 1
            if meta.get("file") not in {m["file"] for m in entries.values()}:
                (folder / "audio" / meta.get("file", "")).unlink(missing_ok=True)
    _write_manifest(folder, catalog.lang, backend_name, voice, entries)
    return RenderReport(rendered, kept, removed, failed, time.perf_counter() - started)


def _write_manifest(folder: Path, lang: str, backend: str, voice: str, entries: dict[str, dict[str, Any]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "lang": lang, "backend": backend, "voice": voice, "entries": entries}
    tmp = folder / (MANIFEST + ".part")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
    tmp.replace(folder / MANIFEST)


def silence(seconds: float, rate: int) -> Clip:
    return Clip(np.zeros(int(seconds * rate), dtype=np.float32), rate)
