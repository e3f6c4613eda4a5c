"""Playing a room in the real window: moves, undo, turns, losses, the camera, the pad.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from conftest import DT
from window import KEYS, arrow_for, press, settle

from anabasis.app.play.scene import W_MESSAGE, Play
from anabasis.app.play.session import open_level
from anabasis.app.settings import progress as progress_mod
from anabasis.engine import rules, solver
from anabasis.formats import levels
from anabasis.picture import views


def test_level_1_is_won_by_key_presses(make_app, tmp_path):
    app = make_app(open_level(1))
    play = app.scene
    assert isinstance(play, Play) and play.renderer is not None
    moves = solver.solve(play.room).moves
    for move in moves:
        press(app, arrow_for(play, move))
        settle(app)
    assert play.won and play.game.status == "won"
    par = levels.load_level(1).par
    assert play.game.moves == len(moves) == par
    # the win is saved: solved, and the best
    saved = progress_mod.Progress.load(tmp_path)
    assert "level:1" in saved.solved and saved.best["level:1"] == par
    # the score panel says it is solved, where the win panel steps aside as the view turns
    # (a blind player, "best 5" alone left, thought the room not won)
    from anabasis.app.play.hud import Shown

    press(app, pygame.K_v)
    settle(app)
    assert play.win_aside and Shown.of(play, app.overlay.size).best == f"solved · best {par}"
    # and Enter offers the next level
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, Play) and app.scene.opened.level == 2


def test_undo_restores_the_exact_state(make_app):
    app = make_app(open_level(1))
    play = app.scene
    seen = [(play.game.state, play.game.moves)]
    for move in solver.solve(play.room).moves[:3]:
        press(app, arrow_for(play, move))
        settle(app)
        seen.append((play.game.state, play.game.moves))
    assert len({s for s, _ in seen}) == len(seen)  # every move changed the state
    press(app, pygame.K_r)  # restart, which undo takes back too
    assert (play.game.state, play.game.moves) == seen[0]
    press(app, pygame.K_z)
    assert (play.game.state, play.game.moves) == seen[-1]
    for expected in reversed(seen[:-1]):
        press(app, pygame.K_BACKSPACE if expected is seen[0] else pygame.K_z)
        settle(app)
        assert (play.game.state, play.game.moves) == expected
    press(app, pygame.K_z)  # nothing left to undo: nothing changes
    assert (play.game.state, play.game.moves) == seen[0]


def test_an_arrow_that_means_w_moves_nothing_and_says_so(make_app):
    app = make_app(open_level(1))
    play = app.scene
    assert play.sight.view == "stand"
    press(app, pygame.K_v)
    settle(app)
    press(app, pygame.K_SPACE)
    settle(app)
    assert play.sight.view == "both"  # depth is w: up and down arrows mean w
    before = (play.game.state, play.game.moves)
    assert views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw, "up") == "w"
    press(app, pygame.K_UP)
    settle(app)
    assert (play.game.state, play.game.moves) == before
    # (the both view hides y: said so, and which key turns to a view that steps in it)
    assert play.message == ("↑ ↓ point along w here: no key steps in w · y is hidden in this"
                            " view: V turns to one where you step in y")
    assert play.message_left > 0 and play.w_refusals == 1
    assert W_MESSAGE.startswith("you can't step in w")


def test_input_during_a_turn_waits_for_it(make_app):
    app = make_app(open_level(1))
    play = app.scene
    start = play.game.state
    first = solver.solve(play.room).moves[0]
    # the arrow that means the solution's first move once the view has turned to w-up
    arrow = next(a for a in KEYS if views.arrow_to_move(
        views.view_basis("w-up"), play.sight.camera.yaw, a) == first)
    for key in (pygame.K_v, KEYS[arrow]):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="",
                                             scancode=0))
    app.tick(DT)
    assert play.sight.turning and play.game.state == start  # the arrow is queued
    assert play.queue and play.queue[0] == ("arrow", arrow)
    settle(app)
    assert play.sight.view == "w-up" and not play.sight.turning
    assert play.game.moves == 1
    assert play.game.state == rules.step(play.room, start, first).state


def test_a_loss_shows_the_fall_then_undoes_it(make_app):
    # find a room and a move that falls out of the world, by the engine's own word
    for n in range(1, levels.count() + 1):
        room = levels.load_level(n)
        state = rules.start(room).state
        frontier, seen, found = [(state, ())], {state}, None
        while frontier and found is None:
            s, path = frontier.pop(0)
            for m in "RLDU":
                r = rules.step(room, s, m)
                if r.status == "lost":
                    found = path, m
                    break
                if r.moved and r.status == "playing" and r.state not in seen and len(path) < 4:
                    seen.add(r.state)
                    frontier.append((r.state, path + (m,)))
        if found:
            break
    else:
        raise AssertionError("no level can be lost in a few moves: the test needs one")
    app = make_app(open_level(n))
    play = app.scene
    path, losing = found
    for m in path:
        play.move(m)
        settle(app)
    before = (play.game.state, play.game.moves)
    assert play.move(losing)
    app.tick(DT)
    assert play.animating  # the fall is shown
    settle(app)
    assert (play.game.state, play.game.moves) == before
    # the game says the engine's why (Result.why), and that the move is undone
    why = rules.step(play.room, before[0], losing).why
    assert why and why.split(":")[0] in play.message and "undone" in play.message


def test_a_gamepad_plays_too(make_app):
    app = make_app()
    pad = pygame.CONTROLLERBUTTONDOWN
    # the d-pad across switches the launcher's columns, and back
    for button in (pygame.CONTROLLER_BUTTON_DPAD_RIGHT, pygame.CONTROLLER_BUTTON_DPAD_LEFT):
        pygame.event.post(pygame.event.Event(pad, button=button))
        app.tick(DT)
        assert (app.scene.items[app.scene.selected].action[0] == "level") == (
            button == pygame.CONTROLLER_BUTTON_DPAD_LEFT)
    pygame.event.post(pygame.event.Event(pad, button=pygame.CONTROLLER_BUTTON_DPAD_DOWN))
    pygame.event.post(pygame.event.Event(pad, button=pygame.CONTROLLER_BUTTON_A))
    app.tick(DT)
    play = app.scene
    assert isinstance(play, Play) and play.opened.level == 2
    first = solver.solve(play.room).moves[0]
    button = {"up": pygame.CONTROLLER_BUTTON_DPAD_UP, "down": pygame.CONTROLLER_BUTTON_DPAD_DOWN,
              "left": pygame.CONTROLLER_BUTTON_DPAD_LEFT,
              "right": pygame.CONTROLLER_BUTTON_DPAD_RIGHT}[
        next(a for a in KEYS
             if views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw, a) == first)]
    pygame.event.post(pygame.event.Event(pad, button=button))
    app.tick(DT)
    settle(app)
    assert play.game.moves == 1
    pygame.event.post(pygame.event.Event(pad, button=pygame.CONTROLLER_BUTTON_B))  # undo
    app.tick(DT)
    assert play.game.moves == 0 and play.game.state == rules.start(play.room).state


def test_the_hud_is_redrawn_when_a_turn_ends(make_app):
    import numpy as np

    app = make_app(open_level(1))
    press(app, pygame.K_v)
    while app.scene.busy:  # fine steps: the turn's last frames look all but at rest
        app.tick(1 / 240)
    app.tick(1 / 240)
    shown = pygame.surfarray.array_alpha(app.overlay.surface).copy()
    app.overlay._key = None  # what a fresh drawing of the same moment looks like
    app.tick(DT)
    fresh = pygame.surfarray.array_alpha(app.overlay.surface)
    assert np.array_equal(shown, fresh), "the HUD still shows the turn after it ended"


def test_a_slip_is_slow_enough_to_see_while_w_is_hidden(make_app):
    from anabasis.app.viewer import animation

    app = make_app(open_level(2))
    play = app.scene
    moves = solver.solve(play.room).moves
    for move in moves[:3]:
        play.move(move)
        settle(app)
    start_w = play.state.player[3]
    assert play.move(moves[3])  # this step slips a slice kata
    slips = [s for s in play.timeline.segments if s.kind == "fall"]
    assert slips and play.timeline.segments[-1].after.player[3] == start_w - 1
    assert all(s.duration == animation.SLIP_S for s in slips)
    settle(app)
    press(app, pygame.K_z)
    press(app, pygame.K_v)  # w drawn up: a slip is a plain fall, one tick a cell
    settle(app)
    assert play.move(moves[3])
    assert all(s.duration == animation.FALL_S for s in play.timeline.segments
               if s.kind == "fall")
    settle(app)


def test_a_turn_frames_the_room_again_unless_the_player_zoomed(make_app):
    app = make_app(open_level(4))  # a row in the stand view, a tall stair with w up
    play = app.scene
    before = play.sight.camera.target
    press(app, pygame.K_v)
    settle(app)
    # (framed in the whole picture, or beside the corner map where it would cover the room)
    fitted = play._framing(play.sight)
    assert not np.allclose(play.sight.camera.target, before)  # the stair is elsewhere
    assert abs(play.sight.camera.distance - fitted.distance) < 1e-6
    assert np.allclose(play.sight.camera.target, fitted.target)  # aimed at the room again
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.tick(DT)
    chosen = play.sight.camera.distance
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.camera.distance == chosen  # the player's own distance is kept


def _pink_centre(app):
    """Where the player (the pink pawn) is in the window as drawn, as fractions of its size."""
    import numpy as np

    app.draw()
    rgb = pygame.surfarray.array3d(app.window.read_screen()).astype(int)  # (W, H, 3)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    xs, ys = np.nonzero((r > 180) & (r - g > 90) & (b > 90) & (b < r))
    assert len(xs) > 30, "the player is not on screen"
    return xs.mean() / rgb.shape[0], ys.mean() / rgb.shape[1]


def test_a_cross_fade_is_drawn_smaller_but_fills_the_window(make_app):
    app = make_app(open_level(3))
    play = app.scene
    moves = solver.solve(play.room).moves
    for move in moves[:2]:
        press(app, arrow_for(play, move))
        settle(app)
    at_rest = _pink_centre(app)
    assert app.window.scene_viewport[2:] == app.window.scene_size
    press(app, arrow_for(play, moves[2]))  # up the ramp: the slice cross-fades
    app.tick(DT)
    assert play.pose().kind == "ramp"
    mid = _pink_centre(app)
    if app.window.software:
        w, h = app.window.scene_viewport[2:]
        assert w < app.window.scene_size[0] and h < app.window.scene_size[1]
    # the smaller picture is scaled up to the whole window: the player stays centred
    assert abs(mid[0] - at_rest[0]) < 0.06 and abs(mid[1] - at_rest[1]) < 0.06
    settle(app)
    assert app.window.scene_viewport[2:] == app.window.scene_size


def test_the_first_turns_say_what_each_view_shows(make_app):
    from anabasis.app.play.scene import VIEW_TIPS, VIEW_TIPS_PER_SESSION

    app = make_app(open_level(2))
    play = app.scene
    said = []
    for _ in range(VIEW_TIPS_PER_SESSION + 1):
        press(app, pygame.K_v)
        settle(app)
        said.append(play.message if play.message_left > 0 else "")
        play.message_left = 0.0
    assert said[:3] == [VIEW_TIPS["w-up"], VIEW_TIPS["both"], VIEW_TIPS["stand"]]
    assert said[VIEW_TIPS_PER_SESSION] == ""  # then the player knows


def test_the_view_on_screen_says_which_view_the_turn_key_goes_to_next(make_app):
    """Two blind players took V for a switch between two views, pressed it to go back, and
    met the third.  Over the axes the view's name says what V turns to next, round all
    three, and it is on screen."""
    app = make_app(open_level(2))
    play = app.scene
    seen = []
    for _ in range(3):
        settle(app)
        app.tick(DT)
        assert f"view: {play.sight.view}" in app.overlay.written  # (the caption's two lines)
        (shown,) = [t for t in app.overlay.written if t.startswith("V → ")]
        seen.append(shown[len("V → "):])
        press(app, pygame.K_v)
    assert seen == ["w-up", "both", "stand"]


def test_a_press_repeated_before_its_release_is_read_is_one_move(make_app):
    """pygame repeats a held key from a timer of its own; a frame longer than its delay (a
    busy machine, software GL) saw a quick press repeated before its release was read, and
    two blind players' one press took two moves (a push, then a climb onto the crate).  A
    repeat read with its key's release is dropped; a key truly held still walks on."""
    app = make_app(open_level(5))
    play = app.scene
    settle(app)
    key = arrow_for(play, "R")

    def post(kind):
        pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))

    post(pygame.KEYDOWN)
    app.tick(DT)  # the press read in one frame ...
    post(pygame.KEYDOWN)
    post(pygame.KEYUP)
    app.tick(DT)  # ... its repeat and its release together in the next
    settle(app)
    assert play.game.moves == 1
    post(pygame.KEYDOWN)
    app.tick(DT)
    post(pygame.KEYDOWN)
    app.tick(DT)  # held: a repeat, and the key still down
    post(pygame.KEYUP)
    settle(app)
    assert play.game.moves == 3


