"""The room editor: drafts and their undo, the live proofs, and the editor in the window.

The draft and proof tests run without a window; the window tests drive one
:class:`~anabasis.app.routes.App` with posted key presses, as a player would.
"""

from __future__ import annotations

import pytest
from conftest import open_app
from window import edit, press, proved

from anabasis.app.editor.draft import Draft, DraftError, History
from anabasis.app.play.proofs import Proofs, Prover, prove
from anabasis.bench.solver import bench_room
from anabasis.engine import solver
from anabasis.engine.world import SWITCHES
from anabasis.formats import levelfile, levels

LEVELS = range(1, levels.count() + 1)


# -- drafts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", LEVELS)
def test_a_levels_draft_writes_the_level_back(n):
    room = levels.load_level(n)
    draft = Draft.of_room(room)
    assert draft.text(room.par, room.needs) == levelfile.write(room)
    assert draft.room(par=room.par, needs=room.needs) == room


def test_put_stands_a_mover_in_the_goal_and_replaces_the_rest():
    d = Draft.new((4, 1, 1, 1))
    d = d.put((0, 0, 0, 0), "*").put((0, 0, 0, 0), "@")
    assert d.at((0, 0, 0, 0)) == "+"
    d = d.put((1, 0, 0, 0), "$").put((1, 0, 0, 0), "*")
    assert d.at((1, 0, 0, 0)) == "%"
    assert d.put((1, 0, 0, 0), "#").at((1, 0, 0, 0)) == "#"
    assert d.put((0, 0, 0, 0), ".").at((0, 0, 0, 0)) == "."
    with pytest.raises(DraftError):
        d.put((0, 0, 0, 0), "x")


def test_fill_and_clear_a_box():
    d = Draft.new((3, 3, 2, 2)).fill((0, 0, 0, 0), (2, 1, 0, 1), "#")
    assert sum(ch == "#" for ch in d.chars) == 3 * 2 * 1 * 2
    assert d.at((2, 2, 0, 0)) == "." and d.at((1, 1, 0, 1)) == "#"
    d = d.fill((1, 1, 0, 1), (0, 0, 0, 0), ".")  # corners in any order
    assert sum(ch == "#" for ch in d.chars) == 12 - 8


def test_resize_keeps_what_fits():
    room = levels.load_level(5)
    d = Draft.of_room(room)
    smaller = d.resized(0, 3)
    assert smaller.size == (3, 3, 2, 3)
    for pos in [(x, y, z, w) for x in range(3) for y in range(3) for z in range(2)
                for w in range(3)]:
        assert smaller.at(pos) == d.at(pos)
    back = smaller.resized(0, 5)
    assert back.at((4, 2, 1, 2)) == "." and back.at((0, 0, 1, 2)) == "@"
    with pytest.raises(DraftError):
        d.resized(2, 0)
    with pytest.raises(DraftError):
        d.resized(3, 9)  # past what a room code holds


def test_the_wrap_needs_two_slices():
    d = Draft.new((2, 1, 1, 1))
    with pytest.raises(DraftError):
        d.with_wrap(True)
    wrapped = d.resized(3, 2).with_wrap(True)
    assert wrapped.wrap
    with pytest.raises(DraftError):
        wrapped.resized(3, 1)


def test_header_lines_are_kept_to_one_clean_line():
    d = Draft.new().with_header(name="  my\troom\n ", teaches="a  lesson", view="both")
    assert (d.name, d.teaches, d.view) == ("my room", "a lesson", "both")
    with pytest.raises(DraftError):
        d.with_header(view="sideways")


def test_undo_and_redo_are_unlimited_and_exact():
    h = History(Draft.new((3, 1, 1, 1)))
    seen = [h.draft]
    for i in range(40):
        assert h.do(h.draft.put((i % 3, 0, 0, 0), "#" if i % 2 else "$"))
        seen.append(h.draft)
    assert not h.do(h.draft)  # no change: not an edit
    for expected in reversed(seen[:-1]):
        assert h.undo() and h.draft == expected
    assert not h.undo()
    for expected in seen[1:]:
        assert h.redo() and h.draft == expected
    assert not h.redo()
    h.undo()
    h.do(h.draft.resized(0, 2))
    assert not h.redo()  # a new edit forgets what was undone


# -- proofs ----------------------------------------------------------------------------------


