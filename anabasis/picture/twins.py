"""The CPU twins of the shader's functions: the same sums in numpy, for the renderer's
choices made ahead of a frame (which cells the tunnel cuts, whether a ghost can show) and
for the tests that hold the shader to them, with the tests' whole-frame reference beside
them (:func:`reference_hits`: which cell and face each pixel sees, the shader's walk redone).
"""

from __future__ import annotations

import math

import numpy as np

from anabasis.engine import cells
from anabasis.engine.world import Room, State
from anabasis.picture.pose import (
    CRATE_INSET,
    FACE_INSIDE,
    FACE_MISS,
    FEET,
    FEET_MARGIN,
    HAIR,
    MAX_STEPS,
    NEVER,
    SNAP,
    WINDOW_CENTRE,  # noqa: F401 (the window's, here with its twin)
    WINDOW_RADIUS,  # noqa: F401
    Pose,
    frame_uniforms,
)


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


#: Points of the pawn (slice coordinates from the player's centre) whose sight lines say
#: whether it is hidden: the body's bottom, middle and sides, the head's middle and top.
_PAWN_POINTS = np.array([[0.0, 0.0, -0.40], [0.0, 0.0, -0.14], [0.26, 0.0, -0.14],
                         [-0.26, 0.0, -0.14], [0.0, 0.26, -0.14], [0.0, -0.26, -0.14],
                         [0.0, 0.0, 0.27], [0.0, 0.0, 0.42]])


def window_cells(centres: np.ndarray, u: dict, cut: np.ndarray | None = None,
                 wrap: int = 0) -> tuple[bool, np.ndarray]:
    """Whether a drawn cell (centres 4D, n x 4; ``cut`` those left out: the tunnel takes
    them, or they are crates, which the window never cuts) stands between
    the eye and a point of the pawn, of those the window round the pawn steps past (the
    shader's ``hides_pawn``: at the pawn's level or above, nearer the eye than the pawn); and
    which of the cells the window may step past (a mask over ``centres``; none where the pawn
    is not hidden): those near the pawn's sight line.  ``wrap``: the room's W where w wraps.

    The cells in the slice only, and under the ceiling; each as the unit cube round its
    centre in the slice (exact at rest, near enough through a turn).
    """
    none = np.zeros(len(centres), bool)
    if len(centres) == 0:
        return False, none
    centre = np.asarray(u["u_centre"], float)
    d4 = centres - centre
    if wrap:
        d4 = d4.copy()
        d4[:, 3] -= wrap * np.round(d4[:, 3] / wrap)
    B = np.asarray(u["u_basis"], float)
    s = d4 @ B
    eye = np.asarray(u["u_eye"], float)
    # in the slice drawn, or in either slice of a cross-fade
    origins = [u["u_origin"]] + ([u["u_origin_b"]] if u.get("u_fade", 0.0) > 0.0 else [])
    in_slice = np.zeros(len(s), bool)
    for origin in origins:
        in_slice |= np.abs(s[:, 3] - (np.asarray(origin, float) - centre) @ B[:, 3]) < 0.5 - 1e-6
    keep = in_slice & (s[:, 2] > -0.5) & (s[:, 2] < u["u_ceiling"] + 0.5 - 1e-6)
    if cut is not None:
        keep &= ~cut
    # nearer the eye than the pawn, and near its sight line at all
    to_pawn = -eye / np.linalg.norm(eye)
    rel = s[:, :3] - eye
    k = np.clip(rel @ to_pawn, 0.0, None)
    off = rel - k[:, None] * to_pawn
    keep &= ((s[:, :3] @ to_pawn) < -0.3) & ((off * off).sum(axis=1) < 1.6 ** 2)
    near = s[keep, :3]
    if len(near) == 0:
        return False, none
    # each sight line (eye to a point of the pawn) against each cube: the slab test
    d = _PAWN_POINTS - eye                            # (p, 3), t in (0, 1) reaches the point
    safe = np.where(np.abs(d) < 1e-9, 1e-9, d)
    lo = (near[:, None, :] - 0.5 - eye) / safe[None]  # (c, p, 3)
    hi = (near[:, None, :] + 0.5 - eye) / safe[None]
    tn = np.minimum(lo, hi).max(axis=2)
    tf = np.maximum(lo, hi).min(axis=2)
    hidden = bool(((tn < tf) & (tf > 0.0) & (tn < 1.0)).any())
    return hidden, (keep if hidden else none)


def pawn_hidden(centres: np.ndarray, u: dict, cut: np.ndarray | None = None,
                wrap: int = 0) -> bool:
    """Whether a drawn cell hides a point of the pawn (:func:`window_cells`' first answer):
    the frame opens the window round the pawn only then."""
    return window_cells(centres, u, cut, wrap)[0]


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


