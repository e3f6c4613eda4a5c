"""What one frame shows, and its uniforms: pure maths, no GL.

:class:`Pose` (the player's animated position, the view turn, the camera, a moving crate,
the cross-fade and the ramp marks), :func:`frame_uniforms` (a frame's uniforms and
``#define`` variant in float64, which the tests' CPU reference reads too), the cutaways'
heights (:func:`ceiling`, :func:`wrap_band`), the ramp marks (:func:`ramp_marks`) and the
constants the shader shares with Python (:data:`SHADER_CONSTANTS`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from anabasis.engine import cells, rules
from anabasis.engine.world import Pos, Room, State
from anabasis.picture.views import Camera, turn

#: The ceiling cutaway: nothing more than this above the player's centre is drawn (at rest,
#: the cells three and more above the player's).
CEILING = 2.5
#: The same with w drawn up: nothing ana of the player's slice (see :func:`ceiling`).
CEILING_W_UP = 0.5
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
#: A crate stands this far in from its cell's sides along x and y (not z or w: it rests on
#: both downs), so that its own cell's floor shows round its foot.  Drawn filling its cell,
#: a crate's top lay over the row behind it on screen, and blind players read it a row off
#: (eight of eleven in one round).
CRATE_INSET = 0.12

#: The window round the pawn (the shader's WINDOW_CENTRE, WINDOW_RADIUS): its centre from
#: the player's centre in the slice, and its radius in cells at the pawn.  It reaches the
#: floor round the pawn's feet: two blind players read a pawn behind a wall one high as
#: standing on that wall's top, when the window (0.55 round the body) showed little more
#: than the pawn; at 0.95 its rim, a wide pink arc over the walls in front, read as a route.
WINDOW_CENTRE = (0.0, 0.0, -0.15)
WINDOW_RADIUS = 0.7

#: Face codes of the debug output: 0 nothing hit, 1 + 2*axis + (normal > 0), 9 the ray began inside.
FACE_MISS = 0
FACE_INSIDE = 9

#: The constants the shader shares with Python, written before ``slice.frag`` as GLSL
#: ``const`` lines by :func:`fragment_preamble` (never typed in the shader): name -> type.
SHADER_CONSTANTS = {"FAR": "float", "FOG_START": "float", "HAIR": "float", "SNAP": "float",
                    "NEVER": "float", "FEET": "float", "CRATE_INSET": "float", "FACE_MISS": "float",
                    "FACE_INSIDE": "float", "MAX_STEPS": "int", "MOST_HELD": "int",
                    "MOST_CROSSED": "int", "MOST_STAIR": "int"}
#: The most cells held up by a crate kata (``render.held_cells``) the shader is told of as a
#: list (``u_held``); past it, each floor's pixel reads the cell kata of it (``HELD_READ``).
MOST_HELD = 8
#: The most gaps a ramp's step crosses (:func:`crossed_gaps`) the shader is told of
#: (``u_crossed``): the levels have seven at most, 48 made rooms six; past it, the rest are
#: drawn as any pit you fall out from, crossed.
MOST_CROSSED = 16
#: The most ramps over the ceiling's cut the w-up view outlines (:func:`stair_cells`,
#: ``u_stair``): the nearest the pawn.
MOST_STAIR = 4


#: The picture's colours by palette: a tone per w slice (the block's hue, eight round), the
#: landing marks' colour, and whether the slices are told apart by a pattern too (odd slices
#: striped, so that neighbouring slices never differ by colour alone).  ``safe`` is the
#: colour-blind-safe palette (Okabe and Ito's colours, muted to the blocks' lightness, which
#: alternates dark and light from slice to slice).
PALETTES = {
    "standard": {
        "tones": ((0.52, 0.58, 0.72), (0.78, 0.70, 0.54), (0.56, 0.72, 0.54),
                  (0.70, 0.60, 0.80), (0.80, 0.58, 0.50), (0.54, 0.70, 0.80),
                  (0.72, 0.74, 0.48), (0.80, 0.62, 0.70)),
        # lavender: a blind player took the mint it was for the ramps' teal
        "mark": (0.80, 0.64, 1.00),
        # a pit you fall out from: its cross, in the "fall out" step badge's red
        # (anabasis.app.play.stepmarks.COLOUR: a test holds the two together)
        "out": (1.00, 90 / 255, 90 / 255),
        "pattern": 0.0,
    },
    "safe": {
        "tones": ((0.42, 0.58, 0.78), (0.90, 0.74, 0.42), (0.36, 0.50, 0.66),
                  (0.94, 0.84, 0.56), (0.50, 0.70, 0.84), (0.80, 0.56, 0.40),
                  (0.60, 0.64, 0.70), (0.92, 0.88, 0.60)),
        "mark": (0.96, 0.96, 0.96),  # white: apart from the teal ramps by lightness too
        "out": (245 / 255,) * 3,  # (the "fall out" badge's white in this palette)
        "pattern": 1.0,
    },
}


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

    ``pushes``: the same for the :func:`push_marks` (where a crate beside the
    pawn goes if pushed).
    """

    player: tuple[float, float, float, float]
    view: str = "stand"
    toward: str | None = None
    turn: float = 0.0
    camera: Camera = field(default_factory=Camera)
    moving_crate: tuple[Pos, tuple[float, float, float, float]] | None = None
    fade: float | None = None
    marks: tuple | None = None
    pushes: tuple | None = None

    def basis(self) -> np.ndarray:
        """The 4x4 slice basis of this frame (columns: across, depth, up, hidden)."""
        return turn(self.view, self.toward, self.turn)

