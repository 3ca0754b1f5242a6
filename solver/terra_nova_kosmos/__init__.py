"""Terra Nova (KOSMOS 2022): factions, terraforming on a hex map, power bowls, towns.

A different game from Terra Nova (2006) in ``solver.terra_nova``; file key
``terra-nova-kosmos``. Shared modules here (``rules``, ``position``,
``fileformat``, ``notation``) are read by both the engine and the model.
"""
