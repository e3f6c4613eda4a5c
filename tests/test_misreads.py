"""Misreads a first-time player made of the room (issue 23), each read back from the real GL
renderer: a test per misread, named after it.

- the x-rayed pawn: drawn striped when something stood in front of it, it read as another
  creature, and hid whether it stood on a block or behind it.  Now a round window is cut in
  what stands in front, and the pawn is drawn solid in it, on the floor it stands on;
- a crate hid the free cell behind it, so a crate that could be pushed looked stuck against
  the room's edge.  Now where a push takes a crate beside the pawn is drawn over what hides
  it, as the rules say (and nothing where the push leaves it where it is);
- a gap read as a sunken floor.  A drop (a floor that does not hold: you slip or fall) is a
  dark pit with a rim, darker than a floor at any height, in every view.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from rooms import wall_before_pawn

from anabasis import gen
from anabasis.engine import cells, reference, rules, solver
from anabasis.engine.world import Room, State
from anabasis.formats import levels
from anabasis.picture import pose as pose_mod
from anabasis.picture import render, twins
from anabasis.picture.render import Pose
from anabasis.picture.views import Camera, room_camera

SIZE = (192, 128)


def _draw(ctx, room, state, pose, size=SIZE):
    r = render.Renderer(ctx, room, state)
    target = render.Offscreen(ctx, size)
    target.fbo.use()
    r.draw(pose, (0, 0, *size))
    img = target.read()[:, :, :3].astype(int)
    target.release()
    r.release()
    return img


def _debug(ctx, room, state, pose, size=SIZE):
    r = render.Renderer(ctx, room, state)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    return index, faces


def _project(u, s, size):
    """Screen (x, y) of points ``s`` (slice coordinates from the slice's origin), rows top
    first, as the shader's camera makes them."""
    eye, fwd, right, up = (np.asarray(u[k], float) for k in ("u_eye", "u_fwd", "u_right", "u_up"))
    d = np.atleast_2d(s) - eye
    depth = d @ fwd
    px = (d @ right / (depth * u["u_tan"]) * size[1] + size[0]) / 2
    py = size[1] - (d @ up / (depth * u["u_tan"]) * size[1] + size[1]) / 2
    return px, py


def _cell_box(u, cell, size):
    """The screen rectangle round a cell's projected corners, as a mask."""
    corners = np.array([[x, y, z, w] for x in (0, 1) for y in (0, 1) for z in (0, 1)
                        for w in (0, 1)], float) + cell
    s = (corners - np.asarray(u["u_origin"])) @ u["u_basis"][:, :3]
    px, py = _project(u, s, size)
    mask = np.zeros(size[::-1], bool)
    mask[max(int(py.min()), 0):int(py.max()) + 1, max(int(px.min()), 0):int(px.max()) + 1] = True
    return mask


def _opened(level: int, view: str, size, moves: str = ""):
    """Level ``level`` after ``moves``, at rest in ``view`` framed for ``size``: the room,
    its state, the pawn's place and the pose."""
    room = levels.load_level(level)
    state = rules.replay(room, moves).state if moves else rules.start(room).state
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, view, camera=room_camera(room.size, view, player, size[0] / size[1],
                                                 room.wrap))
    return room, state, player, pose


def _pink(img):
    return (img[..., 0] > 150) & (img[..., 0] - img[..., 1] > 60) & (img[..., 2] > img[..., 1])


#: The push marks' colour (the shader's PUSH_COLOUR), 0..255.
PUSH_RGB = (255, 178, 107)


def _near(img, rgb, tol):
    return (np.abs(img - np.asarray(rgb)) < tol).all(axis=2)


def _window(u, size):
    """The window round the pawn on screen: its centre (x, y), its radius in pixels, and each
    pixel's distance from the centre."""
    centre = np.asarray(twins.WINDOW_CENTRE, float)  # (at rest the slice's origin is the centre)
    cx, cy = _project(u, centre, size)
    distance = float(np.linalg.norm(u["u_eye"] - centre))
    radius = twins.WINDOW_RADIUS * size[1] / (2 * u["u_tan"] * distance)
    ys, xs = np.mgrid[0:size[1], 0:size[0]] + 0.5
    return (cx[0], cy[0]), radius, np.hypot(xs - cx[0], ys - cy[0])


# -- the x-rayed pawn ----------------------------------------------------------------------


def test_the_xrayed_pawn_reads_as_you_behind_a_block_not_as_another_creature(ctx):
    """Level 3 on the ramp, behind the wall the step goes round (camera pitched down): the
    pawn is drawn solid in its colour, not striped; the ramp it stands on shows round its
    feet in a window cut in the wall; the window has a rim in the pawn's colour; and the
    wall is still drawn, opaque, round the window."""
    room = levels.load_level(3)
    state = rules.replay(room, "RR").state
    pose = Pose(tuple(float(c) for c in state.player), "stand", camera=Camera(pitch=0.9),
                marks=())
    img = _draw(ctx, room, state, pose)
    u, _ = render.frame_uniforms(room, pose, SIZE)
    (cx, cy), radius, dist = _window(u, SIZE)
    assert radius > 8
    # the pawn, solid: the body's middle is the pawn's colour in every pixel (the stripes let
    # the wall through every other few pixels)
    bx, by = _project(u, np.array([0.0, 0.0, -0.14]), SIZE)
    ys, xs = np.mgrid[0:SIZE[1], 0:SIZE[0]] + 0.5
    body = np.hypot(xs - bx[0], ys - by[0]) < 0.18 * radius / twins.WINDOW_RADIUS
    assert body.sum() >= 9
    # (the wall's top edge goes on across the window, in front of the pawn's body: a line of
    # it, light, and the rest the pawn's colour)
    lid = img[body].min(axis=1) > 170
    assert (_pink(img[body]) | lid).all() and _pink(img[body]).mean() > 0.7, \
        "the pawn drawn solid, in its colour"
    # lit as a solid: shaded across its body, not one flat colour
    shade = img[body].sum(axis=1)
    assert shade.max() - shade.min() > 60
    # the ramp it stands on shows in the window, under the pawn (teal)
    r_, g, b = (img[..., k] for k in range(3))
    teal = (g > r_ + 40) & (b > r_ + 30)
    under = (dist < radius - 1) & (ys > by[0]) & ~_pink(img)
    assert teal[under].sum() >= 8, "the floor under the pawn shows in the window"
    # the wall round the window (the pixels whose ray ends on it, the window aside): drawn,
    # opaque, not pink, not the sky
    index, _ = _debug(ctx, room, state, pose)
    wall = index == room.index((2, 1, 1, 1))
    around = wall & (dist > radius + 2)
    sky = (np.abs(img - img[1, 1]).sum(axis=2) < 20)
    assert around.sum() > 40
    assert not _pink(img[around]).any() and not sky[around].any()
    # the rim: the window's edge in the pawn's colour where it cuts the wall
    ring = wall & (np.abs(dist - (radius - 0.75)) < 0.75)
    assert ring.sum() >= 6 and _pink(img[ring]).mean() > 0.6, "a rim: a hole, not a glass"
    # the frame opened it because its twin saw the wall in front of the pawn
    r = render.Renderer(ctx, room, state)
    r._mark_cut(u)
    r._window(u)
    r.release()
    assert u["u_window"] == 1.0


