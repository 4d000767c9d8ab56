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
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from kikimimi.games import base as games_base
from kikimimi.games.base import Alert, Say, hears
from kikimimi.voice.catalog import Catalog, Line, catalog
from kikimimi.voice.clip import Clip, first_sound, join_clips, time_stretch
from kikimimi.voice.config import (
    FALLBACK_BACKEND,
    OutputSpec,
    VoiceSpec,
    default_pack_dir,
)
from kikimimi.voice.mixer import DeviceStream, FirstFrameHook, Playing
from kikimimi.voice.outputs import Output as _Output
from kikimimi.voice.outputs import OutputDevices, OutputHealth
from kikimimi.voice.pack import Coverage, Pack, RecordedPack, entry_id, pack_entries, text_hash
from kikimimi.voice.sinks import Transcript
from kikimimi.voice.tts import SpeechWorker

log = logging.getLogger(__name__)

T = TypeVar("T")
LineHook = Callable[[str, Line], None]
StartHook = Callable[[str, Say, float, float], None]  # (output, effect, said, started), perf_counter times
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

    def find(self, line: Line, params: dict[str, Any]) -> tuple[Clip | None, str, str]:
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
        self.speech_detail = ""
        self._closed = threading.Event()
        self.cards = OutputDevices(spec, self.outputs, on_first_frame, self._closed)
        self.devices: list[DeviceStream] = self.cards.devices  # the sound cards' streams
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
        voice.cards.start()
        for out in voice.outputs.values():
            if out.spec.sink == "transcript":
                out.set_health("ok", "transcript (text only)")
            elif out.spec.sink == "null":
                out.set_health("ok", "null (silent)")
            out.thread = threading.Thread(target=voice._work, args=(out,), name=f"voice-{out.name}", daemon=True)
            out.thread.start()
        voice.cards.watch(set(voice.outputs) if used is None else set(used))
        return voice

    @property
    def used(self) -> set[str] | None:
        """The outputs the game uses: a later device fault is said for these only."""
        return self.cards.used

    @used.setter
    def used(self, outputs: set[str] | None) -> None:
        self.cards.used = outputs

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
        self.cards.close()
        if self.audio.speech is not None:
            self.audio.speech.stop()

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
        if self.faster and (behind or phrases.brisk(effect.key, params)):
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
