"""Alembic environment: migrations run on the connection the store hands over."""

from alembic import context

from cardtable.server.storage.store import Base

target_metadata = Base.metadata


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:  # command-line use: alembic -x url=...
        from sqlalchemy import create_engine

        url = context.get_x_argument(as_dictionary=True)["url"]
        with create_engine(url).begin() as connection:
            context.configure(
                connection=connection, target_metadata=target_metadata, render_as_batch=True
            )
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
