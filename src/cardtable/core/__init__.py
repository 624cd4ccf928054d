"""The game-independent core: the protocol, errors and seeded shuffles."""
