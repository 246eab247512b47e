"""The report folder of a league: ``report.md``, ``index.html``, CSV tables and PNG charts.

``build`` (writes the folder), ``page`` (sections, tables and bullets as Markdown and HTML),
``header``, ``tables``, ``charts``, ``strength``, ``variants`` with ``variant_charts``, ``faults``,
``games`` with its script ``games.js`` (the games list), ``solo``, ``sprt`` (an SPRT league's verdict
and why it stopped), ``adaptive`` (an adaptive league's section: why it stopped, its claims, games per
pair, its settling), ``swiss`` (a Swiss league's standings with tie-breaks and its rounds),
``all_faults`` (a league whose every game ended in a fault: standings, no ratings), ``replays``.

May import: ``league.replay``, ``league.plan``, ``league.store``, ``league.stats``, ``league.match``, ``engine``.
"""
