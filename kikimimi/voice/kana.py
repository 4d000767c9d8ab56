"""Japanese numbers read in kana, because espeak-ng reads no kanji and reads digits poorly in Japanese."""

from __future__ import annotations

_DIGITS = ["", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"]
# Sound changes of the counters (さんびゃく, ろっぴゃく, はっせん ...).
_HUNDREDS = {1: "ひゃく", 3: "さんびゃく", 6: "ろっぴゃく", 8: "はっぴゃく"}
_THOUSANDS = {1: "せん", 3: "さんぜん", 8: "はっせん"}


def number_kana(n: int) -> str:
    """0 to 9999 in hiragana: 24 -> にじゅうよん."""
    if n == 0:
        return "ぜろ"
    if not 0 < n < 10000:
        raise ValueError(f"number_kana covers 0..9999, not {n}")
    parts = []
    thousands, rest = divmod(n, 1000)
    hundreds, rest = divmod(rest, 100)
    tens, ones = divmod(rest, 10)
    if thousands:
        parts.append(_THOUSANDS.get(thousands, _DIGITS[thousands] + "せん"))
    if hundreds:
        parts.append(_HUNDREDS.get(hundreds, _DIGITS[hundreds] + "ひゃく"))
    if tens:
        parts.append(("" if tens == 1 else _DIGITS[tens]) + "じゅう")
    if ones:
        parts.append(_DIGITS[ones])
    return "".join(parts)


def katakana(kana: str) -> str:
    """Hiragana turned into katakana (anything else kept)."""
    return "".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in kana)
