"""Running ONE untrusted bot program: the jail, its limits, its pipes and line I/O with deadlines.

Nothing here knows a game: ``league`` decides what to send and how to judge the replies.
"""
