"""Reader and output health becomes alerts when something goes down or comes back (not while starting)."""

from kikimimi.console.health import HealthWatch
from kikimimi.devices.events import ReaderHealth
from kikimimi.voice.router import OutputHealth


def reader(status: str, detail: str = "") -> dict:
    return {"hand:2": ReaderHealth("hand:2", "usb:001:004", "nfc", status, detail)}


def test_starting_reader_is_not_an_alert_but_a_lost_one_is():
    watch = HealthWatch()
    assert watch.check(reader("reconnecting", "not started"), {}) == []
    assert watch.check(reader("ok"), {}) == []
    [down] = watch.check(reader("reconnecting", "unplugged"), {})
    assert down.key == "reader.down" and down.params["reader"] == "hand:2"
    assert down.params["detail"] == "unplugged"
    assert watch.check(reader("failed", "gone"), {}) == []  # already down: said once
    [back] = watch.check(reader("ok"), {})
    assert back.key == "reader.back"


def test_reader_that_never_opens_is_an_alert_when_it_fails():
    watch = HealthWatch()
    [alert] = watch.check(reader("failed", "no such device"), {})
    assert alert.key == "reader.down"


def test_audio_device_lost_and_back():
    watch = HealthWatch()
    assert watch.check({}, {"speaker": OutputHealth("ok", "card 1")}) == []
    [lost] = watch.check({}, {"speaker": OutputHealth("fallback", "device stopped responding")})
    assert lost.key == "output.lost" and lost.params == {"output": "speaker", "status": "fallback",
                                                         "detail": "device stopped responding"}
    [back] = watch.check({}, {"speaker": OutputHealth("ok", "card 1")})
    assert back.key == "output.back"
