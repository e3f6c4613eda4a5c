"""The out-of-slice marks in the real window: which way each says, where each is drawn.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pygame
import pytest
from conftest import DT
from rooms import open_wall_before_pawn
from window import arrow_for, made_in_stand, old_pitch, old_room_camera, press, settle, walk

from anabasis.app.play import markers
from anabasis.app.play.session import open_level
from anabasis.engine import solver
from anabasis.picture import views


def _marks(app):
    play = app.scene
    return markers.find(play.room, play.state, play.pose().player, play.sight.basis(),
                        play.sight.camera, app.overlay.size)


def test_out_of_slice_marks_say_which_way_in_each_view(make_app):
    # (level 2 as it was laid out: the goal a slice kata of the start, two rows on in y)
    app = make_app(open_wall_before_pawn())
    app.view_tips = 0  # (a tip's panel would lie over the mark)
    play = app.scene
    # (nor the map or the step badges: a marker keeps off them, and the map's own goal and
    # frame are drawn in the same gold)
    app.progress.slice_map, app.progress.step_marks = "off", "held"
    play.reading.settings_changed()
    for _ in range(2):  # (a frame that traced the room leaves the new HUD to the next)
        app.tick(DT)
    seen = {}
    for view in ("stand", "w-up", "both"):
        assert play.sight.view == view
        seen[view] = [(m.what, m.label) for m in _marks(app)]
        play.message_left = 0.0  # (the message of the moment: its panel lay over the mark)
        for _ in range(2):
            app.tick(DT)
        for m in _marks(app):
            # drawn where it would stand were it in the slice, or just off the pawn where
            # that is over it (as in the both view here): the mark's colour is there
            x, y = (int(c) for c in m.at)
            reach = 12 if view == "stand" else 32
            near = [app.overlay.surface.get_at((x + dx, y + dy))[:3]
                    for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)]
            assert markers.GOAL_COLOUR in near, view
        press(app, pygame.K_v)
        settle(app)
    # w hidden: a slice kata; z hidden: in the slice, drawn, but the walls in front hide
    # most of its floor (a gold strip in sight: marked, "partly"); y hidden: two rows +y
    assert seen == {"stand": [("goal", "1 kata")],
                    "w-up": [("goal", "partly hidden by a wall")], "both": [("goal", "2 rows +y")]}
    # off the window: pinned to its edge, on the side toward where it is
    ov, W, H = app.overlay, *app.overlay.size
    near = views.Camera(yaw=0.0, pitch=0.3, distance=3.0)
    for yaw in np.linspace(0, 2 * np.pi, 24, endpoint=False):
        marks = markers.find(play.room, play.state, play.pose().player, play.sight.basis(),
                             replace(near, yaw=yaw), ov.size)
        if not marks[0].inside and marks[0].at[1] > 0:
            break
    else:
        raise AssertionError("no yaw puts the goal off the window")
    ov.begin(("a test", yaw))
    markers.draw(ov, marks, ov.scale)
    x, y = marks[0].at
    ox, oy = (x - W / 2), (y - H / 2)
    gold = [(i, j) for i in range(0, W, 2) for j in range(0, H, 2)
            if ov.surface.get_at((i, j))[:3] == markers.GOAL_COLOUR]
    assert gold and all(i < 80 or i > W - 80 or j < 80 or j > H - 80 for i, j in gold)
    cx, cy = np.mean(gold, axis=0)
    assert (cx - W / 2) * ox + (cy - H / 2) * oy > 0  # on the side of the window toward it
    # a crate a slice ana (level 6), and the goal in the slice: no mark for it
    app.open(open_level(6))
    app.tick(DT)
    assert [(m.what, m.label) for m in _marks(app)] == [("crate", "1 ana")]


def test_a_mark_is_projected_as_the_ray_tracer_casts_its_pixel():
    # the shader's ray through pixel p: fwd + ndc.x tan right + ndc.y tan up, with
    # ndc = (2 p - size) / height; the point projected must lie on the ray through its pixel
    size = (640, 360)
    b = views.view_basis("both")
    camera = views.Camera(yaw=0.8, pitch=0.6, distance=9.0)
    eye, fwd, right, up = camera.frame()
    tan = math.tan(math.radians(camera.fov) / 2)
    for point in [(3, 1, 2, 4), (0, 0, 0, 0), (5, 2, 1, 1)]:
        x, y, depth = markers.project(point, (2, 1, 1, 2), b, camera, size)
        assert depth > 0
        ndc = np.array([(2 * x - size[0]) / size[1], (2 * (size[1] - y) - size[1]) / size[1]])
        ray = fwd + ndc[0] * tan * right + ndc[1] * tan * up
        rel = (np.subtract(point, (2, 1, 1, 2)) @ b[:, :3]) - eye
        assert np.allclose(np.cross(ray, rel), 0, atol=1e-9)



def test_a_thing_in_the_pawns_own_column_says_of_you():
    """A blind player read the marker of a crate just kata of the pawn, moved off the pawn
    to stand beside it, as the next cell's: a thing whose cell is the pawn's but for the
    hidden axis says so ("1 kata of you"); one a cell aside does not."""
    from anabasis.engine.world import Room, State

    room = Room.empty((4, 4, 3, 3), (1, 1, 1, 2), (3, 3, 1, 0))
    b = views.view_basis("stand")  # w hidden
    cam = views.Camera(yaw=0.0, pitch=0.5, distance=6.0)
    player = (1, 1, 1, 2)
    under = State.of(player, ((1, 1, 1, 1), (2, 1, 1, 1)))
    found = {m.cell: m for m in markers.find(room, under, player, b, cam, (800, 450))}
    assert found[(1, 1, 1, 1)].yours and found[(1, 1, 1, 1)].label == "1 kata of you"
    assert not found[(2, 1, 1, 1)].yours and found[(2, 1, 1, 1)].label == "1 kata"
    assert found[(3, 3, 1, 0)].label == "2 kata"  # the goal, two slices kata, elsewhere


def _walled(wall_z=(1, 2, 3, 4), crates=(), gap: int | None = None):
    """A room 5 x 6, its play in slice w 1 over a solid w 0 (what holds it from kata): a
    floor, the pawn near the camera (y 4), the goal far (y 0) and a wall of ``wall_z``
    across y 1 between them (but at x ``gap``)."""
    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import Room

    X, Y, Z = 5, 6, 5
    cells = bytearray([BLOCK]) * (X * Y * Z) + bytearray(X * Y * Z)
    for x in range(X):
        for y in range(Y):
            at = X * Y * Z + x + X * y
            cells[at] = BLOCK
            for z in wall_z if y == 1 and x != gap else ():
                cells[at + X * Y * z] = BLOCK
    room = Room.empty((X, Y, Z, 2), player=(2, 4, 1, 1), goal=(2, 0, 1, 1),
                      crates=[(*c[:3], 1) for c in crates])
    return replace(room, cells=bytes(cells))


def test_a_goal_in_the_slice_but_hidden_from_the_eye_is_marked_and_says_by_what():
    """A blind player found the goal of a hard room, behind tall walls, only in the plan
    view.  A goal in the slice that the walls (or crates) hide from the camera gets a marker
    that says so, and so does one whose floor is half hidden (another read the gold corner
    in sight as a ramp's bright side); one in sight, through a gap in the wall or with no
    wall, gets none."""
    b = views.view_basis("stand")
    cam = views.Camera()

    def seen(room, camera=cam):
        return [(m.what, m.label, m.inside) for m in
                markers.find(room, room.start, room.start.player, b, camera, (1280, 720))]

    assert seen(_walled()) == [("goal", "hidden by a wall", True)]
    assert seen(_walled(())) == []
    # one block high: hidden from the camera's slant; from above, half its floor still is
    assert seen(_walled((1,))) == [("goal", "hidden by a wall", True)]
    # (its centre hidden, part of its floor, and so of its glow, in sight: said so; "hidden"
    # by a goal glowing in plain view, a blind player was lost)
    above = seen(_walled((1,)), views.Camera(pitch=1.5))
    assert [(what, words) for what, words, _ in above] == [("goal", "partly hidden by a wall")]
    assert seen(_walled((1,), gap=2)) == []  # the wall open in front of it
    stack = ((2, 1, 1, 0), (2, 1, 2, 0))
    assert seen(_walled((), stack)) == [("goal", "hidden by a crate", True)]
    # a crate in the slice behind the wall too (one under a crate, in a stack, is not)
    assert seen(_walled(crates=((1, 0, 1, 0),))) == [("goal", "hidden by a wall", True),
                                                      ("crate", "hidden by a wall", True)]
    above = seen(_walled((), stack), views.Camera(pitch=1.5))
    assert [(what, words) for what, words, _ in above] == [("goal", "hidden by a crate")]
    # mid-move (the pawn between cells) nothing in the slice is looked for
    room = _walled()
    moving = (2, 3.5, 1, 1)
    assert markers.find(room, room.start, moving, b, cam, (1280, 720)) == []


def test_a_hidden_goal_is_drawn_where_it_is(make_app):
    from anabasis.app.play.session import open_code
    from anabasis.formats import codes

    app = make_app(open_code(codes.encode(_walled(gap=4))))  # (the way round: at x 4)
    app.view_tips = 0
    settle(app)
    play = app.scene
    play.message_left = 0.0  # (no message of the moment over the room)
    app.tick(DT)
    (goal,) = markers.find(play.room, play.state, play.pose().player, play.sight.basis(),
                           play.sight.camera, app.overlay.size)
    assert goal.hidden == "wall"
    x, y = (int(c) for c in goal.at)
    near = {app.overlay.surface.get_at((x + dx, y + dy))[:3]
            for dx in range(-14, 15) for dy in range(-14, 15)}
    assert markers.GOAL_COLOUR in near  # its diamond, on its place (nothing moves it)


def _floored(goal, blocks=(), Z=5):
    """A 5 x 5 room of ``Z`` heights and 5 slices with a floor at z 0 in every slice, blocks
    at ``blocks`` too, the pawn at (2, 2, 1, 1) and the goal at ``goal``."""
    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import Room

    room = Room.empty((5, 5, Z, 5), (2, 2, 1, 1), goal)
    cells = bytearray(room.cells)
    for x in range(5):
        for y in range(5):
            for w in range(5):
                cells[room.index((x, y, 0, w))] = BLOCK
    for pos in blocks:
        cells[room.index(pos)] = BLOCK
    return replace(room, cells=bytes(cells))


def test_a_marker_has_its_cells_footprint_on_the_ground_under_it():
    """In the both-downs view a thing's height lifts it up the screen as depth does: a blind
    player read a goal two cells up as a row further on.  A marker has its cell's footprint
    framed on the ground under it in the slice (the top of the first block below), a dashed
    line down to it; none where its place is inside a block, or nothing is under it (a
    later player found a footprint drawn on a wall's face, and one past the room)."""
    from anabasis.engine.world import Room

    def floored(goal, pillar=None):
        column = [] if pillar is None else [(*pillar[:2], z, pillar[3]) for z in range(5)]
        return _floored(goal, column)

    room = floored((2, 4, 3, 4))  # the goal two up, 3 ana, 2 +y
    player = room.start.player
    for view in ("stand", "both"):
        b = views.view_basis(view)
        cam = views.Camera(yaw=0.0, pitch=0.6, distance=9.0)
        (goal,) = markers.find(room, room.start, player, b, cam, (1280, 720))
        assert len(goal.foot) == 4, view
        # the footprint is the top of the floor under the goal's place in the slice
        hidden = views.axis_of(b[:, 3])[0]
        floor = list(goal.cell)
        floor[hidden] = player[hidden]
        floor[2] = 0.5
        fx, fy, _ = markers.project(floor, player, b, cam, (1280, 720))
        cx = sum(x for x, _ in goal.foot) / 4
        cy = sum(y for _, y in goal.foot) / 4
        assert abs(cx - fx) < 4 and abs(cy - fy) < 4, view  # (perspective: not the mean)
        assert fy > goal.at[1] + 20, view  # three cells up: the footprint well below it
    # its place inside a block of the slice (a pillar there at the pawn's w): no footprint
    walled = floored((2, 4, 3, 4), pillar=(2, 4, 0, 1))
    stand = views.view_basis("stand")
    (goal,) = markers.find(walled, walled.start, player, stand, views.Camera(), (1280, 720))
    assert goal.foot == ()
    # nothing under it (no floor at all): none
    bare = Room.empty((5, 5, 5, 5), (2, 2, 1, 1), (2, 4, 3, 4))
    (goal,) = markers.find(bare, bare.start, player, stand, views.Camera(), (1280, 720))
    assert goal.foot == ()


def test_a_marker_high_in_another_slice_stands_on_a_pillar_of_what_holds_it_there():
    """2.1's goal, two up a slice kata over a pit of your slice, was drawn in the air with a
    dashed line down to its footprint, and a blind player read it as floating outside the
    room.  A marker drawn above its footprint has a faint pillar from the footprint up to its
    floor where blocks hold it in its own slice: as tall as they reach, none where nothing
    does."""
    stand = views.view_basis("stand")
    cam = views.Camera(yaw=0.0, pitch=0.6, distance=9.0)
    size = (1280, 720)

    def goal_of(blocks):
        room = _floored((2, 4, 3, 4), blocks)  # the goal at z 3, 3 ana, 2 +y
        (goal,) = markers.find(room, room.start, room.start.player, stand, cam, size)
        return room, goal

    def project(p):
        return markers.project(p, (2, 2, 1, 1), stand, cam, size)[:2]

    # held up by two blocks in its own slice, down to the floor: the pillar's foot is the
    # footprint, its top the goal's floor (z 2.5)
    room, goal = goal_of([(2, 4, 1, 4), (2, 4, 2, 4)])
    assert len(goal.post) == 8 and len(goal.foot) == 4
    assert set(goal.post[4:]) == set(goal.foot)
    top = np.mean(goal.post[:4], axis=0)
    assert np.allclose(top, project((2, 4, 2.5, 1)), atol=3)
    # one block only, over a gap down to the floor: the pillar is that block's, a cell tall
    _, short = goal_of([(2, 4, 2, 4)])
    assert len(short.post) == 8
    assert np.allclose(np.mean(short.post[4:], axis=0), project((2, 4, 1.5, 1)), atol=3)
    # nothing under it in its slice: a footprint, no pillar (it would not rest there)
    _, bare = goal_of([])
    assert bare.foot and bare.post == ()


def test_level_2_1s_goal_is_drawn_on_its_pillar_in_the_window(make_app):
    """In the window, 2.1's goal at the start: the goal's colour, faint, fills the pillar
    between its footprint and its floor, away from the line from the diamond down to the
    footprint, which was all there was before."""
    app = make_app(open_level(1, 2), size=(1280, 720))
    app.view_tips = 0
    app.progress.slice_map, app.progress.step_marks = "off", "held"
    play = app.scene
    play.reading.settings_changed()
    settle(app)
    play.message_left = 0.0
    for _ in range(2):
        app.tick(DT)
    (goal,) = _marks(app)
    assert goal.cell == (4, 2, 3, 1) and len(goal.foot) == 4  # two up, a slice kata
    project = markers.projecting(play.pose().player, play.sight.basis(), play.sight.camera,
                                 app.overlay.size)
    top = markers.floor_of((4, 2, 3, 2), play.sight.basis(), project)
    # the middle of each side of the pillar: the footprint's corner and the floor's over it
    sides = [((fx + tx) / 2, (fy + ty) / 2) for (fx, fy), (tx, ty)
             in zip(goal.foot, top, strict=True)]
    line = np.array(goal.at, float), np.mean(goal.foot, axis=0)

    def off_line(p):
        d = line[1] - line[0]
        q = np.array(p) - line[0]
        return abs(d[0] * q[1] - d[1] * q[0]) / np.linalg.norm(d)

    far = max(sides, key=off_line)
    assert off_line(far) > 30
    # a little in from that side, toward the pillar's middle
    mid = np.mean([*goal.foot, *top], axis=0)
    x, y = (int(v) for v in np.array(far) + 0.15 * (mid - np.array(far)))
    r, g, b, a = app.overlay.surface.get_at((x, y))
    assert a > 0 and r > b + 20 and g > b, (x, y, (r, g, b, a))  # the goal's gold, faint
    # and its top more tinted than that side, as a block's is lighter (one tone all over,
    # level 4's pillar read to a blind player as "a slanted gold six-sided plate", t288)
    middle = np.mean(top, axis=0)
    lids = [app.overlay.surface.get_at(tuple(int(v) for v in middle + 0.6 * (np.array(c) - middle)))
            for c in top]  # (toward its corners: the diamond and its words lie over its middle)
    lit = [c for c in lids if c[3] > a + 30 and c[0] > c[2] + 40]
    assert len(lit) >= 2, (lids, (r, g, b, a))


def test_a_thing_in_the_pawns_own_column_is_said_in_the_panel_not_drawn_by_the_pawn(make_app):
    """Four blind players read "crate ↓ 1 kata of you", drawn beside the pawn, as the next
    cell's.  A thing whose place on screen is the pawn's (a crate just kata of it) is said
    in the panel under your height, in its colour, with its shape; nothing of it is drawn in
    the room.  A crate a cell aside keeps its marker on its own place."""
    from anabasis.app.play.session import open_code
    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import Room
    from anabasis.formats import codes

    # a floor in each slice, and all of slice w 0 at z 1 solid: what holds w 1 from kata
    mine, aside = (2, 2, 1, 1), (3, 2, 1, 1)  # just kata of the pawn (2, 2, 1, 2); beside it
    drawn = {}
    for crates, said in (((mine, aside), True), ((aside,), False)):
        room = Room.empty((5, 5, 3, 3), (2, 2, 1, 2), (0, 0, 1, 2), crates=crates)
        cells = bytearray(room.cells)
        for x in range(5):
            for y in range(5):
                for z, w in ((0, 0), (0, 1), (0, 2), (1, 0)):
                    cells[room.index((x, y, z, w))] = BLOCK
        if not said:
            cells[room.index(mine)] = BLOCK  # (a block holds the pawn instead)
        app = make_app(open_code(codes.encode(replace(room, cells=bytes(cells)))),
                       size=(1280, 720))
        app.view_tips = 0
        app.progress.slice_map, app.progress.step_marks = "off", "held"
        play = app.scene
        play.reading.settings_changed()
        settle(app)
        play.message_left = 0.0
        app.tick(DT)
        app.tick(DT)
        assert play.sight.view == "stand"  # (w hidden: the crates a slice kata)
        ov = app.overlay
        marks = _marks(app)
        assert [m.yours for m in marks if m.what == "crate"] == ([True, False] if said
                                                                  else [False])
        assert markers.of_you(marks) == ([("crate", "crate \u2193 1 kata of you")] if said
                                         else [])
        W, H = ov.size
        panel = pygame.Rect(W - 260, 0, 260, 200)
        crate = [(x, y) for x in range(panel.left, panel.right)
                 for y in range(panel.top, panel.bottom)
                 if ov.surface.get_at((x, y))[:3] == markers.CRATE_COLOUR]
        assert bool(crate) == said  # the panel's line, only where there is one to say
        hud = pygame.surfarray.array3d(ov.surface).copy()
        hud[panel.left:, :panel.bottom] = 0
        drawn[said] = hud
    # in the room, the HUD is the same with the crate just kata of the pawn as without it:
    # nothing of it by the pawn (the crate a cell aside keeps its marker, in both)
    assert (drawn[True] != drawn[False]).any(axis=2).sum() == 0


def test_a_markers_footprint_behind_a_wall_says_so():
    """A blind player read a marker's framed footprint one row nearer the eye than it was:
    the floor it frames lay behind a block, and the frame over that block's top read as the
    block's.  Where something hides the footprint's floor from the eye, the marker's words
    say so (``behind a wall``); with it in sight, or the wall beside the line of sight, not."""
    def room_with(pillar=None):
        return _floored((2, 0, 3, 4), [pillar] if pillar else [])  # the goal 3 ana, far

    stand = views.view_basis("stand")
    cam = views.Camera(yaw=0.0, pitch=0.6, distance=9.0)  # the eye toward +y, above
    player = (2, 2, 1, 1)
    words = {}
    for name, pillar in (("open", None), ("in front", (2, 1, 1, 1)), ("beside", (3, 1, 1, 1))):
        room = room_with(pillar)
        (goal,) = markers.find(room, room.start, player, stand, cam, (1280, 720))
        assert len(goal.foot) == 4, name  # drawn in each case, where the floor is
        words[name] = markers.words_of([goal])
    # (nothing holds the goal in w: a pawn put there would slip kata out of the room)
    # (and it is at z 3: its height said, as the HUD's "goal z 3": drawn at its height, a
    # goal on a ledge read to blind players as a floor a row on)
    assert words["in front"] == ("goal \u2191 3 ana \u00b7 z 3 w 4 \u00b7 hidden by a wall"
                                 " \u00b7 you'd fall out"), words
    assert words["open"] == words["beside"] == ("goal \u2191 3 ana \u00b7 z 3 w 4"
                                                " \u00b7 you'd fall out"), words
    room = room_with()
    (goal,) = markers.find(room, room.start, (2, 2, 3, 1), stand, cam, (1280, 720))
    # at the pawn's own z too: said wherever w is hidden (said only at another height, a
    # crate's words with none read as a crate at another height than its neighbours')
    assert goal.height == 3 and " · z 3 w 4" in markers.words_of([goal])


def test_a_steps_cell_hidden_behind_crates_has_its_floor_outlined_over_them(make_app):
    """A blind player read a crate standing in front of a step's free cell as standing on
    it (the step's badge lay on the crate's top).  A step's cell that something hides from
    the eye has its floor drawn, dashed in the badge's colour, over what hides it, and its
    badge says what hides it; a step's cell in sight has neither."""
    from anabasis.app.play.session import open_code
    from anabasis.formats import codes

    stack = ((1, 5, 1, 0), (1, 5, 2, 0))  # two crates, just in front of the cell left of you
    app = make_app(open_code(codes.encode(_walled((), stack))), size=(1280, 720))
    app.view_tips = 0
    app.progress.step_marks = "on"
    play = app.scene
    play.reading.settings_changed()
    settle(app)
    old_pitch(app)  # (the scene the blind player met)
    play.message_left = 0.0
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    from anabasis.app.play import reading

    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    marks = [m for m in play.reading.badged(play.reading.step_marks(), b, cam.yaw)]
    floors = {m.cell: p.floor for m, p in zip(marks, placed, strict=True)}
    assert len(floors[(1, 4, 1, 1)]) == 4, floors  # behind the stack: outlined
    assert all(not f for cell, f in floors.items() if cell != (1, 4, 1, 1))
    # and its words say so (a blind player read a walk badge on a crate's top as "walk
    # onto the crate"); a badge in sight says nothing of the kind
    texts = {m.cell: p.text for m, p in zip(marks, placed, strict=True)}
    assert texts[(1, 4, 1, 1)].endswith("· hidden by the crate"), texts
    assert not any("hidden by" in t for cell, t in texts.items() if cell != (1, 4, 1, 1))
    # drawn: the badge's colour along the outline, outside the badge
    (rect, _, colour, *_), = [p for m, p in zip(marks, placed, strict=True)
                              if m.cell == (1, 4, 1, 1)]
    corners = floors[(1, 4, 1, 1)]
    surface = app.overlay.surface
    along = []
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        for k in range(1, 20):
            x, y = round(ax + (bx - ax) * k / 20), round(ay + (by - ay) * k / 20)
            if not rect.collidepoint(x, y):
                along.append(surface.get_at((x, y))[:3] == colour)
    assert sum(along) >= 8, sum(along)


def test_a_badge_whose_cells_floor_middle_is_hidden_says_what_hides_it(make_app):
    """2.8's start: a blind player read the walk badge on the crate in front of the cell
    left of the pawn as "walk onto the crate": most of that cell's floor, its middle too,
    lay behind the crate, yet a corner showed, and the badge said nothing.  A step's cell
    whose floor's middle is hidden has its floor dashed over what hides it, and says so
    where a crate does; one in plain sight has neither."""
    from anabasis.app.play import reading
    from anabasis.app.play.session import open_level

    app = make_app(open_level(8, chapter=2), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    # the camera the blind player had (a low room's opening pitch was 1.05 then; at the
    # steeper 1.25 of now the floor behind the wall is in sight)
    play.sight = replace(play.sight, camera=replace(play.sight.camera, pitch=1.05))
    settle(app)
    b, cam = play.sight.basis(), play.sight.camera
    assert play.game.state.player == (2, 0, 1, 2) and (1, 1, 1, 2) in play.game.state.crates
    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    marks = play.reading.badged(play.reading.step_marks(), b, cam.yaw)
    texts = {m.cell: p.text for m, p in zip(marks, placed, strict=True)}
    assert texts[(1, 0, 1, 2)].endswith("walk · hidden by the crate"), texts
    # behind the wall at (2, 2): its floor dashed over the wall, no words (they were on
    # nearly every badge of a big room, and read as noise)
    assert texts[(2, 1, 1, 2)] == "\u2022", texts  # (a plain walk past the tutorial: its dot)
    floors = {m.cell: p.floor for m, p in zip(marks, placed, strict=True)}
    assert len(floors[(2, 1, 1, 2)]) == 4 and len(floors[(1, 0, 1, 2)]) == 4
    assert not floors[(3, 0, 1, 2)]
    assert texts[(3, 0, 1, 2)] == "\u2022", texts  # in sight
    # a ramp's badge stands on the wall it takes you ana over: never "behind" (level 7's
    # start read "ramp ana · behind a wall")
    app.open(open_level(7))
    play = app.scene
    settle(app)
    b, cam = play.sight.basis(), play.sight.camera
    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    ramp = [p.text for m, p in zip(play.reading.badged(play.reading.step_marks(), b, cam.yaw),
                                 placed, strict=True) if m.kind == "ramp ana"]
    assert ramp and not any("hidden by" in t for t in ramp), ramp


@pytest.mark.parametrize("level, moves", [(3, "RR"), (3, "RRD"), (7, "")])
def test_a_ramps_badge_says_the_slice_it_takes_you_to(make_app, level, moves):
    """Its badge lies on the step's cell of your slice, mostly a wall: blind players read
    "ramp kata" on a wall of level 3 as the wall, and "ramp ana" on the wall under their ramp
    as that wall being a ramp.  The badge says where the ramp takes you: "ramp ana to w 2",
    the slice the engine's step ends in; where it lands in a wall of your slice (w hidden),
    "ana: you land here in w 2 · no wall there" (t271 read "ramp ana" there as the wall
    being a ramp)."""
    from anabasis.app.play import reading
    from anabasis.engine import rules

    app = make_app(open_level(level), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    play.play_moves(moves)
    settle(app)
    b, cam = play.sight.basis(), play.sight.camera
    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    marks = play.reading.badged(play.reading.step_marks(), b, cam.yaw)
    ramps = [(m, p.text) for m, p in zip(marks, placed, strict=True)
             if m.kind in ("ramp ana", "ramp kata")]
    assert ramps
    for m, text in ramps:
        end = rules.step(play.room, play.game.state, m.move).state.player
        said = (f"{m.kind.split()[1]}: you land here in w {end[3]}"
                if reading.in_a_block(play, m, b) else f"{m.kind} to w {end[3]}")
        assert said in text, (text, end)


def test_the_pawns_floor_is_dashed_where_something_in_front_hides_its_feet(make_app):
    """A blind player, the pawn behind a crate one row nearer the eye, read the pawn as
    standing on the crate.  Where a crate in front hides the pawn's feet, its floor is
    dashed in the pawn's colour over the crate; with nothing in front, none.  A block in
    front has the round window cut in it, which shows the feet: there the dashes lay over
    the wall's top too, and blind players of level 2 read the pawn as on or in the wall."""
    from anabasis.app.play import reading
    from anabasis.app.play.session import open_code
    from anabasis.formats import codes

    def drawn(crates):
        app = make_app(open_code(codes.encode(_walled((), crates))), size=(1280, 720))
        app.view_tips = 0
        play = app.scene
        settle(app)
        old_pitch(app)  # (the scene the blind player met)
        play.message_left = 0.0
        app.tick(DT)
        app.tick(DT)
        b, cam = play.sight.basis(), play.sight.camera
        corners = reading.pawn_floor(play, b, cam, app.overlay.size)
        surface = app.overlay.flat()
        pink = 0
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=False):
            for k in range(1, 30):
                x, y = round(ax + (bx - ax) * k / 30), round(ay + (by - ay) * k / 30)
                pink += tuple(surface.get_at((x, y)))[:3] == markers.PAWN_COLOUR
        return corners, pink

    corners, pink = drawn(((2, 5, 1, 0),))  # a crate one row nearer the eye
    assert len(corners) == 4 and pink >= 20, (corners, pink)
    assert drawn(())[0] == ()  # nothing in front
    assert drawn(((2, 3, 1, 0),))[0] == ()  # a crate behind the pawn hides nothing of it
    # level 2's start: the wall in front hides the feet, and the window shows them

    app = make_app(open_wall_before_pawn(), size=(1280, 720))  # (level 2 as it was)
    play = app.scene
    settle(app)
    b, cam = play.sight.basis(), play.sight.camera
    state = play.game.state
    assert markers.hidden_by(play.room, state, state.player, play.pose().player, b, cam,
                             "floor") == "wall"
    assert reading.pawn_floor(play, b, cam, app.overlay.size) == ()


def test_a_crate_beside_the_pawn_is_never_marked_behind_a_wall():
    """A blind player read "crate behind a wall" on a crate in plain view beside the pawn
    (chapter 2's level 4, walls round a recess; and one just under the pawn in 3.5).  A
    crate a face from the pawn is never marked hidden: its badges name it; one farther off
    behind the same wall still is."""
    from anabasis.engine.world import State
    from anabasis.formats import levels

    room = levels.load_from(2, 4)
    b = views.view_basis("stand")
    for pawn, crate in (((3, 2, 1, 1), (2, 2, 1, 1)), ((2, 2, 2, 1), (2, 2, 1, 1))):
        cam = old_room_camera(room.size, "stand", pawn, 16 / 9, room.wrap)
        state = State.of(pawn, [crate])
        assert markers.hidden_by(room, state, crate, pawn, b, cam, "crate") == "wall"
        assert [m for m in markers.find(room, state, pawn, b, cam, (1280, 720))
                if m.what == "crate"] == []
    room = _walled(crates=((1, 0, 1, 0),))
    seen = markers.find(room, room.start, room.start.player, b, views.Camera(), (1280, 720))
    assert ("crate", "hidden by a wall") in [(m.what, m.label) for m in seen]


def test_the_goal_beside_the_pawn_is_never_marked_behind_a_wall():
    """A blind player met "goal behind a wall" beside a "walk · goal" badge on the cell next
    to the pawn.  The goal a face from the pawn is not marked hidden; from across the room,
    behind the same wall, it is."""
    from anabasis.engine.world import State

    room = _walled()
    b, cam = views.view_basis("stand"), views.Camera()
    beside = (1, 0, 1, 1)  # behind the wall with the goal, next to it
    state = State.of(beside)
    assert markers.hidden_by(room, state, room.goal, beside, b, cam) == "wall"
    assert markers.find(room, state, beside, b, cam, (1280, 720)) == []
    assert [(m.what, m.label) for m in markers.find(room, room.start, room.start.player, b,
                                                    cam, (1280, 720))] == [
        ("goal", "hidden by a wall")]


def test_a_marker_across_z_says_the_axis_not_above_or_below():
    """In the w-up view the screen's up is w: a blind player read "↑ 2 above" (z hidden) as
    up the screen, and another "↑ 1 up in z" as a slice ana.  Across z a marker says "up in
    z" or "down in z", with no arrow.  Its words say where it is, as the HUD says the goal's,
    and that it is not at your z: "goal 1 up in z" beside "crate ↑ 1 ana" still read to
    blind players of three rounds as up the screen."""
    up = markers.Marker("goal", (0, 0, 3, 0), 2, 2, (0, 0), True)
    down = up._replace(offset=-1, cell=(0, 0, 0, 0))
    assert (up.label, down.label) == ("2 up in z", "1 down in z")
    assert markers.words_of([up]) == "goal z 3 w 0 · not at your z"
    assert markers.words_of([down]) == "goal z 0 w 0 · not at your z"
    two = markers.Marker("crate", (0, 0, 3, 1), 2, 2, (0, 0), True)
    assert markers.words_of([two, two._replace(cell=(0, 0, 2, 1), offset=1)]) \
        == "2 crates 1, 2 up in z · not at your z"
    assert markers.words_of([up._replace(axis=3)]) == "goal ↑ 2 ana"


def _in_polygon(point, polygon) -> bool:
    """Whether ``point`` lies inside convex ``polygon`` (its corners in order)."""
    signs = set()
    for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], *polygon[:1]], strict=True):
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        if cross:
            signs.add(cross > 0)
    return len(signs) == 1


