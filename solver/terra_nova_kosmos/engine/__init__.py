"""The reference rules of Terra Nova (KOSMOS): legality, actions, scoring, search.

Imports only the floors and the shared modules (``rules``, ``position``,
``notation``, ``fileformat``); never ``model/``.
"""
