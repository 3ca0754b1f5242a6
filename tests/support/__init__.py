"""Helpers the tests share: running the real command, seeded random positions per game,
solver spies and exhaustive oracles."""
