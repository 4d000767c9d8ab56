"""The spoken log kept from the loop's steps, reader names typed in the virtual table, and the command."""

from __future__ import annotations

from pathlib import Path

from kikimimi.cli import main
from kikimimi.console.feed import TableFeed
from kikimimi.console.simtable import reader_named, short_label
from kikimimi.games.base import Referee, Say, Scan
from kikimimi.table.loop import Step
from kikimimi.voice.catalog import catalog

READERS = ["field", "hand:1", "hand:2", "hand:3"]


class Heard:
    def __init__(self) -> None:
        self.said: list[Say] = []

    def say(self, effect: Say) -> None:
        self.said.append(effect)


def test_feed_keeps_each_line_on_its_output_and_repeats_only_public_ones():
    feed = TableFeed(catalog("en"))
    seen: list[int] = []
    feed.on_change = lambda step: seen.append(step.seq)
    feed.on_step(Step(1, Scan("hand:2", "heart-3"), [Say("hand:2", "piece.heart")]))
    feed.on_step(Step(2, Scan("field", "heart-3"), [Say("speaker", "piece.heart"),
                                                    Say("speaker", "effect.required", {"suit": "heart"})]))
    feed.on_step(Step(3, Scan("hand:1", "ctl-pass"), [Say("hand:1", "pass.draw_first")]))
    assert seen == [1, 2, 3]
    lines = feed.lines()
    assert [(s.seq, s.to, s.private) for s in lines] == [(1, "hand:2", True), (2, "speaker", False),
                                                          (2, "speaker", False), (3, "hand:1", True)]
    assert lines[0].text == catalog("en").render("piece.heart").text
    voice = Heard()
    repeated = feed.repeat_public(voice)
    assert voice.said == repeated == [Say("speaker", "piece.heart"), Say("speaker", "effect.required",
                                                                         {"suit": "heart"})]
    assert [s.repeat for s in feed.lines()[-2:]] == [True, True]


def test_feed_marks_a_new_game_and_forgets_the_old_announcement():
    feed = TableFeed(catalog("en"))
    feed.on_step(Step(1, Scan("field", "heart-3"), [Say("speaker", "piece.heart")]))
    feed.on_step(Step(0, Referee("new", {"first": 3, "rules": "competition"}), [], journaled=False))
    assert feed.lines()[-1].note and "seat 3 first, competition rules" in feed.lines()[-1].text
    assert feed.repeat_public(Heard()) == []


def test_feed_shows_a_phrase_it_cannot_render_by_its_key():
    feed = TableFeed(catalog("en"))
    feed.on_step(Step(1, Referee("x"), [Say("speaker", "no.such.phrase")]))
    assert "no.such.phrase" in feed.lines()[0].text


def test_reader_names_typed_in_the_virtual_table():
    assert reader_named("f", READERS) == "field"
    assert reader_named("2", READERS) == "hand:2"
    assert reader_named("h3", READERS) == "hand:3"
    assert reader_named("hand:1", READERS) == "hand:1"
    assert reader_named("4", READERS) is None
    assert reader_named("2", ["field"]) is None  # hand:2 is real hardware: not tapped from here


def test_short_labels_tell_every_tag_apart():
    from kikimimi.games.trident.pieces import CONTROLS, PIECES

    labels = [short_label(t) for t in [*PIECES, *CONTROLS]]
    assert len(set(labels)) == len(labels)
    assert short_label("heart-3") == "♥3" and short_label("change-spade-2") == "c♠2"
    assert short_label("ctl-trident") == "Trident"


def test_console_command_refuses_a_bad_config_with_a_clear_message(tmp_path, capsys):
    bad = tmp_path / "table.toml"
    bad.write_text('game = "chess"\n')
    assert main(["console", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "console:" in err and "chess" in err and str(bad) in err
    assert main(["console", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "no such table configuration" in capsys.readouterr().err


def test_console_command_refuses_a_journal_it_cannot_open(tmp_path, capsys):
    damaged = tmp_path / "journal.sqlite"
    damaged.write_bytes(b"this is not a database" * 100)
    config = tmp_path / "table.toml"
    shipped = (Path(__file__).parents[2] / "devices" / "tables" / "sim.toml").read_text()
    config.write_text(f'journal = "{damaged}"\n' + shipped)
    assert main(["console", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("console: journal") and str(damaged) in err
