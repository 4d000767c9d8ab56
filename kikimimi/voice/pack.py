"""Voice packs: every phrase pre-rendered to audio, so the table speaks without waiting for a TTS engine.

A pack folder (`<data folder>/packs/<lang>-<backend>/`, see `default_pack_dir`) holds `audio/<entry>.flac`
and `manifest.json`. An entry is a phrase key with its parameters, written `key[name=value,...]`
(`turn.seat[seat=2]`, or just `table.resuming`); a game's phrases carry its namespace
(`trident:turn.seat[seat=2]`), its short forms `~short`. The manifest keeps, per entry, a hash of the
spoken text with the language, backend and voice, so re-rendering after a catalog edit renders the
changed texts again and nothing else.

One pack holds the phrases of every game rendered into it: rendering a game adds or refreshes that game's
phrases (and the common ones) and never removes another game's. Stale clips (phrases no longer in the
rendered games' catalogs) go only when asked (`prune`).

Clips are FLAC (lossless; decoded in about 2 ms a clip here, where Ogg/Opus takes 15-50 ms) at up to
24 kHz, loudness-normalised to one level (EBU R128): `kikimimi bench voice --pack-size` measures the
choices. The pack keeps the compressed bytes in memory and decodes a clip when it is said.

A recorded pack is a folder of audio files (WAV or FLAC) recorded by the table's owner, named by entry
(`turn.seat[seat=2].wav`) or by key alone (`table.resuming.wav`, used for any parameters). It
overrides speech phrase by phrase.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import logging
import multiprocessing
import os
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kikimimi.durable import write_durably
from kikimimi.voice.catalog import Catalog, Line
from kikimimi.voice.clip import Clip, loudness, normalise_loudness, read_wav, resample_for_pack, speech_rate

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FORMAT = 2  # 1: WAV clips as rendered; 2: FLAC, up to 24 kHz, loudness-normalised
CLIP_SUFFIX = ".flac"
CHECKPOINT_SECONDS = 2.0  # an interrupted render keeps what it did up to this long before
COMMON_NAMESPACE = ""  # the table's own phrases: their entries carry no game

Synth = Callable[[Line], Clip]
Progress = Callable[[int, int, str], None]  # (done, total, entry)


def entry_id(key: str, params: Mapping[str, Any] | None) -> str:
    """`key[a=1,b=x]` with parameters sorted by name; the key alone without parameters."""
    if not params:
        return key
    inner = ",".join(f"{name}={params[name]}" for name in sorted(params))
    return f"{key}[{inner}]"


def entry_namespace(entry: str) -> str:
    """The game an entry belongs to (`trident:turn.seat[seat=2]` -> trident), "" for a common phrase."""
    key = entry.split("[", 1)[0]
    return key.split(":", 1)[0] if ":" in key else COMMON_NAMESPACE


def spoken_text(line: Line, backend: str) -> str:
    """What the backend actually reads: Open JTalk the display text (with the catalog's [readings]),
    espeak-ng the kana reading."""
    return line.natural if backend == "jtalk" else line.reading


def text_hash(line: Line, backend: str, voice: str = "") -> str:
    material = "\x1f".join((line.lang, backend, voice, spoken_text(line, backend)))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


def _file_name(entry: str) -> str:
    name = entry.replace("/", "_").replace(os.sep, "_")
    if len(name.encode("utf-8")) > 200:  # a sequence of phrases (`kikimimi bench voice --lag`): within a file name
        name = f"{name[:60]}~{hashlib.sha256(name.encode('utf-8')).hexdigest()[:16]}"
    return name + CLIP_SUFFIX


QUIETEST_LUFS = -45.0  # a rendered phrase quieter than this is taken for silence (speech comes out near -20)
# The longest a phrase may take: a second, plus this much per spoken unit (a kana in Japanese, a letter in
# English): about twice what the voices take at their slowest (Open JTalk 0.15 s a kana, espeak-ng 0.07 s a letter).
MOST_SECONDS = 0.8
MOST_PER_UNIT = {"ja": 0.3, "en": 0.15}
DIGIT_UNITS = 3  # spoken units a digit counts for where the reading keeps digits (English)
_NOT_SPOKEN = re.compile(r"[\s、。！？!?,.・'\"()\-]")


def clip_problem(line: Line, clip: Clip) -> str | None:
    """Why a rendered phrase is not fit for a pack (empty, silent, longer than its text warrants), or None."""
    if len(clip.samples) == 0:
        return f"empty clip for {line.text!r}"
    measured = loudness(clip)
    if measured < QUIETEST_LUFS:
        return f"silent clip ({measured:.0f} LUFS) for {line.text!r}"
    units = len(_NOT_SPOKEN.sub("", line.reading))
    if line.lang != "ja":  # a digit is read as a word ("21": twenty-one), longer than one letter
        units += (DIGIT_UNITS - 1) * sum(ch.isdigit() for ch in line.reading)
    most = MOST_SECONDS + MOST_PER_UNIT.get(line.lang, 0.3) * units
    if clip.seconds > most:
        return f"{clip.seconds:.1f} s for {units} spoken units ({line.reading!r}), more than {most:.1f} s"
    return None


def pack_clip(clip: Clip) -> Clip:
    """A rendered clip as a pack stores it: at a speech rate, at the pack's one loudness."""
    return normalise_loudness(resample_for_pack(clip, speech_rate(clip.rate)))


def encode_clip(clip: Clip) -> bytes:
    import soundfile

    out = io.BytesIO()
    soundfile.write(out, clip.samples, clip.rate, format="FLAC", subtype="PCM_16")
    return out.getvalue()


def decode_clip(data: bytes) -> Clip:
    import soundfile

    samples, rate = soundfile.read(io.BytesIO(data), dtype="float32", always_2d=True)
    return Clip(np.ascontiguousarray(samples.mean(axis=1), dtype=np.float32), int(rate))


def read_clip(path: Path) -> Clip:
    """An audio file (WAV, FLAC, Ogg: what libsndfile reads) as a mono clip."""
    if path.suffix.lower() == ".wav":
        return read_wav(path)
    return decode_clip(path.read_bytes())


def write_clip(path: Path, clip: Clip) -> int:
    """The clip compressed to `path` (a temporary name first: a crash leaves no half file); its size."""
    data = encode_clip(clip)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)
    return len(data)


