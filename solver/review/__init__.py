"""``boardsat review``: a game record reviewed turn by turn (or round by round).

:mod:`solver.review.run` replays the record and spreads the game's solves over an
executor; :mod:`solver.review.report` turns the review into figures, the worst turns
and the ``--json`` object; :mod:`solver.review.plot` and :mod:`solver.review.sheet`
draw it. The game decides what is solved (:meth:`solver.protocol.Game.review_tasks`).
"""