# -- the tests' reference: the whole frame, pixel by pixel ---------------------------------


def reference_hits(room: Room, state: State, pose: Pose, size: tuple[int, int]):
    """Which cell and face each pixel of a ``size`` frame sees, in float64: (index, face),
    rows top first.  The tests' reference for the shader's ``traverse``: the same walk (entry
    a hair past the grid, one axis a step, ties to the earlier axis, w wrapped by
    compare-and-add, the ceiling, the wrap band and the tunnel cut away), done plainly on
    every pixel at once, never by the game."""
    u, _ = frame_uniforms(room, pose, size)
    W_px, H_px = size
    X, Y, Z, W = room.size
    grid = np.frombuffer(room.cells, dtype=np.uint8).reshape(W, Z, Y, X).copy()
    for x, y, z, w in state.crates:
        grid[w, z, y, x] = cells.CRATE
    eye = np.asarray(u["u_eye"])
    d, ro, rd = pixel_rays(u, size)
    n = len(d)
    size4 = np.array(room.size, float)
    moving = np.abs(rd) > 1e-9
    inv = np.where(moving, 1.0 / np.where(moving, rd, 1.0), 0.0)
    t1 = -ro * inv
    t2 = (size4 - ro) * inv
    tn, tf = np.minimum(t1, t2), np.maximum(t1, t2)
    inside = (ro >= 0) & (ro <= size4)
    never = NEVER
    tn = np.where(moving, tn, np.where(inside, -never, never))
    tf = np.where(moving, tf, np.where(inside, never, -never))
    if room.wrap:
        tn[:, 3], tf[:, 3] = -never, never
    tnear, tfar = tn.max(axis=1), tf.min(axis=1)
    cut_lo, cut_hi = ceiling_cut(eye, d, u["u_ceiling"])
    if room.wrap:
        cut_lo, cut_hi = wrap_band_cut(ro, rd, u["u_wband"], cut_lo, cut_hi)
    t0 = np.maximum(np.maximum(tnear, 0.0), cut_lo)
    cut_hi = np.minimum(cut_hi, u["u_far"])
    t_end = np.minimum(tfar, cut_hi)
    alive = t0 < t_end
    with np.errstate(invalid="ignore", over="ignore"):
        budget = np.minimum(MAX_STEPS,
                            ((t_end - t0) * np.abs(rd).sum(axis=1)).clip(-1, 1e9).astype(int) + 4)
    p = ro + rd * (t0 + HAIR)[:, None]
    c = np.floor(p).astype(np.int64)
    lo = np.array([0, 0, 0, -(1 << 20) if room.wrap else 0])
    hi = np.array([X - 1, Y - 1, Z - 1, (1 << 20) if room.wrap else W - 1])
    c = np.clip(c, lo, hi)
    w = c[:, 3] % W if room.wrap else c[:, 3].copy()
    step_of = (np.sign(rd) * moving).astype(np.int64)
    tmax = np.where(moving, (c + (rd > 0) - ro) * inv, never)
    tdelta = np.where(moving, np.abs(inv), never)
    index = np.full(n, -1)
    face = np.zeros(n, dtype=np.int64)
    found = np.zeros(n, dtype=bool)
    rows = np.arange(n)

    def in_grid():
        return (np.all(c[:, :3] >= 0, axis=1) & np.all(c[:, :3] < (X, Y, Z), axis=1)
                & (w >= 0) & (w < W))

    def step(mask):
        nonlocal w
        m = tmax.min(axis=1)
        pick = np.argmax(tmax == m[:, None], axis=1)  # the first of the ties
        r, k = rows[mask], pick[mask]
        c[r, k] += step_of[r, k]
        w = np.where(mask & (pick == 3), w + step_of[:, 3], w)
        if room.wrap:
            w = np.where(w < 0, w + W, w)
            w = np.where(w >= W, w - W, w)
        tmax[r, k] += tdelta[r, k]

    # The bare DDA.
    for i in range(MAX_STEPS):
        alive &= in_grid() & (i < budget)
        if not alive.any():
            break
        code = np.zeros(n, dtype=np.uint8)
        a = np.nonzero(alive)[0]
        code[a] = grid[w[a], c[a, 2], c[a, 1], c[a, 0]]
        # (c keeps the unwrapped w; the tunnel never takes a crate)
        hit = alive & (code != 0) & (~tunnel_cuts(c + 0.5, u) | (code == cells.CRATE))
        # A crate is met only in its inset box (the shader's crate_box); past its sides the
        # walk goes on.
        crate = hit & (code == cells.CRATE)
        box_t = np.full(n, never)
        box_axis = np.zeros(n, dtype=np.int64)
        if crate.any():
            r = np.nonzero(crate)[0]
            inset = np.array([CRATE_INSET, CRATE_INSET, 0.0, 0.0])
            with np.errstate(divide="ignore", invalid="ignore"):
                a1 = (c[r] + inset - ro[r]) * inv[r]
                a2 = (c[r] + 1.0 - inset - ro[r]) * inv[r]
            inside_box = (ro[r] >= c[r] + inset) & (ro[r] <= c[r] + 1.0 - inset)
            bn = np.where(moving[r], np.minimum(a1, a2), np.where(inside_box, -never, never))
            bf = np.where(moving[r], np.maximum(a1, a2), np.where(inside_box, never, -never))
            a, b = bn.max(axis=1), bf.min(axis=1)
            met = (a <= b) & (b > 0.0)
            box_t[r] = np.where(met, a, never)
            box_axis[r] = np.argmax(bn == a[:, None], axis=1)
            hit[r[~met]] = False
        index[hit] = (c[hit, 0] + X * (c[hit, 1] + Y * (c[hit, 2] + Z * w[hit])))
        # The face: the latest crossing into the cell (a crate's box), unless the ray began
        # inside it.
        enter = np.where(moving[hit], tmax[hit] - tdelta[hit], -never)
        on_crate = crate[hit]
        enter[on_crate] = np.where(
            np.arange(4)[None, :] == box_axis[hit][on_crate][:, None],
            box_t[hit][on_crate][:, None], -never)
        latest = enter.max(axis=1)
        ax = np.where(latest >= t0[hit] - SNAP,
                      np.argmax(enter == latest[:, None], axis=1), -1)
        sgn_neg = rd[hit, np.maximum(ax, 0)] < 0
        face[hit] = np.where(ax < 0, FACE_INSIDE, 1 + 2 * ax + sgn_neg)
        found[hit] = np.maximum(latest, t0[hit]) <= cut_hi[hit]
        alive &= ~hit
        step(alive)
    index[~found] = -1
    face[~found] = FACE_MISS
    return index.reshape(H_px, W_px), face.reshape(H_px, W_px)


