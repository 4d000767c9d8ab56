"""Speech backends: a Line to a Clip, never to a loudspeaker.

- `espeak`: pyttsx3 with espeak-ng. pyttsx3 is used only to render (its own playback goes to the
  default device only). pyttsx3 2.99 keeps only the last of several queued `save_to_file` calls, and
  its espeak driver lives in one process-wide espeak instance, so every synthesis runs on one worker
  thread, one `save_to_file` + `runAndWait` per utterance. Japanese is spoken from the kana reading
  (espeak-ng reads no kanji).
- `jtalk`: Open JTalk through the `pyopenjtalk-plus` package (a dependency, dictionary included): natural
  Japanese from the display text (`Line.natural`: with the catalog's [readings]), offline. The default
  for Japanese.

A backend that cannot start is reported by `SpeechWorker.start()` with a message that says how to fix
it; the caller falls back (pre-rendered pack or text only). Nothing here raises into the game.
"""

from __future__ import annotations

import os
import queue
import tempfile
import threading
import wave
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from kikimimi.voice.catalog import Line
from kikimimi.voice.clip import Clip, read_wav, trim

# espeak-ng voices by language, best first (identifiers as `espeak-ng --voices` lists them).
ESPEAK_VOICES = {"en": ["gmw/en-us", "gmw/en"], "ja": ["jpx/ja"]}
ESPEAK_RATE = 170  # words per minute: a little slower than espeak's 200, clearer in an earphone (Japanese kana)
# English at a table's pace: The Trident's play phrase ("Heart seat 2.") lasts 1.02 s at the median and 1.11 s
# at p95 at 230 (`kikimimi bench voice --pack-size` measures it). A pack's voice includes its rate.
ESPEAK_RATES: dict[str, int] = {"en": 230}
JTALK_SPEED = 1.0  # Open JTalk's speed (1.0: its own)


class BackendUnavailable(RuntimeError):
    """A speech backend that cannot run here, with what to install or change."""


class Backend(Protocol):
    name: str

    def synth(self, line: Line) -> Clip:
        """The line spoken; called from the speech worker thread only."""
        ...


class EspeakBackend:
    name = "espeak"

    def __init__(self, lang: str, rate: int | None = None) -> None:
        self.rate = rate or ESPEAK_RATES.get(lang, ESPEAK_RATE)
        try:
            import pyttsx3  # type: ignore[import-untyped]
            import pyttsx3.drivers.espeak as espeak_driver  # type: ignore[import-untyped]
        except Exception as exc:  # ImportError, or OSError when libespeak-ng is missing
            raise BackendUnavailable(
                f"pyttsx3 with espeak-ng is not usable ({exc}); install the Debian package "
                f"espeak-ng and `pip install pyttsx3`"
            ) from exc
        # The driver prints "Audio saved to ..." for every file; keep the console clean.
        espeak_driver.print = lambda *args, **kwargs: None
        try:
            self._engine = pyttsx3.init("espeak")
        except Exception as exc:
            raise BackendUnavailable(
                f"espeak-ng did not start ({exc}); install the Debian package espeak-ng"
            ) from exc
        self.voice = self._choose_voice(lang)
        self._engine.setProperty("voice", self.voice)
        self._engine.setProperty("rate", self.rate)
        self.identity = f"{self.voice}@{self.rate}wpm"
        self._dir = Path(tempfile.mkdtemp(prefix="kikimimi-tts-"))

    def _choose_voice(self, lang: str) -> str:
        voices = self._engine.getProperty("voices")
        ids = {v.id for v in voices}
        for wanted in ESPEAK_VOICES.get(lang, []):
            if wanted in ids:
                return str(wanted)
        for v in voices:
            if any(str(code).split("-")[0] == lang for code in (v.languages or [])):
                return str(v.id)
        raise BackendUnavailable(f"espeak-ng has no voice for language {lang!r}; install espeak-ng-data")

    ATTEMPTS = 3  # pyttsx3 now and then writes an empty or cut file for a phrase it speaks the next time

    def synth(self, line: Line) -> Clip:
        path = self._dir / "utterance.wav"
        clip = None
        for _attempt in range(self.ATTEMPTS):
            path.unlink(missing_ok=True)
            self._engine.save_to_file(line.reading, str(path))
            self._engine.runAndWait()
            try:
                clip = trim(read_wav(path))
            except (OSError, EOFError, wave.Error):  # no file, or one cut short
                continue
            path.unlink(missing_ok=True)
            if len(clip.samples):
                return clip
        if clip is None:
            raise RuntimeError(f"espeak-ng wrote no audio for {line.reading!r}")
        return clip


