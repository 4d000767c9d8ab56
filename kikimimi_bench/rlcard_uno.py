"""RLCard's UNO game loop, timed the way `kikimimi bench engine --vs-rlcard` times the Trident's.

Runs in its own virtual environment (RLCard from PyPI and numpy; kikimimi is not imported here):
whole 3-player games, each decision a uniformly random legal action taken from the state the game
hands to the player to move, as RLCard's random agent does. Prints one JSON object: games, decisions,
CPU seconds (this process, the loop only) and wall seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from rlcard.games.uno.game import UnoGame


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    game = UnoGame(num_players=args.players)
    game.np_random.seed(args.seed)
    pick = random.Random(args.seed).random
    decisions = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for _ in range(args.games):
        state, _player = game.init_game()
        while not game.is_over():
            legal = state["legal_actions"]
            state, _player = game.step(legal[int(pick() * len(legal))])
            decisions += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(json.dumps({"games": args.games, "decisions": decisions, "cpu_seconds": cpu, "wall_seconds": wall}))


if __name__ == "__main__":
    main()
