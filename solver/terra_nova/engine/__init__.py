"""Terra Nova reference rules engine: turn legality, scoring, exhaustive search, playouts.

Written from the rules document alone; it never imports the CP-SAT model
(``solver.terra_nova.model``), so the two check each other.
"""