def frame_uniforms(room: Room, pose: Pose, size: tuple[int, int],
                   marks: tuple = (), palette: str = "standard",
                   pushes: tuple = ()) -> tuple[dict, set]:
    """A frame's uniforms (float64, shared with the CPU reference) and its variant.

    ``marks`` are :func:`ramp_marks` of the state drawn, ``pushes`` its
    :func:`push_marks`; ``palette`` a name of :data:`PALETTES`.
    """
    colours = PALETTES.get(palette, PALETTES["standard"])
    B = pose.basis()
    centre = np.asarray(pose.player, float) + 0.5
    eye, fwd, right, up = pose.camera.frame()
    variant: set[str] = {"WRAP"} if room.wrap else set()
    player_cell = tuple(int(math.floor(c + 0.5)) for c in pose.player)
    if (abs(float(B[2, 2])) > 0.9 and opens_below(room.size, room.cells)) or (
            float(B[3, 2]) > 0.9 and not room.wrap
            and opens_below(room.size, room.cells, 3, player_cell[2])):
        variant.add("HOLES")  # (its code alone cost a tenth of a frame on llvmpipe)
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
    goal = np.asarray(goal_copy(room, pose.player[3]), float)
    # How far the goal is out of the slice: its halo shows only then (in the slice, its cell
    # is marked and nothing spills onto its neighbours).
    goal_off = abs(float((goal + 0.5 - origin) @ B[:, 3]))
    goal_away = min(max(goal_off - 0.25, 0.0) / 0.5, 1.0)
    # The goal's floor out of the slice (the shader's goal_plate): at rest, the goal in the
    # slice, the view's up axis and the hidden one (the shader asks whether the goal has
    # nothing under it along the first and its floor along the second)
    up_axis, hidden_axis = int(np.argmax(np.abs(B[:, 2]))), int(np.argmax(np.abs(B[:, 3])))
    goal_plate = (up_axis, hidden_axis) if (goal_off < 0.25 and abs(B[up_axis, 2]) > 0.999
                                            and abs(B[hidden_axis, 3]) > 0.999) else (-1, -1)
    if goal_plate[0] >= 0:
        # its variant only where nothing of the room is drawn under the goal (empty, or over
        # the ceiling's cut: the shader asks again, crates too)
        under = list(room.goal)
        under[up_axis] -= 1
        lift = np.zeros(4)
        lift[up_axis] = under[up_axis] - math.floor(float(pose.player[up_axis]) + 0.5)
        under = room.norm(tuple(under))
        if (not room.inside(under) or room.cell(under) == cells.EMPTY
                or not under_ceiling(lift, B)):
            variant.add("PLATE")
    crate_lo = np.full(4, -1000.0)
    if pose.moving_crate is not None:
        cell, offset = pose.moving_crate
        crate_lo = np.asarray(cell, float) + np.asarray(offset, float)
        variant.add("MOVING_CRATE")
    mark_lo, mark_way = _mark_uniforms(marks, pose, B, player_cell,
                                       room.size[3] if room.wrap else 0)
    # the chevrons' way in the slice: up or down a ramp mark's sides (its way); and the push
    # marks (where a crate goes, way +2) in the slots the ramp's leave, their chevrons along
    # the push, away from the pawn
    mark_dir = [(0.0, 0.0, float(w)) for w in mark_way]
    push_lo, push_way = _push_uniforms(pushes, pose, B, player_cell)
    free = [i for i, w in enumerate(mark_way) if not w]
    landings = [lo for lo, w in zip(push_lo, push_way, strict=True) if w > 0]
    for i, lo in zip(free, landings, strict=False):
        away = (np.asarray(lo) + 0.5 - centre) @ B[:, :2]
        away = away / max(float(np.linalg.norm(away)), 1e-9)
        mark_lo[i], mark_way[i], mark_dir[i] = lo, 2.0, (float(away[0]), float(away[1]), 0.0)
    if any(mark_way):
        variant.add("MARKS")
    at_rest = all(float(v) == math.floor(float(v)) for v in pose.player)
    stair = stair_cells(room, B, player_cell) if at_rest else []
    if stair:
        variant.add("STAIR")
    slopes = slope_ramps(room, B, player_cell) if at_rest else []
    if at_rest and ramps_on_other_floors(room, B, player_cell):
        variant.add("RAMP_TOPS")
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
        "u_ghost": ghost,
        "u_w_shows": 1.0 - float(B[3, 3]) ** 2,
        "u_ghost_step": ghost_step,
        "u_ghost_codes": ghost_codes,
        "u_player_cell": player_cell,
        "u_goal_away": goal_away,
        "u_goal_plate": goal_plate,
        "u_stair": [tuple(float(v) for v in c) for c in stair]
                   + [(-9.0, -9.0, -9.0, -9.0)] * (MOST_STAIR - len(stair)),
        "u_stair_n": len(stair),
        "u_stair_code": [room.cell(room.norm((x, y, z - 1, w))) for x, y, z, w in stair]
                        + [0] * (MOST_STAIR - len(stair)),
        "u_slopes_n": len(slopes),
        "u_slopes_box": (min(x for x, _ in slopes), min(y for _, y in slopes),
                         max(x for x, _ in slopes) + 1, max(y for _, y in slopes) + 1)
                        if slopes else (0, 0, 0, 0),
        "u_wband": wrap_band(room, player_cell),
        "u_tones": list(colours["tones"]),
        "u_mark_colour": colours["mark"],
        "u_out_colour": colours["out"],
        "u_bevel": bevel_light(B, right, up),
        "u_toward": toward_eye(B, fwd),
        "u_pattern": colours["pattern"],
        "u_mark_lo": mark_lo,
        "u_mark_way": mark_way,
        "u_mark_dir": mark_dir,
        # the window round the pawn, shut: the renderer opens it where a cell hides the pawn
        # (render.Renderer._window)
        "u_window": 0.0,
        "u_window_to": np.asarray(WINDOW_CENTRE) - eye,
        "u_window_k": (float((np.asarray(WINDOW_CENTRE) - eye) @ (np.asarray(WINDOW_CENTRE) - eye)),
                       1.0 / WINDOW_RADIUS ** 2, -1.0, -1.0),
        "u_ceiling": ceiling(B),
        "u_tunnel": TUNNEL_RADIUS,
        "u_far": float(np.linalg.norm(eye)) + FAR,
    }
    return u, variant


