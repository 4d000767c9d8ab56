"""`kikimimi bench engine` and `bench trident`, small: every loop and series gives CPU and wall figures."""

from __future__ import annotations

import json

from kikimimi.app.cli import main


def test_bench_engine_times_three_loops_on_cpu_and_wall(capsys):
    assert main(["bench", "engine", "--games", "30", "--rounds", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures["loops"]) == {"moves, random-legal", "apply, legal bots", "apply, bots with mistakes"}
    for loop in figures["loops"].values():
        assert loop["games_per_cpu_second"] > 0 and loop["games_per_wall_second"] > 0
        assert loop["steps_per_game"] > 15 and len(loop["cpu_rates"]) == 2
    assert figures["total"]["cpu_seconds"] > 0


def test_bench_trident_reports_shares_with_intervals_and_decision_times(capsys):
    # Two series of the bench's plan, small (the whole plan is the command's own run, minutes long).
    assert main(["bench", "trident", "--only", "mc:random", "mc:rules", "--series", "4", "--worlds", "2",
                 "--iterations", "6", "--workers", "1", "--json"]) == 0
    series = json.loads(capsys.readouterr().out)["series"]
    assert [(s["player"], s["against"]) for s in series] == [("mc", "random"), ("mc", "rules")]
    for s in series:
        assert s["games"] == 4 and 0 <= s["interval"][0] <= s["first_share"] <= s["interval"][1] <= 1
    assert series[0]["decisions"] > 0 and series[0]["decision_ms_cpu"]["p99"] > 0


def test_bench_trident_hand_bias_measures_what_opponents_keep(capsys):
    """The measurement behind the bot's weighted deal: players shed their playable pieces, so basic pieces of
    other suits stay in hand more than a uniform deal says, change pieces less."""
    assert main(["bench", "trident", "--hand-bias", "--series", "40", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["ratios"]) == {"random-legal", "rule-based"}
    for ratios in out["ratios"].values():
        assert set(ratios) == set(out["bot_weights"])
        assert ratios["other suits"] > 1 > ratios["change"]


def test_bench_trident_only_runs_the_series_named_and_refuses_a_wrong_name(capsys):
    assert main(["bench", "trident", "--only", "seeing-all:rules", "--series", "6", "--worlds", "2",
                 "--iterations", "6", "--workers", "1", "--json"]) == 0
    series = json.loads(capsys.readouterr().out)["series"]
    assert [(s["player"], s["against"]) for s in series] == [("seeing-all", "rules")]
    try:
        main(["bench", "trident", "--only", "strong:nobody", "--series", "3"])
    except SystemExit as exc:
        assert "--only strong:nobody" in str(exc)
    else:
        raise AssertionError("a wrong series name was accepted")


def test_bench_trident_refuses_a_count_below_one_in_one_line(capsys):
    for option in ("--iterations", "--worlds", "--series", "--workers"):
        try:
            main(["bench", "trident", option, "0"])
        except SystemExit as exc:
            assert exc.code == 2
        else:
            raise AssertionError(f"{option} 0 was accepted")
        assert f"argument {option}: 0 is fewer than 1" in capsys.readouterr().err
