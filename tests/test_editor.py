"""The room editor: drafts and their undo, the live proofs, and the editor in the window.

The draft and proof tests run without a window; the window tests drive one
:class:`~anabasis.app.loop.App` with posted key presses, as a player would.
"""

from __future__ import annotations

import pytest

from anabasis.app.draft import Draft, DraftError, History
from anabasis.app.proofs import Proofs, Prover, prove
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
        first = prover._proc
        small = Draft.of_room(levels.load_level(2)).text()
        prover.start(small)
        assert prover.cancelled == 1
        first.join(5)
        assert first.exitcode is not None and first.exitcode != 0  # stopped, not finished
        proofs = prover.wait()
        assert prover.text == small and proofs.par == 6 and proofs.needs == ("gravity-w",)
    finally:
        prover.close()
