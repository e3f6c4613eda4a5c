"""Hypothesis strategies that more than one test file draws from (no test file imports
another's helpers: they live here)."""

from __future__ import annotations

from hypothesis import strategies as st

from anabasis.engine.world import Room, State


@st.composite
def crowded_rooms(draw) -> Room:
    """A small room thick with crates (a floor in z and in w, mostly), wrapped or not."""
    X, Y = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    Z, W = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    shell = Room.empty((X, Y, Z, W), (0, 0, 0, 0), (0, 0, 0, 0))
    n = X * Y * Z * W
    raw = draw(st.lists(st.integers(0, 99), min_size=n, max_size=n))
    cells = bytearray()
    free = []
    for i, ((_, _, z, w), u) in enumerate(zip(shell.positions(), raw, strict=True)):
        floor = z == 0 or w == 0
        solid = u < 90 if floor else u >= 92
        cells.append((2 + u % 4 if u % 7 == 3 else 1) if solid else 0)
        if not solid:
            free.append(i)
    if len(free) < 2:
        cells[free[0] if free else 0] = 0
        free = [i for i, c in enumerate(cells) if c == 0] + [n - 1]
    pos = list(shell.positions())
    player = pos[free[draw(st.integers(0, len(free) - 1))]]
    goal = pos[free[draw(st.integers(0, len(free) - 1))]]
    density = draw(st.integers(20, 90))
    crates = [pos[i] for i, u in zip(free, raw, strict=False)
              if pos[i] != player and (u * 37) % 100 < density]
    return Room((X, Y, Z, W), bytes(cells), goal, State.of(player, crates),
                wrap=draw(st.booleans()))