def _pillar_room(goal, pillar_z, Z=5):
    """A 5 x 5 room of ``Z`` heights and 5 slices, a floor at z 0, the pawn at (2, 2, 1, 1),
    the goal at ``goal`` and a pillar at the goal's x, y in the pawn's slice, at ``pillar_z``."""
    return _floored(goal, [(goal[0], goal[1], z, 1) for z in pillar_z], Z)


def test_a_marker_whose_place_is_inside_a_block_is_put_on_that_cells_face_in_sight(make_app):
    """Two blind players read an off-slice marker whose place is inside a block as the next
    cell's: drawn at the cell's centre it lay on the block's face, on the line between two
    cells, and round the cell's whole cube it reached over the floor in front.  Such a
    marker is drawn on the one face of that cell that shows (its top where that shows, else
    the face the view looks at), framed dashed: its shape at that face's middle.  Where the
    place is open, none; where the block it is in is one the ceiling cuts away (not drawn),
    none either, and its footprint lies on the top of what is drawn under it."""
    stand = views.view_basis("stand")
    cam = views.Camera(yaw=0.4, pitch=0.6, distance=9.0)
    size = (1280, 720)
    start = (2.0, 2.0, 1.0, 1.0)

    def goal_of(room):
        (goal,) = markers.find(room, room.start, start, stand, cam, size)
        return goal

    def face_middles(cell):
        return [tuple(c + (0.5 * sign if i == k else 0) for i, c in enumerate(cell))
                for k in range(3) for sign in (1, -1)]

    # a pillar two high at the goal's place (2, 4) in your slice: its place (z 1) is the
    # pillar's top cell, and the top shows
    low = goal_of(_pillar_room((2, 4, 1, 4), (1,)))
    assert len(low.face) == 4 and _in_polygon(low.at, low.face)
    top = markers.project((2, 4, 1.5, 1), start, stand, cam, size)
    assert math.dist(top[:2], low.at) < 1
    # a pillar to the room's top: the top is covered, so the face toward the eye
    tall = goal_of(_pillar_room((2, 4, 1, 4), range(1, 5)))
    assert len(tall.face) == 4 and _in_polygon(tall.at, tall.face)
    seen = [m for m in face_middles((2, 4, 1, 1))
            if math.dist(markers.project(m, start, stand, cam, size)[:2], tall.at) < 1]
    assert seen and seen[0][2] == 1  # a side of the cell, not its top or floor
    assert goal_of(_pillar_room((2, 4, 1, 4), ())).face == ()  # open: none
    # its place above the ceiling's cut (z 4: the pawn's centre at z 1 + 2.5): not drawn,
    # so no face, and the footprint on the cut top of the pillar under it
    cut = goal_of(_pillar_room((2, 4, 4, 4), range(1, 6), Z=6))
    assert cut.face == () and len(cut.foot) == 4
    under = markers.project((2, 4, 3.5, 1), start, stand, cam, size)
    cx = sum(x for x, _ in cut.foot) / 4
    cy = sum(y for _, y in cut.foot) / 4
    assert abs(cx - under[0]) < 6 and abs(cy - under[1]) < 6

    # in the window: 2.7's first view, the goal a slice kata inside the wall, seen in a
    # round window cut in that face: rimmed in the goal's colour, dark inside (drawn as the
    # face dashed and faintly filled, it read to blind players of every round as a tile on
    # the wall's top, the goal standing there within reach)
    app = make_app(open_level(7, chapter=2))
    app.view_tips = 0
    app.progress.slice_map, app.progress.step_marks = "off", "held"
    app.scene.reading.settings_changed()
    for _ in range(3):
        app.tick(DT)
    (goal,) = [m for m in _marks(app) if m.what == "goal"]
    assert goal.label == "1 kata" and len(goal.face) == 4
    surface = app.overlay.flat()
    rim = markers.window_in(goal.face, 0.82, 60)
    on_rim = sum(markers.GOAL_COLOUR in [surface.get_at((round(x) + dx, round(y) + dy))[:3]
                                         for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
                 for x, y in rim)
    assert on_rim > 50  # the rim whole
    corners = sum(markers.GOAL_COLOUR in [surface.get_at((round(x) + dx, round(y) + dy))[:3]
                                          for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
                  for x, y in goal.face)
    assert corners == 0  # the face's own edges not drawn: no tile
    inner = markers.window_in(goal.face, 0.55, 24)  # inside the rim, off the diamond
    dark = [sum(surface.get_at((round(x), round(y)))[:3]) < 150 for x, y in inner]
    assert sum(dark) > 18, sum(dark)


def test_a_marker_buried_in_a_wall_is_in_a_window_on_its_top_not_a_pillar(make_app):
    """Where none of the cell's faces shows, deep in hard.serow2's walls (under the wall's
    top, behind the next block), a crate of another slice was drawn as a pillar on the
    wall's top, which read to blind players as a stain on the wall or a crate standing on
    it (t263, t264).  It is drawn as any marker inside a block is: in a round window, in
    the top of the column over its place that shows."""
    app, _ = made_in_stand(make_app, "hard.serow2")
    play = app.scene
    buried = [m for m in _marks(app) if m.what == "crate" and m.inside_of]
    assert buried and all(m.face and not m.post for m in buried)
    w = play.game.state.player[3]
    # (one whose own cell's top is covered: the window is on a top higher up)
    assert any(play.room.cell((m.cell[0], m.cell[1], m.cell[2] + 1, w)) != 0 for m in buried)


def test_no_goal_behind_a_wall_marker_beside_a_badge_that_says_goal(make_app):
    """A blind player, one climb from hard.otter's goal, saw "↑ climb · goal" on the next
    cell and, beside it, "goal behind a wall" (a wall hides part of the goal's floor): it read
    as a second goal, somewhere out of sight.  Where a step's badge says the step wins, the
    goal's hidden-from-the-eye marker is not drawn; one step earlier, it is."""
    from anabasis.app.play import hud
    from anabasis.engine import rules

    app, made = made_in_stand(make_app, "hard.otter")
    play = app.scene
    old_pitch(app)  # (the scene the blind player met: at 1.15 a wall hides less of the goal)
    # the last moves of the shortest solution, with the goal hidden from the eye in the slice
    # (a wall in front of part of its floor) at the start of each
    ends = []
    for k in range(len(made.moves) - 4, len(made.moves)):
        play.game.state = rules.replay(made.room, made.moves[:k]).state
        settle(app)
        b, cam = play.sight.basis(), play.sight.camera
        found = markers.find(play.room, play.state, play.pose().player, b, cam,
                             app.overlay.size)
        hidden = any(m.what == "goal" and m.hidden for m in found)
        wins = any(m.won for m in play.reading.badged(play.reading.step_marks(), b, cam.yaw))
        shown = hud.Shown.of(play, app.overlay.size)
        drawn = any(m.what == "goal" and m.hidden for m in shown.marks)
        ends.append((hidden, wins, drawn))
    assert (True, True, False) in ends, ends  # hidden, a badge says "goal": not drawn
    assert all(drawn == (hidden and not wins) for hidden, wins, drawn in ends), ends


def test_a_label_moved_clear_of_others_keeps_a_gap_from_them():
    """Blind players found badges and markers "touching" where they stacked round the pawn
    (two pixels apart, they read as one block of words).  A label moved clear of others
    keeps :data:`markers.SPACE` pixels from each, in a stack of three too."""
    taken = [pygame.Rect(100, 100, 80, 20)]
    for _ in range(3):
        rect = markers.clear_of(pygame.Rect(110, 104, 80, 20), taken, 0, 720, 1280)
        assert rect.collidelist(taken) < 0
        gaps = [max(o.left - rect.right, rect.left - o.right, o.top - rect.bottom,
                    rect.top - o.bottom) for o in taken]
        assert min(gaps) >= markers.SPACE, gaps
        taken.append(rect)
    # a place already clear of everything, by the gap, stays where it is
    far = pygame.Rect(400, 400, 80, 20)
    assert markers.clear_of(far, taken, 0, 720, 1280) == far


def test_a_tall_rooms_camera_sees_the_crate_the_front_walls_hid():
    """A blind player in medium.tapir saw a crate's top peek over the front row of walls and
    took it for one in the pawn's row; dragging the camera steeper showed it plainly.  A
    tall room opens in a steeper camera (1.15, not 0.95): there the crate at (4, 8) is in
    sight; at the old pitch the walls hid it."""
    from anabasis import gen

    room = gen.build(*gen.parse_spec("medium.tapir")).room
    state = room.start
    player = tuple(float(c) for c in state.player)
    b = views.view_basis("stand")
    crate = (4, 8, 1, 3)
    assert crate in state.crates and state.player[3] == 3  # in the pawn's slice
    now = views.room_camera(room.size, "stand", player, 16 / 9, room.wrap)
    then = old_room_camera(room.size, "stand", player, 16 / 9, room.wrap)
    assert markers.hidden_by(room, state, crate, player, b, then, "crate") == "wall"
    assert markers.hidden_by(room, state, crate, player, b, now, "crate") == ""


def test_the_goals_words_say_a_pawn_would_not_rest_in_it_as_the_engine_settles_it(make_app):
    """3.7's goal lies over a pit in w: a blind player read its framed floor as one to walk
    onto, stepped in and slipped round.  The goal's marker says what a pawn put in it now
    would do, as the engine settles it (``you'd slip kata``); once a crate fallen round holds
    it, nothing; and a goal that holds (level 2's) says nothing of it."""
    from anabasis.engine import rules, solver
    from anabasis.engine.world import State

    app = make_app(open_level(7, chapter=3), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    b, cam = play.sight.basis(), play.sight.camera
    (goal,) = [m for m in markers.find(play.room, play.state, play.pose().player, b, cam,
                                       app.overlay.size) if m.what == "goal"]
    assert goal.slips == "slip kata"
    assert markers.words_of([goal]).endswith(" \u00b7 you'd slip kata"), markers.words_of([goal])
    # the words follow the engine at every position of a shortest way: held or not
    room = play.room
    said = set()
    moves = solver.solve(room).moves
    for k in range(len(moves)):
        state = rules.replay(room, moves[:k]).state
        put = rules.settle(room, State.of(room.goal, state.crates))
        rests = put.state.player == room.goal and put.status != "lost"
        said.add((rests, markers.goal_holds(room, state.crates)))
    assert said >= {(False, "slip kata"), (True, "")}, said
    assert all((word == "") == rests for rests, word in said), said
    held = open_level(2).room
    assert markers.goal_holds(held, held.start.crates) == ""


def test_a_plain_walks_badge_is_its_dot_alone_past_the_tutorial(make_app):
    """Four badges round the pawn, two or three of them "walk", stacked onto each other and
    onto the markers there; blind players read a crate's words on the wrong cell.  In the
    tutorial a plain walk's badge says "walk" (the marks are learnt there); past it, its dot
    alone, while every other badge (and a walk that says more) keeps its words."""
    from anabasis.app.play import reading, stepmarks

    def badges(opened):
        app.open(opened)
        app.view_tips = 0
        play = app.scene
        settle(app)
        b, cam = play.sight.basis(), play.sight.camera
        placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
        marks = play.reading.badged(play.reading.step_marks(), b, cam.yaw)
        return [(m, p.text) for m, p in zip(marks, placed, strict=True)]

    app = make_app(open_level(1), size=(1280, 720))
    shown = badges(open_level(1))
    assert any(m.label == "walk" for m, _ in shown), shown
    assert all(text == f"{stepmarks.GLYPH[m.kind]} {m.label}" for m, text in shown), shown
    seen = set()
    for n in range(1, 9):
        for m, text in badges(open_level(n, chapter=2)):
            plain = m.label == "walk" and not m.won and "hidden by" not in text
            assert (text == "\u2022") == plain, (n, m, text)
            if not plain:
                assert text.startswith(f"{stepmarks.GLYPH[m.kind]} {m.label}"), (n, m, text)
            seen.add(plain)
    assert seen == {True, False}


def _placed_by_the_hud(app, play) -> list:
    """The markers as the HUD places them for ``play`` now (``markers.place``'s answer), the
    HUD drawn once to see it."""
    from anabasis.app.play import hud

    seen = {}
    place = markers.place

    def spy(*args, **kw):
        seen["placed"] = place(*args, **kw)
        return seen["placed"]

    markers.place = spy
    try:
        hud.draw_shown(app.overlay, hud.Shown.of(play, app.overlay.size))
    finally:
        markers.place = place
    return seen["placed"]


def test_level_6s_slip_badge_and_the_crates_words_on_one_cell_are_two_labels(make_app):
    """Three rounds of blind players found level 6's "↓ slip kata 1" badge and the
    "crate ↓ 2 kata" words under it, both on the cell right of the ramp's top, "touching":
    four pixels apart they read as two labels run together.  Joined as one label of two
    lines, they read as one sentence, and four blind players of five put a crate in the
    badge's cell.  Stacked on the one cell, the two hid it and the crate's square (t342): the
    badge keeps off the square, the crate's words lie under it, and every pair of labels
    keeps seven pixels apart."""
    from window import arrow_for

    app = make_app(open_level(6), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    for move in "LLUURR":
        press(app, arrow_for(play, move))
        settle(app)
    placed = _placed_by_the_hud(app, play)
    (crate,) = [p for p in placed if p.marker.what == "crate"]
    badges, words = play.reading.badge_rects, [p.words for p in placed]
    # the badge keeps off the crate's square (laid over it, it hid the square: t342), and
    # the crate's words lie under their square, their own label
    shape = markers.shape_box(crate.at, int(11 * app.overlay.scale))
    assert shape.collidelist(badges) < 0, (shape, badges)
    assert crate.words.left <= crate.at[0] <= crate.words.right and crate.words.top > shape.bottom
    gaps = [max(w.left - b.right, b.left - w.right, w.top - b.bottom, b.top - w.bottom)
            for w in words for b in badges if w is not crate.words]
    assert not gaps or min(gaps) >= 7, gaps


def test_level_7s_goal_words_lie_by_the_stays_badge_they_would_land_on(make_app):
    """At level 7's start the goal's diamond lies under the pawn (cut away there) and its
    words, moved clear of the "stays · a wall to the top" badge just under it, sat beside
    the badge over the next wall: a blind player read the goal as that cell.  Joined to the
    badge, one label, "stays · a wall to the top" over "goal ↓ 1 kata" read as "the goal is
    a wall" to two more.  Laid over the goal's diamond, the badge hid the goal's ring
    (t340 to t342).  The badge keeps off the diamond and the line under it; the goal's
    words lie near the diamond (a line back where they moved), clear of the end of the
    badge's own line, seven pixels or more from the badge, a label of its own."""
    app = make_app(open_level(7), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    placed = _placed_by_the_hud(app, play)
    (goal,) = [p for p in placed if p.marker.what == "goal"]
    r = int(11 * app.overlay.scale)
    shape = markers.shape_box(goal.at, r)
    small = int(17 * app.overlay.scale)
    gap = max(goal.words.left - shape.right, shape.left - goal.words.right,
              goal.words.top - shape.bottom, shape.top - goal.words.bottom)
    assert 0 <= gap <= 4 * small, goal  # (a few text heights off at most)
    assert goal.moved or goal.words.left <= goal.at[0] <= goal.words.right, goal
    # (the stays badge is moved off its cell there: its line's end is checked, not none)
    assert play.reading.badge_ends
    assert not any(goal.words.collidepoint(end) for end in play.reading.badge_ends)
    # and that end lies out of the goal's round window (ended in it, the badge read as the
    # goal's words, t349)
    assert goal.marker.face and not any(markers.in_window(goal.marker.face, end)
                                        for end in play.reading.badge_ends)
    badges = play.reading.badge_rects
    assert shape.collidelist(badges) < 0, (goal, badges)
    for b in badges:
        assert max(b.left - goal.words.right, goal.words.left - b.right,
                   b.top - goal.words.bottom, goal.words.top - b.bottom) >= markers.SPACE


def test_a_badge_moved_off_its_cell_has_a_line_back_to_it(make_app):
    """Two "walk · onto a ramp" badges moved off their cells beside the pawn (hard.ibis,
    29 moves in): a blind player could not tell which was which.  A badge that no longer
    covers its cell's point on screen has a line back to it, ending in a dot there, in its
    colour; a badge over its point has none."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made

    made = gen.build_spec("hard.ibis")
    app = make_app(opened_made(made), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    moves = solver.solve(play.room).moves
    for move in moves[:29]:
        press(app, arrow_for(play, move))
        settle(app)
    seen_moved = seen_kept = 0
    for move in moves[29:36]:  # (from 29 moves in, some positions on: both kinds met)
        seen = _badges_lined_back(app, play)
        seen_moved, seen_kept = seen_moved + seen[0], seen_kept + seen[1]
        press(app, arrow_for(play, move))
        settle(app)
    assert seen_moved and seen_kept, (seen_moved, seen_kept)


def _badges_lined_back(app, play) -> tuple[int, int]:
    """Check each step badge of the position on screen: over its cell's point, or moved and
    lined back to it in its colour.  How many were moved, and how many kept."""
    from anabasis.app.play import reading

    play.message_left = 0.0
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    moved = [p for p in placed if p.at is not None]
    kept = [p for p in placed if p.at is None]
    # each badge's cell's point on screen: a badge kept over it, or moved and lined to it
    project = markers.projecting(play.pose().player, b, cam, app.overlay.size)
    marks = play.reading.badged(play.reading.step_marks(), b, cam.yaw)
    for mark, p in zip(marks, placed, strict=True):
        x, y, _ = project(mark.cell)
        point = (round(x), round(y))
        if p.at is None:
            assert p.rect.collidepoint(point), (mark, p)
        else:
            assert p.at == point and not p.rect.collidepoint(p.at), (mark, p)
    surface = app.overlay.surface
    surface.fill((0, 0, 0, 0))
    reading.paint_marks(app.overlay, placed)
    for p in moved:
        assert tuple(surface.get_at(p.at))[:3] == p.colour, p
        # and along the line, halfway from the badge's edge to the dot
        edge = (min(max(p.at[0], p.rect.left), p.rect.right - 1),
                min(max(p.at[1], p.rect.top), p.rect.bottom - 1))
        mid = ((edge[0] + p.at[0]) // 2, (edge[1] + p.at[1]) // 2)
        covered = any(q.rect.collidepoint(mid) for q in placed)
        assert covered or tuple(surface.get_at(mid))[:3] == p.colour, (p, mid)
    return len(moved), len(kept)


@pytest.mark.parametrize("spec, moves", [("hard.gemsbok", ""), ("medium.topi", ""),
                                         ("hard.binturong", ""), ("hard.sifaka", ""),
                                         ("hard.wisent", "DLDDDRRRUU")])
def test_things_said_alike_side_by_side_are_one_label_with_a_line_to_each(make_app, spec,
                                                                          moves):
    """hard.gemsbok opens with two crates three slices ana, both at z 3 in w 6, their squares
    a cell apart.  Said as two labels, "crate ↑ 3 ana · z 3 w 6" twice, one moved under the
    other, a blind player could not tell which square was whose; hard.wisent's two crates
    four slices ana, ten moves in, two rows apart, read to another as one crate's words said
    twice.  Labels of one kind of thing that say the same but for how many, within a few
    rows of each other, are one label ("2 crates ↑ 3 ana · z 3 w 6"), a line in the
    thing's colour from it to each shape."""
    app, _ = made_in_stand(make_app, spec)
    settle(app)
    play = app.scene
    for move in moves:
        press(app, arrow_for(play, move))
        settle(app)
    app.tick(DT)
    placed = play.reading.placed
    assert placed
    alone = [p for p in placed if not p.shared and p.marker.inside and not p.marker.hidden]
    near = 2 * (markers.SPACE + markers.ALIKE_ROWS * int(17 * app.overlay.scale))
    for i, a in enumerate(alone):
        for b in alone[i + 1:]:
            if a.marker.what == b.marker.what:
                same = (markers.tail_of(a.text, a.marker.what)
                        == markers.tail_of(b.text, b.marker.what))
                assert not (same and a.words.inflate(near, near).colliderect(b.words)), (a, b)
    r = int(11 * app.overlay.scale)
    surface = app.overlay.surface
    for p in placed:
        owner = next(q for q in placed if not q.shared and q.words == p.words)
        count = sum(1 for q in placed if q.words == p.words)
        total = sum(q.count for q in placed if q.words == p.words)
        if count > 1:  # one label for them: the count said, a line to each shape
            assert owner.text.startswith(f"{total} {owner.marker.what}s "), owner.text
            start, end = markers.leader(p.words, markers.shape_box(p.at, r))
            near = set()  # (along the line: a badge it passes under may hide its middle)
            for k in (0.2, 0.35, 0.5, 0.65, 0.8):
                at = (round(start[0] + k * (end[0] - start[0])),
                      round(start[1] + k * (end[1] - start[1])))
                near |= {tuple(surface.get_at((at[0] + dx, at[1] + dy)))[:3]
                         for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            assert markers.colour_of(p.marker.what) in near, (p, near)
    if spec == "hard.gemsbok":
        texts = [p.text for p in placed]
        assert any(t.startswith("2 crates ↑ 3 ana · z 3 w 6") for t in texts), texts
        assert not any(t.startswith("crate ↑ 3 ana · z 3 w 6") for t in texts), texts


def test_a_marker_drawn_on_a_block_of_your_slice_says_it_is_inside_it(make_app):
    """Level 6 opens with its crate one slice ana, where the pawn's slice has a wall: the
    marker is drawn on that wall's top, and blind players in every round read the crate as
    standing on the wall.  Its words say where it is: inside the block you see."""
    app = make_app(open_level(6), size=(1280, 720))
    app.view_tips = 0
    settle(app)
    (crate,) = [m for m in _marks(app) if m.what == "crate"]
    assert crate.face and crate.inside_of == "block"
    assert markers.words_of([crate]).endswith(" · inside the block you see")


def test_level_7s_goal_in_the_w_up_view_is_marked_where_its_glow_is(make_app):
    """Level 7 wraps in w.  In the w-up view, at w 2, the goal (w 3) glows one slice ana
    of the pawn, the copy nearest it, as the picture draws it (``pose.goal_copy``); its
    marker lay three slices kata, in the band the picture draws cells in, "goal hidden by a
    wall", and a blind player read it as a second goal.  Nothing there hides it: its only
    marker says it is over the ceiling's cut, one slice ana (as level 4's goal's does, which
    blind players read as floating out of reach), and wherever the goal's marker is, it is
    at the drawn copy."""
    from anabasis.picture import pose

    app = make_app(open_level(7), size=(1280, 720))
    play = app.scene
    settle(app)
    room = play.room
    for move in solver.solve(room).moves:
        if play.state.player[3] == 2:
            break
        press(app, arrow_for(play, move))
        settle(app)
    assert play.state.player[3] == 2
    while play.sight.view != "w-up":
        press(app, pygame.K_v)
        settle(app)
    goal = [m for m in _marks(app) if m.what == "goal"]
    assert [(m.hidden, m.above) for m in goal] == [("above", 1)], goal
    copy = pose.goal_copy(room, play.state.player[3])
    assert copy[3] == 3
    for step in (2, 3):  # the copy nearest: half a turn away, the one kata (in the band)
        assert pose.goal_copy(room, float(step))[3] == 3
    assert pose.goal_copy(room, 1.0)[3] == pose.goal_copy(room, 0.0)[3] == -1


def test_a_goal_out_along_y_in_the_both_view_is_not_framed_as_the_cell_beside_you(make_app):
    """Level 3 in the both view (y hidden): the goal is two rows +y, at the pawn's height,
    so its marker lies on the cell beside the pawn.  Framed there (its footprint), two blind
    players of a round read it as the goal one step away, and stepped there.  It has no
    frame, and its words say it is not here, and why."""
    app = make_app(open_level(3))
    app.view_tips = 0
    play = app.scene
    for _ in range(2):
        press(app, pygame.K_v)
        settle(app)
    assert play.sight.view == "both"
    app.tick(DT)
    goal = next(m for m in _marks(app) if m.what == "goal")
    assert (goal.axis, goal.offset, goal.foot) == (1, 2, ())
    assert markers.words_of([goal]) == "goal 2 rows +y · not here: y hidden"
    assert any("not here: y hidden" in line for line in app.overlay.written)


def test_a_marker_over_nothing_of_yours_stands_on_its_own_slices_post(make_app):
    """Level 4 in the stand view: the goal, three slices ana, is drawn at its place in your
    slice, over a fall-out cross (nothing under it there), and blind players read it as
    floating over nothing, out of reach.  In its own slice a block holds it up: drawn as a
    pillar under it, down to that block's floor, hiding the cross behind it."""
    app = make_app(open_level(4))
    app.view_tips = 0
    play = app.scene
    while play.sight.view != "stand":
        press(app, pygame.K_v)
        settle(app)
    app.tick(DT)
    (goal,) = [m for m in _marks(app) if m.what == "goal"]
    assert goal.offset == 3 and not goal.foot and not goal.hidden
    assert len(goal.post) == 8  # its floor's four corners, then its block's floor's
    top_y = sum(y for _, y in goal.post[:4]) / 4
    bottom_y = sum(y for _, y in goal.post[4:]) / 4
    assert bottom_y > top_y + 10  # down the screen: a cell lower
    # drawn: the goal's colour along the pillar, below the diamond
    x = round(sum(x for x, _ in goal.post[4:]) / 4)
    colours = {app.overlay.surface.get_at((x + dx, round(bottom_y) + dy))[:3]
               for dx in range(-30, 31) for dy in range(-12, 13)}
    assert markers.GOAL_COLOUR in colours
    # a ghost: its faces faintly tinted, what is behind it (your slice's fall-out cross)
    # showing through.  Opaque, filled in gold, then dark and lined in gold, eleven blind
    # players of six rounds read it as a solid block in the way, or a crate (t301 to t318)
    hull = markers.convex_hull(goal.post)
    play.message_left = 0.0  # (the view's tip, over it in this small window)
    for _ in range(2):
        app.tick(DT)
    words = [p.words for p in app.scene.reading.placed]
    inside = [(x, y) for x in range(min(x for x, _ in hull), max(x for x, _ in hull), 3)
              for y in range(min(y for _, y in hull), max(y for _, y in hull), 3)
              if markers.inside_convex((x, y), hull)
              and not any(w.inflate(8, 8).collidepoint(x, y) for w in words)]
    alphas = [app.overlay.surface.get_at(p)[3] for p in inside]
    faint = [a for a in alphas if 20 <= a <= 120]
    assert len(alphas) > 20 and len(faint) > 0.8 * len(alphas), sorted(alphas)
    # its top more tinted than its sides, as a block's top is lighter
    lid = markers.convex_hull(goal.post[:4])
    top = [p for p in inside if markers.inside_convex(p, lid)]
    side = [p for p in inside if p not in top]
    assert top and side

    def median(points):  # (past its dashed edges)
        return float(np.median([app.overlay.surface.get_at(p)[3] for p in points]))

    assert median(top) > median(side) + 20, (median(top), median(side))


def test_the_goals_words_lie_beside_it_where_its_top_is_crowded(make_app):
    """hard.impala9, 48 moves in: the goal stands two up on a wall just by a crate and the
    pawn, and its words ("goal · z 3 · 2 up") found no room on its top, where the crate
    and the pawn are drawn, and were left out.  A blind player saw a pale glow by the crate,
    saw neither that it was the goal nor that it was a climb, and took three hints there
    (t331).  Crowded on its top, the goal's words lie beside it, level with it."""
    from anabasis.app.play import reading

    app, made = made_in_stand(make_app, "hard.impala9")
    play = app.scene
    walk(app, made.moves[:48])
    play.message, play.message_left = "", 0.0
    app.tick(DT)
    goal = reading.goal_top(play, play.sight.basis(), play.sight.camera, app.overlay.size)
    assert goal is not None and goal.goal == 2, goal
    level = [r for r in play.reading.height_rects
             if r.centery == goal.at[1] and not r.collidepoint(goal.at)]
    assert len(level) == 1, (goal, play.reading.height_rects)


@pytest.mark.parametrize("level", range(1, 8))
def test_no_label_covers_another_or_a_markers_shape_along_a_levels_solution(make_app, level):
    """Along each level's shortest solution, in each view, at rest: the step badges, the
    markers' words, the tops' height tags and the markers' shapes (the goal's diamond, a
    crate's square) never cover one another, and two labels on one line keep
    ``markers.SIDE_SPACE`` apart (seven pixels apart, they read as one sentence).  A badge
    laid over the goal's diamond hid it (level 3's landing words, level 7's "stays · a
    wall", blind players of a round, t340 to t342)."""
    from anabasis.engine import rules

    app = make_app(open_level(level), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    moves = solver.solve(play.room).moves
    r = int(11 * app.overlay.scale)
    for _ in range(3):
        for k in range(len(moves) + 1):
            play.game.state = rules.replay(play.room, moves[:k]).state
            play.draw.upload(play.game.state)
            play.rest_w = play.game.state.player[3]
            play.message_left = 0.0
            app.tick(DT)
            app.tick(DT)
            got = play.reading
            labels = [*got.badge_rects, *(p.words for p in got.placed if not p.shared),
                      *got.height_rects]
            shapes = [markers.shape_box(p.at, r) for p in got.placed]
            where = (play.sight.view, moves[:k])
            for end in got.badge_ends:  # (a moved badge's line ends on its cell, in sight)
                assert not any(p.words.collidepoint(end) for p in got.placed), (where, end)
                # off the markers' shapes and out of their round windows: ending in the
                # goal's, level 7's "stays · a wall" read as the goal's words (t349)
                assert not any(box.collidepoint(end) for box in shapes), (where, end)
                assert not any(markers.in_window(p.marker.face, end) for p in got.placed
                               if p.marker.face), (where, end)
            for i, a in enumerate(labels):
                assert a.collidelist(shapes) < 0, where
                assert a.collidelist(labels[i + 1:]) < 0, where
                for b in labels[i + 1:]:  # (on one line: far enough apart not to read as
                    # one sentence, t342, t345)
                    # (a plain walk's dot, a glyph alone, may have words by it)
                    dot = min(a.width, b.width) < 2 * max(a.height, b.height)
                    if a.top < b.bottom and b.top < a.bottom and not dot:
                        assert max(b.left - a.right, a.left - b.right) >= markers.SIDE_SPACE, \
                            (where, a, b)
        press(app, pygame.K_v)
        settle(app)


def test_a_marker_reached_round_the_wrap_says_so(make_app):
    """At level 7's start, in w 0, the goal is in w 3: one slice kata, round the wrapped
    w's ends.  "goal ↓ 1 kata · z 1 w 3" read to two blind players as the wrong way to go
    (t343, t345).  Its words say "round the wrap"; in w 2, its slice reached without the
    wrap, they do not; nor in a room that does not wrap (level 6)."""
    from anabasis.engine import rules

    app = make_app(open_level(7), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    W = play.room.size[3]
    assert play.room.wrap and play.game.state.player[3] == 0 and play.room.goal[3] == W - 1
    (goal,) = [p for p in _placed_by_the_hud(app, play) if p.marker.what == "goal"]
    assert "\u2193 1 kata round the wrap" in goal.text, goal.text
    # one slice kata of the goal's, along the shortest solution: no wrap between
    from anabasis.engine import solver

    moves = solver.solve(play.room).moves
    there = next(s for s in (rules.replay(play.room, moves[:k]).state
                             for k in range(len(moves))) if s.player[3] == W - 2)
    play.game.state = there
    play.draw.upload(there)
    play.rest_w = there.player[3]
    app.tick(DT)
    app.tick(DT)
    goals = [p for p in _placed_by_the_hud(app, play) if p.marker.what == "goal"]
    assert goals and all("wrap" not in p.text for p in goals), [p.text for p in goals]
    app2 = make_app(open_level(6), size=(1280, 720))
    settle(app2)
    texts = [p.text for p in _placed_by_the_hud(app2, app2.scene)]
    assert texts and not any("wrap" in t for t in texts), texts


def test_a_markers_words_along_x_or_y_say_rows_or_columns():
    """In a hard room's both view (y hidden), "crate 6 +y" and "crate 7 +y" read to a blind
    player as crate number 6 and 7, in a room of three crates (t364).  Along y the words
    say rows, along x columns; along z and w, as before."""
    crate = markers.Marker("crate", (1, 8, 1, 1), 1, 6, (0, 0), True)
    assert markers.words_of([crate]) == "crate 6 rows +y · not here: y hidden"
    one = crate._replace(axis=0, offset=-1)
    assert markers.words_of([one]) == "crate 1 column -x · not here: x hidden"
    assert one.label == "1 column -x"
    kata = crate._replace(axis=3, offset=-2)
    assert markers.words_of([kata]) == "crate ↓ 2 kata"