def _last(text: str, **kw) -> Proofs:
    return list(prove(text, **kw))[-1]


@pytest.mark.parametrize("n", LEVELS)
def test_the_proofs_agree_with_the_solver_and_the_levels_header(n):
    room = levels.load_level(n)
    proofs = _last(Draft.of_room(room).text())
    found = solver.solve(room)
    assert proofs.status == "solved" and proofs.moves == found.moves
    assert proofs.states == found.states and proofs.par == room.par
    assert proofs.needs == room.needs
    for switch in SWITCHES:
        if proofs.without[switch] != "n/a":
            assert proofs.without[switch] == solver.solve(room, without=(switch,)).status
    assert proofs.hook_saves == 0 and proofs.done


@pytest.mark.parametrize("edit, says", [
    (lambda d: d.put((2, 0, 1, 1), "@"), "a second player (the first is at"),
    (lambda d: d.put((3, 0, 1, 1), "."), "the map has no goal '*'"),
    (lambda d: d.put((0, 0, 1, 1), "."), "the map has no player '@'"),
    (lambda d: d.put((0, 0, 0, 1), "."), "falls out of the room at the start"),
    (lambda d: d.put((0, 0, 1, 1), ".").put((3, 0, 1, 1), "@"), "already in the goal"),
])
def test_a_refused_draft_shows_the_parsers_line(edit, says):
    draft = edit(Draft.of_room(levels.load_level(1)))
    proofs = _last(draft.text(), path="mine.txt")
    with pytest.raises(levelfile.LevelError) as refused:
        levelfile.parse(draft.text(), "mine.txt")
    assert proofs.status == "refused" and proofs.refusal == str(refused.value)
    assert says in proofs.refusal and proofs.refusal.startswith("mine.txt:")
    assert proofs.lines()[-1] == ("warn", proofs.refusal)


def test_a_room_past_the_cap_is_too_big_to_prove():
    proofs = _last(Draft.of_room(bench_room()).text(), max_states=2000)
    assert proofs.status == "too-big"
    assert proofs.lines() == [("warn", "too big to prove: over 2,000 states")]


def test_the_prover_works_in_a_process_and_a_new_draft_cancels_the_last():
    prover = Prover()
    try:
        big = Draft.of_room(bench_room()).text()  # an exhaustive search of 120,699 states
        prover.start(big)
        first = prover.launched()
        small = Draft.of_room(levels.load_level(2)).text()
        prover.start(small)
        assert prover.cancelled == 1
        first.join(5)
        assert first.exitcode is not None and first.exitcode != 0  # stopped, not finished
        proofs = prover.wait()
        assert prover.text == small and proofs.par == 6 and proofs.needs == ("gravity-w",)
    finally:
        prover.close()


def test_a_draft_replaced_while_its_workers_start_has_them_stopped():
    import signal
    from dataclasses import replace

    from anabasis.bench.edit import BENCH_GOAL

    prover = Prover()
    try:
        prover.start("warm the fork server up")
        prover.wait()
        # its search takes half a second: it must be stopped, not left to finish
        prover.start(Draft.of_room(replace(bench_room(), goal=BENCH_GOAL)).text())
        stale = prover._draft
        prover.start(Draft.of_room(levels.load_level(2)).text())  # before the first's started
        assert prover.cancelled == 1
        proofs = prover.wait()
        assert proofs.done and proofs.par == 6 and proofs.needs == ("gravity-w",)
        for thread in prover._threads:
            thread.join(5)
        prover.poll()
        old = [proc for draft, proc in prover.started_workers if draft == stale]
        assert len(old) == 2  # the first draft's two workers did start...
        for proc in old:
            proc.join(5)
            assert proc.exitcode == -signal.SIGTERM  # ...and were stopped
    finally:
        prover.close()


def test_a_start_left_for_later_starts_no_worker_until_launched():
    import time

    prover = Prover()
    try:
        prover.start(Draft.of_room(levels.load_level(2)).text(), launch=False)
        assert prover.busy and prover.proofs.status == "proving"  # the spinner shows
        time.sleep(0.2)
        prover.poll()
        assert prover.busy and not prover._threads and not prover.started_workers
        # replaced before its launch: only the new draft's workers ever start
        prover.start(Draft.of_room(levels.load_level(1)).text(), launch=False)
        prover.launch()
        proofs = prover.wait()
        assert proofs.done and proofs.status == "solved"
        assert {draft for draft, _ in prover.started_workers} == {prover._draft}
        # stopped before its launch: nothing starts, nothing is left busy
        started = len(prover.started_workers)
        prover.start(Draft.of_room(levels.load_level(3)).text(), launch=False)
        prover.stop()
        prover.launch()
        time.sleep(0.2)
        prover.poll()
        assert not prover.busy and len(prover.started_workers) == started
    finally:
        prover.close()


