"""The ``league`` command: argument parsing and one module a command; the top of the package.

``main`` (the entry point: sub-commands assembled, user mistakes as one line), ``args`` (shared
arguments and ``UsageError``), ``play`` (``league play``), ``run`` (``league run``, ``validate``,
``report``), ``games``, ``standings``, ``compare``, ``replay``, and ``league bot`` in ``play``.

May import any wing. The command modules do not import each other; ``main`` assembles them.
"""
