"""codevs21: CODE VS 2.1's "make the sum S" falling-block puzzle (rules/codevs21.md).

Groundwork, not registered yet: the packs and generator (``packs.py``), the field with its
chains and scores (``field.py``) and the solo game (``solo.py``). The versus mode, the protocol,
the built-in bots and the ``Game`` class come next.
"""
