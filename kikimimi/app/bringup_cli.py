"""`kikimimi bringup`: prove that every reader and output of a table works.

    kikimimi bringup [--config FILE]              live table of readers and outputs; each tap is printed
                                                  with its UID and spoken on that reader's own output
    kikimimi bringup --audio-test                 each output in turn: "this is the speaker", "... seat N"
    kikimimi bringup --audio-test --repeat        ... each again and again until Enter (q: stop)
    kikimimi bringup --channel-probe DEVICE       beeps on each channel of a sound card in turn, channel K
                                                  K beeps, to find which jack is which (7.1 card: 8)
    kikimimi bringup --assign                     bind physical readers to roles by a tap on each and
                                                  write paths that survive a re-plug into the config
    kikimimi bringup --latency                    the live table with tap-to-speech per reader
    kikimimi bringup --check                      the acceptance check: every reader answers, every tag
                                                  of the deck read on its reader (counted, timed), every
                                                  output speaks; a pass/fail report, printed and saved
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

from kikimimi.app.devices_cli import reader_options, reader_specs
from kikimimi.devices.config import PROTOCOLS, ReaderConfigError
from kikimimi.devices.events import ReaderHealth

if TYPE_CHECKING:
    from rich.console import Group

    from kikimimi.bringup.audiotest import OutputCheck
    from kikimimi.bringup.check import Step
    from kikimimi.bringup.session import Bringup
    from kikimimi.table.config import TableConfig


def register(subparsers: Any) -> None:
    register_enroll(subparsers)
    p = subparsers.add_parser("bringup", help="test every reader and output of a table; bind readers to roles",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", type=Path, help="table configuration (default: the simulated table)")
    mode = p.add_argument_group("modes (default: the live table)")
    mode.add_argument("--audio-test", action="store_true", help="say which output it is on each output in turn")
    mode.add_argument("--channel-probe", metavar="DEVICE",
                      help="K beeps on channel K of this device, one channel after the other (which jack is "
                           "which); DEVICE as in [outputs] device, or its number in `kikimimi voices list-outputs`")
    mode.add_argument("--assign", action="store_true",
                      help="bind readers to roles by a tap on each and rewrite the config's reader paths")
    mode.add_argument("--latency", action="store_true",
                      help="measure tap to first audio frame per reader (simulated readers are tapped for you)")
    mode.add_argument("--check", action="store_true",
                      help="the hardware acceptance check: readers, a walk through the deck, outputs; "
                           "prints a pass/fail report and writes it to --report")
    p.add_argument("--repeat", action="store_true",
                   help="--audio-test and --channel-probe: repeat each until Enter is pressed (q: stop)")
    p.add_argument("--channels", type=int, default=0,
                   help="--channel-probe: probe channels 1..N (default: the device's, at most 8)")
    p.add_argument("--seconds", type=float, default=0.0, help="stop after this long (default: Ctrl-C)")
    p.add_argument("--taps", type=int, default=0, help="stop after this many taps (default: Ctrl-C)")
    p.add_argument("--rounds", type=int, default=20,
                   help="--latency on simulated readers: taps per reader (default 20)")
    p.add_argument("--plain", action="store_true",
                   help="one line per tap instead of the live table (the default when not on a terminal)")
    p.add_argument("--json", action="store_true", help="one JSON object per tap and a JSON summary at the end")
    p.add_argument("--transcript", action="store_true", help="no sound: every output is text only")
    check = p.add_argument_group("--check")
    check.add_argument("--walk", type=int, default=None, metavar="N",
                       help="walk only the deck's first N tags (default: every tag)")
    check.add_argument("--tag-timeout", type=float, default=20.0,
                       help="seconds to wait for each tag of the walk (default 20)")
    check.add_argument("--ready-timeout", type=float, default=10.0,
                       help="seconds for every reader to open (default 10)")
    check.add_argument("--report", type=Path,
                       help="write the report here (default: bringup-check-DATE-TIME.txt in the data folder)")
    assign = p.add_argument_group("--assign")
    assign.add_argument("--reader", action="append", default=[], metavar="PATH",
                        help="also offer this reader (repeatable), e.g. /dev/ttyUSB3 or usb:001:007")
    assign.add_argument("--protocol", choices=[x for x in PROTOCOLS if x != "sim"],
                        help="protocol of the --reader serial ports (default: the config's serial readers')")
    assign.add_argument("--role", action="append", default=[], metavar="ROLE",
                        help="bind only this role (repeatable; default: every reader of the config)")
    assign.add_argument("--output", type=Path, help="write the bound config here (default: over --config)")
    p.set_defaults(func=cmd_bringup)


def _load(args: argparse.Namespace, err: Console) -> TableConfig | None:
    from kikimimi.table.config import TableConfigError, load_config

    try:
        return load_config(args.config)
    except TableConfigError as exc:
        err.print(f"[red]kikimimi bringup: {escape(str(exc))}[/red]", highlight=False)
        return None


def cmd_bringup(args: argparse.Namespace) -> int:
    from kikimimi.table.live import TableRunning, hold_table, running_message
    from kikimimi.table.run import setup_logging

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    setup_logging(err, quiet=True)  # warnings (a missing sound card) look as they do in `play`
    config = _load(args, err)
    if config is None:
        return 2
    try:
        # while bring-up runs, the readers and sound cards are its own: no table starts under it
        lock = hold_table(config.journal, "kikimimi bringup")
    except TableRunning as running:
        print(f"kikimimi bringup: {running_message(running)}", file=sys.stderr)  # one line, never wrapped
        return 2
    try:
        return _bringup(config, args, err)
    finally:
        if lock is not None:
            lock.release()


def _bringup(config: TableConfig, args: argparse.Namespace, err: Console) -> int:
    if args.channel_probe is not None:
        from kikimimi.bringup.probe import run_probe

        return run_probe(args, config.voice.latency, err)
    if args.assign:
        from kikimimi.bringup.assign_cli import run_assign

        return run_assign(config, args, err)
    from kikimimi.bringup.session import Bringup

    try:
        session = Bringup.open(config, transcript_only=args.transcript)
    except ValueError as exc:  # a PC/SC name that matches no reader, or several
        print(f"kikimimi bringup: {exc}", file=sys.stderr)  # one line, never wrapped
        return 2
    try:
        if args.check:
            return _check(session, args)
        if args.audio_test or args.repeat:
            return _audio_test(session, args, err)
        return _live(session, args, err)
    except KeyboardInterrupt:
        return 130
    finally:
        session.close()


def _check(session: Bringup, args: argparse.Namespace) -> int:
    from kikimimi.bringup.check import default_report_path, run_check
    from kikimimi.paths import data_home

    def prompt(step: Step) -> None:
        if not args.json:
            print(f"check: tap {step.tag} on {step.role}", flush=True)

    report = run_check(session, walk=args.walk, ready_timeout=args.ready_timeout, tag_timeout=args.tag_timeout,
                       prompt=prompt)
    path = args.report or default_report_path(data_home())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report.json() + "\n" if args.json else report.text())
    print(report.json() if args.json else report.text(), end="\n" if args.json else "", flush=True)
    print(f"report written to {path}", file=sys.stderr)
    return 0 if report.passed else 1


def _audio_test(session: Bringup, args: argparse.Namespace, err: Console) -> int:
    from kikimimi.bringup.audiotest import audio_test, audio_test_repeat, stdin_lines

    out = Console(highlight=False, soft_wrap=True)

    def report(check: OutputCheck) -> None:
        if args.json:
            record: dict[str, str | int] = {"output": check.output, "said": check.text, "status": check.status,
                                            "detail": check.detail}
            if args.repeat:
                record["times"] = check.times
            print(json.dumps(record, ensure_ascii=False), flush=True)
        else:
            style = "green" if check.status == "ok" else "yellow"
            times = f" ×{check.times}" if args.repeat else ""
            out.print(f"{check.output:8} [{style}]{check.status}[/{style}]  said{times}: {escape(check.text)}   "
                      f"({escape(check.detail)})")

    def prompt(name: str, text: str) -> None:
        err.print(f"{name}: saying \"{escape(text)}\" until you press Enter (q and Enter: stop)")

    if args.repeat:
        checks, stopped = audio_test_repeat(session.voice, stdin_lines(), report, prompt)
        if stopped and len(checks) < len(session.voice.outputs) and not args.json:
            err.print(f"stopped after {len(checks)} of {len(session.voice.outputs)} outputs")
    else:
        checks = audio_test(session.voice, report)
    bad = [c.output for c in checks if c.status != "ok"]
    if bad and not args.json:
        err.print(f"[yellow]not sounding on a device: {', '.join(bad)} (see the detail; audio guide: "
                  f"hardware_docs/audio.md)[/yellow]")
    return 1 if bad else 0


def _live(session: Bringup, args: argparse.Namespace, err: Console) -> int:
    from kikimimi.bringup.simtaps import feed_stdin

    sims = [s.role for s in session.config.readers if s.protocol == "sim"]
    auto = args.latency and bool(sims)
    if sims and not auto:
        feed_stdin(session.hub, session.config.deck, sims, lambda msg: err.print(f"[yellow]{msg}[/yellow]"))
        example = min(session.config.deck.tags.values(), default="PIECE")
        err.print(f"simulated readers ({', '.join(sims)}): no hand taps them. Type ROLE TAG and Enter to tap one "
                  f"(e.g. `{sims[-1]} {example}`), `--latency` to have them tapped for you, or `--config` with a "
                  "real table's readers", markup=False)
    live = not (args.plain or args.json) and sys.stdout.isatty()
    if auto:
        _auto_taps(session, sims, args, err)
    elif live:
        _watch_live(session, args)
    else:
        _watch_plain(session, args, err)
    return _summary(session, args)


def _stop_at(args: argparse.Namespace) -> float | None:
    return time.monotonic() + args.seconds if args.seconds else None


def _done(session: Bringup, args: argparse.Namespace, end: float | None) -> bool:
    if end is not None and time.monotonic() >= end:
        return True
    return bool(args.taps) and len(session.heard) >= args.taps


def _watch_live(session: Bringup, args: argparse.Namespace) -> None:
    from rich.live import Live

    from kikimimi.bringup.view import render

    def view() -> Group:
        return render(session.rows(), session.outputs(), session.heard, session.text_of, args.latency)

    end = _stop_at(args)
    with Live(view(), refresh_per_second=8, transient=False) as live:
        while not _done(session, args, end):
            session.poll(timeout=0.1)
            live.update(view())


def _watch_plain(session: Bringup, args: argparse.Namespace, err: Console) -> None:
    end = _stop_at(args)
    seen_health = 0
    if not args.json:
        print("bring-up: tap a tag on any reader (Ctrl-C to stop)", flush=True)
    while not _done(session, args, end):
        heard = session.poll(timeout=0.1)
        changes = list(session.health_changes)
        for role, h in changes[seen_health:]:
            err.print(f"reader {role} ({h.path}): {h.status}: {h.detail}")
        seen_health = len(changes)
        if heard is None:
            continue
        if args.json:
            print(json.dumps({"reader": heard.role, "uid": heard.uid, "tag": heard.tag_id,
                              "output": heard.say.to if heard.say else None,
                              "said": session.text_of(heard)}, ensure_ascii=False), flush=True)
        else:
            where = heard.say.to if heard.say else "(no output for this role)"
            print(f"{heard.role:8} {heard.uid:16} {heard.tag_id or 'not in deck':22} -> {where}: "
                  f"{session.text_of(heard)}", flush=True)


def _auto_taps(session: Bringup, roles: list[str], args: argparse.Namespace, err: Console) -> None:
    """--latency on simulated readers: tap each one `rounds` times, one answer at a time."""
    from kikimimi.bringup.simtaps import sample_uids

    uids = sample_uids(session.config.deck)
    if not args.json:
        err.print(f"simulated readers: {args.rounds} taps on each of {', '.join(roles)}")
    for n in range(args.rounds):
        for role in roles:
            session.hub.simulated(role).tap_and_remove(uids[n % len(uids)])
            deadline = time.monotonic() + 5
            while session.poll(timeout=0.5) is None and time.monotonic() < deadline:
                pass
            session.voice.wait_idle(timeout=10)


def _summary(session: Bringup, args: argparse.Namespace) -> int:
    from kikimimi.bringup.view import outputs_table, reader_notes, readers_table

    session.voice.wait_idle(timeout=5)
    latency = {role: r.summary() for role, r in sorted(session.meter.finish().items())}
    rows = session.rows()
    ok = session.all_ok()
    if args.json:
        print(json.dumps({
            "readers": {r.role: {"path": r.path, "status": r.status, "detail": r.detail, "taps": r.taps,
                                 "errors": r.errors, "last_uid": r.last_uid} for r in rows},
            "outputs": {n: {"status": h.status, "detail": h.detail, "underruns": h.underruns}
                        for n, h in session.outputs().items()},
            "latency": latency if args.latency else None,
            "all_ok": ok,
        }, ensure_ascii=False), flush=True)
        return 0 if ok else 1
    out = Console(highlight=False, soft_wrap=True)
    if not sys.stdout.isatty() or args.plain:
        out.print(readers_table(rows, args.latency))
        out.print(reader_notes(rows), end="")
        out.print(outputs_table(session.outputs()))
    if args.latency:
        out.print("tap to first audio frame, per reader:")
        for role, s in latency.items():
            if s["measured"]:
                out.print(f"  {role:8} p50 {s['p50_ms']} ms  p99 {s['p99_ms']} ms  max {s['max_ms']} ms  "
                          f"({s['measured']} of {s['taps']} taps; tap to say {s['dispatch_p50_ms']} ms)")
            else:
                out.print(f"  {role:8} no audio frame for its {s['taps']} taps (the output is text only or "
                          "fell back: see outputs)")
    if not ok:
        out.print("[yellow]not everything is ok: see the status and detail columns[/yellow]")
    return 0 if ok else 1


def register_enroll(subparsers: Any) -> None:
    enroll = subparsers.add_parser("enroll", help="tap every piece and control tag in turn to write a deck")
    enroll.add_argument("--deck", required=True, help="deck file to write (resumed if it exists)")
    enroll.add_argument("--reader", required=True, metavar="PATH",
                        help="the reader to tap on; `sim` reads UIDs typed on stdin")
    reader_options(enroll)
    enroll.add_argument("--game", default=None, help="the game whose pieces to enroll (default: the table's "
                        "default game; `kikimimi games` lists them)")
    enroll.add_argument("--control-sets", type=int, default=None,
                        help="sets of control tags (default: one per seat of the game's largest table)")
    enroll.set_defaults(func=cmd_enroll)



def cmd_enroll(args: argparse.Namespace) -> int:
    from kikimimi.bringup.enroll import Enrollment, run
    from kikimimi.devices.deck import DeckError
    from kikimimi.devices.hub import Hub

    try:
        from kikimimi.games.registry import DEFAULT_GAME, get_info

        enrollment = Enrollment(args.deck, get_info(args.game or DEFAULT_GAME), args.control_sets)
        specs = reader_specs([args.reader], args)
    except (DeckError, ReaderConfigError, KeyError, ValueError) as exc:
        print(f"kikimimi enroll: {exc}", file=sys.stderr)
        return 2

    def say(text: str) -> None:
        print(text, flush=True)

    if specs[0].protocol == "sim":
        def typed() -> str | None:
            line = sys.stdin.readline()
            return line.strip() or None if line else None
        return 0 if run(enrollment, typed, say) else 1

    def on_health(role: str, h: ReaderHealth) -> None:
        if h.status != "ok":
            say(f"reader {h.path}: {h.status}: {h.detail}")

    with Hub(specs, on_health=on_health) as hub:
        def next_tap() -> str | None:
            while True:
                event = hub.get(timeout=0.5)
                if event is not None and event.kind == "tap":
                    return event.uid
        try:
            return 0 if run(enrollment, next_tap, say) else 1
        except KeyboardInterrupt:
            left = len(enrollment.remaining())
            say(f"\nstopped; {left} tags left in {enrollment.path}; run the same command to resume")
            return 130