LID_SIZE = (480, 320)  # the lid's edge a line of a few pixels


def _level_2_start_with_and_without_its_wall(ctx, size=SIZE):
    """Level 2's start (as it was laid out: tests/rooms.py) in the stand view, drawn as it is
    and with the wall in front of the pawn taken out: the room, the pose, the frame's
    uniforms, both frames."""
    room = wall_before_pawn()
    state = rules.start(room).state
    px, py, pz, pw = state.player
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                    size[0] / size[1], room.wrap), marks=())
    u, _ = render.frame_uniforms(room, pose, size)
    walls = [(x, y, pz, pw) for x in range(room.size[0]) for y in range(py + 1, room.size[1])
             if room.cell((x, y, pz, pw)) == cells.BLOCK]
    assert walls and (px, py + 1, pz, pw) in walls  # (the wall in front, toward the eye)
    opened = bytearray(room.cells)
    for c in walls:
        opened[room.index(c)] = cells.EMPTY
    open_room = replace(room, cells=bytes(opened))
    return room, state, u, _draw(ctx, room, state, pose, size), _draw(ctx, open_room, state,
                                                                      pose, size)


def _pixels(u, points, size=SIZE):
    """The pixels (x, y) where 4D points are drawn."""
    sx, sy = _project(u, (np.asarray(points) - np.asarray(u["u_origin"])) @ u["u_basis"][:, :3],
                      size)
    return [(int(x), int(y)) for x, y in zip(sx, sy, strict=True)]


def test_the_window_shows_the_floor_the_pawn_stands_on_not_the_wall_top_in_front(ctx):
    """Level 2's start, stand view: the pawn stands in the back row, and a wall one high
    stands in front of it.  Two blind players read the pawn as standing on that wall's top:
    the window cut round the pawn showed its body and little else.  The window now reaches
    the pawn's feet and the floor round them: the front half of the floor the pawn stands on
    is drawn through it as it would be with no wall in front, under the wall's lid (a veil
    of the wall's colour; its edge aside, the next test's)."""
    room, state, u, seen, bare = _level_2_start_with_and_without_its_wall(ctx, LID_SIZE)
    px, py, pz, pw = state.player
    # the floor's top under the pawn, its front half (toward the eye: +y here)
    points = [[px + fx, py + fy, pz + 0.01, pw + 0.5] for fx in (0.15, 0.3, 0.7, 0.85)
              for fy in (0.6, 0.75)]
    edge = _pixels(u, [[px + fx, py + 1, pz + 1, pw + 0.5] for fx in np.linspace(0, 1, 41)],
                   LID_SIZE)
    got = [(seen[y, x], bare[y, x]) for x, y in _pixels(u, points, LID_SIZE)
           if not _pink(seen[y, x][None])[0]
           and min(abs(x - ex) + abs(y - ey) for ex, ey in edge) > 3]
    assert len(got) >= 4, "the floor in front of the pawn's body is in the window"
    off = [int(np.abs(a.astype(int) - b).sum()) for a, b in got]
    assert max(off) < 100, off


def test_the_wall_in_front_of_the_pawn_keeps_its_tops_edge_across_the_window(ctx):
    """Level 2's start: the window round the pawn is cut in the wall in front of it.  Cut
    bare, the wall lost its corner by the pawn, and blind players read the cut cell as a floor
    cut down (t192, t195, t204) or the wall as starting at the edge of their own cell (t211).
    The wall's top now goes on across the window as a lid: its back edge, where it meets the
    pawn's row, is drawn light all the way through the window, where the floor alone shows
    with the wall taken out."""
    room, state, u, seen, bare = _level_2_start_with_and_without_its_wall(ctx, LID_SIZE)
    px, py, pz, pw = state.player
    (cx, cy), radius, dist = _window(u, LID_SIZE)
    inside = dist < radius - 2

    def line(img):  # near white, not the floor's own green (its lit rim is green-white)
        i = img.astype(int)
        return (i.min(axis=2) > 185) & (i.max(axis=2) - i.min(axis=2) < 25) & inside

    assert line(bare).sum() == 0
    drawn = np.argwhere(line(seen))
    assert len(drawn) >= 40, len(drawn)
    # ... along the wall's back edge, as projected (just inside the wall's cell: toward the
    # eye, a pixel down the screen)
    edge = np.array(_pixels(u, [[px + fx, py + 1.02, pz + 1, pw + 0.5]
                                for fx in np.linspace(-0.1, 1.1, 121)], LID_SIZE))
    far = [min(np.abs(edge - (x, y)).sum(axis=1)) for y, x in drawn]
    assert max(far) <= 2, far
    # ... from the window's rim to the pawn, whatever the pawn hides
    xs = drawn[:, 1]
    assert xs.min() < cx - 0.6 * radius, (xs.min(), cx, radius)
    # ... and in front of the pawn's body, which stands behind the wall (drawn under the
    # edge, the pawn behind level 3's ridge read, with w up, as standing on it: t229)
    over = [(x, y) for x, y in map(tuple, edge) if 0 <= x < LID_SIZE[0] and 0 <= y < LID_SIZE[1]
            and _pink(bare[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3)).all()]
    assert len(over) >= 5, len(over)
    assert all(seen[y - 1:y + 2, x - 1:x + 2].min(axis=2).max() > 170 for x, y in over)


def test_the_windows_lid_is_only_on_what_the_window_cuts_not_the_ceiling(ctx):
    """Level 3 with w up: the blocks ana of the pawn's slice are over the ceiling's cut, and
    the window's lid drew the top of the one over the pawn, a grey cap in the window over its
    head (t226 could not tell which side of the ridge he stood).  Where a ray inside the
    window meets nothing (the debug frame's), it is drawn as the sky beside the room in its
    row is: no lid."""
    room = levels.load_level(3)
    state = rules.start(room).state
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "w-up", camera=room_camera(room.size, "w-up", player,
                                                   LID_SIZE[0] / LID_SIZE[1], room.wrap),
                marks=())
    u, _ = render.frame_uniforms(room, pose, LID_SIZE)
    img = _draw(ctx, room, state, pose, LID_SIZE)
    index, _ = _debug(ctx, room, state, pose, LID_SIZE)
    (cx, cy), radius, dist = _window(u, LID_SIZE)
    sky = (index < 0) & (dist < radius - 3) & ~_pink(img)
    ys, xs = np.nonzero(sky)
    assert len(ys) > 100, len(ys)  # (over the pawn's head, the window shows the sky)
    beside = img[ys, 2]  # the sky at the window's left, in the same rows
    off = np.abs(img[ys, xs] - beside).sum(axis=1)
    assert off.max() < 20, off.max()


