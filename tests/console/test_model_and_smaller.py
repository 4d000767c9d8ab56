"""The view model every game gives both screens (issue 32, item 1) and the smaller points (item 6)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from console_helpers import deal_events, submit_all  # noqa: E402

from kikimimi.console.feed import TableFeed  # noqa: E402
from kikimimi.console.web.render import said_model  # noqa: E402
from kikimimi.console.words import words  # noqa: E402
from kikimimi.games.base import Referee, Scan  # noqa: E402
from kikimimi.games.registry import games, get_info  # noqa: E402
from kikimimi.games.session import Session  # noqa: E402
from kikimimi.games.tableview import table_model  # noqa: E402
from kikimimi.table.control import TableControl  # noqa: E402
from kikimimi.voice.catalog import catalog  # noqa: E402


def played_by_bots(info, *, seed: int, limit: int, to_the_result: bool = False) -> Session:
    """A game of `info` with its default setup, as far as its bots play it in `limit` events (or, with
    `to_the_result`, until it has a result)."""
    session = Session(info.game, dict(info.setup_defaults))
    bots = info.new_bots(seed, session.setup)
    for _ in range(limit):
        event = bots.next_event(session.state)
        if event is None or to_the_result and info.game.report(session.state).get("result"):
            break
        session.feed(event)
    return session


@pytest.mark.parametrize("info", games(), ids=lambda info: info.id)
def test_each_game_models_its_table_and_hides_hands_unless_revealed(info):
    session = played_by_bots(info, seed=7, limit=30)
    report, public = info.game.report(session.state), dict(info.game.observe(session.state, None))
    model = info.model_function()
    assert model is not None, f"{info.id} gives no view model"
    seats = info.seat_count(session.setup)
    hidden = table_model(model, report, public, reveal=False, seats=seats)
    shown = table_model(model, report, public, reveal=True, seats=seats)
    assert not any(item.startswith("model.failed") for item in json.dumps(hidden["items"]).split('"'))
    assert len(hidden["seats"]) == seats and all(seat["hand"] is None for seat in hidden["seats"])
    hands = report.get("hands") or report.get("numbers") or {}
    if any(hands.values()):
        assert any(seat["hand"] for seat in shown["seats"])
    for lang in ("ja", "en"):  # every word of the model has text in both languages
        said = said_model(hidden, words(lang))
        text = json.dumps(said, ensure_ascii=False)
        assert "model." not in text, (lang, text)


def test_the_tridents_model_marks_the_turn_and_counts(table):
    control = TableControl(table)
    submit_all(table, [*deal_events(), Scan("field", "heart-3")])
    view = control.view()
    info = get_info("trident")
    model = table_model(info.model_function(), view.report, view.public, reveal=False, seats=3)
    assert [seat["count"] for seat in model["seats"]] == [5, 5, 5]
    assert [seat["turn"] for seat in model["seats"]] == [True, False, False]
    assert model["field"] == ["heart-3"] and model["basket"] is not None
    ja = said_model(model, words("ja"))
    assert "指定スート:ハート" in ja["items"]


def test_repeat_after_a_pause_repeats_the_games_line_not_the_pause(table):
    control = TableControl(table)
    feed = TableFeed(catalog("en", "trident"))
    control.subscribe(feed.on_step)
    submit_all(table, deal_events())
    before = feed.last_public
    table.loop.pause(True)
    table.loop.pause(False)
    assert table.loop.wait_processed(table.loop.processed)  # the pauses went through the loop
    import time
    time.sleep(0.2)
    assert feed.last_public == before and all(s.key != "table.unpaused" for s in feed.last_public)


@pytest.mark.parametrize("info", games(), ids=lambda info: info.id)
def test_each_games_model_carries_the_end_in_both_languages(info):
    """The end (winner or ranking, final scores) is in the drawn table, not only in the English text panel."""
    session = played_by_bots(info, seed=11, limit=3000, to_the_result=True)
    if not info.game.report(session.state).get("result"):  # the bots did not finish: the Priest ends it
        session.feed(Referee("end"))
    report, public = info.game.report(session.state), dict(info.game.observe(session.state, None))
    assert report.get("result"), f"{info.id} did not end"
    model = table_model(info.model_function(), report, public, reveal=False, seats=info.seat_count(session.setup))
    assert model["over"] and len(model["result"]) >= 2, model["result"]
    ja, en = (said_model(model, words(lang))["result"] for lang in ("ja", "en"))
    assert "番席" in "".join(ja) and not any(c.isascii() and c.isalpha() for c in "".join(ja)), ja
    assert "Seat" in "".join(en) and not any(ord(c) > 0x3000 for c in "".join(en)), en


def test_the_tridents_penalties_are_in_its_model(table):
    control = TableControl(table)
    submit_all(table, [*deal_events(), Scan("field", "heart-3"), Referee("penalty", {"seat": 2})])
    view = control.view()
    model = table_model(get_info("trident").model_function(), view.report, view.public, reveal=False, seats=3)
    assert said_model(model, words("ja"))["penalties"] == ["2番席:誤プレイ"]
    assert said_model(model, words("en"))["penalties"] == ["Seat 2: wrong play"]
