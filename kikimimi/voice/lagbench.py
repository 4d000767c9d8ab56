"""`kikimimi bench voice --lag`: how far behind each output gets when bots play at a human pace.

Bots play whole games of every registered game; their taps come every `--tap` seconds (1.5 s brisk, 0.6 s
fast). Every phrase said is rendered by the language's voice exactly as a pack says it (so its length is
the real one: a key with many entries built from its spoken parts, clips trimmed, at the pack's rate), in
parallel on every core. Then each output's queue is played
out in simulated time: a phrase starts when the one before it (and the gap after it) has finished, and the
speaker's rules are the router's own functions (`not_superseded`, `is_behind`). Simulated time means no
thread scheduling enters the figures, neither as noise nor multiplied; the real path adds its audio block
(a few ms, `kikimimi bench voice`).

Lag = when a phrase starts being heard - when the game said it, per output kind (speaker, earphones),
p50/p95/max; and the speaker's answer lag: a tap to the start of the first of its phrases heard (the
phrases of one tap follow each other at once, so a later one's lag is the length of those before it).
Each before (every phrase said in full, in order) and after (stale public phrases superseded, a phrase's
short form and FAST_SPEED times faster speech when its output is behind). Earphone phrases are never
dropped nor reordered: the bench counts what each output said in each case and checks it.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kikimimi.benchclock import Stopwatch, children_cpu_seconds
from kikimimi.voice.catalog import Line

PACES = (1.5, 0.6)  # seconds between taps: brisk, fast
GOAL_P95 = 1.0  # seconds, at the brisk pace


@dataclass(frozen=True)
class Said:
    at: float  # tap number (times tap seconds = when it was said)
    game: int  # which bot game (each starts once the table has said everything of the one before)
    output: str
    key: str
    full: str  # pack entry of the full phrase
    short: str | None  # pack entry of its short form, if it has one
    group: str | None  # supersession group
    drops: tuple[str, ...] = ()  # the groups whose waiting phrases it drops (`Catalog.drops`)
    waits: bool = False  # the players wait to hear it before they tap again (a speaker phrase of a tap that says
    # a phrase of `GameInfo.heard_before_next`)
    brisk: bool = False  # always said FAST_SPEED times faster (`Catalog.brisk`)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("--lag: how far behind the outputs get in bot games at a human pace")
    group.add_argument("--lag", action="store_true", help="measure speaker and earphone lag (no sound card)")
    group.add_argument("--games", type=int, default=3, help="bot games per game (default 3)")
    group.add_argument("--tap", type=float, action="append",
                       help="seconds between taps (repeatable; default 1.5 and 0.6)")
    group.add_argument("--game", action="append", metavar="ID", help="only this game (default: every game)")
    group.add_argument("--seed", type=int, default=1)
    group.add_argument("--backend", help="voice (default: the language's: jtalk for ja, espeak for en)")
    group.add_argument("--realtime", action="store_true",
                       help="play the games on the live table into a real-time virtual card (PulseAudio) and "
                            "measure the speaker's lag and gaps from its recording (first --tap only)")
    group.add_argument("--busy", action="store_true", help="with --realtime: another process busy on one core")
    group.add_argument("--latency", default="0.1",
                       help='with --realtime: the table\'s [voice] latency ("low", "high" or seconds; default 0.1)')
    group.add_argument("--inner-play", metavar="DIR", help=argparse.SUPPRESS)


def bot_setup(game_id: str, game_no: int) -> dict[str, Any]:
    """The set-up of the bench's `game_no`th game of a game: the defaults, the first seat taking turns."""
    from kikimimi.games.registry import get_info

    info = get_info(game_id)
    setup = dict(info.setup_defaults)
    if "first" in setup:
        setup["first"] = 1 + game_no % info.seat_count(setup)
    return setup


def bot_game(game_id: str, game_no: int, seed: int) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """(event, effects) of the bench's `game_no`th bot game of a game, to its end."""
    from kikimimi.games.base import GameOver
    from kikimimi.games.registry import get_info

    info = get_info(game_id)
    setup = bot_setup(game_id, game_no)
    game, bots = info.game, info.new_bots(seed + game_no, setup)
    state = game.initial(setup)
    events = 0
    while (event := bots.next_event(state)) is not None and events < 20_000:
        state, effects = game.apply(state, event)
        events += 1
        yield event, tuple(effects)
        if effects and isinstance(effects[-1], GameOver):
            return


