"""How much empty room there is round each cell: what lets the ray tracer skip empty space.

The ray tracer walks the 4D grid one cell at a time.  Most of a room is
empty, and a ray crossing it reads a texel per cell only to learn that it is
still empty.  :func:`clearance` tells, for each empty cell, how far (in
cells, along all four axes at once) the nearest cell that is not empty is:
an empty cell with clearance ``r`` lies at the centre of an empty box of
``2r - 1`` cells a side, and the shader jumps a ray straight to where it
leaves that box.  The clearance travels in the same texel as the cell's
code (:func:`pack`), so the jump costs no second read.

:func:`occupied_box` is the other half: the smallest box holding every cell
that is not empty, which each ray is clipped to before it walks at all.

>>> import numpy as np
>>> grid = np.zeros((1, 1, 1, 7), np.uint8)   # [w, z, y, x]: a row of seven cells
>>> grid[0, 0, 0, 0] = 1                       # a block at x = 0
>>> clearance(grid, wrap=False)[0, 0, 0].tolist()
[0, 1, 2, 3, 4, 5, 6]
"""

from __future__ import annotations

import numpy as np

#: A texel (16 bits) holds the cell's code (anabasis.engine.cells) in its low bits ...
CODE_BITS = 4
CODE_MASK = (1 << CODE_BITS) - 1
#: ... a mark on a solid cell that the tunnel cutaway cuts this frame (set by the renderer) ...
CUT = 1 << CODE_BITS
#: ... whether each of its eight neighbours (one cell along -x, +x, -y, ..., +w: bit
#: ``NEAR_SHIFT + 2 * axis + (1 on the + side)``) is not empty: what the shading's occlusion
#: and footing ask of the empty cell in front of a face, in one read ...
NEAR_SHIFT = CODE_BITS + 1
NEAR_MASK = 0xFF << NEAR_SHIFT


def near_bit(axis: int, side: int) -> int:
    """The texel bit saying the neighbour one cell along ``axis`` (0-3: x, y, z, w) on
    ``side`` (-1 or +1) is not empty."""
    return 1 << (NEAR_SHIFT + 2 * axis + (side > 0))


#: ... among them, the cell kata of it (w - 1) and the one below it (z - 1): what the
#: footing asks of the cell a mover would stand in ...
KATA_SOLID = near_bit(3, -1)
BELOW_SOLID = near_bit(2, -1)
#: ... and the clearance above them (the top bits: a shift alone reads it).
CLEAR_SHIFT = NEAR_SHIFT + 8
CLEAR_BITS = 3
#: The most clearance a texel can say (three bits).
MAX_CLEARANCE = (1 << CLEAR_BITS) - 1
#: The texel of a cut cell: stepped past like an empty cell of clearance 1, code kept.
CUT_CLEARANCE = 1 << CLEAR_SHIFT


def clearance(grid: np.ndarray, wrap: bool) -> np.ndarray:
    """Per cell of ``grid`` (indexed ``[w, z, y, x]``), the Chebyshev distance to the nearest
    cell that is not empty: 0 for those cells themselves, at most :data:`MAX_CLEARANCE`.

    Outside the grid counts as empty (a ray that leaves the grid stops anyway), except along
    w where the room wraps: there w is taken round (and the clearance is at most W, so that a
    jump along w never goes more than once round the tower).
    """
    solid = grid != 0
    W = grid.shape[0]
    cap = min(MAX_CLEARANCE, W) if wrap else MAX_CLEARANCE
    out = np.full(grid.shape, cap, np.uint8)
    out[solid] = 0
    reached = solid
    for r in range(1, cap):
        if reached.all():
            break
        reached = _grow(reached, wrap)
        out[reached & (out == cap)] = r
    return out


def _grow(mask: np.ndarray, wrap: bool) -> np.ndarray:
    """``mask`` grown by one cell along every axis and diagonal (the 3^4 neighbourhood)."""
    for axis in range(4):
        grown = mask.copy()
        if axis == 0 and wrap:
            grown |= np.roll(mask, 1, axis=0) | np.roll(mask, -1, axis=0)
        else:
            lo = [slice(None)] * 4
            hi = [slice(None)] * 4
            lo[axis], hi[axis] = slice(None, -1), slice(1, None)
            grown[tuple(hi)] |= mask[tuple(lo)]
            grown[tuple(lo)] |= mask[tuple(hi)]
        mask = grown
    return mask


