"""--assign's parts: stable paths, USB ports, the candidates, binding by taps, the config rewrite."""

import os
import tomllib
from pathlib import Path

import pytest
from bringup_helpers import Pty, table_toml

from kikimimi.bringup.binding import bind
from kikimimi.bringup.candidates import discover
from kikimimi.bringup.configfile import rewrite_readers, write_atomic
from kikimimi.bringup.stable import stable_nfc_path, stable_serial_path
from kikimimi.devices.config import ReaderConfigError, parse_readers
from kikimimi.devices.listing import SerialPort, UsbReader
from kikimimi.devices.usbport import port_of, resolve_port
from kikimimi.table.config import load_config

# -- USB ports ---------------------------------------------------------------------------------------


def fake_sysfs(root: Path, devices: dict[str, tuple[int, int]]) -> Path:
    """A /sys/bus/usb/devices look-alike: port -> (busnum, devnum), plus a root hub and an interface."""
    for name, (bus, dev) in {**devices, "usb1": (1, 1)}.items():
        (root / name).mkdir(parents=True)
        (root / name / "busnum").write_text(f"{bus}\n")
        (root / name / "devnum").write_text(f"{dev}\n")
    (root / "1-1.2:1.0").mkdir()
    return root


def test_a_usb_port_resolves_to_the_bus_and_device_plugged_in_there_now(tmp_path):
    sysfs = fake_sysfs(tmp_path / "a", {"1-1.2": (1, 7), "1-1.3": (1, 9)})
    assert resolve_port("usb-port:1-1.2", sysfs) == "usb:001:007"
    assert port_of(1, 9, sysfs) == "1-1.3"
    assert port_of(1, 1, sysfs) is None  # the root hub is not a port
    replugged = fake_sysfs(tmp_path / "b", {"1-1.2": (1, 12)})
    assert resolve_port("usb-port:1-1.2", replugged) == "usb:001:012"
    with pytest.raises(FileNotFoundError, match="nothing is plugged into USB port 1-1.3"):
        resolve_port("usb-port:1-1.3", replugged)


def test_usb_port_paths_are_nfc_paths_in_a_config():
    spec = parse_readers({"field": {"path": "usb-port:3-1.4.2", "profile": "rcs380"}}, "t")[0]
    assert spec.protocol == "nfc"
    with pytest.raises(ReaderConfigError, match="usb-port:BUS-PORT"):
        parse_readers({"field": {"path": "usb-port:one"}}, "t")


def test_nfc_paths_to_write(tmp_path):
    sysfs = fake_sysfs(tmp_path / "s", {"2-1": (2, 5)})
    assert stable_nfc_path("usb:002:005", sysfs) == ("usb-port:2-1", None)
    path, note = stable_nfc_path("usb:002:099", sysfs)
    assert path == "usb:002:099" and "changes when the reader is replugged" in note
    assert stable_nfc_path("udp:localhost:5000", sysfs) == ("udp:localhost:5000", None)
    assert "SYMLINK" in stable_nfc_path("tty:USB0:pn532", sysfs)[1]


# -- serial paths ------------------------------------------------------------------------------------


@pytest.fixture
def adapters(tmp_path):
    """Three ptys as USB-serial adapters with a fake /dev/serial: two identical CH340s, one FTDI."""
    ports = {name: Pty(tmp_path / name) for name in ("ch340a", "ch340b", "ftdi")}
    serial = tmp_path / "serial"
    (serial / "by-id").mkdir(parents=True)
    (serial / "by-path").mkdir()
    os.symlink(ports["ftdi"].target, serial / "by-id" / "usb-FTDI_FT232R_A50285BI-if00-port0")
    os.symlink(ports["ch340b"].target, serial / "by-id" / "usb-1a86_USB_Serial-if00-port0")  # udev keeps one
    for n, name in enumerate(("ch340a", "ch340b", "ftdi"), 1):
        os.symlink(ports[name].target, serial / "by-path" / f"platform-xhci-usb-0:1.{n}:1.0-port0")
    info = [SerialPort(ports["ch340a"].target, None, "1a86:7523", None, "1-1.1:1.0", "USB Serial"),
            SerialPort(ports["ch340b"].target, None, "1a86:7523", None, "1-1.2:1.0", "USB Serial"),
            SerialPort(ports["ftdi"].target, None, "0403:6001", "A50285BI", "1-1.3:1.0", "FT232R")]
    yield ports, serial, info
    for p in ports.values():
        p.close()