def test_a_low_rooms_camera_sees_most_of_the_floor_behind_a_wall_one_high(ctx):
    """Four blind players read the pawn behind a wall one high (levels 2 and 3) as standing
    on the wall's top: at the low rooms' old pitch (1.05) the wall hid four fifths of the
    pawn's floor, and a height of one lifted a top half a row up the screen.  The camera a
    low room opens with looks down more steeply: past the wall, the walk alone (no window
    cut), at least half the floor the pawn stands on is in sight."""
    for n in (2, 3):  # (level 2 as it was laid out, with its wall in front: tests/rooms.py)
        room = wall_before_pawn() if n == 2 else levels.load_level(n)
        state = rules.start(room).state
        px, py, pz, pw = state.player
        player = tuple(float(c) for c in state.player)
        pose = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                        SIZE[0] / SIZE[1], room.wrap), marks=())
        assert room.cell((px, py + 1, pz, pw)) == cells.BLOCK  # the wall in front
        u, _ = render.frame_uniforms(room, pose, SIZE)
        index, _ = _debug(ctx, room, state, pose)
        points = np.array([[px + fx, py + fy, pz + 0.01, pw + 0.5]
                           for fx in np.linspace(0.1, 0.9, 5) for fy in np.linspace(0.1, 0.9, 5)])
        sx, sy = _project(u, (points - np.asarray(u["u_origin"])) @ u["u_basis"][:, :3], SIZE)
        floor = room.index((px, py, pz - 1, pw))
        seen = sum(index[int(y), int(x)] == floor for x, y in zip(sx, sy, strict=True))
        assert seen >= 13, (n, seen)


def test_the_window_opens_only_where_something_hides_the_pawn(ctx):
    """Level 2 in the both view: nothing stands in front of the pawn: no window, no rim (the
    pawn's colour nowhere beyond the pawn); level 3 on the ramp it is open.  The frame's
    twin (twins.pawn_hidden) decides it, as the picture shows."""
    room = levels.load_level(2)
    state = rules.start(room).state
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "both", camera=room_camera(room.size, "both", player,
                                                   SIZE[0] / SIZE[1], room.wrap))
    u, _ = render.frame_uniforms(room, pose, SIZE)
    r = render.Renderer(ctx, room, state)
    r._mark_cut(u)
    r._window(u)
    r.release()
    assert u["u_window"] == 0.0
    img = _draw(ctx, room, state, pose)
    (_, _), radius, dist = _window(u, SIZE)
    pawn_radius = 0.5 * radius / twins.WINDOW_RADIUS  # the pawn's half height, and a little
    assert _pink(img[dist < pawn_radius]).sum() > 20, "the pawn is in sight"
    assert not _pink(img[dist > 1.3 * pawn_radius]).any(), "no rim where nothing hides it"


# -- a crate hides the free cell behind it -------------------------------------------------


PUSH_SIZE = (288, 192)  # the cell behind a crate is partly hidden: a few more pixels


def _pushes_drawn(ctx, room, state, pose):
    """The frame with its push marks and without, and the debug frame's hit cells."""
    marked = _draw(ctx, room, state, pose, PUSH_SIZE)
    plain = _draw(ctx, room, state, replace(pose, pushes=()), PUSH_SIZE)
    index, _ = _debug(ctx, room, state, pose, PUSH_SIZE)
    return marked, plain, index


def _level_5_beside_the_crate(ctx):
    """Level 5 after "D", the pawn beside the crate, in the room's camera: the room, the frame
    with its push mark and without, and the debug frame's hit cells."""
    room = levels.load_level(5)
    state = rules.replay(room, "D").state
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                    PUSH_SIZE[0] / PUSH_SIZE[1], room.wrap))
    return (room, *_pushes_drawn(ctx, room, state, pose))


def test_a_crate_that_can_be_pushed_shows_the_free_cell_behind_it(ctx):
    """Level 5, the pawn beside the crate with the free cell behind it (stand view, the room's
    camera): the cell a push takes it into is marked, in the crates' orange; nothing else in
    the frame changes."""
    room = levels.load_level(5)
    state = rules.replay(room, "D").state
    crate = (1, 1, 1, 2)
    assert state.crates == (crate,) and state.player == (0, 1, 1, 2)
    assert render.push_marks(room, state) == (((2, 1, 1, 2), 1, (2, 1, 1, 2)),)
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                    PUSH_SIZE[0] / PUSH_SIZE[1], room.wrap))
    marked = _draw(ctx, room, state, pose, PUSH_SIZE)
    index, _ = _debug(ctx, room, state, pose, PUSH_SIZE)
    u, _ = render.frame_uniforms(room, pose, PUSH_SIZE)
    landing = _cell_box(u, (2, 1, 1, 2), PUSH_SIZE)
    on_crate = index == room.index(crate)
    # the mark's light orange, in the landing cell's box, on the floor there and over the crate
    mark = _near(marked, PUSH_RGB, 30)
    assert (mark & landing & ~on_crate).sum() > 20, "the free cell is marked"
    # (the crate, drawn in from its cell's sides, no longer hides this cell in the room's
    # camera; a mark drawn over what hides it: the wall in 3.6, two tests on)
    goal = _cell_box(u, room.goal, PUSH_SIZE)  # (its gold glow: another colour, near it)
    assert not (mark & ~landing & ~goal).any()
    marked, plain, index = _pushes_drawn(ctx, room, state, pose)
    u, names = render.frame_uniforms(room, pose, PUSH_SIZE,
                                     pushes=render.push_marks(room, state))
    assert "MARKS" in names and 2.0 in u["u_mark_way"]
    changed = np.abs(marked - plain).sum(axis=2) > 30
    assert changed[landing].sum() > 40 and changed[~landing].sum() == 0


def test_a_push_marks_chevrons_lie_on_its_cells_floor_not_over_the_row_behind(ctx):
    """Level 5, the pawn beside the crate: the push mark's chevrons were on its box's top, a
    crate's height up, which lies over the row behind on screen, and a blind player read the
    push as going into the pit behind.  They lie on the cell's floor: of the pixels the mark
    changes on the floors round it, the row behind's take a fifth of the landing cell's at
    most (its dashed edges); they took nearly half."""
    room, marked, plain, index = _level_5_beside_the_crate(ctx)
    changed = np.abs(marked.astype(int) - plain).sum(axis=2) > 60
    behind = (changed & (index == room.index((2, 0, 0, 2)))).sum()
    landing = (changed & (index == room.index((2, 1, 0, 2)))).sum()
    assert landing > 100 and behind < 0.2 * landing, (behind, landing)


