"""The commands: the one layer that combines the others (docs/architecture.md draws the order).

`kikimimi.app.cli` is the `kikimimi` command; each `<area>_cli` module registers that area's sub-commands and
may import any layer below, because a command is where readers, the table, the voice, the records and the
consoles are put together. Nothing below this package imports it (tests/test_layers.py checks).
"""
