"""The editor as a designer meets it: brushes, the box, the mouse, proofs that explain,
whole codes, and rooms reopened from the launcher, from play and from their code.

The explanations are checked against the search they explain (a count of
shortest solutions against every move string of that length played out);
the window tests drive one :class:`~anabasis.app.routes.App` with posted key
presses and mouse events, as a player would, and read pixels back.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import open_app
from window import edit, proved

from anabasis.app.editor import pick
from anabasis.app.editor.draft import COLUMN, FLOOR, Draft
from anabasis.app.play import explain
from anabasis.app.play.proofs import prove
from anabasis.engine import rules
from anabasis.formats import codes, levelfile, levels

DT = 1 / 30
SIZE = (800, 450)

#: The designer's room: up a ramp, push the crate into the gap, over it to the goal
#: (5 x 1 x 2 x 2, par 4, needs ramps and crates).
DESIGNED = {
    (0, 0, 0, 0): ">", (1, 0, 0, 0): ">", (2, 0, 0, 0): ">", (4, 0, 0, 0): ">",
    (0, 0, 0, 1): "#", (2, 0, 0, 1): "#", (3, 0, 0, 1): ">", (4, 0, 0, 1): "#",
    (0, 0, 1, 0): "@", (4, 0, 1, 0): "$", (4, 0, 1, 1): "*",
}


def _last(text: str, **kw):
    *_, last = prove(text, **kw)
    return last


def _designed() -> Draft:
    d = Draft.new((5, 1, 2, 2))
    for pos, ch in DESIGNED.items():
        d = d.put(pos, ch)
    return d


# -- brushes and proofs, without a window -------------------------------------------------------


def test_the_floor_brush_puts_the_block_that_holds_you_from_kata():
    d, held = Draft.new((3, 1, 2, 3)).floor((1, 0, 0, 2))
    assert d.at((1, 0, 0, 2)) == "#" and held == (1, 0, 1, 1) and d.at(held) == "#"
    # the player put on it rests there: held from below and from kata
    d = d.put((1, 0, 1, 2), "@").put((0, 0, 1, 2), "*")
    room = d.room()
    assert rules.start(room).state.player == (1, 0, 1, 2)
    # with w up the hold is the block below of the cell ana of it
    d, held = Draft.new((3, 1, 2, 3)).floor((1, 0, 1, 0), up=3)
    assert held == (1, 0, 0, 1) and d.at(held) == "#"
    # at w = 0 nothing is kata: only the block, and the editor says so
    d, held = Draft.new((3, 1, 2, 3)).floor((1, 0, 0, 0))
    assert held is None and d.chars.count("#") == 1


def test_the_column_brush_puts_a_w_height():
    d = Draft.new((2, 1, 2, 4)).column((1, 0, 0, 2))
    assert [d.at((1, 0, 0, w)) for w in range(4)] == ["#", "#", "#", "."]
    assert d.chars.count("#") == 3


def _two_ways() -> Draft:
    """A flat 2 x 2 floor: the goal across the diagonal, RD and DR both win."""
    d = Draft.new((2, 2, 2, 2)).fill((0, 0, 0, 0), (1, 1, 1, 0), "#")
    d = d.fill((0, 0, 0, 1), (1, 1, 0, 1), "#")
    return d.put((0, 0, 1, 1), "@").put((1, 1, 1, 1), "*")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, "designed", "two ways"])
def test_the_count_of_shortest_solutions_is_every_move_string_that_wins(n):
    if n == "designed":
        room = _designed().room()
    elif n == "two ways":
        room = _two_ways().room()
    else:
        room = levels.load_level(n)
    proofs = _last(levelfile.write(room))
    wins = 0
    for moves in itertools.product("RLDU", repeat=proofs.par):
        if rules.replay(room, moves).status == "won":
            wins += 1
    assert proofs.shortest == wins >= 1
    if n == "two ways":
        assert wins == 2
    said = "the only shortest solution" if wins == 1 else f"{wins} shortest solutions"
    assert ("info", said) in proofs.lines()


def test_a_room_closed_off_is_impossible_even_walking_freely():
    d = _designed().put((3, 0, 1, 0), "#").put((3, 0, 1, 1), "#").put((4, 0, 1, 1), "*")
    d = d.put((3, 0, 0, 0), "#").put((3, 0, 0, 1), "#")
    proofs = _last(d.text())
    assert proofs.status == "impossible"
    assert proofs.reason.startswith("the goal is out of reach even walking freely")
    assert proofs.lines()[-1] == ("warn", proofs.reason)


def test_a_goal_above_every_ramp_is_out_of_reach_in_w():
    d = Draft.new((4, 1, 2, 3)).fill((0, 0, 0, 0), (3, 0, 1, 0), "#")
    d = d.fill((0, 0, 0, 1), (3, 0, 0, 2), "#")
    d = d.put((0, 0, 1, 1), "@").put((3, 0, 1, 2), "*")
    proofs = _last(d.text())
    assert proofs.status == "impossible"
    assert proofs.reason == ("the player cannot get above slice w = 1: only a ramp takes you "
                             "ana, and slice w = 1 has none")
    # a ramp in slice 1 lifts the bound: the reason is no longer a proof, and is not said
    room = d.put((1, 0, 0, 1), ">").room()
    assert explain.highest_w(room) == 2


def test_a_goal_with_no_floor_and_no_crate_holds_no_one():
    d = Draft.new((3, 1, 2, 2)).fill((0, 0, 0, 0), (2, 0, 1, 0), "#")
    d = d.fill((0, 0, 0, 1), (1, 0, 0, 1), "#").put((0, 0, 1, 1), "@").put((2, 0, 1, 1), "*")
    proofs = _last(d.text())
    assert proofs.status == "impossible" and proofs.reason.startswith(
        "nothing can hold the player in the goal")


def test_an_impossible_room_with_no_simple_reason_says_only_what_the_search_did():
    # the designed room with its crate taken away: the gap is never filled
    d = _designed().put((4, 0, 1, 0), ".")
    proofs = _last(d.text())
    assert proofs.status == "impossible" and proofs.reason == ""
    assert proofs.lines() == [("warn", f"impossible: {proofs.states:,} states searched")]


def test_the_designed_room_needs_a_ramp_and_a_crate():
    proofs = _last(_designed().text())
    assert proofs.status == "solved" and proofs.par == 4
    assert proofs.needs == ("ramps", "crates") and proofs.shortest == 1


def test_a_drags_line_steps_one_cell_at_a_time():
    cells = pick.line((0, 0, 0, 0), (4, 2, 0, 1))
    assert cells[0] == (0, 0, 0, 0) and cells[-1] == (4, 2, 0, 1)
    assert all(max(abs(a - b) for a, b in zip(p, q, strict=True)) == 1
               for p, q in itertools.pairwise(cells))


# -- the window ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(display, tmp_path_factory):
    app = open_app(SIZE, data_dir=tmp_path_factory.mktemp("data"))
    app.tick(DT)
    yield app
    app.close()


def post(kind, **kw):
    import pygame

    pygame.event.post(pygame.event.Event(kind, **kw))


def press(app, key, mod=0):
    import pygame

    post(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
    post(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
    app.tick(DT)


def keys(app, *names, mod=0):
    import pygame

    for name in names:
        press(app, pygame.key.key_code(name), mod)


def click(app, pixel, button=1):
    import pygame

    pixel = tuple(int(round(c)) for c in pixel)
    post(pygame.MOUSEMOTION, pos=pixel, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=pixel, button=button)
    post(pygame.MOUSEBUTTONUP, pos=pixel, button=button)
    app.tick(DT)


def type_text(app, key_name, text):
    """N or T, then ``text`` typed, then Enter."""
    import pygame

    post(pygame.KEYDOWN, key=pygame.key.key_code(key_name), mod=0, unicode=key_name,
         scancode=0)
    app.tick(DT)
    post(pygame.TEXTINPUT, text=text)
    press(app, pygame.K_RETURN)


def face_pixel(ed, cell, face):
    """The window pixel of the centre of ``cell``'s face that steps out along ``face``."""
    point = np.asarray(cell, float) + 0.5 + 0.5 * np.asarray(face, float)
    s = ed.sight.basis()[:, :3].T @ (point - (np.asarray(ed.cursor, float) + 0.5))
    return ed.project(s, SIZE)


