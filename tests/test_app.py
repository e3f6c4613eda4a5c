"""The game in a real window: real GL (llvmpipe through GLX under Xvfb), real events.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pygame
import pytest
from conftest import DT
from window import KEYS, arrow_for, press, settle

from anabasis.app import OpenError
from anabasis.app.menus.launcher import Launcher
from anabasis.app.play import cues, markers
from anabasis.app.play.scene import W_MESSAGE, Play
from anabasis.app.play.session import Opened, open_level
from anabasis.app.settings import progress as progress_mod
from anabasis.app.shell.window import SOFTWARE_PIXELS
from anabasis.cli import build_parser
from anabasis.engine import rules, solver
from anabasis.formats import levelfile, levels
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
    assert play.message == W_MESSAGE and play.message_left > 0
    assert play.w_refusals == 1


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


def test_a_scene_needs_only_the_protocol(make_app):
    from anabasis.app.shell.scene import Scene

    app = make_app(open_level(2))
    app.switch(Scene(), "a bare scene")  # the editor and any later screen start here
    for _ in range(3):
        app.tick(DT)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0))
    app.tick(DT)  # a screenshot: a scene that cannot say so says nothing
    assert app.last_screenshot is not None and app.last_screenshot.exists()
    app.to_launcher()
    assert isinstance(app.scene, Launcher) and app.scene.selected == 0


def test_the_launcher_opens_a_level(make_app):
    app = make_app()
    assert isinstance(app.scene, Launcher)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, Play) and app.scene.opened.level == 2
    app.tick(DT)
    press(app, pygame.K_ESCAPE)  # back on the first level not yet solved, not the one left
    assert isinstance(app.scene, Launcher) and app.scene.selected == 0
    # and the mouse: click the first level's line
    rect = app.scene.rects[0]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    app.tick(DT)
    assert isinstance(app.scene, Play) and app.scene.opened.level == 1


def test_the_launcher_refuses_a_bad_room_code(make_app):
    app = make_app()
    launcher = app.scene
    launcher.activate([i for i, it in enumerate(launcher.items) if it.action == ("code",)][0])
    assert launcher.typing
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Dnot-a-room"))
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, Launcher) and "not a room code" in launcher.error
    # a good code opens that exact room
    from anabasis.formats import codes

    code = codes.encode(levels.load_level(3))
    launcher.code_text = ""
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=code))
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, Play) and app.scene.room.cells == levels.load_level(3).cells


def test_a_screenshot_of_the_window_is_not_blank(make_app):
    import numpy as np

    app = make_app(open_level(1))
    for _ in range(3):
        app.tick(DT)
    press(app, pygame.K_F12)
    path = app.last_screenshot
    assert path is not None and path.exists()
    image = pygame.image.load(str(path))
    assert image.get_size() == app.window.size
    pixels = pygame.surfarray.array3d(image).astype(float)
    assert pixels.std() > 10  # not one flat colour
    # the room itself is drawn, not just the HUD: the middle of the window varies too
    w, h = image.get_size()
    middle = pixels[w // 4: 3 * w // 4, h // 4: 3 * h // 4]
    assert middle.std() > 10
    assert len(np.unique(middle.reshape(-1, 3), axis=0)) > 50
    assert app.scene.renderer is not None


def test_a_bad_level_or_code_is_refused_before_any_window(display):
    from anabasis import app as game

    for argv in (["--level", "99"], ["--room", "Dxyz"], ["--level", "1", "--size", "big"]):
        with pytest.raises(OpenError):
            game.main(build_parser().parse_args(argv))
        assert not pygame.display.get_init()
    run = subprocess.run([sys.executable, "-m", "anabasis", "--level", "99"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "no level 99" in run.stderr


def test_the_demo_wins_level_1(display, tmp_path):
    env = dict(os.environ, ANABASIS_DATA_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "anabasis", "--level", "1", "--demo"],
                         capture_output=True, text=True, timeout=90, env=env)
    par = levels.load_level(1).par
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == f"won: {par} moves (par {par})"
    assert "warning" not in run.stderr


def test_a_made_room_builds_while_the_frames_keep_coming(make_app):
    import time

    app = make_app()
    app.build_room("easy", 42)
    assert app.building
    frames = 0
    deadline = time.monotonic() + 60
    while app.building and time.monotonic() < deadline:
        app.tick(DT)  # every frame is drawn while the worker builds
        frames += 1
    assert isinstance(app.scene, Play), "the room never arrived"
    assert frames >= 2
    play = app.scene
    assert play.opened.kind == "gen" and play.opened.tier == "easy"
    assert play.sight.view == "both"  # a made room opens with both downs side by side
    assert play.opened.code and play.opened.key == f"room:{play.opened.code}"


def test_copy_help_fullscreen_and_the_window_size_are_kept(make_app, tmp_path):
    app = make_app(open_level(2))
    play = app.scene
    press(app, pygame.K_c)
    code = play.opened.code
    assert code in play.message
    if "copied" in play.message:  # then the clipboard holds it
        assert app.paste() == code
    else:  # no clipboard: printed, and said so
        assert "printed" in play.message
    press(app, pygame.K_h)
    assert play.help
    press(app, pygame.K_RIGHT)  # any key closes the help, and does nothing else
    assert not play.help and play.game.moves == 0
    press(app, pygame.K_F11)
    press(app, pygame.K_F11)
    app.tick(DT)
    assert not app.window.fullscreen
    size = app.window.size
    app.close()
    assert progress_mod.Progress.load(tmp_path).window == tuple(size)


def test_the_internal_size_keeps_software_frames_small():
    from anabasis.app.shell.window import internal_size

    assert internal_size((1280, 720), SOFTWARE_PIXELS) == (512, 288)
    w, h = internal_size((2560, 1080), SOFTWARE_PIXELS)
    assert w * h <= SOFTWARE_PIXELS and abs(w / h - 2560 / 1080) < 0.01
    assert internal_size((480, 300), SOFTWARE_PIXELS) == (480, 300)  # under the budget: as is


def test_a_resized_window_draws_at_its_new_size(make_app):
    import warnings

    app = make_app(open_level(1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    window.size = (1000, 600)
    for _ in range(3):
        app.tick(DT)
    assert app.window.size == (1000, 600)
    assert app.ctx.screen.viewport == (0, 0, 1000, 600)
    assert app.overlay.size == (1000, 600)
    w, h = app.window.scene_size  # the room at the software budget, same shape
    assert w * h <= SOFTWARE_PIXELS and abs(w / h - 1000 / 600) < 0.02
    assert app.window.read_screen().get_size() == (1000, 600)


def test_the_internal_size_follows_the_tail_of_the_frame_times(make_app):
    from anabasis.app.shell.window import Budget

    app = make_app(open_level(1))
    window = app.window
    if not window.software:
        pytest.skip("dynamic resolution is for software GL")
    start = window.scene_size
    # One frame in ten over 1/60 s: the median (8 ms) is well inside, the tail is not, and
    # ten frames (a sixth of a second at 60 fps) are enough to act on it.
    assert [window.adapt(22.0 if i == 4 else 8.0) for i in range(Budget.DECIDE)][-1]
    smaller = window.scene_size
    assert smaller[0] * smaller[1] < start[0] * start[1]
    for _ in range(50 * Budget.DECIDE):
        window.adapt(40.0)
    floor = window.scene_size
    assert floor[0] * floor[1] >= SOFTWARE_PIXELS * Budget.MIN_PART * 0.95
    for _ in range(50 * Budget.DECIDE):  # quick frames: back up, but not past the default
        window.adapt(2.0)
    assert window.scene_size == start
    # steady frames inside the budget change nothing
    assert not any(window.adapt(12.0) for _ in range(10 * Budget.DECIDE))
    app.tick(DT)


def test_the_pixel_budget_cuts_the_rooms_part_of_the_frame_at_once():
    from anabasis.app.shell.window import FRAME_MS, Budget

    def looks(b, ms, n=Budget.DECIDE):
        return [b.note(ms, now=0.01 * i) for i in range(n)]

    # Frames of 20 ms, 6 of which no pixel count changes: the room's 14 ms is cut to the
    # 7.3 ms left under 0.8 of a frame in one look (by at most a third without the 6 ms).
    measured, blind = Budget(90_000), Budget(90_000)
    for _ in range(8):
        measured.note_fixed(6.0)
    assert looks(measured, 20.0)[-1] == int(90_000 * (FRAME_MS * 0.8 - 6.0) / 14.0)
    assert looks(blind, 20.0)[-1] == int(90_000 * 0.67)
    # a fixed part over the whole target: the fewest pixels, and back up once frames are quick
    heavy = Budget(90_000)
    for _ in range(8):
        heavy.note_fixed(15.0)
    assert looks(heavy, 20.0)[-1] == int(90_000 * Budget.MIN_PART)
    for _ in range(30):
        looks(heavy, 3.0, Budget.RECENT)
    assert heavy.pixels == 90_000


def test_a_frame_that_traced_the_room_leaves_a_new_hud_to_the_next(make_app):
    app = make_app(open_level(1))
    if not app.window.software:
        pytest.skip("one costly thing a frame is for software GL")
    settle(app)
    ov = app.overlay
    version, moves = ov.version, app.scene.game.moves
    press(app, pygame.K_DOWN)  # a step: the room is traced, and the moves line changes
    assert app.scene.game.moves == moves + 1
    assert app.traced and ov.held and ov.version == version  # the last HUD over the new room
    app.tick(DT)  # the step's animation traces this frame too: the HUD waits no longer
    assert app.traced and not ov.held and ov.version == version + 1
    settle(app)
    version = ov.version
    app.open(open_level(2))  # a new scene's first frame: its own HUD, never the last one's
    app.tick(DT)
    assert app.traced and not ov.held and ov.version > version


def test_the_hud_is_blended_only_where_it_has_anything(make_app):
    import numpy as np

    app = make_app(open_level(1))
    settle(app)
    ov, window = app.overlay, app.window
    W, H = ov.size
    inside = np.zeros((W, H), bool)
    for x, y, w, h in ov.rects:
        inside[x:x + w, y:y + h] = True
    # the HUD's panels, not the window (a quarter of it at 1280 x 720; more of this small one)
    assert 0 < inside.mean() < 0.75
    alpha = pygame.surfarray.array_alpha(ov.surface)
    assert alpha.any() and not alpha[~inside].any()  # everything drawn lies in a rectangle
    # A mark drawn on the HUD shows in the window where it was drawn, and nowhere else.
    ov.begin(("a mark",))
    ov.panel(pygame.Rect(300, 260, 40, 30), (255, 0, 255, 255), 0)
    ov.upload()
    assert ov.rects == [(288, 256, 64, 64)]
    assert window.present(ov.texture, ov.rects, ov.version)
    rgb = pygame.surfarray.array3d(window.read_screen()).astype(int)
    magenta = (rgb[..., 0] > 240) & (rgb[..., 1] < 15) & (rgb[..., 2] > 240)
    assert magenta[300:340, 260:290].all() and magenta.sum() == 40 * 30


def test_a_small_room_reaches_a_big_window_in_two_steps_that_look_the_same(make_app):
    app = make_app(open_level(3))
    window = app.window
    if not window.software:
        pytest.skip("the two steps are for software GL")
    assert not window.two_step  # at its default size the room is over half the window's
    window.pixel_budget = 20_000  # as a busy machine leaves it: under half, each way
    window._fit()
    assert window.two_step and window.scene_size[0] < window.size[0] // 2
    settle(app)
    app.tick(DT)
    two = pygame.surfarray.array3d(window.read_screen()).astype(int)  # (W, H, 3)
    window.two_step = False  # the same frame scaled up in one step
    window.dirty = True
    window.present(app.overlay.texture, app.overlay.rects, app.overlay.version)
    one = pygame.surfarray.array3d(window.read_screen()).astype(int)
    hud = np.zeros(two.shape[:2], bool)
    for x, y, w, h in app.overlay.rects:
        hud[x:x + w, y:y + h] = True
    room = ~hud[0::2, 0::2] & ~hud[1::2, 1::2]
    # the last step doubles pixels: 2 x 2 blocks over the room, which the one step has not
    blocks = ((two[0::2, 0::2] == two[1::2, 0::2]).all(-1)
              & (two[0::2, 0::2] == two[0::2, 1::2]).all(-1)
              & (two[0::2, 0::2] == two[1::2, 1::2]).all(-1))
    assert blocks[room].mean() > 0.999
    diff = np.abs(two - one)
    assert diff.mean() < 1.0 and np.percentile(diff, 99) < 16  # and the picture the same
    assert (one != two).any()


def test_the_hud_keeps_the_lines_it_drew_and_forgets_them_in_bulk(make_app):
    from anabasis.app.shell.overlay import Fonts

    app = make_app(open_level(1))
    fonts = app.overlay.fonts
    line = fonts.drawn("par 6", 20, (1, 2, 3), True)
    assert fonts.drawn("par 6", 20, (1, 2, 3), True) is line  # drawn once
    assert fonts.drawn("par 6", 20, (1, 2, 4), True) is not line
    assert fonts.width("par 6", 20) == line[0].get_width() == fonts.get(20).size("par 6")[0]
    assert fonts.wrapped("up down", 20, 1) == ("up", "down")
    for i in range(Fonts.KEPT + 1):
        fonts.width(str(i), 20)
    assert 0 < len(fonts._widths) <= Fonts.KEPT


def test_after_frame_runs_once_the_frame_is_shown(make_app):
    app = make_app(open_level(1))
    ran = []
    app.after_frame(lambda: ran.append((app.frames, app.window.swapped)))
    frames = app.frames
    app.tick(DT)
    assert ran == [(frames + 1, app.window.swapped)]  # after the frame's flip
    app.tick(DT)
    assert len(ran) == 1  # once


def test_a_frame_with_nothing_new_draws_and_swaps_nothing(make_app):
    app = make_app(open_level(1))
    settle(app)
    app.tick(DT)
    app.tick(DT)
    assert not app.window.swapped  # nothing moved, the HUD is the same: the window keeps it
    press(app, pygame.K_h)  # the help: the HUD changes
    assert app.window.swapped and not app.traced  # shown, without tracing the room again
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    app.tick(DT)
    assert app.window.swapped  # uncovered: drawn again


def test_the_command_line_names_rooms_before_any_window():
    from anabasis.app import opened_from_args
    from anabasis.formats import codes

    def opened(*argv):
        return opened_from_args(build_parser().parse_args(list(argv)))

    assert opened() is None  # the launcher
    assert opened("--level", "3").level == 3
    two = opened("--level", "2.4")  # a later chapter's level, by chapter and number
    assert (two.chapter, two.level) == (2, 4)
    assert two.room == levels.load_from(2, 4)
    room = levels.load_level(4)
    by_code = opened("--room", codes.encode(room))
    assert by_code.kind == "room" and by_code.room.cells == room.cells
    with pytest.raises(OpenError):
        opened("--level", "2", "--room", codes.encode(room))
    made = opened("--gen", "easy.k")
    assert made.kind == "gen" and made.tier == "easy" and made.room.view == "both"
    daily = opened("--daily", "2026-11-29")
    assert daily.kind == "daily" and "2026-11-29" in daily.title
    for bad in (("--gen", "weird.1"), ("--gen", "easy"), ("--daily", "2026-13-45")):
        with pytest.raises(OpenError):
            opened(*bad)
    with pytest.raises(OpenError, match="YYYY-MM-DD, or nothing for today"):
        opened("--daily", " ")
    with pytest.raises(OpenError, match="^the room code is empty"):
        opened("--room", "  ")
    assert not pygame.display.get_init()


def test_without_a_display_the_game_says_so_instead_of_running_unseen():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    run = subprocess.run([sys.executable, "-m", "anabasis", "--level", "1"],
                         capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 2
    assert "no display" in run.stderr or "OpenGL" in run.stderr


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


def assert_u_undoes_and_z_does_not(app, play):
    """After one move, Z (undo's default) does nothing and U undoes it."""
    press(app, arrow_for(play, solver.solve(play.room).moves[0]))
    settle(app)
    assert play.game.moves == 1
    press(app, pygame.K_z)  # no longer undo
    assert play.game.moves == 1
    press(app, pygame.K_u)
    assert play.game.moves == 0


def test_saved_key_bindings_are_used(make_app, tmp_path):
    saved = progress_mod.Progress.load(tmp_path)
    saved.keys["undo"] = ["u"]
    saved.keys["turn"] = ["t"]
    saved.save()
    app = make_app(open_level(1))
    play = app.scene
    assert_u_undoes_and_z_does_not(app, play)
    press(app, pygame.K_t)
    settle(app)
    assert play.sight.view == "w-up"


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


def test_once_the_launcher_has_warmed_up_no_room_compiles_a_shader(make_app):
    from anabasis.picture import render

    app = make_app()
    for _ in range(400):  # idle launcher frames compile the variants, one a frame
        app.tick(DT)
        if app.warmer is not None and app.warmer.done:
            break
    assert app.warmer.done, "the launcher never finished warming up"
    compiled = render.compiled_variants(app.ctx)
    for n in (5, 7):  # crates; a wrapped room (a variant of its own)
        press(app, pygame.K_0 + n)
        play = app.scene
        assert isinstance(play, Play) and play.opened.level == n
        assert all(play.renderer.has_program_for(p)
                   for _, poses in play.draw.warmer.plan for p in poses)
        for move in solver.solve(play.room).moves:
            press(app, arrow_for(play, move))
            settle(app)
        assert play.won
        press(app, pygame.K_ESCAPE)
    assert render.compiled_variants(app.ctx) == compiled


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
    w, h = app.window.scene_size
    fitted = views.frame_room(play.sight.camera, views.view_basis("w-up"), play.room.size,
                              play.state.player, w / h, play.room.wrap)
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


def test_the_launcher_opens_on_the_first_level_not_yet_solved(make_app, tmp_path):
    saved = progress_mod.Progress.load(tmp_path)
    for n in (1, 2):
        saved.record(f"level:{n}", levels.load_level(n).par)
    saved.save()
    app = make_app()
    assert isinstance(app.scene, Launcher) and app.scene.selected == 2
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, Play) and app.scene.opened.level == 3
    # each time it opens again, whichever room was left: level 1 and 5 alike
    for digit in (pygame.K_1, pygame.K_5):
        press(app, pygame.K_ESCAPE)
        assert isinstance(app.scene, Launcher) and app.scene.selected == 2
        press(app, digit)
        assert isinstance(app.scene, Play)
    press(app, pygame.K_ESCAPE)
    assert app.scene.selected == 2


