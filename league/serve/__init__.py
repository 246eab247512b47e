"""The contest's web server (``league serve``): a Starlette app over a ``league.contest.contest.Contest``.

``app`` (``create_app``: the routes and the middleware assembled), ``state`` (what every handler
shares: the contest, sessions, limits, the live board, who asks), ``layout`` (the page frame, the
escaping of every bot text, the viewer), ``auth`` (sessions, CSRF tokens, the failed-login limit,
the origin check), ``forms`` (a state-changing form taken or refused), ``security`` (the headers
every answer carries, the body's size cap), ``upload`` (a version's upload, for the form and the API
alike), ``live`` (the board's live stream: newest board only, never a queue), ``game_rows`` (stored
games as table rows), one module a page: ``board_page`` (the leaderboard),
``bot_page`` (a bot's versions, games and faults), ``replay`` (a game's replay, sandboxed),
``organiser`` (the organiser's page), ``login`` (log in and out), ``submit_page`` (a version
uploaded by form, a submission's status); ``api`` (the JSON API that ``league submit`` uses); and
``listen`` (a server's socket bound before anything starts, and uvicorn with our settings, for ``league serve``
and ``league run --live``).
``static/`` holds the pages' style sheet and the live board's script.

The pages read and change the contest through the ``Contest`` object alone.

May import ``contest`` (its model), ``live`` (the live games' pages), ``stats`` and ``match``; not ``cli``.
"""
