"""Hints and lost causes in the real window: the hint arrow, a win with hints, a lost position.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import pygame
from conftest import DT
from window import KEYS, arrow_for, marked, press, settle

from anabasis.app.play.session import open_level
from anabasis.app.settings import progress as progress_mod
from anabasis.formats import levels
from anabasis.picture import views

# -- hints and lost causes -----------------------------------------------------------------

#: The arrow keys as the hint names them, and where each looks on screen (pixels, y down).
NAMED = {"Up": (pygame.K_UP, (0, -1)), "Down": (pygame.K_DOWN, (0, 1)),
         "Left": (pygame.K_LEFT, (-1, 0)), "Right": (pygame.K_RIGHT, (1, 0))}


def answered(app, limit=200, timeout=60.0):
    """Step frames until the hint worker has answered the position on screen.

    A frame at rest costs next to nothing, so a count of frames is no time at
    all for the worker on a loaded machine: wait on its answer (bounded), then
    step the frame that takes it.
    """
    from concurrent.futures import CancelledError, TimeoutError

    for _ in range(limit):
        if not app.scene.hints.pending and not app.scene.animating:
            app.tick(DT)
            return
        future = app.scene.hints._future
        if future is not None and not app.scene.animating:
            try:
                future.result(timeout=timeout)
            except (CancelledError, TimeoutError):
                pass
        app.tick(DT)
    raise AssertionError("the hint never came")


def hint_arrow_seen(app):
    """The hint arrow as drawn: (pixel count, unit direction from the tail it is drawn from)."""
    import numpy as np

    from anabasis.app.play.hud import HINT_COLOUR

    app.draw()
    rgb = pygame.surfarray.array3d(app.window.read_screen()).astype(int)  # (W, H, 3)
    near = np.abs(rgb - np.array(HINT_COLOUR)).max(axis=2) < 24
    xs, ys = np.nonzero(near)
    if len(xs) == 0:
        return 0, None
    from anabasis.app.play.hud import hint_arrow

    tail, _ = hint_arrow(app.scene, rgb.shape[:2])
    v = np.array([xs.mean() - tail[0], ys.mean() - tail[1]])  # the head's end weighs most
    return len(xs), v / max(np.linalg.norm(v), 1e-9)


def check_hint_arrow(app, move):
    """The arrow is drawn, and points the way the key the hint names looks on screen;
    that key plays ``move`` in the view and camera on screen."""
    import numpy as np

    from anabasis.app.play.hud import hint_arrow, hint_arrow_key

    play = app.scene
    count, seen = hint_arrow_seen(app)
    assert count > 40, f"no hint arrow in view {play.sight.view}"
    tail, tip = hint_arrow(play, app.window.read_screen().get_size())
    drawn = np.subtract(tip, tail) / np.hypot(*np.subtract(tip, tail))
    assert seen @ drawn > 0.95  # the pixels are the arrow from the player's cell
    name = hint_arrow_key(play, move)
    key, looks = NAMED[name]
    assert seen @ np.array(looks) > 0.5, (play.sight.view, name, seen)
    arrow = {v: k for k, v in KEYS.items()}[key]
    assert views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw, arrow) == move
    return key


def test_the_hint_arrow_points_the_way_the_move_goes_in_every_view_and_mid_orbit(make_app):
    import numpy as np

    app = make_app(open_level(1))
    play = app.scene
    settle(app)
    answered(app)
    assert hint_arrow_seen(app)[0] == 0  # nothing before the key
    press(app, pygame.K_SLASH)
    assert play.hints.revealed() == ("D",) and play.hints.used == 1
    key = check_hint_arrow(app, "D")
    press(app, key)  # the key the hint names plays the hinted move
    settle(app)
    assert play.game.history[-1] == play.game.first and play.game.moves == 1
    answered(app)
    press(app, pygame.K_QUESTION)  # ? as well as /
    assert play.hints.revealed() == ("R",)
    for view in ("stand", "w-up", "both"):
        while play.sight.view != view:
            press(app, pygame.K_v)
            settle(app)
        check_hint_arrow(app, "R")
        # mid-orbit: Q held, the camera going round, the arrow with it
        yaw = play.sight.camera.yaw
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0,
                                             unicode="", scancode=0))
        for _ in range(12):
            app.tick(DT)
        assert play.sight.camera.yaw > yaw + 0.5
        check_hint_arrow(app, "R")
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_q, mod=0,
                                             unicode="", scancode=0))
        app.tick(DT)
    # mid-turn: the arrow follows the slerped slice
    press(app, pygame.K_v)
    app.tick(DT)
    assert play.sight.turning
    from anabasis.app.play.hud import hint_arrow

    count, seen = hint_arrow_seen(app)
    tail, tip = hint_arrow(play, app.window.read_screen().get_size())
    assert count > 40 and seen @ (np.subtract(tip, tail) / np.hypot(*np.subtract(tip, tail))) > 0.95
    settle(app)
    # a step along y in "both downs" (y hidden): no arrow, and the words say to turn
    while play.sight.view != "both":
        press(app, pygame.K_v)
        settle(app)
    press(app, pygame.K_z)
    answered(app)
    press(app, pygame.K_SLASH)
    assert play.hints.revealed() == ("D",) and hint_arrow_seen(app)[0] == 0
    from anabasis.app.play.hud import hint_arrow_key

    assert hint_arrow_key(play, "D") is None
    assert "turn the view" in play.hints.words(lambda m: hint_arrow_key(play, m))
    assert play.game.moves == 0  # hints never played a move


def test_a_win_after_hints_is_recorded_as_hinted(make_app, tmp_path):
    from anabasis.app.play.hud import hint_arrow_key

    app = make_app(open_level(1))
    play = app.scene
    while not play.won:
        answered(app)
        press(app, pygame.K_SLASH)
        move = play.hints.revealed()[0]
        press(app, NAMED[hint_arrow_key(play, move)][0])
        settle(app)
    assert play.game.moves == levels.load_level(1).par and play.hints.used == 5
    # the win panel: at par, not "perfect" (a blind player, five hints in 2.5, was told
    # "perfect" and then found the launcher counting the level "with hints")
    from anabasis.app.play.hud import _win_shown

    line, note = _win_shown(play)[:2]
    assert line.endswith(" · at par") and "perfect" not in line and "5 moves hinted" in note
    saved = progress_mod.Progress.load(tmp_path)
    assert "level:1" in saved.hinted and saved.best_hinted == {"level:1": 5}
    assert "level:1" not in saved.solved and saved.best == {}
    app.to_launcher()
    item = app.scene.items[0]
    assert item.hinted and not item.done and "with hints 5" in item.right


def test_a_lost_position_is_named_at_once_with_the_undos_back(make_app):
    app = make_app(open_level(5))
    play = app.scene
    settle(app)
    for move in "RRR":  # the crate pushed past the gap: no way on
        press(app, arrow_for(play, move))
        settle(app)
    answered(app)
    assert play.message == "no way on from here: undo 1 move" and play.message_left > 0
    play.message_left = 0.0
    press(app, arrow_for(play, "D"))  # still lost: not said again
    settle(app)
    answered(app)
    assert play.hints.lost and play.hints.answer.undo == 2 and play.message_left <= 0
    press(app, pygame.K_SLASH)  # the hint says it when asked
    assert play.message == "no way on from here: undo 2 moves"
    app.progress.bind_key("hint", "k")  # as the keys screen does: the hint is rebindable
    app.keys_changed()
    play.message_left = 0.0
    press(app, pygame.K_SLASH)
    assert play.message_left <= 0
    press(app, pygame.K_k)
    assert play.message == "no way on from here: undo 2 moves" and play.message_left > 0
    press(app, pygame.K_z)
    press(app, pygame.K_z)
    answered(app)
    assert not play.hints.lost


def test_the_hint_arrow_lies_under_the_step_badges(make_app):
    """A blind player found the hint's arrow over a badge's words ("slip kata 1", "push").
    The arrow is drawn under the badges: inside the badge of the hinted step's cell, none
    of the arrow's green shows; outside it, the arrow does."""
    from anabasis.app.play import reading
    from anabasis.app.play.hud import HINT_COLOUR

    app = marked(make_app, open_level(1))
    play = app.scene
    answered(app)
    press(app, pygame.K_SLASH)
    play.message_left = 0.0
    app.tick(DT)
    (move,) = play.hints.revealed()
    b, cam = play.sight.basis(), play.sight.camera
    marks = play.reading.badged(play.reading.step_marks(), b, cam.yaw)
    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    (badge,) = [p.rect for m, p in zip(marks, placed, strict=True) if m.move == move]
    surface = app.overlay.surface
    green = [(x, y) for x in range(0, surface.get_width(), 2)
             for y in range(0, surface.get_height(), 2)
             if surface.get_at((x, y))[:3] == HINT_COLOUR]
    assert len(green) > 20  # the arrow is drawn
    # (in from the box's edges by two pixels: the badge's corners are rounded)
    assert not [p for p in green if badge.inflate(-4, -4).collidepoint(p)]


