"""The conformance suite: what every registered game must satisfy (OpenSpiel runs one over its registry).

A new game gets all of it by registering. Each test is parametrized over `games()`, so a game that
breaks a promise fails here under its own id.
"""

from __future__ import annotations

import inspect
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.games.base import FIELD, GameEngine, Referee, Say, Scan
from kikimimi.games.conformance import play_bot_game
from kikimimi.games.ladder import Ladder
from kikimimi.games.registry import SetupError, games, get_info
from kikimimi.games.session import Session
from kikimimi.paths import data_dir
from kikimimi.table.journal import Journal
from kikimimi.table.replay import replay
from kikimimi.table.script import event_to_json
from kikimimi.voice.catalog import LANGUAGES, catalog

GAMES = games()
IDS = [info.id for info in GAMES]
SEEDS = (1, 2)


@pytest.fixture(scope="module", params=GAMES, ids=IDS)
def info(request):
    return request.param


@pytest.fixture(scope="module")
def bot_games(info):
    """Two whole bot games per game, checked event by event (the expensive part, made once)."""
    return [play_bot_game(info, seed, deep=True) for seed in SEEDS]


def test_the_registry_entry_is_complete(info):
    assert info.id and info.titles.get("ja") and info.titles.get("en")
    assert 1 <= info.seats[0] <= info.seats[1] <= 10
    assert info.pieces and len(set(info.pieces)) == len(info.pieces)
    assert not set(info.pieces) & set(info.controls)
    assert isinstance(info.game, GameEngine), "an engine builds on the shared base"
    assert info.roster() and info.privacy_check(), "a game declares its bots and what is private"
    assert info.roster.default in info.roster()
    assert info.view_function() is not None or info.model_function() is not None, \
        "a game shows the Priest its table: a view model (or a text panel of its own) in its view module"
    assert info.data_file("decks", f"{info.id}-sim.toml", data_dir("devices") / "decks").exists()
    assert info.data_file("tables", f"{info.id}-sim.toml", data_dir("devices") / "tables").exists()
    assert info.data_file("rules", f"{info.id}.md", Path(__file__).parents[2] / "docs" / "rules").exists()


CAPABILITIES = ("initial", "tap", "end", "referee", "summary", "observe", "report", "bots", "invariants",
                "privacy", "clock", "prepare")


