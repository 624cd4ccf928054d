"""The server's language, below every other part: every message of the HTTP and websocket
API as a pydantic model (``messages``), the limits a client is held to (``limits``), and how a
bot is named for people (``names``). Imports nothing of the server.
"""
