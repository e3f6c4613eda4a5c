"""Keys and frames for the window tests that more than one test file drives (no test file
imports another's helpers: they live here)."""

from __future__ import annotations

import pygame
from conftest import DT

from anabasis.app.play.scene import Play
from anabasis.picture import views

KEYS = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT, "right": pygame.K_RIGHT}


def press(app, key, mod=0, unicode="", frames=1):
    """One key press and release, then ``frames`` frames."""
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=key, mod=mod, unicode=unicode,
                                             scancode=0))
    for _ in range(frames):
        app.tick(DT)


def settle(app, limit=400):
    """Step frames until the room is at rest (no turn, animation or queued input)."""
    for _ in range(limit):
        if not (isinstance(app.scene, Play) and app.scene.busy):
            return
        app.tick(DT)
    raise AssertionError("the game never came to rest")


def walk(app, moves):
    """Play ``moves`` (``"RRD"``) in the room open, each by its arrow, settled after each."""
    for move in moves:
        press(app, arrow_for(app.scene, move))
        settle(app)


def arrow_for(play, move):
    """The arrow key that means ``move`` on screen now."""
    for arrow, key in KEYS.items():
        if views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw, arrow) == move:
            return key
    raise AssertionError(f"no arrow means {move} in view {play.sight.view}")


def open_code_box(app):
    """In the launcher, choose "enter a code" (Enter on its line): the code box, typing."""
    launcher = app.scene
    launcher.selected = next(i for i, item in enumerate(launcher.items)
                             if item.action == ("code",))
    press(app, pygame.K_RETURN)
    assert launcher.typing
    return launcher


def win(app, limit=2000):
    """Play a shortest solution of the room on screen through the scene, ticking to the win
    panel: the scene, won."""
    from anabasis.engine import solver

    play = app.scene
    play.play_moves(solver.solve(play.room).moves)
    for _ in range(limit):
        if play.won:
            return play
        app.tick(DT)
    raise AssertionError("the room was never won")


def proved(app):
    """Frames until the editor's proofs are done; the proofs."""
    ed = app.scene
    ed.prover.wait()
    app.tick(DT)
    assert ed.proofs.done
    return ed.proofs


def edit(app, draft=None, save_to=None):
    """Open the editor on ``draft`` (a new room by default), saving to ``save_to``: the
    editor scene, a frame drawn."""
    from anabasis.app.editor.draft import Draft
    from anabasis.app.editor.scene import Editor, EditTarget

    app.edit(EditTarget(draft or Draft.new(), save_to))
    app.tick(DT)
    assert isinstance(app.scene, Editor)
    return app.scene


def safe_palette_in_play(app, play):
    """In play, choose the colour-blind-safe palette on the settings screen (O, down to
    the palette's line, right) and come back (Esc)."""
    from anabasis.app.menus.settings import SettingsScreen

    press(app, pygame.K_o)
    screen = app.scene
    assert isinstance(screen, SettingsScreen)
    while screen.items[screen.selected].name != "palette":
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_ESCAPE)
    assert app.scene is play and app.progress.palette == "safe"


def resize_window(app, size):
    """Resize the game's window as a player's drag would, then three frames."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    window.size = size
    for _ in range(3):
        app.tick(DT)


def rests_along(app, *more):
    """Each rest along the shortest way of the room open, then of each of ``more`` (an
    ``Opened``) opened in turn: ``(play, move)`` with the room settled, ``move`` played by
    its arrow once the caller has looked (each rest before the win's panel)."""
    from anabasis.engine import solver

    for opened in (None, *more):
        if opened is not None:
            app.open(opened)
        play = app.scene
        for move in solver.solve(play.room).moves:
            settle(app)
            yield play, move
            press(app, arrow_for(play, move))


#: The opening pitch over a tall room (more than 3 cells up) before it was made steeper (1.15):
#: the tests of what hides what were written for the scenes blind players met at it.
OLD_TALL_PITCH = 0.95


def old_room_camera(size, view, player, aspect: float = 16 / 9, wrap: bool = False):
    """The camera a tall room opened with at :data:`OLD_TALL_PITCH` (its yaw, framed)."""
    return views.frame_room(views.Camera(yaw=views.ROOM_YAW, pitch=OLD_TALL_PITCH),
                            views.view_basis(view), size, player, aspect, wrap)


def old_pitch(app) -> None:
    """The scene in ``app`` framed again from :data:`OLD_TALL_PITCH`, its yaw kept, and
    settled: a test's scene as a blind player met it."""
    from dataclasses import replace

    play = app.scene
    sight = play.sight
    camera = replace(sight.camera, pitch=OLD_TALL_PITCH)
    play.sight = replace(sight, camera=play._framing(replace(sight, camera=camera)))
    for _ in range(3):  # (the HUD drawn again for the new camera)
        app.tick(DT)
    settle(app)


def in_the_room(app):
    """The room in 3D: a made room opens on the large map (the setting ``map_opens``), and
    B gives the room back, as a player presses it."""
    play = app.scene
    if isinstance(play, Play) and play.reading.large:
        press(app, pygame.K_b)
        settle(app)
    assert not app.scene.reading.large


def marked(make_app, opened, size=(1280, 720)):
    """``opened`` open at ``size``, its step marks on and no view tips, settled: the app."""
    app = make_app(opened, size=size)
    app.view_tips = 0
    app.progress.step_marks = "on"
    app.scene.reading.settings_changed()
    settle(app)
    return app


def made_in_stand(make_app, spec: str):
    """The made room ``spec`` (``hard.lynx``) open at 1280 x 720 in the stand view, its step
    marks on and no view tips: ``(app, made)``."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made

    made = gen.build(*gen.parse_spec(spec))
    app = make_app(opened_made(made), size=(1280, 720))
    in_the_room(app)
    app.view_tips = 0
    app.progress.step_marks = "on"
    play = app.scene
    play.reading.settings_changed()
    while play.sight.view != "stand":
        press(app, pygame.K_v)
        settle(app)
    return app, made
