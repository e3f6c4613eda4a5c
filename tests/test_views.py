"""The views: bases, turns, the orbit camera, what the arrows mean, the HUD's axis labels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from anabasis.picture import views
from anabasis.picture.views import (
    VIEWS,
    Camera,
    arrow_to_move,
    axis_labels,
    basis,
    turn,
    view_basis,
)

# DESIGN.md's table: depth, up, hidden of each view.
TABLE = {
    "stand": ("+y", "+z", "+w"),
    "w-up": ("+y", "+w", "-z"),
    "both": ("+w", "+z", "-y"),
}


@pytest.mark.parametrize("name", VIEWS)
def test_views_match_the_design_table(name):
    labels = axis_labels(view_basis(name))
    assert labels["across"] == "+x"
    assert (labels["depth"], labels["up"], labels["hidden"]) == TABLE[name]


@pytest.mark.parametrize("name", VIEWS)
def test_view_quaternion_is_a_unit_rotation_giving_the_view(name):
    q = views.view_quaternion(name)
    assert abs(np.linalg.norm(q) - 1.0) < 1e-12
    assert np.allclose(basis(q), view_basis(name), atol=1e-12)


@pytest.mark.parametrize("start", VIEWS)
@pytest.mark.parametrize("t", [0.0, 0.13, 0.5, 0.87, 1.0])
def test_every_frame_of_a_turn_is_a_rotation_keeping_x_across(start, t):
    end = views.next_view(start)
    b = turn(start, end, t)
    assert np.allclose(b.T @ b, np.eye(4), atol=1e-12)
    assert abs(np.linalg.det(b) - 1.0) < 1e-12
    assert np.array_equal(b[:, 0], [1, 0, 0, 0]) and np.allclose(b[0, 1:], 0)


def test_turn_ends_are_exact_and_the_middle_is_oblique():
    assert np.array_equal(turn("stand", "w-up", 0.0), view_basis("stand"))
    assert np.array_equal(turn("stand", "w-up", 1.0), view_basis("w-up"))
    mid = turn("stand", "w-up", 0.5)
    # Half way from stand to w-up, up is half z and half w.
    assert np.allclose(mid[:, 2], [0, 0, math.sqrt(0.5), math.sqrt(0.5)])


def test_turns_are_continuous():
    for start in VIEWS:
        end = views.next_view(start)
        frames = [turn(start, end, t) for t in np.linspace(0, 1, 41)]
        steps = [np.abs(a - b).max() for a, b in zip(frames[:-1], frames[1:], strict=True)]
        assert max(steps) < 0.1


def test_next_view_cycles_through_all_three():
    seen = ["stand"]
    for _ in range(3):
        seen.append(views.next_view(seen[-1]))
    assert seen == ["stand", "w-up", "both", "stand"]


def test_unknown_view_is_refused():
    with pytest.raises(ValueError, match="unknown view"):
        views.view_quaternion("sideways")
    with pytest.raises(ValueError, match="unknown view"):
        views.view_basis("sideways")


# -- the camera ---------------------------------------------------------------------------


@pytest.mark.parametrize("yaw,pitch", [(0.0, 0.9), (1.1, 0.3), (-2.5, 1.4)])
def test_camera_frame_is_orthonormal_and_looks_at_the_player(yaw, pitch):
    eye, fwd, right, up = Camera(yaw=yaw, pitch=pitch, distance=6.0).frame()
    m = np.stack([fwd, right, up])
    assert np.allclose(m @ m.T, np.eye(3), atol=1e-12)
    assert np.allclose(eye + 6.0 * fwd, 0.0, atol=1e-12)  # the player's centre is straight ahead
    assert up[2] > 0 and abs(right[2]) < 1e-12  # no roll: right stays level


def test_camera_orbit_and_zoom_stay_in_range():
    cam = Camera().orbit(dpitch=10.0).zoom(100.0)
    assert cam.pitch == Camera.MAX_PITCH and cam.distance == Camera.MAX_DISTANCE
    cam = cam.orbit(dyaw=0.5, dpitch=-10.0).zoom(0.0)
    assert cam.pitch == Camera.MIN_PITCH and cam.distance == Camera.MIN_DISTANCE
    assert cam.yaw == pytest.approx(Camera().yaw + 0.5)


# -- the arrows -----------------------------------------------------------------------------

ARROWS = ("up", "down", "left", "right")


def test_arrows_in_the_stand_view_read_as_the_level_file():
    # yaw 0 looks along -y: up the page is up the screen, x to the right.
    got = [arrow_to_move(view_basis("stand"), 0.0, a) for a in ARROWS]
    assert got == ["U", "D", "L", "R"]


def test_arrows_follow_the_camera_round():
    # A quarter turn to the right (yaw +90 degrees): the camera looks along +x.
    got = [arrow_to_move(view_basis("stand"), math.pi / 2, a) for a in ARROWS]
    assert got == ["R", "L", "U", "D"]
    # Half way to the next quarter, the arrows round to the nearest axis.
    assert arrow_to_move(view_basis("stand"), math.radians(40), "up") == "U"
    assert arrow_to_move(view_basis("stand"), math.radians(50), "up") == "R"


def test_arrow_that_would_step_in_w_says_so():
    # In the both view depth is w: up and down the screen would be ana and kata.
    b = view_basis("both")
    assert [arrow_to_move(b, 0.0, a) for a in ARROWS] == ["w", "w", "L", "R"]
    assert [arrow_to_move(b, math.pi / 2, a) for a in ARROWS] == ["R", "L", "w", "w"]


def test_w_up_arrows_are_those_of_stand():
    for yaw in (0.0, 0.7, 2.0, -1.2):
        for a in ARROWS:
            assert arrow_to_move(view_basis("w-up"), yaw, a) == arrow_to_move(
                view_basis("stand"), yaw, a)


def test_unknown_arrow_is_refused():
    with pytest.raises(ValueError, match="unknown arrow"):
        arrow_to_move(view_basis("stand"), 0.0, "ana")


def test_axis_colours_are_fixed_and_distinct():
    colours = views.AXIS_COLOURS
    assert set(colours) == set("xyzw") and len(set(colours.values())) == 4


def test_fit_camera_frames_the_whole_room():
    b = view_basis("stand")
    near = views.fit_camera(Camera(), b, (3, 3, 2, 2), (1, 1, 1, 1))
    far = views.fit_camera(Camera(), b, (16, 16, 8, 8), (7, 7, 3, 3))
    assert Camera.MIN_DISTANCE <= near.distance < far.distance <= Camera.MAX_DISTANCE
    # Every corner of the big room is in front of the camera and inside the picture.
    eye, fwd, right, up = far.frame()
    tan = math.tan(math.radians(far.fov) / 2)
    for corner in [(0, 0, 0), (16, 16, 8), (16, 0, 0), (0, 16, 8)]:
        v = np.array(corner, float) - (7.5, 7.5, 3.5) - eye
        depth = v @ fwd
        assert depth > 0 and abs(v @ up) <= depth * tan and abs(v @ right) <= depth * tan * 16 / 9


def _shipped_openings():
    from anabasis.formats import levels

    for n in range(1, levels.count() + 1):
        room = levels.load_level(n)
        for view in VIEWS:
            yield n, room, view


@pytest.mark.parametrize("aspect", [16 / 9, 4 / 3])
def test_every_level_opens_with_the_whole_room_centred_in_the_picture(aspect):
    # Each shipped level, in each view, with the camera the game opens it (or turns to it)
    # with: every corner of what the room shows lies inside the picture (within the margin),
    # the box's picture is centred, and the player is in it.
    for n, room, view in _shipped_openings():
        player = room.start.player
        cam = views.room_camera(room.size, view, player, aspect, room.wrap)
        b = view_basis(view)
        centre = np.asarray(player, float) + 0.5
        points = [views.project(cam, b, c - centre)
                  for c in views.room_box(room.size, player, room.wrap)]
        assert all(p is not None for p in points), (n, view)
        xs, ys = np.array([p[0] for p in points]), np.array([p[1] for p in points])
        assert np.abs(xs).max() <= 0.9 * aspect + 1e-6 and np.abs(ys).max() <= 0.9 + 1e-6, (n, view)
        assert abs(xs.max() + xs.min()) < 0.05 and abs(ys.max() + ys.min()) < 0.05, (n, view)
        # as large as fits, or the default distance for a small room
        assert (max(np.abs(xs).max() / aspect, np.abs(ys).max()) > 0.8
                or cam.distance == Camera.distance), (n, view)
        px, py = views.project(cam, b, (0, 0, 0, 0))
        assert abs(px) < aspect and abs(py) < 1.0, (n, view)


def test_the_camera_follows_the_player_at_its_aim():
    # The aim is from the player's centre: as the player walks, the room slides and the player
    # stays where it was in the picture.
    cam = views.room_camera((8, 3, 2, 1), "stand", (0, 1, 1, 0))
    assert cam.target[0] > 2.0  # aimed right of the player, at the row's middle
    b = view_basis("stand")
    here = views.project(cam, b, (0, 0, 0, 0))
    assert here[0] < -0.3  # the player on the left of the picture, its row to the right
    corner = views.project(cam, b, (8 - 0.5, 0, 0, 0))  # the row's right end, seen from the start
    after = views.project(cam, b, (8 - 3.5, 0, 0, 0))  # the same end, three steps later
    assert after[0] < corner[0]
