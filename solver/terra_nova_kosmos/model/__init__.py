"""The CP-SAT models of Terra Nova (KOSMOS) puzzles.

Imports only the floors and the shared modules; never ``engine/``.
"""