def ceiling(B: np.ndarray) -> float:
    """How far above the player's centre the ceiling cuts, for the basis ``B``.

    :data:`CEILING` with z up; with w up, :data:`CEILING_W_UP`: nothing ana of the
    player's slice is drawn.  Nothing there is in your way (a step never goes ana but off
    a ramp, and its landing is marked), and drawn, it was: with one slice ana kept, three
    blind players of a round read its blocks as walls in their path, or over the goal
    (level 3's, "hidden by a wall" by a block of the slice ana), and saw them come and go
    with each step as the cut round the pawn moved (two slices ana roofed the view).
    Between, by how much w is up.

    >>> from anabasis.picture.views import view_basis
    >>> ceiling(view_basis("stand")), ceiling(view_basis("w-up"))
    (2.5, 0.5)
    """
    w_up = float(B[3, 2]) ** 2
    return CEILING + (CEILING_W_UP - CEILING) * w_up


def under_ceiling(offset, B: np.ndarray):
    """Whether a cell whose centre lies ``offset`` (4D) from the player's centre is under
    the ceiling's cut (:func:`ceiling`), so drawn; ``offset`` may be rows of an array, and
    the answer then an array.

    >>> from anabasis.picture.views import view_basis
    >>> stand, w_up = view_basis("stand"), view_basis("w-up")
    >>> bool(under_ceiling((0, 0, 2, 0), stand)), bool(under_ceiling((0, 0, 0, 1), w_up))
    (True, False)
    """
    return np.asarray(offset, float) @ np.asarray(B[:, 2], float) < ceiling(B) + 0.5 - 1e-6


