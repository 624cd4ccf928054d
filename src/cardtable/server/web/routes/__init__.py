"""The HTTP routes, one ``APIRouter`` per area, which ``app.create_app`` includes: the
pages (``pages``), people and their recovery codes (``people``), bot accounts
(``bot_accounts``), games and tables (``tables``), a seated person's table tools (``tools``) and
finished games (``history``). The table's websocket is ``web.socket``."""
