"""Games shown as they are played: the moves a run's workers judge, replayed into public frames for live pages.

``games`` (the games being played now and just ended, each replayed by ``league.replay.live_replay`` as its
moves come, its frames as spectators may see them: the run's ``league.cluster.live_tap`` feeds it), ``page``
(the live pages' HTML: the list of games, one game's page with its viewer and ``assets/live_player.js``),
``pages`` (their routes and streams, mounted by the contest's app, and the app ``league run --live`` serves).

May import ``replay``, ``plan``, ``store``, ``stats`` and ``match``; not ``cluster`` (a run hands it moves), ``report``,
``contest``, ``serve`` or ``cli``.
"""