def waits_for(effect: Any, keys: frozenset[str]) -> bool:
    """Whether the players wait to hear this phrase (or a part of it) before they tap again."""
    from kikimimi.games.base import Say
    from kikimimi.games.phrasebook import spoken

    return bool(keys) and isinstance(effect, Say) and any(say.key in keys for say in spoken([effect]))


def awaited(effect: Any, keys: frozenset[str], group: str | None) -> bool:
    """Whether the players wait to hear this speaker phrase of a tap that reveals (`waits_for`): the reveal
    itself, and what the tap says with it, but not a phrase in a supersession group (`group`): such a
    phrase is said while nobody acts, and a newer one drops it (6 nimmt!'s row readings for a taker, whom
    the others wait for anyway: the taker chooses while they are read)."""
    from kikimimi.games.base import SPEAKER

    return getattr(effect, "to", None) == SPEAKER and (waits_for(effect, keys) or group is None)


def play_games(game_id: str, games: int, seed: int, lang: str, lines: dict[str, Line],
               joins: dict[str, list[str]] | None = None) -> list[Said]:
    """Every phrase the bots' games make the table say, in order, stamped with the tap that said it; the
    lines said (full and short) into `lines` by entry. A joined phrase (a reveal) is played as its parts'
    pack clips in turn, so its parts go into `lines` and its entry into `joins`, with its parts' entries."""
    from kikimimi.games.base import Say
    from kikimimi.games.registry import get_info
    from kikimimi.voice.catalog import catalog
    from kikimimi.voice.pack import entry_id

    info = get_info(game_id)
    words = catalog(lang, info.catalog)
    said: list[Said] = []
    taps = 0
    for game_no in range(games):
        for _event, effects in bot_game(game_id, game_no, seed):
            taps += 1
            # The players wait to hear all the speaker says for a tap that reveals (the reveal and what follows).
            waits = any(waits_for(effect, info.heard_before_next) for effect in effects)
            for effect in effects:
                if isinstance(effect, Say):
                    phrase = words.phrases.get(effect.key)
                    params = {n: effect.params[n] for n in phrase.params if n in effect.params} if phrase else {}
                    full = words.render(effect.key, params)
                    short = words.render(effect.key, params, short=True) if words.has_short(effect.key) else None
                    full_id, short_id = entry_id(full.entry, params), entry_id(short.entry, params) if short else None
                    for entry, line, is_short in ((full_id, full, False), (short_id, short, True)):
                        if entry is None or line is None:
                            continue
                        parts = words.parts(effect.key, params, is_short)
                        if parts and joins is not None:
                            joins[entry] = [entry_id(part.entry, kept) for part, kept in parts]
                            lines.update((entry_id(part.entry, kept), part) for part, kept in parts)
                        else:
                            lines[entry] = line
                    said.append(Said(taps, game_no, effect.to, effect.key, full_id, short_id,
                                     words.group(effect.key), words.drops(effect.key),
                                     waits and awaited(effect, info.heard_before_next, words.group(effect.key)),
                                     words.brisk(effect.key, params)))
        taps += 100_000  # the next game starts once the table is quiet: each game's lags are its own
    return said


def render_durations(lang: str, backend: str, lines: dict[str, Line], jobs: int,
                     game_ids: list[str]) -> dict[str, float]:
    """Seconds of every line as a pack says it (`render_as_pack`), rendered in a folder of its own."""
    with tempfile.TemporaryDirectory(prefix="kikimimi-bench-lag-") as folder:
        return render_as_pack(lang, backend, lines, Path(folder), jobs, game_ids, clip_cache(lang, backend))


def clip_cache(lang: str, backend: str) -> Path:
    """Where the lag benches keep the clips they rendered, for their next run (a clip is named by the hash of
    its text and voice, rate included, so a changed voice or text is rendered anew)."""
    return Path(tempfile.gettempdir()) / "kikimimi-bench-clips" / f"{lang}-{backend}"


