"""The step marks say what the engine does: every mark, on every cell of every level.

A mark comes from the fast engine (:func:`anabasis.engine.rules.step`); here it is held
to the reference engine's own step, the rule book's plain reading, on every cell of every
shipped level where the player can stand, in all four directions.
"""

from __future__ import annotations

import collections

import pytest

from anabasis.app.play import stepmarks
from anabasis.engine import reference, rules
from anabasis.engine.world import State
from anabasis.formats import levels


def standing_states(room):
    """The player at rest on each free cell of ``room``, its crates where they settle."""
    crates = reference.start(room).state.crates
    for pos in room.positions():
        if room.cell(pos) != 0 or pos in crates:
            continue
        state = State.of(pos, crates)
        settled = reference.settle(room, state)
        if settled.moved or settled.status != "playing":
            continue  # the player would not stay here
        yield state


def _add(p, *ds):
    return tuple(sum(c) for c in zip(p, *ds, strict=True))


def check(room, state, mark):
    ref = reference.step(room, state, mark.move, trace=True)
    p, d = state.player, rules.STEPS[mark.move]
    assert mark.cell == _add(p, d)
    if mark.kind == "nothing":
        assert not ref.moved
        return
    assert ref.moved
    if mark.kind == "fall out":
        assert ref.status == "lost"
        return
    assert ref.status != "lost"
    assert mark.won == (ref.status == "won")
    first = ref.frames[0]
    kata = [a.player[3] != b.player[3] for a, b in zip(ref.frames, ref.frames[1:], strict=False)]
    assert mark.slip == sum(kata)
    if mark.kind == "slip kata":
        assert mark.slip > 0
        return
    assert mark.slip == 0
    if mark.kind == "push":
        assert first.crates != state.crates
        return
    assert first.crates == state.crates
    z, w = (0, 0, 1, 0), (0, 0, 0, 1)
    expected = {"walk": _add(p, d), "climb": _add(p, d, z),
                "ramp ana": room.norm(_add(p, d, w)),
                "ramp kata": room.norm(_add(p, d, (0, 0, 0, -1)))}[mark.kind]
    assert first.player == expected, (mark, first.player)
    if mark.kind == "walk":
        assert first.player[2:] == p[2:]


def every_level():
    for chapter in levels.chapters():
        for n in range(1, len(chapter) + 1):
            yield pytest.param(chapter, n, id=chapter.source(n))


@pytest.mark.parametrize("chapter,n", list(every_level()))
def test_every_step_mark_is_what_the_engine_does_on_every_cell(chapter, n):
    try:
        room = chapter.load(n)
    except levels.LevelError:
        pytest.skip("a level this engine cannot load yet")
    seen = collections.Counter()
    for state in standing_states(room):
        for mark in stepmarks.marks(room, state):
            check(room, state, mark)
            seen[mark.kind] += 1
    assert seen["walk"] and seen["nothing"]


def test_the_levels_show_every_kind_of_mark():
    seen = collections.Counter()
    for chapter in levels.chapters():
        for n in range(1, len(chapter) + 1):
            try:
                room = chapter.load(n)
            except levels.LevelError:
                continue
            for state in standing_states(room):
                seen.update(m.kind for m in stepmarks.marks(room, state))
    assert set(seen) == set(stepmarks.KINDS), seen


def test_a_mark_names_a_slip_by_its_slices():
    from anabasis.formats import levelfile

    # w 1 holds the player up in w at x 1 only; w 0 holds everything: one slice down
    room = levelfile.parse("#### ####\n\n#### ##..\n\n#### .@.*\n")
    state = rules.start(room).state
    assert state.player == (1, 0, 1, 2)
    mark = stepmarks.classify(room, state, "R")
    assert (mark.kind, mark.slip, mark.label, mark.short) == ("slip kata", 1, "slip kata 1", "1")
    assert stepmarks.classify(room, state, "L").kind == "walk"  # held in w by w 1's x 0
    assert stepmarks.classify(room, state, "U").kind == "nothing"  # the room's wall
