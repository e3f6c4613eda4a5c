"""The views: which three of the four axes the screen shows, and the turns between them.

Pure numpy and pyrr: no GL, no pygame, so the window, the renderer and the
tests all share one idea of what is on screen.

The slice the renderer draws has four axes of its own, always in this
order: **across, depth, up, hidden** (slice coordinates).  x is always
across; a view is a rotation of the y-z-w subspace, a unit quaternion that
takes (depth, up, hidden) to (y, z, w):

| view | depth | up | hidden | reads as |
|---|---|---|---|---|
| ``stand`` | +y | +z | +w | the way you'd stand |
| ``w-up`` | +y | +w | -z | w's gravity drawn as gravity |
| ``both`` | +w | +z | -y | both downs side by side |

:func:`basis` turns a quaternion into a 4x4 matrix whose *columns* are the
4D directions of the slice axes, so ``basis(q) @ (a, d, u, h)`` is a 4D
vector.  A turn slerps the quaternions (:func:`turn`), so every frame of a
turn is still a rotation and the world morphs on the way.

>>> import numpy as np
>>> B = turn("stand", "w-up", 1.0)
>>> np.round(B @ [0, 0, 1, 0]).astype(int).tolist()     # up is +w
[0, 0, 0, 1]
>>> axis_labels(basis(view_quaternion("both")))
{'across': '+x', 'depth': '+w', 'up': '+z', 'hidden': '-y'}

The orbit :class:`Camera` lives in slice coordinates round the player:
``yaw`` turns about the slice's up axis (0 looks along -depth, so in the
stand view the level reads as its text file does: y = 0 far, x to the
right), ``pitch`` looks down.  :func:`arrow_to_move` rounds what an arrow
key looks like on screen to a step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from pyrr import quaternion as pq

from anabasis.engine.moves import STEPS
from anabasis.engine.world import VIEWS  # noqa: F401  (the order V turns through them)

#: The slice axes, in the order of :func:`basis`'s columns.
SLICE_AXES = ("across", "depth", "up", "hidden")

#: The 4D axes by index.
AXES = "xyzw"

#: Fixed colours for the 4D axes (the HUD's axis labels), RGB 0..255.
AXIS_COLOURS = {
    "x": (235, 87, 87),
    "y": (111, 207, 116),
    "z": (86, 156, 255),
    "w": (242, 201, 76),
}
#: The same in the colour-blind-safe palette (Okabe and Ito's vermillion, bluish green, sky
#: blue and yellow): every place that draws them also writes the axis's name.
AXIS_COLOURS_SAFE = {
    "x": (213, 94, 0),
    "y": (0, 158, 115),
    "z": (86, 180, 233),
    "w": (240, 228, 66),
}


def axis_colours(palette: str = "standard") -> dict:
    """The axes' colours in ``palette`` (``standard`` or ``safe``)."""
    return AXIS_COLOURS_SAFE if palette == "safe" else AXIS_COLOURS

#: Columns (depth, up, hidden) of each view's rotation, as 4D axes with sign.
_VIEW_AXES = {
    "stand": ((+1, "y"), (+1, "z"), (+1, "w")),
    "w-up": ((+1, "y"), (+1, "w"), (-1, "z")),
    "both": ((+1, "w"), (+1, "z"), (-1, "y")),
}


def _rotation(name: str) -> np.ndarray:
    """The 3x3 rotation of (y, z, w) whose columns are the view's depth, up and hidden."""
    if name not in _VIEW_AXES:
        raise ValueError(f"unknown view {name!r} (known: {', '.join(VIEWS)})")
    rot = np.zeros((3, 3))
    for col, (sign, axis) in enumerate(_VIEW_AXES[name]):
        rot["yzw".index(axis), col] = sign
    return rot


def view_quaternion(name: str) -> np.ndarray:
    """The unit quaternion (pyrr order x, y, z, w) of view ``name``'s y-z-w rotation.

    It rotates slice (depth, up, hidden) into 4D (y, z, w).
    """
    q = pq.create_from_matrix(_rotation(name))
    return q / np.linalg.norm(q)


