"""Ratings and evidence, from stored results alone: pure functions of records, no files, no Ray.

``game_record`` (a stored game as one type, ``GameRecord``: what a results line holds, built by the
store and read by every wing above), ``placing`` (a result seat by seat: each seat's own fault, its
place as the league counts it),
``ratings`` with ``trueskill_fast`` (the standings' counts, TrueSkill in schedule order),
``ranking`` (the standings' one order: Bradley-Terry on every game at once), ``bradley_terry`` (the
order-free fit), ``pairwise`` (head-to-head tables), ``strength`` (bootstrap, LOS, place
probabilities), ``evidence``, ``cycles``, ``separation`` (groups that never lost a point to
the groups below: gaps the data bound from below only) and ``verdict`` (are strong programs strong?),
``analysis`` (what the report's strength section shows), ``ties`` (bots best first by
ratings; exact ties by name, sharing a place), ``variant_*`` (rule variants compared on
paired seeds; ``variant_ranks``: does the rule change who is strong, with an interval), ``sprt``
(is a candidate better than its baseline? the GSPRT on pentanomial pairs, as fishtest and
fastchess), ``active_ranking`` (an adaptive league's intervals, claims about neighbours and where
its next games go), ``qualifier`` (solo leagues ranked as the CODE VS 2.1 qualifier was).

May import: ``engine``. Nothing of ``league`` outside ``league.stats``.
"""