def render_as_pack(lang: str, backend: str, lines: dict[str, Line], folder: Path, jobs: int,
                   game_ids: list[str], cache: Path | None = None) -> dict[str, float]:
    """A pack (format 3) of just these lines in `folder`, each entry built as `kikimimi voices render` builds it
    (a key with many entries from its spoken parts, `pack.plan_entries`), each distinct part rendered once on
    every core (or taken from `cache`); the seconds each entry plays for, as `Pack.get` builds it (tightened
    parts, the parts' pauses)."""
    import shutil

    from kikimimi.games.registry import get_info
    from kikimimi.voice.catalog import catalog
    from kikimimi.voice.clip import join_seconds as joined
    from kikimimi.voice.pack import (
        CLIP_SUFFIX,
        Planned,
        _entry_meta,
        _render_all,
        _write_manifest,
        part_line,
        plan_entries,
        spoken_text,
        text_hash,
    )
    from kikimimi.voice.tts import make_backend, voice_identity

    voice = voice_identity(make_backend(backend, lang))
    planned = plan_entries([catalog(lang, get_info(g).catalog) for g in game_ids], backend, voice)
    plans: dict[str, Planned] = {}
    for entry, line in lines.items():
        plan = planned.get(entry)
        digest = text_hash(line, backend, voice)
        if plan is None or plan.digest != digest:  # not a catalog entry: said whole
            plan = Planned(entry, {}, line, digest, (digest,), (spoken_text(line, backend),), ())
        plans[entry] = plan
    todo: dict[str, tuple[str, dict[str, Any], Line, str, str]] = {}
    for plan in plans.values():
        for clip_id, text in zip(plan.clips, plan.texts, strict=True):
            todo.setdefault(clip_id, (clip_id, {}, part_line(plan.line, text), clip_id, clip_id + CLIP_SUFFIX))
    audio = folder / "audio"
    audio.mkdir(parents=True, exist_ok=True)
    clips: dict[str, dict[str, Any]] = {}
    known = json.loads((cache / "clips.json").read_text()) if cache and (cache / "clips.json").exists() else {}
    for clip_id, item in list(todo.items()):
        if cache is not None and clip_id in known and (cache_file := cache / item[4]).exists():
            shutil.copyfile(cache_file, audio / item[4])
            clips[clip_id] = known[clip_id]
            del todo[clip_id]
    for item, outcome in _render_all(list(todo.values()), folder, backend, lang, None, jobs):
        if isinstance(outcome, Exception):
            raise RuntimeError(f"could not render {item[2].text!r}: {outcome!r}")
        frames, rate, size = outcome
        clips[item[0]] = {"file": item[4], "frames": frames, "rate": rate, "bytes": size, "text": item[2].text}
        if cache is not None:
            cache.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(audio / item[4], cache / item[4])
            known[item[0]] = clips[item[0]]
    if cache is not None and todo:
        (cache / "clips.json").write_text(json.dumps(known))
    entries = {entry: _entry_meta(plan, clips) for entry, plan in plans.items()}
    _write_manifest(folder, lang, backend, voice, entries, clips)
    return {entry: joined([clips[c]["frames"] / clips[c]["rate"] for c in plan.clips], list(plan.pauses))
            for entry, plan in plans.items()}


def join_seconds(parts: list[float]) -> float:
    """How long a joined phrase plays, from its parts' clip lengths: as the table plays it, the parts' clips one
    after another, tightened (`clip.tighten`), PART_GAP_SECONDS apart (`PhraseAudio.find_parts`)."""
    from kikimimi.voice import clip
    from kikimimi.voice.router import PART_GAP_SECONDS

    return clip.join_seconds(parts, PART_GAP_SECONDS)


