"""The physical readers `--assign` offers: those in the config, those plugged in, and those named.

Each candidate is opened as its own reader in a hub under a neutral name (`reader-1`, ...); a tap on it
binds it to the role asked for. USB readers found by listing are offered with the settings of the
config's nfcpy USB reader, USB serial ports with those of its serial reader (protocol, profile,
options), so a table of four identical readers needs no editing by hand.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.bringup.stable import stable_nfc_path, stable_serial_path
from kikimimi.devices.config import ReaderSpec, infer_protocol, parse_readers
from kikimimi.devices.listing import SerialPort, UsbReader
from kikimimi.devices.usbport import is_port_path, resolve_port
from kikimimi.table.config import TableConfig

SERIAL = ("rdm6300", "uid-line")


@dataclass(frozen=True)
class Candidate:
    name: str  # its role in the assign hub: reader-1, reader-2, ...
    open_path: str  # what to open now
    write_path: str  # what to write into the config (survives a re-plug)
    entry: Mapping[str, Any]  # the other keys of its [readers.ROLE] section: protocol, profile, options
    origin: str  # where it came from, for the listing shown to the user
    notes: tuple[str, ...] = field(default_factory=tuple)

    def spec(self) -> ReaderSpec:
        return parse_readers({self.name: {**self.entry, "path": self.open_path}}, "bringup --assign")[0]

    def section(self) -> dict[str, Any]:
        """The [readers.ROLE] keys this reader gets in the config."""
        return {"path": self.write_path, **self.entry}


def _entry(raw: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in raw.items() if k != "path"}


def _usb_key(path: str) -> str | None:
    """usb:BUS:DEV of a configured nfcpy USB path, when it names one device."""
    if is_port_path(path):
        try:
            return resolve_port(path)
        except OSError:
            return None
    parts = path.split(":")
    if len(parts) == 3 and parts[0] == "usb" and all(p.isdigit() for p in parts[1:]):
        return f"usb:{int(parts[1]):03d}:{int(parts[2]):03d}"
    return None


def discover(
    config: TableConfig,
    extra: Sequence[str] = (),
    protocol: str | None = None,
    usb_readers: Callable[[], tuple[list[UsbReader], str | None]] | None = None,
    serial_ports: Callable[[], list[SerialPort]] | None = None,
    pcsc_readers: Callable[[], tuple[list[str], str | None]] | None = None,
) -> tuple[list[Candidate], list[str]]:
    """Candidates and notes (why something is not offered). Listing functions are injectable for tests."""
    from kikimimi.devices import listing

    usb_readers = usb_readers or listing.nfc_usb_readers
    serial_ports = serial_ports or listing.serial_ports
    raw_readers: Mapping[str, Any] = config.raw.get("readers", {})
    notes: list[str] = []
    found: list[tuple[str, str, dict[str, Any], str]] = []  # open path, dedupe key, entry, origin

    configured = [(s, _entry(raw_readers.get(s.role, {}))) for s in config.readers if s.protocol != "sim"]
    nfc_usb = next((e for s, e in configured if s.protocol == "nfc" and s.path.startswith("usb")), None)
    serial_protocols = {s.protocol for s, _ in configured if s.protocol in SERIAL}
    serial_entry = next((e for s, e in configured if s.protocol in SERIAL), None)
    if protocol in SERIAL:
        serial_entry = {"protocol": protocol}
    elif len(serial_protocols) > 1:
        serial_entry = None
        notes.append(f"the config has serial readers of {sorted(serial_protocols)}: plugged-in serial ports are "
                     "not offered (which protocol would they speak?); name them with --reader and --protocol")

    ports = serial_ports() if (serial_entry is not None or serial_protocols) else []
    usb, usb_note = usb_readers() if nfc_usb is not None else ([], None)
    if usb_note:
        notes.append(usb_note)
    pcsc = next((e for s, e in configured if s.protocol == "pcsc"), None)
    if protocol == "pcsc":
        pcsc = pcsc or {}
    pcsc_names, pcsc_note = (pcsc_readers or _pcsc_names)() if pcsc is not None else ([], None)
    if pcsc_note:
        notes.append(f"PC/SC readers cannot be listed: {pcsc_note}")

    for spec, entry in configured:
        if spec.protocol == "nfc" and spec.path.startswith("usb") and _usb_key(spec.path) is None and usb:
            continue  # usb:054c:06c1 opens "the first RC-S380": the ones listed below are the real candidates
        if spec.protocol == "pcsc":
            key = _pcsc_key(spec.path, pcsc_names)
        else:
            key = (_usb_key(spec.path) or spec.path) if spec.protocol == "nfc" else os.path.realpath(spec.path)
        found.append((spec.path, key, entry, f"config [readers.{spec.role}]"))
    if nfc_usb is not None:
        for reader in usb:
            found.append((reader.path, reader.path, dict(nfc_usb), f"plugged in: {reader.name} at {reader.path}"))
    if pcsc is not None:
        for name in pcsc_names:
            if "SAM" not in name.split():  # a chip-card slot beside the contactless one (ACR1252U)
                found.append((f"pcsc:{name}", f"pcsc:{name}", dict(pcsc), f"plugged in: PC/SC reader {name}"))
    if serial_entry is not None:
        for port in ports:
            if port.vid_pid is not None:  # USB adapters only: not the board's own UART or Bluetooth
                found.append((port.device, os.path.realpath(port.device), dict(serial_entry),
                              f"plugged in: {port.description or port.device} ({port.vid_pid})"))
    for path in extra:
        inferred = infer_protocol(path)
        if inferred == "sim":
            notes.append("--reader sim: a simulated reader cannot be tapped here; left out")
            continue
        if inferred == "pcsc":
            entry, key = {}, _pcsc_key(path, pcsc_names)
        elif inferred == "nfc":
            entry = dict(nfc_usb or {}) if path.startswith("usb") else {}
            key = _usb_key(path) or path
        elif serial_entry is not None:
            entry, key = dict(serial_entry), os.path.realpath(path)
        else:
            notes.append(f"--reader {path}: a serial port needs --protocol rdm6300 or uid-line; left out")
            continue
        found.append((path, key, entry, "named with --reader"))

    candidates: list[Candidate] = []
    seen: dict[str, int] = {}
    for open_path, key, entry, origin in found:
        if key in seen:
            continue  # the same device reached twice (config and listing): the first keeps its settings
        seen[key] = len(candidates)
        kind = entry.get("protocol") or infer_protocol(open_path)
        if kind == "pcsc":
            write, note = open_path, pcsc_name_note(open_path)
        elif kind == "nfc":
            listed = next((r.port for r in usb if r.path == _usb_key(open_path) and r.port), None)
            write, note = (listed, None) if listed else stable_nfc_path(open_path)
        else:
            write, note = stable_serial_path(open_path, ports)
        candidates.append(Candidate(f"reader-{len(candidates) + 1}", open_path, write, entry, origin,
                                    (note,) if note else ()))
    return candidates, notes


def _pcsc_names() -> tuple[list[str], str | None]:
    from kikimimi.devices.pcsc_reader import pcsc_reader_names

    return pcsc_reader_names()


def _pcsc_key(path: str, names: Sequence[str]) -> str:
    """pcsc:FULL-NAME of a configured PC/SC path (it may name a part), so that it is offered once."""
    from kikimimi.devices.pcsc_reader import match_reader, reader_pattern

    try:
        return f"pcsc:{match_reader(reader_pattern(path), names, path)}"
    except LookupError:
        return path


_SERIAL_IN_NAME = re.compile(r"\(([0-9A-Za-z]{4,})\)")


def pcsc_name_note(path: str) -> str | None:
    """Why a PC/SC reader's name may not survive a re-plug: pcscd numbers readers without a serial number
    in the order it finds them. None when the name carries the reader's serial number."""
    if _SERIAL_IN_NAME.search(path):
        return None
    return ("this reader reports no serial number: pcscd numbers identical ones in the order it finds them "
            "(the NN NN at the end), so keep each in its own USB port and repeat --assign after re-plugging "
            "them in another order")