def test_a_level_won_with_hints_moves_the_launcher_on_but_is_still_to_solve(make_app, tmp_path):
    saved = progress_mod.Progress.load(tmp_path)
    saved.record("level:1", levels.load_level(1).par)
    saved.record("level:2", levels.load_level(2).par + 3, hints=2)  # won, with two hints
    saved.save()
    app = make_app()
    assert isinstance(app.scene, Launcher) and app.scene.selected == 2  # on to level 3
    for n in range(3, levels.count() + 1):  # every other level won without help
        app.progress.record(f"level:{n}", levels.load_level(n).par)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, Launcher) and app.scene.selected == 1  # level 2, to solve alone


def test_a_window_opens_after_a_headless_context(display):
    # A headless EGL context left current made glXMakeCurrent fail with
    # BadAccess, and Xlib then ended the whole process without a word; run it
    # in a child so that a regression fails this test instead of the session.
    code = (
        "from anabasis.picture import render\n"
        "from anabasis.app.shell.window import Window\n"
        "headless = render.headless_context()\n"
        "window = Window((480, 270), vsync=False)\n"
        "window.ctx.clear(1.0, 0.0, 0.0)\n"
        "print('opened', window.ctx.screen.read(viewport=(0, 0, 1, 1)).hex())\n"
        "window.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "DISPLAY": display})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-2:] == ["opened", "ff0000"]


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


# -- the keys screen -------------------------------------------------------------------


def open_keys_screen(app):
    """From the launcher, by keys: Up twice (past quit) to "keys…", Enter."""
    from anabasis.app.menus.keys_screen import KeysScreen

    launcher = app.scene
    assert isinstance(launcher, Launcher)
    launcher.selected = 0
    press(app, pygame.K_UP)
    press(app, pygame.K_UP)
    assert launcher.items[launcher.selected].action == ("keys",)
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, KeysScreen)
    return app.scene


