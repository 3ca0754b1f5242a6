"""Terra Nova CP-SAT model: the turn model and its geometric precomputation.

Written from the rules document alone; it never imports the reference engine
(``solver.terra_nova.engine``), so the two check each other.
"""
