"""Rift Valley reference rules engine: legal draws, scoring, exhaustive search, full games.

Written from the rules document alone; it never imports the CP-SAT model
(``solver.rift_valley.model``), so the two check each other.
"""
