"""The live log (`play` without --reveal-hands) never names a piece held in a hand (issue 15, item 1)."""

from __future__ import annotations

import logging

from rich.console import Console

from kikimimi.games.base import FIELD, Referee, Say, Scan
from kikimimi.games.trident.bots import BotTable
from kikimimi.games.trident.engine import Trident
from kikimimi.table.transcript import PUBLIC, print_step
from kikimimi.voice.catalog import catalog
from kikimimi.voice.config import OutputSpec, VoiceSpec
from kikimimi.voice.router import Voice

WORDS = catalog("en", "trident")


def shown(event, effects, seat) -> str:
    console = Console(record=True, width=200, color_system=None)
    print_step(console, "1", event, effects, WORDS, seat=seat)
    return console.export_text()


def test_a_wrong_play_on_the_field_does_not_name_the_piece_still_in_the_hand():
    game, wrong = Trident(), 0
    for seed in range(6):
        bots = BotTable(seed)
        state = game.initial({"first": 1})
        while (event := bots.next_event(state)) is not None:
            state, effects = game.apply(state, event)
            held = isinstance(event, Scan) and any(event.piece in hand for hand in state.hands)
            if held and event.reader == FIELD:  # a refused play: the piece is still in a hand
                wrong += 1
                line = shown(event, effects, PUBLIC).splitlines()[0]
                assert event.piece not in line, line
                assert event.piece in shown(event, effects, None)  # revealed: named
    assert wrong > 0  # the bots make mistakes: the case happened


def test_the_priests_move_does_not_name_the_piece_unless_revealed():
    event = Referee("move", {"piece": "clover-7", "to": "hand:2"})
    hidden = shown(event, [], PUBLIC)
    assert "clover-7" not in hidden and "referee move" in hidden and "to=hand:2" in hidden
    assert "piece=clover-7" in shown(event, [], None)


def test_a_private_phrase_without_its_output_is_not_named_in_the_log(caplog):
    spec = VoiceSpec("en", "none", None, None, False, None)
    voice = Voice.open(spec, [OutputSpec("speaker", None, (1,), 1.0, "transcript")], phrases=WORDS)
    try:
        with caplog.at_level(logging.WARNING, logger="kikimimi.voice"):
            voice.say(Say("hand:2", "piece.change-diamond"))
    finally:
        voice.close()
    text = caplog.text
    assert "no output 'hand:2' configured" in text and "change-diamond" not in text
