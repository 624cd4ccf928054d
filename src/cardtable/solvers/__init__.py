"""Solvers: full-knowledge tools that read the true state of a deal (hidden cards included).

They answer questions about a deal ("is it winnable, and how?"); they are not players. A bot
must never hand them a real state: bots see views only (``cardtable.bots``).
"""
