"""The voice router: `Say(to, key, params)` effects to sound on the output `to`, at once and only there.

    voice = Voice.open(spec, outputs, on_line=show)     # never raises for a missing device or backend
    voice.say(Say("hand:2", "piece.heard", {...}))      # returns at once
    voice.health()                                      # {"hand:2": OutputHealth("ok", ...), ...}

Each output has a worker thread: utterances on one output play in order, outputs play at the same
time. A phrase's audio comes from the first that has it: the recorded pack, the pre-rendered pack
(in memory), live TTS (one speech thread), else the text alone (transcript). A `hand:N` phrase is
only ever queued on `hand:N`'s own output; an effect to an output that is not configured is
written to the transcript, never redirected. A device that is missing or vanishes falls back to
the transcript, and a watchdog tries it again every few seconds.

Keeping the speaker current (a fast game says more than it can speak):
- a new speaker phrase whose catalog entry names a `supersedes` group drops any phrase of that group
  still waiting (not yet started) on the speaker: "seat 3, heart" replaces a queued "seat 2, spade";
  one that names groups it `outdates` drops their waiting phrases too, without joining them (the first
  digit of a new call makes a waiting "seat 2 to call" stale, but not the digits before it).
  Only on the speaker: a private (earphone) phrase is never dropped, one playing is never cut, and
  the phrases that stay keep their order.
- a phrase with a `short` form is said short when its output is behind: it waited more than
  SHORT_AFTER_SECONDS, or SHORT_QUEUE or more phrases wait behind it; and any phrase said while its
  output is behind plays FAST_SPEED times faster at the same pitch (earphones too: faster, never dropped).
A sound card's worker hands the mixer at most LOOKAHEAD_SECONDS of audio ahead, so the backlog stays
in the queue, where it can still be dropped or shortened.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from kikimimi.games import base as games_base
from kikimimi.games.base import Alert, Say, hears
from kikimimi.voice.catalog import Catalog, Line, catalog
from kikimimi.voice.clip import Clip, first_sound, join_clips, resample, time_stretch
from kikimimi.voice.config import (
    FALLBACK_BACKEND,
    OutputSpec,
    VoiceConfigError,
    VoiceSpec,
    default_pack_dir,
    device_key,
)
from kikimimi.voice.mixer import (
    DeviceStream,
    FirstFrameHook,
    Lane,
    Playing,
    load_sounddevice,
    reinitialize_portaudio,
)
from kikimimi.voice.pack import Coverage, Pack, RecordedPack, entry_id, pack_entries, text_hash
from kikimimi.voice.sinks import GAP_SECONDS, Transcript, WavSink
from kikimimi.voice.tts import SpeechWorker

log = logging.getLogger(__name__)

T = TypeVar("T")
LineHook = Callable[[str, Line], None]
StartHook = Callable[[str, Say, float, float], None]  # (output, effect, said, started), perf_counter times
RETRY_SECONDS = 5.0
WATCH_SECONDS = 0.25
PART_GAP_SECONDS = 0.12  # between the parts of a joined phrase played from the pack: a breath, not a pause
SHORT_AFTER_SECONDS = 1.0  # a phrase that waited longer than this is said in its short form
SHORT_QUEUE = 2  # ... as is one with this many phrases waiting behind it
LOOKAHEAD_SECONDS = 0.3  # audio handed to a sound card's mixer ahead of what is playing
# A phrase said while its output is behind plays this much faster, at the same pitch: words stay whole and
# nothing is dropped (a private phrase is never dropped), where 1.25 is still easy to follow.
FAST_SPEED = 1.25


def not_superseded(waiting: Iterable[T], group: str | Collection[str],
                   group_of: Callable[[T], str | None]) -> list[T]:
    """The queued phrases that a new phrase dropping `group` (one name, or several: `Catalog.drops`) leaves
    in place, in their order (the speaker's rule; `kikimimi bench voice --lag` simulates with the same
    function)."""
    groups = {group} if isinstance(group, str) else set(group)
    return [job for job in waiting if group_of(job) not in groups]


def is_behind(waited: float, queued_behind: int) -> bool:
    """Whether a phrase starting now is said in its short form: it waited too long, or too many wait after it."""
    return waited > SHORT_AFTER_SECONDS or queued_behind >= SHORT_QUEUE


@dataclass(frozen=True)
class OutputHealth:
    status: str  # "ok" | "fallback" (speaking to the transcript, being retried) | "failed"
    detail: str
    underruns: int = 0  # PortAudio output underflows of the output's device stream since it started, and
    # blocks its lanes' rings ran dry with a clip waiting (the sound card ran dry: a click or gap; many of
    # them: raise [voice] latency, give the table real-time scheduling). Shared by the
    # outputs of one device; 0 for a wav, transcript or null sink.


def sound_cards() -> str:
    """The kernel's list of sound cards: when it changes, a device was plugged in or out."""
    try:
        return Path("/proc/asound/cards").read_text()
    except OSError:
        return str(time.monotonic() // 60)  # elsewhere: look again once a minute


class PhraseAudio:
    """A line's audio: recorded, then pre-rendered, then live TTS, then None (text only)."""

    def __init__(
        self,
        lang: str,
        backend: str,
        recorded: RecordedPack | None,
        pack: Pack | None,
        speech: SpeechWorker | None,
    ) -> None:
        self.lang, self.backend = lang, backend
        self.recorded, self.pack, self.speech = recorded, pack, speech
        self._live: OrderedDict[str, Clip] = OrderedDict()  # live TTS results, so a repeat is instant
        self._lock = threading.Lock()

    def find(self, line: Line, params: dict) -> tuple[Clip | None, str, str]:
        """(clip, source, a key naming this exact audio) with source recorded|pack|tts|text."""
        if (found := self.stored(line, params)) is not None:
            return found
        if self.speech is None or self.speech.backend is None or line.text.startswith("["):
            return None, "text", ""
        cache_key = f"tts:{entry_id(line.entry or line.key, params)}#{text_hash(line, self.backend)}"
        with self._lock:
            if (clip := self._live.get(cache_key)) is not None:
                return clip, "tts", cache_key
        try:
            clip = self.speech.render(line).result(timeout=30)
        except Exception as exc:
            log.warning("speech for %r failed (%s); text only", line.text, exc)
            return None, "text", ""
        with self._lock:
            self._live[cache_key] = clip
            while len(self._live) > 512:
                self._live.popitem(last=False)
        return clip, "tts", cache_key


    def stored(self, line: Line, params: dict[str, Any]) -> tuple[Clip, str, str] | None:
        """The line's recorded or pre-rendered audio, (clip, source, key), without live speech."""
        entry = entry_id(line.entry or line.key, params)
        if self.recorded is not None and (clip := self.recorded.get(line.key, params)) is not None:
            return clip, "recorded", f"recorded:{entry}"
        if self.pack is not None and (clip := self.pack.get(line, params)) is not None:
            return clip, "pack", f"pack:{entry}#{text_hash(line, self.backend)}"
        return None

    def find_parts(self, parts: Sequence[tuple[Line, dict[str, Any]]]) -> tuple[Clip | None, str, str]:
        """A joined phrase as its parts' recorded or pack clips one after another (tightened, PART_GAP_SECONDS apart),
        so a reveal is said from the pack with no live speech; (None, "text", "") unless every part has one."""
        clips: list[Clip] = []
        keys: list[str] = []
        for line, params in parts:
            if (found := self.stored(line, params)) is None:
                return None, "text", ""
            clips.append(found[0])
            keys.append(found[2])
        if not clips or any(clip.rate != clips[0].rate for clip in clips):
            return None, "text", ""
        return join_clips(clips, PART_GAP_SECONDS), "pack", "+".join(keys)  # parts tightened: the gap is the join's


class _Output:
    """One named output: its queue and worker, and where its sound goes now."""

    def __init__(self, spec: OutputSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.volume = spec.volume
        self.muted = False
        self.jobs: queue.Queue[tuple[Say, float, Catalog] | None] = queue.Queue()
        self.working = False
        self.lane: Lane | None = None
        self.device: DeviceStream | None = None
        self.wav: WavSink | None = None
        self.status = "ok"
        self.detail = ""
        self.thread: threading.Thread | None = None
        self.dropped = 0  # phrases superseded while they waited
        self._resampled: OrderedDict[tuple[str, int], np.ndarray] = OrderedDict()

    def set_health(self, status: str, detail: str) -> None:
        """Quietly: the Voice says what changed, once per device (`Voice._health_changed`)."""
        self.status, self.detail = status, detail

    def samples_for(self, clip: Clip, audio_key: str, rate: int) -> np.ndarray:
        """The clip at the device rate with a gap after it; recent ones cached (phrases repeat a lot)."""
        key = (audio_key, rate)
        cached = self._resampled.get(key)
        if cached is not None:
            self._resampled.move_to_end(key)
            return cached
        at_rate = resample(clip, rate).samples
        samples = np.concatenate([at_rate, np.zeros(int(GAP_SECONDS * rate), dtype=np.float32)])
        if audio_key:
            self._resampled[key] = samples
        while len(self._resampled) > 128:
            self._resampled.popitem(last=False)
        return samples


class Voice:
    def __init__(
        self,
        spec: VoiceSpec,
        phrases: Catalog,
        audio: PhraseAudio,
        on_line: LineHook | None,
        on_first_frame: FirstFrameHook | None,
    ) -> None:
        self.spec = spec
        self.catalog = phrases
        self.audio = audio
        self.on_line = on_line
        self.on_first_frame = on_first_frame
        self.on_start: StartHook | None = None  # a phrase leaves its queue (for a sound card: its first
        # frame follows within LOOKAHEAD_SECONDS plus what plays before it)
        self.supersede = True  # drop a queued speaker phrase that a newer one of its group replaces
        self.short_forms = True  # say a phrase's short form when its output is behind
        self.faster = True  # and FAST_SPEED times faster (same pitch)
        self.transcript = Transcript()
        self.outputs: dict[str, _Output] = {}
        self.devices: list[DeviceStream] = []
        self.sd: ModuleType | None = None
        self.speech_detail = ""
        self._closed = threading.Event()
        self._watchdog: threading.Thread | None = None
        self._reopen_lock = threading.Lock()
        self._cards = sound_cards()
        self.used: set[str] | None = None  # outputs the game uses; None while opening (faults said at the end)
        self.pack_coverage: dict[str, Coverage] = {}  # game -> how much of its phrases the pack holds
        self._pack_warned: set[str] = set()
        self._alert_hook: Callable[[Alert], None] | None = None  # the Priest's alerts (the table's)
        self._alerts_waiting: list[Alert] = []  # said before the table took them
        self._alert_lock = threading.Lock()

    # -- start -----------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        spec: VoiceSpec,
        outputs: Sequence[OutputSpec],
        on_line: LineHook | None = None,
        on_first_frame: FirstFrameHook | None = None,
        phrases: Catalog | None = None,
        used: Collection[str] | None = None,
    ) -> Voice:
        """Start speech and every output. Missing devices or backends fall back (see `health()`) and are said
        in the log once, one line per device, for the outputs in `used` (None: every output): a table
        configured for ten seats playing four is not warned about the six earphones nobody wears."""
        phrases = phrases or catalog(spec.lang)
        speech, speech_detail = None, 'no speech backend (backend = "none"): packs and text only'
        if spec.backend != "none":
            speech = SpeechWorker(spec.backend, spec.lang)
            error = speech.start()
            if error and spec.backend != FALLBACK_BACKEND:
                # Open JTalk cannot run here: Japanese in espeak-ng's voice rather than none (said once).
                fallback = SpeechWorker(FALLBACK_BACKEND, spec.lang)
                if fallback.start() is None:
                    log.warning("%s; speaking %s with %s instead", error, spec.lang, FALLBACK_BACKEND)
                    if spec.pack == default_pack_dir(spec.lang, spec.backend):
                        spec = replace(spec, pack=default_pack_dir(spec.lang, FALLBACK_BACKEND))
                    spec = replace(spec, backend=FALLBACK_BACKEND)
                    speech, error = fallback, None
            speech_detail = error or f"live speech: {spec.backend}"
            if error:
                log.warning("%s; phrases without a pre-rendered or recorded sound are shown as text only", error)
        pack = Pack.load(spec.pack, spec.lang, spec.backend) if spec.pack else None
        recorded = RecordedPack.load(spec.recorded) if spec.recorded and spec.recorded.is_dir() else None
        if spec.recorded and recorded is None:
            log.warning("recorded pack %s not found; using speech", spec.recorded)
        voice = cls(
            spec,
            phrases,
            PhraseAudio(spec.lang, spec.backend, recorded, pack, speech),
            on_line,
            on_first_frame,
        )
        voice.speech_detail = speech_detail
        # Check the pack against the game and warm it into memory off the caller's thread (a lookup before
        # that reads the file).
        threading.Thread(target=voice._ready_pack, args=(phrases,), name="voice-pack-preload", daemon=True).start()
        for out_spec in outputs:
            voice.outputs[out_spec.name] = _Output(out_spec)
        voice._start_wav_outputs()
        voice._start_audio_outputs()
        for out in voice.outputs.values():
            if out.spec.sink == "transcript":
                out.set_health("ok", "transcript (text only)")
            elif out.spec.sink == "null":
                out.set_health("ok", "null (silent)")
            out.thread = threading.Thread(target=voice._work, args=(out,), name=f"voice-{out.name}", daemon=True)
            out.thread.start()
        voice.used = set(voice.outputs) if used is None else set(used)
        voice._log_faults(list(voice.outputs.values()))
        voice._watchdog = threading.Thread(target=voice._watch, name="voice-watchdog", daemon=True)
        voice._watchdog.start()
        return voice

    def _log_faults(self, outs: Sequence[_Output]) -> None:
        """One line per distinct fault (outputs on one missing device share it), for the outputs in use."""
        faults: dict[tuple[str, str], list[str]] = {}
        for out in outs:
            if out.status != "ok" and out.name in self.used:
                faults.setdefault((out.status, out.detail), []).append(out.name)
        for (status, detail), names in faults.items():
            log.warning("%s %s: %s: %s", "outputs" if len(names) > 1 else "output", ", ".join(names), status, detail)

    def _group_health(self, outs: Sequence[_Output], status: str, detail: str) -> None:
        """Set the health of the outputs of one device; say the change in one line (a fault, or a recovery)."""
        changed = [out for out in outs if (out.status, out.detail) != (status, detail)]
        for out in outs:
            out.set_health(status, detail)
        if self.used is None or not changed:
            return  # still opening: Voice.open says the faults at its end
        if status != "ok":
            self._log_faults(changed)
        elif names := [out.name for out in changed if out.name in self.used]:
            log.info("%s %s: ok %s", "outputs" if len(names) > 1 else "output", ", ".join(names), detail)

    def _start_wav_outputs(self) -> None:
        for out in self.outputs.values():
            if out.spec.sink != "wav":
                continue
            assert self.spec.wav_dir is not None  # parse_voice requires it
            out.wav = WavSink(self.spec.wav_dir, out.name)
            error = out.wav.open()
            if error:
                out.wav = None
                out.set_health("fallback", f"{error}; speaking to the transcript")
            else:
                out.set_health("ok", f"wav {out.wav.path}")

    def _start_audio_outputs(self) -> None:
        audio = [o for o in self.outputs.values() if o.spec.sink == "audio"]
        if not audio:
            return
        self.sd, error = load_sounddevice()
        if self.sd is None:
            for out in audio:
                out.set_health("fallback", f"{error}")
            return
        groups: dict[str, list[_Output]] = {}
        for out in audio:
            groups.setdefault(self._physical_key(out.spec.device), []).append(out)
        self._check_resolved_channels(groups)
        for outs in groups.values():
            lanes = []
            for out in outs:
                out.lane = Lane(out.name, tuple(ch - 1 for ch in out.spec.channels), out.volume)
                lanes.append(out.lane)
            device = DeviceStream(
                self.sd,
                outs[0].spec.device,
                lanes,
                self.spec.latency,
                self.on_first_frame,
                self._device_fault,
            )
            self.devices.append(device)
            for out in outs:
                out.device = device
            self._open_device(device)

    def _physical_key(self, device: str | int | None) -> str:
        """Outputs naming one device differently (name and index) share one stream."""
        from kikimimi.voice.mixer import resolve_device

        try:
            return f"#{resolve_device(self.sd, device)['index']}"
        except ValueError:
            return device_key(device)

    def _check_resolved_channels(self, groups: dict[str, list[_Output]]) -> None:
        if self.spec.allow_shared_channels:
            return
        for outs in groups.values():
            owner: dict[int, str] = {}
            for out in outs:
                for ch in out.spec.channels:
                    if ch in owner:
                        raise VoiceConfigError(
                            f'outputs "{owner[ch]}" and "{out.name}" name the same device '
                            f"({outs[0].spec.device!r} / {out.spec.device!r}) and share channel {ch}, "
                            f"so a private phrase would reach the other; give each its own channel"
                        )
                    owner[ch] = out.name

    def _open_device(self, device: DeviceStream) -> bool:
        error = device.open()
        outs = [out for out in self.outputs.values() if out.device is device]
        if error:
            self._group_health(outs, "fallback", f"{error}; speaking to the transcript, retrying every "
                                                 f"{RETRY_SECONDS:.0f} s")
        else:
            for out in outs:
                chans = ",".join(str(c) for c in out.spec.channels)
                self._group_health([out], "ok", f"{device.label} channel {chans} at {device.rate} Hz")
        return error is None

    # -- the game's calls -------------------------------------------------------------------------

    def say(self, effect: Say) -> None:
        """Queue a phrase on its output and return at once."""
        now = time.perf_counter()
        out = self.outputs.get(effect.to)
        if out is None or self._closed.is_set():
            # Never redirect: a private phrase for an output that is not configured is text only.
            line = self.catalog.render(effect.key, effect.params)
            log.warning("no output %r configured (phrase %s); text only", effect.to,
                        effect.key if hears(effect.to, 0) else "private")  # a private key names a piece
            self.transcript.write(effect.to, line)
            self._emit_line(effect.to, line)
            return
        if self.supersede and effect.to == games_base.SPEAKER and (groups := self.catalog.drops(effect.key)):
            self._drop_superseded(out, groups)
        out.jobs.put((effect, now, self.catalog))  # the phrases of the game that said it, even if it changes

    def _drop_superseded(self, out: _Output, groups: Collection[str]) -> None:
        """Remove the queued (not started) phrases of `groups` from a public output; the rest keep
        their order. The worker takes phrases under the same lock, so a started one is never here."""
        with out.jobs.mutex:
            waiting = out.jobs.queue
            kept = not_superseded(waiting, groups, lambda job: None if job is None else job[2].group(job[0].key))
            dropped = len(waiting) - len(kept)
            if not dropped:
                return
            waiting.clear()
            waiting.extend(kept)
            out.jobs.unfinished_tasks -= dropped
        out.dropped += dropped
        log.debug("output %s: %d queued %s phrase(s) superseded", out.name, dropped, "/".join(groups))

    def use_catalog(self, namespace: str) -> None:
        """Speak another game's phrases from now on (the table changed game). Call from the one thread
        that calls `say` (the table loop)."""
        self.catalog = catalog(self.spec.lang, namespace)
        threading.Thread(target=self.check_pack, args=(self.catalog,), name="voice-pack-check", daemon=True).start()

    def _ready_pack(self, phrases: Catalog) -> None:
        self.check_pack(phrases)
        if self.audio.pack is not None:
            self.audio.pack.preload()

    def check_pack(self, phrases: Catalog) -> Coverage | None:
        """Warn once per game (log, hence the console) when the pack does not hold every phrase of the game
        the table plays, with the command that renders it. None without a pack setting or a speech backend."""
        spec = self.spec
        if spec.pack is None or spec.backend == "none":
            return None
        game = phrases.namespace or ""
        pack = self.audio.pack
        coverage = Coverage(sum(1 for _ in pack_entries(phrases)), 0) if pack is None else pack.coverage(phrases)
        self.pack_coverage[game] = coverage
        if coverage.complete or game in self._pack_warned:
            return coverage
        self._pack_warned.add(game)
        render = f"kikimimi voices render --lang {spec.lang} --backend {spec.backend}"
        render += f" --game {game}" if game else ""
        render += "" if spec.pack == default_pack_dir(spec.lang, spec.backend) else f" --out {spec.pack}"
        held = "no voice pack" if pack is None else f"the voice pack holds {coverage.held} of {coverage.wanted} phrases"
        log.warning("%s for %s in %s: the rest is spoken live or shown as text; render it with `%s`",
                    held, game or "this table", spec.pack, render)
        self._alert(Alert("voice.pack_incomplete", {"game": game or "this table", "held": coverage.held,
                                                    "wanted": coverage.wanted, "command": render}))
        return coverage

    def alerts_to(self, hook: Callable[[Alert], None]) -> None:
        """Where the voice's alerts for the Priest go (the table's alert list, which the console shows);
        those raised before, while the pack was checked at start, go there at once."""
        with self._alert_lock:
            self._alert_hook, waiting = hook, self._alerts_waiting
            self._alerts_waiting = []
        for alert in waiting:
            hook(alert)

    def _alert(self, alert: Alert) -> None:
        with self._alert_lock:
            hook = self._alert_hook
            if hook is None:
                self._alerts_waiting.append(alert)
                return
        hook(alert)

    def health(self) -> dict[str, OutputHealth]:
        return {
            name: OutputHealth(out.status, out.detail,
                               out.device.underflows + out.device.starved if out.device is not None else 0)
            for name, out in self.outputs.items()
        }

    def set_volume(self, output: str, volume: float) -> None:
        out = self._output(output)
        out.volume = min(1.0, max(0.0, float(volume)))
        if out.lane is not None:
            out.lane.volume = out.volume

    def mute(self, output: str, muted: bool) -> None:
        out = self._output(output)
        out.muted = bool(muted)
        if out.lane is not None:
            out.lane.muted = out.muted

    def wait_idle(self, timeout: float | None = None) -> bool:
        """True once every queued phrase has been spoken (or written), False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if all(
                o.jobs.empty() and not o.working
                and not (o.lane and o.device and o.device.ok and (o.lane.busy or o.device.fired))
                for o in self.outputs.values()
            ):
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.002)

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        for out in self.outputs.values():
            out.jobs.put(None)
        for out in self.outputs.values():
            if out.thread is not None:
                out.thread.join(timeout=5)
            if out.wav is not None:
                out.wav.close()
        for device in self.devices:
            device.close()
        if self.audio.speech is not None:
            self.audio.speech.stop()
        if self._watchdog is not None:
            self._watchdog.join(timeout=2)

    def _output(self, name: str) -> _Output:
        try:
            return self.outputs[name]
        except KeyError:
            raise KeyError(f"no output {name!r}; configured: {sorted(self.outputs)}") from None

    # -- workers ----------------------------------------------------------------------------------

    def _work(self, out: _Output) -> None:
        while True:
            self._wait_for_room(out)
            if (job := out.jobs.get()) is None:
                return
            out.working = True
            try:
                self._speak(out, *job)
            except Exception:
                log.exception("output %s: could not speak %s", out.name, job[0].key)
            finally:
                out.working = False

    def _wait_for_room(self, out: _Output) -> None:
        """A sound card's mixer plays what it is handed: hand it the next phrase only when little is
        left to play, so the backlog waits in the queue (where it can be superseded or shortened)."""
        while not self._closed.is_set():
            lane, device = out.lane, out.device
            if lane is None or device is None or not device.ok or not device.rate:
                return
            if lane.seconds_queued(device.rate) <= LOOKAHEAD_SECONDS:
                return
            time.sleep(0.005)

    def _behind(self, out: _Output, say_time: float, now: float) -> bool:
        return is_behind(now - say_time, out.jobs.qsize())

    def _speak(self, out: _Output, effect: Say, say_time: float, phrases: Catalog) -> None:
        started = time.perf_counter()
        if self.on_start is not None:
            try:
                self.on_start(out.name, effect, say_time, started)
            except Exception:
                log.exception("on_start hook failed for %s", out.name)
        params = dict(effect.params)
        phrase = phrases.phrases.get(effect.key)
        if phrase is not None:  # extra parameters do not change the words, so not the audio either
            params = {name: params[name] for name in phrase.params if name in params}
        behind = self._behind(out, say_time, started)
        short = self.short_forms and phrases.has_short(effect.key) and behind
        line = phrases.render(effect.key, params, short=short)
        sounding = out.spec.sink not in ("null", "transcript") and out.status == "ok"
        found = self._find(phrases, effect.key, params, line, short) if short and sounding else None
        if found is not None and found[0] is None:
            short, found = False, None
            line = phrases.render(effect.key, params)  # no sound for the short form: say it in full
        self._emit_line(out.name, line)
        sink = out.spec.sink
        if sink == "null":
            return
        if sink == "transcript" or out.status != "ok":
            self.transcript.write(out.name, line)
            return
        clip, _source, audio_key = found or self._find(phrases, effect.key, params, line, short)
        if clip is None or len(clip.samples) == 0:
            self.transcript.write(out.name, line)
            return
        if self.faster and behind:
            clip = time_stretch(clip, FAST_SPEED)
            audio_key = f"{audio_key}@{FAST_SPEED}" if audio_key else ""
        if out.wav is not None:
            out.wav.play(clip, 0.0 if out.muted else out.volume)
            return
        lane, device = out.lane, out.device
        if lane is None or device is None or not device.ok:
            self.transcript.write(out.name, line)
            return
        samples = out.samples_for(clip, audio_key, device.rate)
        lane.queue(Playing(samples, say_time, first_sound(samples)))

    def _find(self, phrases: Catalog, key: str, params: dict[str, Any], line: Line,
              short: bool) -> tuple[Clip | None, str, str]:
        """The line's audio; a joined phrase from its parts' pack clips when the pack has them all (no live
        speech for a reveal whose every part is rendered), else as any line."""
        if parts := phrases.parts(key, params, short):
            found = self.audio.find_parts(parts)
            if found[0] is not None:
                return found
        return self.audio.find(line, params)

    def _emit_line(self, output: str, line: Line) -> None:
        if self.on_line is not None:
            try:
                self.on_line(output, line)
            except Exception:
                log.exception("on_line hook failed for %s", output)

    # -- faults -----------------------------------------------------------------------------------

    def _device_fault(self, device: DeviceStream, reason: str) -> None:
        dropped = device.fail(reason)
        outs = [out for out in self.outputs.values() if out.device is device]
        self._group_health(outs, "fallback", f"{reason}; speaking to the transcript, retrying every "
                                             f"{RETRY_SECONDS:.0f} s")
        if dropped:
            log.warning("%s: %d queued phrase(s) not played (they are in the transcript)", device.label, dropped)

    def _watch(self) -> None:
        next_retry = time.monotonic() + RETRY_SECONDS
        while not self._closed.wait(WATCH_SECONDS):
            for device in self.devices:
                if device.stalled():
                    self._device_fault(device, f"device {device.label} stopped responding (unplugged?)")
            if time.monotonic() >= next_retry:
                next_retry = time.monotonic() + RETRY_SECONDS
                self.retry_devices()

    def retry_devices(self) -> None:
        """Try failed devices again; re-read PortAudio's device list when it is safe (no stream playing)."""
        failed = [d for d in self.devices if not d.ok]
        if not failed or self.sd is None or self._closed.is_set():
            return
        with self._reopen_lock:
            for device in failed:
                self._open_device(device)
            still = [d for d in self.devices if not d.ok]
            cards = sound_cards()
            if still and cards != self._cards and not any(lane.busy for d in self.devices for lane in d.lanes):
                self._cards = cards
                # PortAudio lists devices once per initialisation: to see a re-plugged one, start over.
                working = [d for d in self.devices if d.ok]
                for d in working:
                    d.close()
                try:
                    reinitialize_portaudio(self.sd)
                except Exception as exc:
                    log.warning("re-reading the audio device list failed: %s", exc)
                for d in self.devices:
                    self._open_device(d)
