"""A tiny external bot for cardtable: plays any game with a random legal action.

Run it as a seat:  cardtable simulate slide --players 2 \
    --bots greedy,cmd:"python3 examples/bots/random_bot.py" --games 20

It speaks the protocol of docs/bot-protocol.md: one JSON message a line on stdin, one answer a
line on stdout. Standard library only. An optional first argument seeds its choices.
"""

import json
import random
import sys

rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else None)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        # a game starts: say who we are, and that this process can play the next one too
        reply = {"type": "hello", "name": "random_bot", "version": "2", "newgame": True}
        print(json.dumps(reply), flush=True)
    elif message["type"] == "act":
        # pile signals (The Game) are talk, not moves: skip them while there is a move
        moves = [a for a in message["legal"] if not a.startswith("signal ")]
        action = rng.choice(moves or message["legal"])
        print(json.dumps({"action": action}), flush=True)
    elif message["type"] == "over":
        print("game over:", message["result"]["scores"], file=sys.stderr)
    # "event", "newgame" and any other type: ignored (this bot remembers nothing)
