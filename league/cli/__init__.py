"""The ``league`` command: argument parsing and one module a command; the top of the package.

``main`` (the entry point: sub-commands assembled, user mistakes as one line), ``args`` (shared
arguments and ``UsageError``), ``play`` (``league play``), ``run`` (``league run``), ``validate``,
``plan`` (a design simulated on guessed strengths), ``report``, ``games``, ``standings``, ``compare``,
``replay``, ``authors`` (``league authors``: a contest's authors), ``serve`` (``league serve``: a live
contest's server), ``submit`` (``league submit``: a version sent to a contest), and ``league bot``
in ``play``; what ``run``, ``validate`` and ``report`` share:
``league_file`` (a league loaded and checked whole), ``cluster_join`` (the cluster asked for, checked,
joined) and ``plan_text`` (the plan and warnings told); what ``standings`` and ``run`` share:
``standings_table`` (the standings table as the terminal shows it).

May import any wing. The command modules do not import each other, only the shared modules above
(``args``, ``league_file``, ``cluster_join``, ``plan_text``, ``standings_table``); ``main`` assembles them.
"""
