"""A policy trained by examples/rl_train.py as an external bot (docs/bot-protocol.md), so it
plays through ``cardtable simulate`` and ``cardtable tournament`` like any bot:

    cardtable tournament doublets --games 200 \
        --bots random,greedy,cmd:"python3 examples/rl_bot.py --model doublets-ppo.npz"

It reads each ``act`` message's view and legal actions, encodes them with the game's own
encoding (``cardtable.rl.encoding``: numpy, no PyTorch), and answers the policy's most likely
legal action, as ``MaskablePPO.predict(..., deterministic=True)`` does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

import numpy as np

from cardtable import games
from cardtable.rl.encoding import load_encoding


def policy(path: str) -> Callable[[np.ndarray], np.ndarray]:
    """The exported policy (rl_train.export_policy) as a function: observation -> logits."""
    data = np.load(path)
    activation = str(data["activation"])

    def act(x: np.ndarray) -> np.ndarray:
        return np.tanh(x) if activation == "tanh" else np.maximum(x, 0)

    layers = [(data[f"W{i}"], data[f"b{i}"]) for i in range(int(data["hidden"]))]
    out_w, out_b = data["Wa"], data["ba"]

    def logits(obs: np.ndarray) -> np.ndarray:
        x = obs
        for w, b in layers:
            x = act(w @ x + b)
        return out_w @ x + out_b

    return logits


def main() -> None:
    parser = argparse.ArgumentParser(description="a trained policy as a cardtable bot")
    parser.add_argument("--model", required=True, help="the .npz rl_train.py wrote")
    args = parser.parse_args()
    logits = policy(args.model)
    encodings = {}
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] != "act":
            continue  # "over", or a message type added later: nothing to answer
        view, legal = message["view"], message["legal"]
        key = (message["game"], view["players"])
        if key not in encodings:
            encodings[key] = load_encoding(games.get(message["game"]), view["players"], {})
        enc = encodings[key]
        scores = logits(enc.observe(view))
        scores[enc.mask(legal) == 0] = -np.inf  # only legal actions
        print(json.dumps({"action": enc.action(int(np.argmax(scores)))}), flush=True)


if __name__ == "__main__":
    main()
