"""Voice latency: from a Say handed to the router to its first non-silent frame in the audio callback.

`kikimimi bench voice` is kikimimi/voice/bench.py's, except `--lag --realtime`: that one plays the bots'
games on the live table (kikimimi/app/realbench.py), so it is run from here, the layer above the table.
"""

from __future__ import annotations

import argparse

from kikimimi.voice import bench

add_arguments = bench.add_arguments


def run(args: argparse.Namespace) -> int:
    if getattr(args, "lag", False) and getattr(args, "realtime", False):
        from kikimimi.app import realbench  # numpy and the table: loaded only for this bench

        return realbench.run(args)
    return bench.run(args)
