"""The renderer: a GPU ray tracer of the 3D slice through the player, in moderngl.

Public API (kept stable for the game window):

- :class:`NoGLError` and :func:`headless_context` (from :mod:`anabasis.picture.headless`):
  a standalone EGL context, or why there is none.
- :class:`Pose`: what one frame shows: the animated player position (4
  floats, cell coordinates: integers when resting), the view turn
  (``view``, ``toward``, ``turn``), the :class:`~anabasis.picture.views.Camera`,
  an optional moving crate (its cell in the uploaded state and a 4D
  offset) and an optional cross-fade override.
- :class:`Renderer` ``(ctx, room, state=None)``: uploads the room once as an
  integer 3D texture; :meth:`Renderer.set_state` per move;
  :meth:`Renderer.draw` ``(pose, viewport)`` per frame into the bound
  framebuffer; :meth:`Renderer.release`.
- :func:`frame_uniforms` ``(room, pose, size)``: a frame's uniforms and
  ``#define`` variant, in float64 (the tests' CPU reference reads them too).
- :func:`render_image` ``(room, state, ...)`` -> ``numpy`` RGB (rows top
  first), headless; :func:`write_png` (from :mod:`anabasis.picture.png`).

How a frame is made.  The room's 4D grid is packed into a 3D texture of
size ``(X, Y, Z*W)`` (texel ``(x, y, z + Z*w)``, exactly the room's flat
order), ``u2`` with NEAREST filtering: each texel the cell's code, its
clearance for empty-space skipping, whether the cells kata of it and below it
are solid (the footing's one read) and a mark where the tunnel cuts it
(:mod:`anabasis.picture.clearance`), with the crates of the current state.
The goal and the player are not in the texture: the goal is a uniform (it
glows, and is not solid), the player is drawn analytically at its animated
position.  For each pixel the fragment shader (``shaders/slice.frag``)
builds a camera ray in slice coordinates (across, depth, up), maps it to 4D through the view's basis
(:func:`anabasis.picture.views.turn`) and the player's position, and walks the 4D
grid with an exact DDA.  Variants (ghosts, the cross-fade, the debug
output, the plain baseline) are ``#define``s, each its own compiled
program, never uniform branches in the loop.

Cross-fade: when the basis is at rest and the player's coordinate along
the hidden axis is fractional (a ramp step or a slip in the stand view),
the two slices either side are traced and mixed by the fraction.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import numpy as np

from anabasis.engine import cells, rules
from anabasis.engine.world import Pos, Room, State
from anabasis.picture import clearance
from anabasis.picture.headless import NoGLError, headless_context  # noqa: F401 (the API)
from anabasis.picture.png import write_png  # noqa: F401 (the API)
from anabasis.picture.views import Camera, room_camera, turn

SHADER_DIR = Path(str(files("anabasis.shaders")))
#: The chunks ``slice.frag`` includes (``#include "name"``), joined by moderngl's ``ctx.includes``.
SLICE_CHUNKS = ("slice_march", "slice_shading", "slice_footing")


def slice_source() -> str:
    """``slice.frag`` with its chunks in, as the GPU compiles it (the tests read it whole)."""
    out = []
    for line in (SHADER_DIR / "slice.frag").read_text().split("\n"):
        name = line[len('#include "'):-1] if line.startswith('#include "') else None
        out.append((SHADER_DIR / f"{name}.glsl").read_text() if name in SLICE_CHUNKS else line)
    return "\n".join(out)

#: The ceiling cutaway: nothing more than this above the player's centre is drawn (at rest,
#: the cells three and more above the player's).
CEILING = 2.5
#: The same with w drawn up (see :func:`ceiling`).
CEILING_W_UP = 1.5
#: The tunnel cutaway: cells above the player this near the line to the camera are cut.
TUNNEL_RADIUS = 1.3
#: The most DDA steps a ray takes (a 16x16x8x8 room needs at most 48 inside the grid).
MAX_STEPS = 80
#: Nothing is drawn farther than this from the player: the fog is total there ...
FAR = 28.0
#: ... and it starts this far from the player.
FOG_START = 5.0
#: A ray starts this far past where it enters the box it walks (inside the first cell).
HAIR = 1e-4
#: A start this near a face crossing came in through that face.
SNAP = 1e-3
#: The crossing time of an axis a ray does not move along.
NEVER = 1e30
#: The ghost's plane: this far above the player's centre (just under its feet), slice up.
FEET = -0.53
#: A cell this near the ghost's plane counts as crossed by it (float32 on the GPU rounds
#: the plane's points by far less: 1e-4 of a cell across the largest room).
FEET_MARGIN = 0.01

#: Face codes of the debug output: 0 nothing hit, 1 + 2*axis + (normal > 0), 9 the ray began inside.
FACE_MISS = 0
FACE_INSIDE = 9

#: The constants the shader shares with Python, written before ``slice.frag`` as GLSL
#: ``const`` lines by :func:`fragment_preamble` (never typed in the shader): name -> type.
SHADER_CONSTANTS = {"FAR": "float", "FOG_START": "float", "HAIR": "float", "SNAP": "float",
                    "NEVER": "float", "FEET": "float", "FACE_MISS": "float",
                    "FACE_INSIDE": "float", "MAX_STEPS": "int"}


@dataclass(frozen=True)
class Pose:
    """What one frame shows.

    ``player``: the player's animated position in cell coordinates (the
    cell a resting player is in; fractions on the way).  The slice passes
    through the player's centre, ``player + 0.5``.

    ``view``/``toward``/``turn``: the view, and how far (0..1) into the
    turn toward ``toward`` (None: at rest).

    ``moving_crate``: ``(cell, offset)``, the crate that the uploaded state
    has at ``cell`` is drawn at ``cell + offset`` (4 floats) instead, for a
    push or a fall.

    ``fade``: None mixes the next slice in automatically by the fraction of
    the player's coordinate along the hidden axis; a number forces that
    mix (0 turns it off).

    ``marks``: None draws the :func:`ramp_marks` of the renderer's state; a
    tuple of ``(cell, way)`` draws those instead (``()`` none), as when the
    game compiles the ``MARKS`` variant ahead of need.
    """

    player: tuple[float, float, float, float]
    view: str = "stand"
    toward: str | None = None
    turn: float = 0.0
    camera: Camera = field(default_factory=Camera)
    moving_crate: tuple[Pos, tuple[float, float, float, float]] | None = None
    fade: float | None = None
    marks: tuple | None = None

    def basis(self) -> np.ndarray:
        """The 4x4 slice basis of this frame (columns: across, depth, up, hidden)."""
        return turn(self.view, self.toward, self.turn)


def _pow2(n: int) -> int:
    """The least power of two at or above ``n`` (at least 1)."""
    return 1 << max(0, int(n) - 1).bit_length()


def _variant_defines(names) -> str:
    return "".join(f"#define {n}\n" for n in sorted(names))


#: A texel's neighbour bits (clearance.near): kept through a cut or a crate taken out.
_NEAR = clearance.NEAR_MASK


def fragment_preamble(variant=()) -> str:
    """What goes before ``slice.frag``: the version, the constants shared with Python (the
    cell codes, the texel's layout, :data:`SHADER_CONSTANTS`) and the variant's ``#define``
    names.

    >>> "const float HAIR = 0.0001;" in fragment_preamble()
    True
    """
    consts = "".join(f"const {kind} {name} = {_glsl(globals()[name], kind)};\n"
                     for name, kind in SHADER_CONSTANTS.items())
    return ("#version 330 core\n" + cells.glsl_defines()
            + f"#define TEXEL_CODE_MASK {clearance.CODE_MASK}u\n"
            + f"#define TEXEL_STOP_MASK {clearance.CODE_MASK | clearance.CUT}u\n"
            + f"#define TEXEL_FIRST_SOLID {cells.EMPTY + 1}u\n"
            + f"#define CLEAR_SHIFT {clearance.CLEAR_SHIFT}u\n"
            + f"#define TEXEL_NEAR_SHIFT {clearance.NEAR_SHIFT}u\n"
            + f"#define TEXEL_KATA_SOLID {clearance.KATA_SOLID}u\n"
            + f"#define TEXEL_BELOW_SOLID {clearance.BELOW_SOLID}u\n"
            + consts + _variant_defines(variant))


def _glsl(value, kind: str) -> str:
    """A Python number as a GLSL literal of ``kind`` (``float`` or ``int``)."""
    return repr(float(value)) if kind == "float" else str(int(value))


def frame_uniforms(room: Room, pose: Pose, size: tuple[int, int],
                   marks: tuple = ()) -> tuple[dict, set]:
    """A frame's uniforms (float64, shared with the CPU reference) and its variant.

    ``marks`` are :func:`ramp_marks` of the state drawn.
    """
    B = pose.basis()
    centre = np.asarray(pose.player, float) + 0.5
    eye, fwd, right, up = pose.camera.frame()
    variant: set[str] = {"WRAP"} if room.wrap else set()
    origin = centre.copy()
    origin_b = centre.copy()
    fade = 0.0
    k = int(np.argmax(np.abs(B[:, 3])))
    if abs(B[k, 3]) > 0.999999:  # at rest: the hidden axis is a 4D axis
        h = float(pose.player[k])
        frac = h - math.floor(h)
        if pose.fade is None:
            fade = frac if frac > 1e-4 else 0.0
        else:
            fade = float(pose.fade)
        origin[k] = math.floor(h) + 0.5
        origin_b[k] = origin[k] + 1.0
        if fade > 0.0:
            variant.add("FADE")
    # The ghost of the floor out of the slice, on the plane under the player's feet: with w
    # hidden (stand) the floor one slice ana; with z hidden (w-up) a ramp in the layer below
    # (only ramps: a block there holds nothing against w's gravity).
    # It fades as a turn swings that axis into the slice.
    ghost_step, ghost_codes = (0, 0, 0, 1), (cells.BLOCK, cells.CRATE)
    ghost = float(B[3, 3]) ** 2
    if float(B[2, 3]) ** 2 > ghost:
        ghost_step, ghost_codes = (0, 0, -1, 1), (min(cells.RAMPS), max(cells.RAMPS))
        ghost = float(B[2, 3]) ** 2
    if ghost > 0.05:
        variant.add("GHOST")
    goal = np.asarray(room.goal, float)
    player_cell = tuple(int(math.floor(c + 0.5)) for c in pose.player)
    if room.wrap:  # the copy of the goal round the tower nearest the player
        W = room.size[3]
        goal[3] += W * round((centre[3] - 0.5 - goal[3]) / W)
    # How far the goal is out of the slice: its halo shows only then (in the slice, its cell
    # is marked and nothing spills onto its neighbours).
    goal_off = abs(float((goal + 0.5 - origin) @ B[:, 3]))
    goal_away = min(max(goal_off - 0.25, 0.0) / 0.5, 1.0)
    crate_lo = np.full(4, -1000.0)
    if pose.moving_crate is not None:
        cell, offset = pose.moving_crate
        crate_lo = np.asarray(cell, float) + np.asarray(offset, float)
        variant.add("MOVING_CRATE")
    mark_lo, mark_way = _mark_uniforms(marks, pose, B, player_cell)
    if any(mark_way):
        variant.add("MARKS")
    # Occlusion looks along the two tangent axes of a face that show most in the slice.
    ao_a, ao_b = [], []
    shows = 1.0 - B[:, 3] ** 2
    for axis in range(4):
        others = sorted((j for j in range(4) if j != axis), key=lambda j: (-shows[j], j))
        ao_a.append(others[0])
        ao_b.append(others[1])
    u = {
        "u_size": tuple(int(n) for n in room.size),
        "u_basis": B,
        "u_origin": origin,
        "u_origin_b": origin_b,
        # the eye in 4D, per slice (the shader's ro)
        "u_ro": origin + B[:, :3] @ eye,
        "u_ro_b": origin_b + B[:, :3] @ eye,
        "u_centre": centre,
        "u_fade": fade,
        "u_eye": eye,
        "u_fwd": fwd,
        "u_right": right,
        "u_up": up,
        "u_tan": math.tan(math.radians(pose.camera.fov) / 2.0),
        "u_resolution": (float(size[0]), float(size[1])),
        "u_goal": goal,
        "u_crate_lo": crate_lo,
        "u_ao_a": tuple(ao_a),
        "u_ao_b": tuple(ao_b),
        # the same as a mask per face axis: 1.0 on the two tangent axes occlusion looks along
        "u_ao_pick": [tuple(float(j in (ao_a[k], ao_b[k])) for j in range(4)) for k in range(4)],
        "u_to_slice": B.T[:3, :],
        # each 4D axis's unit normal in the slice, and how much of it shows there (face_normal)
        "u_face_n": B.T[:3, :] / np.maximum(np.linalg.norm(B.T[:3, :], axis=0), 1e-6),
        "u_face_k": np.minimum(np.linalg.norm(B.T[:3, :], axis=0) / 0.2, 1.0),
        # the same for both slices of a cross-fade: they differ only along the hidden axis
        "u_lane_shift": B.T[:3, :] @ (origin - centre),
        "u_ghost": ghost,
        "u_w_shows": 1.0 - float(B[3, 3]) ** 2,
        "u_ghost_step": ghost_step,
        "u_ghost_codes": ghost_codes,
        "u_player_cell": player_cell,
        "u_goal_away": goal_away,
        "u_wband": wrap_band(room, player_cell),
        "u_mark_lo": mark_lo,
        "u_mark_way": mark_way,
        "u_ceiling": ceiling(B),
        "u_tunnel": TUNNEL_RADIUS,
        "u_far": float(np.linalg.norm(eye)) + FAR,
    }
    return u, variant


def ceiling(B: np.ndarray) -> float:
    """How far above the player's centre the ceiling cuts, for the basis ``B``.

    :data:`CEILING` with z up; with w up, :data:`CEILING_W_UP`: one slice ana
    of the player is drawn, not two (only a ramp takes you there, and it is
    marked; two roofed the view and came and went with every slip).  Between,
    by how much w is up.

    >>> from anabasis.picture.views import view_basis
    >>> ceiling(view_basis("stand")), ceiling(view_basis("w-up"))
    (2.5, 1.5)
    """
    w_up = float(B[3, 2]) ** 2
    return CEILING + (CEILING_W_UP - CEILING) * w_up


def wrap_band(room: Room, player_cell) -> tuple[float, float]:
    """The unwrapped w a wrapped room is drawn in: ``(lo, hi)``, grid planes.

    One turn of w: the player's slice and the W - 1 kata of it; and one
    slice of the next turn, kata of those (the player's own slice again,
    drawn faded), so that the repeat shows: never an endless tower.  Nothing
    ana of the player: with w up it would roof the tower, and in the both
    view stand between the camera and the player (where a ramp takes you
    ana is marked instead).  Unwrapped rooms: the room's own w.

    >>> from anabasis.formats import levels
    >>> wrap_band(levels.load_level(7), (0, 0, 1, 0))
    (-4.0, 1.0)
    """
    W = room.size[3]
    if not room.wrap:
        return 0.0, float(W)
    pw = int(player_cell[3])
    return float(pw - W), float(pw + 1)


#: How many ramp marks the shader draws.
MARKS = 2
_NO_MARK = (-1000.0, -1000.0, -1000.0, -1000.0)


def ramp_marks(room: Room, state: State) -> tuple[tuple[Pos, int], ...]:
    """Where the steps that a ramp takes through w land: ``((cell, +1 ana or -1 kata), ...)``.

    Asked of the rules (the step before the settle), so the picture says
    what the step does: the picture decides nothing.  At most :data:`MARKS`.

    >>> from anabasis.formats import levels
    >>> from anabasis.engine import rules
    >>> room = levels.load_level(3)
    >>> ramp_marks(room, rules.replay(room, "RR").state)
    (((2, 1, 1, 2), 1),)
    """
    out = []
    W = room.size[3]
    here = state.player
    for move in rules.STEPS:
        result = rules.step(room, state, move, trace=True)
        if not result.moved or not result.frames:
            continue
        there = result.frames[0].player
        dw = there[3] - here[3]
        if room.wrap:
            dw = (dw + 1) % W - 1
        if dw and there[:3] != here[:3]:
            out.append((tuple(there), 1 if dw > 0 else -1))
    return tuple(out[:MARKS])


def _mark_uniforms(marks, pose: Pose, B: np.ndarray, player_cell) -> tuple[list, list]:
    """The marks' corners drawn in this frame's slice, and their ways (far away when unused).

    Drawn only at rest, where the player stands at a cell and the view is
    not turning; with w hidden a mark is drawn at the slice's w (the step
    goes round through w), with another axis hidden only where it lies in
    the slice.
    """
    lo = [_NO_MARK] * MARKS
    way = [0.0] * MARKS
    resting = all(float(c).is_integer() for c in pose.player)
    k = int(np.argmax(np.abs(B[:, 3])))
    if not resting or abs(B[k, 3]) < 0.999999:
        return lo, way
    i = 0
    for cell, sign in marks[:MARKS]:
        cell = list(cell)
        if k == 3:
            cell[3] = player_cell[3]
        elif cell[k] != player_cell[k]:
            continue
        lo[i] = tuple(float(c) for c in cell)
        way[i] = float(sign)
        i += 1
    return lo, way
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


#: The (program, vertex array) pairs compiled on each context, by variant; a context's go
#: when it does.
_PROGRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shared_programs(ctx) -> dict:
    """The (program, vertex array) pairs compiled on ``ctx``, by variant.

    Shared by every renderer on the context: a software rasteriser compiles a
    program at its first draw (100-400 ms), so a new room must not redo it.
    """
    return _PROGRAMS.setdefault(ctx, {})


def compiled_variants(ctx) -> set[frozenset]:
    """The variants (sets of ``#define`` names) compiled on ``ctx`` so far, by any renderer."""
    return set(_PROGRAMS.get(ctx, ()))


class Renderer:
    """Draws a room's slice through the player with a moderngl context.

    For example, headless (the window passes its own context and viewport)::

        ctx = headless_context()
        renderer = Renderer(ctx, room)
        renderer.set_state(state)              # after each move
        renderer.draw(Pose(player, "stand"), (0, 0, 640, 360))
    """

    def __init__(self, ctx, room: Room, state: State | None = None, *, ruled: bool = True):
        """``ruled=False``: a drawing of cells, not a room to play (the editor's draft, which
        need not pass a room's checks): the state is drawn as given, or as placed, and the
        rules are never asked (no settle, no ramp marks)."""
        import moderngl

        self.ctx = ctx
        self.room = room
        X, Y, Z, W = room.size
        # The texture is padded to powers of two (the room in its corner; the shader never
        # reads past the room): llvmpipe keys a compiled shader on whether each side is a
        # power of two, so every room then reuses the programs the first one compiled.
        # Each texel is a cell's code, its support bits and its clearance (clearance.pack),
        # 16 bits, written by set_state.
        dims = tuple(_pow2(n) for n in (X, Y, Z * W))
        padded = np.zeros(dims[::-1], dtype=np.uint8)
        self.texture = ctx.texture3d(dims, 1, data=padded.astype(np.uint16).tobytes(),
                                     alignment=2, dtype="u2")
        self.texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.texture.repeat_x = self.texture.repeat_y = self.texture.repeat_z = False
        # The (program, vertex array) pairs this renderer drew with, by variant.
        self._programs: dict[frozenset, tuple] = {}
        self._crates: set[Pos] | None = None  # the crates of the texels in _packed
        self._packed = np.zeros(X * Y * Z * W, np.uint16)  # the state's texels, flat order
        self._solid = np.zeros(0, np.int64)  # the flat indices of the state's solid cells
        self._solid_centres = np.zeros((0, 4))
        self._hidden_crate: Pos | None = None
        self._cut = np.zeros(0, np.int64)  # the cells marked cut by the tunnel (flat indices)
        self._uploaded = None  # what the texture holds: (packed serial, hidden crate, cut cells)
        self._serial = 0
        self._ghost_cells: tuple = (None, None)  # (key, ghost_cells) for the packed serial
        self._ghost_shows: tuple = (None, True)  # (key, whether the ghost can draw) last frame
        #: the least box (lo, hi) holding every cell that is not empty, crates included
        self.occupied: tuple[tuple[int, ...], tuple[int, ...]] = ((0,) * 4, (0,) * 4)
        self.state: State = room.start
        self.ruled = ruled
        #: whether this room's rays skip empty space (the SKIP variant), chosen once from the
        #: first state's cells (clearance.worth_skipping): a change would compile a program
        self.skips: bool | None = None
        self._load(room, state)

    def _load(self, room: Room, state: State | None) -> None:
        """Take ``room``'s cells, and ``state`` (None: the settled start; unruled, the start as
        placed) into the texels."""
        X, Y, Z, W = room.size
        self.room = room
        self._static = np.frombuffer(room.cells, dtype=np.uint8).reshape(W, Z, Y, X).copy()
        self._crates = None  # the texels are made again
        if state is None and not self.ruled:
            state = room.start
        if state is None:  # the settled start (known to the rules: its marks are quick to ask)
            first = rules.start(room)
            state = first.state if first.status != "lost" else room.start
        self.set_state(state)

    # -- the room and the state ------------------------------------------------

    def set_state(self, state: State) -> None:
        """Upload the movers of ``state`` (the crates; the player is drawn from the pose).

        A crate changes the clearance of the cells round it, so when the crates are not those
        uploaded last, the room's texels are made again and go up whole (a few kB).
        """
        new = {tuple(c) for c in state.crates}
        self.state = state
        self._marks = ramp_marks(self.room, state) if self.ruled else ()
        self._hidden_crate = None  # a crate taken out for a push goes back
        if new != self._crates:
            grid = self._static.copy()
            if new:  # one indexed write: a crowded room has 12,000 crates
                x, y, z, w = np.array(list(new), dtype=np.intp).T
                grid[w, z, y, x] = cells.CRATE
            self._packed = clearance.pack(grid, self.room.wrap).ravel()
            if self.skips is None:
                self.skips = clearance.worth_skipping(grid, self.room.wrap)
            self.occupied = clearance.occupied_box(grid)
            self._solid = np.flatnonzero(grid)
            X, Y, Z, _ = self.room.size
            i = self._solid
            self._solid_centres = np.stack([i % X, i // X % Y, i // (X * Y) % Z,
                                            i // (X * Y * Z)], axis=1) + 0.5
            self._crates = new
            self._serial += 1
        self._sync()

    def _sync(self) -> None:
        """Write the texels if the state, the crate taken out or the cut cells changed."""
        key = (self._serial, self._hidden_crate, self._cut.tobytes())
        if key == self._uploaded:
            return
        texels = self._packed.copy()
        if self._hidden_crate is not None:
            # empty with a clearance of one: the cells round it still count it (a jump never
            # passes it, which is only cautious)
            x, y, z, w = self._hidden_crate
            X, Y, Z, W = self.room.size
            i = self.room.index(self._hidden_crate)
            texels[i] = (texels[i] & _NEAR) | cells.EMPTY | clearance.CUT_CLEARANCE
            # ... and its neighbours no longer have it beside them: it holds nothing up (the
            # cells above it and ana of it lose its support) and shades no corner
            pos = (x, y, z, w)
            for axis in range(4):
                for side in (-1, 1):
                    n = list(pos)
                    n[axis] += side
                    if axis == 3 and self.room.wrap:
                        n[3] %= W
                    if 0 <= n[axis] < (X, Y, Z, W)[axis]:
                        texels[self.room.index(tuple(n))] &= ~np.uint16(
                            clearance.near_bit(axis, -side))
        cut = self._cut
        texels[cut] = ((texels[cut] & (clearance.CODE_MASK | _NEAR))
                       | clearance.CUT | clearance.CUT_CLEARANCE)
        X, Y, Z, W = self.room.size
        self.texture.write(texels.tobytes(), viewport=(0, 0, 0, X, Y, Z * W))
        self._uploaded = key

    def _hide_crate(self, pos: Pos | None) -> None:
        """Take the moving crate out of the texture (it is drawn analytically instead)."""
        self._hidden_crate = tuple(pos) if pos is not None and tuple(pos) in self._crates else None

    def _mark_cut(self, u: dict) -> None:
        """Mark the solid cells the tunnel cuts in this frame (``u``: its uniforms).

        Where w wraps, a texel is also its copies round the tower, so there the shader tests
        each hit itself and nothing is marked.
        """
        if self.room.wrap or len(self._solid) == 0:
            self._cut = np.zeros(0, np.int64)
            return
        self._cut = self._solid[tunnel_cuts(self._solid_centres, u)]

    # -- programs ----------------------------------------------------------------

    def program(self, variant=()):
        """The compiled program for a set of ``#define`` names (compiled once, then cached)."""
        key = frozenset(variant)
        if key not in self._programs:
            shared = _shared_programs(self.ctx)
            if key not in shared:
                vert = (SHADER_DIR / "slice.vert").read_text()
                frag = (SHADER_DIR / "slice.frag").read_text()
                for name in SLICE_CHUNKS:  # what its #include lines name
                    self.ctx.includes[name] = (SHADER_DIR / f"{name}.glsl").read_text()
                head = fragment_preamble(key)
                prog = self.ctx.program(vertex_shader="#version 330 core\n" + vert,
                                        fragment_shader=head + frag)
                shared[key] = (prog, self.ctx.vertex_array(prog, []))
            self._programs[key] = shared[key]
        return self._programs[key][0]

    def has_program_for(self, pose: Pose, variant=()) -> bool:
        """Whether the program ``pose`` needs (with ``variant``'s names added) is compiled
        already (by any room on this context), its ghost included where its view has one
        (see :meth:`warm`)."""
        _, names = self.uniforms(pose, (1, 1))
        return frozenset(set(names) | set(variant)) in _shared_programs(self.ctx)

    def warm(self, pose: Pose, variant=()) -> None:
        """Compile the program ``pose`` needs (with ``variant``'s names added), its ghost
        included where its view has one, by drawing it into one pixel of the bound framebuffer.

        :meth:`draw` leaves the ghost out of a frame where it can draw nothing
        (:meth:`ghost_can_show`), so a pose's own frame may not compile the program that a
        later one of the same view needs.
        """
        _, names = self.uniforms(pose, (1, 1))
        self.draw(pose, (0, 0, 1, 1), variant=set(variant) | (names & {"GHOST"}))

    def ghost_can_show(self, u: dict, fade: bool) -> bool:
        """Whether the ghost can draw a pixel in the frame of uniforms ``u`` (``fade``: both
        slices of a cross-fade are traced): its plane under the feet meets a cell with a ghost
        to show (:func:`feet_plane_meets`).  Worked out once while the basis, the slices and
        the crates stay as they are (a few hundred microseconds for a level).
        """
        origins = (u["u_origin"], u["u_origin_b"]) if fade else (u["u_origin"],)
        key = (self._serial, u["u_basis"].tobytes(), np.asarray(origins).tobytes(),
               tuple(u["u_ghost_step"]), tuple(u["u_ghost_codes"]))
        if key == self._ghost_shows[0]:
            return self._ghost_shows[1]
        cells_key = (self._serial, key[3], key[4])
        if cells_key != self._ghost_cells[0]:
            X, Y, Z, W = self.room.size
            codes = (self._packed & clearance.CODE_MASK).reshape(W, Z, Y, X)
            self._ghost_cells = (cells_key, ghost_cells(codes, key[3], key[4]))
        wrap = self.room.size[3] if self.room.wrap else 0
        shows = any(feet_plane_meets(self._ghost_cells[1], u["u_basis"], origin, wrap).any()
                    for origin in origins)
        self._ghost_shows = (key, shows)
        return shows

    def _set(self, prog, name: str, value) -> None:
        # A uniform the compiler optimised away is absent, and assigning it raises.
        if name in prog:
            prog[name].value = value

    def uniforms(self, pose: Pose, size: tuple[int, int]) -> tuple[dict, set]:
        """This room's :func:`frame_uniforms`, with the marks of the state drawn."""
        marks = self._marks if pose.marks is None else pose.marks
        u, names = frame_uniforms(self.room, pose, size, marks)
        if self.skips:
            names.add("SKIP")
        return u, names

    def draw(self, pose: Pose, viewport: tuple[int, int, int, int] | None = None,
             variant=()) -> None:
        """Draw one frame into the bound framebuffer's ``viewport`` ``(x, y, w, h)``.

        ``variant`` adds ``#define`` names (``PLAIN``, ``DEBUG``) for the bench and the tests;
        ``GHOST`` keeps the ghost in a frame where it can draw nothing (:meth:`ghost_can_show`).
        """
        if viewport is None:
            viewport = self.ctx.fbo.viewport
        w, h = viewport[2], viewport[3]
        self._hide_crate(pose.moving_crate[0] if pose.moving_crate else None)
        u, auto = self.uniforms(pose, (w, h))
        self._mark_cut(u)
        self._sync()
        names = set(variant) | auto
        # The ghost costs a tenth of the frame on llvmpipe even where it draws nothing: left
        # out where it cannot draw (forced on by variant={"GHOST"})
        if ("GHOST" in auto and "GHOST" not in variant
                and not self.ghost_can_show(u, "FADE" in names)):
            names.discard("GHOST")
        if "PLAIN" in names or "DEBUG" in names:
            names -= {"GHOST", "FADE", "MOVING_CRATE", "MARKS"}
        if "PLAIN" in names:
            names.discard("SKIP")
        self._draw_program(names, u, viewport)

    def _draw_program(self, names, u: dict, viewport) -> None:
        prog = self.program(names)
        for name, value in u.items():
            if isinstance(value, np.ndarray):
                # GLSL matrices are column-major: numpy's transpose, flattened.
                flat = value.T.flatten() if value.ndim == 2 else value
                value = tuple(float(v) for v in flat)
            self._set(prog, name, value)
        lo, hi = self.occupied
        self._set(prog, "u_occupied_lo", tuple(float(v) for v in lo))
        self._set(prog, "u_occupied_hi", tuple(float(v) for v in hi))
        self.texture.use(0)
        self._set(prog, "u_cells", 0)
        self.ctx.viewport = tuple(viewport)
        self._programs[frozenset(names)][1].render(vertices=3)

    def debug_frame(self, pose: Pose, size: tuple[int, int]):
        """What each pixel's ray hits, from the ``DEBUG`` build: (cell index, face code, t).

        Arrays of shape (H, W), rows top first; index -1 where nothing is hit.
        Face codes: :data:`FACE_MISS`, ``1 + 2*axis + (normal > 0)``, :data:`FACE_INSIDE`.
        Only the traversal and the cutaways: no player, moving crate or cross-fade.
        """
        target = Offscreen(self.ctx, tuple(size), dtype="f4")
        target.fbo.use()
        target.fbo.clear()
        self.draw(pose, (0, 0, *size), variant={"DEBUG"})
        out = target.read()
        target.release()
        return out[:, :, 0].astype(np.int64), out[:, :, 1].astype(np.int64), out[:, :, 2]

    def set_room(self, room: Room, state: State | None = None) -> bool:
        """Draw ``room`` (in ``state``, as for a new renderer) from now on, keeping the
        texture: True where it fits (the same size and wrap: an editor's next draft), else
        False and nothing changes."""
        if room.size != self.room.size or room.wrap != self.room.wrap:
            return False
        self._load(room, state)
        return True

    def release(self) -> None:
        """Free the room's texture (the programs stay with the context, for the next room)."""
        self._programs.clear()
        self.texture.release()


# -- headless -------------------------------------------------------------------


class Offscreen:
    """A colour framebuffer of ``size`` for headless frames (RGBA8, or float for debug)."""

    def __init__(self, ctx, size: tuple[int, int], dtype: str = "f1"):
        self.ctx = ctx
        self.size = size
        self.colour = ctx.texture(size, 4, dtype=dtype)
        self.fbo = ctx.framebuffer(color_attachments=[self.colour])

    def read(self) -> np.ndarray:
        """The pixels, rows top first: uint8 (H, W, 4), or float32 for a float target."""
        w, h = self.size
        dtype = self.colour.dtype
        raw = self.fbo.read(components=4, dtype=dtype)
        arr = np.frombuffer(raw, dtype=np.float32 if dtype == "f4" else np.uint8)
        return arr.reshape(h, w, 4)[::-1]

    def release(self) -> None:
        self.fbo.release()
        self.colour.release()


def render_image(room: Room, state: State | None = None, view: str | None = None,
                 toward: str | None = None, at: float = 0.5, size=(1280, 720),
                 camera: Camera | None = None, ctx=None, pose: Pose | None = None) -> np.ndarray:
    """Render one frame headless; returns RGB uint8 of shape (H, W, 3), rows top first.

    ``ctx`` defaults to a fresh :func:`headless_context` (raises :class:`NoGLError`).
    """
    own = ctx is None
    if own:
        ctx = headless_context()
    try:
        state = state if state is not None else room.start
        if pose is None:
            player = tuple(float(c) for c in state.player)
            view = view or room.view
            turn_at = at if toward else 0.0
            if camera is None:  # the camera the game opens the room with
                camera = room_camera(room.size, view, player, size[0] / size[1], room.wrap)
            pose = Pose(player, view, toward, turn_at, camera)
        renderer = Renderer(ctx, room, state)
        target = Offscreen(ctx, tuple(size))
        target.fbo.use()
        renderer.draw(pose, (0, 0, *size))
        rgb = target.read()[:, :, :3].copy()
        target.release()
        renderer.release()
        return rgb
    finally:
        if own:
            ctx.release()


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` as a pair of pixel counts; ``ValueError`` when it is not one.

    >>> parse_size("1280x720")
    (1280, 720)
    """
    from anabasis.picture.size import SizeError, read_size

    try:
        return read_size(text, (1, 1), (8192, 8192))
    except SizeError:
        raise ValueError(f"--size {text!r}: expected WxH from 1x1 to 8192x8192, like 1280x720") from None