def test_the_hook_is_proved_in_a_worker_of_its_own_and_merged_in():
    from dataclasses import replace

    from anabasis.bench.edit import BENCH_GOAL

    room = replace(bench_room(), goal=BENCH_GOAL)  # par 39; with the hook, 27
    text = Draft.of_room(room).text()
    prover = Prover()
    try:
        prover.start(text)
        assert prover.busy  # its workers start on a thread of their own: the frame goes on
        assert prover.launched() is not None and prover._hook_proc is not None
        assert prover._hook_proc.pid != prover._proc.pid
        seen = []
        while prover.busy:
            prover.poll()
            seen.append(prover.proofs)
            prover.wait(0.01)
        proofs = prover.proofs
        hooked = solver.solve(room, hook=True)
        assert proofs.done and proofs.par == 39 and proofs.hook == len(hooked.moves) == 27
        assert proofs.hook_status == "solved" and proofs.hook_saves == 12
        assert ("warn", "the hook saves 12 moves") in proofs.lines()
        assert proofs == _last(text)  # the same answer as proving it all in one process
        # never done before the hook's answer is in
        assert all(p.hook_status for p in seen if p.done)
    finally:
        prover.close()


def test_the_hooks_worker_stops_when_the_room_is_not_solvable_or_dies():
    import os
    import signal

    prover = Prover()
    try:
        prover.start(Draft.of_room(bench_room()).text())  # impossible: no hook line to show
        prover.launched()
        hook = prover._hook_proc
        proofs = prover.wait()
        assert proofs.status == "impossible" and proofs.done and not prover.busy
        hook.join(5)
        assert hook.exitcode is not None
        assert not any("hook" in text for _, text in proofs.lines())

        from dataclasses import replace

        from anabasis.bench.edit import BENCH_GOAL

        # its hook search takes some half a second: killed long before it ends
        prover.start(Draft.of_room(replace(bench_room(), goal=BENCH_GOAL)).text())
        prover.launched()
        os.kill(prover._hook_proc.pid, signal.SIGKILL)  # out of memory, say
        proofs = prover.wait()
        assert proofs.done and proofs.status == "solved" and proofs.par == 39
        assert proofs.hook_status == "failed" and proofs.hook_saves is None
        assert ("warn", "the hook: its proof stopped (out of memory?)") in proofs.lines()
    finally:
        prover.close()


def test_a_shared_codes_par_is_proved_on_open():
    from anabasis.app.play.session import open_code
    from anabasis.formats import codes

    opened = open_code(codes.encode(levels.load_level(4)))  # a code carries no par
    assert opened.room.par is None
    opened._par_prover.wait()
    assert opened.par == 4 and opened._par_prover is None


# -- the editor in the window ------------------------------------------------------------------

DT = 1 / 30
SIZE = (800, 450)


@pytest.fixture(scope="module")
def app(display, tmp_path_factory):
    """One game window for every editor test (each opens the editor afresh)."""
    app = open_app(SIZE, data_dir=tmp_path_factory.mktemp("data"))
    app.tick(DT)
    yield app
    app.close()


def keys(app, *names, mod=0):
    """Press each named key in turn (pygame names: "right", "page up", "[", "1", ...)."""
    import pygame

    for name in names:
        press(app, pygame.key.key_code(name), mod)


