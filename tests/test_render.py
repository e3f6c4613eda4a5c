"""The renderer, on a real GL context (Mesa llvmpipe through EGL), against the CPU's idea.

The CPU reference (:func:`anabasis.picture.twins.reference_hits`, beside the
other CPU twins) walks every pixel's ray through the 4D grid in float64 numpy,
with the same rules as the shader's ``traverse`` (entry a hair past the grid,
one axis per step, ties to the earlier axis, w wrapped by compare-and-add, the
cutaways) and says which cell and face each pixel sees; the shader's ``DEBUG``
build writes the same from the GPU.  They must agree on at least 99.5% of the pixels.

Without a GL 3.3 context the tests skip, unless ANABASIS_REQUIRE_GL=1
(CI), where they fail.
"""

from __future__ import annotations

import itertools
import os
import re
import struct
import subprocess
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from rooms import wall_before_pawn
from window import old_room_camera

from anabasis.engine import cells, rules
from anabasis.engine.world import Room, State
from anabasis.formats import levelfile
from anabasis.picture import render
from anabasis.picture.render import Pose
from anabasis.picture.twins import pixel_rays, reference_hits
from anabasis.picture.views import Camera

SIZE = (96, 64)  # small: llvmpipe, 2 cores, the whole suite under 10 minutes

# A room with a bit of everything: terraces in w and z, two ramps, a crate, a hole.
TERRACES = """\
name: terraces
view: stand

###### ###### ###### ######
###### ###### ###### ######
###### ###### ###### ######
###### ###### ###### ######

###### ###### ...... ......
###### #.$... ...... ......
###### #@..>. ...... ......
###### ##.### ...... ......

###### ...... ...... ......
###### ...#.. ...... ......
###### .....* ...... ......
###### ...^.. ...... ......
"""

# w wraps: a tower of four slices, floors at different heights in each.
TOWER = """\
name: tower
wrap: w
view: w-up

#### #### ....
#### #### ....
#### ..#. ....

#### #@.. ....
#### .... ....
#### ..>. ....

#### .... ....
##.# .... ....
#### ...# ....

#### .... ....
#### .... #...
#### ...* ....
"""


@pytest.fixture(scope="module")
def terraces() -> Room:
    return levelfile.parse(TERRACES, "terraces.txt")


@pytest.fixture(scope="module")
def tower() -> Room:
    return levelfile.parse(TOWER, "tower.txt")


def agreement(ctx, room, pose, state=None, size=SIZE):
    state = state or room.start
    r = render.Renderer(ctx, room, state)
    gi, gf, _ = r.debug_frame(pose, size)
    r.release()
    ci, cf = reference_hits(room, state, pose, size)
    same = (gi == ci) & (gf == cf)
    return same.mean(), (ci >= 0).mean()


def pose_of(room, view, toward=None, at=0.0, **camera):
    return Pose(tuple(float(v) for v in room.start.player), view, toward, at, Camera(**camera))


# -- the CPU reference agrees with the shader ------------------------------------------------

CASES = [
    ("stand", None, 0.0, {}),
    ("w-up", None, 0.0, {}),
    ("both", None, 0.0, {}),
    ("stand", None, 0.0, {"yaw": 0.6, "pitch": 0.4}),
    ("stand", "w-up", 0.37, {}),
    ("w-up", "both", 0.5, {"yaw": -0.8}),
    ("both", "stand", 0.71, {"pitch": 1.1}),
]


@pytest.mark.parametrize("view,toward,at,camera", CASES)
def test_dda_matches_cpu_reference(ctx, terraces, view, toward, at, camera):
    share, seen = agreement(ctx, terraces, pose_of(terraces, view, toward, at, **camera))
    assert seen > 0.15, "the camera should see a good part of the room"
    assert share == 1.0  # the skipping walk sees every cell the plain one does


WRAPPED_CASES = [
    ("w-up", None, 0.0, {}),
    ("stand", None, 0.0, {}),
    ("w-up", "both", 0.4, {}),
    ("both", None, 0.0, {"yaw": 3.1}),   # looking ana: rays wrap past w = W - 1
    ("both", None, 0.0, {"yaw": 1.7}),   # across: rays wrap both ways
]


@pytest.mark.parametrize("view,toward,at,camera", WRAPPED_CASES)
def test_dda_matches_cpu_reference_in_a_wrapped_room(ctx, tower, view, toward, at, camera):
    camera = {"pitch": 0.5, **camera}
    share, seen = agreement(ctx, tower, pose_of(tower, view, toward, at, **camera))
    assert seen > 0.1
    assert share == 1.0


@pytest.mark.parametrize("seed", range(6))
def test_dda_matches_cpu_reference_in_random_rooms(ctx, seed):
    rng = np.random.default_rng(seed)
    size = tuple(int(n) for n in rng.integers(2, 9, size=4))
    data = (rng.random(int(np.prod(size))) < 0.3).astype(np.uint8)
    ramps = rng.random(len(data)) < 0.1
    data[ramps] = rng.integers(cells.RAMP_XP, cells.RAMP_YN + 1, size=int(ramps.sum()))
    player = tuple(int(rng.integers(0, n)) for n in size)
    goal = tuple(int(rng.integers(0, n)) for n in size)
    data[[Room.empty(size, player, goal).index(p) for p in (player, goal)]] = cells.EMPTY
    room = Room(size, bytes(data), goal, State.of(player), wrap=bool(seed % 2))
    views_ = ("stand", "w-up", "both")
    view, toward = views_[seed % 3], views_[(seed + 1) % 3]
    camera = {"yaw": float(rng.uniform(-3, 3)), "pitch": float(rng.uniform(0.1, 1.4)),
              "distance": float(rng.uniform(3, 12))}
    pose = pose_of(room, view, toward, float(rng.uniform(0, 1)), **camera)
    share, _ = agreement(ctx, room, pose, size=(64, 48))
    assert share >= 0.995


def test_dda_matches_cpu_reference_with_moved_crates(ctx, terraces):
    player, (crate,) = terraces.start
    moved = State.of(player, [(crate[0] + 2, crate[1], crate[2], crate[3])])
    pose = pose_of(terraces, "stand", pitch=1.2)
    r = render.Renderer(ctx, terraces)
    r.set_state(moved)
    gi, gf, _ = r.debug_frame(pose, SIZE)
    r.release()
    ci, cf = reference_hits(terraces, moved, pose, SIZE)
    assert ((gi == ci) & (gf == cf)).mean() >= 0.995
    moved_index = terraces.index(moved.crates[0])
    assert (gi == moved_index).any(), "the crate is drawn where it was moved to"
    assert not (gi == terraces.index(crate)).any(), "and no longer where it was"


def test_a_crate_stands_in_from_its_cells_sides_so_its_own_floor_shows_round_it(ctx):
    """Misread: a crate read a row off (its top lies over the row behind on screen).  A crate
    fills its cell less render.CRATE_INSET along x and y, so the top of the cell it stands on
    is seen round its foot, on every side the camera looks at; filling its cell, that top
    was its underside and never seen.  Level 5's crate, in the room's own camera."""
    from anabasis.formats import levels
    from anabasis.picture import views

    room = levels.load_level(5)
    (crate,) = room.start.crates
    x, y, z, w = crate
    below = room.index((x, y, z - 1, w))
    size = (320, 180)
    cam = views.room_camera(room.size, "stand", room.start.player, size[0] / size[1])
    pose = Pose(tuple(float(v) for v in room.start.player), "stand", None, 0.0, cam)
    r = render.Renderer(ctx, room)
    gi, gf, _ = r.debug_frame(pose, size)
    r.release()
    top = 1 + 2 * 2 + 1  # (the face across z, facing +z)
    floor = (gi == below) & (gf == top)
    assert floor.sum() >= 20, "the crate's own floor shows round its foot"
    assert (gi == room.index(crate)).sum() > 3 * floor.sum(), "and the crate is most of it"
    # on its left, right and near sides, not only past one edge: in some row, floor on each
    # side of the crate, and floor below its lowest pixel
    body = gi == room.index(crate)
    left = right = False
    for row in np.nonzero(body.any(axis=1))[0]:
        xs = np.nonzero(body[row])[0]
        left |= bool(floor[row, :xs.min()].any())
        right |= bool(floor[row, xs.max() + 1:].any())
    assert left and right
    assert np.nonzero(floor)[0].max() > np.nonzero(body)[0].max()
    ci, cf = reference_hits(room, room.start, pose, size)
    assert ((gi == ci) & (gf == cf)).mean() >= 0.995


def test_reference_can_tell_the_views_apart(terraces):
    # The test above could pass with a broken reference that ignores the view: not so.
    a, _ = reference_hits(terraces, terraces.start, pose_of(terraces, "stand"), SIZE)
    b, _ = reference_hits(terraces, terraces.start, pose_of(terraces, "both"), SIZE)
    assert (a != b).mean() > 0.2


# -- cutaways -------------------------------------------------------------------------------


def _room_with(room: Room, extra) -> Room:
    data = bytearray(room.cells)
    for pos in extra:
        data[room.index(pos)] = cells.BLOCK
    return replace(room, cells=bytes(data))


def _image(ctx, room, pose, state=None, size=SIZE):
    return render.render_image(room, state, size=size, ctx=ctx, pose=pose)


def _open_room() -> Room:
    """An open floor (z = 0) over a solid kata slice, the player in the middle."""
    X, Y, Z, W = 7, 7, 6, 2
    data = bytearray(X * Y * Z * W)
    for x in range(X):
        for y in range(Y):
            data[x + X * (y + Y * (0 + Z * 1))] = cells.BLOCK  # the floor in w = 1
            for z in range(2):
                data[x + X * (y + Y * (z + Z * 0))] = cells.BLOCK  # solid kata, up to z = 1
    return Room((X, Y, Z, W), bytes(data), (5, 3, 1, 1), State.of((3, 3, 1, 1)))


def test_ceiling_cutaway_hides_a_block_three_up_and_draws_two_up(ctx):
    room = _open_room()
    pose = pose_of(room, "stand")
    plain = _image(ctx, room, pose)
    # Behind the player (away from the camera), so that only the ceiling can cut it.
    two_up = _image(ctx, _room_with(room, [(3, 1, 3, 1)]), pose)
    three_up = _image(ctx, _room_with(room, [(3, 1, 4, 1)]), pose)
    assert (np.abs(two_up.astype(int) - plain).sum(axis=2) > 30).sum() > 20
    # Not a trace of it (the block high over the floor makes the room open enough to be walked
    # with skipping, SKIP, which may round a pixel's shading 1 apart).
    assert np.abs(three_up.astype(int) - plain).max() <= 2


def test_tunnel_cutaway_hides_what_stands_between_camera_and_player(ctx):
    room = _open_room()
    pose = pose_of(room, "stand", pitch=0.6)
    plain = _image(ctx, room, pose)
    # Toward the camera (+y) and up: on the line from the player to the camera.
    on_line = _image(ctx, _room_with(room, [(3, 5, 2, 1), (3, 6, 3, 1)]), pose)
    assert np.array_equal(on_line, plain)
    # The same off to the side is drawn.
    aside = _image(ctx, _room_with(room, [(0, 5, 2, 1), (0, 6, 3, 1)]), pose)
    assert (np.abs(aside.astype(int) - plain).sum(axis=2) > 30).sum() > 20
    # A crate on the line is never cut: a mover cut away left a striped hole and no crate,
    # and a blind player took it for a gap (held up there by the block under it)
    held = _room_with(room, [(3, 5, 1, 1)])
    crate = State.of(room.start.player, [(3, 5, 2, 1)])
    index, _ = _debug(ctx, replace(held, start=crate), crate, pose, SIZE)
    assert (index == room.index((3, 5, 2, 1))).sum() > 20


# -- ghosts and the cross-fade ---------------------------------------------------------------


def _edit(room: Room, changes) -> Room:
    data = bytearray(room.cells)
    for pos, code in changes.items():
        data[room.index(pos)] = code
    return replace(room, cells=bytes(data))


def _frame_in(ctx, room, state, view, size, wrap=None) -> tuple:
    """``room`` at ``state`` in ``view``, in the room's own camera (``wrap``: whether it
    frames one turn of a wrapped w; the room's own by default): the camera, the picture
    (float), and the debug frame's cell index and face code of each pixel."""
    from anabasis.picture import views

    wrap = room.wrap if wrap is None else wrap
    camera = views.room_camera(room.size, view, state.player, size[0] / size[1], wrap)
    pose = Pose(tuple(float(v) for v in state.player), view, None, 0.0, camera)
    image = _image(ctx, room, pose, state, size).astype(float)
    r = render.Renderer(ctx, room, state)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    return camera, image, index, faces


def _face_pixels(ctx, room, pose, cell, face, size=SIZE):
    """The pixels where ``cell``'s ``face`` (a debug face code) is seen."""
    r = render.Renderer(ctx, room)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    return (index == room.index(cell)) & (faces == face)


TOP = 1 + 2 * 2 + 1  # the debug face code of a +z face (a top)