def shot(app):
    import pygame

    for _ in range(2):
        app.tick(DT)
    return np.frombuffer(pygame.image.tobytes(app.window.read_screen(), "RGB"),
                         np.uint8).reshape(SIZE[1], SIZE[0], 3).astype(int)


def near_colour(img, colour, tol=30) -> int:
    return int((np.abs(img - np.asarray(colour)).max(axis=2) < tol).sum())


def ground(size=(5, 3, 2, 2)) -> Draft:
    """A slab of blocks at z = 0 in every slice, the player on it at w = 1."""
    d = Draft.new(size)
    X, Y, _, W = size
    for w in range(W):
        d = d.fill((0, 0, 0, w), (X - 1, Y - 1, 0, w), "#")
    return d.put((0, 0, 1, 1), "@").put((X - 1, Y - 1, 1, 1), "*")


def test_floor_and_column_brushes_by_their_keys(app):
    ed = edit(app, Draft.new((3, 1, 3, 3)))
    keys(app, "]", "]", "9")  # the floor brush at (0, 0, 0, 2)
    assert ed.brush == FLOOR and ed.draft.at((0, 0, 0, 2)) == "#"
    assert ed.draft.at((0, 0, 1, 1)) == "#"  # what holds the one standing on it
    keys(app, "right", "k")  # the column brush: w 0 to 2 at (1, 0, 0)
    assert ed.brush == COLUMN
    assert [ed.draft.at((1, 0, 0, w)) for w in range(3)] == ["#"] * 3
    keys(app, "right", "[", "[", "9")  # at w = 0 nothing is kata: said
    assert ed.draft.at((2, 0, 0, 0)) == "#" and "nothing can hold" in ed.message


