"""Reader configuration: the `[readers]` section of a table's TOML config, and reader profiles.

    [readers.field]
    path = "usb:054c:06c1"           # nfcpy: usb:VID:PID, usb:BUS:DEV, tty:USB0:pn532, udp:HOST:PORT,
                                     # or usb-port:1-1.2 (the USB port; survives a re-plug, see usbport.py)
    profile = "rcs380"               # options from devices/profiles/rcs380.toml ...
    targets = ["212F"]               # ... overridable inline
    [readers."hand:1"]
    path = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
    protocol = "rdm6300"
    removal_silence = 0.3
    [readers."hand:2"]
    path = "sim"                     # simulated, fed in-process

    [readers."hand:3"]
    path = "pcsc:RC-S300 (0123456)"  # PC/SC through pcscd: pcscd's reader name, or a part matching one

The protocol is `nfc` for nfcpy paths, `pcsc` for pcsc:NAME and `sim` for `sim`; a serial port needs `protocol` (or a
profile that sets it): `rdm6300` or `uid-line`.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from kikimimi.paths import data_dir

if TYPE_CHECKING:
    from kikimimi.devices.driver import Driver

NFC_TARGETS = ("106A", "106B", "212F", "424F")


class ReaderConfigError(ValueError):
    """A reader configuration that cannot be used; the message names the file, the role and the key."""


@dataclass(frozen=True)
class ReaderSpec:
    role: str
    path: str
    protocol: str
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class _Option:
    kind: type
    default: Any
    help: str


@dataclass(frozen=True)
class ReaderProtocol:
    """One kind of reader: its driver, the options it takes and the paths it reads.

    The driver is named ("module:Class") and imported on first use, so nfcpy or pyscard loads only for a
    table that has such a reader."""

    driver: str
    options: Mapping[str, _Option]
    path_ok: Callable[[str], bool]
    path_error: str  # after "key `path`: "; formatted with the path and the protocol's name
    claims: Callable[[str], bool] | None = None  # the paths that name this protocol by themselves
    check: Callable[[Mapping[str, Any]], str | None] = lambda options: None  # the options together

    def driver_class(self) -> type[Driver]:
        module, name = self.driver.split(":")
        cls: type[Driver] = getattr(importlib.import_module(module), name)
        return cls


_NFC_PATH = re.compile(r"^(usb(:[0-9a-fA-F]{1,4}){0,2}|usb-port:[0-9]+-[0-9]+(\.[0-9]+)*"
                       r"|(tty|com):[^:]+:[a-z0-9_]+|udp(:[^:]*)?(:[0-9]+)?)$")


def _nfc_targets(options: Mapping[str, Any]) -> str | None:
    bad = [t for t in options["targets"] if t not in NFC_TARGETS]
    if bad or not options["targets"]:
        return f"key `targets`: {bad or 'empty'} — use a non-empty list of {list(NFC_TARGETS)}"
    return None


def _serial_port(path: str) -> bool:
    return infer_protocol(path) is None


_SERIAL_PATH_ERROR = "protocol {protocol!r} reads a serial port such as /dev/ttyUSB0, not {path!r}"

# Every reader protocol, by the name a config's `protocol` gives. Options: with defaults; `warning` and
# `description` (from profiles) are common to all.
READER_PROTOCOLS: Mapping[str, ReaderProtocol] = MappingProxyType({
    "nfc": ReaderProtocol(
        driver="kikimimi.devices.nfc_reader:NfcDriver",
        options={
            "targets": _Option(list, ["106A", "106B", "212F"], f"tag types to poll, any of {list(NFC_TARGETS)}"),
            "presence_interval": _Option(float, 0.1, "seconds between presence checks of a held tag"),
            "sense_timeout": _Option(float, 0.02, "udp: seconds to wait for a tag's answer per poll"),
        },
        path_ok=lambda path: bool(_NFC_PATH.match(path)),
        path_error="{path!r} is not an nfcpy device path; use usb:VID:PID, usb:BUS:DEV, usb-port:BUS-PORT "
                   "(e.g. usb-port:1-1.2), tty:PORT:DRIVER (e.g. tty:USB0:pn532) or udp:HOST:PORT",
        claims=lambda path: path.split(":", 1)[0] in ("usb", "usb-port", "tty", "com", "udp"),
        check=_nfc_targets,
    ),
    "pcsc": ReaderProtocol(
        driver="kikimimi.devices.pcsc_reader:PcscDriver",
        options={},
        path_ok=lambda path: path.startswith("pcsc:") and bool(path[5:].strip()),
        path_error="a PC/SC reader's path is pcsc:NAME (NAME: pcscd's reader name or a part matching one "
                   "reader, see `kikimimi devices list`), not {path!r}",
        claims=lambda path: path.startswith("pcsc:"),
    ),
    "rdm6300": ReaderProtocol(
        driver="kikimimi.devices.serial_reader:Rdm6300Driver",
        options={
            "baudrate": _Option(int, 9600, "serial speed (RDM6300: 9600)"),
            "removal_silence": _Option(float, 0.3, "seconds without a frame after which the tag is removed"),
        },
        path_ok=_serial_port,
        path_error=_SERIAL_PATH_ERROR,
    ),
    "uid-line": ReaderProtocol(
        driver="kikimimi.devices.serial_reader:UidLineDriver",
        options={
            "baudrate": _Option(int, 115200, "serial speed of the bridge sketch"),
            "removal_silence": _Option(float, 0.0, "seconds without a line after which the tag is removed "
                                                   "(0: only REMOVED lines)"),
        },
        path_ok=_serial_port,
        path_error=_SERIAL_PATH_ERROR,
    ),
    "sim": ReaderProtocol(
        driver="kikimimi.devices.simulated:SimDriver",
        options={},
        path_ok=lambda path: path == "sim",
        path_error="a simulated reader has path = \"sim\", not {path!r}",
        claims=lambda path: path == "sim",
    ),
})
PROTOCOLS = tuple(READER_PROTOCOLS)
_COMMON = {
    "warning": _Option(str, "", "shown in the reader's health (from a profile)"),
    "description": _Option(str, "", "what this reader is (from a profile)"),
}
_ROLE = re.compile(r"^[a-z][a-z0-9_-]*(:[0-9]+)?$")


def default_options(protocol: str) -> dict[str, Any]:
    return {name: opt.default for name, opt in READER_PROTOCOLS[protocol].options.items()}


def infer_protocol(path: str) -> str | None:
    """The protocol a path names by itself (nfcpy device paths, pcsc:NAME, `sim`); None for a serial port
    (protocol needed)."""
    for name, protocol in READER_PROTOCOLS.items():
        if protocol.claims is not None and protocol.claims(path):
            return name
    return None


def profile_names() -> list[str]:
    return sorted(p.stem for p in (data_dir("devices") / "profiles").glob("*.toml"))


def load_profile(name: str) -> dict[str, Any]:
    """A reader profile from devices/profiles/NAME.toml: `protocol`, `description`, `warning`, [options]."""
    path = data_dir("devices") / "profiles" / f"{name}.toml"
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ReaderConfigError(f"no reader profile {name!r}; choose one of {profile_names()}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ReaderConfigError(f"{path}: not valid TOML: {exc}") from exc
    return data


def parse_readers(table: Mapping[str, Any], source: str) -> list[ReaderSpec]:
    """Reader specs from the parsed `[readers]` section; `source` (a file name) is named in errors."""
    if not isinstance(table, Mapping):
        raise ReaderConfigError(f"{source}: [readers] must be a table of [readers.ROLE] sections")
    specs: list[ReaderSpec] = []
    paths: dict[str, str] = {}
    for role, entry in table.items():
        where = f"{source}: [readers.{_quote(role)}]"
        if not isinstance(entry, Mapping):
            raise ReaderConfigError(f"{where}: expected a table with at least `path = \"...\"`, got {entry!r}; "
                              f"write it as [readers.{_quote(role)}] followed by path = \"...\"")
        if not _ROLE.match(role):
            raise ReaderConfigError(f"{where}: {role!r} is not a reader role; use `field`, `hand:1`, `hand:2`... "
                              "(lower case, an optional :N seat number)")
        spec = _parse_one(role, entry, where)
        if spec.path != "sim":
            if spec.path in paths:
                raise ReaderConfigError(f"{where}: path {spec.path!r} is already the reader of role "
                                  f"{paths[spec.path]!r}; each physical reader serves one role")
            paths[spec.path] = role
        specs.append(spec)
    return specs


def _quote(role: str) -> str:
    return role if re.match(r"^[A-Za-z0-9_-]+$", role) else f'"{role}"'


def _parse_one(role: str, entry: Mapping[str, Any], where: str) -> ReaderSpec:
    path = entry.get("path")
    if not isinstance(path, str) or not path:
        raise ReaderConfigError(f"{where}: key `path` is missing or empty; set e.g. path = \"usb:054c:06c1\" "
                          "(nfcpy), path = \"/dev/serial/by-id/...\" (serial) or path = \"sim\"")
    profile: dict[str, Any] = {}
    if "profile" in entry:
        if not isinstance(entry["profile"], str):
            raise ReaderConfigError(f"{where}: key `profile` must be a name such as \"rcs380\"")
        try:
            profile = load_profile(entry["profile"])
        except ReaderConfigError as exc:
            raise ReaderConfigError(f"{where}: key `profile`: {exc}") from None
    protocol = entry.get("protocol", profile.get("protocol") or infer_protocol(path))
    if protocol is None:
        raise ReaderConfigError(f"{where}: path {path!r} is a serial port, so key `protocol` is needed: "
                          "protocol = \"rdm6300\" (125 kHz module) or \"uid-line\" (Arduino bridge), "
                          "or a profile such as profile = \"rdm6300\"")
    if protocol not in PROTOCOLS:
        raise ReaderConfigError(f"{where}: key `protocol`: unknown protocol {protocol!r}; "
                          f"choose one of {list(PROTOCOLS)}")
    kind = READER_PROTOCOLS[protocol]
    if not kind.path_ok(path):
        raise ReaderConfigError(f"{where}: key `path`: " + kind.path_error.format(path=path, protocol=protocol))

    schema = {**kind.options, **_COMMON}
    options: dict[str, Any] = default_options(protocol)
    from_profile = {**profile.get("options", {}), **{k: profile[k] for k in _COMMON if k in profile}}
    inline = {k: v for k, v in entry.items() if k not in ("path", "protocol", "profile")}
    for origin, values in ((f"profile {entry.get('profile')}", from_profile), ("", inline)):
        for key, value in values.items():
            label = f"{where}: key `{key}`" + (f" (from {origin})" if origin else "")
            if key not in schema:
                known = ", ".join(sorted(schema)) or "none"
                raise ReaderConfigError(f"{label}: not an option of protocol {protocol!r}; "
                                  f"its options are: {known}")
            options[key] = _check_value(label, key, value, schema[key])
    problem = kind.check(options)
    if problem:
        raise ReaderConfigError(f"{where}: {problem}")
    return ReaderSpec(role, path, protocol, MappingProxyType(options))


def _check_value(label: str, key: str, value: Any, opt: _Option) -> Any:
    if opt.kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        if value < 0:
            raise ReaderConfigError(f"{label}: must be 0 or more seconds, not {value}")
        return float(value)
    if opt.kind is int and isinstance(value, int) and not isinstance(value, bool):
        if value <= 0:
            raise ReaderConfigError(f"{label}: must be a positive number, not {value}")
        return value
    if opt.kind is list and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.upper() for v in value]
    if opt.kind is str and isinstance(value, str):
        return value
    kind = {float: "a number of seconds", int: "a whole number", list: "a list of strings", str: "a string"}
    raise ReaderConfigError(f"{label}: must be {kind[opt.kind]} ({opt.help}), not {value!r}")
