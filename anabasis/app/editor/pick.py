"""The cell under the mouse: the renderer's ray walked on the CPU through the draft.

The shader builds each pixel's ray in slice coordinates, maps it to 4D
through the view's basis and walks the grid cell by cell (an exact DDA);
:func:`ray` builds the same ray from the same uniforms
(:func:`anabasis.picture.render.frame_uniforms`), and :func:`walk` walks
it through the draft's characters, passing over what the picture does not
draw (the cells the ceiling and the tunnel cut away, as the renderer cuts
them round the editor's cursor).  What it meets is a :class:`Pick`: the
cell hit and the face the ray came in by, so the cell beside that face is
where a brush puts something (as in any block editor).  No pygame here.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

#: Characters the ray stops at: everything drawn as a cell (the goal too: it is marked).
SOLID = frozenset("#><v^$@*+%")
MAX_STEPS = 200


class Pick(NamedTuple):
    """What a ray meets: ``cell``, the cell hit; ``face``, the 4D step from it out of the face
    the ray came in by (None when the ray started inside it); ``beside``, the cell beyond
    that face (where a brush puts something; None when outside the room)."""

    cell: tuple[int, int, int, int]
    face: tuple[int, int, int, int] | None
    beside: tuple[int, int, int, int] | None


def ray(u: dict, pixel, size) -> tuple[np.ndarray, np.ndarray]:
    """(origin, direction) in 4D cell coordinates of the ray through window ``pixel``."""
    W, H = size
    nx = (2 * pixel[0] - W) / H
    ny = (H - 2 * pixel[1]) / H
    tan = u["u_tan"]
    d = np.asarray(u["u_fwd"]) + nx * tan * np.asarray(u["u_right"]) + ny * tan * np.asarray(
        u["u_up"])
    B = np.asarray(u["u_basis"], float)
    return np.asarray(u["u_ro"], float), B[:, :3] @ d


def _cut(u: dict, cell) -> bool:
    """Whether the ceiling or the tunnel cuts ``cell`` away from the picture."""
    s = (np.asarray(cell, float) + 0.5 - np.asarray(u["u_centre"], float)) @ np.asarray(
        u["u_basis"], float)
    s = s[:3]
    if s[2] > u["u_ceiling"]:
        return True
    eye = np.asarray(u["u_eye"], float)
    k = min(max(float(s @ eye) / float(eye @ eye), 0.0), 1.0)
    off = s - k * eye
    return bool(s[2] > 0.5 and float(off @ off) < u["u_tunnel"] ** 2)


def walk(draft, u: dict, origin, direction) -> Pick | None:
    """The first cell of ``draft`` the ray meets that the picture draws, or None."""
    size = draft.size
    o = np.asarray(origin, float)
    d = np.asarray(direction, float)
    # where the ray enters the room's box (w without end where it wraps)
    t0, t1 = 0.0, math.inf
    for k in range(4):
        if k == 3 and draft.wrap:
            continue
        if abs(d[k]) < 1e-12:
            if not 0.0 <= o[k] <= size[k]:
                return None
            continue
        a, b = (0.0 - o[k]) / d[k], (size[k] - o[k]) / d[k]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    if t0 >= t1:
        return None
    p = o + d * (t0 + 1e-7)
    c = [int(math.floor(v)) for v in p]
    for k in range(4):
        if not (k == 3 and draft.wrap):
            c[k] = min(max(c[k], 0), size[k] - 1)
    step = [int(np.sign(v)) if abs(v) > 1e-12 else 0 for v in d]
    t_max = [((c[k] + (step[k] > 0)) - o[k]) / d[k] if step[k] else math.inf for k in range(4)]
    t_delta = [abs(1.0 / d[k]) if step[k] else math.inf for k in range(4)]
    face = None if t0 <= 0.0 else _entry_face(o, d, size, t0, draft.wrap)
    for _ in range(MAX_STEPS):
        cell = (c[0], c[1], c[2], c[3] % size[3] if draft.wrap else c[3])
        if not all(0 <= v < n for v, n in zip(cell, size, strict=True)):
            return None
        if draft.at(cell) in SOLID and not _cut(u, c):
            beside = None
            if face is not None:
                b = [cell[k] + face[k] for k in range(4)]
                if draft.wrap:
                    b[3] %= size[3]
                beside = tuple(b) if draft.inside(tuple(b)) else None
            return Pick(cell, face, beside)
        k = int(np.argmin(t_max))
        if t_max[k] == math.inf:
            return None
        c[k] += step[k]
        t_max[k] += t_delta[k]
        face = tuple(-step[k] if j == k else 0 for j in range(4))
    return None


def _entry_face(o, d, size, t0, wrap):
    """The face of the room's box the ray came in by, as a step out of it."""
    best, face = -math.inf, None
    for k in range(4):
        if (k == 3 and wrap) or abs(d[k]) < 1e-12:
            continue
        a = (0.0 - o[k]) / d[k] if d[k] > 0 else (size[k] - o[k]) / d[k]
        if a > best:
            best, face = a, tuple((-1 if d[k] > 0 else 1) if j == k else 0 for j in range(4))
    return face


def on_plane(u: dict, pixel, size, axis: int, level: int, inside) -> tuple | None:
    """The cell whose ``axis`` coordinate is ``level`` where the ray through ``pixel`` crosses
    that layer's middle (a drag's line stays on the layer it began on), or None."""
    o, d = ray(u, pixel, size)
    if abs(d[axis]) < 1e-9:
        return None
    t = (level + 0.5 - o[axis]) / d[axis]
    if t <= 0:
        return None
    p = o + t * d
    cell = [int(math.floor(v)) for v in p]
    cell[axis] = level
    cell = tuple(cell)
    return cell if inside(cell) else None


def line(a, b):
    """The cells from ``a`` to ``b`` (4D, inclusive), each a step from the last: a stroke
    the mouse moved fast along still paints every cell between.

    >>> line((0, 0, 0, 0), (3, 1, 0, 0))
    [(0, 0, 0, 0), (1, 0, 0, 0), (2, 1, 0, 0), (3, 1, 0, 0)]
    """
    n = max(abs(q - p) for p, q in zip(a, b, strict=True))
    if n == 0:
        return [tuple(a)]
    return [tuple(int(round(p + (q - p) * i / n)) for p, q in zip(a, b, strict=True))
            for i in range(n + 1)]
