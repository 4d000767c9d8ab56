"""`kikimimi devices list|watch` (enrollment is bring-up's: kikimimi/app/bringup_cli.py)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.devices.config import PROTOCOLS, ReaderSpec, parse_readers
from kikimimi.devices.events import ReaderHealth

if TYPE_CHECKING:
    from kikimimi.table.live import TableLock


def register(subparsers: Any) -> None:
    devices = subparsers.add_parser("devices", help="list readers, watch taps")
    sub = devices.add_subparsers(dest="devices_command", metavar="ACTION", required=True)

    lister = sub.add_parser("list", help="nfcpy USB readers (bus:device), PC/SC readers (pcscd's names) and "
                                         "serial ports (VID:PID, serial)")
    lister.set_defaults(func=cmd_list)

    watch = sub.add_parser("watch", help="open readers and print one line per tap or removal")
    watch.add_argument("paths", nargs="+", metavar="PATH",
                       help="nfcpy path (usb:054c:06c1, usb:001:004, tty:USB0:pn532, udp:localhost:54321), "
                            "PC/SC reader (pcsc:NAME), serial port (with --protocol) or sim")
    reader_options(watch)
    watch.add_argument("--json", action="store_true", help="one JSON object per line: reader, uid, event, t")
    watch.add_argument("--debounce", type=float, default=0.3, help="seconds (default 0.3)")
    watch.add_argument("--count", type=int, default=0, help="exit after this many taps (default: never)")
    watch.add_argument("--seconds", type=float, default=0.0, help="exit after this long (default: never)")
    watch.add_argument("--config", type=Path, help="the table these readers belong to: refused while it runs "
                       "(default: the default table)")
    watch.set_defaults(func=cmd_watch)

def reader_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--protocol", choices=PROTOCOLS, help="needed for serial ports: rdm6300 or uid-line")
    parser.add_argument("--profile", help="reader profile from devices/profiles (e.g. rcs380, rdm6300)")


def reader_specs(paths: list[str], args: argparse.Namespace) -> list[ReaderSpec]:
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
    from kikimimi.devices.pcsc_reader import pcsc_reader_names

    names, note = pcsc_reader_names()
    print("PC/SC readers (pcscd: Sony RC-S300, ACS ACR122U / ACR1252U), each with the path for a config:")
    for name in names:
        print(f"  pcsc:{name}")
    if not names:
        print("  none found" + (f" ({note})" if note else ""))
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
    lock = None
    try:  # each refusal is a ValueError: a bad reader path, the table holding the readers, a PC/SC name
        specs = reader_specs(args.paths, args)  # matching no reader or several
        lock = _hold_table(args.config)
        return _watch(specs, args)
    except ValueError as exc:
        print(f"kikimimi devices watch: {exc}", file=sys.stderr)
        return 2
    finally:
        if lock is not None:
            lock.release()


def _hold_table(config_path: Path | None) -> TableLock | None:
    """The table's lock (a TableLock, or None when there is no lock to take): readers in use by a running
    table are not opened a second time. ValueError says why not (the table runs, or --config is wrong)."""
    from kikimimi.table.config import TableConfigError, load_config
    from kikimimi.table.live import TableRunning, hold_table, running_message

    try:
        config = load_config(config_path)
    except TableConfigError as exc:
        if config_path is None:
            return None  # no default table to respect
        raise ValueError(str(exc)) from None
    try:
        return hold_table(config.journal, "kikimimi devices watch")
    except TableRunning as running:
        raise ValueError(running_message(running)) from None


def _watch(specs: list[ReaderSpec], args: argparse.Namespace) -> int:
    from kikimimi.devices.hub import Hub

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