def choose(app, action):
    """Down the keys screen's list to ``action``."""
    screen = app.scene
    for _ in range(len(screen.items)):
        if screen.items[screen.selected] == action:
            return
        press(app, pygame.K_DOWN)
    raise AssertionError(f"no line for {action}")


def test_the_keys_screen_rebinds_undo_for_play_and_keeps_it(make_app, tmp_path):
    app = make_app()
    screen = open_keys_screen(app)
    assert screen.items[:len(progress_mod.DEFAULT_KEYS)] == list(progress_mod.DEFAULT_KEYS)
    choose(app, "undo")
    press(app, pygame.K_RETURN)
    assert screen.capturing
    press(app, pygame.K_u)
    assert not screen.capturing and "undo: U" in screen.status
    assert app.progress.keys["undo"] == ["u"]
    assert progress_mod.Progress.load(tmp_path).keys["undo"] == ["u"]  # saved at once
    press(app, pygame.K_ESCAPE)  # back to the launcher, on "keys…"
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    assert launcher.items[launcher.selected].action == ("keys",)
    launcher.activate(0)
    play = app.scene
    assert isinstance(play, Play)
    assert_u_undoes_and_z_does_not(app, play)
    # a restart of the game: the binding is read back from the data dir
    app.close()
    again = make_app(open_level(1))
    assert again.action_for(pygame.K_u) == "undo" and again.action_for(pygame.K_z) is None


