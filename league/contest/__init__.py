"""A live contest (``league serve``): authors' versions, their validation, the league played on, its board.

The contest's state lives in the league folder: the authors, versions and submissions in its
``contest.sqlite`` (``league.store.authors``, ``league.store.submissions``), each version's files under
``versions/`` and the games in the league's own store. The web pages that show it are ``league.serve``.
"""
