"""The league file and what it schedules, before anything plays.

``config`` (the YAML file read and validated into typed objects) with ``config_schema`` (its keys as
pydantic models), ``formats`` (one module a format behind one interface, registered in ``FORMATS``:
what it plays first and next, when it is done, its checks and words), ``schedule`` with ``table_draw``
(round robin, gauntlet, tables, solo) and ``game_spec`` (one game and its id), ``league_schedule``
(what a league's format plays from, settled once a command: its seed, fingerprints, openings),
``seed`` (the league seed: the file's, or drawn and kept secret), ``cores`` (the cores a game needs),
``bot_folders`` (bots kept apart) with ``shown_paths`` (what else a jail shows), ``manifest`` (what
the folder's ``league.json`` holds: the plan and its runs), ``sequential`` (an SPRT league's test, fed
its pairs in schedule order as they are stored), ``adaptive_batches`` (an adaptive league's warm-up
and batches, each planned from completed ones) with ``adaptive`` (its batches as games, fed the stored
games) and ``adaptive_simulation`` (adaptive and round-robin leagues simulated on the synthetic game's
model), ``design_simulation`` (a league's design and the others that fit its bots, simulated on
guessed strengths), ``format_simulation`` (any format played through its real run on drawn games)
with ``format_comparison`` (the formats that fit a field, sized to one budget of games), and
``swiss_pairing`` (a Swiss round paired from the standings by maximum-weight matching) with
``swiss_lookahead`` (a pairing that leaves the later rounds one without repeats) and
``swiss_standings`` (its scores, Buchholz and Sonneborn-Berger).

May import: ``league.store``, ``league.stats``, ``league.match``, ``engine``, ``sandbox``.
"""
