"""Reader configuration: defaults, profiles, and errors that name the file, role and key."""

import tomllib

import pytest

from kikimimi.devices.config import ReaderConfigError, load_profile, parse_readers, profile_names

EXAMPLE = """
[readers.field]
path = "usb:054c:06c1"
[readers."hand:1"]
path = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
protocol = "rdm6300"
removal_silence = 0.5
[readers."hand:2"]
path = "sim"
[readers."hand:3"]
path = "tty:USB0:pn532"
profile = "pn532-uart"
targets = ["212f"]
"""


def test_example_config():
    specs = {s.role: s for s in parse_readers(tomllib.loads(EXAMPLE)["readers"], "table.toml")}
    assert specs["field"].protocol == "nfc"
    assert specs["field"].options["targets"] == ["106A", "106B", "212F"]
    assert specs["hand:1"].protocol == "rdm6300"
    assert specs["hand:1"].options == {"baudrate": 9600, "removal_silence": 0.5}
    assert specs["hand:2"].protocol == "sim"
    assert specs["hand:3"].options["targets"] == ["212F"]  # inline beats the profile, upper-cased


def test_profile_sets_protocol_and_options():
    spec, = parse_readers({"hand:1": {"path": "/dev/ttyACM0", "profile": "arduino-mfrc522"}}, "t.toml")
    assert spec.protocol == "uid-line" and spec.options["baudrate"] == 115200


def test_every_shipped_profile_parses():
    names = profile_names()
    assert {"rcs380", "rcs300", "acr1252u", "pn532-uart", "rdm6300", "acr122u", "acr122u-nfcpy",
            "arduino-mfrc522"} <= set(names)
    for name in names:
        path = load_profile(name).get("path_example", "sim")
        spec, = parse_readers({"field": {"path": path, "profile": name}}, "t.toml")
        assert spec.protocol == load_profile(name)["protocol"]


def test_pcsc_paths_take_the_pcsc_protocol_and_its_profiles():
    spec, = parse_readers({"field": {"path": "pcsc:RC-S300 (0123)", "profile": "rcs300"}}, "t.toml")
    assert (spec.protocol, spec.path) == ("pcsc", "pcsc:RC-S300 (0123)")
    assert parse_readers({"field": {"path": "pcsc:ACR122U"}}, "t.toml")[0].protocol == "pcsc"


def test_acr122u_carries_nfcpy_warning():
    spec, = parse_readers({"field": {"path": "usb:072f:2200", "profile": "acr122u-nfcpy"}}, "t.toml")
    assert "unreliable" in spec.options["warning"]


@pytest.mark.parametrize(("entry", "words"), [
    ({"protocol": "nfc"}, ["`path`", "missing"]),
    ({"path": "/dev/ttyUSB0"}, ["`protocol`", "rdm6300", "uid-line"]),
    ({"path": "/dev/ttyUSB0", "protocol": "wiegand"}, ["`protocol`", "wiegand"]),
    ({"path": "usb:054c:06c1", "removal_silence": 0.3}, ["`removal_silence`", "its options are"]),
    ({"path": "usb:054c:06c1", "targets": ["106X"]}, ["`targets`", "106X"]),
    ({"path": "/dev/ttyUSB0", "protocol": "rdm6300", "baudrate": "fast"}, ["`baudrate`", "whole number"]),
    ({"path": "/dev/ttyUSB0", "protocol": "rdm6300", "removal_silence": -1}, ["`removal_silence`", "0 or more"]),
    ({"path": "usb:054c:06c1", "profile": "nope"}, ["`profile`", "rcs380"]),
    ({"path": "COM3", "protocol": "nfc"}, ["`path`", "nfcpy device path"]),
    ({"path": "usb:054c:06c1", "protocol": "rdm6300"}, ["`path`", "serial port"]),
    ({"path": "RC-S300", "protocol": "pcsc"}, ["`path`", "pcsc:NAME"]),
    ({"path": "pcsc:", "protocol": "pcsc"}, ["`path`", "pcsc:NAME"]),
])
def test_errors_name_source_role_and_key(entry, words):
    with pytest.raises(ReaderConfigError) as err:
        parse_readers({"hand:1": entry}, "tables/home.toml")
    message = str(err.value)
    assert "tables/home.toml" in message and '"hand:1"' in message
    for word in words:
        assert word in message


def test_same_path_for_two_roles_is_refused():
    with pytest.raises(ReaderConfigError, match="already the reader of role 'field'"):
        parse_readers({"field": {"path": "usb:001:004"}, "hand:1": {"path": "usb:001:004"}}, "t.toml")


def test_bad_role_and_non_table_entry():
    with pytest.raises(ReaderConfigError, match="not a reader role"):
        parse_readers({"Hand 1": {"path": "sim"}}, "t.toml")
    with pytest.raises(ReaderConfigError, match="expected a table"):
        parse_readers({"field": "usb"}, "t.toml")
    assert issubclass(ReaderConfigError, ValueError)
