"""The spoken log kept from the loop's steps, reader names typed in the virtual table, and the command."""

from __future__ import annotations

from pathlib import Path

from kikimimi.app.cli import main
from kikimimi.console.feed import TableFeed
from kikimimi.console.simtable import groups, reader_named, rows_of, short_label
from kikimimi.games.base import Referee, Say, Scan
from kikimimi.table.loop import Step
from kikimimi.table.messages import Announcement, NewGame
from kikimimi.voice.catalog import catalog

READERS = ["field", "hand:1", "hand:2", "hand:3"]


class Announcer:
    """Stands for `TableLoop.announce`: keeps what was asked, and plays the loop's announce step back."""

    def __init__(self, feed: TableFeed | None = None) -> None:
        self.asked: list[list[Say]] = []
        self.feed = feed

    def __call__(self, says: list[Say]) -> None:
        self.asked.append(list(says))
        if self.feed is not None:
            self.feed.on_step(Step(0, Announcement(tuple(says)), list(says), journaled=False))


def test_feed_keeps_each_line_on_its_output_and_repeats_only_public_ones_through_the_loop():
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
    announce = Announcer()
    repeated = feed.repeat_public(announce)
    assert announce.asked == [repeated] == [[Say("speaker", "piece.heart"),
                                             Say("speaker", "effect.required", {"suit": "heart"})]]
    assert len(feed.lines()) == 4  # nothing is shown until the loop says it
    feed.on_step(Step(0, Announcement(tuple(repeated)), repeated, journaled=False))
    assert [s.repeat for s in feed.lines()[-2:]] == [True, True]


def test_the_tables_own_announcements_are_shown_but_not_repeated_as_the_game_s():
    feed = TableFeed(catalog("en"))
    feed.on_step(Step(1, Scan("field", "heart-3"), [Say("speaker", "piece.heart")]))
    lost = Say("speaker", "table.field_reader_lost")
    feed.on_step(Step(0, Announcement((lost,)), [lost], journaled=False))
    assert not feed.lines()[-1].repeat
    assert feed.last_public == [Say("speaker", "piece.heart")]


def test_feed_marks_a_new_game_and_forgets_the_old_announcement():
    feed = TableFeed(catalog("en"))
    feed.on_step(Step(1, Scan("field", "heart-3"), [Say("speaker", "piece.heart")]))
    feed.on_step(Step(0, NewGame({"game": "trident", "first": 3, "rules": "competition", "secret": "x"}),
                      [], journaled=False))
    note = feed.lines()[-1]
    assert note.note and "new game: The Trident (First player 3, Rules Competition)" in note.text
    assert "secret" not in note.text  # only the game's set-up keys
    announce = Announcer()
    assert feed.repeat_public(announce) == [] and announce.asked == []


def test_feed_renders_each_line_with_the_phrases_of_the_game_that_said_it():
    from kikimimi.games.registry import games

    feed = TableFeed(catalog("en", "trident"))
    for info in games():
        feed.on_step(Step(0, NewGame({"game": info.id}), [], journaled=False))
        assert feed.words.namespace == info.catalog
    feed.on_step(Step(0, NewGame({"game": "chess"}), [], journaled=False))
    assert "new game: chess" in feed.lines()[-1].text  # an unknown game: a note, no crash


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


def test_virtual_table_groups_and_labels_tell_every_tag_apart():
    from kikimimi.games.registry import games

    for info in games():
        grouped = groups(info.pieces, info.controls)
        assert sorted(t for ids in grouped.values() for t in ids) == sorted([*info.pieces, *info.controls])
        for group, tag_ids in grouped.items():
            labels = [short_label(t, group) for t in tag_ids]
            assert len(set(labels)) == len(labels), (info.id, group)
            assert all(sum(len(short_label(t, group)) + 3 for t in row) <= 120 for row in rows_of(tag_ids, group))
    assert short_label("heart-3", "heart") == "3" and short_label("change-spade-2", "change") == "spade-2"
    assert short_label("ctl-trident", "controls") == "trident"
    assert len(rows_of([f"card-{n}" for n in range(1, 105)], "card")) > 1


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
    shipped = (Path(__file__).parents[2] / "devices" / "tables" / "trident-sim.toml").read_text()
    config.write_text(f'journal = "{damaged}"\n' + shipped)
    assert main(["console", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("console: journal") and str(damaged) in err


def test_play_console_is_the_console_registering_itself_as_a_front_end():
    from kikimimi.app.cli import build_parser
    from kikimimi.table.run import FRONT_ENDS

    build_parser()
    assert FRONT_ENDS["console"].__module__ == "kikimimi.app.console_cli"