def test_each_capability_takes_what_the_base_class_passes(info):
    """The hooks are typed methods of GameEngine: a game's own takes the same positional parameters."""
    def positional(function):
        return [p.kind for p in inspect.signature(function).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

    for name in CAPABILITIES:
        mine = getattr(info.game, name)
        base = getattr(GameEngine, name).__get__(info.game)
        assert len(positional(mine)) == len(positional(base)), f"{info.id}.{name}{inspect.signature(mine)}"
    ladder = info.game.ladder
    assert ladder is None or isinstance(ladder, Ladder), f"{info.id}'s ladder is not a kikimimi.games.ladder.Ladder"


def test_bot_games_end_without_raising_mutating_or_leaking(info, bot_games):
    for run in bot_games:
        assert run.problems == []
        assert info.game.is_over(run.state) and run.outcome is not None


def test_every_game_registers_invariants_checked_after_every_event(info, bot_games):
    assert info.invariant_check() is not None, f"{info.id} registers no invariants: simulate would check nothing"
    for run in bot_games:
        assert run.checks == len(run.events) > 0


def test_simulate_reports_how_many_invariant_checks_it_ran(info, capsys):
    from kikimimi.app.cli import main

    assert main(["simulate", "--game", info.id, "--games", "2", "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["invariant_violations"] == 0
    assert summary["invariant_checks"] == round(summary["mean_events_per_game"] * 2)


def test_the_same_seed_plays_the_same_game(info, bot_games):
    again = play_bot_game(info, SEEDS[0])
    assert again.events == bot_games[0].events


def test_reports_and_observations_are_json(info, bot_games):
    state = bot_games[0].state
    report = json.loads(json.dumps(info.game.report(state)))
    assert report["game"] == info.id and "phase" in report and report["result"] is not None
    seats = info.seat_count(bot_games[0].setup)
    for seat in (None, *range(1, seats + 1)):
        json.dumps(info.game.observe(state, seat))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phrase_said_exists_with_its_parameters(info, bot_games, lang):
    words = catalog(lang, info.catalog)
    keys: dict[str, set[str]] = {}
    for run in bot_games:
        for say in run.says:
            keys.setdefault(say.key, set()).update(say.params)
    for key, params in keys.items():
        assert key in words.phrases, f"{lang}: {info.id} says {key!r} but its catalog lacks it"
        assert set(words.phrases[key].params) <= params, (key, words.phrases[key].params, params)
    for run in bot_games[:1]:
        for say in run.says:
            line = words.render(say.key, say.params)
            assert "[" not in line.text, (say, line.text)


def test_a_journal_replays_to_the_live_game(info, bot_games, tmp_path):
    run = bot_games[0]
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        game_id = journal.begin_game(info.id, run.setup)
        for seq, event in enumerate(run.events, start=1):
            journal.append(game_id, seq, event)
        events = list(journal.events(game_id))
        script = list(journal.export(game_id))
    finally:
        journal.close()
    session = Session(info.game, run.setup)
    for event in events:
        session.feed(event)
    assert info.game.report(session.state) == info.game.report(run.state)
    replayed = replay(script, lang="en")
    assert replayed.ok, replayed.refused
    assert {k: v for k, v in replayed.report().items() if k not in ("spoken", "alerts", "refused_lines")} \
        == info.game.report(run.state)


def test_a_script_of_the_game_replays_through_its_set_up_line(info, bot_games):
    run = bot_games[1]
    lines = [json.dumps({"game": info.id, **run.setup})] + [json.dumps(event_to_json(e)) for e in run.events]
    result = replay(lines, lang="ja")
    assert result.ok and result.info is info
    assert result.report()["result"] == info.game.report(run.state)["result"]


def test_a_malformed_set_up_line_is_refused_and_the_game_keeps_its_defaults(info):
    result = replay([json.dumps({"game": info.id, "no_such_key": 1})], lang="en")
    assert not result.ok and "no_such_key" in result.refused[0][1]
    assert result.info is info and result.session.setup == info.setup_defaults
    with pytest.raises(SetupError):
        info.parse_setup({"no_such_key": 1})


def test_undo_restores_the_state_before_each_event(info, bot_games):
    run = bot_games[0]
    session = Session(info.game, run.setup)
    rng = random.Random(5)
    for event in run.events:
        before = info.game.report(session.state)
        session.feed(event)
        if rng.random() < 0.2:
            said = session.feed(Referee("undo"))
            assert info.game.report(session.state) == before
            for lang in LANGUAGES:  # what the undo and the game's summary say exists in its catalogs
                words = catalog(lang, info.catalog)
                assert all("[" not in words.render(e.key, e.params).text for e in said if isinstance(e, Say))
            session.feed(event)
    assert info.game.report(session.state) == info.game.report(run.state)


def test_random_taps_and_referee_actions_never_raise_nor_change_their_input(info, bot_games):
    """From states along a bot game: any tag on any reader, unknown tags, referee actions."""
    game = info.game
    run = bot_games[0]
    readers = [*info.readers(run.setup), "hand:99"]
    ids = [*info.pieces, *info.controls, None, "no-such-piece"]
    actions = [Referee("end"), Referee("no-such-action"), Referee("timeout"), Referee("reveal"),
               *(Referee(a.action, {"seat": 1}) for a in info.referee_actions)]
    rng = random.Random(11)
    state = game.initial(run.setup)
    privacy = info.privacy_check()
    for index, event in enumerate(run.events):
        if index % 7 == 0:
            for _ in range(12):
                probe = rng.choice(actions) if rng.random() < 0.15 else Scan(rng.choice(readers), rng.choice(ids))
                before = repr(game.report(state))
                after, effects = game.apply(state, probe)
                assert repr(game.report(state)) == before, f"{probe} changed its input state"
                assert all(isinstance(e, Say) is False or e.to in ("speaker", *info.outputs(run.setup),
                                                                     "hand:99") for e in effects)
                assert privacy(state, probe, effects, after) == []
        state, _ = game.apply(state, event)


def test_a_tap_on_the_field_of_an_unknown_tag_changes_nothing(info):
    state = info.game.initial(info.setup_defaults)
    after, effects = info.game.apply(state, Scan(FIELD, None, "deadbeef"))
    assert info.game.report(after) == info.game.report(state)
    assert all(not isinstance(e, Say) or e.to == "speaker" for e in effects)


def test_every_registered_game_is_found_by_its_id():
    assert [get_info(game_id) for game_id in IDS] == GAMES


def test_a_tap_on_a_hand_reader_beyond_the_seats_replays(info):
    """A bigger table's `hand:K`, K beyond this game's seats: the game answers it (a referee alert),
    so a script holding one replays instead of stopping at an unknown reader."""
    beyond = f"hand:{info.seat_count(info.setup_defaults) + 1}"
    lines = [json.dumps({"game": info.id}), json.dumps({"scan": beyond, "piece": info.pieces[0]})]
    result = replay(lines, lang="en")
    assert result.ok, result.refused
    assert any(alert.key == "reader.unknown" for alert in result.steps[-1].effects if not isinstance(alert, Say))


def test_undo_takes_back_the_last_accepted_event_past_a_refused_tap(info, bot_games):
    """The Priest's undo means the last play: a refused tap after it (an unknown tag) must not eat it."""
    run = bot_games[0]
    session = Session(info.game, run.setup)
    for event in run.events:
        before = info.game.report(session.state)
        session.feed(event)
        if info.game.report(session.state) != before:
            break
    else:
        pytest.fail("no bot event changed the game")
    session.feed(Scan(FIELD, None, "deadbeef"))
    session.feed(Referee("undo"))
    assert info.game.report(session.state) == before


def test_listing_the_games_imports_no_engine():
    """`kikimimi games` reads the eager entries only: no game class, bot, view or rich panel is loaded."""
    code = ("import sys; from kikimimi.app.cli import main; main(['games']); "
            "print(sorted(m for m in sys.modules if m.startswith('kikimimi.games.') and m.count('.') > 2))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out.strip().splitlines()[-1])  # noqa: S307 - our own subprocess's printed list
    assert loaded and all(m.rsplit(".", 1)[1] in ("pieces", "cards") for m in loaded), loaded
