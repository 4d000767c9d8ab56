"""What one event says on one output is one utterance (`one_utterance_each`), and the catalogs say such a
joined phrase as its parts, in order, full or short, never rendered ahead into a voice pack."""

from __future__ import annotations

from kikimimi.games.base import SPEAKER, Alert, Say
from kikimimi.games.phrasebook import ANNOUNCE, flat, joined, one_utterance_each, phrase_problem, spoken
from kikimimi.games.suhjong.phrases import PHRASES
from kikimimi.voice.catalog import catalog
from kikimimi.voice.pack import pack_entries


def test_an_events_phrases_become_one_utterance_per_output_in_order():
    fx = [Say(SPEAKER, "draw.card", {"value": 3}), Say("hand:1", "card.value", {"value": 3}), Alert("x"),
          Say(SPEAKER, "pile.count", {"count": 4}), Say("hand:1", "tap.not_now"), Say("hand:2", "tap.not_now")]
    out = one_utterance_each(fx)
    assert [e.to if isinstance(e, Say) else "alert" for e in out] == [SPEAKER, "hand:1", "alert", "hand:2"]
    speaker, mine = out[0], out[1]
    assert isinstance(speaker, Say) and speaker.key == ANNOUNCE and isinstance(mine, Say)
    assert flat([speaker]) == [fx[0], fx[3]] and flat([mine]) == [fx[1], fx[4]]  # nothing moves to another output
    assert out[3] == fx[5]  # a lone phrase stays as it is
    assert one_utterance_each(fx[:3]) == fx[:3]


def test_kept_keys_stay_on_their_own():
    fx = [Say(SPEAKER, "draw.card", {"value": 3}), Say(SPEAKER, "turn.begin", {"seat": 2})]
    assert one_utterance_each(fx, keep={"turn.begin"}) == fx


def test_a_joined_phrase_is_checked_and_read_part_by_part():
    say = joined(SPEAKER, ANNOUNCE, [Say(SPEAKER, "draw.card", {"value": 3}), Say(SPEAKER, "pile.count", {"count": 4})])
    assert phrase_problem(say, PHRASES) is None
    assert [s.key for s in spoken([say])] == [ANNOUNCE, "draw.card", "pile.count"]
    bad = joined(SPEAKER, ANNOUNCE, [Say(SPEAKER, "draw.card", {"seat": 1})])
    assert "draw.card" in (phrase_problem(bad, PHRASES) or "")


def test_the_catalog_says_the_parts_in_order_full_or_short_and_a_pack_renders_only_the_parts():
    parts = (("draw.pass", {"value": 3, "next": 2}), ("pile.count", {"count": 4}))
    en, ja = catalog("en", "suhjong"), catalog("ja", "suhjong")
    assert en.render(ANNOUNCE, {"parts": parts}).text == "Draw 3; seat 2 to play. Left in the pile: 4."
    assert en.render(ANNOUNCE, {"parts": parts}, short=True).text == "In 3; seat 2. Left in the pile: 4."
    line = ja.render(ANNOUNCE, {"parts": [list(p) for p in parts]})  # as a journal gives it back
    assert line.text == "3を引き 2番へ。山は残り4枚。"
    assert line.reading == "さんを ひき、にばんえ。やまわ のこり よんまい。"
    short = ja.render(ANNOUNCE, {"parts": parts}, short=True)
    assert (short.text, short.natural) == ("3引き、2番。山は残り4枚。", "3ひき、2番。山は残り4枚。")  # [readings]
    entries = {entry for entry, _, _ in pack_entries(en)}
    assert not any(e.startswith(f"suhjong:{ANNOUNCE}") for e in entries)
    assert "suhjong:draw.pass[next=2,value=3]" in entries
