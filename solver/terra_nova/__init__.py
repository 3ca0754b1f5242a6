"""Terra Nova (Winning Moves 2006): positions, reference engine, CP-SAT models, generator."""