def drawn_w(w, player_w: int, W: int):
    """Where w wraps, the w of the copy of slice ``w`` that the picture draws: the one at or
    kata of the player's slice ``player_w``, within one turn (:func:`wrap_band`).

    >>> drawn_w(3, 1, 4), drawn_w(1, 1, 4), drawn_w(0, 1, 4)
    (-1, 1, 0)
    """
    return player_w - (player_w - w) % W


def bevel_light(B: np.ndarray, right, up) -> tuple[float, ...]:
    """By 4D axis, how far a top's edge on that axis's + side turns toward the light (up and
    left on screen), from -1 to 1: the axis's direction in the slice (``B``'s row) on the
    screen (the camera's ``right`` and ``up``, in the slice), against the up-left diagonal;
    0 for an axis that does not show on screen.  The shader's ``bevel`` reads it.

    >>> from anabasis.picture import views
    >>> light = bevel_light(views.view_basis("stand"), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    >>> [round(v, 3) for v in light]   # +x turns right (away), +y up (toward), z end on
    [-0.707, 0.707, 0.0, 0.0]
    """
    out = []
    for j in range(4):
        v = np.asarray(B[j, :3], float)
        sx, sy = float(v @ np.asarray(right, float)), float(v @ np.asarray(up, float))
        n = math.hypot(sx, sy)
        out.append((sy - sx) / (n * math.sqrt(2.0)) if n > 1e-6 else 0.0)
    return tuple(out)


def toward_eye(B: np.ndarray, fwd) -> tuple[float, ...]:
    """By 4D axis, how far that axis's + side comes toward the eye along the slice's ground
    (its across and depth, the view's up left out), from -1 to 1: the axis's direction there
    against the camera's forward there, turned round; 0 for an axis that does not lie on the
    ground (the view's up, or the hidden axis).  The shader's ``lip`` and ``occlusion`` read
    it: the far edge of a raised top, whose side looks away from the eye, and the lower floor
    past it.

    >>> from anabasis.picture import views
    >>> cam = views.Camera(yaw=0.0, pitch=1.2)
    >>> _, fwd, _, _ = cam.frame()
    >>> [round(v, 3) for v in toward_eye(views.view_basis("stand"), fwd)]  # +y nearer
    [0.0, 1.0, 0.0, 0.0]
    """
    f = np.asarray(fwd, float)[:2]
    nf = float(np.linalg.norm(f))
    out = []
    for j in range(4):
        v = np.asarray(B[j, :2], float)
        n = float(np.linalg.norm(v))
        out.append(-float(v @ f) / (n * nf) + 0.0 if n > 0.2 and nf > 1e-6 else 0.0)
    return tuple(out)