@dataclass
class RenderReport:
    rendered: list[str]
    kept: int
    removed: int
    failed: dict[str, str]
    seconds: float
    other_games: int = 0  # entries of games not rendered this time, left as they were
    stale: int = 0  # entries no longer in the rendered catalogs, kept (removed only with prune)
    bytes_written: int = 0
    audio_seconds: float = 0.0  # length of the clips rendered
    by_namespace: dict[str, int] = field(default_factory=dict)  # rendered clips per game ("" common)


@dataclass(frozen=True)
class Coverage:
    """How much of a catalog a pack holds, as it stands (a stale clip does not count)."""

    wanted: int
    held: int
    missing_example: str = ""

    @property
    def complete(self) -> bool:
        return self.held == self.wanted


class Pack:
    """A pre-rendered pack: the manifest in memory, the compressed clips read into memory at start (within a
    budget) and decoded when said (the few most recent kept decoded)."""

    DECODED_KEPT = 256

    def __init__(self, folder: Path, lang: str, backend: str, voice: str, entries: dict[str, dict[str, Any]]):
        self.folder, self.lang, self.backend, self.voice = folder, lang, backend, voice
        self.entries = entries
        self._bytes: dict[str, bytes] = {}
        self._decoded: OrderedDict[str, Clip] = OrderedDict()

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
                "voice pack %s is for %s-%s (format %s), not %s-%s (format %s); not used: render it again with "
                "`kikimimi voices render --lang %s --backend %s --game <id>`",
                folder, data.get("lang"), data.get("backend"), data.get("format"), lang, backend, FORMAT, lang,
                backend,
            )
            return None
        return cls(folder, lang, backend, str(data.get("voice", "")), dict(data.get("entries", {})))

    def preload(self, budget_bytes: int = 512 << 20) -> int:
        """Read the compressed clips into memory (as much as the budget allows) so a lookup never waits for
        the card; the number of bytes read."""
        used = 0
        for entry in list(self.entries):
            if entry in self._bytes:
                used += len(self._bytes[entry])
                continue
            if used + int(self.entries[entry].get("bytes", 0)) > budget_bytes:
                break
            data = self._read_bytes(entry)
            if data is not None:
                self._bytes[entry] = data
                used += len(data)
        return used

    def coverage(self, words: Catalog) -> Coverage:
        """How many of the catalog's phrases (with every parameter value and short form) this pack holds."""
        wanted = held = 0
        missing = ""
        for entry, _params, line in pack_entries(words):
            wanted += 1
            meta = self.entries.get(entry)
            if meta is not None and meta.get("hash") == text_hash(line, self.backend, self.voice):
                held += 1
            elif not missing:
                missing = entry
        return Coverage(wanted, held, missing)

    def get(self, line: Line, params: Mapping[str, Any] | None) -> Clip | None:
        """The rendered audio for the line, if rendered from the same text (a stale entry is not used)."""
        entry = entry_id(line.entry or line.key, params)
        meta = self.entries.get(entry)
        if meta is None or meta.get("hash") != text_hash(line, self.backend, self.voice):
            return None
        clip = self._decoded.get(entry)
        if clip is not None:
            self._decoded.move_to_end(entry)
            return clip
        data = self._bytes.get(entry) or self._read_bytes(entry)
        if data is None:
            return None
        try:
            clip = decode_clip(data)
        except Exception as exc:  # soundfile.LibsndfileError and friends: a damaged file
            log.warning("voice pack %s: entry %s cannot be decoded (%s)", self.folder, entry, exc)
            return None
        self._decoded[entry] = clip
        while len(self._decoded) > self.DECODED_KEPT:
            self._decoded.popitem(last=False)
        return clip

    def _read_bytes(self, entry: str) -> bytes | None:
        try:
            return (self.folder / "audio" / self.entries[entry]["file"]).read_bytes()
        except (OSError, KeyError) as exc:
            log.warning("voice pack %s: entry %s unreadable (%s)", self.folder, entry, exc)
            return None


