"""One file per language and games: a voice pack rendered on a laptop, carried to the Pi, checked, installed.

`kikimimi voices export` writes a tar of a pack folder's files: a header (`kikimimi-pack.json`: the
language, the backend, the games, and every file with its size and SHA-256), the pack's manifest cut to
those games (and the common phrases), and the files the manifest names. `kikimimi voices import` reads the
whole file and checks every member against the header before it installs anything; a damaged file (a
short copy, a flipped byte) or one made for another language, backend or pack format is refused in one line,
and the pack on the Pi stays as it was. Installed: the clips first (each synced), the manifest last
(written durably): a power cut mid-import leaves the old manifest, which names only clips that are there.

A pack is a folder of files listed in its manifest (an entry's `file`, or its parts' `clips`, under `audio/`): this
module copies and checks files and never reads a clip, so the clip format is the pack module's business.
An entry of a game is named `<game>:<key>`; an entry without a game (`table.resuming`) is common to all.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from kikimimi.durable import sync_folder, write_durably
from kikimimi.voice.pack import FORMAT, MANIFEST, entry_files

HEADER = "kikimimi-pack.json"
AUDIO = "audio"
FILE_FORMAT = 1  # this file's own layout (the header), not the clips'


class PackFileError(ValueError):
    """A pack file or folder that cannot be exported or imported; the message is one line for a person."""


@dataclass(frozen=True)
class Imported:
    lang: str
    backend: str
    games: tuple[str, ...]
    entries: int
    bytes: int
    folder: Path


def entry_game(entry: str) -> str:
    """The game an entry belongs to ('' for the table's common phrases)."""
    head = entry.split("[", 1)[0]
    return head.split(":", 1)[0] if ":" in head else ""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PackFileError(f"no voice pack in {folder} (no {MANIFEST}): render it first with "
                            "`kikimimi voices render`") from None
    except (OSError, ValueError) as exc:
        raise PackFileError(f"{path} cannot be read ({exc}); render the pack again") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        raise PackFileError(f"{path} is not a voice pack's manifest (no entries)")
    return data


def export_pack(folder: Path, games: Iterable[str], out: Path) -> tuple[int, int]:
    """Write the pack in `folder` (its entries of `games` and the common ones) to the tar file `out`;
    (entries, bytes of clips) written. Every file the manifest names must be there."""
    wanted = set(games)
    manifest = _read_manifest(folder)
    entries = {e: meta for e, meta in manifest["entries"].items() if entry_game(e) in wanted | {""}}
    have = {entry_game(e) for e in entries} - {""}
    if wanted - have:
        raise PackFileError(f"the pack in {folder} has no phrases of {', '.join(sorted(wanted - have))}: render "
                            f"them first (`kikimimi voices render --lang {manifest.get('lang')} --game ...`)")
    all_clips = manifest.get("clips", {})
    used = {c for meta in entries.values() for c in meta.get("clips", ()) if c in all_clips}
    cut = {**manifest, "entries": entries, "clips": {c: all_clips[c] for c in sorted(used)}}
    files: dict[str, bytes] = {MANIFEST: json.dumps(cut, ensure_ascii=False, indent=0, sort_keys=True).encode()}
    listed: dict[str, dict[str, Any]] = {}
    total = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        with tarfile.open(name, "w") as tar:
            for entry, meta in sorted(entries.items()):
                for file, _size in entry_files(meta, all_clips):
                    member = f"{AUDIO}/{file}"
                    if member in listed:  # a part shared by several entries is carried once
                        continue
                    try:
                        data = (folder / member).read_bytes()
                    except OSError as exc:
                        raise PackFileError(f"{folder / member} (entry {entry}) cannot be read ({exc.strerror}); "
                                            "render the pack again") from None
                    listed[member] = {"bytes": len(data), "sha256": _sha256(data)}
                    total += len(data)
                    _add(tar, member, data)
            listed[MANIFEST] = {"bytes": len(files[MANIFEST]), "sha256": _sha256(files[MANIFEST])}
            _add(tar, MANIFEST, files[MANIFEST])
            header = {"kikimimi_pack_file": FILE_FORMAT, "lang": manifest.get("lang"),
                      "backend": manifest.get("backend"), "pack_format": manifest.get("format"),
                      "games": sorted(wanted), "files": listed}
            _add(tar, HEADER, json.dumps(header, ensure_ascii=False, indent=1).encode())
        with open(name, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(name, out)
        sync_folder(out.parent)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return len(entries), total


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o600
    tar.addfile(info, io.BytesIO(data))


def _safe(name: str) -> bool:
    path = PurePosixPath(name)
    return not path.is_absolute() and ".." not in path.parts and (
        name in (HEADER, MANIFEST) or (len(path.parts) == 2 and path.parts[0] == AUDIO))


def _read_header(tar: tarfile.TarFile, source: Path) -> dict[str, Any]:
    try:
        member = tar.getmember(HEADER)
        handle = tar.extractfile(member)
        header = json.loads(handle.read() if handle else b"")
    except KeyError:
        raise PackFileError(f"{source} is not a kikimimi voice pack file (no {HEADER})") from None
    except ValueError:
        raise PackFileError(f"{source} is damaged: its {HEADER} is not JSON") from None
    if not isinstance(header, dict) or not isinstance(header.get("files"), dict):
        raise PackFileError(f"{source} is damaged: its {HEADER} lists no files")
    if header.get("kikimimi_pack_file") != FILE_FORMAT:
        raise PackFileError(f"{source} is a pack file of layout {header.get('kikimimi_pack_file')}, this kikimimi "
                            f"reads layout {FILE_FORMAT}: export it with the same kikimimi version")
    return header


def import_pack(source: Path, packs: Path, *, lang: str | None = None, backend: str | None = None,
                pack_format: int | None = None) -> Imported:
    """Check the pack file `source` whole, then install it into `packs/<lang>-<backend>/` (its games replace
    those games' entries there; other games stay). `lang`, `backend`, `pack_format`: what the table expects
    (a file made for another is refused)."""
    try:
        tar = tarfile.open(source, "r")  # noqa: SIM115 - closed by the `with tar` below
    except FileNotFoundError:
        raise PackFileError(f"{source}: no such file") from None
    except (tarfile.TarError, OSError) as exc:
        raise PackFileError(f"{source} is damaged or not a pack file ({exc})") from None
    with tar:
        header = _read_header(tar, source)
        got = (header.get("lang"), header.get("backend"), header.get("pack_format"))
        for what, want, have in (("language", lang, got[0]), ("backend", backend, got[1]),
                                 ("clip format", pack_format, got[2])):
            if want is not None and want != have:
                raise PackFileError(f"{source} is a pack of {got[0]}-{got[1]} (clip format {got[2]}), not of the "
                                    f"{what} this table uses ({want}): export the right pack")
        if not isinstance(got[0], str) or not isinstance(got[1], str) or not got[0].isalnum() \
                or not got[1].replace("-", "").isalnum():
            raise PackFileError(f"{source} is damaged: its header names no language or backend")
        target = packs / f"{got[0]}-{got[1]}"
        target.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".import-", dir=target))
        try:
            manifest, size = _extract_checked(tar, header["files"], source, staging)
            games = tuple(str(g) for g in header.get("games", []))
            _install(staging, target, manifest, set(games))
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return Imported(got[0], got[1], games, len(manifest["entries"]), size, target)


