"""The consoles' words in both languages (issue 32, item 2): every key a console shows has text in Japanese
and in English; the catalogs hold the same keys; each game's set-up keys and referee actions have a label
(and a one-line help) in each language. A key added to one catalog, or shown by the code, without its text
in the other language fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kikimimi.console.view import action_label, describe_alert, describe_event
from kikimimi.console.words import LANGUAGES, MARK, Words, words
from kikimimi.games.base import Alert, Referee, Scan
from kikimimi.games.registry import games
from kikimimi.games.trident.ladder import TridentLadder
from kikimimi.records.kinds import MEETING_KINDS

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ROOT / "kikimimi" / "console"
STATIC = CONSOLE / "web" / "static"


def test_both_catalogs_hold_the_same_keys_each_with_text():
    ja, en = words("ja"), words("en")
    assert set(ja.texts) == set(en.texts), sorted(set(ja.texts) ^ set(en.texts))
    for said in (ja, en):
        empty = [key for key, text in said.texts.items() if not text.strip()]
        assert not empty, f"{said.lang}: empty {empty}"
    for key in en.texts:  # the same parameters in both (a {seat} lost in translation shows as nothing)
        if key.startswith("reasons.") or key == "pieces.many":  # English spells the number, Japanese writes it
            continue
        assert set(MARK.findall(ja.texts[key])) == set(MARK.findall(en.texts[key])), key


def page_keys() -> set[str]:
    """Every word the page shows by key: data-t / data-t-label in the page, t("…") in its script, and the
    prefixed families (statuses, login reasons)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    script = (STATIC / "console.js").read_text(encoding="utf-8")
    keys = set(re.findall(r'data-t(?:-label)?="([a-z_]+)"', html))
    keys |= set(re.findall(r'\bt\("([a-z_]+)"', script)) - {"status_", "login_"}  # prefixes, listed below
    keys |= {f"status_{status}" for status in ("ok", "reconnecting", "fallback", "failed", "missing")}
    keys |= {f"login_{why}" for why in ("expired", "wrong", "locked")}
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_the_page_shows_is_in_the_catalog(lang):
    page = words(lang).section("page")
    missing = sorted(page_keys() - set(page))
    assert not missing, f"console.{lang}.toml [page] lacks {missing}"


def code_keys() -> set[str]:
    """Keys the consoles' Python code says by name (say("…"), get("…"), NotNow("…"), ["guide.…", …])."""
    keys: set[str] = set()
    sources = [*CONSOLE.rglob("*.py"), *ROOT.glob("kikimimi/games/*/guide.py"), *ROOT.glob("kikimimi/games/*/view.py"),
               ROOT / "kikimimi/games/tableview.py"]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'(?:say|NotNow|mark)\("([a-z_]+\.[a-z_.]+)"', text))
        keys |= set(re.findall(r'\["(guide\.[a-z_.]+)"', text))
        keys |= {f"guide.trident.{name}" for name in re.findall(r'step\("([a-z_]+)"', text)}
        keys |= {f"guide.trident.{name}" for pair in re.findall(r'step\("([a-z_]+)" if \w+ else "([a-z_]+)"', text)
                 for name in pair}
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_code_says_is_in_the_catalog(lang):
    said = words(lang)
    keys = code_keys()
    assert len(keys) > 20  # the scan found the code's keys
    missing = sorted(key for key in keys if not said.has(key))
    assert not missing, f"console.{lang}.toml lacks {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_games_set_up_keys_and_actions_have_words(lang):
    said: Words = words(lang)
    missing = []
    for info in games():
        for key in info.setup_keys:
            for part in ("label", "help"):
                if not said.has(f"setup.{info.id}.{key.name}.{part}"):
                    missing.append(f"setup.{info.id}.{key.name}.{part}")
            for choice in key.choices or ():
                if isinstance(choice, str) and not said.has(f"setup.{info.id}.choice.{choice}.label"):
                    missing.append(f"setup.{info.id}.choice.{choice}.label")
        for action in info.referee_actions:
            if not said.has(f"actions.{info.id}.{action.action}"):
                missing.append(f"actions.{info.id}.{action.action}")
    assert not missing, f"console.{lang}.toml lacks {missing}"