class RecordedPack:
    """Audio files recorded by the table's owner, all in memory."""

    SUFFIXES = (".wav", ".flac", ".ogg")

    def __init__(self, clips: dict[str, Clip]):
        self.clips = clips

    @classmethod
    def load(cls, folder: Path) -> RecordedPack:
        clips: dict[str, Clip] = {}
        for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in cls.SUFFIXES):
            try:
                clips[path.stem] = read_clip(path)
            except Exception as exc:  # wave.Error is not an OSError; libsndfile raises its own
                log.warning("recorded phrase %s is not usable audio (%s); skipped", path, exc)
        return cls(clips)

    def get(self, key: str, params: Mapping[str, Any] | None) -> Clip | None:
        return self.clips.get(entry_id(key, params)) or self.clips.get(key)


def pack_entries(catalog: Catalog, keys: Iterable[str] | None = None) -> Iterator[tuple[str, dict[str, Any], Line]]:
    """Every phrase of the catalog with every parameter value the games use, and its short form."""
    for key in sorted(keys if keys is not None else catalog.phrases):
        short = catalog.has_short(key)
        for params in catalog.combinations(key):
            yield entry_id(catalog.entry_key(key), params), params, catalog.render(key, params)
            if short:
                line = catalog.render(key, params, short=True)
                yield entry_id(line.entry, params), params, line


def _namespaces(catalogs: Sequence[Catalog]) -> set[str]:
    return {COMMON_NAMESPACE} | {c.namespace for c in catalogs if c.namespace}


# -- rendering -----------------------------------------------------------------------------------------

_worker_synth: Synth | None = None


def _start_worker(backend_name: str, lang: str) -> None:
    """A render process's own speech engine (engines hold C state that is never shared between processes)."""
    global _worker_synth
    from kikimimi.voice.tts import make_backend

    _worker_synth = make_backend(backend_name, lang).synth
    # Open JTalk's extension modules raise while the interpreter tears them down, which printed "Error in
    # sys.excepthook" once per process at the end of every render. The worker holds nothing to tear down
    # (each clip is written and closed when rendered): it ends at its exit handlers.
    atexit.register(os._exit, 0)


def _render_one(folder: Path, file: str, line: Line, synth: Synth | None = None) -> tuple[int, int, int]:
    """Render, shape and store one clip: (frames, rate, bytes)."""
    synth = synth or _worker_synth
    assert synth is not None, "the render process has no speech engine"
    spoken = synth(line)
    problem = clip_problem(line, spoken)
    if problem:
        raise RuntimeError(problem)
    clip = pack_clip(spoken)
    size = write_clip(folder / "audio" / file, clip)
    return len(clip.samples), clip.rate, size