def test_floor_with_nothing_kata_reads_as_a_drop_and_held_floor_as_ground(ctx):
    room = _open_room()  # solid kata up to z = 1: the floor (w = 1, z = 0) holds everywhere
    pose = pose_of(room, "stand", pitch=0.9)
    tile = _face_pixels(ctx, room, pose, (5, 5, 0, 1), TOP)
    assert tile.sum() > 20
    held = _image(ctx, room, pose)
    # Take the block kata of the tile's top away: stepping there would slip kata.
    drop = _image(ctx, _edit(room, {(5, 5, 1, 0): cells.EMPTY}), pose)
    # (the median: this pit is one you fall out from, crossed in red, the cross a few pixels)
    lum_held = np.median(held[tile].astype(float).mean(axis=1))
    lum_drop = np.median(drop[tile].astype(float).mean(axis=1))
    assert lum_drop < 0.5 * lum_held, "a floor with nothing kata of it is dark, a pit"
    # Elsewhere nothing changes: no ghost or tint spreads from it.
    assert np.array_equal(drop[~tile], held[~tile]) or (
        (np.abs(drop.astype(int) - held).sum(axis=2)[~tile] > 12).sum() < 0.02 * tile.sum())
    # A ramp holds against w's gravity: its top is ground with or without a block kata of it.
    ramp = _edit(room, {(5, 5, 0, 1): cells.RAMP_XP})
    ramp_tile = _face_pixels(ctx, ramp, pose, (5, 5, 0, 1), TOP)
    on_ramp = _image(ctx, ramp, pose)
    bare = _image(ctx, _edit(ramp, {(5, 5, 1, 0): cells.EMPTY}), pose)
    assert np.array_equal(on_ramp[ramp_tile], bare[ramp_tile])


def test_a_face_ana_with_nothing_below_reads_as_a_drop_with_w_up(ctx):
    # w drawn up: the kata block's +w face is the floor; with nothing under the cell on it
    # (z hidden), a step there falls in z.
    room = _open_room()
    pose = pose_of(room, "w-up", pitch=0.9)
    face_ana = 1 + 2 * 3 + 1
    size = (240, 160)  # (the cell big enough that its cross is thin on it)
    tile = _face_pixels(ctx, room, pose, (5, 5, 1, 0), face_ana, size)
    assert tile.sum() > 20
    held = _image(ctx, room, pose, size=size)
    drop = _image(ctx, _edit(room, {(5, 5, 0, 1): cells.EMPTY}), pose, size=size)
    # (the median: a fall out of the room, crossed in red, the cross a few pixels)
    assert np.median(drop[tile].astype(float).mean(axis=1)) < \
        0.5 * np.median(held[tile].astype(float).mean(axis=1))


def test_ghost_shows_the_floor_one_slice_ana_where_this_slice_has_none(ctx):
    # Stand view, a slice w = 1 whose floor ends; one slice ana the floor goes on.
    room = _open_room()
    X, Y = 7, 7
    gap = {(x, y, 0, 1): cells.EMPTY for x in range(5, X) for y in range(Y)}
    # The slice w = 1 with no floor at x >= 5, and no slice ana at all (W = 2): nothing to show.
    grown = Room((X, Y, 6, 3), room.cells + bytes(X * Y * 6), room.goal, room.start)
    no_floor = _edit(grown, gap)
    pose = pose_of(no_floor, "stand", pitch=0.9)
    assert "GHOST" in render.frame_uniforms(no_floor, pose, SIZE)[1]
    without = _image(ctx, no_floor, pose)
    ana = {(x, y, 0, 2): cells.BLOCK for x in range(5, X) for y in range(Y)}
    with_ana = _image(ctx, _edit(no_floor, ana), pose)
    diff = np.abs(with_ana.astype(int) - without).sum(axis=2)
    assert (diff > 12).sum() > 30, "the floor a slice ana shows where this one has none"
    # Where this slice has its own floor the ghost is not drawn over it.
    under_own = {(x, y, 0, 2): cells.BLOCK for x in range(0, 5) for y in range(Y)}
    assert np.array_equal(_image(ctx, _edit(no_floor, under_own), pose), without)
    # With y hidden (both), w and z are both in the slice: nothing is drawn as a ghost.
    both = pose_of(room, "both", pitch=0.9)
    assert "GHOST" not in render.frame_uniforms(room, both, SIZE)[1]


def test_ramp_under_the_feet_shows_with_z_hidden(ctx):
    # With w drawn up, z is hidden: a ramp under the player's feet (what holds it against w's
    # gravity where no block kata does) is drawn as a ghost in its own colour.
    room = _edit(_open_room(), {(3, 3, 1, 0): cells.EMPTY})
    pose = pose_of(room, "w-up", pitch=0.9)
    on_ramp = _image(ctx, _edit(room, {(3, 3, 0, 1): cells.RAMP_XP}), pose)
    on_block = _image(ctx, room, pose)
    diff = np.abs(on_ramp.astype(int) - on_block).sum(axis=2)
    assert (diff > 30).sum() > 15


def _frames(ctx, room, pose, state=None, size=SIZE):
    """The picture as drawn (the ghost left out where it can draw nothing), with the ghost
    forced on, and with the ghost's program left out by hand; and whether the renderer
    keeps the ghost."""
    r = render.Renderer(ctx, room, state)
    target = render.Offscreen(ctx, size)
    target.fbo.use()
    out = []
    for variant in ((), {"GHOST"}, None):
        if variant is None:  # the program without the ghost, whatever the renderer would pick
            u, names = r.uniforms(pose, size)
            r._draw_program(names - {"GHOST"}, u, (0, 0, *size))
        else:
            r.draw(pose, (0, 0, *size), variant=variant)
        out.append(target.read()[:, :, :3].copy())
    u, names = r.uniforms(pose, size)
    keeps = "GHOST" in names and r.ghost_can_show(u, "FADE" in names)
    target.release()
    r.release()
    return (*out, keeps)


def test_the_ghost_is_left_out_only_where_it_can_draw_nothing(ctx):
    # The setting of the ghost's own test: a slice w = 1 whose floor ends at x = 5.
    X, Y = 7, 7
    room = _open_room()
    grown = Room((X, Y, 6, 3), room.cells + bytes(X * Y * 6), room.goal, room.start)
    no_floor = _edit(grown, {(x, y, 0, 1): cells.EMPTY for x in range(5, X) for y in range(Y)})
    pose = pose_of(no_floor, "stand", pitch=0.9)
    # Nothing ana (the slice w = 2 is empty): the ghost can draw nothing and is left out, and
    # the picture is the one with it, pixel for pixel.
    drawn, forced, _, keeps = _frames(ctx, no_floor, pose)
    assert not keeps and np.array_equal(drawn, forced)
    # A floor ana under the gap: it is drawn as a ghost, and kept.
    ana = _edit(no_floor, {(x, y, 0, 2): cells.BLOCK for x in range(5, X) for y in range(Y)})
    drawn, forced, without, keeps = _frames(ctx, ana, pose)
    assert keeps and np.array_equal(drawn, forced)
    assert (np.abs(drawn.astype(int) - without).sum(axis=2) > 12).sum() > 30
    # One block ana, under the plane's far corner (seen from the start's camera or not), keeps it.
    corner = _edit(no_floor, {(6, 0, 0, 2): cells.BLOCK})
    assert _frames(ctx, corner, pose, size=(8, 8))[3]
    # With z hidden only a ramp in the layer below is a ghost: a block there is not.
    w_up = pose_of(ana, "w-up", pitch=0.9)
    low = _edit(_open_room(), {(3, 3, 1, 0): cells.EMPTY})
    assert not _frames(ctx, low, w_up, size=(8, 8))[3]
    assert _frames(ctx, _edit(low, {(3, 3, 0, 1): cells.RAMP_XP}), w_up, size=(8, 8))[3]


def test_leaving_the_ghost_out_never_changes_a_pixel(ctx):
    # Random rooms of terraces (floors at random heights in each slice, ramps), random turns,
    # cameras and steps part way along the hidden axis, wrapped and not: the picture as drawn
    # is the one with the ghost forced on, whether the renderer kept it or not.
    from anabasis.picture.views import hidden_axis

    seen = []
    for seed in range(8):
        rng = np.random.default_rng(100 + seed)
        X, Y, Z, W = (int(n) for n in rng.integers(3, 8, size=4))
        heights = rng.integers(0, Z - 1, size=(W, Y, X))
        heights[rng.random((W, Y, X)) < 0.25] = -1  # holes
        data = (np.arange(Z)[None, :, None, None] <= heights[:, None]).astype(np.uint8)
        ramps = (rng.random(data.shape) < 0.08) & (data == 1)
        data[ramps] = rng.integers(cells.RAMP_XP, cells.RAMP_YN + 1, size=int(ramps.sum()))
        player = (int(rng.integers(0, X)), int(rng.integers(0, Y)), Z - 1,
                  int(rng.integers(0, W)))
        goal = (0, 0, Z - 1, 0) if player != (0, 0, Z - 1, 0) else (1, 0, Z - 1, 0)
        for x, y, z, w in (player, goal):
            data[w, z, y, x] = cells.EMPTY
        room = Room((X, Y, Z, W), data.tobytes(), goal, State.of(player), wrap=bool(seed % 2))
        views_ = ("stand", "w-up", "both")
        for k in range(4):
            view, toward = views_[int(rng.integers(0, 3))], views_[int(rng.integers(0, 3))]
            at = float(rng.choice([0.0, rng.uniform(0, 1)]))
            p = [float(v) for v in player]
            if k == 3:  # a step along the hidden axis, at rest: two slices traced (FADE)
                toward, at = view, 0.0
                p[hidden_axis(view)] += 0.5
            camera = Camera(yaw=float(rng.uniform(-3, 3)), pitch=float(rng.uniform(0.2, 1.4)),
                            distance=float(rng.uniform(4, 10)))
            pose = Pose(tuple(p), view, toward if toward != view else None, at, camera)
            drawn, forced, without, keeps = _frames(ctx, room, pose, size=(48, 32))
            assert np.array_equal(drawn, forced), (seed, k)
            seen.append((keeps, not np.array_equal(forced, without)))
    assert seen.count((False, False)) >= 5  # left out, often ...
    assert seen.count((True, True)) >= 5  # ... and kept where it draws


def test_the_feet_plane_meets_every_cell_a_point_of_it_falls_in():
    # The CPU's test, against points of the plane sampled every 0.03 of a cell over a box of
    # cells: every cell a point falls in is met (so leaving the ghost out is safe), and every
    # cell met by more than a hair has a point in it (so it is left out where it can be).
    # Wrapped, a cell is met where one of its copies round the tower is.
    from anabasis.picture.views import turn

    rng = np.random.default_rng(7)
    views_ = ("stand", "w-up", "both")
    box = np.stack(np.meshgrid(*(np.arange(-2, 8),) * 4, indexing="ij"), -1).reshape(-1, 4)
    code = (box + 2) @ np.array([1, 16, 256, 4096])  # a cell as one number
    step = np.arange(-14, 14, 0.03)
    a, d = (v.ravel() for v in np.meshgrid(step, step))
    for case in range(6):
        B = turn(views_[case % 3], views_[(case + 1) % 3], float(rng.uniform(0.05, 0.95)))
        origin = rng.uniform(1, 5, size=4)
        pts = np.floor(origin + np.outer(a, B[:, 0]) + np.outer(d, B[:, 1])
                       + render.FEET * B[:, 2]).astype(int)
        pts = pts[((pts >= -2) & (pts < 8)).all(axis=1)]
        hit = np.isin(code, np.unique((pts + 2) @ np.array([1, 16, 256, 4096])))
        met = render.feet_plane_meets(box, B, origin, margin=0.0)
        deep = render.feet_plane_meets(box, B, origin, margin=-0.03)
        assert hit.sum() > 20
        assert not (hit & ~met).any(), case  # every cell a point falls in is met
        assert not (deep & ~hit).any(), case  # and every cell met by more than a hair has one
        assert render.feet_plane_meets(box[hit], B, origin).all()  # with the margin too
        # Wrapped in W = 3: the same as asking every copy of the cell, unwrapped.
        cells3 = box[(box[:, 3] >= 0) & (box[:, 3] < 3)]
        copies = np.array([render.feet_plane_meets(cells3 + (0, 0, 0, 3 * k), B, origin,
                                                   margin=0.0) for k in range(-30, 30)])
        wrapped = render.feet_plane_meets(cells3, B, origin, wrap=3, margin=0.0)
        assert np.array_equal(wrapped, copies.any(axis=0)), case


# -- the goal, the marks, the player behind a wall --------------------------------------------


def test_goal_cell_is_marked_and_its_light_stays_in_its_cell(ctx):
    room = _open_room()  # the goal at (5, 3, 1, 1), on the floor two cells right of the player
    pose = pose_of(room, "stand", pitch=0.9)
    img = _image(ctx, room, pose)
    floor = _face_pixels(ctx, room, pose, (5, 3, 0, 1), TOP)
    r, g, b = (img[floor][:, k].astype(int) for k in range(3))
    assert ((r > 200) & (g > 150) & (b < r - 60)).mean() > 0.6, "its floor is goal-gold"
    # Moved to a far corner, the goal leaves every pixel outside its cell's footprint as it
    # was: no halo on the neighbours.
    away = _image(ctx, replace(room, goal=(0, 0, 1, 1)), pose)
    u, _ = render.frame_uniforms(room, pose, SIZE)
    foot = _screen_box(u, (5, 3, 1, 1), SIZE) | _screen_box(u, (0, 0, 1, 1), SIZE)
    assert foot.sum() > 20
    diff = np.abs(img.astype(int) - away).sum(axis=2)
    assert (diff[~foot] > 6).sum() == 0
    # A slice away, it shows as a halo round where it is.
    u_away, _ = render.frame_uniforms(replace(room, goal=(5, 3, 2, 0)), pose, SIZE)
    assert u["u_goal_away"] == 0.0 and u_away["u_goal_away"] == 1.0


