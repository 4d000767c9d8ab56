"""Issue 31, item 7: invisible (default-ignorable) characters in a name are refused, so that no second
player shows as "Ann"; an emoji's joiner and variation selectors are kept and folded away when compared."""

import pytest

from kikimimi.records.names import RecordError, check_name, name_key
from kikimimi.records.store import RecordStore

INVISIBLE = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\U000e0041", "\u206e", "\u3164", "\u180e", "\u034f", "\u115f"]


@pytest.mark.parametrize("mark", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_an_invisible_character_is_refused_naming_it(mark, tmp_path):
    with pytest.raises(RecordError, match=f"invisible character \\(U\\+{ord(mark):04X}\\)"):
        check_name(f"An{mark}n")
    with RecordStore(tmp_path / "records.sqlite") as store:
        store.players.add("Ann")
        with pytest.raises(RecordError):
            store.players.add(f"Ann{mark}")
        assert [p.name for p in store.players.all()] == ["Ann"]


def test_an_emojis_joiner_and_variation_selector_are_kept_and_folded():
    assert check_name("\u2764\ufe0f Ann") == "\u2764\ufe0f Ann"
    assert name_key("A\u200dnn") == name_key("Ann") == name_key("ＡＮＮ")
    assert name_key("\u2764\ufe0f Ann") == name_key("\u2764 Ann")