def render_pack(
    catalog: Catalog | Sequence[Catalog],
    backend_name: str,
    voice: str,
    synth: Synth | None,
    folder: Path,
    progress: Progress | None = None,
    prune: bool = False,
    jobs: int = 1,
) -> RenderReport:
    """Render what is missing or changed into `folder`. Several catalogs (every game's, one language) go into
    one pack: game phrases are stored under their namespace, the common ones once. Another game's entries
    already in the pack are kept; with `prune`, entries of the rendered games (and common phrases) that their
    catalogs no longer have are removed.

    `synth` renders in this process; with `jobs` > 1 (and no `synth`) each of `jobs` processes starts its own
    `backend_name` engine. An interrupted render keeps what it finished (the manifest is written every few
    seconds): the next one renders the rest."""
    started = time.perf_counter()
    catalogs = [catalog] if isinstance(catalog, Catalog) else list(catalog)
    lang = catalogs[0].lang
    old = Pack.load(folder, lang, backend_name)
    old_entries = old.entries if old is not None and old.voice == voice else {}
    rendered_here = _namespaces(catalogs)
    wanted = {entry: (params, line) for each in catalogs for entry, params, line in pack_entries(each)}
    entries: dict[str, dict[str, Any]] = {e: m for e, m in old_entries.items() if e not in wanted}
    report = RenderReport([], 0, 0, {}, 0.0)
    todo: list[tuple[str, dict[str, Any], Line, str, str]] = []
    for entry, (params, line) in wanted.items():
        digest, file = text_hash(line, backend_name, voice), _file_name(entry)
        previous = old_entries.get(entry)
        if previous and previous.get("hash") == digest and (folder / "audio" / previous["file"]).exists():
            entries[entry] = previous
            report.kept += 1
        else:
            todo.append((entry, params, line, digest, file))
    (folder / "audio").mkdir(parents=True, exist_ok=True)
    last_saved = time.monotonic()

    def finished(item: tuple[str, dict[str, Any], Line, str, str], result: tuple[int, int, int]) -> None:
        nonlocal last_saved
        entry, params, line, digest, file = item
        frames, rate, size = result
        entries[entry] = {"key": line.key, "params": params, "hash": digest, "file": file, "frames": frames,
                          "rate": rate, "bytes": size, "text": spoken_text(line, backend_name)}
        report.rendered.append(entry)
        report.bytes_written += size
        report.audio_seconds += frames / rate
        space = entry_namespace(entry)
        report.by_namespace[space] = report.by_namespace.get(space, 0) + 1
        if time.monotonic() - last_saved > CHECKPOINT_SECONDS:
            _write_manifest(folder, lang, backend_name, voice, entries)
            last_saved = time.monotonic()

    try:
        for done, (item, outcome) in enumerate(_render_all(todo, folder, backend_name, lang, synth, jobs), 1):
            if isinstance(outcome, Exception):
                report.failed[item[0]] = str(outcome)
            else:
                finished(item, outcome)
            if progress:
                progress(done, len(todo), item[0])
    finally:  # Ctrl-C included: what is finished is kept for the next run
        _write_manifest(folder, lang, backend_name, voice, entries)
    for entry, meta in list(entries.items()):
        if entry in wanted:
            continue
        if entry_namespace(entry) not in rendered_here:
            report.other_games += 1
        elif prune:
            del entries[entry]
            (folder / "audio" / meta.get("file", "")).unlink(missing_ok=True)
            report.removed += 1
        else:
            report.stale += 1
    _write_manifest(folder, lang, backend_name, voice, entries)
    report.seconds = time.perf_counter() - started
    return report


def _render_all(todo: list, folder: Path, backend_name: str, lang: str, synth: Synth | None,
                jobs: int) -> Iterator[tuple[tuple, tuple[int, int, int] | Exception]]:
    """(item, result or the exception) for every item, in the order they finish."""
    if synth is not None or jobs <= 1 or len(todo) < 2:
        if synth is None:
            from kikimimi.voice.tts import make_backend

            synth = make_backend(backend_name, lang).synth
        for item in todo:
            try:
                yield item, _render_one(folder, item[4], item[2], synth)
            except Exception as exc:
                yield item, exc
        return
    window = 4 * jobs  # a few in flight per process: every core busy, memory flat
    pending: dict[Future, tuple] = {}
    items = iter(todo)
    # Spawned, not forked: a fork of a process whose espeak-ng (pyttsx3) threads already run hangs.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(backend_name, lang)) as pool:
        try:
            while True:
                while len(pending) < window and (item := next(items, None)) is not None:
                    pending[pool.submit(_render_one, folder, item[4], item[2])] = item
                if not pending:
                    return
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    item = pending.pop(future)
                    error = future.exception()
                    yield item, error if error is not None else future.result()
        finally:
            for future in pending:
                future.cancel()


def _write_manifest(folder: Path, lang: str, backend: str, voice: str, entries: dict[str, dict[str, Any]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "lang": lang, "backend": backend, "voice": voice, "entries": entries}
    write_durably(folder / MANIFEST, json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True))


def silence(seconds: float, rate: int) -> Clip:
    return Clip(np.zeros(int(seconds * rate), dtype=np.float32), rate)