def _screen_box(u, cell, size, margin=2):
    """The screen rectangle round the projected corners of a cell (in the slice), as a mask."""
    B = u["u_basis"]
    eye, fwd, right, up = (np.asarray(u[k]) for k in ("u_eye", "u_fwd", "u_right", "u_up"))
    corners = np.array([[x, y, z, w] for x in (0, 1) for y in (0, 1) for z in (0, 1)
                        for w in (0, 1)], float) + cell
    s = (corners - np.asarray(u["u_origin"])) @ B[:, :3] - eye
    depth = s @ fwd
    px = (s @ right / (depth * u["u_tan"]) * size[1] + size[0]) / 2
    py = size[1] - (s @ up / (depth * u["u_tan"]) * size[1] + size[1]) / 2
    mask = np.zeros(size[::-1], bool)
    x0, x1 = int(max(px.min() - margin, 0)), int(min(px.max() + margin + 1, size[0]))
    y0, y1 = int(max(py.min() - margin, 0)), int(min(py.max() + margin + 1, size[1]))
    mask[y0:y1, x0:x1] = True
    return mask


def test_ramp_marks_say_where_a_step_off_the_ramp_lands():
    room = levelfile.parse((levelfile_dir() / "03-around.txt").read_text(), "03-around.txt")
    from anabasis.engine import rules

    on_ramp = rules.replay(room, "RR").state
    assert render.ramp_marks(room, on_ramp) == (((2, 1, 1, 2), 1),)  # D: round the wall, ana
    up = rules.replay(room, "RRD").state
    marks = dict((cell, way) for cell, way in render.ramp_marks(room, up))
    assert marks == {(2, 2, 1, 1): -1, (2, 0, 1, 1): -1}  # ahead and back: down again, kata
    assert render.ramp_marks(room, room.start) == ()  # no ramp in reach
    # Drawn in the slice on screen, at rest only.
    pose = Pose(tuple(float(c) for c in on_ramp.player))
    u, _ = render.frame_uniforms(room, pose, SIZE, render.ramp_marks(room, on_ramp))
    assert u["u_mark_lo"][0] == (2.0, 1.0, 1.0, 1.0) and u["u_mark_way"][0] == 1.0
    moving = replace(pose, player=(2.0, 0.5, 1.0, 1.5))
    u, _ = render.frame_uniforms(room, moving, SIZE, render.ramp_marks(room, on_ramp))
    assert u["u_mark_way"] == [0.0, 0.0]


def levelfile_dir():
    from importlib.resources import files

    return Path(str(files("anabasis.levels")))


def test_a_renderer_takes_a_room_of_its_size_in_place_and_draws_it_as_a_new_one(ctx, terraces):
    """The editor's next draft: the same texture written again, the same pixels as anew."""
    x, y, z, w = terraces.start.player
    cells_ = bytearray(terraces.cells)
    assert cells_[terraces.index((x + 1, y, z, w))] == cells.EMPTY
    cells_[terraces.index((x + 1, y, z, w))] = cells.BLOCK  # a block beside the player
    edited = replace(terraces, cells=bytes(cells_))
    pose = pose_of(terraces, "stand", pitch=0.6)
    target = render.Offscreen(ctx, SIZE)
    target.fbo.use()
    r = render.Renderer(ctx, terraces)
    r.draw(pose, (0, 0, *SIZE))
    before = target.read()[:, :, :3].copy()
    texture = r.texture
    assert r.set_room(edited) and r.room is edited and r.texture is texture
    r.draw(pose, (0, 0, *SIZE))
    reused = target.read()[:, :, :3].copy()
    fresh = render.Renderer(ctx, edited)
    fresh.draw(pose, (0, 0, *SIZE))
    anew = target.read()[:, :, :3].copy()
    assert np.array_equal(reused, anew) and not np.array_equal(reused, before)
    smaller = levelfile.parse("##### ##### #####\n\n##### #@..* .....\n")
    assert not r.set_room(smaller) and r.room is edited  # another size: a new renderer
    fresh.release()
    r.release()
    target.release()