def test_a_push_marks_part_behind_a_wall_is_fainter_than_its_part_in_sight(ctx):
    """3.6 after its first two moves: the cell a push takes the crate into stands behind a
    wall one row nearer the eye.  The mark's box was drawn as strong over that wall as in
    sight, and a blind player read it as the crate going onto the wall.  Seen through the
    wall it is still drawn (the free cell is not lost), but far fainter than on the cell's
    own floor, which shows."""
    from anabasis.app.play.session import open_level

    room = open_level(6, chapter=3).room
    state = rules.replay(room, "".join(solver.solve(room).moves[:2])).state
    assert render.push_marks(room, state) == (((3, 1, 1, 0), 1, (3, 1, 1, 0)),)
    assert room.cell((3, 2, 1, 0)) == cells.BLOCK  # the wall in front of that cell
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                    PUSH_SIZE[0] / PUSH_SIZE[1], room.wrap))
    marked, plain, index = _pushes_drawn(ctx, room, state, pose)
    u, _ = render.frame_uniforms(room, pose, PUSH_SIZE)
    landing = _cell_box(u, (3, 1, 1, 0), PUSH_SIZE)
    change = np.abs(marked.astype(int) - plain).sum(axis=2)
    wall = landing & (index == room.index((3, 2, 1, 0)))
    floor = landing & (index == room.index((3, 1, 0, 0)))  # the landing cell's floor, in sight
    assert wall.sum() > 100 and floor.sum() > 50
    assert (change[wall] > 30).sum() > 20, "drawn through the wall too"
    assert change[wall].mean() < 0.4 * change[floor].mean(), (change[wall].mean(),
                                                              change[floor].mean())


def test_a_push_down_a_shaft_is_marked_where_the_crate_rests(ctx):
    """Level 6 with w up, beside the crate a slice ana: a push takes it over the shaft at (3,
    0), and it drops two slices, to w 1.  Marked where the push puts it, the box sat over
    the shaft's mouth with its chevrons on its floor, at the pawn's height, and five blind
    players read the shaft as plain floor with chevrons on it (t322, t323, t325, t326,
    t327).  The box is where the crate rests, down the shaft: of the pixels the mark
    changes, those of the rest's floor are many and those of the mouth's few."""
    room = levels.load_level(6)
    state = rules.replay(room, "LLUUR").state
    assert render.push_marks(room, state) == (((3, 0, 1, 3), 1, (3, 0, 1, 1)),)
    player = tuple(float(c) for c in state.player)
    size = PUSH_SIZE
    pose = Pose(player, "w-up", camera=room_camera(room.size, "w-up", player,
                                                   size[0] / size[1], room.wrap))
    marked, plain, _ = _pushes_drawn(ctx, room, state, pose)
    u, _ = render.frame_uniforms(room, pose, size, pushes=render.push_marks(room, state))

    def floor_at(w):  # the screen box of the shaft's cross-section at w (inset a tenth)
        corners = np.array([[x, y, 1.5, w] for x in (3.1, 3.9) for y in (0.1, 0.9)])
        px, py = _project(u, (corners - np.asarray(u["u_origin"])) @ u["u_basis"][:, :3], size)
        mask = np.zeros(size[::-1], bool)
        mask[int(py.min()):int(py.max()) + 1, int(px.min()):int(px.max()) + 1] = True
        return mask

    rest, mouth = floor_at(1.0), floor_at(3.0)
    assert not (rest & mouth).any()
    changed = np.abs(marked - plain).sum(axis=2) > 60
    assert (changed & rest).sum() > 100 and (changed & mouth).sum() < 0.25 * (changed & rest).sum()
    # with w hidden the crate leaves the slice as it drops: marked where the push puts it
    stand = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                     size[0] / size[1], room.wrap))
    u, _ = render.frame_uniforms(room, stand, size, pushes=render.push_marks(room, state))
    assert (3.0, 0.0, 1.0, 3.0) in u["u_mark_lo"]


def test_a_crate_that_cannot_be_pushed_shows_no_free_cell(ctx):
    """Level 5 with the crate pushed to the room's edge: a push that way leaves it there, and
    no cell is marked for it (the frame is the one without push marks), where the same crate
    one row up, free behind, has its cell marked."""
    room = levels.load_level(5)
    state = rules.replay(room, "RD").state
    crate = (1, 2, 1, 2)
    assert state.crates == (crate,)
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                    PUSH_SIZE[0] / PUSH_SIZE[1], room.wrap))
    marked, plain, _ = _pushes_drawn(ctx, room, state, pose)
    assert np.array_equal(marked, plain)
    assert render.push_marks(room, state) == ((crate, -1, crate),)  # the engine: it stays


def _standing_states(room: Room):
    """The player at rest on each free cell of ``room`` with a crate beside it, its crates
    where they settle (as tests/test_stepmarks.py walks them)."""
    crates = reference.start(room).state.crates
    for pos in room.positions():
        if room.cell(pos) != cells.EMPTY or pos in crates:
            continue
        state = State.of(pos, crates)
        settled = reference.settle(room, state)
        if settled.moved or settled.status != "playing":
            continue
        yield state


def _beside(state):
    for move, d in rules.STEPS.items():
        ahead = tuple(p + k for p, k in zip(state.player, d, strict=True))
        if ahead in state.crates:
            yield move, ahead, tuple(a + k for a, k in zip(ahead, d, strict=True))


def _held_to_the_engine(room, state):
    marks = dict((cell, way) for cell, way, _ in render.push_marks(room, state))
    rests = {cell: rest for cell, _, rest in render.push_marks(room, state)}
    n = 0
    for move, crate, beyond in _beside(state):
        result = rules.step(room, state, move, trace=True)
        ref = reference.step(room, state, move, trace=True)
        pushed = result.moved and beyond in result.frames[0].crates \
            and crate not in result.frames[0].crates
        assert pushed == (ref.moved and beyond in ref.frames[0].crates
                          and crate not in ref.frames[0].crates)
        if pushed:
            assert marks.get(beyond) == 1, (move, state)
            ended = set(result.state.crates) - set(state.crates)
            assert rests[beyond] == (next(iter(ended)) if len(ended) == 1 else None)
        else:
            assert marks.get(crate) == -1, (move, state)
        n += 1
    assert len(marks) == n  # a mark for each crate beside the pawn, and no other
    return n


def test_every_push_mark_is_what_the_engine_does_with_that_push():
    """Every level's start, the first moves of its shortest way, and every cell the pawn can
    stand on beside a crate, in every level and two made rooms with crates: each mark is
    the push's outcome as rules.step has it (and the reference engine agrees)."""
    rooms = [levels.load_level(n) for n in range(1, levels.count() + 1)]
    for seed in range(1, 40):
        made = gen.build("medium", seed)
        made = getattr(made, "room", made)
        if made.start.crates:
            rooms.append(made)
        if len(rooms) >= levels.count() + 2:
            break
    checked = 0
    for room in rooms:
        state = rules.start(room).state
        states = [state]
        for move in solver.solve(room).moves[:6]:
            state = rules.step(room, state, move).state
            states.append(state)
        states += list(_standing_states(room))
        for s in states:
            checked += _held_to_the_engine(room, s)
    assert checked > 20


