"""A meeting over several tables: the host (an HTTP API over the records store, the venue's standings
page, live updates) and each table's link to it (join, state heartbeat, a durable outbox of results).

`host.create_app` is the host, `client.HostLink` a table's side of the API, `tablerun.run_table` a live
table playing its share of a meeting, `cli` the `kikimimi venue` commands, `bench` the scale figures.
"""
