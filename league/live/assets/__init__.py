"""The live pages' scripts (read with ``importlib.resources``)."""