def test_by_id_for_an_adapter_with_a_serial_number_by_path_for_identical_ones(adapters):
    ports, serial, info = adapters
    ftdi = stable_serial_path(ports["ftdi"].target, info, serial)[0]
    assert ftdi.endswith("by-id/usb-FTDI_FT232R_A50285BI-if00-port0")
    # by-id exists for ch340b, but both CH340s would claim it: the USB port is what tells them apart
    assert "by-path/platform-xhci-usb-0:1.2" in stable_serial_path(ports["ch340b"].target, info, serial)[0]
    assert "by-path/platform-xhci-usb-0:1.1" in stable_serial_path(ports["ch340a"].target, info, serial)[0]


def test_a_link_someone_chose_is_kept_and_a_bare_tty_is_flagged(adapters, tmp_path):
    ports, serial, info = adapters
    assert stable_serial_path(str(ports["ftdi"].link), info, serial) == (str(ports["ftdi"].link), None)
    path, note = stable_serial_path(ports["ftdi"].target, info, tmp_path / "no-serial-dir")
    assert path == ports["ftdi"].target and "udev SYMLINK" in note


def test_plugged_in_serial_ports_are_offered_with_the_configs_serial_settings(adapters, tmp_path):
    ports, serial, info = adapters
    cfg = tmp_path / "t.toml"
    readers = {"field": {"path": str(ports["ftdi"].link), "protocol": "rdm6300", "removal_silence": 0.4},
               "hand:1": {"path": "sim"}, "hand:2": {"path": "sim"}, "hand:3": {"path": "sim"}}
    cfg.write_text(table_toml(readers))
    found, notes = discover(load_config(cfg), serial_ports=lambda: info, usb_readers=lambda: ([], None))
    assert [c.open_path for c in found] == [str(ports["ftdi"].link), ports["ch340a"].target, ports["ch340b"].target]
    assert all(c.entry == {"protocol": "rdm6300", "removal_silence": 0.4} for c in found)
    assert len({c.name for c in found}) == 3


def test_plugged_in_usb_readers_replace_a_generic_vid_pid_path(tmp_path):
    cfg = tmp_path / "t.toml"
    readers = {"field": {"path": "usb:054c:06c1", "profile": "rcs380"}, "hand:1": {"path": "sim"},
               "hand:2": {"path": "sim"}, "hand:3": {"path": "sim"}}
    cfg.write_text(table_toml(readers))
    usb = [UsbReader("usb:001:004", "usb:054c:06c1", "rcs380", "Sony RC-S380", "usb-port:1-1.1"),
           UsbReader("usb:001:009", "usb:054c:06c1", "rcs380", "Sony RC-S380", "usb-port:1-1.4")]
    found, _ = discover(load_config(cfg), usb_readers=lambda: (usb, None), serial_ports=lambda: [])
    assert [(c.open_path, c.write_path) for c in found] == [("usb:001:004", "usb-port:1-1.1"),
                                                          ("usb:001:009", "usb-port:1-1.4")]
    assert found[0].section() == {"path": "usb-port:1-1.1", "profile": "rcs380"}
    assert found[0].spec().protocol == "nfc"


# -- binding -----------------------------------------------------------------------------------------