# -- a gap reads as a sunken floor ---------------------------------------------------------


def _floors(room, state, index, faces):
    """Per pixel: 1 where it is on a floor that holds (ground), 2 a floor that does not (a
    drop), 0 anything else: the rule book's two downs, read from the cells (a top face holds
    where the cell kata of the one above it is solid, or it is a ramp; a face ana holds where
    the cell below the one ana of it is solid)."""
    X, Y, Z, W = room.size
    grid = np.frombuffer(room.cells, np.uint8).reshape(W, Z, Y, X).copy()
    for x, y, z, w in state.crates:
        grid[w, z, y, x] = cells.CRATE

    def solid(x, y, z, w):
        w = w % W if room.wrap else w
        return 0 <= x < X and 0 <= y < Y and 0 <= z < Z and 0 <= w < W \
            and grid[w, z, y, x] != cells.EMPTY

    top, ana = 1 + 2 * 2 + 1, 1 + 2 * 3 + 1  # the debug frame's codes of those faces
    kind = np.zeros(index.shape, int)
    for i in np.unique(index[(faces == top) | (faces == ana)]):
        x, y, z, w = i % X, i // X % Y, i // (X * Y) % Z, i // (X * Y * Z)
        for face, above in ((top, (x, y, z + 1, w)), (ana, (x, y, z, w + 1))):
            if above[2] >= Z or (not room.wrap and above[3] >= W) or solid(*above):
                continue
            if face == top:
                held = grid[w, z, y, x] in cells.RAMPS or solid(x, y, z + 1, w - 1)
            else:
                held = solid(x, y, z - 1, w + 1)
            kind[(index == i) & (faces == face)] = 1 if held else 2
    return kind


def _inside(mask, k):
    for _ in range(k):
        m = mask.copy()
        m[1:] &= mask[:-1]
        m[:-1] &= mask[1:]
        m[:, 1:] &= mask[:, :-1]
        m[:, :-1] &= mask[:, 1:]
        mask = m
    return mask


def test_a_gap_reads_as_a_hole_not_a_sunken_floor_in_every_view(ctx):
    """Level 2, level 5, a made room, level 4 and level 1, each in the stand, w-up and both
    views: every drop in sight (a floor you would slip or fall through) is darker inside than
    every floor that holds, at whatever height it is shaded, and its rim is drawn lighter than
    its inside; it is crossed in red where you would fall out of the room from it (but where
    the ramp underfoot carries you over it, or a ramp's step crosses its gap), and only there
    (blind players took level 5's bridge gap for level 1's deadly pits, and level 4's row of
    pits in the both view for windows)."""
    made = next(r for r in (getattr(gen.build("medium", s), "room", gen.build("medium", s))
                            for s in range(3, 40)) if r.size[3] > 2)
    seen = {}
    crossed = {True: 0, False: 0}
    for name, room in (("level 2", levels.load_level(2)), ("level 5", levels.load_level(5)),
                       ("made", made), ("level 4", levels.load_level(4)),
                       ("level 1", levels.load_level(1))):
        state = rules.start(room).state
        player = tuple(float(c) for c in state.player)
        for view in ("stand", "w-up", "both"):
            pose = Pose(player, view, camera=room_camera(room.size, view, player,
                                                         SIZE[0] / SIZE[1], room.wrap))
            img = _draw(ctx, room, state, pose).astype(float)
            lum = img @ np.array([0.30, 0.59, 0.11])
            # a pit you fall out from is crossed in red: its inside is read round the cross
            cross = ~_inside(~(img[..., 0] - img[..., 1] > 40), 1)
            index, faces = _debug(ctx, room, state, pose)
            kind = _floors(room, state, index, faces)
            ground, drops = [], []
            for i, f in set(zip(index[kind > 0].tolist(), faces[kind > 0].tolist(), strict=True)):
                face = (index == i) & (faces == f)
                middle = _inside(face, 2) & ~cross
                if middle.sum() < 4:
                    continue
                rim = face & ~_inside(face, 1)
                x, y, z, w = room.pos(i)
                above = (x, y, z + 1, w) if f == 1 + 2 * 2 + 1 else (x, y, z, w + 1)
                nx, ny, _, nw = room.norm(above)
                over = (nx, ny, nw) in pose_mod.crossed_gaps(room)
                entry = (float(np.median(lum[middle])), float(np.median(lum[rim])), over)
                (ground if kind[face][0] == 1 else drops).append(entry)
                if kind[face][0] == 2:
                    # crossed in red where a pawn put on it falls out of the room, and only there
                    out = rules.falls_out(room, room.norm(above), state.crates)
                    # (but not where the ramp underfoot carries you over it: "ramp ana" over
                    # a cross read to blind players as a fall)
                    out = out and not any(tuple(c[:3]) == above[:3]
                                          for c, _ in pose_mod.ramp_marks(room, state))
                    # (nor over a gap a ramp's step crosses, which the map leaves uncrossed:
                    # crossed, level 7's read as ramps throwing you into the void)
                    out = out and not over
                    share = float(cross[_inside(face, 1)].mean())
                    assert (share > 0.02) if out else (share == 0), (name, view, above, share)
                    crossed[out] += 1
            assert ground, (name, view)
            for inside, rim, over in drops if name not in ("level 4", "level 1") else ():
                # (those two for their crosses: level 4's pits under its ramps are slivers)
                assert inside < min(g for g, _, _ in ground) - 20, (name, view, inside)
                # rimmed, but a gap a ramp's step crosses: dark alone, as the map draws it
                # (rimmed, level 7's read with w up as slip pits)
                assert inside < 40 and (abs(rim - inside) < 3 if over else rim > inside + 3), \
                    (name, view, inside, rim, over)
            seen[name, view] = len(drops)
    assert seen["level 2", "stand"] and seen["level 5", "stand"] and seen["level 5", "both"]
    assert sum(seen[("made", v)] for v in ("stand", "w-up", "both")) >= 2
    assert crossed[True] >= 5 and crossed[False] >= 5, crossed


def test_a_pit_is_drawn_as_a_shaft_going_down_not_a_floor_sunk_one_lower(ctx):
    """Level 1's crossed cells were drawn as a dark middle in a lighter band all round: a
    blind player read them as "recessed, like a lower floor inside.  There is no lower floor;
    it is a fall" (t256).  Inside its rim a pit is a shaft seen from the eye: its far side
    shows, lit at the top and dark further down, its near side does not; so just inside its
    far edge it is lighter than just inside its near edge (a recess shaded from the rim in
    is the same at both), and its middle stays dark."""
    size = (480, 320)
    room, state, player, pose = _opened(1, "stand", size)
    lum = _draw(ctx, room, state, pose, size).mean(axis=2)
    u, _ = render.frame_uniforms(room, pose, size)
    for x in (1, 2):  # the two crossed cells, their floor's top at z 1 (nothing kata of it)
        def at(fy, x=x):  # (its mean across the cell's middle)
            points = [(x + fx, fy, 1.0 + 1e-3, player[3] + 0.5) for fx in (0.45, 0.5, 0.55)]
            return float(np.mean([lum[py, px] for px, py in _pixels(u, points, size)]))
        # (y grows toward the eye: y = 0 is the cell's far edge; off the cross's arms)
        far, near = at(0.16), at(0.84)
        assert far > near + 8, (x, far, near)
        assert near < 30, (x, near)


