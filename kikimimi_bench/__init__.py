"""The benches of the test rigs: not the product (the wheel ships only `kikimimi`).

Each module is a `kikimimi bench <name>` target (`add_arguments(parser)`, `run(args) -> int`) that joins the
command through the `kikimimi.bench` entry-point group declared in pyproject.toml. They measure what only a
development machine has: the emulated readers and the throwaway PostgreSQL of `testbed/`, power cuts, many
tables on one host, the Trident against RLCard's UNO. What a club runs on its own table (`bench table`,
`bench voice --lag`, each game's bench) stays in `kikimimi`.
"""