def cli(capsys, *argv):
    from anabasis.cli import main

    capsys.readouterr()
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_level_1_built_by_key_presses_has_level_1s_code(app, capsys):
    import numpy as np
    import pygame

    from anabasis.app.editor import hud as editor_hud
    from anabasis.formats import codes

    ed = edit(app)
    assert ed.draft.size == (5, 4, 3, 3) and set(ed.draft.chars) == {"."}
    # the room's size, with Ctrl and the cursor keys: 4 x 2 x 2 x 2
    ctrl = 0x40  # KMOD_LCTRL
    keys(app, "left", "up", "up", "page down", "[", mod=ctrl)
    assert ed.draft.size == (4, 2, 2, 2)
    # the ground: a box of blocks under everything
    keys(app, "space", "right", "right", "right", "down", "]", "1", "f")
    assert ed.cursor == (3, 1, 0, 1)
    # slice w = 0, layer z = 1: blocks, but for two cells
    keys(app, "page up", "[", "left", "left", "left", "up", "space", "right", "right", "right",
         "down", "f", "up", "left", "0", "left", "0")
    # slice w = 1, layer z = 1: the player, and the goal three cells along
    keys(app, "]", "left", "7", "right", "right", "right", "8")
    assert ed.cursor == (3, 0, 1, 1)
    room = ed.draft.room()
    code, out = cli(capsys, "code", "1")
    assert code == 0 and codes.encode(room) == out.strip()
    assert proved(app).par == 5
    # the cursor is drawn: the middle of a projected edge of its cell is the cursor's colour
    for _ in range(2):
        app.tick(DT)
    shot = np.frombuffer(pygame.image.tobytes(app.window.read_screen(), "RGB"),
                         np.uint8).reshape(SIZE[1], SIZE[0], 3)
    corners = editor_hud._box_corners(ed, ed.cursor, [c + 1 for c in ed.cursor])
    seen = 0
    for a, b in editor_hud._EDGES:
        pa, pb = ed.project(corners[a], SIZE), ed.project(corners[b], SIZE)
        x, y = (int(round((pa[0] + pb[0]) / 2)), int(round((pa[1] + pb[1]) / 2)))
        if 0 <= x < SIZE[0] and 0 <= y < SIZE[1]:
            px = shot[y, x].astype(int)
            seen += int(np.abs(px - editor_hud.CURSOR_COLOUR).max() < 40)
    assert seen >= 8  # most edges (some may lie under a panel)
    # a click on the room puts the brush in the cell under the mouse, on the cursor's layer
    target = (1, 1, 1, 1)
    centre = np.asarray(ed.cursor, float) + 0.5
    floor = ed.sight.basis()[:, :3].T @ (np.asarray(target, float) + [0.5, 0.5, 0.02, 0.5]
                                         - centre)
    pixel = ed.project(floor, SIZE)
    assert ed.cell_at(pixel, SIZE) == target
    pixel = tuple(int(round(c)) for c in pixel)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):  # a click, as a player's
        pygame.event.post(pygame.event.Event(kind, pos=pixel, button=1))
    app.tick(DT)
    assert ed.draft.at(target) == ed.brush == "*" and ed.cursor == (3, 0, 1, 1)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):  # right: empty it again
        pygame.event.post(pygame.event.Event(kind, pos=pixel, button=3))
    app.tick(DT)
    assert ed.draft.at(target) == "." and ed.brush == "*"


def test_the_proof_panel_agrees_with_solve_with_and_without_each_rule(app, capsys):
    ed = edit(app, Draft.of_room(levels.load_level(6)))
    proofs = proved(app)
    code, out = cli(capsys, "solve", "6")
    assert out.splitlines() == [f"solution: {proofs.par}", f"moves: {''.join(proofs.moves)}"]
    lines = [text for _, text in proofs.lines()]
    assert f"moves: {''.join(proofs.moves)}" in lines and "needs: ramps, crates" in lines
    for switch in SWITCHES:
        code, out = cli(capsys, "solve", "6", "--without", switch)
        status = proofs.without[switch]
        if status == "n/a":  # the room has none of it: the same room, solvable
            assert out.startswith(f"solution: {proofs.par}")
        elif status == "impossible":
            assert out == f"impossible: {proofs.without_states[switch]} states searched\n"
        else:
            assert status == "solved" and out.startswith("solution:")
    code, out = cli(capsys, "solve", "6", "--hook")
    assert out.startswith(f"solution: {proofs.par}\n") and proofs.hook_saves == 0
    assert ed.proofs is proofs  # shown as it came


def test_an_edit_during_a_proof_cancels_it(app):
    import pygame

    ed = edit(app, Draft.of_room(bench_room()))  # 120,699 states to search
    assert ed.prover.busy
    first = ed.prover.launched()
    press(app, pygame.K_1)  # a block where the player stands: a new draft to prove
    assert ed.prover.cancelled == 1 and ed.prover.text == ed.draft.text()
    first.join(5)
    assert first.exitcode not in (None, 0)
    app.tick(DT)
    assert ed.proofs.status in ("proving", "refused")
    assert proved(app).refusal.endswith("the map has no player '@'")