def test_a_ramps_high_side_is_lit_on_its_top_with_w_hidden(ctx):
    """With w hidden a ramp's slope is not drawn (it rises along w), and a blind player
    found nothing in level 3's shading to say which side of its ramps was high (t262).  Its
    top's edge on the high side is lit, as the map lights a ramp's tip: level 3's front ramp
    (high toward -y, the wall) against the same ramp turned round, at the same pixels near
    that edge, far lighter; at its middle, about the same."""
    size = (480, 320)
    room, state, player, pose = _opened(3, "stand", size)
    ramp = (2, 2, 0, 1)
    assert cells.RAMP_LEAN[room.cell(ramp)] == (1, -1)
    turned = bytearray(room.cells)
    turned[room.index(ramp)] = cells.RAMP_OF_LEAN[(1, 1)]
    lum = _draw(ctx, room, state, pose, size).mean(axis=2)
    lum_turned = _draw(ctx, replace(room, cells=bytes(turned)), state, pose, size).mean(axis=2)
    u, _ = render.frame_uniforms(room, pose, size)

    def pixels(fy):
        points = [(2 + fx, 2 + fy, 1.0 - 1e-3, player[3] + 0.5) for fx in (0.4, 0.5, 0.6)]
        xy = _pixels(u, points, size)
        return np.array([y for _, y in xy]), np.array([x for x, _ in xy])

    edge, middle = pixels(0.06), pixels(0.5)
    assert lum[edge].mean() > lum_turned[edge].mean() + 60, (lum[edge], lum_turned[edge])
    assert abs(lum[middle].mean() - lum_turned[middle].mean()) < 40


def test_the_push_and_landing_marks_are_hollow_dashed_cells_not_things(ctx):
    """Blind players took the push mark's box for a ghost crate standing on a pit, and the
    landing mark's for a glass block on a wall: both were boxes with tinted faces.  They are
    dashed outlines with their chevrons, the faces barely tinted: over the push's free cell
    (level 5) most of its floor is drawn as it was, and along the box's edges the dashes
    leave gaps; the same for a ramp's landing (level 3, on its ramp)."""
    room, marked, plain, index = _level_5_beside_the_crate(ctx)
    floor = index == room.index((2, 1, 0, 2))  # the free cell's floor, under the mark
    changed = np.abs(marked - plain).sum(axis=2) > 30
    assert floor.sum() > 100
    share = changed[floor].mean()
    assert 0.05 < share < 0.6, share  # (filled, every pixel of it changed)
    # a ramp's landing: level 3 on its ramp, the step round the wall ana
    room = levels.load_level(3)
    state = rules.replay(room, "RR").state
    marks = render.ramp_marks(room, state)
    assert marks
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "stand", camera=room_camera(room.size, "stand", player,
                                                    PUSH_SIZE[0] / PUSH_SIZE[1], room.wrap))
    marked = _draw(ctx, room, state, replace(pose, marks=marks), PUSH_SIZE)
    plain = _draw(ctx, room, state, replace(pose, marks=()), PUSH_SIZE)
    u, _ = render.frame_uniforms(room, pose, PUSH_SIZE, marks)
    box = _cell_box(u, marks[0][0], PUSH_SIZE)
    changed = np.abs(marked - plain).sum(axis=2) > 30
    share = changed[box].mean()
    assert 0.02 < share < 0.2, share  # (filled: a third of its box)


def test_a_ramp_steps_landing_in_a_wall_of_your_slice_is_a_window_not_chevrons_up_it(ctx):
    """Level 3 on its ramp, in the stand view: the step ana lands where your slice has the
    wall (w is hidden, so the landing is drawn in the wall's cell).  Its chevrons up the
    wall's face read to blind players of every round as a step to climb, or the wall as a
    ramp (t250, t254, t259).  There the landing's face has a dark round window, as a marker
    inside a block does, and no chevrons: the middle of the wall's front face is dark where
    it was lit, and its rim is in the landing's colour."""
    room, state, player, pose = _opened(3, "stand", PUSH_SIZE, "RR")
    marks = render.ramp_marks(room, state)
    assert marks == (((2, 1, 1, 2), 1),)
    assert room.cell((2, 1, 1, 1)) == cells.BLOCK  # the wall, in your slice
    marked = _draw(ctx, room, state, replace(pose, marks=marks), PUSH_SIZE)
    plain = _draw(ctx, room, state, replace(pose, marks=()), PUSH_SIZE)
    u, _ = render.frame_uniforms(room, pose, PUSH_SIZE, marks)

    def face(points):  # the wall's front face (y = 2), across (x) and up (z) its middle
        xy = _pixels(u, [(2 + a, 2.0 - 1e-3, 1 + b, player[3] + 0.5) for a, b in points],
                     PUSH_SIZE)
        return np.array([y for _, y in xy]), np.array([x for x, _ in xy])

    grid = [(a, b) for a in (0.42, 0.5, 0.58) for b in (0.42, 0.5, 0.58)]
    middle = face(grid)
    lum, lum_plain = marked.mean(axis=2), plain.mean(axis=2)
    assert lum_plain[middle].mean() > 60, lum_plain[middle]  # (the lit wall's face)
    # dark: a window, no chevron across it
    assert lum[middle].max() < min(48, 0.6 * lum_plain[middle].min()), (lum[middle],
                                                                         lum_plain[middle])
    rim = face([(0.5 + 0.3 * np.cos(t), 0.5 + 0.3 * np.sin(t))
                for t in np.linspace(0, 2 * np.pi, 24, endpoint=False)])
    colour = np.asarray(u["u_mark_colour"], float) * 255
    near = np.abs(marked[rim] - colour).sum(axis=1) < 120
    assert near.mean() > 0.5, marked[rim]


