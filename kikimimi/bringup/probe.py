"""`--channel-probe DEVICE`: K short beeps on channel K of a sound card, one channel after the other.

A 7.1 card has eight channels behind four jacks (front, rear, centre/LFE, side) whose order differs
between cards; a person with an earphone in each jack in turn counts the beeps and writes the channel
numbers into `[outputs]`. Beeps count without speech (no voice pack needed, any language) and each is
also printed ("channel 3: 3 beeps"). It runs through the mixer's own device stream, so what is probed
is what the table plays through.
"""

from __future__ import annotations

import argparse
import json
import queue
import time
from collections.abc import Callable
from types import ModuleType

import numpy as np
from rich.console import Console
from rich.markup import escape

from kikimimi.bringup.audiotest import NEXT, STOP, _answer, stdin_lines
from kikimimi.voice.mixer import DeviceStream, Lane, Playing, load_sounddevice, resolve_device

MAX_DEFAULT = 8  # a 7.1 card; ALSA plug/virtual devices report up to 128 channels they only mix down
BEEP_FREQ = 880.0
BEEP_SECONDS = 0.12
BEEP_GAP = 0.12
AFTER_SECONDS = 0.5  # silence after a channel's beeps, so the next channel is heard as a new one


def beeps(count: int, rate: int) -> np.ndarray:
    """`count` short beeps (with soft edges, no clicks) and the silence after them, at `rate`."""
    t = np.arange(int(BEEP_SECONDS * rate)) / rate
    beep = (0.5 * np.sin(2 * np.pi * BEEP_FREQ * t)).astype(np.float32)
    ramp = min(len(beep) // 4, int(0.005 * rate))
    if ramp:
        edge = np.linspace(0.0, 1.0, ramp, dtype=np.float32)
        beep[:ramp] *= edge
        beep[-ramp:] *= edge[::-1]
    gap = np.zeros(int(BEEP_GAP * rate), dtype=np.float32)
    parts = [np.concatenate([beep, gap]) for _ in range(count)]
    return np.concatenate([*parts, np.zeros(int(AFTER_SECONDS * rate), dtype=np.float32)])


def _device_arg(text: str) -> str | int:
    return int(text) if text.strip().isdigit() else text


def channel_probe(
    sd: ModuleType,
    device: str | int,
    channels: int = 0,
    latency: str | float = "high",
    report: Callable[[int, str], None] | None = None,
    lines: queue.Queue[str | None] | None = None,
    timeout: float = 15.0,
) -> tuple[list[int], str | None, str]:
    """Beep on channels 1..N of `device` in turn; (channels probed, error or None, device label).

    N is `channels`, else the device's output channels but at most MAX_DEFAULT. With `lines`, each
    channel repeats until a line arrives (Enter: next channel, q: stop)."""
    try:
        info = resolve_device(sd, device)
    except ValueError as exc:
        return [], str(exc), repr(device)
    most = int(info["max_output_channels"])
    count = channels or min(most, MAX_DEFAULT)
    if count > most:
        return [], f"device {info['name']!r} has {most} output channel(s), not {count}", repr(device)
    lanes = [Lane(f"channel {k}", (k - 1,)) for k in range(1, count + 1)]
    stream = DeviceStream(sd, int(info["index"]), lanes, latency)
    error = stream.open()
    if error:
        return [], error, stream.label
    done: list[int] = []
    try:
        for k, lane in enumerate(lanes, 1):
            answer = None
            while answer is None:
                samples = beeps(k, stream.rate)
                lane.queue(Playing(samples, time.perf_counter(), 0))
                if report is not None:
                    report(k, stream.label)  # once per channel: the caller skips a repeat
                deadline = time.monotonic() + timeout + len(samples) / stream.rate
                while lane.busy and stream.ok and time.monotonic() < deadline:
                    time.sleep(0.01)
                if not stream.ok or lane.busy:
                    return done, stream.error or f"device {stream.label} stopped playing", stream.label
                answer = NEXT if lines is None else _answer(lines, 0.3)
            done.append(k)
            if answer == STOP:
                break
    finally:
        stream.close()
    return done, None, stream.label


def run_probe(args: argparse.Namespace, latency: str | float, err: Console) -> int:
    sd, error = load_sounddevice()
    if sd is None:
        err.print(f"[red]kikimimi bringup: {escape(str(error))}[/red]")
        return 2
    out = Console(highlight=False, soft_wrap=True)
    reported: set[int] = set()

    def report(k: int, label: str) -> None:
        if k in reported:
            return
        reported.add(k)
        if args.json:
            print(json.dumps({"device": label, "channel": k, "beeps": k}), flush=True)
        else:
            more = " (Enter: next channel, q and Enter: stop)" if args.repeat else ""
            out.print(f"channel {k}: {k} beep{'s' if k > 1 else ''} on {escape(label)}{more}")

    lines = stdin_lines() if args.repeat else None
    done, error, label = channel_probe(sd, _device_arg(args.channel_probe), args.channels, latency, report, lines)
    if error:
        err.print(f"[red]kikimimi bringup: {escape(error)}[/red] (see `kikimimi voices list-outputs`; audio guide: "
                  "hardware_docs/audio.md)")
        return 1
    if not args.json:
        out.print(f"probed channels 1..{done[-1] if done else 0} of {escape(label)}: write the channel you heard "
                  "in each earphone into that output's `channels` in [outputs]")
    return 0