def test_a_japanese_answer_holds_no_english_words():
    ja = words("ja")
    refusal = ja.say("answer.refused", action=ja.say("actions.trident.penalty"),
                     why=ja.reason("only during a turn (the game is in deal)"))
    assert refusal == "ペナルティ:テーブルが受け付けませんでした。手番の間だけできます(今は配り)。"
    assert not re.search(r"[A-Za-z]{3,}", refusal)
    assert ja.value({"pieces": 2}) == "2枚" and words("en").value({"pieces": 2}) == "two pieces"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_of_the_terminals_keys_bar_has_words(lang):
    from kikimimi.console.app import ConsoleApp

    said = words(lang)
    actions = [b.action for b in ConsoleApp.BINDINGS if hasattr(b, "action")]
    assert len(actions) > 10
    missing = sorted(a for a in actions if not said.has(f"terminal.key.{a}"))
    assert not missing, f"console.{lang}.toml [terminal.key] lacks {missing}"


def test_a_japanese_tables_terminal_console_speaks_japanese(tmp_path, monkeypatch):
    """The keys bar, the tabs, a confirmation and a pick dialog of the terminal console, on a Japanese table."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from console_helpers import drive, open_sim_table, screen_text

    monkeypatch.setenv("KIKIMIMI_DATA", str(tmp_path / "data"))
    table = open_sim_table(tmp_path, language="ja")
    seen: dict[str, str] = {}

    async def script(app, pilot):
        bar = {b.action: b.description for bs in app._bindings.key_to_bindings.values() for b in bs}
        assert bar["undo"] == "取消" and bar["end"] == "終了" and bar["quit_console"] == "閉じる", bar
        seen["main"] = screen_text(app)
        await pilot.press("e")
        await pilot.pause()
        seen["end"] = screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        seen["tap"] = screen_text(app)
        await pilot.press("escape")

    try:
        drive(table, script)
    finally:
        table.close()
    assert "発話" in seen["main"] and "What was said" not in seen["main"] and "Health" not in seen["main"]
    assert "ゲームを今終了しますか" in seen["end"] and "はい (y)" in seen["end"] and "End the game" not in seen["end"]
    assert "どのリーダーでタップしますか" in seen["tap"] and "Tap on which reader" not in seen["tap"]


# Alerts the consoles describe by name (kikimimi/console/view.py's describe_alert), on both screens.
ALERTS = re.findall(r'alert\.key == "([a-z_.]+)"', (CONSOLE / "view.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_alert_meeting_word_and_event_shown_has_words(lang):
    """Keys built at run time (not literal in the code): each alert, the Meeting tab's kinds, states and
    columns, each game's referee action as the undo question and the last event name it."""
    said = words(lang)
    assert len(ALERTS) > 10
    keys = [f"alert.{key}" for key in ALERTS]
    keys += [f"meeting.kind.{kind}" for kind in MEETING_KINDS]
    keys += [f"meeting.status.{status}" for status in ("open", "finished", "abandoned")]
    keys += [f"meeting.column.{column}" for column in ("position", "player", "title", "wins", "places", "score",
                                                       "ladder_wins", "table", "seats", "games", "controller",
                                                       "last_seen", *TridentLadder.standing_columns)]
    assert sorted(key for key in keys if not said.has(key)) == []


def test_a_japanese_terminal_names_events_and_actions_in_japanese():
    """The undo question's and last event's words, and every game action's label, on a Japanese table: no
    Latin letters but piece ids and reader names (they are printed on the pieces and readers)."""
    ja = words("ja")
    for info in games():
        for action in info.referee_actions:
            shown = describe_event(Referee(action.action, {"seat": 2}), info, ja)
            assert not re.search(r"[A-Za-z]", shown), (info.id, shown)
            assert not re.search(r"[A-Za-z]", action_label(info, action.action, ja, action.label)), action.action
        shown = describe_event(Scan("hand:1", info.pieces[0]), info, ja)
        assert info.pieces[0] not in shown and not re.search(r"[A-Za-z]", shown.replace("hand:1", "")), shown
    moved = describe_alert(Alert("referee.moved", {"piece": "heart-1", "to": "hand:3"}), said=ja)
    assert "heart-1" not in moved and not re.search(r"[A-Za-z]", moved.replace("hand:3", "")), moved
