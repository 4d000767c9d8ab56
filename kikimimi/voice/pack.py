"""Voice packs: every phrase pre-rendered to audio, so the table speaks without waiting for a TTS engine.

A pack folder (`<data folder>/packs/<lang>-<backend>/`, see `default_pack_dir`) holds `audio/<clip>.flac` and
`manifest.json`. An entry is a phrase key with its parameters, written `key[name=value,...]`
(`turn.seat[seat=2]`, or just `table.resuming`); a game's phrases carry its namespace
(`trident:turn.seat[seat=2]`), its short forms `~short`. The manifest keeps, per entry, a hash of the
spoken text with the language, backend and voice (the voice includes its speech rate), so re-rendering after a
catalog edit renders the changed texts again and nothing else.

Each distinct spoken part is rendered once (format 3). A phrase is one part, unless its key has many entries
(COMPOSE_FROM: a score line for every seat, points and total): then it is split where the voice pauses anyway
(after 、。,.: and, in Japanese, at a space between words) and its entry is built from its parts' clips, said
one after the other with a pause fitting the mark (PART_PAUSES). "1番 45点 合計67点。" is "1番" + "45点" +
"合計67点。": 20,000 score lines take 300 renders, not 20,000, and their clips. A clip is named by the hash
of its text, so two entries (or two games) that say the same part share it.

One pack holds the phrases of every game rendered into it: rendering a game adds or refreshes that game's
phrases (and the common ones) and never removes another game's. Stale entries (phrases no longer in the
rendered games' catalogs) go only when asked (`prune`); a clip no entry uses goes at the end of a render.

Clips are FLAC at up to 24 kHz, loudness-normalised to one level (EBU R128) and tightened (`clip.tighten`):
decoded in 1-2 ms a part where Ogg/Opus takes 15-40 ms and costs as much CPU to encode as to render
(`kikimimi bench voice --pack-size` measures the choices). The pack keeps the compressed bytes in memory and
decodes a clip when it is said (the recent ones kept decoded).

An older pack (format 2: one FLAC per entry, named by the entry) is still read as it is. Rendering into it
renders the rendered games' entries anew as parts and removes their old files; another game's old entries keep
working until that game is rendered.

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
from kikimimi.voice.clip import (
    Clip,
    join_clips,
    loudness,
    normalise_loudness,
    read_wav,
    resample_for_pack,
    speech_rate,
    tighten,
)

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FORMAT = 3  # 1: WAV clips as rendered; 2: FLAC per entry; 3: FLAC per distinct spoken part, entries built of parts
READABLE_FORMATS = (2, 3)
CLIP_SUFFIX = ".flac"
# The manifest is written this often while rendering (every game's is ~10 MB, most of a second to write); a
# clip finished after the last write is found on disk, checked and kept by the next render.
CHECKPOINT_SECONDS = 30.0
COMMON_NAMESPACE = ""  # the table's own phrases: their entries carry no game
COMPOSE_FROM = 100  # a phrase key with at least this many entries is built from its spoken parts
# Silence between the parts of a built entry, by the mark that ends a part: shorter than the voices' own pauses
# (Open JTalk's 、 is 0.47 s, espeak-ng's comma 0.16 s), at a table's pace; a space between Japanese words,
# where Open JTalk makes no pause, gets a breath.
PART_PAUSES = {"stop": 0.25, "comma": 0.15, "space": 0.06}
_STOPS = "。．！？!?."
_COMMAS = "、，,:;："
_PART_END = {"ja": re.compile(r"(?<=[、。，．！？!?,.:;：])\s*|\s+"), "en": re.compile(r"(?<=[,.:;!?])\s+")}

Synth = Callable[[Line], Clip]
Progress = Callable[[int, int, str], None]  # (done, total, what was just rendered)


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
    return part_hash(line.lang, backend, voice, spoken_text(line, backend))


def part_hash(lang: str, backend: str, voice: str, text: str) -> str:
    """A spoken text's identity in a pack: the same words by the same voice (and rate) are the same clip."""
    material = "\x1f".join((lang, backend, voice, text))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