def simulate(said: list[Said], tap: float, seconds: dict[str, float], keep_current: bool,
             lag_of: dict[int, float] | None = None) -> dict[str, Any]:
    """Each output's queue played out in simulated time: lags per output kind, and what each output said
    (and into `lag_of`, each phrase's lag by its index in `said`)."""
    from kikimimi.games.base import SPEAKER
    from kikimimi.voice.router import FAST_SPEED, LOOKAHEAD_SECONDS, is_behind, not_superseded
    from kikimimi.voice.sinks import GAP_SECONDS

    lags: dict[str, list[float]] = {"speaker": [], "earphones": []}
    answers: dict[tuple[int, float], float] = {}  # (game, tap) -> lag of the first of its speaker phrases heard
    spoken: dict[str, list[int]] = {}  # output -> indexes of `said`, in the order heard
    counts = {"superseded": 0, "short": 0, "faster": 0}
    awaited_seconds: dict[tuple[int, float], float] = {}  # (game, tap) -> how long the awaited phrases play
    by_output: dict[str, list[int]] = {SPEAKER: []}  # the speaker first: when it is heard paces the taps
    for index, item in enumerate(said):
        by_output.setdefault(item.output, []).append(index)
    # From tap N on, the taps come this much later: the players waited to hear a phrase (`Said.waits`) and
    # tapped again a tap's time after it ended. Set while the speaker is played out, used by every output.
    shifts: list[tuple[float, float]] = [(0.0, 0.0)]

    def when(item: Said) -> float:
        return item.at * tap + next(shift for first, shift in reversed(shifts) if item.at >= first)

    for output, indexes in by_output.items():
        free = 0.0  # when the output has finished what it is playing
        waiting: deque[int] = deque()
        arrivals = deque(indexes)
        heard = spoken.setdefault(output, [])
        held: int | None = None  # a phrase the players wait for, not yet played: later taps wait for it
        while arrivals or waiting:
            coming = float("inf") if not arrivals else when(said[arrivals[0]])
            if held is not None and arrivals and said[arrivals[0]].at > said[held].at:
                coming = float("inf")
            # The worker picks the next phrase up once LOOKAHEAD_SECONDS or less is left to play, and decides
            # there whether it is behind (its wait so far, the phrases waiting after it); it starts at `free`.
            if waiting and max(free - LOOKAHEAD_SECONDS, when(said[waiting[0]])) <= coming:
                index = waiting.popleft()
                item = said[index]
                said_at = when(item)
                picked = max(free - LOOKAHEAD_SECONDS, said_at)
                start = max(free, said_at)
                behind = keep_current and is_behind(picked - said_at, len(waiting))
                short = behind and item.short is not None
                speed = FAST_SPEED if behind or (keep_current and item.brisk) else 1.0
                playing = seconds[item.short if short and item.short else item.full] / speed
                free = start + playing + GAP_SECONDS
                if item.waits:
                    awaited_seconds[(item.game, item.at)] = awaited_seconds.get((item.game, item.at), 0.0) + playing
                counts["short"] += short
                counts["faster"] += behind
                lags["speaker" if output == SPEAKER else "earphones"].append(start - said_at)
                if lag_of is not None:
                    lag_of[index] = start - said_at
                if output == SPEAKER:
                    answers.setdefault((item.game, item.at), start - said_at)
                    if item.waits:  # heard at free - GAP_SECONDS: the next tap a tap's time later
                        next_tap = (item.at + 1) * tap + shifts[-1][1]
                        shifts.append((item.at + 1, shifts[-1][1] + max(0.0, free - GAP_SECONDS + tap - next_tap)))
                        held = None if held == index else held
                heard.append(index)
                continue
            index = arrivals.popleft()
            item = said[index]
            if keep_current and output == SPEAKER and item.drops:
                kept = not_superseded(waiting, item.drops, lambda i: said[i].group)
                counts["superseded"] += len(waiting) - len(kept)
                waiting = deque(kept)
                held = held if held in waiting else None
            waiting.append(index)
            if output == SPEAKER and item.waits:
                held = index
    speaker = [item for item in said if item.output == SPEAKER]
    spans: dict[int, tuple[float, float]] = {}
    for item in said:
        first, _last = spans.get(item.game, (item.at, item.at))
        spans[item.game] = (first, item.at)
    play_seconds = sum(last - first + 1 for first, last in spans.values()) * tap
    demand = sum(seconds[item.full] + GAP_SECONDS for item in speaker)
    # Speech the game asks of the speaker per second of play: above 1, no queue keeps up without dropping.
    figures: dict[str, Any] = {"said": len(said), **counts,
                               "speaker_demand": demand / play_seconds if play_seconds else 0.0}
    # What the players wait to hear at a reveal (the phrases themselves, not the gaps between them).
    for kind, values in (*lags.items(), ("speaker_answer", list(answers.values())),
                         ("awaited", list(awaited_seconds.values()))):
        if values:
            a = np.array(values)
            figures[kind] = {"count": len(a), "p50_s": float(np.percentile(a, 50)),
                             "p95_s": float(np.percentile(a, 95)), "max_s": float(a.max())}
    private = {o: h for o, h in spoken.items() if o != SPEAKER}
    figures["private_intact"] = all(h == by_output[o] for o, h in private.items())  # none dropped, none reordered
    return figures