def _extract_checked(tar: tarfile.TarFile, files: dict[str, Any], source: Path,
                     staging: Path) -> tuple[dict[str, Any], int]:
    """Every member the header lists, checked (size, SHA-256) into `staging`; nothing missing, nothing more."""
    seen: set[str] = set()
    total = 0
    try:
        for member in tar:
            if member.name == HEADER:
                continue
            expected = files.get(member.name)
            if expected is None or not member.isfile() or not _safe(member.name):
                raise PackFileError(f"{source} is damaged or mismatched: {member.name} is not in its list of files")
            handle = tar.extractfile(member)
            data = handle.read() if handle else b""
            if len(data) != expected.get("bytes") or _sha256(data) != expected.get("sha256"):
                raise PackFileError(f"{source} is damaged: {member.name} does not match its checksum (copy the "
                                    "file again); nothing was installed")
            path = staging / member.name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            seen.add(member.name)
            total += len(data)
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise PackFileError(f"{source} is damaged (cut short? {exc}); copy it again; nothing was installed") from None
    missing = set(files) - seen
    if missing:
        raise PackFileError(f"{source} is damaged: {len(missing)} listed files are missing (e.g. "
                            f"{sorted(missing)[0]}); copy it again; nothing was installed")
    manifest = json.loads((staging / MANIFEST).read_text(encoding="utf-8"))
    clips = manifest.get("clips", {})
    named = {f"{AUDIO}/{file}" for meta in manifest.get("entries", {}).values() for file, _ in entry_files(meta, clips)}
    if named - seen:
        raise PackFileError(f"{source} is damaged: its manifest names clips it does not hold")
    return manifest, total


