"""The HTTP routes, one ``APIRouter`` per area, which ``app.create_app`` includes: the
pages (``pages``), people and their recovery codes (``people``), bot accounts
(``bot_accounts``), games and tables (``tables``), a seated person's table tools (``tools``),
finished games (``history``), their reviews (``reviews``), and practice tables and
tutorials (``practice``). The table's websocket is ``web.socket``."""
