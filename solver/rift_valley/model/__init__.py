"""Rift Valley CP-SAT model: the max-score model and its candidate trail shapes.

Written from the rules document alone; it never imports the reference engine
(``solver.rift_valley.engine``), so the two check each other.
"""
