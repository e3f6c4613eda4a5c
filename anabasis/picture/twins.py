"""The CPU twins of the shader's functions: the same sums in numpy, for the renderer's
choices made ahead of a frame (which cells the tunnel cuts, whether a ghost can show) and
for the tests that hold the shader to them.
"""

from __future__ import annotations

import math

import numpy as np

from anabasis.engine import cells  # noqa: F401 (the doctests)
from anabasis.picture.pose import FEET, FEET_MARGIN


def tunnel_cuts(centres: np.ndarray, u: dict) -> np.ndarray:
    """Which of the cells whose centres (4D, n x 4) are given the tunnel cutaway cuts, by the
    frame's uniforms ``u``: above the player's level, and within ``u_tunnel`` of the segment
    from the player's centre to the camera (slice coordinates).  The shader's ``tunnel``.
    """
    eye = np.asarray(u["u_eye"], float)
    s = ((centres - np.asarray(u["u_centre"], float)) @ u["u_basis"])[:, :3]
    k = np.clip((s @ eye) / (eye @ eye), 0.0, 1.0)
    off = s - k[:, None] * eye
    return (s[:, 2] > 0.5) & ((off * off).sum(axis=1) < u["u_tunnel"] ** 2)


def ghost_cells(codes: np.ndarray, step, code_range) -> np.ndarray:
    """The cells where the ghost's plane would show something, ``(n, 4)`` ints (x, y, z, w):
    those whose cell ``+ step`` holds a code in ``code_range`` (inclusive), from the
    texture's codes ``codes`` (``[w, z, y, x]``).  In a wrapped room w is the wrapped one.

    >>> grid = np.zeros((2, 1, 1, 3), np.uint8); grid[1, 0, 0, 2] = cells.BLOCK
    >>> ghost_cells(grid, (0, 0, 0, 1), (cells.BLOCK, cells.CRATE)).tolist()
    [[2, 0, 0, 0]]
    """
    lo, hi = code_range
    w, z, y, x = np.nonzero((codes >= lo) & (codes <= hi))
    return np.stack([x, y, z, w], axis=1) - np.asarray(step, dtype=np.int64)


def feet_plane_meets(corners: np.ndarray, basis: np.ndarray, origin, wrap: int = 0,
                     margin: float = FEET_MARGIN) -> np.ndarray:
    """Which of the unit cells whose corners are ``corners`` (``(n, 4)``, as
    :func:`ghost_cells` gives) the ghost's plane of a slice meets: exactly, with cells
    ``margin`` away counted as met.  ``wrap``: the room's W where w wraps (then a cell is met
    where one of its copies round the tower is), else 0.

    The plane is ``origin + basis[:, :3] @ (a, d, FEET)`` for every across ``a`` and depth
    ``d``; the shader draws a ghost only on it (in front of the camera, before the hit: this
    asks more, so no cell met is safe).  ``basis`` is a rotation, so the plane is where the
    point's coordinates along the up and hidden columns are fixed: it meets a cell where that
    pair lies in the cell's shadow on those two columns, a polygon whose edges run along the
    shadows of the four axes (a zonotope), tested edge by edge.

    >>> from anabasis.picture.views import view_basis
    >>> B = view_basis("stand")  # the player at (5, 5, 1, 3): the plane in the floor under it
    >>> feet_plane_meets(np.array([[0, 9, 0, 3], [5, 5, 1, 3], [5, 5, 0, 2]]), B,
    ...                  (5.5, 5.5, 1.5, 3.5)).tolist()
    [True, False, False]
    """
    B = np.asarray(basis, float)
    shadow = B[:, 2:4]  # each 4D axis's shadow on (up, hidden)
    target = np.asarray(origin, float) @ shadow + (FEET, 0.0)
    corners = np.asarray(corners).reshape(-1, 4)
    if wrap and math.hypot(*shadow[3]) < 0.1:
        return np.ones(len(corners), bool)  # w nearly in the plane: its copies reach too far
    size = np.hypot(shadow[:, 0], shadow[:, 1])
    edges = shadow[size > 1e-9]  # an axis lying in the plane has no edge
    normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
    reach = 0.5 * np.abs(shadow @ normals.T).sum(axis=0) + margin * size[size > 1e-9]
    # each cell's centre less the plane, along each edge's normal: met where all are in reach
    off = corners @ (shadow @ normals.T) + (0.5 * shadow.sum(axis=0) - target) @ normals.T
    if not wrap:
        return (np.abs(off) <= reach).all(axis=1)
    # Wrapped: a copy k turns round the tower is k * W * shadow[3] further along; met where an
    # integer k brings every normal's distance into reach.
    per_turn = wrap * (shadow[3] @ normals.T)
    moves = np.abs(per_turn) > 1e-12
    met = (np.abs(off[:, ~moves]) <= reach[~moves]).all(axis=1)
    ends = np.stack([(-reach[moves] - off[:, moves]) / per_turn[moves],
                     (reach[moves] - off[:, moves]) / per_turn[moves]])
    k_lo = np.min(ends, axis=0).max(axis=1, initial=-np.inf)
    k_hi = np.max(ends, axis=0).min(axis=1, initial=np.inf)
    return met & (np.ceil(k_lo) <= np.floor(k_hi))