def spoken_parts(text: str, lang: str) -> tuple[list[str], list[float]]:
    """A spoken text split where the voice pauses anyway, and the pause after each part but the last."""
    splitter = _PART_END.get(lang, _PART_END["en"])
    parts = [part.strip() for part in splitter.split(text)]
    parts = [part for part in parts if part]
    if len(parts) < 2:
        return [text.strip() or text], []
    pauses = []
    for part in parts[:-1]:
        mark = part[-1]
        pauses.append(PART_PAUSES["stop" if mark in _STOPS else "comma" if mark in _COMMAS else "space"])
    return parts, pauses


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
    """A rendered clip as a pack stores it: at a speech rate, at the pack's one loudness, tightened."""
    return tighten(normalise_loudness(resample_for_pack(clip, speech_rate(clip.rate))))


def encode_clip(clip: Clip) -> bytes:
    import soundfile  # type: ignore[import-untyped]

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
    rendered: list[str]  # entries made or remade (from clips rendered now and clips kept)
    kept: int  # entries unchanged
    removed: int
    failed: dict[str, str]  # entry -> why (a part of it could not be rendered)
    seconds: float
    other_games: int = 0  # entries of games not rendered this time, left as they were
    stale: int = 0  # entries no longer in the rendered catalogs, kept (removed only with prune)
    bytes_written: int = 0
    audio_seconds: float = 0.0  # length of the clips rendered
    by_namespace: dict[str, int] = field(default_factory=dict)  # entries made per game ("" common)
    clips_rendered: int = 0  # distinct spoken parts rendered now
    clips_kept: int = 0  # ... already in the pack (checked: the file is there, whole)
    clips_removed: int = 0  # clips no entry uses any more, and the files of older-format entries replaced


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
    budget) and decoded when said (the recent parts and entries kept decoded)."""

    DECODED_KEPT = 256
    PARTS_KEPT = 1024

    def __init__(self, folder: Path, lang: str, backend: str, voice: str, entries: dict[str, dict[str, Any]],
                 clips: dict[str, dict[str, Any]] | None = None, format: int = FORMAT):
        self.folder, self.lang, self.backend, self.voice = folder, lang, backend, voice
        self.entries = entries
        self.clips = clips or {}  # clip id -> {file, frames, rate, bytes, text}
        self.format = format
        self._bytes: dict[str, bytes] = {}  # file name -> its compressed bytes
        self._decoded: OrderedDict[str, Clip] = OrderedDict()
        self._parts: OrderedDict[str, Clip] = OrderedDict()

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
        if data.get("format") not in READABLE_FORMATS or data.get("lang") != lang or data.get("backend") != backend:
            log.warning(
                "voice pack %s is for %s-%s (format %s), not %s-%s (format %s); not used: render it again with "
                "`kikimimi voices render --lang %s --backend %s --game <id>`",
                folder, data.get("lang"), data.get("backend"), data.get("format"), lang, backend, FORMAT, lang,
                backend,
            )
            return None
        return cls(folder, lang, backend, str(data.get("voice", "")), dict(data.get("entries", {})),
                   dict(data.get("clips", {})), int(data["format"]))

    def files(self) -> Iterator[tuple[str, int]]:
        """Every audio file the entries use, once, with its size: (file name, bytes)."""
        seen: set[str] = set()
        for meta in self.entries.values():
            for file, size in entry_files(meta, self.clips):
                if file not in seen:
                    seen.add(file)
                    yield file, size

    def preload(self, budget_bytes: int = 512 << 20) -> int:
        """Read the compressed clips into memory (as much as the budget allows) so a lookup never waits for
        the card; the number of bytes read."""
        used = 0
        for file, size in self.files():
            if file in self._bytes:
                used += len(self._bytes[file])
                continue
            if used + size > budget_bytes:
                break
            data = self._read_bytes(file)
            if data is not None:
                self._bytes[file] = data
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
        try:
            if "file" in meta:  # format 2: the entry's own file
                clip = self._decode_file(meta["file"])
            else:
                parts = [self._part(clip_id) for clip_id in meta["clips"]]
                clip = parts[0] if len(parts) == 1 else join_clips(parts, meta.get("pauses", []))
        except LookupError as exc:
            log.warning("voice pack %s: entry %s unreadable (%s)", self.folder, entry, exc)
            return None
        except Exception as exc:  # soundfile.LibsndfileError and friends: a damaged file
            log.warning("voice pack %s: entry %s cannot be decoded (%s)", self.folder, entry, exc)
            return None
        self._decoded[entry] = clip
        while len(self._decoded) > self.DECODED_KEPT:
            self._decoded.popitem(last=False)
        return clip

    def _part(self, clip_id: str) -> Clip:
        clip = self._parts.get(clip_id)
        if clip is not None:
            self._parts.move_to_end(clip_id)
            return clip
        clip = self._decode_file(self.clips[clip_id]["file"])
        self._parts[clip_id] = clip
        while len(self._parts) > self.PARTS_KEPT:
            self._parts.popitem(last=False)
        return clip

    def _decode_file(self, file: str) -> Clip:
        data = self._bytes.get(file) or self._read_bytes(file)
        if data is None:
            raise LookupError(f"{file} is missing")
        return decode_clip(data)

    def _read_bytes(self, file: str) -> bytes | None:
        try:
            return (self.folder / "audio" / file).read_bytes()
        except OSError as exc:
            log.warning("voice pack %s: %s unreadable (%s)", self.folder, file, exc)
            return None


def entry_files(meta: Mapping[str, Any], clips: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, int]]:
    """The audio files an entry is said from (one in format 2, its parts' in format 3), with their sizes."""
    if "file" in meta:
        return [(str(meta["file"]), int(meta.get("bytes", 0)))]
    return [(str(clips[c]["file"]), int(clips[c].get("bytes", 0))) for c in meta.get("clips", []) if c in clips]


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


@dataclass(frozen=True)
class Planned:
    """An entry as a pack builds it: its parts' clip ids and texts, and the pauses between them."""

    entry: str
    params: dict[str, Any]
    line: Line
    digest: str
    clips: tuple[str, ...]
    texts: tuple[str, ...]
    pauses: tuple[float, ...]


def plan_entries(catalogs: Sequence[Catalog], backend: str, voice: str) -> dict[str, Planned]:
    """Every entry of the catalogs with the parts it is said from (COMPOSE_FROM)."""
    # Each entry once: the common phrases come with every game's catalog, and how a key is built must not depend
    # on how many games a pack holds.
    listed = list({entry: (entry, params, line) for words in catalogs
                   for entry, params, line in pack_entries(words)}.values())
    per_key: dict[str, int] = {}
    for _entry, _params, line in listed:
        per_key[line.entry or line.key] = per_key.get(line.entry or line.key, 0) + 1
    planned: dict[str, Planned] = {}
    for entry, params, line in listed:
        text = spoken_text(line, backend)
        if per_key[line.entry or line.key] >= COMPOSE_FROM:
            texts, pauses = spoken_parts(text, line.lang)
        else:
            texts, pauses = [text], []
        ids = tuple(part_hash(line.lang, backend, voice, t) for t in texts)
        planned[entry] = Planned(entry, params, line, text_hash(line, backend, voice), ids, tuple(texts),
                                 tuple(pauses))
    return planned


def part_line(line: Line, text: str) -> Line:
    """A line that makes an engine read `text` alone (a part of `line`)."""
    return Line(line.key, text, text, line.lang, line.entry, text)


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


def _verified(folder: Path, clip_id: str, known: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A clip already in the pack, checked: its file is there and whole (the size the manifest says, or for a
    file finished after the last manifest write, readable audio). None when it must be rendered."""
    file = clip_id + CLIP_SUFFIX
    path = folder / "audio" / file
    try:
        size = path.stat().st_size
    except OSError:
        return None
    if known is not None:
        return dict(known) if int(known.get("bytes", -1)) == size and known.get("file") == file else None
    try:
        import soundfile

        info = soundfile.info(str(path))
    except Exception:  # a damaged file: rendered again
        return None
    if info.frames <= 0:
        return None
    return {"file": file, "frames": int(info.frames), "rate": int(info.samplerate), "bytes": size}


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

    Each distinct spoken part missing from the pack is rendered once (`plan_entries`). `synth` renders in this
    process; with `jobs` > 1 (and no `synth`) each of `jobs` processes starts its own `backend_name` engine.
    An interrupted render keeps every clip it finished (the manifest is written every few seconds, and a clip
    file finished after it is checked and kept): the next one renders the rest."""
    started = time.perf_counter()
    catalogs = [catalog] if isinstance(catalog, Catalog) else list(catalog)
    lang = catalogs[0].lang
    old = Pack.load(folder, lang, backend_name)
    same_voice = old is not None and old.voice == voice
    old_entries = old.entries if old is not None and same_voice else {}
    old_clips = old.clips if old is not None and same_voice else {}
    rendered_here = _namespaces(catalogs)
    planned = plan_entries(catalogs, backend_name, voice)
    entries: dict[str, dict[str, Any]] = {e: m for e, m in old_entries.items() if e not in planned}
    clips: dict[str, dict[str, Any]] = {}
    replaced_files: list[str] = []  # files of format-2 entries made anew
    for meta in entries.values():  # the clips other games' (or stale) entries are said from stay listed
        clips.update((c, old_clips[c]) for c in meta.get("clips", ()) if c in old_clips)
    report = RenderReport([], 0, 0, {}, 0.0)
    todo: dict[str, tuple[str, dict[str, Any], Line, str, str]] = {}
    audio = folder / "audio"
    audio.mkdir(parents=True, exist_ok=True)
    on_disk = {p.name for p in audio.iterdir()}
    checked: set[str] = set()
    for plan in planned.values():
        for clip_id, text in zip(plan.clips, plan.texts, strict=True):
            if clip_id in todo or clip_id in checked:
                continue
            checked.add(clip_id)
            known = old_clips.get(clip_id)
            found = _verified(folder, clip_id, known) if clip_id + CLIP_SUFFIX in on_disk else None
            clips.pop(clip_id, None)
            if found is not None:
                found["text"] = text
                clips[clip_id] = found
                report.clips_kept += 1
            else:
                todo[clip_id] = (clip_id, {}, part_line(plan.line, text), clip_id, clip_id + CLIP_SUFFIX)
    for plan in planned.values():
        previous = old_entries.get(plan.entry)
        if previous is not None and "file" in previous:
            replaced_files.append(str(previous["file"]))
        elif previous is not None and previous.get("hash") == plan.digest and \
                tuple(previous.get("clips", ())) == plan.clips and all(c in clips for c in plan.clips):
            entries[plan.entry] = previous
            report.kept += 1
    last_saved = time.monotonic()

    def checkpoint(final: bool = False) -> None:
        nonlocal last_saved
        if not final and time.monotonic() - last_saved < CHECKPOINT_SECONDS:
            return
        for plan in planned.values():
            if plan.entry not in entries and all(c in clips for c in plan.clips):
                entries[plan.entry] = _entry_meta(plan, clips)
                report.rendered.append(plan.entry)
                space = entry_namespace(plan.entry)
                report.by_namespace[space] = report.by_namespace.get(space, 0) + 1
        _write_manifest(folder, lang, backend_name, voice, entries, clips)
        last_saved = time.monotonic()

    try:
        items = list(todo.values())
        for done, (item, outcome) in enumerate(_render_all(items, folder, backend_name, lang, synth, jobs), 1):
            if isinstance(outcome, Exception):
                report.failed[item[0]] = str(outcome)
            else:
                frames, rate, size = outcome
                clips[item[0]] = {"file": item[4], "frames": frames, "rate": rate, "bytes": size,
                                  "text": item[2].text}
                report.clips_rendered += 1
                report.bytes_written += size
                report.audio_seconds += frames / rate
            if progress:
                progress(done, len(items), item[2].text)
            checkpoint()
    finally:  # Ctrl-C included: what is finished is kept for the next run
        checkpoint(final=True)
    failed_parts = dict(report.failed)
    report.failed = {}
    for plan in planned.values():
        why = next((failed_parts[c] for c in plan.clips if c in failed_parts), None)
        if why is not None:
            report.failed[plan.entry] = why
    for entry, meta in list(entries.items()):
        if entry in planned:
            continue
        if entry_namespace(entry) not in rendered_here:
            report.other_games += 1
        elif prune:
            del entries[entry]
            if "file" in meta:
                replaced_files.append(str(meta["file"]))
            report.removed += 1
        else:
            report.stale += 1
    _write_manifest(folder, lang, backend_name, voice, entries, clips)
    used = {file for meta in entries.values() for file, _size in entry_files(meta, clips)}
    for name in {*replaced_files, *(p.name for p in audio.iterdir() if p.suffix == CLIP_SUFFIX)} - used:
        (audio / name).unlink(missing_ok=True)
        report.clips_removed += 1
    report.seconds = time.perf_counter() - started
    return report


def _entry_meta(plan: Planned, clips: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    frames = sum(int(clips[c]["frames"]) for c in plan.clips)
    meta: dict[str, Any] = {"key": plan.line.key, "params": plan.params, "hash": plan.digest,
                            "clips": list(plan.clips), "frames": frames}
    if plan.pauses:
        meta["pauses"] = list(plan.pauses)
    return meta


RenderItem = tuple[str, dict[str, Any], Line, str, str]  # (id, params, line, hash, file name)
Rendered = tuple[int, int, int]  # (frames, rate, bytes)


def _render_all(todo: list[RenderItem], folder: Path, backend_name: str, lang: str, synth: Synth | None,
                jobs: int) -> Iterator[tuple[RenderItem, Rendered | Exception]]:
    """(item, result or the exception) for every item, in the order they finish. An item is (id, params,
    line, hash, file name)."""
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
    pending: dict[Future[Rendered], RenderItem] = {}
    items = iter(todo)
    # Spawned, not forked: a fork of a process whose espeak-ng (pyttsx3) threads already run hangs.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(backend_name, lang)) as pool:
        try:
            while True:
                while len(pending) < window and (queued := next(items, None)) is not None:
                    pending[pool.submit(_render_one, folder, queued[4], queued[2])] = queued
                if not pending:
                    return
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    item = pending.pop(future)
                    error = future.exception()
                    if error is not None and not isinstance(error, Exception):
                        raise error  # KeyboardInterrupt and friends end the render
                    yield item, error if error is not None else future.result()
        finally:
            for future in pending:
                future.cancel()


def _write_manifest(folder: Path, lang: str, backend: str, voice: str, entries: dict[str, dict[str, Any]],
                    clips: dict[str, dict[str, Any]] | None = None) -> None:
    """The one place a manifest is written (a temporary name first, then put in place)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "lang": lang, "backend": backend, "voice": voice, "entries": entries,
            "clips": clips or {}}
    write_durably(folder / MANIFEST, json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True))


def silence(seconds: float, rate: int) -> Clip:
    return Clip(np.zeros(int(seconds * rate), dtype=np.float32), rate)