def test_q_e_and_a_mouse_drag_orbit_and_the_arrows_follow(make_app):
    import numpy as np

    from anabasis.app.play.scene import DRAG_YAW, ORBIT_SPEED, TAP_STEP

    app = make_app(open_level(1))
    play = app.scene
    settle(app)
    app.tick(DT)
    # at rest the HUD is not drawn again: the same picture, the same key
    key, shown = app.overlay._key, pygame.surfarray.array_alpha(app.overlay.surface).copy()
    for _ in range(3):
        app.tick(DT)
    assert app.overlay._key is key
    right_before = arrow_for(play, "R")
    yaw = play.sight.camera.yaw
    # Q held for a quarter turn: the camera goes round, and the axes gizmo with it
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0, unicode="",
                                         scancode=0))
    for _ in range(round(np.pi / 2 / ORBIT_SPEED / DT)):
        app.tick(DT)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_q, mod=0, unicode="",
                                         scancode=0))
    app.tick(DT)
    assert abs(play.sight.camera.yaw - yaw - np.pi / 2) < 0.1
    assert not np.array_equal(shown, pygame.surfarray.array_alpha(app.overlay.surface))
    assert arrow_for(play, "R") != right_before  # the arrow that looks like R is another one
    # and the key line's "across" names the axis the right arrow now steps along (it said
    # "across +x" still, and a blind player, x up the screen, was misled: t284)
    settle(app)
    app.tick(DT)
    app.tick(DT)
    step = views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw, "right")
    across = {"R": "+x", "L": "-x", "D": "+y", "U": "-y"}[step]
    assert across != "+x" and f"across {across}" in " ".join(app.overlay.written)
    held = play.sight.camera.yaw
    app.tick(DT)
    assert play.sight.camera.yaw == held  # let go: it stops
    # a tap of E turns it back one fixed step, however short the tap, and no further
    for taps in (1, 2):
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_e, mod=0, unicode="",
                                                 scancode=0))
            app.tick(DT)
        for _ in range(10):
            app.tick(DT)
        assert play.sight.camera.yaw == pytest.approx(held - taps * TAP_STEP)
    # a drag turns it too, and only while a button is down
    yaw = play.sight.camera.yaw
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(300, 200)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(400, 200), rel=(100, 0),
                                         buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(400, 200)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(500, 200), rel=(100, 0),
                                         buttons=(0, 0, 0)))
    app.tick(DT)
    assert play.sight.camera.yaw == pytest.approx(yaw - 100 * DRAG_YAW)  # one motion, not two
    assert play.game.moves == 0  # orbiting moves nothing