def next_view(name: str) -> str:
    """The view V turns to from ``name``: stand, w-up, both, and round again."""
    return VIEWS[(VIEWS.index(name) + 1) % len(VIEWS)]


def slerp(q0: np.ndarray, q1: np.ndarray, t: float) -> np.ndarray:
    """The unit quaternion ``t`` of the way from ``q0`` to ``q1``, the short way round."""
    q0 = np.asarray(q0, float)
    q1 = np.asarray(q1, float)
    # q and -q are the same rotation: take the nearer (pyrr does too, except where it lerps)
    if np.dot(q0, q1) < 0.0:
        q1 = -q1
    q = pq.slerp(q0, q1, float(min(max(t, 0.0), 1.0)))
    return q / np.linalg.norm(q)


def _with_x_across(rot: np.ndarray) -> np.ndarray:
    """The 4x4 basis of a y-z-w rotation: column 0 is +x, the others are ``rot``'s."""
    out = np.zeros((4, 4))
    out[0, 0] = 1.0
    out[1:, 1:] = rot
    return out


def basis(q: np.ndarray) -> np.ndarray:
    """The 4x4 matrix whose columns are the 4D directions of (across, depth, up, hidden).

    Column 0 is always +x; the others are ``q`` applied to the y-z-w axes.
    """
    q = np.asarray(q, float)
    return _with_x_across(np.column_stack([pq.apply_to_vector(q, e) for e in np.eye(3)]))


def view_basis(name: str) -> np.ndarray:
    """The basis of a view at rest (exact 0 and ±1 entries)."""
    return _with_x_across(_rotation(name))


def hidden_axis(name: str) -> int:
    """The 4D axis (0..3) that view ``name`` hides at rest: w in stand, z in w-up, y in both.

    >>> [AXES[hidden_axis(v)] for v in VIEWS]
    ['w', 'z', 'y']
    """
    return AXES.index(_VIEW_AXES[name][2][1])


def turn(start: str, end: str | None = None, t: float = 0.0) -> np.ndarray:
    """The basis ``t`` (0..1) of the way through the turn from view ``start`` to ``end``.

    Ends at rest are exact (no rounding noise), so a view at rest is axis-aligned.
    """
    if end is None or end == start or t <= 0.0:
        return view_basis(start)
    if t >= 1.0:
        return view_basis(end)
    return basis(slerp(view_quaternion(start), view_quaternion(end), t))


def axis_of(vector) -> tuple[int, int]:
    """The 4D axis (index, sign) nearest to ``vector``; ties go to the earlier axis."""
    v = np.asarray(vector, float)
    k = int(np.argmax(np.abs(v)))
    return k, (1 if v[k] >= 0 else -1)


def axis_labels(b: np.ndarray) -> dict[str, str]:
    """Which 4D axis, with sign, each slice axis is (nearest, mid-turn), for the HUD.

    >>> axis_labels(view_basis("w-up"))
    {'across': '+x', 'depth': '+y', 'up': '+w', 'hidden': '-z'}
    """
    out = {}
    for col, name in enumerate(SLICE_AXES):
        k, sign = axis_of(b[:, col])
        out[name] = ("+" if sign > 0 else "-") + AXES[k]
    return out


def screen_labels(b: np.ndarray, camera) -> dict[str, str]:
    """:func:`axis_labels`, with "across" the 4D axis that runs most nearly right along
    the screen for ``camera`` (its sign the way it runs): a blind player orbited a
    quarter turn, x then up the screen, and the key line still said "across +x" (t284).

    >>> screen_labels(view_basis("stand"), Camera())["across"]
    '+x'
    >>> screen_labels(view_basis("stand"), Camera(yaw=0.15 + math.pi / 2))["across"]
    '+y'
    """
    out = axis_labels(b)
    k, sign = axis_of(arrow_direction(b, camera.yaw, "right"))  # (the right arrow's step)
    out["across"] = ("+" if sign > 0 else "-") + AXES[k]
    return out