@lru_cache(maxsize=64)
def opens_below(size, data: bytes, axis: int = 2, z: int | None = None) -> bool:
    """Whether a room (its ``size`` and ``cells``) has a cell of its bottom layer along
    ``axis`` (z, or w: there, in the layer ``z`` alone where it is given, the slice with w
    up) empty: a column there may be open to below the room, a shaft or a hole to the void,
    which the ``HOLES`` variant draws (with z up its sides dark and crossed, its bottom
    crossed; with w up its bottom crossed).  The variant's code alone costs llvmpipe a
    tenth of a frame or so: only frames that may need it pay.

    >>> from anabasis.formats import levels
    >>> one = levels.load_level(1)
    >>> opens_below(one.size, one.cells, 3, 1), opens_below(one.size, one.cells, 3, 0)
    (True, False)
    """
    X, Y, Z, W = size
    grid = np.frombuffer(data, np.uint8).reshape(W, Z, Y, X)
    if axis == 2:
        return bool((grid[:, 0] == cells.EMPTY).any())
    return bool(((grid[0] if z is None else grid[0, min(max(z, 0), Z - 1)]) == cells.EMPTY).any())


def w_up_at_rest(B: np.ndarray) -> bool:
    """Whether basis ``B`` is the w-up view at rest: w straight up the screen, z hidden.

    >>> from anabasis.picture.views import turn, view_basis
    >>> w_up_at_rest(view_basis("w-up")), w_up_at_rest(turn("stand", "w-up", 0.5))
    (True, False)
    """
    return abs(float(B[3, 2])) >= 0.999 and abs(float(B[2, 3])) >= 0.999


def stair_cells(room: Room, B: np.ndarray, player_cell) -> list[tuple[int, int, int, int]]:
    """With w up, at rest: where you would stand on the ramps of the layer under the pawn
    (its z less one: with z hidden, what holds you up there) ana of it, over the ceiling's
    cut, mostly not drawn: the cells over those ramps, in the pawn's z, that a chain of
    ramp steps reaches from the pawn, the first :data:`MOST_STAIR` (the first step's
    landing too), then those kata of it a chain reaches, where there is room; [] in any
    other view.  The shader draws each as its ramp's slope
    (``STAIR``): with w up, level 4's goal three slices ana glowed over the pawn's pits with
    the ramps up to it cut away, and read to blind players of four rounds as floating out
    of reach; the ramps ana are the way up.

    >>> from anabasis.formats import levels
    >>> from anabasis.picture.views import view_basis
    >>> stair_cells(levels.load_level(4), view_basis("w-up"), (0, 0, 1, 1))
    [(1, 0, 1, 2), (2, 0, 1, 3), (3, 0, 1, 4)]
    >>> stair_cells(levels.load_level(4), view_basis("stand"), (0, 0, 1, 1))
    []

    Then the chain kata, where there is room: at level 4's goal, the stair it came up by.

    >>> stair_cells(levels.load_level(4), view_basis("w-up"), (4, 0, 1, 4))
    [(2, 0, 1, 3), (1, 0, 1, 2), (0, 0, 1, 1)]

    None where w wraps: the picture draws the slices a turn kata of the pawn there, the
    ramps ana among them (their copies), and drawn again over the pawn, level 7's ran off
    the room's top and under the title, read by blind players as sails, loose fins or
    glass towers (t264, t270, t273, t276).

    >>> stair_cells(levels.load_level(7), view_basis("w-up"), (0, 0, 1, 0))
    []
    """
    px, py, pz, pw = player_cell
    if not w_up_at_rest(B) or pz < 1 or room.wrap:
        return []
    ramps = {}  # (x, y, how far ana, kata below 0): where you would stand on a ramp
    for x, y, w in ramp_columns(room.size, room.cells, pz - 1):
        ramps[(x, y, w - pw)] = (x, y, pz, w)
    # a stair: those a chain of ramp steps reaches from the pawn (each one across and one
    # ana: scattered, level 7's ramps ana round the room read to a blind player as unbuilt
    # walls), the first link too (the step's own landing, marked): drawn as slopes, with
    # that one left flat, the stair read as starting a cell later (t271); then, where there
    # is room, the chain kata, the way the pawn came (in the layer under its z, not in the
    # picture's slice: at level 4's goal the stair's middle was not drawn, and eight blind
    # players of five rounds read the goal as floating with no way up, or the stair as
    # broken, t316 to t327); a ramp of the pawn's own slice beside it is a link of both
    beside = [(x, y, 0) for x, y in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1))
              if (x, y, 0) in ramps]
    out: list[tuple[int, int, int, int]] = []
    for way in (1, -1):
        frontier, seen = [(px, py, 0), *beside], set()
        while frontier and len(out) < MOST_STAIR:
            step = []
            for x, y, dw in frontier:
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    key = (nx, ny, dw + way)
                    if key in ramps and key not in seen:
                        seen.add(key)
                        step.append(key)
            for key in step:
                if len(out) < MOST_STAIR:
                    out.append(ramps[key])
            frontier = step
    return out