def test_a_room_at_rest_is_not_traced_again_and_still_shows(make_app):
    import numpy as np

    app = make_app(open_level(1))
    play = app.scene
    for _ in range(600):  # the idle shader warm-up draws each variant first
        if play.draw.warmer.done and not play.busy:
            break
        app.tick(DT)
    app.tick(DT)
    traced = []
    draw = play.renderer.draw
    play.renderer.draw = lambda *a, **kw: (traced.append(1), draw(*a, **kw))[1]
    before = pygame.surfarray.array3d(app.window.read_screen()).copy()
    for _ in range(5):
        app.tick(DT)
    assert traced == []  # nothing moved: the room's picture is reused
    assert not app.window.swapped  # ...and nothing new was put on the window
    after = pygame.surfarray.array3d(app.window.read_screen())
    assert np.array_equal(before, after)  # ...and the window still shows it
    assert after[80:560, 60:300].std() > 10  # (the room, not a cleared target)
    press(app, arrow_for(play, solver.solve(play.room).moves[0]))
    settle(app)
    assert traced  # a move traces the room again
    traced.clear()
    # an orbit changes the picture too (E held for two frames)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="",
                                         scancode=0))
    app.tick(DT)
    app.tick(DT)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_e, mod=0, unicode="",
                                         scancode=0))
    app.tick(DT)
    assert traced


