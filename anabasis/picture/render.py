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

The code is split by kind: :mod:`anabasis.picture.pose` (the pose and the uniform maths,
pure), :mod:`anabasis.picture.twins` (the CPU twins of the shader's functions),
:mod:`anabasis.picture.programs` (the shader's source and the program cache) and
:mod:`anabasis.picture.offscreen` (:class:`Offscreen`); this module keeps :class:`Renderer`
and :func:`render_image`, and every name the others hold is importable from here too.
"""

from __future__ import annotations

import math

import numpy as np

from anabasis.engine import cells, rules
from anabasis.engine.world import Pos, Room, State
from anabasis.picture import clearance
from anabasis.picture.headless import NoGLError, headless_context  # noqa: F401 (the API)
from anabasis.picture.offscreen import Offscreen
from anabasis.picture.png import write_png  # noqa: F401 (the API)
from anabasis.picture.pose import (  # noqa: F401 (the API)
    _NO_MARK,
    CEILING,
    CEILING_W_UP,
    CRATE_INSET,
    FACE_INSIDE,
    FACE_MISS,
    FAR,
    FEET,
    FEET_MARGIN,
    FOG_START,
    HAIR,
    MARKS,
    MAX_STEPS,
    MOST_CROSSED,
    MOST_HELD,
    MOST_STAIR,
    NEVER,
    PALETTES,
    SHADER_CONSTANTS,
    SNAP,
    TUNNEL_RADIUS,
    WINDOW_RADIUS,
    Pose,
    _mark_uniforms,
    ceiling,
    crossed_gaps,
    frame_uniforms,
    push_marks,
    ramp_marks,
    wrap_band,
)
from anabasis.picture.programs import (  # noqa: F401 (the API)
    _PROGRAMS,
    SHADER_DIR,
    SLICE_CHUNKS,
    _glsl,
    _shared_programs,
    _variant_defines,
    compiled_variants,
    fragment_preamble,
    slice_source,
)
from anabasis.picture.twins import (  # noqa: F401
    feet_plane_meets,
    ghost_cells,
    pawn_hidden,
    tunnel_cuts,
    window_cells,
)
from anabasis.picture.views import Camera, room_camera


def _pow2(n: int) -> int:
    """The least power of two at or above ``n`` (at least 1)."""
    return 1 << max(0, int(n) - 1).bit_length()


#: A texel's neighbour bits (clearance.near): kept through a cut or a crate taken out.
_NEAR = clearance.NEAR_MASK


def held_cells(room, state) -> tuple[tuple[int, int, int, int], ...]:
    """The empty cells just ana of a crate of ``state``: where a mover would stand held up
    by that crate (the picture frames the floor under each in the crate's colour).

    >>> from anabasis.formats import levels
    >>> from anabasis.engine import rules
    >>> room = levels.load_level(5)
    >>> s = rules.start(room).state
    >>> for m in "DRR":
    ...     s = rules.step(room, s, m).state
    >>> held_cells(room, s)
    ((3, 1, 1, 2),)
    """
    crates = set(state.crates)  # (a crowded room holds thousands: no tuple scans)
    out = []
    for c in state.crates:
        above = room.norm((c[0], c[1], c[2], c[3] + 1))
        if room.inside(above) and room.cell(above) == cells.EMPTY and above not in crates:
            out.append(tuple(int(v) for v in above))
    return tuple(out)


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
        self._solid_crates = np.zeros(0, bool)  # which of the solid cells hold a crate
        self._hidden_crate: Pos | None = None
        self._cut = np.zeros(0, np.int64)  # the cells marked cut by the tunnel (flat indices)
        #: the cells the window round the pawn may step past (flat indices; none where w wraps)
        self._window_cut = np.zeros(0, np.int64)
        self._cut_mask = np.zeros(0, bool)  # the same as a mask over the solid cells
        self._window_was: tuple = (None, None)  # (key, what _window said) for the last frame
        #: whether the last frame drawn with a pawn opened the window round it (a drawn cell
        #: hid a point of the pawn): its rim, a pink ring, is drawn
        self.window_open = False
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
        # the gaps a ramp's step crosses, as the shader's list (the room's cells alone: once)
        crossed = crossed_gaps(room)[:MOST_CROSSED]
        self._crossed = (len(crossed), [(*c, 0) for c in crossed]
                         + [(-9, -9, -9, 0)] * (MOST_CROSSED - len(crossed)))
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
        self._marks = None  # the state's ramp marks, asked of the rules only if a pose has none
        self._pushes = None  # and its push marks, the same way
        self._held = held_cells(self.room, state)
        #: the picture's palette (:data:`PALETTES`), or a function that says it each frame
        #: (the game's: the settings' choice, changed in play)
        self.palette = "standard"
        self.palette_of = None
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
            self._solid_crates = grid.ravel()[self._solid] == cells.CRATE
            X, Y, Z, _ = self.room.size
            i = self._solid
            self._solid_centres = np.stack([i % X, i // X % Y, i // (X * Y) % Z,
                                            i // (X * Y * Z)], axis=1) + 0.5
            self._crates = new
            self._serial += 1
        self._sync()

    def _sync(self) -> None:
        """Write the texels if the state, the crate taken out or the cut cells changed."""
        key = (self._serial, self._hidden_crate, self._cut.tobytes(),
               self._window_cut.tobytes())
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
        # the window round the pawn: stepped past only by the rays inside it (slice_march)
        texels[self._window_cut] |= np.uint16(clearance.CUT_CLEARANCE)
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
            self._cut_mask = np.zeros(len(self._solid), bool)
            return
        # never a crate: a mover cut away left a striped hole and no crate, and a blind player
        # took it for a gap (nor does the window round the pawn cut one: _window)
        self._cut_mask = tunnel_cuts(self._solid_centres, u) & ~self._solid_crates
        self._cut = self._solid[self._cut_mask]

    def _window(self, u: dict, pawn: bool = True) -> None:
        """Open the window round the pawn (``u_window``) where a drawn cell hides it, and
        (where w does not wrap) mark the cells it may step past (:func:`window_cells`, with
        the cells the tunnel cuts left out): a solid cell's clearance bits, 0 otherwise.
        ``pawn``: False where no pawn is drawn (the editor's frames, the bench's plain and the
        debug frame): no window."""
        wrap = self.room.size[3] if self.room.wrap else 0
        if len(self._solid) == 0 or not pawn:  # (the editor draws no pawn)
            u["u_window"] = 0.0
            self._window_cut = np.zeros(0, np.int64)
            return
        # worked out again only when what it depends on moves (a frame at rest, or the
        # animation's frames between two, ask the same)
        key = (self._serial, u["u_basis"].tobytes(), u["u_centre"].tobytes(),
               u["u_origin"].tobytes(), u["u_fade"], np.asarray(u["u_eye"]).tobytes(),
               u["u_ceiling"], u["u_tan"], u["u_resolution"])
        if key == self._window_was[0]:
            self._window_cut, u["u_window"], u["u_window_k"] = self._window_was[1]
            return
        # never a crate: cut out of the window, a crate pushed toward the eye vanished behind
        # the pawn, and three blind players of two rounds lost the crate they had pushed (the
        # pawn behind one shows over it, its floor dashed: reading.pawn_floor)
        cut = self._solid_crates if wrap else self._cut_mask | self._solid_crates
        hidden, cells_cut = window_cells(self._solid_centres, u, cut, wrap)
        u["u_window"] = 1.0 if hidden else 0.0
        self._window_cut = self._solid[cells_cut] if not wrap else np.zeros(0, np.int64)
        if hidden:
            # a pixel at the pawn, by the radius: the rim a ring of at least a pixel and a
            # half (or a twentieth of the radius) at the window's edge
            to2, inv_r2 = u["u_window_k"][:2]
            px = math.sqrt(to2) * 2.0 * u["u_tan"] / u["u_resolution"][1] / WINDOW_RADIUS
            inside = 1.0 - max(1.5 * px, 0.05)
            u["u_window_k"] = (to2, inv_r2, inside * inside, 1.0)
        self._window_was = (key, (self._window_cut, u["u_window"], u["u_window_k"]))

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
        included where its view has one, and the same with the window's lid (``LID``, the
        frames where the window round the pawn is open), by drawing each into one pixel of the
        bound framebuffer.

        :meth:`draw` leaves the ghost out of a frame where it can draw nothing
        (:meth:`ghost_can_show`), so a pose's own frame may not compile the program that a
        later one of the same view needs.
        """
        _, names = self.uniforms(pose, (1, 1))
        ghost = set(variant) | (names & {"GHOST"})
        self.draw(pose, (0, 0, 1, 1), variant=ghost, lid=False)
        if "EDIT" not in variant:  # (and with the window's lid: a frame with it open)
            self.draw(pose, (0, 0, 1, 1), variant=ghost, lid=True)

    def current_palette(self) -> str:
        """The palette this frame is drawn in (:attr:`palette_of`'s answer, or :attr:`palette`):
        a cached picture drawn in another is stale."""
        return self.palette_of() if self.palette_of is not None else self.palette

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
        """This room's :func:`frame_uniforms`, with the pose's marks (play passes the
        :func:`ramp_marks` of the state it uploads); a pose without marks draws those of the
        renderer's state, asked of the rules once per state (unruled: none)."""
        marks = pose.marks
        if marks is None:
            if self._marks is None:
                self._marks = ramp_marks(self.room, self.state) if self.ruled else ()
            marks = self._marks
        pushes = pose.pushes
        if pushes is None:
            if self._pushes is None:
                self._pushes = push_marks(self.room, self.state) if self.ruled else ()
            pushes = self._pushes
        u, names = frame_uniforms(self.room, pose, size, marks, self.current_palette(), pushes)
        if self.skips:
            names.add("SKIP")
        held = self._held
        if len(held) > MOST_HELD:
            names.add("HELD_READ")  # (too many to list: each floor's pixel reads its texel)
        else:
            u["u_held_n"] = len(held)
            u["u_held"] = list(held) + [(-9, -9, -9, -9)] * (MOST_HELD - len(held))
        u["u_crossed_n"], u["u_crossed"] = self._crossed
        return u, names

    def draw(self, pose: Pose, viewport: tuple[int, int, int, int] | None = None,
             variant=(), lid: bool | None = None) -> None:
        """Draw one frame into the bound framebuffer's ``viewport`` ``(x, y, w, h)``.

        ``variant`` adds ``#define`` names (``PLAIN``, ``DEBUG``) for the bench and the tests;
        ``GHOST`` keeps the ghost in a frame where it can draw nothing (:meth:`ghost_can_show`).
        ``lid``: the window's lid (``LID``) in the program or not, whatever the window (the
        warm-up's); None: where the window is open.
        """
        if viewport is None:
            viewport = self.ctx.fbo.viewport
        w, h = viewport[2], viewport[3]
        self._hide_crate(pose.moving_crate[0] if pose.moving_crate else None)
        u, auto = self.uniforms(pose, (w, h))
        self._mark_cut(u)
        self._window(u, pawn=not ({"EDIT", "PLAIN", "DEBUG"} & set(variant)))
        self.window_open = bool(u["u_window"])
        self._sync()
        names = set(variant) | auto
        if (u.get("u_window") == 1.0) if lid is None else lid:
            names.add("LID")  # (the window's lid: only where the window is open)
        # The ghost costs a tenth of the frame on llvmpipe even where it draws nothing: left
        # out where it cannot draw (forced on by variant={"GHOST"})
        if ("GHOST" in auto and "GHOST" not in variant
                and not self.ghost_can_show(u, "FADE" in names)):
            names.discard("GHOST")
        if "PLAIN" in names or "DEBUG" in names:
            names -= {"GHOST", "FADE", "MOVING_CRATE", "MARKS", "STAIR", "PLATE", "LID",
                      "RAMP_TOPS"}
        if "EDIT" in names:
            names.discard("STAIR")  # (the ramps over a pawn: the editor draws none)
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
        raise ValueError(f"--size {text!r}: expected WxH from 1x1 to 8192x8192, "
                         "like 1280x720") from None