def test_a_ramp_steps_landing_under_a_wall_in_the_w_up_view_is_seen_through_it(ctx):
    """Level 3 from the slice ana (w 2), after "RRD": a step on either side goes kata round the
    wall there, down a slice onto the ramp's tip.  In the w-up view that landing lies under
    the wall (w is up), and a ramp's landing mark was drawn only where nothing hid it: the
    wall was all a blind player saw, and read the way as a wall.  Seen through the wall it
    is drawn, as strongly as where it shows: drawn faint (as a push's free cell behind a
    wall is), it "almost vanished" to a later blind player, who would not have found the
    way back kata; and filled, its outline alone on the wall's hatching still read as wall
    to two more."""
    room = levels.load_level(3)
    state = rules.replay(room, "RRD").state
    assert set(render.ramp_marks(room, state)) == {((2, 0, 1, 1), -1), ((2, 2, 1, 1), -1)}
    assert room.cell((2, 2, 1, 2)) == cells.BLOCK  # the wall over the landing, in your slice
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, "w-up", camera=room_camera(room.size, "w-up", player,
                                                   PUSH_SIZE[0] / PUSH_SIZE[1], room.wrap))
    marked = _draw(ctx, room, state, pose, PUSH_SIZE)
    plain = _draw(ctx, room, state, replace(pose, marks=()), PUSH_SIZE)
    index, _ = _debug(ctx, room, state, pose, PUSH_SIZE)
    u, _ = render.frame_uniforms(room, pose, PUSH_SIZE)
    change = np.abs(marked - plain).sum(axis=2)
    for landing, wall in (((2, 2, 1, 1), (2, 2, 1, 2)), ((2, 0, 1, 1), (2, 0, 1, 2))):
        over = _cell_box(u, landing, PUSH_SIZE) & (index == room.index(wall))
        assert over.sum() > 50, wall
        assert (change[over] > 20).sum() > 10, ("the landing seen through", wall)
        assert (change[over] > 150).sum() > 10, ("as strongly as in sight", wall)
        # and filled, not an outline alone on the wall's hatching: level 3's way back kata
        # read to blind players of two more rounds as wall (t249, t250)
        assert (change[over] > 40).mean() > 0.6, ("filled", wall)
    boxes = _cell_box(u, (2, 2, 1, 1), PUSH_SIZE) | _cell_box(u, (2, 0, 1, 1), PUSH_SIZE)
    assert (change[~boxes] > 20).sum() == 0


def test_a_ramp_under_your_slice_shows_its_way_up_in_the_w_up_view(ctx):
    """With w up, a ramp one layer under the pawn's is drawn as a ghost on the floor over it
    (it is what carries you ana).  Drawn as plain stripes across it, three blind players of
    a round read level 3's ramps as flat striped pads with no slope or way.  Its ghost is
    brighter toward its high side (the way off it ana), under chevrons pointing there: the
    ramp in level 3's front row, in full sight, against the same ramp turned round (the
    occlusion and the light the same): its high side's pixels gain on its low side's."""
    room = levels.load_level(3)
    state = rules.start(room).state
    player = tuple(float(c) for c in state.player)
    size = (480, 300)
    pose = Pose(player, "w-up", camera=room_camera(room.size, "w-up", player,
                                                    size[0] / size[1], room.wrap))
    u, _ = render.frame_uniforms(room, pose, size)
    ramp = (2, 2, int(player[2]) - 1, int(player[3]))
    code = room.cell(ramp)
    axis, sign = cells.RAMP_LEAN[code]
    turned = bytearray(room.cells)
    turned[room.index(ramp)] = cells.RAMP_OF_LEAN[(axis, -sign)]
    turned_room = replace(room, cells=bytes(turned))
    lum = _draw(ctx, room, state, pose, size).mean(axis=2)
    lum_turned = _draw(ctx, turned_room, state, pose, size).mean(axis=2)

    def pixels(leans):
        points = []
        for lean in leans:
            for across in (0.3, 0.4, 0.5, 0.6, 0.7):
                f = [across, across]
                f[axis] = lean if sign > 0 else 1.0 - lean
                points.append([ramp[0] + f[0], ramp[1] + f[1], player[2] + 0.5,
                               player[3] + 0.5 + pose_mod.FEET])  # (on the feet's plane)
        s = (np.array(points) - np.asarray(u["u_origin"])) @ u["u_basis"][:, :3]
        px, py = _project(u, s, size)
        return py.astype(int), px.astype(int)

    high, low = pixels((0.7, 0.8, 0.9)), pixels((0.1, 0.2, 0.3))
    got = (lum[high].mean(), lum_turned[high].mean(), lum[low].mean(), lum_turned[low].mean())
    assert (got[0] - got[1]) - (got[2] - got[3]) > 8, got  # (before: under 1)


def test_with_w_up_a_ramp_of_a_slice_under_the_pawns_shows_on_its_floor(ctx):
    """Level 6 with w up after "LLUU": the pawn has gone up its ramp to w 3, and the ramp
    (in the layer under, at w 2) was drawn as the plain floor it makes of the block kata of
    it: a blind player thought it gone (t252).  That floor is drawn in the ramps' teal, as
    the ghost draws a ramp under the pawn's own floor; the floors beside it are not."""
    room = levels.load_level(6)
    state = rules.replay(room, "LLUU").state
    assert state.player[3] == 3
    ramp = (0, 1, 0, 2)
    assert room.cell(ramp) in cells.RAMPS and room.cell((0, 1, 1, 2)) == cells.EMPTY
    player = tuple(float(c) for c in state.player)
    size = (480, 300)
    pose = Pose(player, "w-up", camera=room_camera(room.size, "w-up", player,
                                                    size[0] / size[1], room.wrap))
    img = _draw(ctx, room, state, pose, size).astype(float)
    index, faces = _debug(ctx, room, state, pose, size)
    ana = 1 + 2 * 3 + 1  # the debug face code of a +w face (a floor with w up)

    def teal(cell):
        face = (index == room.index(cell)) & (faces == ana)
        assert face.sum() > 100, cell
        rgb = img[face].mean(axis=0)
        return (rgb[1] + rgb[2]) / 2 - rgb[0]

    assert teal((0, 1, 1, 1)) > 40  # the floor the ramp makes, at w 2
    assert teal((1, 1, 1, 1)) < 10 and teal((0, 2, 1, 1)) < 10  # plain floors beside it


# -- level 4: the goal floats over nothing --------------------------------------------------


def _goal_underside_blue(ctx, n, view, moves=""):
    """Level ``n`` after ``moves`` in ``view`` at the room's camera: the share of the goal
    cell's underside (points round the face under it along the view's up axis, where the
    plate's dashed outline lies) drawn
    in the ghost's pale blue, and the frame's uniforms."""
    room = levels.load_level(n)
    state = rules.replay(room, moves).state
    player = tuple(float(c) for c in state.player)
    pose = Pose(player, view, camera=room_camera(room.size, view, player, LID_SIZE[0]
                                                 / LID_SIZE[1], room.wrap), marks=())
    u, _ = render.frame_uniforms(room, pose, LID_SIZE)
    img = _draw(ctx, room, state, pose, LID_SIZE)
    up = int(np.argmax(np.abs(u["u_basis"][:, 2])))
    hidden = int(np.argmax(np.abs(u["u_basis"][:, 3])))
    across = [a for a in range(4) if a not in (up, hidden)]
    points = []  # on the plate's outline, 0.06 in from its sides
    ring = [(0.06, t) for t in np.linspace(0.06, 0.94, 30)]
    for fa, fb in ring + [(1 - a, b) for a, b in ring] + [(b, a) for a, b in ring] \
            + [(b, 1 - a) for a, b in ring]:
        p = np.asarray(room.goal, float)
        p[across[0]] += fa
        p[across[1]] += fb
        p[hidden] = u["u_origin"][hidden]
        points.append(p)
    drawn = [img[y, x] for x, y in _pixels(u, points, LID_SIZE)
             if 0 <= x < LID_SIZE[0] and 0 <= y < LID_SIZE[1]]
    assert len(drawn) > 100
    blue = [int(b) > int(r) + 30 and int(b) > 120 for r, g, b in drawn]
    return float(np.mean(blue)), u