def run(args: argparse.Namespace) -> int:
    import os

    from kikimimi.games.registry import games
    from kikimimi.voice.config import default_backend

    backend = args.backend or default_backend(args.lang)
    game_ids = args.game or [info.id for info in games()]
    paces = args.tap or list(PACES)
    results: dict[str, Any] = {"lang": args.lang, "backend": backend, "games_each": args.games, "paces": paces}
    children_before = children_cpu_seconds()
    with Stopwatch() as clock:
        lines: dict[str, Line] = {}
        joins: dict[str, list[str]] = {}
        plays = {g: play_games(g, args.games, args.seed, args.lang, lines, joins) for g in game_ids}
        seconds = render_durations(args.lang, backend, lines, os.cpu_count() or 1, game_ids)
        for entry, parts in joins.items():
            seconds[entry] = join_seconds([seconds[part] for part in parts])
        for game_id, said in plays.items():
            results[game_id] = {f"{tap:g}": {case: simulate(said, tap, seconds, keep)
                                             for case, keep in (("before", False), ("after", True))}
                                for tap in paces}
    results["rendered"] = len(seconds)
    cpu = clock.cpu + children_cpu_seconds() - children_before
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"output lag, phrase said -> heard ({args.lang}, {backend}: {len(seconds)} distinct clips rendered, "
          f"real lengths; {args.games} bot games per game; simulated time)")
    print(f"  {'game':<11} {'tap':>4}  {'case':<6} {'speaker p50 / p95 / max':>26}  {'earphones p50 / p95 / max':>27}"
          f"  {'answer p95':>10}  {'superseded':>10} {'short':>6} {'faster':>6} {'demand':>6}  private")
    worst = 0.0
    for game_id in game_ids:
        for tap in paces:
            for case in ("before", "after"):
                f = results[game_id][f"{tap:g}"][case]
                cells = []
                for kind in ("speaker", "earphones"):
                    c = f.get(kind)
                    cells.append(f"{c['p50_s']:6.2f} {c['p95_s']:6.2f} {c['max_s']:7.2f} s" if c else "-")
                    if c and case == "after" and tap == paces[0]:
                        worst = max(worst, c["p95_s"])
                answer = f.get("speaker_answer")
                cells.append(f"{answer['p95_s']:8.2f} s" if answer else "-")
                print(f"  {game_id:<11} {tap:>4g}  {case:<6} {cells[0]:>26}  {cells[1]:>27}  {cells[2]:>10}  "
                      f"{f['superseded']:>10} "
                      f"{f['short']:>6} {f['faster']:>6} {f['speaker_demand']:>6.2f}  "
                      f"{'intact' if f['private_intact'] else 'DROPPED/REORDERED'}")
                if (heard := f.get("awaited")) and case == "after":
                    print(f"  {'':<23} the reveal the players wait to hear: p50 {heard['p50_s']:.2f} s,"
                          f" max {heard['max_s']:.2f} s ({heard['count']} reveals)")
    verdict = "meets" if worst <= GOAL_P95 else "misses"
    print(f"  worst p95 after, at {paces[0]:g} s a tap: {worst:.2f} s ({verdict} the goal of {GOAL_P95:g} s); "
          f"demand = seconds of speaker speech (full forms, gaps) the game asks per second of play; "
          f"answer = a tap to the start of the first of its speaker phrases heard")
    print(f"  wall {clock.wall:.1f} s · cpu {cpu:.1f} s (render processes included) · load {clock.load:.2f}")
    return 0
