"""Each game's own panel items (issue 32: what the deleted per-game texts showed, now typed data in the view
model): the Trident's rules and first seat, 6 nimmt!'s bullheads per row and per seat, Numeron's items used
and left with their answers, Royal Nine's rounds and last roles, Suhjong's showdown, declaration and best
score. Each is drawn by the terminal's one drawing (modeltext) in English and in Japanese (no English word
left but piece ids), and reaches the tablet as text in the page's language (render.said_model, which the
page's script draws as it comes). Private things stay out until the hands are revealed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from kikimimi.console.modeltext import model_text
from kikimimi.console.web.render import said_model
from kikimimi.console.words import words
from kikimimi.games.registry import get_info
from kikimimi.games.tableview import table_model

TESTS = Path(__file__).resolve().parents[1]
for folder in ("trident", "nimmt", "numeron", "royal_nine", "suhjong"):  # each game's test table
    sys.path.insert(0, str(TESTS / folder))

from nimmt_table import seed_table  # noqa: E402
from numeron_table import Table as NumeronTable  # noqa: E402
from royal_nine_table import W2, W3  # noqa: E402
from royal_nine_table import Table as RoyalTable  # noqa: E402
from suhjong_table import Table as SuhjongTable  # noqa: E402
from trident_table import Table as TridentTable  # noqa: E402

PIECE_ID = re.compile(r"\b[a-z]+-\d+(?:-\d+)?\b")  # red-5, heart-8, digit-0-1: printed on the pieces


def model_of(game: str, table, *, reveal: bool = False) -> dict:
    info = get_info(game)
    report = table.report if isinstance(table.report, dict) else table.report()
    return table_model(info.model_function(), report, info.game.observe(table.state, None), reveal=reveal,
                       seats=info.seat_count(table.setup))


def terminal(game: str, table, lang: str, *, reveal: bool = False) -> str:
    text = model_text(model_of(game, table, reveal=reveal), words(lang), reveal=reveal).plain
    if lang == "ja":  # the table's language: no English word but the pieces' ids (and the key "h")
        english = re.findall(r"[A-Za-z]+", PIECE_ID.sub("", text).replace("(h ", ""))
        assert english == [], (game, english, text)
    assert "model." not in text, text  # every key said
    return text


def test_the_tridents_rules_and_first_seat():
    table = TridentTable(first=2, rules="competition")
    table.start()
    assert "Rules: competition (ranked by points in hand)\nSeat 2 goes first" in terminal("trident", table, "en")
    assert "ルール:競技(手元の点数で順位)\n2番席から" in terminal("trident", table, "ja")


def test_six_nimmts_bullheads_per_row_and_seat_and_who_takes_a_row():
    table = seed_table()  # rows 11 / 26 / 48 / 92
    table.play((16, 51, 27, 77))
    table.play((96, 34, 15, 100))  # 15 is under every row: seat 3 takes one
    en = terminal("nimmt", table, "en")
    assert "Goal: one round" in en and "Row 1: 11 16 (2/5 cards, bullheads 6)" in en
    assert "Row 3: 48 51 77 (3/5 cards, bullheads 7)" in en and "Seat 3 takes a row" in en
    assert "Seat 3  8 in hand  played 15  bullheads this round: 0" in en
    ja = terminal("nimmt", table, "ja")
    assert "1列目:11 16(2枚、牛6頭)" in ja and "3番席が列を引き取る" in ja and "局面 列の引き取り" in ja
    assert "15を出した" in ja


def test_numerons_items_used_and_left_with_their_answers_numbers_hidden():
    table = NumeronTable(digits=4, items=3, turn_seconds=45)
    table.start("1234", "5678")
    table.item(1, "high-low")  # seat 2's number is all high: HIGH&LOW says so to the table
    table.call("9012")
    en = terminal("numeron", table, "en")
    assert "Seat 1  calls: 1  used HIGH&LOW  left DOUBLE, TARGET, SLASH, SHUFFLE, CHANGE and MOVE" in en
    assert "Seat 1: HIGH&LOW high, high, high and high" in en and "3 items each" in en
    assert "5678" not in en and "1234" not in en  # the numbers only when revealed
    assert "5 6 7 8" in terminal("numeron", table, "en", reveal=True)
    ja = terminal("numeron", table, "ja")
    assert "使用済み ハイアンドロー" in ja and "1番席:ハイアンドロー ハイ、ハイ、ハイ、ハイ" in ja


def test_royal_nines_rounds_and_last_roles():
    table = RoyalTable()
    table.play_round("red-5", {1: W2, 2: W3})
    table.field("ctl-open")
    en = terminal("royal-nine", table, "en")
    assert "Seat 1  0 in hand  rounds 28" in en
    assert "Seat 1's last roles: row 1 straight flush 2, row 2 straight flush 4" in en
    assert "Seat 2's last roles: spoiled nine 0" in en
    ja = terminal("royal-nine", table, "ja")
    assert "1番席の前回の役:1行目 ストレートフラッシュ 2点" in ja and "2番席の前回の役:スポイルドナイン 0点" in ja


def test_suhjongs_showdown_declaration_and_best_score():
    table = SuhjongTable()
    table.deal("98641", "22337")
    table.discard(1, "1")
    table.draw(1, "0")
    table.discard(2, "2")
    table.draw(2, "2")
    table.tap("hand:1", "ctl-showdown")
    table.discard(1, "0")
    table.pickup(1, "2")
    table.discard(2, "7")
    table.draw(2, "7")
    table.write(1, "48*")
    en = terminal("suhjong", table, "en")
    assert "Showdown by seat 1\nSeat 1 declaring: 48*" in en and "Seat 1  5 in hand  best 96" in en
    ja = terminal("suhjong", table, "ja")
    assert "1番席がショーダウン" in ja and "1番席が宣言中:48*" in ja and "局面 宣言" in ja
    table.write(1, "2=96")
    table.tap("hand:1", "ctl-declare")
    table.tap("hand:2", "ctl-norole")
    assert "declared 48*2=96: 96 pts" in terminal("suhjong", table, "en")


def test_the_tablet_gets_each_games_items_in_the_pages_language():
    """The page's script draws the model's items and seat marks as the server says them (console.js
    drawTable: no game's code): the words it gets are the catalog's, in the page's language."""
    table = NumeronTable(digits=4, items=3)
    table.start("1234", "5678")
    table.item(1, "high-low")
    page = said_model(model_of("numeron", table), words("ja"))
    assert "使用済み ハイアンドロー" in page["seats"][0]["marks"]
    assert "1番席:ハイアンドロー ハイ、ハイ、ハイ、ハイ" in page["items"]
    assert not any("model." in line for line in [*page["items"], *page["seats"][0]["marks"]])
