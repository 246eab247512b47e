"""A live contest (``league serve``): authors' versions, their validation, the league played on, its board.

The contest's state lives in the league folder: the authors, versions and submissions in its
``contest.sqlite`` (``league.store.authors``), each version's files under ``versions/`` and the games in
the league's own store. ``model`` (the types shared with the pages: a submission, the board),
``field`` (the league played now: the house bots and each author's newest valid version),
``play_loop`` (that league played on and on, started again on each new field), ``board`` (the
leaderboard: places, ratings, settled or not), ``submit`` (an upload accepted as a queued version, or
refused in one sentence: caps, archive, command), ``validation`` (a version's validation game in the jail,
and the queue that plays them), ``games`` (the stored games as the pages read them: a bot's games, one game,
the faults, stderr tails, replay pages), ``contest`` (the contest as one object, all the pages use: its threads,
what they read and do). The web pages that show it are ``league.serve``.

May import ``cluster``, ``plan``, ``store``, ``stats``, ``match`` and ``replay``; not ``report`` or ``cli``.
"""