def test_level_4s_goal_stands_on_a_plate_in_the_w_up_view_not_on_nothing(ctx):
    """Level 4 with w up: the goal, three slices ana at the pawn's z, stands on a block the
    ceiling's cut takes (and on its floor in z, hidden), so nothing was drawn under it: a
    glowing cube over nothing.  Four blind players of two rounds (t206, t215, t216, t218)
    said it floated.  Its underside is now a plate in the ghost's way (a dashed pale blue
    outline and a faint fill): its floor, out of the picture.  Where the goal's floor is
    drawn (level 1's, in its own view), no plate."""
    share, u = _goal_underside_blue(ctx, 4, "w-up")
    assert tuple(u["u_goal_plate"]) == (3, 2)
    assert share > 0.2, share
    share, u = _goal_underside_blue(ctx, 1, levels.load_level(1).view)
    assert share == 0.0, share


def test_with_w_up_a_ramp_under_your_layer_is_drawn_as_a_slope_up_one_slice(ctx):
    """With w up (z hidden), a ramp of the layer under the pawn's was drawn flat on the
    feet's plane, a dashed teal pad: three rounds of blind players read level 3's as glass
    or nothing there, and could not find the way up (t264, t266, t267).  It is drawn as the
    slope it is, rising one slice along its lean to the floor its step reaches: level 3's
    front ramp (its lean toward the middle row, w 2's floor), at points on that slope, low
    and high, is teal; and by its high side, half a slice up, where the flat pad left the
    wall row behind it in sight, teal too."""
    room, state, player, pose = _opened(3, "w-up", LID_SIZE)
    ramp = (2, 2, 0, 1)
    assert cells.RAMP_LEAN[room.cell(ramp)] == (1, -1)  # (rising toward y = 2)
    img = _draw(ctx, room, state, pose, LID_SIZE).astype(int)
    u, _ = render.frame_uniforms(room, pose, LID_SIZE)
    w0 = state.player[3]

    def teal(points):
        out = []
        for x, y in _pixels(u, points, LID_SIZE):
            r, g, b = img[y, x]
            # (the ramps' teal, or its high side's lit edge, a pale teal)
            out.append(g > r + 25 and b > r + 15)
        return out

    on = [(2 + a, 3 - lean, 1.5, w0 + lean) for a in (0.35, 0.5, 0.65) for lean in (0.3, 0.5, 0.7)]
    assert all(teal(on)), teal(on)
    # by its high side, half a slice up: the slope (drawn flat, the wall row behind it)
    high = [(2 + a, 2.05, 1.5, w0 + 0.5) for a in (0.35, 0.5, 0.65)]
    assert all(teal(high)), teal(high)


def test_level_4s_stair_is_whole_with_w_up_once_the_pawn_is_up_it(ctx):
    """Level 4 with w up, the pawn up its stair (after RRR, on the last ramp, and at the
    goal): its ramps kata, in the layer under the pawn's z, were not drawn, the pits' faces
    at the pawn's floor in front of them, and eight blind players of five rounds read the
    goal as floating with no way up, or the stair as broken (t316 to t327).  The ramps kata
    of w 2 and w 3 are drawn as their slopes: teal at points on them."""
    for moves in ("RRR", "RRRR"):
        room, state, player, pose = _opened(4, "w-up", LID_SIZE, moves)
        assert state.player[3] == 4
        img = _draw(ctx, room, state, pose, LID_SIZE).astype(int)
        u, _ = render.frame_uniforms(room, pose, LID_SIZE)
        teal = []
        for x, w in ((1, 2), (2, 3)):  # (each ramp's cell, its slope rising +x one slice)
            points = [(x + lean, 0.5, 1.5, w + lean) for lean in (0.3, 0.5, 0.7)]
            for px, py in _pixels(u, points, LID_SIZE):
                r, g, b = img[py, px]
                teal.append(g > r + 25 and b > r + 15)
        assert all(teal), (moves, teal)


def test_level_4s_ramps_ana_are_outlined_in_the_w_up_view_the_way_up_to_its_goal(ctx):
    """Level 4 with w up: nothing ana of the pawn's slice is drawn, and the ramps up to the
    goal, three slices ana, were cut away with it: the goal glowed over the pawn's pits,
    and blind players of four rounds said it floated out of reach (t230 the last).  Where
    you would stand on each ramp ana (the nearest, pose.stair_cells) is drawn in the ramps'
    teal (now as its slope, the teal along its cell's edges still), a stair up to the goal;
    the stand view has none."""
    room = levels.load_level(4)
    state = rules.start(room).state
    player = tuple(float(c) for c in state.player)

    def teal_on_edges(view, cell):
        pose = Pose(player, view, camera=room_camera(room.size, view, player,
                                                     LID_SIZE[0] / LID_SIZE[1], room.wrap),
                    marks=())
        u, variant = render.frame_uniforms(room, pose, LID_SIZE)
        img = _draw(ctx, room, state, pose, LID_SIZE)
        points = []  # along the box's twelve edges, a little in from its corners
        for axis in range(4):
            if axis == int(np.argmax(np.abs(u["u_basis"][:, 3]))):
                continue  # (the hidden axis: the box is a cube of the slice)
            others = [a for a in range(4) if a != axis
                      and a != int(np.argmax(np.abs(u["u_basis"][:, 3])))]
            for ca in (0.0, 1.0):
                for cb in (0.0, 1.0):
                    for t in np.linspace(0.1, 0.9, 9):
                        q = np.asarray(cell, float) + 0.5
                        q[axis] = cell[axis] + t
                        q[others[0]] = cell[others[0]] + ca
                        q[others[1]] = cell[others[1]] + cb
                        points.append(q)
        px = [img[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3) for x, y in _pixels(u, points, LID_SIZE)
              if 1 <= x < LID_SIZE[0] - 1 and 1 <= y < LID_SIZE[1] - 1]
        teal = [((p[:, 1] > p[:, 0] + 40) & (p[:, 2] > p[:, 0] + 30)).any() for p in px]
        return float(np.mean(teal)), variant

    share, variant = teal_on_edges("w-up", (3, 0, 1, 4))
    assert "STAIR" in variant and share > 0.3, share
    share, variant = teal_on_edges("stand", (3, 0, 1, 4))
    assert "STAIR" not in variant