def test_the_hint_arrow_goes_onto_the_large_map_and_its_words_stay(make_app):
    """The hint's arrow is drawn on the pawn in the room; with the large map over the room
    it lay on another slice's panel, and a blind player read it as there.  Over the large
    map it is drawn on the map, from the pawn's cell; the words stay, and the arrow is back
    on the pawn with the room."""
    from anabasis.app.play.hud import HINT_COLOUR

    app = make_app(open_level(6), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    answered(app)
    press(app, pygame.K_SLASH)
    play.message_left = 0.0

    def green():
        app.tick(DT)
        surface = app.overlay.surface
        return sum(surface.get_at((x, y))[:3] == HINT_COLOUR
                   for x in range(0, surface.get_width(), 2)
                   for y in range(0, surface.get_height(), 2))

    assert green() > 20
    press(app, pygame.K_b)
    assert play.reading.large
    assert any(t.startswith("hint: ") for t in app.overlay.written)
    # on the large map the arrow runs on the map, from the pawn's cell toward its step's (a
    # blind player planning there found no arrow)
    from anabasis.app.play import hud
    from anabasis.engine.moves import STEPS

    tail, tip, _ = hud.map_hint_line(play)
    smap, rect = play.reading.drawn_map, play.reading.map_rect
    x, y, _, w = play.state.player
    cell = smap.layout.cell_rect(x, y, w).move(rect.topleft)
    assert tail == cell.center
    dx, dy = STEPS[play.hints.revealed()[0]][:2]
    assert (tip[0] - tail[0]) * dx > 0 or (tip[1] - tail[1]) * dy > 0
    app.tick(DT)
    surface = app.overlay.surface
    greens = [(x, y) for x in range(0, surface.get_width(), 2)
              for y in range(0, surface.get_height(), 2)
              if surface.get_at((x, y))[:3] == HINT_COLOUR]
    assert len(greens) > 5 and all(cell.inflate(2 * cell.width, 2 * cell.height).collidepoint(p)
                                   for p in greens)
    press(app, pygame.K_b)
    assert green() > 20


def test_over_the_large_map_the_hints_words_leave_the_map_and_its_key_whole(make_app):
    """Over the large map the hint's words lay across the map's key (a blind player could
    not read the key with a hint up).  There they go to the key bar's right end: not a
    pixel of the map's key changes when a hint is asked for."""
    import numpy as np

    from anabasis import gen
    from anabasis.app.play.session import opened_made

    app = make_app(opened_made(gen.build(*gen.parse_spec("hard.stoat"))), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    assert play.reading.large  # (a made room opens on it)
    play.message_left = 0.0
    app.tick(DT)
    rect = play.reading.map_rect
    assert play.reading.large and rect is not None

    foot = rect.y + play.reading.drawn_map.foot_top  # (the map's key; its arrow is on the map)

    def inside():
        app.tick(DT)
        pixels = pygame.surfarray.array3d(app.overlay.surface)
        return pixels[rect.x:rect.right, foot:rect.bottom].copy()

    before = inside()
    press(app, pygame.K_SLASH)
    answered(app)
    play.message_left = 0.0
    after = inside()
    assert any(t.startswith("hint: ") for t in app.overlay.written)
    assert np.array_equal(before, after)