def test_m_mutes_and_minus_equals_set_the_volume_saved_with_the_progress(make_app, tmp_path):
    app = make_app()
    assert app.sound.available  # SDL_AUDIODRIVER=dummy: a device that plays into nothing
    launcher = app.scene
    press(app, pygame.K_m)
    assert app.sound.muted and launcher.status.startswith("sound off")
    press(app, pygame.K_MINUS)  # a volume key unmutes: the player wants to hear it
    assert not app.sound.muted and app.sound.volume == 0.6
    for _ in range(6):
        press(app, pygame.K_EQUALS)
    assert app.sound.volume == 1.0 and "100%" in launcher.status
    # typing a room code, m and - are letters of the code, not sound keys
    launcher.activate(next(i for i, it in enumerate(launcher.items) if it.action == ("code",)))
    for key, ch in ((pygame.K_m, "m"), (pygame.K_MINUS, "-")):
        press(app, key, unicode=ch)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        app.tick(DT)
    assert launcher.code_text == "m-" and not app.sound.muted and app.sound.volume == 1.0
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_RETURN)  # into level 1: M says so there too
    press(app, pygame.K_m)
    assert isinstance(app.scene, Play) and app.scene.message.startswith("sound off")
    app.close()
    saved = progress_mod.Progress.load(tmp_path)
    assert (saved.volume, saved.muted) == (1.0, True)