def ramps_on_other_floors(room: Room, B: np.ndarray, player_cell) -> bool:
    """With w up: whether the layer under the pawn's (its z less one: with z hidden, what
    holds you up there) holds a ramp in a slice other than the pawn's.  The ghost draws
    those of the pawn's own slice on the plane under its feet; the shader's ``RAMP_TOPS``
    draws the others on the tops they make floors of.  Left out, level 6's ramp, with the
    pawn a slice ana of it, was a plain floor, and a blind player thought it gone (t252).

    >>> from anabasis.formats import levels
    >>> from anabasis.picture.views import view_basis
    >>> room = levels.load_level(6)
    >>> [ramps_on_other_floors(room, view_basis(v), (0, 0, 1, 3)) for v in ("w-up", "stand")]
    [True, False]
    """
    pz, pw = player_cell[2], player_cell[3]
    if not w_up_at_rest(B) or pz < 1:
        return False
    return any(w != pw for _, _, w in ramp_columns(room.size, room.cells, pz - 1))


def slope_ramps(room: Room, B: np.ndarray, player_cell) -> list[tuple[int, int]]:
    """With w up, at rest: ``(x, y)`` of each ramp of the layer under the pawn, in its slice,
    but the one under the pawn: the ghost draws them as slopes (the shader's
    ``ghost_slopes``, only in the box round them, ``u_slopes_box``: the rest of the frame
    pays nothing); [] in any other view.

    >>> from anabasis.formats import levels
    >>> from anabasis.picture.views import view_basis
    >>> slope_ramps(levels.load_level(3), view_basis("w-up"), (0, 0, 1, 1))
    [(2, 0), (2, 2)]
    >>> slope_ramps(levels.load_level(3), view_basis("stand"), (0, 0, 1, 1))
    []

    None where w wraps: the pawn's slice is the top of the turn drawn there, and level 7's
    ramps round its edge, rising over it, read to blind players of four rounds as flaps or
    fins hanging outside the room (t270, t273, t276, t279); drawn flat, as before.

    >>> slope_ramps(levels.load_level(7), view_basis("w-up"), (0, 0, 1, 0))
    []

    Nor in the room's last slice, with no slice ana to rise to (level 4's, by its goal):

    >>> room = levels.load_level(4)
    >>> slope_ramps(room, view_basis("w-up"), (4, 0, 1, 4)), room.size[3]
    ([], 5)
    """
    px, py, pz, pw = player_cell
    if not w_up_at_rest(B) or pz < 1 or room.wrap or pw + 1 >= room.size[3]:
        return []  # (nor in the room's last slice: no slice ana to rise to; level 4's ramp
        # by its goal, drawn so, read as a tipped slab over the room, t277)
    return [(x, y) for x, y, w in ramp_columns(room.size, room.cells, pz - 1)
            if w == pw and (x, y) != (px, py)]


@lru_cache(maxsize=32)
def ramp_columns(size, data: bytes, z: int) -> tuple[tuple[int, int, int], ...]:
    """``(x, y, w)`` of each ramp at height ``z`` of a room's ``size`` and ``cells``."""
    X, Y, Z, W = size
    grid = np.frombuffer(data, np.uint8).reshape(W, Z, Y, X)
    w, y, x = np.nonzero(np.isin(grid[:, z], tuple(cells.RAMPS)))
    return tuple(zip(x.tolist(), y.tolist(), w.tolist(), strict=True))


