"""The launcher in the real window: opening levels and codes, its warm-up, where it opens,
its status line.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import pygame
from conftest import DT
from window import arrow_for, open_code_box, press, settle

from anabasis.app.menus.launcher import Launcher
from anabasis.app.play.scene import Play
from anabasis.app.settings import progress as progress_mod
from anabasis.app.settings.progress import level_key
from anabasis.engine import solver
from anabasis.formats import levelfile, levels


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


def test_the_help_opens_over_the_launcher_as_in_a_room(make_app):
    """A blind player pressed H in the launcher, before a room, to read the rules, and
    nothing came (t313).  H there opens the game's help, its rules and its marks, as a room
    shows it (and its key line says so): the arrows across turn its pages, H turns them and
    closes it after the last, any other key closes it and does nothing else (Esc does not
    quit; Enter opens nothing)."""
    from anabasis.app.play import hud, legend

    app = make_app(size=(1280, 720))
    launcher = app.scene
    app.tick(DT)
    assert "H help" in " ".join(app.overlay.written)
    press(app, pygame.K_h)
    app.tick(DT)
    written = " ".join(app.overlay.written)
    assert "The rules" in written and "Controls" in written and "page 1 of" in written
    assert "not in this one" not in written  # (no room open: where the hook is, alone)
    press(app, pygame.K_RIGHT)
    app.tick(DT)
    assert legend.PAGE_TITLES[0] in " ".join(app.overlay.written)
    assert launcher.selected == 0  # (the arrows turned the page, not the menu's columns)
    press(app, pygame.K_LEFT)
    assert launcher.help_page == 0
    for _ in range(hud.HELP_PAGES):
        press(app, pygame.K_h)
    assert launcher.help_page is None and app.scene is launcher  # past the last: closed
    for key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_k):
        press(app, pygame.K_h)
        assert launcher.help_page == 0
        press(app, key)
        assert launcher.help_page is None and app.scene is launcher and app.running, key
    app.tick(DT)
    assert "The rules" not in " ".join(app.overlay.written)


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
    # a made room opens in the stand view (every blind player switched to it from the both
    # view, where the up and down arrows step along w and move nothing)
    assert play.sight.view == "stand"
    assert play.opened.code and play.opened.key == f"room:{play.opened.code}"


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


# -- the level lines: read from the headers at once, the maps checked a level a frame --------


def _every_level_solved(tmp_path):
    saved = progress_mod.Progress.load(tmp_path)
    for chapter in levels.chapters():
        for n in range(1, len(chapter) + 1):
            saved.solved.add(level_key(n, chapter.number))
    saved.save()


def test_the_first_frame_lists_every_open_level_from_its_header_alone(make_app, tmp_path):
    _every_level_solved(tmp_path)  # every chapter open: every level on the list
    app = make_app()
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    shipped = [(chapter, n) for chapter in levels.chapters()
               for n in range(1, len(chapter) + 1)]
    lines = {item.action: item for item in launcher.items if item.action[0] == "level"}
    assert len(lines) == len(shipped) > 7
    for chapter, n in shipped:
        room = levelfile.load(chapter.level_path(n))  # the whole file, as it used to be read
        item = lines[("level", n) if chapter.number == 1 else ("level", n, chapter.number)]
        label = str(n) if chapter.number == 1 else f"{chapter.number}.{n}"
        assert item.label == f"{label}  {room.name}" and item.detail == room.teaches
        assert item.right.startswith(f"par {room.par}")
    # the first frame read no map: each is checked after it, a level a frame
    assert len(launcher._unchecked) == len(shipped)
    before = list(launcher.items)
    for _ in range(len(shipped) + 2):
        app.tick(DT)
    assert launcher._unchecked == [] and launcher.items == before  # the shipped levels hold


def test_a_level_whose_map_is_refused_is_marked_unreadable_and_never_opened(make_app, tmp_path):
    folder = tmp_path / "levels"
    folder.mkdir()
    (folder / "01-good.txt").write_text(levelfile.write(levels.load_level(1)), encoding="utf-8")
    (folder / "02-bad.txt").write_text("name: bad map\npar: 3\n\n#@*\nxyz\n", encoding="utf-8")
    app = make_app()
    launcher = Launcher(app, 0, levels.chapters(folder))
    app.switch(launcher)
    good, bad = launcher.items[0], launcher.items[1]
    assert bad.action == ("level", 2) and bad.label == "2  bad map"  # its header reads
    app.tick(DT)
    launcher.selected = 1
    press(app, pygame.K_RETURN)  # opened before its turn to be checked: checked now
    assert app.scene is launcher
    bad = launcher.items[1]
    assert bad.action == ("broken", 2) and bad.label == "2  (unreadable)"
    assert "02-bad.txt" in bad.detail
    for _ in range(3):
        app.tick(DT)
    assert launcher.items[0] == good and launcher._unchecked == []


def test_the_code_box_shows_the_code_in_groups_with_its_look_alikes_named(make_app):
    from anabasis.formats import codes

    app = make_app()
    launcher = open_code_box(app)
    code = codes.encode(levels.load_level(3))
    launcher.code_text = code
    app.tick(DT)
    app.tick(DT)
    shown = codes.display(code)
    assert shown.text + "_" in app.overlay.written or any(
        t.endswith("_") and shown.text.endswith(t[:-1]) and " " in t for t in app.overlay.written)
    if shown.legend:
        assert shown.legend in app.overlay.written


def test_the_code_box_opens_a_made_rooms_name_as_the_game_shows_it(make_app):
    """A made room is shown as ``hard.k3x9``; a player who types that name back (a friend's
    room, one played yesterday) gets that room, not "'.' is not in a room code"."""
    import time

    from anabasis import gen

    app = make_app()
    launcher = open_code_box(app)
    # a name that names no room says why, and the box stays open
    launcher.code_text = "hard.k3-x"
    press(app, pygame.K_RETURN)
    assert launcher.typing and "base-36" in launcher.error and not app.building
    launcher.code_text = "easy.16"
    app.tick(DT)
    assert "easy.16_" in app.overlay.written  # as typed, not in groups of four
    press(app, pygame.K_RETURN)
    assert not launcher.error and app.building
    deadline = time.monotonic() + 60
    while app.building and time.monotonic() < deadline:
        app.tick(DT)
    play = app.scene
    assert isinstance(play, Play) and play.opened.spec == gen.room_name("easy", 42)
    assert play.room.cells == gen.build("easy", 42).room.cells
    # Esc comes back on the code box's line, not the tier's: three blind players, back from
    # a room opened by its name, sat one Enter from a new random room
    press(app, pygame.K_ESCAPE)
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    assert launcher.items[launcher.selected].action == ("code",)


def test_every_tutorial_levels_line_is_written_whole_at_1280x720(make_app):
    """A level's line says what it teaches: cut off ("the ✕ cells have no…"), a blind player
    lost the end of level 1's.  At the window's usual size each of chapter 1's is whole."""
    app = make_app(size=(1280, 720))
    app.tick(DT)
    assert isinstance(app.scene, Launcher)
    written = app.overlay.written
    for n in range(1, levels.count() + 1):
        line = levels.load_level(n).teaches
        assert line in written, (n, line)
