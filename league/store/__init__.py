"""A league folder's files: the results and moves store, and what goes wrong writing or reading it.

``results`` (``games.jsonl`` and ``moves.jsonl``: append-only, fsynced, a torn line detected) with
``lines`` (whole lines read, appended durably, a torn last line cut off),
``faults`` (a full disk, an unwritable folder, a damaged line, said for people), ``folder`` (the
folder's file names; whether a folder is a league's own, or why it cannot be written), ``authors``
(a contest's authors and their hashed tokens, in the folder's embedded database ``contest.sqlite``),
``uploads`` (an uploaded bot archive unpacked safely into its version's folder, or refused in one sentence),
``submissions`` (a contest's submitted versions and their validation, in the same database).

May import: ``league.match``, ``league.stats``, ``engine``.
"""