# -- each HUD is drawn from a value made per frame, and again whenever it changes ----------


def test_the_hud_redraws_for_a_new_message_and_when_it_goes(make_app):
    app = make_app(open_level(1))
    play = app.scene
    settle(app)
    for _ in range(int(7 / DT)):  # the opening line has gone: the HUD at rest
        app.tick(DT)
    assert not any("fresh words" in t for t in app.overlay.written)
    play.say("fresh words on screen", "info", 0.5)
    app.tick(DT)
    app.tick(DT)  # (a frame that traced the room leaves a new HUD to the next)
    assert "fresh words on screen" in app.overlay.written
    for _ in range(int(1 / DT)):
        app.tick(DT)
    assert "fresh words on screen" not in app.overlay.written  # gone with its time


def test_the_help_says_you_climb_one_high(make_app):
    """A blind player learnt climbing only from a badge: the help's rules did not say it."""
    app = make_app(open_level(1))
    press(app, pygame.K_h)
    assert app.scene.help
    app.tick(DT)
    words = " ".join(app.overlay.written)  # (its lines broken to the page's columns)
    assert "one high climbs onto it" in words
    # and that a crate that cannot move is a step, in a line of its own (said after a push's
    # words, three of six blind players under a goal two high never learnt it there)
    assert any(t.startswith("A crate that cannot move is a step") for t in app.overlay.written)


def test_the_key_line_names_the_step_marks_key_where_they_do_not_show(make_app):
    """Both blind playtesters looked for the step badges in a made room: by default they show
    there and in the campaign's levels.  In a room shared by its code they show only while
    their key is held, and the key line says which key that is there (and not where they
    show by themselves)."""
    from anabasis import gen
    from anabasis.app.play import hud
    from anabasis.app.play.session import open_code, opened_made
    from anabasis.formats import codes

    app = make_app(open_level(2))
    assert app.scene.reading.marks_on
    assert "marks" not in hud.key_line(app.scene)
    made = gen.build("easy", 3)
    app.open(opened_made(made))
    assert app.scene.reading.marks_on and "marks" not in hud.key_line(app.scene)
    app.open(open_code(codes.encode(made.room)))
    play = app.scene
    assert play.opened.kind == "room" and not play.reading.marks_on
    line = hud.key_line(play)
    assert "X held: marks" in line
    app.tick(DT)
    assert any("X held: marks" in t for t in app.overlay.written)  # drawn, at this width


def test_the_win_panel_steps_aside_when_you_turn_to_look_at_the_won_room(make_app):
    """A blind player who won level 3 and turned the view to see the room there found the
    win panel over it, and restarted to see it.  A turn (or an orbit) after the win puts the
    panel aside; the key line still says the way on, and a new win shows it again."""
    from window import win

    app = make_app(open_level(3))
    play = win(app)
    app.tick(DT)
    assert "Solved!" in app.overlay.written
    press(app, pygame.K_v, frames=2)
    settle(app)
    app.tick(DT)
    assert play.won and "Solved!" not in app.overlay.written
    assert play.sight.view != "stand"
    assert any("next" in line.lower() for line in app.overlay.written), app.overlay.written
    press(app, pygame.K_r, frames=2)  # again, in this view: won, the panel is back
    settle(app)
    win(app)
    app.tick(DT)
    assert "Solved!" in app.overlay.written