def test_an_edits_workers_start_once_its_frame_is_shown(app):
    import pygame

    ed = edit(app, Draft.of_room(levels.load_level(2)))
    proved(app)
    at_flip = []
    flip = app.window.flip

    def flip_and_look():
        at_flip.append(ed.prover._pending is not None)
        flip()

    app.window.flip = flip_and_look
    try:
        press(app, pygame.K_1)  # a block where the player stands: a new draft to prove
    finally:
        del app.window.flip
    # forking workers beside the edit's drawing would cost it the second core: at its flip
    # they were still to start, and once it was shown they were started
    assert at_flip == [True]
    assert ed.prover._pending is None and ed.prover.launched() is not None
    assert proved(app).refusal.endswith("the map has no player '@'")


def test_a_draft_that_is_not_a_room_is_drawn_as_built(app):
    room = levels.load_level(2)
    ed = edit(app, Draft.of_room(room))
    ed.put(".", room.goal)  # no goal: not a room yet (this took the game down)
    app.tick(DT)
    assert proved(app).status == "refused"
    X, Y, Z, W = room.size
    high = next((x, y, Z - 1, w) for w in range(W) for y in range(Y) for x in range(X)
                if ed.draft.at((x, y, Z - 1, w)) == ".")
    ed.put(".", high[:2] + (Z - 2, high[3]))
    ed.put("$", high)  # a crate with nothing under it: drawn where it was put, not fallen
    app.tick(DT)
    renderer = app._renderer
    assert renderer is not None and not renderer.ruled
    assert high in renderer.state.crates and renderer.room == ed.picture()
    ed.put("@", high)  # two players: still drawn
    app.tick(DT)
    assert app._renderer is renderer and app.scene is ed


def test_an_empty_room_shows_its_box(app):
    """A new room has no cell to draw: its box shows where cells can go."""
    import numpy as np
    import pygame

    from anabasis.app.editor import hud as editor_hud

    ed = edit(app, Draft.new())
    for _ in range(2):
        app.tick(DT)
    shot = np.frombuffer(pygame.image.tobytes(app.window.read_screen(), "RGB"),
                         np.uint8).reshape(SIZE[1], SIZE[0], 3).astype(int)
    corners = editor_hud._box_corners(ed, (0, 0, 0, 0), ed.draft.size)
    shown = seen = 0
    for a, b in editor_hud._EDGES:
        pa, pb = ed.project(corners[a], SIZE), ed.project(corners[b], SIZE)
        if pa is None or pb is None:
            continue
        x, y = (int(round((pa[0] + pb[0]) / 2)), int(round((pa[1] + pb[1]) / 2)))
        if 2 <= x < SIZE[0] - 2 and 2 <= y < SIZE[1] - 2:
            shown += 1
            near = shot[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3)
            seen += int((np.abs(near - editor_hud.ROOM_COLOUR).max(axis=1) < 40).any())
    assert shown >= 4 and seen >= shown - 2  # (an edge may lie under a panel)


def test_play_test_and_back_keeps_the_room_and_the_solution_plays(app):
    import pygame

    from anabasis.app.play.scene import Play

    ed = edit(app, Draft.of_room(levels.load_level(2)))
    keys(app, "right", "down")
    ed.put("#", (4, 2, 0, 0))  # an edit that keeps the room as it plays
    proofs = proved(app)
    draft, depth = ed.draft, ed.history.depth
    press(app, pygame.K_p)
    play = app.scene
    assert isinstance(play, Play) and play.opened.kind == "edit"
    assert play.room == ed.draft.room(ed.save_path().name, proofs.par, proofs.needs)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_ESCAPE)
    assert app.scene is ed and ed.draft == draft and ed.history.depth == depth
    # L: the solver's solution, played with the game's animations, to the win
    press(app, pygame.K_l)
    play = app.scene
    assert isinstance(play, Play)
    for _ in range(600):
        if play.won:
            break
        app.tick(DT)
    assert play.won and play.game.moves == proofs.par
    press(app, pygame.K_RETURN)  # Enter after a play-test's win: back to the editor too
    assert app.scene is ed and ed.draft == draft


