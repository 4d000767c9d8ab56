

def test_a_tap_on_a_bigger_tables_hand_reader_is_an_alert_not_a_malformed_line():
    from kikimimi.table.replay import replay as run_replay

    result = run_replay(['{"game": "royal-nine"}', '{"scan": "hand:3", "piece": "red-1"}'], lang="en")
    assert result.ok and [a["key"] for a in result.alerts] == ["reader.unknown"]