def pack(grid: np.ndarray, wrap: bool) -> np.ndarray:
    """The texels of ``grid`` (uint16): each cell's code in the low bits, which of its
    neighbours are solid (:func:`near`, :func:`support` among them), its clearance in the
    high bits.

    >>> import numpy as np
    >>> t = pack(np.array([1, 0, 0], np.uint8).reshape(1, 1, 1, 3), wrap=False).ravel()
    >>> t.tolist() == [1, near_bit(0, -1) | 1 << CLEAR_SHIFT, 2 << CLEAR_SHIFT]
    True
    """
    return (grid.astype(np.uint16) | near(grid, wrap)
            | (clearance(grid, wrap).astype(np.uint16) << CLEAR_SHIFT))


def near(grid: np.ndarray, wrap: bool) -> np.ndarray:
    """Per cell of ``grid`` (``[w, z, y, x]``), :func:`near_bit` for each neighbour (one cell
    along an axis) that is not empty: outside the grid is empty, except along w where the room
    wraps (taken round).

    >>> import numpy as np
    >>> g = np.zeros((1, 1, 1, 3), np.uint8); g[0, 0, 0, 1] = 1   # a block at x = 1
    >>> near(g, wrap=False).ravel().tolist() == [near_bit(0, 1), 0, near_bit(0, -1)]
    True
    """
    solid = grid != 0
    out = np.zeros(grid.shape, np.uint16)
    for axis in range(4):
        along = 3 - axis
        for side in (-1, 1):
            # the neighbour at c + side along the axis, as an array over c
            other = np.roll(solid, -side, axis=along)
            if not (wrap and axis == 3):
                edge = [slice(None)] * 4
                edge[along] = -1 if side > 0 else 0
                other[tuple(edge)] = False
            out[other] |= near_bit(axis, side)
    return out


def support(grid: np.ndarray, wrap: bool) -> np.ndarray:
    """Per cell of ``grid`` (``[w, z, y, x]``), :data:`KATA_SOLID` where the cell kata of it is
    not empty (taken round where w wraps; outside the grid is empty) and :data:`BELOW_SOLID`
    where the cell below it is not.

    >>> import numpy as np
    >>> g = np.zeros((2, 2, 1, 1), np.uint8); g[0, 0] = 1   # a block at z = 0, w = 0
    >>> support(g, wrap=False)[:, :, 0, 0].tolist() == [[0, BELOW_SOLID], [KATA_SOLID, 0]]
    True
    """
    solid = grid != 0
    out = np.zeros(grid.shape, np.uint16)
    kata = np.roll(solid, 1, axis=0)
    if not wrap:
        kata[0] = False
    out[kata] |= KATA_SOLID
    below = np.zeros_like(solid)
    below[:, 1:] = solid[:, :-1]
    out[below] |= BELOW_SOLID
    return out


#: A room is walked with empty-space skipping when at least this share of the empty cells in
#: its occupied box are SKIP_CLEARANCE or more from anything: a jump costs about 2.3 plain DDA
#: steps on llvmpipe, so dense rooms (every shipped level, the bench's terraces) are quicker
#: stepped cell by cell, and open ones skipping (8-15% at 1280x720; docs/render.md).
SKIP_SHARE = 0.25
SKIP_CLEARANCE = 3


def worth_skipping(grid: np.ndarray, wrap: bool) -> bool:
    """Whether rays through ``grid`` (``[w, z, y, x]``) are quicker with empty-space skipping
    (the shader's ``SKIP`` variant) than stepped one cell at a time.

    >>> import numpy as np
    >>> g = np.zeros((4, 8, 8, 8), np.uint8); g[:, 0] = 1   # a floor ...
    >>> g[3, 7, 7, 7] = 1                                   # ... and a block high over it
    >>> worth_skipping(g, wrap=False), worth_skipping(g[:, :3], wrap=False)
    (True, False)
    """
    lo, hi = occupied_box(grid)
    box = clearance(grid, wrap)[lo[3]:hi[3], lo[2]:hi[2], lo[1]:hi[1], lo[0]:hi[0]]
    empty = box[box > 0]
    return empty.size > 0 and float((empty >= SKIP_CLEARANCE).mean()) >= SKIP_SHARE


def occupied_box(grid: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The least box ``(lo, hi)`` (x, y, z, w; ``hi`` exclusive) holding every cell of ``grid``
    that is not empty; an empty box ``((0,) * 4, (0,) * 4)`` when there is none.

    >>> import numpy as np
    >>> g = np.zeros((2, 3, 4, 5), np.uint8); g[1, 0, 2, 3] = 1
    >>> occupied_box(g)
    ((3, 2, 0, 1), (4, 3, 1, 2))
    """
    where = np.nonzero(grid)
    if len(where[0]) == 0:
        return (0, 0, 0, 0), (0, 0, 0, 0)
    w, z, y, x = where
    lo = (int(x.min()), int(y.min()), int(z.min()), int(w.min()))
    hi = (int(x.max()) + 1, int(y.max()) + 1, int(z.max()) + 1, int(w.max()) + 1)
    return lo, hi
