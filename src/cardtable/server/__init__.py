"""The online adapter: a FastAPI server, SQL storage and the browser client.

``store`` keeps tables, seats, actions and players (SQLAlchemy; SQLite by default, PostgreSQL
by URL); ``hub`` holds the live tables and is the one writer per table; ``app`` is the HTTP and
websocket surface; ``static/`` the browser client.
"""