def crossed_gaps(room: Room) -> tuple[tuple[int, int, int], ...]:
    """The gaps a ramp's step may cross: ``(x, y, w)`` of each column of slice ``w`` with no
    block or ramp in it at any height, beside a ramp of that slice leaning toward it (its top
    is the ramp: a step off its high side goes ana, over the gap), or over a ramp topping
    the column one slice kata (a step in at its tip goes down onto it).  The map draws them
    without a cross ("a ramp steps over it"; "a ramp 1 kata: in at its tip, or fall out"), and so
    does the picture: crossed as pits you fall out from, in level 7's w-up view they read to
    blind players as ramps throwing you into the void.  Of the room's cells alone (an
    editor's draft holds its players and crates as cells: they are no top).

    >>> from anabasis.formats import levels
    >>> crossed_gaps(levels.load_level(7))[:3]
    ((1, 0, 0), (2, 3, 0), (2, 0, 1))
    """
    beside, below = gaps_ramps_cross(room.size, room.cells, room.wrap)
    return tuple(sorted(beside | below, key=lambda c: (c[2], c[1], c[0])))


@lru_cache(maxsize=32)
def gaps_ramps_cross(size, data: bytes, wrap: bool) -> tuple[frozenset, frozenset]:
    """(the gaps a ramp beside leans toward, the gaps over a ramp one slice kata), each a
    set of ``(x, y, w)``, of a room's ``size``, ``cells`` and ``wrap`` (:func:`crossed_gaps`;
    the slice map asks the first too)."""
    X, Y, Z, W = size
    grid = np.frombuffer(data, np.uint8).reshape(W, Z, Y, X)
    solid = (grid == cells.BLOCK) | np.isin(grid, tuple(cells.RAMPS))
    tops = np.full((W, Y, X), -1, np.int16)  # each column's top cell's code, -1 for a gap
    for z in range(Z):
        tops = np.where(solid[:, z], grid[:, z], tops)
    ramps = tuple(cells.RAMPS)
    beside, below = set(), set()
    for w in range(W):
        kata = (w - 1) % W if wrap else w - 1
        for y in range(Y):
            for x in range(X):
                if tops[w, y, x] >= 0:
                    continue
                if 0 <= kata < W and int(tops[kata, y, x]) in ramps:
                    below.add((x, y, w))
                for code, (axis, sign) in cells.RAMP_LEAN.items():
                    nx, ny = (x - sign, y) if axis == 0 else (x, y - sign)
                    if 0 <= nx < X and 0 <= ny < Y and tops[w, ny, nx] == code:
                        beside.add((x, y, w))
                        break
    return frozenset(beside), frozenset(below)


def goal_copy(room: Room, player_w: float) -> tuple[int, int, int, int]:
    """Where the goal is drawn: in a wrapped room, the copy of it round the tower nearest
    the player's w (``player_w``); else the goal itself.  The markers put the goal's there
    too (put in the band of :func:`wrap_band`, level 7's goal marker in the w-up view lay
    three slices kata of its glow, one ana, and read as a second goal).

    >>> from anabasis.formats import levels
    >>> level = levels.load_level(7)
    >>> level.goal[3], goal_copy(level, 2.0)[3], goal_copy(level, 1.0)[3], goal_copy(level, 0.0)[3]
    (3, 3, -1, -1)
    """
    goal = list(room.goal)
    if room.wrap:
        # (half a turn each way: the copy kata, in the band the picture draws; taken ana,
        # in level 7's both view the goal's marker lay two rows past the room, on the key bar)
        W = room.size[3]
        goal[3] -= W * math.floor((goal[3] - float(player_w)) / W + 0.5)
    return tuple(goal)


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


def _mark_uniforms(marks, pose: Pose, B: np.ndarray, player_cell,
                   wrap: int = 0) -> tuple[list, list]:
    """The marks' corners drawn in this frame's slice, and their ways (far away when unused).

    Drawn only at rest, where the player stands at a cell and the view is
    not turning; with w hidden a mark is drawn at the slice's w (the step
    goes round through w), with another axis hidden only where it lies in
    the slice.  ``wrap``: the room's W where w wraps; a mark's w is then the
    one a slice from the player's that its way says (a step ana from the top
    slice lands in slice 0, drawn one up, not W - 1 down).
    """
    resting = all(float(c).is_integer() for c in pose.player)
    k = int(np.argmax(np.abs(B[:, 3])))

    def place(cell):
        cell = list(cell)
        if wrap:
            cell[3] = player_cell[3] + (cell[3] - player_cell[3] + 1) % wrap - 1
        if k == 3:
            cell[3] = player_cell[3]
        elif cell[k] != player_cell[k]:
            return None
        return cell

    return _slots(marks, MARKS, place if resting and abs(B[k, 3]) >= 0.999999 else None)