def _install(staging: Path, target: Path, manifest: dict[str, Any], games: set[str]) -> None:
    """Clips in place (each synced), then the merged manifest written durably: the commit point."""
    old: dict[str, Any] = {}
    if (target / MANIFEST).exists():
        old = _read_manifest(target)
        for key in ("lang", "backend"):
            if old.get(key) != manifest.get(key):
                raise PackFileError(f"the pack in {target} is for {old.get('lang')}-{old.get('backend')}, the file "
                                    f"for {manifest.get('lang')}-{manifest.get('backend')}")
        if old.get("format") != manifest.get("format"):
            old = {}  # a pack of another clip format is replaced whole: the table would not read it anyway
    audio = target / AUDIO
    audio.mkdir(exist_ok=True)
    for clip in sorted((staging / AUDIO).iterdir()) if (staging / AUDIO).is_dir() else []:
        with open(clip, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(clip, audio / clip.name)
    sync_folder(audio)
    kept = {e: m for e, m in old.get("entries", {}).items() if entry_game(e) not in games | {""}}
    merged = {**manifest, "entries": {**kept, **manifest["entries"]},
              "clips": {**old.get("clips", {}), **manifest.get("clips", {})}}
    write_durably(target / MANIFEST, json.dumps(merged, ensure_ascii=False, indent=0, sort_keys=True))


# -- `kikimimi voices export` / `voices import` ------------------------------------------------------------

def register(sub: Any) -> None:
    """The two sub-commands, under `kikimimi voices` (kikimimi.app.voice_cli calls this)."""
    from kikimimi.voice.catalog import LANGUAGES
    from kikimimi.voice.config import BACKENDS

    export = sub.add_parser("export", help="write a voice pack (a language, some games) to one file, to copy to "
                                           "another table (render on a laptop, import on the Pi)")
    export.add_argument("--lang", choices=LANGUAGES, required=True)
    export.add_argument("--backend", choices=[b for b in BACKENDS if b != "none"],
                        help="speech backend (default: the language's voice)")
    export.add_argument("--game", action="append", metavar="ID",
                        help="only this game's phrases and the common ones (repeat; default: every game in the pack)")
    export.add_argument("--pack", type=Path, help="the pack folder (default: where the table looks)")
    export.add_argument("--out", type=Path, help="the file (default: kikimimi-voices-LANG-BACKEND-GAMES.tar here)")
    export.set_defaults(func=cmd_export)
    load = sub.add_parser("import", help="check a voice pack file whole and install it where the table looks")
    load.add_argument("file", type=Path)
    load.add_argument("--packs", type=Path, help="the packs folder (default: the data folder's packs/)")
    load.set_defaults(func=cmd_import)


def cmd_export(args: Any) -> int:
    import sys

    from kikimimi.voice.config import default_backend, default_pack_dir

    backend = args.backend or default_backend(args.lang)
    folder = args.pack or default_pack_dir(args.lang, backend)
    try:
        games = args.game or sorted({entry_game(e) for e in _read_manifest(folder)["entries"]} - {""})
        out = args.out or Path(f"kikimimi-voices-{args.lang}-{backend}-{'+'.join(games) or 'common'}.tar")
        entries, size = export_pack(folder, games, out)
    except (PackFileError, OSError) as exc:
        print(f"voices export: {exc}", file=sys.stderr)
        return 1
    print(f"{out}: {entries} phrases of {', '.join(games) or 'the table'} ({args.lang}-{backend}), "
          f"{size / 1e6:.1f} MB of clips, each with its SHA-256; on the other table: kikimimi voices import {out.name}")
    return 0


def cmd_import(args: Any) -> int:
    import sys

    from kikimimi.paths import data_home

    try:
        done = import_pack(args.file, args.packs or data_home() / "packs", pack_format=FORMAT)
    except (PackFileError, OSError) as exc:
        print(f"voices import: {exc}", file=sys.stderr)
        return 1
    print(f"installed {done.entries} phrases of {', '.join(done.games) or 'the table'} ({done.lang}-{done.backend}, "
          f"{done.bytes / 1e6:.1f} MB, every file checked) in {done.folder}")
    return 0