def test_the_box_shows_is_unmarked_after_f_and_says_when_it_reaches_hidden_slices(app):
    from anabasis.app.editor import hud

    ed = edit(app, Draft.new((4, 3, 2, 3)))
    before = near_colour(shot(app), hud.BOX_COLOUR)
    keys(app, "space")  # a one-cell box: drawn round the cursor, and said
    assert ed.mark == ed.cursor and ed.box_line().startswith("box: 1 x 1 x 1 x 1 = 1 cell")
    assert near_colour(shot(app), hud.BOX_COLOUR) > before + 20
    keys(app, "right", "1", "f")  # F: filled with the brush, then unmarked
    assert ed.mark is None and ed.draft.chars.count("#") == 2
    assert ed.box_line().startswith("no box")
    keys(app, "x")  # X with no box reaches back to nothing
    assert ed.draft.chars.count("#") == 2 and "mark a corner" in ed.message
    # a box along w, with w hidden (stand): the message says it reaches other slices
    keys(app, "space", "]", "]", "f")
    assert ed.mark is None
    assert "it reaches w 0 to 2, and only w 2 is shown" in ed.message
    assert all(ed.draft.at((1, 0, 0, w)) == "#" for w in range(3))


def test_the_mouse_hovers_paints_clears_and_drags_a_line(app):
    from anabasis.app.editor import hud

    ed = edit(app, ground())
    assert ed.cursor == (0, 0, 1, 1)
    top = face_pixel(ed, (2, 1, 0, 1), (0, 0, 1, 0))  # the top of the block at (2, 1, 0, 1)
    import pygame

    post(pygame.MOUSEMOTION, pos=tuple(int(round(c)) for c in top), rel=(0, 0),
         buttons=(0, 0, 0))
    app.tick(DT)
    assert ed.hover.cell == (2, 1, 0, 1) and ed.hover.face == (0, 0, 1, 0)
    assert ed.hover_cell == (2, 1, 1, 1)  # where a click paints: on top of it
    assert near_colour(shot(app), hud.HOVER_COLOUR) > 20
    shot(app)
    click(app, next(r for r, kind in ed.palette_rects if kind == "$").center)
    assert ed.brush == "$"
    depth = ed.history.depth[0]
    click(app, top)
    assert ed.draft.at((2, 1, 1, 1)) == "$" and ed.cursor == (0, 0, 1, 1)
    click(app, face_pixel(ed, (2, 1, 1, 1), (0, 0, 1, 0)), button=3)  # right: clears it
    assert ed.draft.at((2, 1, 1, 1)) == "."
    assert ed.history.depth[0] == depth + 2
    # a drag: a line of crates along the layer it began on, one undo step
    a = face_pixel(ed, (1, 2, 0, 1), (0, 0, 1, 0))
    b = face_pixel(ed, (4, 2, 0, 1), (0, 0, 1, 0))
    a, b = (tuple(int(round(c)) for c in p) for p in (a, b))
    post(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
    app.tick(DT)
    for k in range(1, 6):
        p = (a[0] + (b[0] - a[0]) * k // 5, a[1] + (b[1] - a[1]) * k // 5)
        post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
        app.tick(DT)
    post(pygame.MOUSEBUTTONUP, pos=b, button=1)
    app.tick(DT)
    # (the goal was at the end: the crate stands in it)
    assert [ed.draft.at((x, 2, 1, 1)) for x in range(1, 5)] == ["$", "$", "$", "%"]
    assert ed.history.depth[0] == depth + 3
    keys(app, "z")
    assert all(ed.draft.at((x, 2, 1, 1)) in ".*" for x in range(1, 5))
    # a click on a panel of the HUD paints nothing behind it
    chars = ed.draft.chars
    for rect in ed.panel_rects:
        click(app, (rect.centerx + 7, rect.centery))
    assert ed.draft.chars == chars
    # a drag that starts off the room turns the camera, and paints nothing
    yaw, chars = ed.sight.camera.yaw, ed.draft.chars
    post(pygame.MOUSEBUTTONDOWN, pos=(5, 200), button=1)
    post(pygame.MOUSEMOTION, pos=(60, 200), rel=(55, 0), buttons=(1, 0, 0))
    post(pygame.MOUSEBUTTONUP, pos=(60, 200), button=1)
    app.tick(DT)
    assert ed.sight.camera.yaw != yaw and ed.draft.chars == chars


def test_help_and_f1_show_the_editors_help_and_any_key_closes_it(app):
    import pygame

    ed = edit(app, ground())
    plain = shot(app)
    for key in (pygame.K_h, pygame.K_F1):
        press(app, key)
        assert ed.help
        helped = shot(app)
        assert np.abs(helped - plain).max(axis=2).astype(bool).mean() > 0.3
        chars = ed.draft.chars
        press(app, pygame.K_1)  # closes it, and puts nothing
        assert not ed.help and ed.draft.chars == chars


def test_hovering_the_hooks_line_says_what_it_means(app):
    from anabasis.app.editor import hud

    ed = edit(app, Draft.of_room(levels.load_level(6)))
    proved(app)
    shot(app)
    rect = next(r for r, _, text in ed.proof_rects if "the hook" in text)
    import pygame

    post(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0))
    app.tick(DT)
    assert hud._tip_of(ed) == hud.HOOK_TEXT
    assert "shortest solution would be N moves shorter" in hud.HOOK_TEXT
    assert any(hud.HOOK_TEXT[1:] in line for line in hud.HELP_LINES)
    img = shot(app)
    post(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0))
    assert np.abs(img - shot(app)).max() > 0  # the tip was drawn, and is gone