def open_jtalk() -> ModuleType:
    """The pyopenjtalk module, made to reuse one Sudachi tokenizer. pyopenjtalk-plus 0.3.4 loads Sudachi's
    dictionary anew on every call (about 50 ms, a third of a short phrase's synthesis) to read kanji with
    several readings; the tokenizer it builds is the same each time. Raises ImportError without it.

    Importing it starts onnxruntime (its model for the reading of 何), whose Linux wheels (1.32) keep usage
    telemetry in `~/.cache/Microsoft/DeveloperTools/.onnxruntime/` and try to send it to
    mobile.events.data.microsoft.com. The table speaks offline and reports to no one: telemetry is turned
    off before the import (onnxruntime reads the variable when its environment is made)."""
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"  # "1" or "true" turns it off; unset, "0" or "false" leave it on
    import pyopenjtalk
    import pyopenjtalk.utils as jtalk_utils

    sudachi = getattr(jtalk_utils, "dictionary", None)
    if sudachi is not None and not isinstance(sudachi, _OneSudachi):
        # pyopenjtalk declares no `dictionary` attribute: it is made at run time, and replaced here on purpose.
        jtalk_utils.dictionary = _OneSudachi(sudachi)  # type: ignore[attr-defined]
    return pyopenjtalk


class _OneSudachi:
    """Stands for `sudachipy.dictionary` inside pyopenjtalk: `Dictionary().create()` built once."""

    def __init__(self, dictionary_module: ModuleType) -> None:
        self._module, self._tokenizer = dictionary_module, None

    def Dictionary(self) -> _OneSudachi:  # noqa: N802 - the name pyopenjtalk calls
        return self

    def create(self) -> Any:  # a sudachipy Tokenizer
        if self._tokenizer is None:
            dictionary = self._module.Dictionary()
            self._tokenizer = dictionary.tokenizer() if hasattr(dictionary, "tokenizer") else dictionary.create()
        return self._tokenizer


class JTalkBackend:
    name = "jtalk"

    def __init__(self, lang: str) -> None:
        if lang != "ja":
            raise BackendUnavailable(f'Open JTalk speaks Japanese only, not {lang!r}; use backend = "espeak"')
        try:
            pyopenjtalk = open_jtalk()
        except Exception as exc:
            raise BackendUnavailable(
                f"Open JTalk is not installed ({exc}); `pip install pyopenjtalk-plus==0.3.4.post11` "
                f"(offline, dictionary included; ./run installs it)"
            ) from exc
        self._tts = pyopenjtalk.tts
        self.identity = f"openjtalk@{JTALK_SPEED:g}x"

    def _speak(self, text: str) -> tuple[np.ndarray, int]:
        wav, rate = self._tts(text, speed=JTALK_SPEED)
        return np.asarray(wav), int(rate)

    def synth(self, line: Line) -> Clip:
        wav, rate = self._speak(line.natural)  # float64 at int16 scale
        return trim(Clip((np.asarray(wav, dtype=np.float32) / 32768.0), int(rate)))


def voice_identity(backend: Backend) -> str:
    """What makes a pack's clips this voice's: the engine's voice and its speech rate. A pack rendered with
    another identity is rendered again (`pack.render_pack`), so a changed rate is never mixed with the old."""
    return str(getattr(backend, "identity", "") or getattr(backend, "voice", ""))


BACKEND_TYPES: dict[str, Callable[[str], Backend]] = {"espeak": EspeakBackend, "jtalk": JTalkBackend}


def make_backend(name: str, lang: str) -> Backend:
    if name not in BACKEND_TYPES:
        raise BackendUnavailable(f"no speech backend {name!r}; use one of {', '.join(BACKEND_TYPES)}")
    return BACKEND_TYPES[name](lang)


class SpeechWorker:
    """One thread that owns the backend and renders lines in the order asked."""

    def __init__(self, name: str, lang: str) -> None:
        self.name, self.lang = name, lang
        self.backend: Backend | None = None
        self.error: str | None = None
        self._jobs: queue.Queue[tuple[Line, Future[Clip]] | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    def start(self) -> str | None:
        """Start the backend on the worker thread; None when it runs, else why it does not."""
        ready: Future[None] = Future()
        self._thread = threading.Thread(target=self._run, args=(ready,), name=f"tts-{self.name}", daemon=True)
        self._thread.start()
        try:
            ready.result(timeout=30)
        except BackendUnavailable as exc:
            self.error = str(exc)
        except Exception as exc:
            self.error = f"speech backend {self.name!r} failed to start: {exc}"
        return self.error

    def render(self, line: Line) -> Future[Clip]:
        future: Future[Clip] = Future()
        if self.backend is None:
            future.set_exception(BackendUnavailable(self.error or "speech backend not started"))
        else:
            self._jobs.put((line, future))
        return future

    def stop(self) -> None:
        if self._thread and self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(timeout=5)

    def _run(self, ready: Future[None]) -> None:
        try:
            self.backend = make_backend(self.name, self.lang)
        except Exception as exc:
            ready.set_exception(exc)
            return
        ready.set_result(None)
        while (job := self._jobs.get()) is not None:
            line, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(self.backend.synth(line))
            except Exception as exc:
                future.set_exception(exc)
