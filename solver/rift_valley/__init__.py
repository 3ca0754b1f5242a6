"""Rift Valley Reserve: positions, reference engine, CP-SAT max-score model, generator."""
