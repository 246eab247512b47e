"""One match between bots: what seats play, how the referee runs them, and what a match leaves.

``referee`` (one loop for every game: requests sent, replies awaited with deadlines and judged),
``seat_processes`` (each seat's processes started, greeted and stopped; their stderr), ``reply_clock``
(how a reply is timed and charged), ``reply_faults`` (a reply's faults as data, with their details),
``record`` (what a match leaves: replies, stderr, result; clock settings), ``players`` (who sits at
a seat: programs in the jail or built-ins), ``bot_spec`` (a seat's bot as data), ``builtins`` (built-in
bots and their parameters), ``commands`` (checking a command line), ``inprocess`` (a built-in
driven in-process), ``fault_hints`` (what a fault's detail tells a bot author), ``inert`` (what a
bot wrote, shown inert on a terminal, in Markdown and CSV), ``did_you_mean`` (the nearest valid
name of a mistyped key).

May import: ``engine``, ``sandbox``. Nothing else of ``league``.
"""