def test_save_then_solve_gives_the_par_shown(app, capsys, tmp_path):
    import pygame

    from anabasis.app import edit_target

    path = tmp_path / "mine.txt"
    ed = edit(app, Draft.of_room(levels.load_level(3)), path)
    # N names it: what SDL types with the N itself is not part of the name
    for event in (pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n",
                                     scancode=0),
                  pygame.event.Event(pygame.TEXTINPUT, text="n")):
        pygame.event.post(event)
    app.tick(DT)
    muted = app.sound.muted
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0, unicode="m",
                                         scancode=0))  # M types an m here: it does not mute
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="my  room"))
    press(app, pygame.K_RETURN)
    assert ed.draft.name == "my room" and ed.field is None and app.sound.muted == muted
    assert pygame.display.get_caption()[0] == "Anabasis · editing my room"
    press(app, pygame.K_s)  # pressed while proving: it saves once the proofs are done
    proofs = proved(app)
    app.tick(DT)
    assert path.exists() and not ed.unsaved
    code, out = cli(capsys, "solve", str(path))
    assert code == 0 and out.startswith(f"solution: {proofs.par}\n")
    saved = levelfile.load(path)
    assert saved.name == "my room" and saved.par == proofs.par
    assert saved.needs == proofs.needs == ("ramps",)
    # `anabasis edit FILE` saves back to FILE; a code goes to the data folder
    assert edit_target(str(path)).save_to == path
    assert edit_target("1").save_to is None and edit_target(None).draft == Draft.new()


def test_the_launcher_makes_a_room(app):
    from anabasis.app.editor.scene import Editor

    app.to_launcher()
    launcher = app.scene
    i = next(i for i, item in enumerate(launcher.items) if item.action == ("edit",))
    launcher.activate(i)
    assert isinstance(app.scene, Editor) and app.scene.draft == Draft.new()


@pytest.mark.parametrize("seed", range(6))
def test_any_run_of_keys_clicks_and_play_tests_keeps_the_editor_up(app, seed):
    """A fuzz of what a maker can do in the window: every key of the editor's (but the name
    and teaches fields, and saving), clicks and drags over the picture, play-tests and back,
    in any order and on any draft, a room or not.  Nothing may raise, the draft is always
    drawn, the cursor stays in it, and the proofs shown at the end are those of the draft as
    it stands."""
    import random

    import pygame

    from anabasis.app.editor.scene import Editor
    from anabasis.app.play.scene import Play

    rng = random.Random(seed)
    ed = edit(app, Draft.of_room(levels.load_level(rng.choice([1, 3, 6]))))
    keys_ = ([pygame.K_RIGHT, pygame.K_LEFT, pygame.K_UP, pygame.K_DOWN, pygame.K_PAGEUP,
              pygame.K_PAGEDOWN, pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET] * 3
             + [getattr(pygame, f"K_{n}") for n in range(9)] * 2
             + [pygame.K_DELETE, pygame.K_SPACE, pygame.K_f, pygame.K_x, pygame.K_z,
                pygame.K_y, pygame.K_w, pygame.K_d, pygame.K_v, pygame.K_q, pygame.K_e])
    W, H = SIZE
    for _ in range(300):
        roll = rng.random()
        if isinstance(app.scene, Play):
            press(app, pygame.K_ESCAPE)  # back to the editor, the draft kept
            assert app.scene is ed
        elif roll < 0.05:
            press(app, pygame.K_p)  # play it, where it is a room
        elif roll < 0.15:
            pos = (rng.randrange(W), rng.randrange(H))
            button = rng.choice([1, 1, 3])
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
            if rng.random() < 0.3:  # a drag: the camera orbits
                end = (rng.randrange(W), rng.randrange(H))
                pygame.event.post(pygame.event.Event(
                    pygame.MOUSEMOTION, pos=end, rel=(end[0] - pos[0], end[1] - pos[1]),
                    buttons=(1, 0, 0)))
                pos = end
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
            app.tick(DT)
        else:
            key = rng.choice(keys_)
            # Ctrl: a resize, or a redo (but Ctrl+Q, which quits the game from anywhere)
            ctrl = pygame.KMOD_CTRL if rng.random() < 0.15 and key != pygame.K_q else 0
            press(app, key, ctrl)
        assert app.running and (app.scene is ed or isinstance(app.scene, Play))
        assert app._renderer is not None  # whatever the draft, it is drawn
        assert all(1 <= n for n in ed.draft.size) and ed.draft.inside(ed.cursor)
    if isinstance(app.scene, Play):
        press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, Editor)
    shown = proved(app)
    expect = _last(ed.draft.text(), path=ed.save_path().name, max_states=ed.prover.max_states)
    assert (shown.status, shown.par, shown.refusal) == (expect.status, expect.par,
                                                         expect.refusal)


