"""Anabasis: a climb through a 4D room with two gravities.

The engine (``world``, ``levelfile``, ``rules``, ``solver``, ``codes``,
``gen``) is pure Python and imports neither pygame nor moderngl; the
renderer (``render``) and the game (``app``) sit on top of it.
"""

__version__ = "0.1.0"