def test_a_key_another_action_has_is_moved_and_defaults_come_back(make_app, tmp_path):
    app = make_app()
    screen = open_keys_screen(app)
    choose(app, "undo")
    press(app, pygame.K_RETURN)
    press(app, pygame.K_r)  # restart's key
    assert app.progress.keys["undo"] == ["r"] and app.progress.keys["restart"] == []
    assert "R moved from restart" in screen.status and "no key" in screen.status
    assert app.action_for(pygame.K_r) == "undo"
    # Esc while waiting cancels and binds nothing; Esc itself cannot be taken from back
    press(app, pygame.K_RETURN)
    press(app, pygame.K_ESCAPE)
    assert not screen.capturing and isinstance(app.scene, type(screen))
    assert app.progress.keys["undo"] == ["r"] and app.action_for(pygame.K_ESCAPE) == "back"
    # F11 while waiting is a key to bind, not fullscreen; Ctrl is passed over (Ctrl+Q's)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_LCTRL)
    assert screen.capturing
    press(app, pygame.K_F11)
    assert not app.window.fullscreen and app.progress.keys["undo"] == ["f11"]
    assert "F11 moved from fullscreen" in screen.status
    # Backspace: undo back to its defaults (R is no one's now)
    press(app, pygame.K_BACKSPACE)
    assert app.progress.keys["undo"] == ["z", "backspace"]
    assert app.action_for(pygame.K_z) == "undo" and app.action_for(pygame.K_r) is None
    # "reset all" (by a click, as Enter) puts every action back, saved
    choose(app, "reset all")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                         pos=screen.rects[screen.selected].center))
    app.tick(DT)
    assert app.progress.keys == progress_mod.DEFAULT_KEYS
    assert progress_mod.Progress.load(tmp_path).keys == progress_mod.DEFAULT_KEYS
    assert app.action_for(pygame.K_r) == "restart" and app.action_for(pygame.K_F11) == "fullscreen"
    # a click on an action's line waits for its key, like Enter
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                         pos=screen.rects[1].center))
    app.tick(DT)
    assert screen.capturing and screen.selected == 1