def _slots(marks, n: int, place) -> tuple[list, list]:
    """``n`` uniform slots of marks (``(cell, way)``): each cell as ``place`` draws it (None:
    not in the slice), in order, the rest far away (:data:`_NO_MARK`, way 0); all far away
    where ``place`` is None (nothing is drawn this frame)."""
    lo = [_NO_MARK] * n
    way = [0.0] * n
    i = 0
    for cell, sign in marks[:n] if place is not None else ():
        cell = place(cell)
        if cell is None:
            continue
        lo[i] = tuple(float(c) for c in cell)
        way[i] = float(sign)
        i += 1
    return lo, way


#: How many push marks there can be: a crate on each side of the pawn (the shader draws them
#: in the :data:`MARKS` slots the ramp marks leave).
PUSHES = 4


def push_marks(room: Room, state: State) -> tuple[tuple[Pos, int, Pos | None], ...]:
    """Where a push moves each crate beside the pawn (a step's way from it): ``((cell, +1,
    rest), ...)`` the cell a push moves it into and the cell it rests in once it has fallen
    (``cell`` where it stays, None where it falls out), ``((crate, -1, crate), ...)`` where
    that step does not move it (it is stuck that way: the step climbs it, or does nothing;
    no mark is drawn for it).

    Asked of the rules (the step's first frame, where the push puts it, and its end), so the
    picture decides nothing.  At most :data:`PUSHES`.

    >>> from anabasis.formats import levels
    >>> from anabasis.engine import rules
    >>> room = levels.load_level(5)
    >>> push_marks(room, rules.replay(room, "R").state)  # the crate below the pawn: free
    (((1, 2, 1, 2), 1, (1, 2, 1, 2)),)
    >>> room = levels.load_level(6)  # up the ramp beside the crate, a shaft two slices deep
    >>> push_marks(room, rules.replay(room, "LLUUR").state)  # past it: it drops to w 1
    (((3, 0, 1, 3), 1, (3, 0, 1, 1)),)
    """
    crates = set(state.crates)
    out = []
    for move, d in rules.STEPS.items():
        ahead = tuple(p + k for p, k in zip(state.player, d, strict=True))
        if ahead not in crates:
            continue
        result = rules.step(room, state, move, trace=True)
        after = set(result.frames[0].crates) if result.moved and result.frames else crates
        went = after - crates
        if ahead not in after and len(went) == 1:
            ended = set(result.state.crates) - crates
            rest = next(iter(ended)) if len(ended) == 1 else None
            out.append((next(iter(went)), 1, rest))
        else:
            out.append((ahead, -1, ahead))
    return tuple(out[:PUSHES])


def _push_uniforms(pushes, pose: Pose, B: np.ndarray, player_cell) -> tuple[list, list]:
    """The push marks' corners in this frame's slice, and their ways (+1 where the crate goes,
    -1 a crate stuck that way, 0 unused: far away; the shader draws the +1 ones).  At rest
    only, no crate moving, and only a mark in the slice (a push moves a crate along x or y,
    so with w hidden it stays in the pawn's).  Where the crate falls on from there and rests
    in the slice (down a shaft with w up, or a pit in z), the mark is where it rests: drawn
    where the push puts it, over the shaft's mouth, its chevrons on the box's floor read as
    a floor at the pawn's height to blind players of four rounds (level 6 with w up: t322,
    t323, t325, t326, t327)."""
    resting = all(float(c).is_integer() for c in pose.player) and pose.moving_crate is None
    k = int(np.argmax(np.abs(B[:, 3])))
    drawn = resting and abs(B[k, 3]) >= 0.999999
    placed = [(rest if rest is not None and rest[k] == player_cell[k] else cell, way)
              for cell, way, rest in pushes]
    return _slots(placed, PUSHES,
                  (lambda cell: cell if cell[k] == player_cell[k] else None) if drawn else None)