def test_ramp_mark_is_drawn_over_the_wall_the_step_goes_round(ctx):
    from anabasis.engine import rules

    room = levelfile.parse((levelfile_dir() / "03-around.txt").read_text(), "03-around.txt")
    state = rules.replay(room, "RR").state
    pose = replace(pose_of(room, "stand", pitch=0.9), player=tuple(float(c) for c in state.player))
    r = render.Renderer(ctx, room, state)
    target = render.Offscreen(ctx, SIZE)
    target.fbo.use()
    r.draw(pose, (0, 0, *SIZE))
    marked = target.read()[:, :, :3].astype(int)
    r._marks = ()
    r.draw(pose, (0, 0, *SIZE))
    plain = target.read()[:, :, :3].astype(int)
    target.release()
    r.release()
    u, _ = render.frame_uniforms(room, pose, SIZE)
    wall = _screen_box(u, (2, 1, 1, 1), SIZE, margin=0)
    changed = np.abs(marked - plain).sum(axis=2) > 30
    assert changed[wall].sum() > 20 and changed[~wall].sum() == 0
    # The player behind that wall is drawn solid, in its colour, in a window cut in the wall
    # (tests/test_misreads.py); round the window the wall is drawn, opaque, not the player.
    def pink(a):
        return (a[..., 0] > 150) & (a[..., 0] - a[..., 1] > 60)

    def lid(a):  # (the wall's top edge, drawn on across the window, over the pawn's body)
        return a.min(axis=-1) > 170

    core = plain[SIZE[1] // 2 - 1: SIZE[1] // 2 + 2, SIZE[0] // 2 - 2: SIZE[0] // 2 + 1]
    assert (pink(core) | lid(core)).all() and pink(core).mean() > 0.6, "the player seen"
    from anabasis.picture import twins

    eye = np.asarray(u["u_eye"])
    d = np.asarray(twins.WINDOW_CENTRE) - eye
    depth = d @ u["u_fwd"]
    cx = (d @ u["u_right"] / (depth * u["u_tan"]) * SIZE[1] + SIZE[0]) / 2
    cy = SIZE[1] - (d @ u["u_up"] / (depth * u["u_tan"]) * SIZE[1] + SIZE[1]) / 2
    radius = twins.WINDOW_RADIUS * SIZE[1] / (2 * u["u_tan"] * np.linalg.norm(d))
    ys, xs = np.mgrid[0:SIZE[1], 0:SIZE[0]] + 0.5
    seen = render.Renderer(ctx, room, state)
    index = seen.debug_frame(pose, SIZE)[0]  # where the rays end, the window aside
    seen.release()
    around = (index == room.index((2, 1, 1, 1))) & (np.hypot(xs - cx, ys - cy) > radius + 1.5)
    sky = np.abs(plain - plain[0, 0]).sum(axis=2) < 20
    assert around.sum() > 40 and not (pink(plain) | sky)[around].any(), "the wall round it"


def test_ramp_marks_passed_in_the_pose_draw_as_the_renderers_own(ctx):
    """Play asks the rules for the marks and passes them in the pose: the same pixels as a
    pose without marks (the renderer asks the rules itself then), and a pose with none
    (``()``) draws none."""
    from anabasis.engine import rules

    room = levelfile.parse((levelfile_dir() / "03-around.txt").read_text(), "03-around.txt")
    state = rules.replay(room, "RR").state
    pose = replace(pose_of(room, "stand", pitch=0.9), player=tuple(float(c) for c in state.player))
    r = render.Renderer(ctx, room)
    r.set_state(state)
    target = render.Offscreen(ctx, SIZE)
    target.fbo.use()
    shots = []
    for marks in (render.ramp_marks(room, state), None, ()):
        r.draw(replace(pose, marks=marks), (0, 0, *SIZE))
        shots.append(target.read()[:, :, :3].copy())
    target.release()
    r.release()
    passed, own, none = shots
    assert np.array_equal(passed, own) and not np.array_equal(passed, none)


def test_cross_fade_mixes_the_next_slice_in(ctx, terraces):
    x, y, z, w = terraces.start.player
    base = pose_of(terraces, "stand")
    at0 = _image(ctx, terraces, base)
    # Half way up a ramp step: a mix of the two slices, neither end.
    half = _image(ctx, terraces, replace(base, player=(x + 0.5, y, z, w + 0.5)))
    nofade = _image(ctx, terraces, replace(base, player=(x + 0.5, y, z, w + 0.5), fade=0.0))
    assert np.abs(half.astype(int) - nofade).sum(axis=2).max() > 40
    assert not np.array_equal(half, at0)
    quarter = replace(base, player=(x, y, z, w + 0.25))
    u, variant = render.frame_uniforms(terraces, quarter, SIZE)
    assert "FADE" in variant and abs(u["u_fade"] - 0.25) < 1e-9


# -- the wrapped tower ----------------------------------------------------------------------


def test_wrap_tower_repeats_below_and_the_player_stays_in_sight(ctx, tower):
    pose = pose_of(tower, "w-up", pitch=0.5)
    r = render.Renderer(ctx, tower)
    wrapped, _, _ = r.debug_frame(pose, SIZE)
    r.release()
    flat_room = replace(tower, wrap=False)
    r = render.Renderer(ctx, flat_room)
    flat, _, _ = r.debug_frame(pose, SIZE)
    r.release()
    # Looking down the tower, the wrapped room shows cells where the unwrapped one has the void.
    assert ((wrapped >= 0) & (flat < 0)).sum() > 50
    # The cutaways keep the camera out of the tower: the player is in plain sight.
    img = _image(ctx, tower, pose)
    centre = img[SIZE[1] // 2 - 2: SIZE[1] // 2 + 2, SIZE[0] // 2 - 2: SIZE[0] // 2 + 2]
    red, green = centre[..., 0].astype(int), centre[..., 1].astype(int)
    assert ((red > 150) & (red - green > 60)).mean() > 0.5, "the (pink) player is in the middle"


def _level(n: int) -> Room:
    from anabasis.formats import levels

    return levels.load_level(n)


@pytest.mark.parametrize("view", ["w-up", "stand", "both"])
@pytest.mark.parametrize("name", ["tower", "ascending"])
def test_wrapped_room_shows_one_turn_and_a_little_of_the_next_never_a_tower(ctx, tower, name,
                                                                           view):
    room = tower if name == "tower" else _level(7)
    X, Y, Z, W = room.size
    pw = room.start.player[3]
    for camera in ({}, {"pitch": 0.3}, {"yaw": 3.1, "pitch": 0.5}, {"distance": 25.0}):
        pose = pose_of(room, view, **camera)
        r = render.Renderer(ctx, room)
        index, _, t = r.debug_frame(pose, SIZE)
        r.release()
        u, _ = render.frame_uniforms(room, pose, SIZE)
        _, ro, rd = pixel_rays(u, SIZE)
        hit = index.reshape(-1) >= 0
        # The unwrapped w of each cell seen: its wrapped w (from the index) and the copy the
        # ray was at.
        wrapped = index.reshape(-1)[hit] // (X * Y * Z)
        at = ro[hit, 3] + rd[hit, 3] * t.reshape(-1)[hit]
        unwrapped = wrapped + W * np.round((at - wrapped - 0.5) / W)
        assert unwrapped.min() >= pw - W and unwrapped.max() <= pw, (camera, view)
        # Bounded: at most one turn and a slice of the next, never a tower.
        assert len(np.unique(unwrapped)) <= W + 1
        if view == "w-up" and not camera:
            assert len(np.unique(unwrapped)) >= W, "a whole turn shows"


# -- pictures --------------------------------------------------------------------------------


def test_three_views_differ_and_are_not_blank(ctx, terraces):
    images = [_image(ctx, terraces, pose_of(terraces, v)) for v in ("stand", "w-up", "both")]
    for img in images:
        assert img.std() > 12
        assert len(np.unique(img.reshape(-1, 3) // 16, axis=0)) > 12
    for i in range(3):
        for j in range(i + 1, 3):
            assert np.abs(images[i].astype(int) - images[j]).sum(axis=2).mean() > 5


def test_moving_crate_is_drawn_at_its_offset(ctx, terraces):
    crate = terraces.start.crates[0]
    pose = pose_of(terraces, "stand", pitch=1.1)
    still = _image(ctx, terraces, pose)
    same = _image(ctx, terraces, replace(pose, moving_crate=(crate, (0.0, 0.0, 0.0, 0.0))))
    # Drawn analytically at offset 0 it looks (nearly) the same as from the texture (the
    # tops beside it at its level lose it as a neighbour while it moves: a lip on their edge)
    assert (np.abs(same.astype(int) - still).sum(axis=2) > 40).mean() < 0.02
    half = _image(ctx, terraces, replace(pose, moving_crate=(crate, (0.5, 0.0, 0.0, 0.0))))
    assert (np.abs(half.astype(int) - still).sum(axis=2) > 40).sum() > 10


def test_a_crate_drawn_moving_goes_back_into_the_texture(ctx, terraces):
    crate = terraces.start.crates[0]
    pose = pose_of(terraces, "stand", pitch=1.1)
    r = render.Renderer(ctx, terraces)
    moving = replace(pose, moving_crate=(crate, (0.5, 0.0, 0.0, 0.0)))
    hidden, _, _ = r.debug_frame(moving, SIZE)
    assert not (hidden == terraces.index(crate)).any(), "taken out while it moves"
    r.set_state(terraces.start)  # the move is over: the same state again
    back, _, _ = r.debug_frame(pose, SIZE)
    assert (back == terraces.index(crate)).any(), "and back in its cell"
    r.release()


def test_cell_codes_reach_the_shader_from_the_one_table():
    source = render.slice_source()
    named = set(re.findall(r"\bCELL_(\w+)", source))
    # The shader names codes the table has, defines none itself, and never writes a number.
    assert {"EMPTY", "CRATE", "RAMP_XP", "RAMP_YN"} <= named <= set(cells.NAMES)
    assert "#define CELL_" not in source
    assert not re.findall(r"\b\d+u\b", source), "a cell code typed as a number"
    for name, code in cells.NAMES.items():
        assert f"#define CELL_{name} {code}u\n" in cells.glsl_defines()
    # "code >= CELL_RAMP_XP && code <= CELL_RAMP_YN" in the shader needs the ramps in a row.
    assert cells.RAMPS == tuple(range(cells.RAMP_XP, cells.RAMP_YN + 1))


def test_slice_frag_is_its_chunks_joined_and_names_each_once():
    source = (render.SHADER_DIR / "slice.frag").read_text()
    for name in render.SLICE_CHUNKS:
        assert source.count(f'#include "{name}"') == 1
        assert (render.SHADER_DIR / f"{name}.glsl").read_text() in render.slice_source()
    assert not [line for line in render.slice_source().split("\n")
                if line.startswith("#include")]


def test_the_shaders_other_constants_come_from_python_too():
    source = render.slice_source()
    head = render.fragment_preamble()
    for name, kind in render.SHADER_CONSTANTS.items():
        assert re.search(rf"\b{name}\b", source), f"{name} is not used"
        assert not re.search(rf"(const\s+\w+|#define)\s+{name}\b", source), f"{name} typed twice"
        value = float(getattr(render, name))
        line = re.search(rf"const {kind} {name} = ([^;]+);", head)
        assert line and float(line.group(1)) == value
    assert "1e-4" not in source and "1e30" not in source  # as numbers, not names
    # the texel's layout, too: its masks and shift are the clearance module's
    from anabasis.picture import clearance

    assert f"#define CLEAR_SHIFT {clearance.CLEAR_SHIFT}u" in head


# -- the command line ------------------------------------------------------------------------


def test_cli_render_writes_a_png(ctx, tmp_path):
    level = tmp_path / "t.txt"
    level.write_text(TERRACES)
    out = tmp_path / "out.png"
    from anabasis.cli import main

    assert main(["render", str(level), "--view", "both", "--size", "64x40", "-o", str(out)]) == 0
    # The command made a context of its own and released it: moderngl draws on whichever is
    # current, so make the module's current again for the tests after this one.
    ctx.__enter__()
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # One IHDR (64x40, 8-bit RGB) and one IDAT: rows of filter byte 0 and RGB, not all one colour.
    assert struct.unpack(">4sIIBB", data[12:26]) == (b"IHDR", 64, 40, 8, 2)
    at = data.index(b"IDAT")
    (length,) = struct.unpack(">I", data[at - 4: at])
    rows = np.frombuffer(zlib.decompress(data[at + 4: at + 4 + length]), np.uint8).reshape(40, -1)
    assert rows.shape[1] == 1 + 3 * 64 and not rows[:, 0].any()
    assert rows[:, 1:].std() > 12


def test_cli_render_without_gl_exits_2_with_one_line(tmp_path):
    level = tmp_path / "t.txt"
    level.write_text(TERRACES)
    env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES="/nonexistent.json",
               __EGL_VENDOR_LIBRARY_DIRS="/nonexistent", LIBGL_DRIVERS_PATH="/nonexistent")
    proc = subprocess.run([sys.executable, "-m", "anabasis", "render", str(level), "--size",
                           "32x20", "-o", str(tmp_path / "x.png")],
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "LIBGL_ALWAYS_SOFTWARE=1" in lines[0]
    assert "Traceback" not in proc.stderr


def test_warm_up_compiles_every_variant_a_game_draws(ctx, terraces):
    from anabasis.app.viewer.drawstate import Warmer, warm_poses

    r = render.Renderer(ctx, terraces)
    poses = warm_poses(terraces, rules.start(terraces).state)
    names = {frozenset(r.uniforms(p, (1, 1))[1]) - {"WRAP", "SKIP"} for p in poses}
    flags = ("GHOST", "FADE", "MOVING_CRATE")
    every = {frozenset(n for n, on in zip(flags, bits, strict=True) if on)
             for bits in itertools.product((0, 1), repeat=3)}
    every |= {frozenset({"GHOST", "MARKS"}), frozenset({"MARKS"})}  # marks: at rest only
    assert names == every  # one pose per variant the game can draw
    target = render.Offscreen(ctx, (1, 1))
    target.fbo.use()
    warmer = Warmer([(terraces, list(poses))])
    while warmer.step(lambda room: r):
        pass
    assert warmer.done and all(r.has_program_for(p) for p in poses)
    target.release()
    r.release()


# -- empty-space skipping ---------------------------------------------------------------------


@pytest.mark.parametrize("wrap", [False, True])
def test_clearance_is_the_distance_to_the_nearest_solid_cell(wrap):
    from anabasis.picture import clearance

    rng = np.random.default_rng(5)
    grid = (rng.random((5, 4, 6, 9)) < 0.04).astype(np.uint8)  # [w, z, y, x], sparse
    got = clearance.clearance(grid, wrap)
    solid = np.argwhere(grid)
    W = grid.shape[0]
    cap = min(clearance.MAX_CLEARANCE, W) if wrap else clearance.MAX_CLEARANCE
    for cell in itertools.product(*(range(n) for n in grid.shape)):
        d = np.abs(solid - np.array(cell))
        if wrap:
            d[:, 0] = np.minimum(d[:, 0], W - d[:, 0])
        want = min(int(d.max(axis=1).min()), cap) if len(solid) else cap
        assert got[cell] == want, cell
    assert got.max() > 1  # there is something to skip


@pytest.mark.parametrize("wrap", [False, True])
def test_support_bits_say_whether_the_cells_kata_and_below_are_solid(wrap):
    # The footing's one read: each texel says whether the cell kata of it (w - 1, round the
    # tower where w wraps) and the cell below it (z - 1) are solid; outside the grid is empty.
    from anabasis.picture import clearance

    rng = np.random.default_rng(8)
    grid = (rng.random((4, 3, 5, 6)) < 0.3).astype(np.uint8) * cells.BLOCK
    texels = clearance.pack(grid, wrap)
    W = grid.shape[0]
    for w, z, y, x in itertools.product(*(range(n) for n in grid.shape)):
        kata = (w > 0 or wrap) and grid[(w - 1) % W, z, y, x] != 0
        below = z > 0 and grid[w, z - 1, y, x] != 0
        t = int(texels[w, z, y, x])
        assert t & clearance.CODE_MASK == grid[w, z, y, x]
        assert bool(t & clearance.KATA_SOLID) == kata, (x, y, z, w)
        assert bool(t & clearance.BELOW_SOLID) == below, (x, y, z, w)
        assert t >> clearance.CLEAR_SHIFT == clearance.clearance(grid, wrap)[w, z, y, x]


def test_a_crate_taken_out_for_a_push_holds_nothing_up(ctx, terraces):
    # While a crate is drawn off its cell, the texels say its cell is empty and neither the
    # cell above it nor the one ana of it is held by it.
    from anabasis.picture import clearance

    r = render.Renderer(ctx, terraces)
    crate = tuple(sorted(terraces.start.crates)[0])
    x, y, z, w = crate
    above, ana = (x, y, z + 1, w), (x, y, z, w + 1)
    assert r._packed[terraces.index(above)] & clearance.BELOW_SOLID
    r._hide_crate(crate)
    r._sync()
    texels = np.frombuffer(r.texture.read(), np.uint16).reshape(r.texture.depth, r.texture.height,
                                                                r.texture.width)
    X, Y, Z, _ = terraces.size

    def texel(c):
        return int(texels[c[2] + Z * c[3], c[1], c[0]])

    assert texel(crate) & clearance.CODE_MASK == cells.EMPTY
    assert not texel(above) & clearance.BELOW_SOLID
    if w + 1 < terraces.size[3]:
        assert not texel(ana) & clearance.KATA_SOLID
    r.release()


def test_skipping_sees_what_the_plain_walk_sees_across_open_space(ctx):
    # A wide open room with a few blocks far apart: rays cross long empty runs (clearance up
    # to 7) before they meet anything, from above and along w.
    X, Y, Z, W = 16, 14, 8, 6
    grid = np.zeros((W, Z, Y, X), np.uint8)
    grid[:, 0] = cells.BLOCK
    for x, y, z, w in [(2, 3, 3, 1), (12, 10, 5, 4), (8, 2, 6, 0), (14, 4, 2, 5), (3, 12, 4, 3)]:
        grid[w, z, y, x] = cells.BLOCK
    grid[2, 1, 7, 9] = cells.RAMP_XP
    player = (7, 7, 1, 2)
    room = Room((X, Y, Z, W), grid.tobytes(), (10, 7, 1, 2), State.of(player, [(5, 5, 1, 2)]))
    for view, toward, at, camera in [("stand", None, 0.0, {"pitch": 0.3, "distance": 12}),
                                     ("both", None, 0.0, {"yaw": 1.2, "pitch": 0.5}),
                                     ("stand", "both", 0.45, {"yaw": -2.0, "distance": 14})]:
        share, seen = agreement(ctx, room, pose_of(room, view, toward, at, **camera))
        assert seen > 0.2 and share == 1.0


def test_every_level_opens_with_no_cell_cut_at_the_frame_edge(ctx):
    # Read back: with the camera each shipped level opens with, in its own view, the rays
    # along the frame's edge meet no cell of the room, and some cell shows.
    from anabasis.formats import levels
    from anabasis.picture.views import room_camera

    size = (192, 108)
    for n in range(1, levels.count() + 1):
        room = levels.load_level(n)
        player = tuple(float(c) for c in room.start.player)
        cam = room_camera(room.size, room.view, player, size[0] / size[1], room.wrap)
        r = render.Renderer(ctx, room)
        index, _, _ = r.debug_frame(Pose(player, room.view, None, 0.0, cam), size)
        r.release()
        edge = np.concatenate([index[0], index[-1], index[:, 0], index[:, -1]])
        assert (edge == -1).all(), n
        assert (index >= 0).any(), n  # level 4 opens on one ramp: the stair is ana of it


# -- reading the picture: the misreads of issue 23 ----------------------------------------------

READ = (160, 96)  # a little larger: the faces these look at must cover enough pixels


def _level(n):
    return levelfile.parse((levelfile_dir() / f"0{n}-{_LEVEL_NAMES[n]}.txt").read_text())


_LEVEL_NAMES = {3: "around", 7: "ascending"}
ANA_FACE = 1 + 2 * 3 + 1  # the debug face code of a +w face (a floor with w up)


def _room_pose(room, state, view, size=READ, old_pitch=False):
    """The room's opening pose in ``view``; with ``old_pitch``, from a tall room's opening
    pitch before it was made steeper (``window.OLD_TALL_PITCH``)."""
    from anabasis.picture.views import room_camera

    player = tuple(float(c) for c in state.player)
    opening = old_room_camera if old_pitch else room_camera
    return Pose(player, view, None, 0.0, opening(room.size, view, player,
                                                 size[0] / size[1], room.wrap))


def _debug(ctx, room, state, pose, size=READ):
    r = render.Renderer(ctx, room, state)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    return index, faces


def _gold(pixels):
    r, g, b = (pixels[:, k].astype(int) for k in range(3))
    return (r > 200) & (g > 150) & (b < r - 60)


def test_one_goal_is_drawn_as_one_square_where_both_downs_show(ctx):
    """Level 7 by the goal, in the both view: the goal's top floor and its floor kata are both
    in sight, and only one of them is framed in gold (both were: two goals)."""
    room = _level(7)
    state = rules.replay(room, "RRRD").state  # one step from the goal's slice row
    pose = _room_pose(room, state, "both")
    img = _image(ctx, room, pose, state, READ)
    index, faces = _debug(ctx, room, state, pose)
    gx, gy, gz, gw = room.goal
    top = (index == room.index((gx, gy, gz - 1, gw))) & (faces == TOP)
    kata = (index == room.index((gx, gy, gz, gw - 1))) & (faces == ANA_FACE)
    assert top.sum() > 15 and kata.sum() > 15, "both floors are in sight"
    shares = sorted(_gold(img[m]).mean() for m in (top, kata))
    assert shares[1] > 0.6 and shares[0] < 0.1, shares
    # in the stand view its one floor is still marked
    stand = _room_pose(room, state, "stand")
    img = _image(ctx, room, stand, state, READ)
    index, faces = _debug(ctx, room, state, stand)
    top = (index == room.index((gx, gy, gz - 1, gw))) & (faces == TOP)
    assert top.sum() > 15 and _gold(img[top]).mean() > 0.6


def test_a_landing_mark_is_never_drawn_over_the_pawns_own_cell(ctx):
    """Level 7 on the corner ramp, stand view: a landing box stands in front of the pawn and
    one behind; no pixel whose ray ends in the pawn's own column (the cell it stands in, its
    floor) is touched by them, and they still draw."""
    room = _level(7)
    state = rules.replay(room, "RRRD").state
    assert len(render.ramp_marks(room, state)) == 2
    pose = _room_pose(room, state, "stand")
    r = render.Renderer(ctx, room, state)
    target = render.Offscreen(ctx, READ)
    target.fbo.use()
    r.draw(pose, (0, 0, *READ))
    marked = target.read()[:, :, :3].astype(int)
    r.draw(replace(pose, marks=()), (0, 0, *READ))
    plain = target.read()[:, :, :3].astype(int)
    target.release()
    r.release()
    index, faces = _debug(ctx, room, state, pose)
    x, y, z, w = state.player
    column = np.isin(index, [room.index((x, y, k, w)) for k in range(z + 1)])
    changed = np.abs(marked - plain).sum(axis=2) > 12
    assert column.sum() > 15, "the pawn's floor is in sight"
    assert changed[column].sum() == 0
    assert changed[~column].sum() > 40, "the marks are drawn elsewhere"


def test_a_landing_mark_across_the_wrap_is_drawn_a_slice_from_the_pawn():
    """Level 7: from the top slice a ramp climbs ana into slice 0; with w up it is drawn one
    slice up (w 4 in the band round the pawn), never three slices down at w 0."""
    room = _level(7)
    state = rules.replay(room, "RRRD").state
    assert state.player[3] == 3
    marks = render.ramp_marks(room, state)
    assert ((3, 2, 1, 0), 1) in marks
    for view, ws in (("w-up", {4.0, 2.0}), ("stand", {3.0})):
        pose = Pose(tuple(float(c) for c in state.player), view)
        u, names = render.frame_uniforms(room, pose, SIZE, marks)
        drawn = {lo[3] for lo, way in zip(u["u_mark_lo"], u["u_mark_way"], strict=True) if way}
        assert drawn == ws and "MARKS" in names, (view, drawn)


def test_what_a_cutaway_takes_darkens_nothing(ctx):
    """A block on the ceiling's plane: blocks round the cell over it, cut away by the
    ceiling, leave no trace on its top (their occlusion shaded the tops under the ceiling as
    pillows, rounded like ramps: level 3 and level 7 with w up).  (A block right over it
    stripes it: test_a_face_a_cutaway_uncovers_is_striped_as_a_block_cut_through.)"""
    # a pillar three high, held kata (its top is ground, not a drop)
    room = _room_with(_open_room(), [(3, 1, z, w) for z in (1, 2, 3) for w in (0, 1)])
    pose = pose_of(room, "stand", pitch=0.9)
    plain = _image(ctx, room, pose)
    index, faces = _debug(ctx, room, room.start, pose, SIZE)
    top = (index == room.index((3, 1, 3, 1))) & (faces == TOP)
    assert top.sum() > 20
    # blocks round the cell over its top, all above the ceiling, covering nothing drawn
    over = _image(ctx, _room_with(room, [(2, 1, 4, 1), (4, 1, 4, 1), (3, 0, 4, 1),
                                         (3, 2, 4, 1)]), pose)
    assert np.abs(over.astype(int) - plain).max() <= 2


def _faces_seen(ctx, room, state, view, old_pitch=False):
    """Each face that covers 30 pixels or more of ``view``'s picture, by its cell and face
    code: (what shows it, the part of its pixels that is dark, whether none of its middle
    is, how many pixels it covers).  What shows it: ``"tunnel"`` where the cell in front of
    it (toward the eye) is solid under the ceiling (so a cutaway before the pawn took it),
    ``"ceiling"`` where that cell is solid over the ceiling or past the wrap band, ``"top"``
    for a top at the room's top, else ``"plain"``.  Dark: under half its bright pixels
    (deeper than a corner's shade goes).  Last, the part of its middle (the 15 per cent of
    its pixels nearest its centre) lighter or darker than most of its inner pixels (the 40
    per cent nearest, clear of its edges' lines and lips) by more than 15 per cent: a hatch's
    lines, where it is hatched (a frame inset, or a lip, leaves the middle even); and that
    median's brightness."""
    from anabasis.picture import pose as poses
    from anabasis.picture.views import view_basis

    pose = _room_pose(room, state, view, old_pitch=old_pitch)
    img = _image(ctx, room, pose, state, READ).astype(float)
    index, faces = _debug(ctx, room, state, pose)
    crates = {room.norm(c) for c in state.crates}
    up = view_basis(view)[:, 2]
    ceiling = poses.ceiling(view_basis(view)) + 0.5 - 1e-6
    lo, hi = poses.wrap_band(room, state.player)
    X, Y, Z, _ = room.size
    seen = {}
    for i, f in set(zip(index.ravel().tolist(), faces.ravel().tolist(), strict=True)):
        pixels = (index == i) & (faces == f)
        if i < 0 or not 1 <= f <= 8 or pixels.sum() < 30:
            continue
        cell = [i % X, i // X % Y, i // (X * Y) % Z, i // (X * Y * Z)]
        axis, plus = divmod(f - 1, 2)
        front = list(cell)
        front[axis] += 1 if plus else -1
        front = tuple(front)
        solid = room.inside(room.norm(front)) and (
            room.cell(front) == cells.BLOCK or room.cell(front) in cells.RAMPS
            or room.norm(front) in crates)
        over = (np.dot(np.subtract(front, state.player), up) >= ceiling
                or (room.wrap and not lo <= front[3] < hi))
        kind = ("ceiling" if over else "tunnel") if solid else (
            "top" if plus and up[axis] > 0.5 and front[axis] >= room.size[axis] else "plain")
        lum = img[pixels].sum(axis=1)
        dark = lum < 0.5 * np.percentile(lum, 90)
        ys, xs = np.nonzero(pixels)
        near = np.hypot(ys - ys.mean(), xs - xs.mean())
        middle = near <= np.percentile(near, 15)
        inner = near <= np.percentile(near, 40)
        mid = np.median(lum[inner])
        dim = np.abs(lum[middle] - mid) > 0.15 * mid
        seen[(*cell, f)] = (kind, float(dark.mean()), not dark[middle].any(), int(pixels.sum()),
                            float(dim.mean()), float(mid))
    return seen


def test_a_face_a_cutaway_uncovers_says_which_cutaway(ctx):
    """A face that shows only because a cutaway took the cell in front of it.  Where the
    tunnel before the pawn took it, it is striped dark across, a block cut through: a blind
    player read the stumps the tunnel leaves in 2.7's walls as sunken floor cells.  Where
    the ceiling or the wrap band took it, it is a top with a block over it, hatched as the
    room's top is (bold stripes there covered most of a made room with w up, and the tops
    under the ceiling had read as floors).  Every other face is plain.  2.7 near its end, the
    pawn behind its walls (the stand view), and level 7 with w up (its walls at the pawn's
    level, cut by the band)."""
    from anabasis.app.play.session import open_level
    from anabasis.engine import solver

    room = open_level(7, chapter=2).room
    state = rules.replay(room, solver.solve(room).moves[:17]).state
    # (the scene the blind player met: the steeper camera of now sees fewer walls' faces)
    seen = _faces_seen(ctx, room, state, "stand", old_pitch=True).values()
    tunnel = [dark for kind, dark, *_ in seen if kind == "tunnel"]
    plain = [dark for kind, dark, *_ in seen if kind == "plain"]
    assert len(tunnel) >= 5 and len(plain) >= 20
    assert min(tunnel) > 0.2 and max(tunnel) < 0.8  # stripes: dark and light in turn
    assert max(plain) < 0.08  # lit evenly but for edge lines and shade
    room = _level(7)
    state = rules.replay(room, "R").state
    seen = _faces_seen(ctx, room, state, "w-up")
    hatched = [hatch for key, (kind, _, _, _, hatch, _) in seen.items() if kind == "ceiling"
               # (the pawn's shadow and window, and the landing marks, lie round it)
               and max(abs(a - b) for a, b in zip(key[:4], state.player, strict=True)) > 1]
    assert len(hatched) >= 4
    assert all(0.08 < h < 0.6 for h in hatched), hatched  # lines across, its middle too


@pytest.mark.parametrize("chapter,n", [(2, 8), (1, 7), (1, 2)])
def test_a_blocks_top_at_the_rooms_top_is_hatched_and_no_floor_is(ctx, chapter, n):
    """A blind player took the tops of 2.8's walls, two high in a room two high, for floors
    to climb onto; framed dark inset (as the slice map frames a wall), level 2's walls beside
    the pawn read as "inset floor tiles, hatches" to the next, and pale and hatched, as "a
    pale floor area".  A block's top in the room's last layer of z (nothing stands on it) is
    dark and hatched across in light lines, through its middle too, as a plan draws cut
    stone, and darker than the floors, not so dark that they sink; no other top is hatched
    (pits aside, dark throughout)."""
    from anabasis.app.play.session import open_level

    room = open_level(n, chapter=chapter).room
    state = rules.start(room).state
    Z = room.size[2]
    caps, floors = [], []
    for (*cell, f), (_, _, clear, count, hatch, lum) in _faces_seen(ctx, room, state,
                                                                    "stand").items():
        if f != TOP or count < 100 or room.cell(tuple(cell)) != cells.BLOCK:
            continue
        if max(abs(a - b) for a, b in zip(cell, state.player, strict=True)) <= 1:
            continue  # (the pawn's shadow and window lie round it)
        if cell[2] == Z - 1:
            assert 0.08 < hatch < 0.6, (cell, hatch)
            caps.append(lum)
        elif clear and state.player[0] != cell[0] and state.player[1] != cell[1] \
                and not _in_a_wall_shade(room, cell):
            # (a pit is dark in its middle: not a floor; the lanes' dashes cross the middle
            # of the floors in your row and column; a wall on the eye's side shades a band
            # of the floor behind it, its edge across the middle in the room's camera)
            assert hatch < 0.05, (cell, hatch)
            floors.append(lum)
    assert len(caps) >= 2
    # darker, and not so dark that they sink: at a little over half a floor's light (tried
    # for five blind players who found a made room "a sea of hatched walls"), two of the
    # next ten read level 2's walls as sunken floor
    assert not floors or 0.62 * min(floors) < min(caps) <= max(caps) < 0.8 * min(floors), \
        (caps, floors)


def _in_a_wall_shade(room, cell) -> bool:
    """Whether the floor on top of ``cell`` (the stand view) has a block beside it on the
    eye's side (+y, in the room's camera), at the level of one standing on it: the shader's
    cast_shade darkens a band of it, six tenths deep."""
    x, y, z, w = cell
    beside = (x, y + 1, z + 1, w)
    return room.inside(beside) and room.cell(beside) == cells.BLOCK


def test_a_crates_top_at_the_rooms_top_is_not_hatched(ctx):
    """Level 5's crate stands in the room's top layer: its top, hatched as a wall's, read as
    a wall's.  Only a block's top at the room's top is hatched; a crate keeps its planks."""
    from anabasis.app.play.session import open_level

    room = open_level(5).room
    state = rules.start(room).state
    (crate,) = state.crates
    assert crate[2] == room.size[2] - 1
    seen = _faces_seen(ctx, room, state, "stand")
    _, _, _, count, hatch, _ = seen[(*crate, TOP)]
    assert count >= 100 and hatch < 0.05, hatch


def test_the_goal_on_a_floor_nothing_holds_shows_its_pit_under_the_gold(ctx):
    """A blind player, shown 3.4's goal as a solid gold floor, stepped onto it before a crate
    held it and slipped a slice.  The goal's floor where nothing kata holds it is framed in
    gold as ever, but its pit shows through: its middle is far darker than the same goal
    held."""
    room = replace(_open_room(), goal=(5, 5, 1, 1))  # the goal on the floor at (5, 5)
    pose = pose_of(room, "stand", pitch=0.9)
    tile = _face_pixels(ctx, room, pose, (5, 5, 0, 1), TOP)
    ys, xs = np.nonzero(tile)
    middle = tile & (np.hypot(*np.mgrid[:tile.shape[0], :tile.shape[1]]
                              - np.array([ys.mean(), xs.mean()])[:, None, None]) < 2.5)
    assert middle.sum() >= 8
    held = _image(ctx, room, pose)[middle].astype(float).sum(axis=1).mean()
    drop = _image(ctx, _edit(room, {(5, 5, 1, 0): cells.EMPTY}), pose)
    frame = _image(ctx, room, pose)[tile & ~middle].astype(float)
    assert drop[middle].astype(float).sum(axis=1).mean() < 0.6 * held
    gold = (frame[:, 0] > frame[:, 2] + 60).mean()  # the frame stays gold
    assert gold > 0.2 and (drop[tile & ~middle].astype(float)[:, 0]
                           > drop[tile & ~middle].astype(float)[:, 2] + 60).mean() > 0.2


def test_the_lanes_lie_on_the_ground_never_on_an_upright_face(ctx):
    """The player's row and column are drawn as lighter lanes on the ground.  In the both
    view a face ana (the w-gravity's ground) stands upright, and a lane on it drew a pale
    stick over the pawn, which a blind player took for part of the pawn.  A lane lies on the
    faces that are up in the picture only: in the stand view the pawn's column's floor is
    lighter than the next column's; in the both view the pawn's column's upright face ana is
    as light as the next column's."""
    room = _open_room()  # the player at (3, 3, 1, 1), on the floor at z = 0

    def green(view, cell, face):
        pose = pose_of(room, view)
        img = _image(ctx, room, pose).astype(float)
        tile = _face_pixels(ctx, room, pose, cell, face)
        assert tile.sum() >= 30, (view, cell, face)
        return img[tile][:, 1].mean()  # (green: the pawn's pink light tints red and blue)

    # stand: the tops of the floor in the pawn's column (x = 3) and the next (x = 2)
    assert green("stand", (3, 5, 0, 1), TOP) > 1.08 * green("stand", (2, 5, 0, 1), TOP)
    ana = 1 + 2 * 3 + 1  # the debug face code of a +w face
    lane, next_one = green("both", (3, 3, 1, 0), ana), green("both", (2, 3, 1, 0), ana)
    assert abs(lane - next_one) < 0.05 * next_one, (lane, next_one)


def _rim_over_middle(image, tile) -> float:
    """How dark the rim of ``tile`` (its pixels within three of its edge) is, as a share of
    its middle's brightness."""
    inner = tile.copy()
    for _ in range(3):  # three pixels in from every side
        inner[1:, :] &= inner[:-1, :].copy()
        inner[:-1, :] &= inner[1:, :].copy()
        inner[:, 1:] &= inner[:, :-1].copy()
        inner[:, :-1] &= inner[:, 1:].copy()
    lum = image.astype(float).sum(axis=2)
    return lum[tile & ~inner].mean() / lum[inner].mean()


def test_a_tops_edge_over_a_step_down_is_drawn_as_a_dark_lip(ctx):
    """From above, a wall's top beside a lower floor shows no side (that face looks away
    from the eye): blind players took level 2's walls to the room's top for floor tiles
    beside the pawn's.  A top's edge with nothing beside it at its level (a step down past
    it) is drawn as a dark lip, darker than the thin line between two tops at one level."""
    room = _open_room()
    # a block one up on the floor, held kata (its top is ground, not a pit)
    raised = _edit(room, {(5, 5, 1, 1): cells.BLOCK, (5, 5, 2, 0): cells.BLOCK})
    pose = pose_of(raised, "stand", pitch=0.9)
    big = (480, 360)
    top = _face_pixels(ctx, raised, pose, (5, 5, 1, 1), TOP, big)
    floor = _face_pixels(ctx, raised, pose, (3, 5, 0, 1), TOP, big)  # floor all round it
    assert top.sum() > 300 and floor.sum() > 300
    image = _image(ctx, raised, pose, size=big)
    raised_rim, floor_rim = _rim_over_middle(image, top), _rim_over_middle(image, floor)
    assert raised_rim < floor_rim - 0.15, (raised_rim, floor_rim)


@pytest.mark.parametrize("source", [1, 5, (3, 2), (3, 8)])
def test_a_pit_you_fall_out_from_is_crossed_and_one_you_slip_through_is_not(ctx, source):
    """Level 1's pits (a slip kata, then out of the room) and level 5's bridge gap (a slip
    onto the floor a slice kata) were drawn alike, and blind players took the bridge's gap
    for a death.  A pit's top is crossed in the "fall out" badge's red where a pawn put there
    falls out (``rules.falls_out``, an endless fall round a wrapped room's w too), and plain
    where it lands: every pit in sight in the room's own view."""
    from anabasis.app.viewer.slicemap import SliceMap
    from anabasis.formats import levels

    room = levels.load_level(source) if isinstance(source, int) else levels.load_from(*source)
    state = rules.start(room).state
    pose = Pose(tuple(float(v) for v in state.player), room.view, None, 0.0, Camera())
    size = (320, 200)  # (a pit a few dozen pixels)
    image = _image(ctx, room, pose, state, size).astype(int)
    red = (image[..., 0] > 150) & (image[..., 0] > image[..., 1] + 70)
    smap = SliceMap(room, (900, 500))
    X, Y, Z, W = room.size
    seen = {True: 0, False: 0}
    pw = state.player[3]
    r = render.Renderer(ctx, room, state)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    for y in range(Y):
        for x in range(X):
            if not smap.slips(x, y, pw):
                continue
            z = smap.top(x, y, pw)[0]
            tile = (index == room.index((x, y, z, pw))) & (faces == TOP)
            if tile.sum() < 40:
                continue  # (out of sight)
            out = rules.falls_out(room, (x, y, z + 1, pw), state.crates)
            assert out == smap.out(x, y, pw, state.crates)
            share = red[tile].mean()
            assert (share > 0.02) if out else (share == 0), ((x, y, z, pw), out, share)
            seen[out] += 1
    assert seen[True] + seen[False] > 0


@pytest.mark.parametrize("source, moves", [(6, "LULU"),
                                           ("hard.wombat", "RDDRRULDLLUURDDDDDDDDDDRU")])
def test_a_pit_two_slices_deep_or_more_has_a_rim_in_it_a_slice_past_the_first(ctx, source,
                                                                            moves):
    """In level 6's slice ana, the shaft a crate drops two slices down looked like every
    other pit (t284, t285); the map bars it.  Every pit in sight, w hidden, that slips you
    two slices or more (``SliceMap.depth``) has light rims inside its rim, a slice past the
    first, and is darker inside them; one a slice, none.  (Drawn as the map's bars, a blind
    player read them as grates to walk over, t287.)"""
    from anabasis import gen
    from anabasis.app.play import markers
    from anabasis.app.viewer.slicemap import SliceMap
    from anabasis.formats import levels
    from anabasis.picture import views

    room = levels.load_level(source) if isinstance(source, int) else \
        gen.build(*gen.parse_spec(source)).room
    state = rules.start(room).state
    for m in moves:
        state = rules.step(room, state, m).state
    size = (640, 400)
    camera, image, index, faces = _frame_in(ctx, room, state, "stand", size)
    rim = (image.min(axis=2) > 95) & (image.max(axis=2) - image.min(axis=2) < 30)
    smap = SliceMap(room, (900, 500))
    X, Y, _, _ = room.size
    pw = state.player[3]
    project = markers.projecting(state.player, views.view_basis("stand"), camera, size)
    seen = {True: 0, False: 0}
    middles = {True: [], False: []}  # the mean of each top's middle, deep or not
    for y in range(Y):
        for x in range(X):
            if not smap.slips(x, y, pw, state.crates) or smap.out(x, y, pw, state.crates):
                continue
            z = smap.top(x, y, pw)[0]
            tile = (index == room.index((x, y, z, pw))) & (faces == TOP)
            px, py, _ = project((x, y, z + 0.5, pw))  # (the middle of its top, where the
            px, py = round(px), round(py)  # bars lie, in sight)
            if tile.sum() < 60 or not (0 <= px < size[0] and 0 <= py < size[1]) \
                    or not tile[py - 4:py + 5, px - 4:px + 5].all():
                continue  # (out of sight, or mostly)
            deep = smap.depth(x, y, pw, state.crates) >= 2
            share = rim[tile].mean()
            assert (share > 0.04) if deep else (share < 0.01), ((x, y, z, pw), deep, share)
            seen[deep] += 1
            middles[deep].append(float(image[py - 4:py + 5, px - 4:px + 5].mean()))
    assert seen[True] >= 2 and seen[False] >= 1, seen
    # and darker inside its rims, a well going down (its rims alone, a faint square in a
    # pit, blind players of a round told shafts from pits by the map alone: t298 to t300)
    mean = {k: sum(v) / len(v) for k, v in middles.items()}
    assert mean[True] < 0.65 * mean[False], middles


@pytest.mark.parametrize("moves", ["", "R", "RU"])
def test_a_gap_a_ramps_step_crosses_is_not_crossed_as_a_fall_in_the_w_up_view(ctx, moves):
    """In level 7's w-up view, the gaps the ramps' steps cross (``pose.crossed_gaps``: the
    map draws them dark with no cross, "a ramp steps over it") were crossed in the "fall
    out" red, and two blind players of one round read the ramps as throwing them into the
    void.  Every such gap's pit in sight is uncrossed (the pits no ramp crosses are held to
    the rules above, crossed where you fall out), and dark alone, with no rim."""
    from anabasis.formats import levels
    from anabasis.picture import pose as pose_of

    room = levels.load_level(7)
    state = rules.start(room).state
    for m in moves:
        state = rules.step(room, state, m).state
    size = (480, 300)
    _, image, index, faces = _frame_in(ctx, room, state, "w-up", size)
    red = (image[..., 0] > 150) & (image[..., 0] > image[..., 1] + 70) & (image[..., 2] < 130)
    crossed = pose_of.crossed_gaps(room)
    assert len(crossed) == 7
    z, W = state.player[2], room.size[3]
    seen = 0
    for x, y, w in crossed:
        floor = (x, y, z, (w - 1) % W)  # the pit's floor with w up: the block kata of it
        tile = (index == room.index(floor)) & (faces == ANA_FACE)
        # (but where the slope of the ramp a step goes onto lies over it: the gap seen past it)
        teal = (image[..., 1] > image[..., 0] + 25) & (image[..., 2] > image[..., 0] + 15)
        tile &= ~teal
        if tile.sum() < 40:
            continue
        assert red[tile].mean() == 0, ((x, y, w), red[tile].mean())
        # and dark alone, as the map draws it: no slip pit's lighter rim (rimmed, two blind
        # players of a later round read these as slip pits)
        inner = tile.copy()
        for axis in (0, 1):
            for step in (1, -1):
                inner &= np.roll(tile, step, axis=axis)
        lum = image.mean(axis=2)
        rim, middle = np.median(lum[tile & ~inner]), np.median(lum[inner])
        assert rim < middle + 15, ((x, y, w), rim, middle)  # (a slip pit's: + 70 or so)
        seen += 1
    assert seen >= 1


def test_a_column_open_to_below_the_room_with_w_up_is_lidded_and_crossed_at_your_floor(ctx):
    """With w up, level 1's crossed cells have nothing of the slice under them down to the
    room's bottom (w = 0).  Drawn as nothing, blind players found "× fall out" floating over
    the empty place (t262 to t281); crossed at the room's bottom, the hole showed its
    neighbours' sides and a dark strip a cell down, and all eighteen blind players of six
    rounds read the back corners beside it as pillars over the front row, three the cells
    as a trench (t313 to t330).  Such a hole in the floor you stand on (two of its sides
    solid at that level) is lidded there, as a pit's face: dark, and crossed in the "fall
    out" red at your floor's level.  A column a mover does not fall out of (a ramp under
    it in z holds it) is not, nor a hole with lower ground round it."""
    from anabasis.app.play import markers
    from anabasis.formats import levels
    from anabasis.picture import views

    def seen(room, cells_):
        state = rules.start(room).state
        size = (480, 300)
        camera, image, _, _ = _frame_in(ctx, room, state, "w-up", size)
        red = (image[..., 0] > 150) & (image[..., 0] > image[..., 1] + 70) & (
            image[..., 2] < 130)
        b = views.view_basis("w-up")
        project = markers.projecting(state.player, b, camera, size)
        out = []
        for x, y, z in cells_:
            px, py, depth = project((x, y, z, 0.5))  # the middle of its top, at w = 1
            assert depth > 0
            px, py = round(px), round(py)
            out.append(bool(red[py - 3:py + 4, px - 3:px + 4].any()))
        return out

    room = levels.load_level(1)
    z = rules.start(room).state.player[2]
    open_cells = [(x, y, z) for x in range(room.size[0]) for y in range(room.size[1])
                  if all(room.cell((x, y, z, w)) == cells.EMPTY for w in range(room.size[3]))]
    assert len(open_cells) == 2  # (the two crossed cells of the back row)
    assert seen(room, open_cells) == [True, True]
    # a ramp under one in z holds a mover there: that column is not lidded or crossed
    x, y, _ = open_cells[0]
    held = _edit(room, {(x, y, z - 1, 0): cells.RAMP_XP})
    assert not rules.falls_out(held, (x, y, z, 0), ())
    assert seen(held, open_cells) == [False, True]
    # a hole with one side solid at that level, lower ground round it, is not lidded: a lid
    # there floated as a dark box over the ground (t333, in a made room)
    alone = _edit(room, {(x, y + 1, z, 0): cells.EMPTY})
    assert rules.falls_out(alone, (x, y, z, 1), ())
    assert seen(alone, open_cells) == [False, True]


def test_with_w_up_a_blocks_side_under_your_floor_darkens_down_it(ctx):
    """Level 5 with w up: the side of the goal's column, seen over the trench beside it and
    lit as a top is, read to four blind players as a column standing higher than their
    floor, at one height with it (t280, t284, t286, t291).  A block's side under the floor
    the pawn stands on darkens down it, as a trench's wall; its top edge is as lit as before."""
    from anabasis.app.play import markers
    from anabasis.formats import levels
    from anabasis.picture import views

    room = levels.load_level(5)
    state = rules.start(room).state
    size = (640, 400)
    camera, image, index, faces = _frame_in(ctx, room, state, "w-up", size)
    lum = image.mean(axis=2)
    west = 1 + 2 * 0 + 0  # the debug face code of a -x face (seen from the trench's side)
    project = markers.projecting(state.player, views.view_basis("w-up"), camera, size)

    def at(w):  # the side's brightness by its middle, at w (a cell's centre at w + 0.5)
        x, y, _ = project((3.5, 1, 1, w - 0.5))
        x, y = round(x), round(y)
        box = (slice(y - 2, y + 3), slice(x - 2, x + 3))
        on = (index[box] == room.index((4, 1, 1, 1))) & (faces[box] == west)
        assert on.sum() >= 15, on
        return lum[box][on].mean()

    high, low = at(1.8), at(1.2)  # near its top, at your floor; near its foot, a level down
    assert low < 0.8 * high, (low, high)


def test_a_floor_a_crate_kata_holds_up_shows_the_crates_planks(ctx):
    """Level 5's crate, pushed into the gap, drops a slice kata and holds up the floor over
    it.  Framed in crate-brown along its edge only, that floor read as the gap's rim, still
    open (t334): its middle carries the crate's planks, flush, crate-brown, while the floor
    beside it keeps its green."""
    from anabasis.formats import levels

    room = levels.load_level(5)
    state = rules.start(room).state
    for move in "DRR":
        state = rules.step(room, state, move).state
    assert state.crates == ((3, 1, 1, 1),) and state.player[3] == 2
    _, image, index, faces = _frame_in(ctx, room, state, "stand", (480, 300))

    def top(cell):
        tile = (index == room.index(cell)) & (faces == TOP)
        assert tile.sum() > 60, cell
        return tile

    held, beside = top((3, 1, 0, 2)), top((1, 1, 0, 2))
    ys, xs = np.nonzero(held)
    middle = held & (abs(np.arange(held.shape[0])[:, None] - ys.mean()) < 0.2 * np.ptp(ys)) \
        & (abs(np.arange(held.shape[1])[None, :] - xs.mean()) < 0.2 * np.ptp(xs))
    assert middle.sum() > 10
    r, g, b = image[middle].mean(axis=0)
    assert r > 90 and r > g + 25 and g > b + 10, (r, g, b)  # crate-brown
    r, g, b = image[beside].mean(axis=0)
    assert g > r + 10, (r, g, b)  # the floor's green


def test_a_crate_the_ceiling_cuts_has_its_lid_drawn_on_the_top_it_stands_on(ctx):
    """With w up nothing ana of the pawn is drawn, and level 6's crate, one slice ana on the
    back row's block, left that block's top in its foot's shadow: a dark square, which
    three blind players of six read as a hole in the wall (t282, t284, t285).  The top a
    cut crate stands on carries the crate's lid: crate-brown in the middle, its foot in
    shadow round it; a top with no crate over it keeps its own colour."""
    from anabasis.formats import levels

    room = levels.load_level(6)
    state = rules.start(room).state
    assert (1, 0, 1, 3) in state.crates and state.player[3] == 2
    _, image, index, faces = _frame_in(ctx, room, state, "w-up", (480, 300))

    def top(cell):
        tile = (index == room.index(cell)) & (faces == ANA_FACE)
        assert tile.sum() > 60, cell
        return tile

    under, bare = top((1, 0, 1, 2)), image[top((0, 0, 1, 2))].mean(axis=0)  # under it; beside
    vivid = image.max(axis=2) - image.min(axis=2) >= 40
    lid = image[under & vivid]
    assert len(lid) > 0.3 * under.sum()
    r, g, b = lid.mean(axis=0)
    assert r > 90 and r > g + 25 and g > b + 15, (r, g, b)  # crate-brown
    assert bare[1] >= bare[0] - 10, bare  # (the block beside it: its slice's pale green)
    # and no dark ring round the lid: the top round it near the tone of the top beside it
    # (in the foot's full shadow, the lid read as sunk in a cut-out, t291)
    ring = under & ~vivid
    assert ring.sum() > 10 and image[ring].mean() > 0.6 * bare.mean(), (image[ring].mean(),
                                                                       bare.mean())


SHAFTS = """\
##### ##### #####
##### ##### #####
##### ##### #####
##### ##### #####
##### ##### #####

##### @...* .....
##### ##### #####
##.## ##.## ##.##
##### #.### #.###
##.## ##.## ##.##
"""


def _stand_frame(ctx, room, state, size) -> tuple:
    """``room`` at ``state`` in the stand view, in the room's own camera: the picture (float),
    its brightness, and the debug frame's cell index and face code of each pixel."""
    _, image, index, faces = _frame_in(ctx, room, state, "stand", size, wrap=False)
    return image, image.mean(axis=2), index, faces


BEHIND_A_CRATE = """\
#### #### #### ####
#### #### #### ####
#### #### #### ####
#### #### #### ####

#### .... .... ....
#### .@.. .... ....
#### .$.. .... ....
#### ...* .... ....
"""


@pytest.mark.parametrize("wrap", [False, True])
def test_the_window_round_the_pawn_never_cuts_a_crate(ctx, wrap):
    """A crate pushed toward the eye stood in front of the pawn, and the window round the
    pawn cut it away: three blind players of two rounds lost the crate they had just pushed
    ("almost completely hidden behind the player").  The pawn behind a crate, the crate is
    drawn whole, as with the pawn away from it (the pawn shows over it; its floor is dashed
    by the HUD: reading.pawn_floor); in a wrapped room too, where the shader tests each hit."""
    from anabasis.picture import views

    text = BEHIND_A_CRATE if not wrap else "wrap: w\n\n" + BEHIND_A_CRATE
    room = levelfile.parse(text)
    crate = (1, 2, 1, 1)
    size = (480, 300)

    player = (1, 1, 1, 1)
    state = State.of(player, (crate,))
    camera = views.room_camera(room.size, "stand", player, size[0] / size[1], room.wrap)
    pose = Pose(tuple(float(v) for v in player), "stand", None, 0.0, camera)
    r = render.Renderer(ctx, room, state)
    index, _, _ = r.debug_frame(pose, size)  # (no pawn, no window: the crate's whole shape)
    r.release()
    shape = index == room.index(crate)
    assert shape.sum() > 500
    image = _image(ctx, room, pose, state, size).astype(int)
    red, green, blue = image[..., 0], image[..., 1], image[..., 2]
    planks = (red > green + 15) & (green > blue + 10)  # the crate's brown, lit or shaded
    assert planks[shape].mean() > 0.9, planks[shape].mean()


def test_a_trench_open_below_the_room_reads_as_a_hole_not_a_recess(ctx):
    """hard.kob's trench, three cells long and one wide, open to below the room in every
    slice: its cells' neighbours along it are empty, so no cell was a shaft's, and its far
    side, lit, read to a blind player as a shallow recess with a grey floor to step into
    ("a gap looked like a sunken floor").  With the wall past it solid, it is a hole: its far
    side dark, far darker than the tops beside it, and crossed at its top, at each cell."""
    from anabasis import gen

    room = gen.build(*gen.parse_spec("hard.kob")).room
    state = rules.start(room).state
    assert state.player[3] == 1
    for x in (3, 4, 5):  # the trench, empty down to the room's bottom, walled in y
        assert all(room.cell((x, 3, z, 1)) == cells.EMPTY for z in range(4))
        assert room.cell((x, 2, 3, 1)) == room.cell((x, 4, 3, 1)) == cells.BLOCK
    image, lum, index, faces = _stand_frame(ctx, room, state, (640, 360))
    far_side, top = 1 + 2 * 1 + 1, 1 + 2 * 2 + 1  # the +y face, the +z face
    red = ((image[..., 0] > 150) & (image[..., 0] > image[..., 1] + 70)
           & (image[..., 2] < 130))
    for x in (3, 4, 5):
        side = np.zeros(index.shape, bool)
        for z in (1, 2, 3):
            side |= (index == room.index((x, 2, z, 1))) & (faces == far_side)
        cap = (index == room.index((x, 2, 3, 1))) & (faces == top)
        assert side.sum() > 20 and cap.sum() > 20, x
        assert np.median(lum[side]) < 0.6 * np.median(lum[cap]), x
        crossed = (index == room.index((x, 2, 3, 1))) & (faces == far_side)
        assert red[crossed].mean() > 0.03, (x, red[crossed].mean())


def test_a_shaft_open_below_the_room_reads_as_a_hole_not_a_shallow_well(ctx):
    """A column open to below the room (a mover in it falls out), seen from the steep camera,
    showed its far side lit as the tops are and hardly its bottom: a blind player read a made
    room's shafts as shallow wells to step into.  A shaft's sides are dark, far darker than
    a pit's with a floor at the same height, and crossed in the "fall out" red at its top;
    and where a ray leaves the room down a shaft open to the front, the cell on the room's
    bottom is crossed too."""
    from anabasis.formats import levelfile
    from anabasis.picture import views

    room = levelfile.parse(SHAFTS)
    state = rules.start(room).state
    size = (480, 300)
    camera = views.room_camera(room.size, "stand", state.player, size[0] / size[1])
    pose = Pose(tuple(float(v) for v in state.player), "stand", None, 0.0, camera)
    image, lum, index, faces = _stand_frame(ctx, room, state, size)
    far_side = 1 + 2 * 1 + 1  # the debug face code of a +y face (a far wall, seen from +y)

    def wall(x, y, zs):
        mask = np.zeros(index.shape, bool)
        for z in zs:
            mask |= (index == room.index((x, y, z, 1))) & (faces == far_side)
        assert mask.sum() > 20, (x, y)
        return float(np.median(lum[mask]))

    shaft, pit = wall(2, 1, (1, 2)), wall(1, 2, (1, 2))  # (2, 2): a shaft; (1, 3): a pit
    assert shaft < 0.6 * pit, (shaft, pit)
    red = ((image[..., 0] > 150) & (image[..., 0] > image[..., 1] + 70)
           & (image[..., 2] < 130))
    # crossed, as the map crosses it: on its far side's top cell (dark alone, the legend's
    # dark pit read as a safe slip), and not in the pit with a floor
    top = (index == room.index((2, 1, 2, 1))) & (faces == far_side)
    assert red[top].mean() > 0.03, red[top].mean()
    pit_side = (index == room.index((1, 2, 2, 1))) & (faces == far_side)
    assert not red[pit_side].any()
    missed = index < 0  # (rays that hit nothing: the room's bottom seen down a shaft)
    assert red[missed].sum() > 20  # the cross on the bottom of the shaft open to the front
    # a wall's side over a wide gap (the front row open, three cells wide) is no shaft's:
    # darkened and crossed at its top, such sides read as dark pillars with a cross on them
    rows = SHAFTS.split("\n")
    rows[-2] = "#...# #...# #...#"
    room = levelfile.parse("\n".join(rows))
    state = rules.start(room).state
    lum = _image(ctx, room, pose, state, size).astype(float).mean(axis=2)
    r = render.Renderer(ctx, room, state)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    assert wall(2, 3, (1, 2)) > 0.8 * wall(1, 2, (1, 2))


def test_a_floor_a_crate_kata_holds_up_is_framed_in_the_crates_colour(ctx):
    """A floor held up by a crate one slice kata was drawn as any floor, and turned into a pit
    when the crate moved: four blind players in one round were caught out.  Its top is framed
    just inside its edge in the crate's colour (the map bars it so); no other floor is."""
    from anabasis.formats import levels

    room = levels.load_level(5)
    state = rules.start(room).state
    for m in "DRR":  # the crate pushed into the gap kata: (3, 1) of w 2 is held by it
        state = rules.step(room, state, m).state
    assert (3, 1, 1, 1) in state.crates
    pose = Pose(tuple(float(v) for v in state.player), "stand", None, 0.0, Camera())
    size = (480, 300)
    image = _image(ctx, room, pose, state, size).astype(int)
    r_, g_, b_ = image[..., 0], image[..., 1], image[..., 2]
    orange = (r_ > 110) & (r_ > g_ + 35) & (g_ > b_ + 30)
    r = render.Renderer(ctx, room, state)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    pw = state.player[3]
    seen = {True: 0, False: 0}
    for y in range(room.size[1]):
        for x in range(room.size[0]):
            z = 0
            tile = (index == room.index((x, y, z, pw))) & (faces == TOP)
            if tile.sum() < 40 or room.cell((x, y, z + 1, pw)) != cells.EMPTY:
                continue
            held = (x, y, z + 1, pw - 1) in state.crates
            share = orange[tile].mean()
            assert (share > 0.05) if held else (share == 0), ((x, y), held, share)
            seen[held] += 1
    assert seen[True] == 1 and seen[False] > 3


def test_the_legends_held_floor_has_the_pictures_crate_colours():
    """The help's legend lays the held floor's planks in the colour the picture lays them,
    in the frame a crate's face has."""
    from anabasis.app.play import legend

    text = (Path(__file__).parent.parent / "shaders" / "slice_shading.glsl").read_text()
    found = re.search(r"const vec3 CRATE_COLOUR = vec3\(([^)]*)\);", text)
    assert found
    rgb = tuple(round(255 * float(v)) for v in found.group(1).split(","))
    assert legend.HELD_PLANKS == rgb
    found = re.search(r"col = mix\(vec3\(([^)]*)\), CRATE_COLOUR \* plank", text)
    assert found
    assert legend.HELD_EDGE == tuple(round(255 * float(v)) for v in found.group(1).split(","))


def test_a_walls_top_is_bevelled_as_a_raised_slab(ctx):
    """Level 2's wall, one high at the room's edge, drawn flat and hatched, read to three blind
    players of five as striped floor at their own height.  Its top is bevelled as a raised
    tile is drawn: the mass's edges turned up on screen lit, those turned down shaded."""

    room = wall_before_pawn()  # (level 2 as it was: the wall between the eye and the pawn)
    state = rules.start(room).state
    image, _, index, faces = _stand_frame(ctx, room, state, (480, 300))
    walls = [(x, y, 1, 2) for x in (0, 1) for y in (1, 2)]
    assert all(room.cell(c) == cells.BLOCK for c in walls)
    top = np.zeros(index.shape, bool)
    for c in walls:
        top |= (index == room.index(c)) & (faces == TOP)
    rows = np.flatnonzero(top.any(axis=1))
    assert rows.size > 30
    lum = image.mean(axis=2)
    band = max(3, rows.size // 10)
    upper = lum[rows[0]:rows[0] + band][top[rows[0]:rows[0] + band]].mean()
    lower = lum[rows[-1] - band + 1:rows[-1] + 1][top[rows[-1] - band + 1:rows[-1] + 1]].mean()
    assert upper > 1.25 * lower, (upper, lower)


@pytest.mark.parametrize("level, view, raised, floor", [
    (2, "stand", (1, 1, 1, 2), (1, 0, 0, 2)),  # the wall before the pawn, its back row's floor
    (3, "w-up", (1, 1, 1, 1), (1, 0, 1, 0)),   # the wall in the pawn's slice, the floor behind
])
def test_a_raised_tops_far_edge_is_lit_and_the_floor_past_it_in_its_shadow(
        ctx, level, view, raised, floor):
    """A raised top's edge whose side looks away from the eye shows no side.  Drawn as a dark
    lip there, it read as the front of the floor past it, that floor raised: level 2's wall
    before the pawn and level 3's wall in the pawn's slice with w up read to blind players as
    low floor to step onto.  That edge is now lit, and the lower floor past it shaded, darkest
    by the wall: both by the top's rows on screen, its far (upper) rows against its middle;
    the far edge of that floor, the room's own edge, is not lit."""
    from anabasis.formats import levels
    from anabasis.picture import views

    # (level 2 as it was laid out: its wall between the eye and the pawn)
    room = wall_before_pawn() if level == 2 else levels.load_level(level)
    state = rules.start(room).state
    size = (480, 300)
    camera = views.room_camera(room.size, view, state.player, size[0] / size[1])
    pose = Pose(tuple(float(v) for v in state.player), view, None, 0.0, camera)
    lum = _image(ctx, room, pose, state, size).astype(float).mean(axis=2)
    r = render.Renderer(ctx, room, state)
    index, faces, _ = r.debug_frame(pose, size)
    r.release()
    face = TOP if view == "stand" else ANA_FACE

    def bands(cell):
        assert room.cell(cell) == cells.BLOCK
        top = (index == room.index(cell)) & (faces == face)
        rows = np.flatnonzero(top.any(axis=1))
        assert rows.size > 12, cell
        band = max(3, rows.size // 8)
        mid = rows[rows.size // 2 - band // 2:][:band]
        return (lum[rows[0]:rows[0] + band][top[rows[0]:rows[0] + band]].mean(),
                lum[mid][top[mid]].mean(),
                lum[rows[-1] - band + 1:rows[-1] + 1][top[rows[-1] - band + 1:rows[-1] + 1]].mean())

    # lit (a dark lip there was the misread): its brightest row of the far band, the rim
    # being a few pixels whatever the top's size on screen (with w up seen square on, level
    # 3's wall is larger, and a band an eighth of it deep takes in more than its rim)
    top = (index == room.index(raised)) & (faces == face)
    rows = np.flatnonzero(top.any(axis=1))
    rim = max(lum[r][top[r]].mean() for r in rows[:max(3, rows.size // 8)])
    _, middle, _ = bands(raised)
    assert rim > 1.08 * middle, (rim, middle)
    upper, its_middle, near_the_wall = bands(floor)
    assert near_the_wall < 0.9 * its_middle, (near_the_wall, its_middle)
    # but a top's far edge at the room's own edge is not lit: lit, the floor there read as a
    # ledge over the floors in front of it (level 3's back row, to four blind players)
    assert upper < its_middle, (upper, its_middle)


def test_the_held_floors_list_and_its_texel_read_draw_alike(ctx):
    """The cells a crate kata holds up go to the shader as a list a frame (a texel read on
    every floor's pixel cost a tenth of a frame); past MOST_HELD of them, each floor's pixel
    reads the cell kata of it (HELD_READ).  Both draw the same picture, and a room with more
    held cells than the list holds frames every one of them."""
    from anabasis.formats import levels

    def drawn(room, state, variant):
        size = (320, 200)
        pose = Pose(tuple(float(v) for v in state.player), "stand", None, 0.0, Camera())
        r = render.Renderer(ctx, room, state)
        target = render.Offscreen(ctx, size)
        target.fbo.use()
        r.draw(pose, (0, 0, *size), variant=variant)
        out = target.read()[:, :, :3].copy()
        target.release()
        r.release()
        return out

    room = levels.load_level(5)
    state = rules.start(room).state
    for m in "DRR":
        state = rules.step(room, state, m).state
    assert render.held_cells(room, state) == ((3, 1, 1, 2),)
    assert np.array_equal(drawn(room, state, ()), drawn(room, state, {"HELD_READ"}))
    # ten crates in w 0 under a floor of ten in w 1: every cell of w 1 held by one
    crates = tuple((x, 0, 1, 1) for x in range(10))
    wide = Room.empty((10, 1, 2, 3), (0, 0, 1, 2), (9, 0, 1, 2), crates)
    floor = bytearray(wide.cells)
    for x in range(10):
        for w in (0, 1, 2):
            floor[wide.index((x, 0, 0, w))] = cells.BLOCK
        floor[wide.index((x, 0, 1, 0))] = cells.BLOCK  # (what holds the crates)
    wide = replace(wide, cells=bytes(floor))
    state = rules.start(wide).state
    assert set(state.crates) == set(crates) and state.player == (0, 0, 1, 2)
    assert len(render.held_cells(wide, state)) == 10 > render.MOST_HELD
    image = drawn(wide, state, ()).astype(int)
    r_, g_, b_ = image[..., 0], image[..., 1], image[..., 2]
    assert ((r_ > 110) & (r_ > g_ + 35) & (g_ > b_ + 30)).sum() > 200


def test_no_fall_out_cross_where_the_ramp_underfoot_carries_you_over(ctx):
    """Level 7 with w up: the step off the ramp underfoot goes ana round the cell of your
    slice before it, one you would fall out from, crossed in red; with "ramp ana to w 1"
    over the cross, blind players read the step as a fall.  Where the ramp carries you over
    a cell, it has no cross; with a plain block underfoot (no ramp's step), it has."""
    from anabasis.formats import levels

    room = levels.load_level(7)
    pose = pose_of(room, "w-up", pitch=0.9)
    px, py, pz, pw = room.start.player
    assert room.cell((px, py, pz - 1, pw)) in cells.RAMPS

    def crossed(pixels):  # pixels in the fall-out cross's red (a ramp ana's outline over it
        # tints it a little: pose.stair_cells)
        return int((np.abs(pixels.astype(int) - (255, 90, 90)).sum(axis=-1) < 60).sum())

    size = (480, 270)
    # the floor the cross lies on: the +w face of the cell under the one the step goes round
    # (x + 1), down its column in w (the band the picture draws kata of the pawn, wrapped)
    W = room.size[3]
    tile = np.zeros((size[1], size[0]), bool)
    for k in range(1, W + 1):
        tile |= _face_pixels(ctx, room, pose, (px + 1, py, pz, (pw - k) % W), 1 + 2 * 3 + 1,
                             size)
    assert tile.sum() > 20
    ramp = crossed(_image(ctx, room, pose, size=size)[tile])
    plain = crossed(_image(ctx, _edit(room, {(px, py, pz - 1, pw): cells.BLOCK}), pose,
                           size=size)[tile])
    assert plain > 5 and ramp == 0, (plain, ramp)


def test_the_holes_variant_is_drawn_only_where_a_hole_can_show():
    """The shaft's sides and the void's cross cost a tenth of a frame on llvmpipe by their
    code alone, so they are the HOLES variant: with z up, in a room whose bottom layer has
    an empty cell (a column may open to below the room); not with w up, nor in a room
    whose bottom is whole (level 1's)."""
    from anabasis.formats import levelfile, levels

    shafts = levelfile.parse(SHAFTS)
    player = tuple(float(v) for v in rules.start(shafts).state.player)

    def names(room, view, at=None):
        p = at or tuple(float(v) for v in rules.start(room).state.player)
        return render.frame_uniforms(room, Pose(p, view, None, 0.0, Camera()), (64, 48))[1]

    assert "HOLES" in names(shafts, "stand", player) and "HOLES" in names(shafts, "both", player)
    assert "HOLES" not in names(shafts, "w-up", player)
    assert "HOLES" not in names(levels.load_level(1), "stand")

def test_the_lanes_are_lighter_tiles_with_no_line_down_their_middle(ctx):
    """A lane (the player's row or column) is its tiles drawn lighter, evenly: a dotted line
    down its middle, from the pawn to where the ground stopped at a ramp, read to a blind
    player (t209, hard.kudu4) as a route to the ramp, and he took it into a fall.  Of a
    tile in the pawn's column, no pixel is much lighter than the tile's own middle tone."""
    room = _open_room()  # the player at (3, 3, 1, 1), on the floor at z = 0
    pose = pose_of(room, "stand")
    img = _image(ctx, room, pose).astype(float)
    for cell in ((3, 5, 0, 1), (3, 6, 0, 1), (1, 3, 0, 1)):  # in its column, and its row
        tile = _face_pixels(ctx, room, pose, cell, TOP)
        assert tile.sum() >= 30, cell
        green = img[tile][:, 1]
        lighter = (green > np.median(green) + 30).mean()
        assert lighter < 0.01, (cell, lighter)


def test_no_fall_out_cross_down_the_pawns_own_column(ctx):
    """Level 4 with w up, the pawn on its ramp at w 3: what holds it there is the ramp of
    the layer under it (z hidden), not in the slice, and the bottom of its column in the
    slice is a pit you would fall out from, crossed in red.  Four blind players (t222, t230,
    t237, t238) read the pawn as standing over a fall-out cell.  No cross is drawn down the
    pawn's own column; the pit beside the goal keeps its cross."""
    from anabasis.formats import levels
    from anabasis.picture.views import room_camera

    room = levels.load_level(4)
    state = rules.replay(room, "RR").state
    px, py, pz, pw = state.player
    assert pw == 3 and room.cell((px, py, pz - 1, pw)) in cells.RAMPS
    pose = Pose(tuple(float(v) for v in state.player), "w-up",
                camera=room_camera(room.size, "w-up", state.player, 16 / 9, room.wrap))

    def crossed(pixels):  # pixels in the fall-out cross's red
        return int((np.abs(pixels.astype(int) - (255, 90, 90)).sum(axis=-1) < 60).sum())

    size = (480, 270)
    image = _image(ctx, room, pose, state, size=size)
    ana = 1 + 2 * 3 + 1  # the debug face code of a +w face

    def column_floor(x):  # the +w face at the bottom of column x of the pawn's row, in sight
        tile = np.zeros((size[1], size[0]), bool)
        for w in range(pw):
            tile |= _face_pixels(ctx, room, pose, (x, py, pz, w), ana, size)
        return tile

    under, beside = column_floor(px), column_floor(4)
    assert under.sum() > 20 and beside.sum() > 20
    assert crossed(image[under]) == 0
    assert crossed(image[beside]) > 5



def test_with_w_up_a_side_rising_over_your_floor_is_hatched(ctx):
    """With w up, a block one slice over your floor is drawn one high, as a step in z is in
    the stand view, and no step climbs it: level 3's middle row, one slice ana, read to
    blind players as a ledge to climb ("the two views draw the same shape with opposite
    meanings", t299; t300).  Its side over your floor is hatched in light lines; a side
    under your floor (level 5's trench wall, the goal's column beside it) is not."""
    from anabasis.formats import levels

    def light_share(level, cell, face):
        room = levels.load_level(level)
        state = rules.start(room).state
        _, image, index, faces = _frame_in(ctx, room, state, "w-up", (640, 360))
        tile = (index == room.index(cell)) & (faces == face)
        assert tile.sum() >= 60, (level, cell, tile.sum())
        lum = image.sum(axis=2)[tile]
        return float((lum > 1.3 * np.median(lum)).mean())

    room = levels.load_level(3)
    assert rules.start(room).state.player[3] == 1 and room.cell((1, 1, 1, 1)) == cells.BLOCK
    PLUS_Y = 1 + 2 * 1 + 1  # the debug face code of a +y face (toward the eye)
    MINUS_X = 1 + 2 * 0  # of a -x face
    rises = [light_share(3, (x, 1, 1, 1), PLUS_Y) for x in (0, 1)]
    assert min(rises) > 0.06, rises
    # level 5's goal column, its side to the trench: under the pawn's floor (w 2), no hatch
    assert light_share(5, (4, 1, 1, 1), MINUS_X) < 0.03

