"""`kikimimi devices list|watch` and `kikimimi enroll`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from kikimimi.devices.config import PROTOCOLS, ConfigError, ReaderSpec, parse_readers
from kikimimi.devices.events import ReaderHealth


def register(subparsers: Any) -> None:
    devices = subparsers.add_parser("devices", help="list readers, watch taps")
    sub = devices.add_subparsers(dest="devices_command", metavar="ACTION", required=True)

    lister = sub.add_parser("list", help="nfcpy USB readers (bus:device) and serial ports (VID:PID, serial)")
    lister.set_defaults(func=cmd_list)

    watch = sub.add_parser("watch", help="open readers and print one line per tap or removal")
    watch.add_argument("paths", nargs="+", metavar="PATH",
                       help="nfcpy path (usb:054c:06c1, usb:001:004, tty:USB0:pn532, udp:localhost:54321), "
                            "serial port (with --protocol) or sim")
    _reader_options(watch)
    watch.add_argument("--json", action="store_true", help="one JSON object per line: reader, uid, event, t")
    watch.add_argument("--debounce", type=float, default=0.3, help="seconds (default 0.3)")
    watch.add_argument("--count", type=int, default=0, help="exit after this many taps (default: never)")
    watch.add_argument("--seconds", type=float, default=0.0, help="exit after this long (default: never)")
    watch.set_defaults(func=cmd_watch)

    enroll = subparsers.add_parser("enroll", help="tap every piece and control tag in turn to write a deck")
    enroll.add_argument("--deck", required=True, help="deck file to write (resumed if it exists)")
    enroll.add_argument("--reader", required=True, metavar="PATH",
                        help="the reader to tap on; `sim` reads UIDs typed on stdin")
    _reader_options(enroll)
    enroll.add_argument("--game", default=None, help="the game whose pieces to enroll (default: the table's "
                        "default game; `kikimimi games` lists them)")
    enroll.add_argument("--control-sets", type=int, default=None,
                        help="sets of control tags (default: one per seat of the game's largest table)")
    enroll.set_defaults(func=cmd_enroll)

    simtables = sub.add_parser("simtables", help="the simulated tables and their decks, one per game "
                               "(devices/tables/<game>-sim.toml, devices/decks/<game>-sim.toml)")
    simtables.add_argument("--game", help="one game (default: every registered game)")
    simtables.add_argument("--write", action="store_true", help="write the shipped files instead of printing")
    simtables.set_defaults(func=cmd_simtables)


def cmd_simtables(args: argparse.Namespace) -> int:
    from kikimimi.devices.simdeck import sim_deck_path, sim_deck_text
    from kikimimi.games.registry import UnknownGame, games, get_info
    from kikimimi.paths import data_dir
    from kikimimi.table.simconfig import sim_table_path, sim_table_text

    try:
        chosen = [get_info(args.game)] if args.game else games()
    except UnknownGame as exc:
        print(f"kikimimi devices simtables: {exc}", file=sys.stderr)
        return 2
    for info in chosen:
        files = [(sim_deck_path(info, data_dir("devices") / "decks"), sim_deck_text(info)),
                 (sim_table_path(info, data_dir("devices") / "tables"), sim_table_text(info))]
        for path, text in files:
            if args.write:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
            else:
                sys.stdout.write(f"# --- {path.name}\n{text}")
    return 0


def _reader_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--protocol", choices=PROTOCOLS, help="needed for serial ports: rdm6300 or uid-line")
    parser.add_argument("--profile", help="reader profile from devices/profiles (e.g. rcs380, rdm6300)")


def _specs(paths: list[str], args: argparse.Namespace) -> list[ReaderSpec]:
    table: dict[str, dict[str, Any]] = {}
    for i, path in enumerate(paths, 1):
        entry: dict[str, Any] = {"path": path}
        if args.protocol and path != "sim":
            entry["protocol"] = args.protocol
        if args.profile:
            entry["profile"] = args.profile
        table[f"r{i}"] = entry
    return parse_readers(table, "command line")


def cmd_list(args: argparse.Namespace) -> int:
    from kikimimi.devices.listing import nfc_usb_readers, serial_ports

    readers, note = nfc_usb_readers()
    print("nfcpy USB readers:")
    for r in readers:
        print(f"  {r.path}  {r.vid_pid}  {r.name}  (driver {r.driver})")
        if r.port:
            print(f"      stable path: {r.port}")
    if not readers:
        print("  none found" + (f" ({note})" if note else "; an RC-S380 shows as usb:054c:06c1"))
    ports = serial_ports()
    print("serial ports (RDM6300, PN532 over UART as tty:NAME:pn532, Arduino bridge):")
    for p in ports:
        print(f"  {p.device}  {p.vid_pid or '-'}  serial {p.serial_number or '-'}  at {p.location or '-'}  "
              f"{p.description}")
        if p.by_id:
            print(f"      stable path: {p.by_id}")
    if not ports:
        print("  none found")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from kikimimi.devices.hub import Hub

    try:
        specs = _specs(args.paths, args)
    except ConfigError as exc:
        print(f"kikimimi devices watch: {exc}", file=sys.stderr)
        return 2
    path_of = {s.role: s.path for s in specs}

    def on_health(role: str, h: ReaderHealth) -> None:
        print(f"[{path_of[role]}] {h.status}: {h.detail}", file=sys.stderr, flush=True)

    taps = 0
    end = time.monotonic() + args.seconds if args.seconds else None
    with Hub(specs, debounce=args.debounce, on_health=on_health) as hub:
        try:
            while end is None or time.monotonic() < end:
                wait = 0.2 if end is None else max(0.0, min(0.2, end - time.monotonic()))
                event = hub.get(timeout=wait)
                if event is None:
                    continue
                if args.json:
                    print(json.dumps({"reader": path_of[event.reader], "uid": event.uid, "event": event.kind,
                                      "t": round(event.t, 6)}), flush=True)
                else:
                    print(f"{event.t:12.3f}  {path_of[event.reader]}  {event.kind:7}  {event.uid}", flush=True)
                taps += event.kind == "tap"
                if args.count and taps >= args.count:
                    break
        except KeyboardInterrupt:
            pass
    return 0


def cmd_enroll(args: argparse.Namespace) -> int:
    from kikimimi.bringup.enroll import Enrollment, run
    from kikimimi.devices.deck import DeckError
    from kikimimi.devices.hub import Hub

    try:
        from kikimimi.games.registry import DEFAULT_GAME, get_info

        enrollment = Enrollment(args.deck, get_info(args.game or DEFAULT_GAME), args.control_sets)
        specs = _specs([args.reader], args)
    except (DeckError, ConfigError) as exc:
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