def test_an_impossible_room_is_saved_only_when_asked_twice(app, tmp_path):
    import pygame

    path = tmp_path / "stuck.txt"
    ed = edit(app, _designed().put((4, 0, 1, 0), "."), path)
    proved(app)
    press(app, pygame.K_s)
    assert not path.exists() and "cannot be won" in ed.message and "S again" in ed.message
    press(app, pygame.K_s)
    assert path.exists() and not ed.unsaved
    # C too: the first press warns, the second copies (or shows the code)
    press(app, pygame.K_c)
    assert "C again" in ed.message and ed.last_code == ""
    press(app, pygame.K_c)
    assert ed.last_code == codes.encode(ed.draft.room(), named=True)


def test_a_drafts_refusal_is_in_plain_words(app):
    from anabasis.app.settings.rooms import plain

    ed = edit(app, _designed().put((0, 0, 1, 0), "."))
    proofs = proved(app)
    assert proofs.refusal.startswith(ed.save_path().name + ":")  # the parser's own line
    assert ed.room() is None
    assert ed.message == "not a room yet: the map has no player '@'"
    assert plain(proofs.refusal) == "the map has no player '@'"


def test_the_code_shown_whole_in_its_field_and_written_beside_the_save(app, tmp_path):
    import pygame

    from anabasis.app.editor import hud

    path = tmp_path / "designed.txt"
    ed = edit(app, _designed(), path)
    proved(app)
    press(app, pygame.K_c, pygame.KMOD_LSHIFT)  # Shift+C: show the code, clipboard or not
    code = codes.encode(ed.draft.room(), named=True)
    assert ed.code_shown == code
    assert ed.code_file == tmp_path / "designed.code.txt"
    assert ed.code_file.read_text().strip() == code
    assert codes.decode(ed.code_file.read_text().strip()) == ed.draft.room()
    img = shot(app)
    for colour in ("upper", "lower", "digit"):  # each kind of character in its own colour
        kinds = {k for k, _ in hud.code_runs(code)}
        if colour in kinds:
            assert near_colour(img, hud.CODE_COLOURS[colour], 12) > 10
    press(app, pygame.K_ESCAPE)  # closes the field, and does not leave
    assert ed.code_shown is None and app.scene is ed


