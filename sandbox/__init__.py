"""Running ONE untrusted bot program: launching, line I/O with deadlines (the jail comes later)."""