def pixel_rays(u: dict, size: tuple[int, int]):
    """Each pixel's ray, rows top first: (slice direction, 4D origin, 4D direction), flattened."""
    W_px, H_px = size
    B = u["u_basis"]
    eye, fwd, right, up = (np.asarray(u[k]) for k in ("u_eye", "u_fwd", "u_right", "u_up"))
    px, py = np.meshgrid(np.arange(W_px) + 0.5, np.arange(H_px) + 0.5)
    py = py[::-1]  # rows top first, as read back
    res = np.array([W_px, H_px], float)
    ndc_x = (2 * px - res[0]) / res[1]
    ndc_y = (2 * py - res[1]) / res[1]
    tan = u["u_tan"]
    d = (fwd[None, None, :] + ndc_x[..., None] * tan * right + ndc_y[..., None] * tan * up)
    d /= np.linalg.norm(d, axis=-1, keepdims=True)
    d = d.reshape(-1, 3)
    ro = np.asarray(u["u_origin"]) + B[:, :3] @ eye
    rd = d @ B[:, :3].T
    return d, np.broadcast_to(ro, rd.shape), rd


def ceiling_cut(eye, d, ceiling):
    """The shader's ``ceiling``: the part [lo, hi] of each ray that the ceiling leaves."""
    down, up = d[:, 2] < 0, d[:, 2] > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(down, np.maximum(0.0, (ceiling - eye[2]) / d[:, 2]), 0.0)
        hi = np.where(up, (ceiling - eye[2]) / d[:, 2], NEVER)
    if eye[2] > ceiling:
        hi = np.where(~down & ~up, -1.0, hi)
    return lo, hi


def wrap_band_cut(ro, rd, band, lo, hi):
    """The shader's ``wrap_band``: the part of each ray whose w is in the band (far end early)."""
    moving = rd[:, 3] != 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        a = (band[0] - ro[:, 3]) / rd[:, 3]
        b = (band[1] - ro[:, 3]) / rd[:, 3]
    lo = np.where(moving, np.maximum(lo, np.minimum(a, b)), lo)
    hi = np.where(moving, np.minimum(hi, np.maximum(a, b) - 1e-3), hi)
    outside = ~moving & ((ro[:, 3] < band[0]) | (ro[:, 3] > band[1]))
    return lo, np.where(outside, -1.0, hi)