def test_the_launcher_arrows_keep_their_meaning_when_rebound(make_app):
    app = make_app()
    open_keys_screen(app)
    choose(app, "up")
    press(app, pygame.K_RETURN)
    press(app, pygame.K_i)
    choose(app, "left")
    press(app, pygame.K_RETURN)
    press(app, pygame.K_j)
    assert app.action_for(pygame.K_UP) is None and app.action_for(pygame.K_LEFT) is None
    press(app, pygame.K_ESCAPE)
    launcher = app.scene
    launcher.selected = 1
    press(app, pygame.K_UP)
    assert launcher.selected == 0
    press(app, pygame.K_i)  # the new key moves too
    assert launcher.selected == len(launcher.items) - 1
    press(app, pygame.K_LEFT)  # to the levels' column
    assert launcher.items[launcher.selected].action[0] == "level"


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


def _marks(app):
    play = app.scene
    return markers.find(play.room, play.state, play.pose().player, play.sight.basis(),
                        play.sight.camera, app.overlay.size)


def test_out_of_slice_marks_say_which_way_in_each_view(make_app):
    app = make_app(open_level(2))  # the goal is a slice kata of the start, two rows on in y
    app.view_tips = 0  # (a tip's panel would lie over the mark)
    play = app.scene
    seen = {}
    for view in ("stand", "w-up", "both"):
        assert play.sight.view == view
        seen[view] = [(m.what, m.label) for m in _marks(app)]
        for m in _marks(app):
            # drawn where it would stand were it in the slice: the mark's colour is there
            x, y = (int(c) for c in m.at)
            near = [app.overlay.surface.get_at((x + dx, y + dy))[:3]
                    for dx in range(-12, 13) for dy in range(-12, 13)]
            assert markers.GOAL_COLOUR in near
        press(app, pygame.K_v)
        settle(app)
    # w hidden: a slice kata; z hidden: in the slice (drawn, no mark); y hidden: two rows +y
    assert seen == {"stand": [("goal", "1 kata")], "w-up": [], "both": [("goal", "2 +y")]}
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