def test_each_role_gets_the_reader_tapped_after_its_prompt_and_a_second_tap_is_refused():
    taps = iter(["reader-3", "reader-3", "reader-1", "reader-4", "reader-2"])
    told = []
    bound = bind(["field", "hand:1", "hand:2", "hand:3"], ["reader-1", "reader-2", "reader-3", "reader-4"],
                 lambda: next(taps, None), lambda text, say: told.append((text, say)))
    assert bound == {"field": "reader-3", "hand:1": "reader-1", "hand:2": "reader-4", "hand:3": "reader-2"}
    refused = [say for text, say in told if "already field" in text]
    assert refused and refused[0].to == "hand:1" and refused[0].key == "bringup.reader_taken"
    prompts = [say for _, say in told if say is not None and say.key in ("bringup.tap_field", "bringup.tap_hand")]
    assert [(s.to, dict(s.params)) for s in prompts] == [("speaker", {}), ("hand:1", {"seat": 1}),
                                                        ("hand:2", {"seat": 2}), ("hand:3", {"seat": 3})]


def test_binding_stops_when_taps_stop_or_readers_run_out():
    taps = iter(["reader-1"])
    assert bind(["field", "hand:1"], ["reader-1", "reader-2"], lambda: next(taps, None), lambda *a: None) == \
        {"field": "reader-1"}
    taps = iter(["reader-1", "reader-2"])
    told = []
    assert bind(["field", "hand:1", "hand:2"], ["reader-1"], lambda: next(taps, None),
                lambda text, say: told.append(text)) == {"field": "reader-1"}
    assert any("no reader left" in t for t in told)


# -- the config file ---------------------------------------------------------------------------------

CONFIG = '''# my table: keep this comment
game = "trident"
deck = "trident-sim.toml"

[readers.field]   # the middle
path = "/dev/ttyUSB0"   # the old adapter
protocol = "rdm6300"
removal_silence = 0.3  # keep me

[readers."hand:1"]
# seat one, by the window
path = "/dev/ttyUSB1"
profile = "rdm6300"

[voice]
backend = "none"
'''


def test_paths_are_replaced_in_place_and_comments_kept():
    new, kept = rewrite_readers(CONFIG, {
        "field": {"path": "/dev/serial/by-id/usb-x # not a comment", "protocol": "rdm6300", "removal_silence": 0.3},
        "hand:1": {"path": "usb-port:1-1.2", "profile": "rcs380"},
        "hand:2": {"path": "/dev/serial/by-path/p2", "protocol": "uid-line"}})
    assert kept
    for comment in ("# my table: keep this comment", "# the middle", "# the old adapter", "# keep me",
                    "# seat one, by the window"):
        assert comment in new
    data = tomllib.loads(new)
    assert data["readers"]["field"]["path"] == "/dev/serial/by-id/usb-x # not a comment"
    assert data["readers"]["hand:1"] == {"path": "usb-port:1-1.2", "profile": "rcs380"}
    assert data["readers"]["hand:2"] == {"path": "/dev/serial/by-path/p2", "protocol": "uid-line"}
    assert data["voice"] == {"backend": "none"} and data["game"] == "trident"


def test_a_layout_the_editor_does_not_follow_is_written_out_whole():
    text = CONFIG.replace('profile = "rdm6300"', 'profile = "rdm6300"\ntargets = [\n  "106A",\n]')
    new, kept = rewrite_readers(text, {"hand:1": {"path": "usb-port:1-1.2", "profile": "rcs380"}})
    assert not kept
    data = tomllib.loads(new)
    assert data["readers"]["hand:1"] == {"path": "usb-port:1-1.2", "profile": "rcs380"}
    assert data["readers"]["field"]["removal_silence"] == 0.3 and data["voice"] == {"backend": "none"}


def test_the_write_is_atomic_keeps_a_backup_and_refuses_a_config_that_fails_its_check(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(CONFIG)
    backup = write_atomic(path, CONFIG.replace("ttyUSB0", "ttyUSB9"))
    assert backup.read_text() == CONFIG and "ttyUSB9" in path.read_text()

    def refuse(tmp):
        raise ValueError("bad")

    with pytest.raises(ValueError):
        write_atomic(path, "garbage", refuse)
    assert "ttyUSB9" in path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.toml", "table.toml.bak"]  # no temp file left