@dataclass(frozen=True)
class Camera:
    """An orbit camera round the player, in slice coordinates; a value (methods return new ones).

    ``yaw`` (radians) turns about the slice's up axis; 0 looks along -depth
    (the default, a little turned, shows the blocks' sides as well).
    ``pitch`` (radians) looks down from the horizontal; ``distance`` is in
    cells from the player's centre; ``fov`` is the vertical field of view
    in degrees.  ``target`` is the point it looks at and turns round, in slice
    coordinates from the player's centre: it moves with the player, so the
    player stays where it is in the picture as it walks.
    """

    yaw: float = 0.35
    pitch: float = 0.9
    distance: float = 7.5
    fov: float = 50.0
    target: tuple[float, float, float] = (0.0, 0.0, 0.0)

    MIN_PITCH = 0.05
    MAX_PITCH = 1.50
    MIN_DISTANCE = 3.0
    MAX_DISTANCE = 45.0

    def orbit(self, dyaw: float = 0.0, dpitch: float = 0.0) -> Camera:
        """Turn round the player; the pitch stays between nearly level and nearly straight down."""
        pitch = min(max(self.pitch + dpitch, self.MIN_PITCH), self.MAX_PITCH)
        return replace(self, yaw=self.yaw + dyaw, pitch=pitch)

    def zoom(self, factor: float) -> Camera:
        """Move nearer (factor < 1) or farther (factor > 1)."""
        d = min(max(self.distance * factor, self.MIN_DISTANCE), self.MAX_DISTANCE)
        return replace(self, distance=d)

    def forward(self) -> np.ndarray:
        """The unit direction the camera looks, in slice (across, depth, up)."""
        cp = math.cos(self.pitch)
        return np.array([cp * math.sin(self.yaw), -cp * math.cos(self.yaw), -math.sin(self.pitch)])

    def right(self) -> np.ndarray:
        """Screen right, in slice (across, depth, up): always horizontal."""
        return np.array([math.cos(self.yaw), math.sin(self.yaw), 0.0])

    def frame(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(eye, forward, right, up) in slice coordinates, eye relative to the player's centre."""
        fwd = self.forward()
        right = self.right()
        up = np.cross(fwd, right)
        eye = np.asarray(self.target, float) - self.distance * fwd
        return eye, fwd, right, up


#: The whole picture, as an ``area`` of :func:`fit_camera` and :func:`frame_room`: (left,
#: bottom, right, top) in the picture's normalised coordinates (-1 to 1 each way, y up).
WHOLE = (-1.0, -1.0, 1.0, 1.0)


def fit_camera(camera: Camera, b: np.ndarray, size, player, aspect: float = 16 / 9,
               margin: float = 0.9, corners: np.ndarray | None = None,
               area: tuple[float, float, float, float] = WHOLE) -> Camera:
    """``camera`` moved in or out so that the whole room shows round the player.

    ``b`` is the basis, ``size`` the room's (X, Y, Z, W), ``player`` its
    position (cell coordinates).  The room's box (one period of w where it
    wraps: pass W) is mapped into the slice and the nearest distance is taken
    at which every corner lies within ``margin`` of the edges of ``area`` (a part
    of the picture: :data:`WHOLE`, or one beside the slice map), measured from
    its centre; ``corners``, when given, are the points to fit instead, already
    in slice coordinates from the player's centre.
    """
    left, bottom, right_edge, top = area
    cx, cy = (left + right_edge) / 2, (bottom + top) / 2
    hw, hh = (right_edge - left) / 2, (top - bottom) / 2
    if corners is None:
        box = np.array([[cx, cy, cz, cw] for cx in (0, size[0]) for cy in (0, size[1])
                        for cz in (0, size[2]) for cw in (0, size[3])], float)
        rel = (box - (np.asarray(player, float) + 0.5)) @ b[:, :3]  # slice coordinates
    else:
        rel = corners
    tan = math.tan(math.radians(camera.fov) / 2.0)
    distance = camera.MIN_DISTANCE
    while distance < camera.MAX_DISTANCE:
        eye, fwd, right, up = replace(camera, distance=distance).frame()
        v = rel - eye
        depth = v @ fwd
        if np.all(depth > 0.5):
            x = np.abs((v @ right) / (depth * tan * aspect) - cx) / hw
            y = np.abs((v @ up) / (depth * tan) - cy) / hh
            if x.max() <= margin and y.max() <= margin:
                break
        distance += 0.25
    return replace(camera, distance=min(distance, camera.MAX_DISTANCE))


#: The camera a room opens with: nearly square on, so that rows run across the screen and
#: columns up it as in the level file, turned just enough to show the blocks' sides.
ROOM_YAW = 0.15
#: Steep over a room low along the view's up axis (its floor's grid reads best from above);
#: a little flatter over a tall one, so that its walls' faces show.  They were 1.05 and
#: 0.95: a block's height lifted its top half a row up the screen (more over a tall room),
#: and blind players read a pawn behind a wall one high as standing on it, a crate as a
#: row further on, and in a tall room found crates and the pawn hidden by the walls in
#: front (at 1.25 a height of one lifts a top a third of a row).
ROOM_PITCH_LOW, ROOM_PITCH_TALL = 1.25, 1.15
#: The field of view a room opens with (degrees, vertical): over a tall room narrower than
#: the camera's own 50, farther off, the picture nearer to parallel.  At 50, the rows at the
#: top of the picture were seen 25 degrees flatter than the pitch, and a crate's top there
#: lay a whole row up the screen from its floor: blind players of three rounds read crates
#: in made rooms as a row further on, "walk · hidden by the crate" round them.  At 34, about
#: half a row.  Over a low room (the first levels) the camera's own: at 34, level 2's wall
#: beside the pawn hardly overlapped the row behind it, and three blind players of seven
#: read it as level with their floor, or lower.
ROOM_FOV_LOW, ROOM_FOV_TALL = 50.0, 34.0
#: With w up the camera looks square on, and with the narrower field of view over every
#: room: turned by ROOM_YAW, the rows rose to the right, and level 5's goal column, past
#: the trench, had its top higher up the screen than the floor it is level with and its
#: side showing over the trench; blind players of every round read it as higher (t280 to
#: t309), with its tag saying "as high as you".
W_UP_YAW = 0.0


def room_yaw(view: str) -> float:
    """The yaw a room is seen from in ``view`` until the player orbits: :data:`W_UP_YAW`
    with w up, else :data:`ROOM_YAW`."""
    return W_UP_YAW if view == "w-up" else ROOM_YAW


def room_fov(view: str, size) -> float:
    """The field of view a room is seen with in ``view`` (``size``: the room's): the
    camera's own over a room 3 cells or fewer along the view's up axis, else narrower; with
    w up, always the narrower, as its yaw is square on (:data:`W_UP_YAW`).

    >>> room_fov("stand", (4, 2, 2, 2)), room_fov("w-up", (4, 2, 2, 2))
    (50.0, 34.0)
    """
    up_axis, _ = axis_of(view_basis(view)[:, 2])
    return ROOM_FOV_LOW if size[up_axis] <= 3 and view != "w-up" else ROOM_FOV_TALL


def turned_camera(camera: Camera, view: str, to: str, size) -> Camera:
    """The camera to turn from ``view`` to ``to`` with, in a room of ``size``: where it is
    still ``view``'s own (:func:`room_yaw`, :func:`room_fov`: the player has not orbited),
    ``to``'s own yaw and field of view; else ``camera`` as it is.

    >>> cam = Camera(yaw=ROOM_YAW, fov=ROOM_FOV_LOW)
    >>> up = turned_camera(cam, "stand", "w-up", (4, 2, 2, 2))
    >>> (up.yaw, up.fov), round(turned_camera(cam.orbit(0.3), "stand", "w-up", (4, 2, 2, 2)).yaw, 6)
    ((0.0, 34.0), 0.45)
    """
    if abs(camera.yaw - room_yaw(view)) > 1e-9 or camera.fov != room_fov(view, size):
        return camera
    return replace(camera, yaw=room_yaw(to), fov=room_fov(to, size))


def room_box(size, player, wrap: bool = False) -> np.ndarray:
    """The 16 corners (4D) of what a room shows: its grid, or where w wraps one turn of w and
    the slice of the next turn the renderer draws (:func:`anabasis.picture.render.wrap_band`:
    the player's slice and the ``W`` kata of it), and the slice ana of the player, where the
    mark of a climb round the tower is drawn."""
    pw = math.floor(float(player[3]) + 0.5)
    w_lo, w_hi = (pw - size[3], pw + 2) if wrap else (0, size[3])
    return np.array([[cx, cy, cz, cw] for cx in (0, size[0]) for cy in (0, size[1])
                     for cz in (0, size[2]) for cw in (w_lo, w_hi)], float)


def frame_room(camera: Camera, b: np.ndarray, size, player, aspect: float = 16 / 9,
               wrap: bool = False, margin: float = 0.9,
               area: tuple[float, float, float, float] = WHOLE) -> Camera:
    """``camera`` (its yaw and pitch kept) aimed and moved back so that the room's box fills
    the picture (or its part ``area``, as :func:`fit_camera` has it), centred, within
    ``margin`` of its edges; never nearer than the default distance, so a tiny room still
    shows its surroundings.  The player is in the box, so it is in the picture too.

    >>> b = view_basis("stand")
    >>> cam = frame_room(Camera(yaw=0.0, pitch=1.0), b, (6, 1, 1, 1), (0, 0, 0, 0))
    >>> round(cam.target[0], 1)   # aimed at the row's middle, 2.5 cells right of the player
    2.5
    """
    rel = (room_box(size, player, wrap) - (np.asarray(player, float) + 0.5)) @ b[:, :3]
    tan = math.tan(math.radians(camera.fov) / 2.0)
    # Aim at the box's middle, then nudge the aim so its picture is centred (perspective
    # draws the near side larger), fitting the distance each time.
    cam = replace(camera, target=tuple(float(v) for v in (rel.min(axis=0) + rel.max(axis=0)) / 2))
    # (the area's centre, in the units of x and y below: the picture's height)
    cx, cy = (area[0] + area[2]) / 2 * aspect, (area[1] + area[3]) / 2
    for _ in range(4):
        cam = fit_camera(cam, b, size, player, aspect, margin, corners=rel, area=area)
        cam = replace(cam, distance=max(cam.distance, Camera.distance))
        eye, fwd, right, up = cam.frame()
        v = rel - eye
        depth = np.maximum(v @ fwd, 0.5)
        x, y = (v @ right) / (depth * tan), (v @ up) / (depth * tan)
        # the offset of the box's middle from the area's centre, back to the target's plane
        mid_x, mid_y = (x.max() + x.min()) / 2 - cx, (y.max() + y.min()) / 2 - cy
        shift = cam.distance * tan * (mid_x * right + mid_y * up)
        cam = replace(cam, target=tuple(float(t) for t in np.asarray(cam.target) + shift))
    cam = fit_camera(cam, b, size, player, aspect, margin, corners=rel, area=area)
    return replace(cam, distance=max(cam.distance, Camera.distance))


def room_camera(size, view: str, player, aspect: float = 16 / 9, wrap: bool = False,
                area: tuple[float, float, float, float] = WHOLE) -> Camera:
    """The camera a room opens with in ``view``, chosen for the room and framing it all.

    The pitch and the field of view follow the room's extent along the view's up axis
    (3 cells or fewer: :data:`ROOM_PITCH_LOW` and :data:`ROOM_FOV_LOW`, else
    :data:`ROOM_PITCH_TALL` and :data:`ROOM_FOV_TALL`; with w up, :func:`room_fov`), the
    yaw the view (:func:`room_yaw`); the aim and the distance are :func:`frame_room`'s: the
    room centred, as large as fits.

    >>> cam = room_camera((4, 2, 2, 2), "stand", (0, 0, 1, 1))
    >>> (cam.yaw, cam.pitch, cam.distance >= Camera().distance)
    (0.15, 1.25, True)
    """
    b = view_basis(view)
    up_axis, _ = axis_of(b[:, 2])
    low = size[up_axis] <= 3
    camera = Camera(yaw=room_yaw(view), pitch=ROOM_PITCH_LOW if low else ROOM_PITCH_TALL,
                    fov=room_fov(view, size))
    return frame_room(camera, b, size, player, aspect, wrap, area=area)


#: The screen directions of the arrow keys, as (forward, right) weights.
_ARROWS = {"up": (1, 0), "down": (-1, 0), "right": (0, 1), "left": (0, -1)}

#: A step along a 4D axis with sign, as a move letter (z and w: no step, said as the axis).
_MOVE_OF = {**{(axis, sign): AXES[axis] for axis in (2, 3) for sign in (1, -1)},
            **{axis_of(delta): letter for letter, delta in STEPS.items()}}


def arrow_to_move(b: np.ndarray, yaw: float, arrow: str) -> str:
    """The step an arrow key means on screen: ``'R' 'L' 'D' 'U'``, or ``'w'`` / ``'z'``.

    The arrow's screen direction (the camera's forward or right, flattened)
    is rounded to the nearest of the slice's horizontal axes (±across,
    ±depth), and that to the nearest 4D axis through the basis ``b``.
    ``'w'`` means the arrow would step in w, which the game refuses ("you
    can't step in w: ..."); ``'z'`` can only come mid-turn.

    >>> arrow_to_move(view_basis("stand"), 0.0, "up")
    'U'
    >>> arrow_to_move(view_basis("both"), 0.0, "up")
    'w'
    """
    return _MOVE_OF[axis_of(arrow_direction(b, yaw, arrow))]


def arrow_direction(b: np.ndarray, yaw: float, arrow: str) -> np.ndarray:
    """The 4D unit direction an arrow means on screen: the camera's forward or right,
    rounded to the nearest of the slice's horizontal axes (ties go to across).

    >>> [int(v) for v in arrow_direction(view_basis("both"), 0.0, "up")]
    [0, 0, 0, -1]
    """
    if arrow not in _ARROWS:
        raise ValueError(f"unknown arrow {arrow!r} (known: {', '.join(_ARROWS)})")
    f, r = _ARROWS[arrow]
    cam = Camera(yaw=yaw)
    fwd = cam.forward()
    flat = f * np.array([fwd[0], fwd[1]]) / max(math.hypot(fwd[0], fwd[1]), 1e-9)
    flat = flat + r * cam.right()[:2]
    if abs(flat[0]) >= abs(flat[1]):
        slice_dir = np.array([math.copysign(1.0, flat[0]), 0.0, 0.0, 0.0])
    else:
        slice_dir = np.array([0.0, math.copysign(1.0, flat[1]), 0.0, 0.0])
    return b @ slice_dir


def move_to_arrow(b: np.ndarray, yaw: float, move: str) -> str | None:
    """The arrow key that plays ``move`` on screen (the inverse of :func:`arrow_to_move`).

    None when no arrow does: the move's axis is hidden in this view (y in
    "both"), or upright on screen.

    >>> move_to_arrow(view_basis("stand"), 0.0, "U"), move_to_arrow(view_basis("both"), 0.0, "U")
    ('up', None)
    """
    for arrow in _ARROWS:
        if arrow_to_move(b, yaw, arrow) == move:
            return arrow
    return None


def project(camera: Camera, b: np.ndarray, offset) -> tuple[float, float] | None:
    """Where a point falls in the picture: ``offset`` is 4D, from the player's centre.

    The answer is the shader's own picture coordinates: (0, 0) the
    centre, y up, and one unit half the picture's height (so x runs from
    -aspect to +aspect).  None for a point at or behind the eye.  The
    camera's target is the picture's centre (the player's centre when the
    target is 0).

    >>> project(Camera(yaw=0.0, pitch=0.0), view_basis("stand"), (0, 0, 0, 0))
    (0.0, 0.0)
    """
    eye, fwd, right, up = camera.frame()
    v = np.asarray(offset, float) @ b[:, :3] - eye  # slice coordinates, from the eye
    depth = float(v @ fwd)
    if depth <= 1e-6:
        return None
    tan = math.tan(math.radians(camera.fov) / 2.0)
    return float(v @ right) / (depth * tan), float(v @ up) / (depth * tan)
