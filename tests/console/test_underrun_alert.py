"""A sound card running dry again and again during a game is told to the Priest, once per burst, never on the
speaker (issue 15, item 12: underruns shown in the console)."""

from __future__ import annotations

from console_helpers import drive, known_position, settle, shown, submit_all

from kikimimi.console.health import UNDERRUN_BURST, UNDERRUN_WINDOW, HealthWatch
from kikimimi.voice.router import OutputHealth


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def cards(shared: int, other: int = 0) -> dict[str, OutputHealth]:
    """The speaker and seat 1's earphone on one card (one count), seat 2's earphone on another."""
    return {"speaker": OutputHealth("ok", "card 1", shared), "hand:1": OutputHealth("ok", "card 1", shared),
            "hand:2": OutputHealth("ok", "card 2", other)}


def underrun_alerts(watch: HealthWatch, outputs: dict[str, OutputHealth]) -> list:
    return [a for a in watch.check({}, outputs) if a.key == "output.underruns"]


def test_a_burst_is_one_alert_per_card_and_not_repeated_until_it_is_over():
    clock = Clock()
    watch = HealthWatch(clock)
    assert underrun_alerts(watch, cards(100)) == []  # counted since the stream opened: the baseline
    clock.now += 10
    assert underrun_alerts(watch, cards(100 + UNDERRUN_BURST)) == []  # not more than the limit yet
    clock.now += 10
    [alert] = underrun_alerts(watch, cards(100 + UNDERRUN_BURST + 2))
    assert alert.params == {"output": "speaker, hand:1", "count": UNDERRUN_BURST + 2, "seconds": 60}
    for _ in range(5):  # the card keeps running dry: still the same burst
        clock.now += 10
        assert underrun_alerts(watch, cards(200 + int(clock.now))) == []
    last = 200 + int(clock.now)
    clock.now += UNDERRUN_WINDOW  # a whole quiet minute ends the burst
    assert underrun_alerts(watch, cards(last)) == []
    clock.now += 5
    again = underrun_alerts(watch, cards(last + UNDERRUN_BURST + 1, other=UNDERRUN_BURST + 1))
    assert [a.params["output"] for a in again] == ["speaker, hand:1", "hand:2"]  # a new burst; card 2 its own


def test_a_slow_trickle_or_a_reopened_stream_is_no_burst():
    clock = Clock()
    watch = HealthWatch(clock)
    for count in range(12):  # 4 a minute for three minutes
        assert underrun_alerts(watch, cards(count)) == []
        clock.now += 15
    assert underrun_alerts(watch, cards(3)) == []  # the device was reopened: its count starts again
    clock.now += 1
    assert underrun_alerts(watch, cards(3 + UNDERRUN_BURST + 1)) != []  # counted from the new start


def test_the_console_shows_the_burst_to_the_priest_once_and_the_speaker_says_nothing(table, monkeypatch):
    # A real sound card's underruns cannot be made on demand here (the outputs are transcript only), so the
    # voice's health reports a growing count; the console's polling, alerts and panels are the real ones.
    underruns = {"count": 40}

    def health():
        return {name: OutputHealth("ok", "card 1", underruns["count"]) for name in ("speaker", "hand:1")}

    monkeypatch.setattr(table.voice, "health", health)

    async def script(app, pilot):
        submit_all(table, known_position())
        await settle(pilot, table)
        app.refresh_health()
        assert "ran dry" not in shown(app, "#alerts")  # 40 since the stream opened: not a burst
        heard_before = list(table.heard)
        for grown in (43, 49, 52):
            underruns["count"] = grown
            app.refresh_health()
            await settle(pilot, table)
        alerts = shown(app, "#alerts")
        assert alerts.count("ran dry") == 1, alerts
        assert "audio output speaker, hand:1: the sound card ran dry 9 times in 60 s" in alerts  # at 49
        assert "underruns 52" in shown(app, "#health")
        assert table.heard == heard_before  # told to the Priest only

    drive(table, script)