def test_the_help_hides_the_room_behind_it(make_app):
    """Seen through, the room behind the help's words made them harder to read (t299).  Its
    page is opaque: opened over two rooms, its middle is the same, pixel for pixel."""
    import numpy as np

    shots = []
    for level in (1, 7):
        app = make_app(open_level(level))
        press(app, pygame.K_h)
        assert app.scene.help
        for _ in range(3):
            app.tick(DT)
        image = pygame.surfarray.array3d(pygame.image.load(str(app.screenshot())))
        W, H = image.shape[:2]
        shots.append(image[W // 2 - 250:W // 2 + 250, H // 2 - 120:H // 2 + 120].astype(int))
    assert np.abs(shots[0] - shots[1]).max() <= 2


def test_with_w_up_the_room_is_seen_square_on_its_tops_level_on_screen(make_app):
    """Level 5 with w up: turned by the room's yaw, its rows rose to the right, and the goal's
    column past the trench had its top higher up the screen than the floor it is level with,
    and its side showing over the trench: blind players of every round read it as higher
    (t280 to t309), its tag saying "as high as you".  Turned to w up, the camera swings to
    look square on, with the narrower field of view: the far edges of the floor's top and
    the column's, one height, lie level on screen.  Turned on, it swings back; an orbited
    camera keeps its yaw."""
    from anabasis.app.play import markers

    app = make_app(open_level(5))
    play = app.scene
    assert play.sight.view == "stand" and play.sight.camera.yaw == views.ROOM_YAW
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.view == "w-up"
    camera = play.sight.camera
    assert (camera.yaw, camera.fov) == (views.W_UP_YAW, views.ROOM_FOV_TALL)
    b = play.sight.basis()
    project = markers.projecting(play.pose().player, b, camera, app.overlay.size)
    # the far (-y) edge of two tops at w 2: the floor's at x 2, the goal's column's at x 4
    (_, floor_y, _), (_, column_y, _) = (project((x, -0.5, 1, 1.5)) for x in (2.0, 4.0))
    assert abs(floor_y - column_y) < 1.5, (floor_y, column_y)
    for _ in range(2):  # on to the both view, and round to the stand view
        press(app, pygame.K_v)
        settle(app)
    assert play.sight.view == "stand" and play.sight.camera.yaw == views.ROOM_YAW
    play.sight = play.sight.orbit(0.3)  # (as Q or E does)
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.view == "w-up" and abs(play.sight.camera.yaw - views.ROOM_YAW - 0.3) < 1e-9


def test_the_height_panel_stays_in_the_room_while_a_fall_out_plays(make_app):
    """Level 1's first step right falls out of the room kata; the fall plays past the
    room's end before it is undone, and the panel read "w -1" there, which a blind player
    took for where he was (t340).  Each frame of the fall, the panel's height is a cell of
    the room; at rest it is the pawn's again."""
    from anabasis.app.play.hud import Shown

    app = make_app(open_level(1))
    play = app.scene
    size = play.room.size
    assert rules.step(play.room, play.game.state, "R").status == "lost"
    press(app, arrow_for(play, "R"), frames=0)
    seen, past = set(), False
    for _ in range(400):
        app.tick(DT)
        seen.add(Shown.of(play, app.overlay.size).height)
        past = past or play.pose().player[3] < -0.5
        if not play.busy:
            break
    assert past  # (the fall did play past the room's end)
    assert all(0 <= z < size[2] and 0 <= w < size[3] for z, w in seen), seen
    assert Shown.of(play, app.overlay.size).height == tuple(play.game.state.player[2:])


def test_the_title_panel_holds_a_made_rooms_title(make_app):
    """A made room's title, "medium room · medium.eland14", ran past its panel, as wide as
    the room's name under it, and the message beside it hid its end (t344, t346): the panel
    is as wide as the title, and the message lies clear of it."""
    from anabasis import gen
    from anabasis.app.play import hud
    from anabasis.app.play.session import opened_made

    app = make_app(opened_made(gen.build_spec("medium.eland14")), size=(1280, 720))
    play = app.scene
    shown = hud.Shown.of(play, app.overlay.size)
    _, panel = hud.title_place(app.overlay, shown)
    s = app.overlay.scale
    title = app.overlay.width_of(shown.title, int(30 * s))
    assert panel.left + int(18 * s) + title <= panel.right, (shown.title, panel)