# -- cues: each thing a move does, shown, said and heard -------------------------------

#: A room to drop a crate out of: pushed right, it falls off the floor and out the bottom.
CRATE_OUT = "#### ####\n\n##.# @$.*\n"


def cued(app, move=None, key=None):
    """The cues one key fires (an arrow meaning ``move``, or ``key``), played to rest."""
    play = app.scene
    play.fired.clear()
    played = len(app.sound.played)
    press(app, arrow_for(play, move) if move else key)
    settle(app)
    fired = list(play.fired)
    # every cue is heard too (or would be: the sounds asked for are the cues' own)
    assert list(app.sound.played)[played:] == [cues.SOUND.get(k, k) for k in fired]
    return fired


def test_each_cue_comes_from_its_move_and_no_other(make_app, monkeypatch, capfd):
    # with no audio device at all: the game plays in silence and says nothing of it
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "none")
    app = make_app(open_level(1))
    assert not app.sound.available
    play = app.scene
    # a step that is not a move: a half-step toward the wall and back, and why, once
    start = play.game.state
    press(app, arrow_for(play, "L"))
    reach = []
    while play.busy:
        reach.append(play.pose().player[0] - start.player[0])
        app.tick(DT)
    assert min(reach) < -0.2 and play.pose().player == tuple(map(float, start.player))
    assert (play.game.state, play.game.moves) == (start, 0)
    assert list(play.fired) == ["bump"] and play.message == "the room ends here"
    play.message_left = 0
    assert cued(app, "U") == ["bump"] and play.message_left <= 0  # said once a session
    assert cued(app, "R") == ["step", "fall"]  # off the block kata of you: out, undone
    assert play.game.state == start
    # the rest of level 1's cues, level 2's slip and level 3's ramps are recorded play:
    # tests/play/level-1-cues.txt, level-2-slip.txt, level-3-ramps.txt
    # a push, and a crate landing in the gap: marked with a ring where it lands
    app.open(open_level(5))
    play = app.scene
    assert cued(app, "D") == ["step"]
    assert cued(app, "R") == ["push"]
    press(app, arrow_for(play, "R"))
    while play.busy:
        app.tick(DT)
    assert list(play.fired)[-2:] == ["push", "land"] and play.rings
    cell = play.rings[0][0]
    assert cell in play.state.crates
    x, y, _ = markers.project(cell, play.pose().player, play.sight.basis(), play.sight.camera,
                              app.overlay.size)
    app.tick(DT)
    ring = [app.overlay.surface.get_at((int(x + dx), int(y + dy)))[:3]
            for dx in range(-40, 41, 2) for dy in range(-40, 41, 2)]
    assert markers.CRATE_COLOUR in ring
    # a crate pushed off the floor falls out of the room
    app.open(Opened(levelfile.parse(CRATE_OUT), "room", "a drop"))
    play = app.scene
    assert cued(app, "R") == ["push", "crate-out"] and not play.state.crates
    assert play.message == "the crate fell out of the room"
    app.close()
    assert capfd.readouterr().err == ""


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


def test_the_launcher_redraws_for_its_status_line(make_app):
    app = make_app()
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    app.tick(DT)
    launcher.say("a status line to read")
    app.tick(DT)
    app.tick(DT)  # (a frame that warmed a variant leaves a new HUD to the next)
    assert "a status line to read" in app.overlay.written
    launcher.say("another one")
    app.tick(DT)
    app.tick(DT)
    assert "another one" in app.overlay.written
    assert "a status line to read" not in app.overlay.written
