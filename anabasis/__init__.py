"""Anabasis: a climb through a 4D room with two gravities.

The layers, each a folder, each importing only those before it:
``engine`` (the room, the rules, the solver; standard library only),
``formats`` (level text, room codes, the shipped levels), ``gen`` (rooms
made from a seed), ``picture`` (views and the ray tracer), ``app`` (the
game), and ``cli`` on top; ``bench`` measures them all.  ``levels/``,
``shaders/`` and ``assets/`` install as package data (``anabasis.levels``,
``anabasis.shaders``, ``anabasis.assets``), read through ``importlib.resources``.
"""

__version__ = "0.1.0"
