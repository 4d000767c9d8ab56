"""Alembic's environment for the records: run from `kikimimi.records.schema.migrate` on its connection.

Each revision runs in its own transaction (on SQLite too: the store's engine makes the driver emit
BEGIN for DDL), so a failed step leaves the database at the revision before it. On SQLite each step
also sets `PRAGMA user_version` to its number, inside that transaction: an older kikimimi, which reads
only user_version, then refuses a newer file.
"""

from __future__ import annotations

from typing import Any

from alembic import context


def _follow_user_version(ctx: Any, step: Any, heads: Any, run_args: Any) -> None:
    if ctx.connection.dialect.name == "sqlite" and step.is_upgrade:
        ctx.connection.exec_driver_sql(f"PRAGMA user_version = {int(step.up_revision_id)}")


connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the records migrations through kikimimi.records.schema.migrate")
context.configure(
    connection=connection,
    transaction_per_migration=True,
    on_version_apply=_follow_user_version,
)
with context.begin_transaction():
    context.run_migrations()
