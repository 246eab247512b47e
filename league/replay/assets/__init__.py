"""Static files of replay pages: the player, its styles, shared board drawing (league/replay/page.py)."""