def test_a_level_opened_in_the_editor_from_play_is_saved_as_a_new_room(app):
    import pygame

    from anabasis.app.editor.scene import Editor, rooms_dir
    from anabasis.app.play import session

    level_file = levels.LEVELS_DIR / "03-around.txt"
    before = level_file.read_bytes()
    app.open(session.open_level(3))
    app.tick(DT)
    press(app, pygame.key.key_code("f2"))
    ed = app.scene
    assert isinstance(ed, Editor)
    room = levels.load_level(3)
    assert ed.draft.chars == Draft.of_room(room).chars and ed.target.save_to is None
    assert ed.unsaved  # a copy: no file of the player's holds it yet
    proved(app)
    press(app, pygame.K_s)
    saved = ed.target.save_to
    assert saved is not None and saved.parent == rooms_dir(app)
    assert level_file.read_bytes() == before


def test_the_designers_room_built_by_keys_and_clicks_reopened_from_its_file_and_its_code(app):
    """A room that needs a ramp and a crate, built from a new room with key presses and
    mouse clicks, named, saved, shared; reopened from "make a room…" and changed; reopened
    from its code, from play."""
    import pygame

    from anabasis.app.editor.scene import Editor, rooms_dir
    from anabasis.app.menus.launcher import Launcher
    from anabasis.app.menus.rooms import RoomsMenu
    from anabasis.app.play import session
    from anabasis.app.play.scene import Play

    app.to_launcher()
    launcher = app.scene
    i = next(i for i, item in enumerate(launcher.items) if item.action == ("edit",))
    launcher.selected = i
    press(app, pygame.K_RETURN)
    ed = app.scene
    if isinstance(ed, RoomsMenu):  # rooms saved by other tests: "a new room" is the first
        press(app, pygame.K_RETURN)
        ed = app.scene
    assert isinstance(ed, Editor) and ed.draft == Draft.new()
    ctrl = pygame.KMOD_LCTRL
    keys(app, "up", "up", "up", "page down", "[", mod=ctrl)
    assert ed.draft.size == (5, 1, 2, 2)
    # slice w = 0, z = 0: ramps; slice w = 1, z = 0: blocks and a ramp
    keys(app, "2", "right", "2", "right", "2", "right", "right", "2")
    keys(app, "]", "1", "left", "2", "left", "1", "left", "left", "1")
    keys(app, "page up", "[", "7")  # the player, at (0, 0, 1, 0)
    assert ed.cursor == (0, 0, 1, 0)
    # the crate and the goal by the mouse: the palette's crate, then the ramp's top face
    shot(app)
    crate = next(r for r, kind in ed.palette_rects if kind == "$")
    click(app, crate.center)
    assert ed.brush == "$"
    click(app, face_pixel(ed, (4, 0, 0, 0), (0, 0, 1, 0)))
    assert ed.draft.at((4, 0, 1, 0)) == "$"
    keys(app, "]")
    shot(app)
    goal = next(r for r, kind in ed.palette_rects if kind == "*")
    click(app, goal.center)
    click(app, face_pixel(ed, (4, 0, 0, 1), (0, 0, 1, 0)))
    assert ed.draft.chars == _designed().chars
    type_text(app, "n", "ramp and crate")
    type_text(app, "t", "push the crate into the gap from a slice up")
    proofs = proved(app)
    assert proofs.par == 4 and proofs.needs == ("ramps", "crates")
    press(app, pygame.K_s)
    path = ed.target.save_to
    assert path == rooms_dir(app) / "ramp-and-crate.txt" and path.exists()
    press(app, pygame.K_c, pygame.KMOD_LSHIFT)
    code = ed.code_shown
    assert code and ed.code_file.read_text().strip() == code
    press(app, pygame.K_ESCAPE)  # the field
    press(app, pygame.K_ESCAPE)  # the editor: saved, so it leaves at once
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    assert launcher.items[launcher.selected].action == ("edit",)  # not a level
    # reopened from the launcher: "make a room…" lists it by name
    press(app, pygame.K_RETURN)
    menu = app.scene
    assert isinstance(menu, RoomsMenu)
    k = next(k for k, item in enumerate(menu.items) if item.path == path)
    assert menu.items[k].label == "ramp and crate"
    for _ in range(k):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    ed = app.scene
    assert isinstance(ed, Editor) and ed.target.save_to == path and not ed.unsaved
    assert ed.draft.name == "ramp and crate" and ed.draft.chars == _designed().chars
    keys(app, "right", "right", "right", "1")  # changed: a block over the gap, at z 1
    proved(app)
    press(app, pygame.K_s)
    if "S again" in ed.message:  # the block made it impossible: saved all the same
        press(app, pygame.K_s)
    changed = levelfile.load(path)
    assert changed.cells[changed.index((3, 0, 1, 0))] == 1 and not ed.unsaved
    # reopened from its code: played, then F2 opens it in the editor
    press(app, pygame.K_ESCAPE)
    opened = session.open_code(code)
    app.open(opened)
    app.tick(DT)
    assert isinstance(app.scene, Play)
    press(app, pygame.key.key_code("f2"))
    ed = app.scene
    assert isinstance(ed, Editor) and ed.draft.chars == _designed().chars
    assert ed.target.save_to is None
    # the code carried its name and teaches line: shared whole
    assert ed.draft.name == "ramp and crate"
    assert ed.draft.teaches == "push the crate into the gap from a slice up"
    # and from the command line: `anabasis edit CODE`
    from anabasis.app import edit_target

    target = edit_target(code)
    assert target.draft.chars == _designed().chars and target.save_to is None
    assert target.draft.name == "ramp and crate"


