"""The Priest's console: Textual screens (and the same console as a web page for a tablet, `web/`) that show
the live table and let the referee put it right.

    kikimimi console [--config FILE]          # opens the table itself
    kikimimi play --console                   # the table opener hands its table to `run_console`

It drives the table's own loop (`kikimimi.table.loop.TableLoop`): every action is an event on the
same queue, journaled like a tap. Nothing here keeps a copy of the game's state.
"""