def test_proofs_started_from_a_module_run_with_dash_m_do_not_run_it_again(tmp_path):
    """Run as ``python -m``, the module is what each of the fork server's workers imported
    again, at normal priority, before its work (the editor's frame bench: its imports beside
    the frames; an unguarded module: a worker that could not start)."""
    import subprocess
    import sys

    (tmp_path / "unguarded_mod.py").write_text(
        "print('module ran', flush=True)\n"
        "from anabasis.app.editor.draft import Draft\n"
        "from anabasis.app.play.proofs import Prover\n"
        "from anabasis.formats import levels\n"
        "prover = Prover()\n"
        "prover.start(Draft.of_room(levels.load_level(2)).text())\n"
        "print(prover.wait().status, flush=True)\n"
        "prover.close()\n")
    out = subprocess.run([sys.executable, "-m", "unguarded_mod"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120).stdout
    assert out.splitlines() == ["module ran", "solved"]


# -- the one viewer: the editor's picture and warm-up are play's ---------------------------


def _scene_pixels(app) -> bytes:
    """The room as the internal target holds it (no HUD over it)."""
    window = app.window
    return window._scene_fbo.read(viewport=window.scene_viewport, components=3)


def test_the_editors_picture_turns_with_the_view_mid_turn(app):
    import pygame

    from anabasis.app import edit_target

    app.edit(edit_target("3"))  # a level: a room with something in it to see turn
    ed = app.scene
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    for _ in range(3):  # (zoomed by the wheel: a turn keeps the camera where it is)
        app.tick(DT)
    before = _scene_pixels(app)
    press(app, pygame.K_v)  # the view turns (0.4 s: some twelve frames)
    for _ in range(4):
        app.tick(DT)
    assert ed.sight.turning and ed.sight.zoomed
    middle = _scene_pixels(app)
    for _ in range(30):
        app.tick(DT)
    assert not ed.sight.turning
    after = _scene_pixels(app)
    # mid-turn the picture is the turn's, not the view it left nor the one it comes to
    assert middle != before and middle != after and before != after


def test_the_editor_warms_its_shader_variants_while_idle(app):
    from anabasis.app.editor.scene import Editor
    from anabasis.engine.world import VIEWS

    app.edit(None)
    ed = app.scene
    assert isinstance(ed, Editor)
    warmer = ed.draw_cache.warmer
    assert not warmer.done and len(warmer.plan[0][1]) == len(VIEWS)  # one pose per view
    for _ in range(60):  # idle frames (no input): one variant each
        app.tick(DT)
        if warmer.done:
            break
    assert warmer.done, "the editor never warmed its EDIT variants"
    renderer = app.renderer_for(ed.picture(), ruled=False)
    from anabasis.picture.render import Pose

    for view in VIEWS:
        at = tuple(float(c) for c in ed.cursor)
        assert renderer.has_program_for(Pose(player=at, view=view), {"EDIT"})


def test_the_editors_draft_at_rest_is_drawn_sharp_at_the_windows_own_size(app):
    """Play draws the room at rest once more at the window's own size on software GL; the
    editor drew its draft only at the budget, scaled up (blurred).  Once the warm-up is done
    and nothing moves, the draft too is drawn at the window's size; a key draws it at the
    budget again."""
    import pytest

    app.edit(None)
    ed = app.scene
    window = app.window
    if not window.software:
        pytest.skip("the budget (and so the sharp frame) is software GL's")
    for _ in range(80):  # idle: the warm-up, then at rest
        app.tick(DT)
        if ed.draw_cache.warmer.done and window.sharp:
            break
    assert window.sharp and window.scene_viewport[2:] == window.size
    keys(app, "right")
    assert not window.sharp and window.scene_viewport[2:] == window.scene_size