def test_esc_from_a_shared_room_comes_back_on_its_launcher_line(app):
    import pygame

    from anabasis.app.menus.launcher import Launcher
    from anabasis.app.play import session

    app.open(session.open_code(codes.encode(_designed().room())))
    app.tick(DT)
    press(app, pygame.K_ESCAPE)
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    assert launcher.items[launcher.selected].action == ("code",)  # not a level's line
    press(app, pygame.K_RETURN)  # so Enter opens the code's field again, not a level
    assert isinstance(app.scene, Launcher) and app.scene.typing
    press(app, pygame.K_ESCAPE)


def test_make_a_room_lists_saved_rooms_and_refuses_a_broken_one(app):
    import pygame

    from anabasis.app.editor.scene import rooms_dir
    from anabasis.app.menus.launcher import Launcher
    from anabasis.app.menus.rooms import RoomsMenu

    folder = rooms_dir(app)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "broken.txt").write_text("name: broken\n\nnonsense\n", encoding="utf-8")
    app.make_a_room()
    menu = app.scene
    assert isinstance(menu, RoomsMenu) and menu.items[0].path is None
    k = next(k for k, item in enumerate(menu.items) if item.path == folder / "broken.txt")
    assert menu.items[k].error and ":" not in menu.items[k].error.split(" ")[0]
    menu.activate(k)  # refused, in plain words: the menu stays
    assert app.scene is menu and menu.error.startswith("broken.txt cannot be opened: ")
    press(app, pygame.K_ESCAPE)  # back to the launcher, on "make a room…"
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    assert launcher.items[launcher.selected].action == ("edit",)
    (folder / "broken.txt").unlink()
