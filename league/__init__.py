"""The league runner, in wings: one subpackage a concern, imports running one way (down this list).

* ``league.cli``: the ``league`` command: argument parsing and one module a command.
* ``league.report``: the report folder: sections, tables, charts, the games list, the page.
* ``league.cluster``: Ray at the edge: the runner, the worker actors, joining Ray, shipping bot
  folders to nodes and their cache, ``league validate``'s estimate.
* ``league.replay``: a stored game played again, its page and player, a folder's replays.
* ``league.plan``: the league file and what it schedules: config, formats, schedules, the league
  seed, the cores a game needs, bots kept apart, the manifest (``league.json``).
* ``league.store``: the league folder's files: results and moves, what goes wrong writing or
  reading them, whether a folder is a league's.
* ``league.stats``: ratings and evidence: placing, TrueSkill, Bradley-Terry, pairwise tables,
  strength, cycles, the verdict, rule variants compared, the solo qualifier.
* ``league.match``: one match between bots: the referee, players and built-ins, commands, the
  in-process transport, the match record, bot text made inert.

``match`` and ``stats`` sit at the bottom beside ``engine/`` and ``sandbox/``; a wing imports only
wings below it (``tests/test_layout.py`` checks it), and Ray only in ``league.cluster``.
"""
