"""A stored game played again: exactly, on a virtual clock, and shown in the browser or a terminal.

``rebuild`` (a record's game played again from its moves), ``live_replay`` (a game played again while it is
played, its frames as its moves come), ``page`` with ``assets/`` (the
self-contained page and its player), ``files`` (a league folder's replays and highlights),
``command`` (the ``league play`` line that plays a stored game again), ``recorded`` (what the stored
games say of their league: game, rules, bots, rules of play, for a folder without ``league.json``).

May import: ``league.plan``, ``league.store``, ``league.stats``, ``league.match``, ``engine``.
"""
