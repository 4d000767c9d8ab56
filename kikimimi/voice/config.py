"""The `[voice]` and `[outputs.*]` tables of a table's TOML: which speech backend, which packs, and
where each named output (`speaker`, `hand:1`..`hand:3`) sounds.

    [voice]
    backend = "jtalk"                # jtalk | espeak | none; default: jtalk (Open JTalk) for ja, espeak for en
    pack = "voices/packs/ja-jtalk"   # optional; default <data folder>/packs/<lang>-<backend>
    recorded = "voices/recorded/ja"  # optional folder of WAV files named by phrase key
    allow_shared_channels = false    # a demo on one pair of headphones may set true
    wav_dir = "var/audio"            # where `sink = "wav"` outputs write

    [outputs.speaker]
    device = "USB Audio Device"      # a sounddevice name (substring), an index, or "default"
    channels = [1]                   # 1-based channels on that device
    volume = 0.9
    [outputs."hand:1"]
    device = "USB Audio Device"
    channels = [2]

`sink` (default "audio") may be "wav", "transcript" or "null" for tables without sound hardware.
Privacy starts here: two outputs that share a channel of one device are refused, because a phrase
for one seat would then reach another seat or the speaker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kikimimi.paths import data_home

SINKS = ("audio", "wav", "transcript", "null")
BACKENDS = ("espeak", "jtalk", "none")
# Each language's voice: Open JTalk speaks natural Japanese; espeak-ng speaks English, and Japanese where
# Open JTalk cannot run (the table says so once at start).
DEFAULT_BACKENDS = {"ja": "jtalk", "en": "espeak"}
FALLBACK_BACKEND = "espeak"


def default_backend(lang: str) -> str:
    return DEFAULT_BACKENDS.get(lang, FALLBACK_BACKEND)
OUTPUT_KEYS = {"device", "channels", "volume", "sink"}
VOICE_KEYS = {"backend", "pack", "recorded", "allow_shared_channels", "wav_dir", "latency"}


class VoiceConfigError(ValueError):
    """A voice or output setting that cannot be used: says where, what, and how to fix it."""


@dataclass(frozen=True)
class OutputSpec:
    name: str
    device: str | int | None  # None or "default": the system's default output device
    channels: tuple[int, ...]  # 1-based channel numbers on the device
    volume: float
    sink: str  # "audio" | "wav" | "transcript" | "null"


@dataclass(frozen=True)
class VoiceSpec:
    lang: str
    backend: str
    pack: Path | None
    recorded: Path | None
    allow_shared_channels: bool
    wav_dir: Path | None
    latency: str | float = "high"  # PortAudio output latency: "low", "high" or seconds


def default_latency() -> str:
    """`[voice] latency` when it is not set: "high" (PortAudio's suggestion for the device, about 35 ms through
    PulseAudio) on a Pi and on a PC. A Pi's USB audio runs dry at "low" while readers and speech share its CPU;
    on a PC under load, with every thread of the table and the sound server real-time, one bot game of The
    Trident with another process busy (`kikimimi bench voice --lag --realtime --busy --latency L`) had one
    underflow at "low" (9 ms), none at "high" (each phrase heard 0.03 s after it was handed over) and none at
    0.1 s (0.1 s later, on every phrase): "high" keeps the card fed for 0.03 s of lag."""
    return "high"


def default_pack_dir(lang: str, backend: str) -> Path:
    """Where `kikimimi voices render` writes and the table looks for a pre-rendered pack: the table's
    writable data folder (never the installed package, which the service user cannot write)."""
    return data_home() / "packs" / f"{lang}-{backend}"


def parse_voice(
    voice_table: Mapping[str, Any],
    outputs_table: Mapping[str, Any],
    lang: str,
    source: str,
    base_dir: Path,
) -> tuple[VoiceSpec, list[OutputSpec]]:
    """The voice settings and the outputs of a table config; relative paths are relative to base_dir."""
    voice_table = voice_table or {}
    _unknown_keys(voice_table, VOICE_KEYS, source, "[voice]")
    backend = voice_table.get("backend") or default_backend(lang)
    if backend not in BACKENDS:
        raise VoiceConfigError(
            f"{source}: [voice] backend = {backend!r} is unknown; use one of {', '.join(BACKENDS)}"
        )
    allow_shared = voice_table.get("allow_shared_channels", False)
    if not isinstance(allow_shared, bool):
        raise VoiceConfigError(
            f"{source}: [voice] allow_shared_channels must be true or false, not {allow_shared!r}"
        )
    latency = voice_table.get("latency")
    if latency is None:
        latency = default_latency()
    if not (latency in ("low", "high") or (isinstance(latency, int | float) and 0 < latency < 2)):
        raise VoiceConfigError(
            f'{source}: [voice] latency = {latency!r}: use "low", "high" or seconds (e.g. 0.02)'
        )
    pack = _path(voice_table, "pack", source, base_dir)
    if pack is None and backend != "none":
        pack = default_pack_dir(lang, backend)
    spec = VoiceSpec(
        lang=lang,
        backend=backend,
        pack=pack,
        recorded=_path(voice_table, "recorded", source, base_dir),
        allow_shared_channels=allow_shared,
        wav_dir=_path(voice_table, "wav_dir", source, base_dir),
        latency=latency,
    )
    outputs = [_output(name, table, source) for name, table in (outputs_table or {}).items()]
    if any(o.sink == "wav" for o in outputs) and spec.wav_dir is None:
        raise VoiceConfigError(
            f'{source}: an output has sink = "wav" but [voice] has no wav_dir; add e.g. wav_dir = "var/audio"'
        )
    if not allow_shared:
        check_private_channels(outputs, source)
    return spec, outputs


def _output(name: str, table: Any, source: str) -> OutputSpec:
    where = f'{source}: [outputs."{name}"]'
    if name != "speaker" and not (name.startswith("hand:") and name[5:].isdigit() and int(name[5:]) >= 1):
        raise VoiceConfigError(f'{where}: unknown output name; use "speaker" or "hand:N" (N = a seat, 1 to 10)')
    if not isinstance(table, Mapping):
        raise VoiceConfigError(f"{where}: expected a table with device, channels, volume")
    _unknown_keys(table, OUTPUT_KEYS, source, f'[outputs."{name}"]')
    sink = table.get("sink", "audio")
    if sink not in SINKS:
        raise VoiceConfigError(f"{where} sink = {sink!r} is unknown; use one of {', '.join(SINKS)}")
    device = table.get("device")
    if device == "default" or device == "":
        device = None
    if device is not None and (isinstance(device, bool) or not isinstance(device, str | int)):
        raise VoiceConfigError(
            f"{where} device = {device!r}: use a device name, an index "
            f'(see `kikimimi voices list-outputs`) or "default"'
        )
    if isinstance(device, int) and device < 0:
        raise VoiceConfigError(
            f"{where} device = {device}: indexes start at 0 (see `kikimimi voices list-outputs`)"
        )
    channels = table.get("channels", [1])
    if isinstance(channels, int) and not isinstance(channels, bool):
        channels = [channels]
    if (
        not isinstance(channels, list)
        or not channels
        or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 1 for c in channels)
    ):
        raise VoiceConfigError(
            f"{where} channels = {channels!r}: use a list of 1-based channel numbers, e.g. [2] "
            f"or [1, 2] for both sides of a stereo earphone"
        )
    if len(set(channels)) != len(channels):
        raise VoiceConfigError(f"{where} channels = {channels!r} lists a channel twice")
    volume = table.get("volume", 1.0)
    if isinstance(volume, bool) or not isinstance(volume, int | float) or not 0.0 <= volume <= 1.0:
        raise VoiceConfigError(f"{where} volume = {volume!r}: use a number from 0.0 (silent) to 1.0 (full)")
    return OutputSpec(name, device, tuple(channels), float(volume), sink)


def check_private_channels(outputs: list[OutputSpec], source: str) -> None:
    """Refuse two outputs on one channel of one device: a seat's phrase would reach someone else."""
    owner: dict[tuple[str, int], str] = {}
    for out in outputs:
        if out.sink != "audio":
            continue
        for ch in out.channels:
            slot = (device_key(out.device), ch)
            if slot in owner:
                raise VoiceConfigError(
                    f'{source}: outputs "{owner[slot]}" and "{out.name}" share channel {ch} of device '
                    f"{device_key(out.device)!r}, so a private phrase would reach the other;"
                    f" give each its own channel or device (a demo on one headset may set "
                    f"[voice] allow_shared_channels = true)"
                )
            owner[slot] = out.name


def device_key(device: str | int | None) -> str:
    """Outputs naming the same device the same way share one stream."""
    return "default" if device is None else str(device)


def _unknown_keys(table: Mapping[str, Any], known: set[str], source: str, where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise VoiceConfigError(f"{source}: {where} has unknown key(s) {unknown}; known: {sorted(known)}")


def _path(table: Mapping[str, Any], key: str, source: str, base_dir: Path) -> Path | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise VoiceConfigError(f"{source}: [voice] {key} = {value!r}: expected a folder path")
    path = Path(value).expanduser()
    return path if path.is_absolute() else base_dir / path


def redirect_outputs(
    spec: VoiceSpec, outputs: list[OutputSpec], record_dir: Path | None = None, transcript_only: bool = False
) -> tuple[VoiceSpec, list[OutputSpec]]:
    """The same outputs written to WAV files in `record_dir`, or shown as text only (tests, headless runs)."""
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
        return replace(spec, wav_dir=record_dir), [replace(o, sink="wav") for o in outputs]
    if transcript_only:
        return spec, [replace(o, sink="transcript") for o in outputs]
    return spec, list(outputs)
