"""Ray at the edge: the only wing that imports Ray, and how a league's games reach the workers.

``runner`` (a league run: schedule, stored games skipped, records stored as they arrive),
``pool`` (long-lived worker actors, games in batches, a dead worker's games handed back),
``worker`` (one game played on a worker, as plain functions), ``session`` (joining Ray: a head
checked first, Ray's messages routed), ``shipping`` with ``bot_cache`` (bot folders to a cluster's
nodes, and each node's cache of them), ``estimate`` (``league validate``'s time and store estimate
from a few sampled games), ``live_tap`` (the games being played: their moves asked of the workers while
someone watches, handed to a sink such as ``league.live.games.LiveGames``).

May import: ``league.plan``, ``league.store``, ``league.stats``, ``league.match``, ``engine``, ``sandbox``.
"""
