"""The step marks say what the engine does: every mark, on every cell of every level.

A mark comes from the fast engine (:func:`anabasis.engine.rules.step`); here it is held
to the reference engine's own step, the rule book's plain reading, on every cell of every
shipped level where the player can stand, in all four directions.
"""

from __future__ import annotations

import collections

import pytest

from anabasis.app.play import stepmarks
from anabasis.engine import reference, rules, solver
from anabasis.engine.cells import BLOCK, RAMPS
from anabasis.engine.moves import NO_HEADROOM
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
        # the badge's reason is the reference engine's own (or none it has words for), and
        # for want of headroom, what is over you: a crate, the room's top or a block
        words = stepmarks.STAYS_WHY.get(ref.why, "")
        if ref.why == NO_HEADROOM:
            above = _add(p, (0, 0, 1, 0))
            words = ("a crate over you" if above in state.crates else
                     stepmarks.TOP_WORDS if above[2] >= room.size[2] else words)
        assert mark.then == words
        assert mark.label == ("stays · " + mark.then if mark.then else "stays")
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
    # how far the step's settle drops you in z, a slip's too (told "slip kata 1" of a step
    # that also dropped him one, a blind player expected to land on a crate at his height)
    assert mark.drop == max(0, first.player[2] - ref.state.player[2])
    assert ("down in z" in mark.label) == (mark.drop > 0)
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
    if mark.kind == "climb":  # onto a crate that could not move: said so
        crate = room.norm(_add(p, d)) in {room.norm(c) for c in state.crates}
        assert ("onto the crate" in mark.label) == crate, mark
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
                for m in stepmarks.marks(room, state):
                    seen[m.kind] += 1
                    seen[f"stays · {m.then}" if m.kind == "nothing" else ""] += 1
                    seen["drop"] += m.drop > 0
                    seen["slip and drop"] += m.drop > 0 and m.kind == "slip kata"
                    if m.then in ("a block over you", stepmarks.TOP_WORDS):
                        # what is over you, said as it is: a blind player, told "a block
                        # over you" at the room's top, looked for the block in every view
                        p = state.player
                        top = p[2] + 1 >= room.size[2]
                        assert (m.then == stepmarks.TOP_WORDS) == top, (m, p)
                        assert top or room.cell((p[0], p[1], p[2] + 1, p[3])) == BLOCK
                    if m.kind in ("walk", "climb"):  # "onto a ramp": where you end on one
                        end = rules.step(room, state, m.move).state.player
                        under = room.cell((end[0], end[1], end[2] - 1, end[3]))
                        assert (m.then == "onto a ramp") == (under in RAMPS), (m, under)
                        seen["onto a ramp"] += m.then == "onto a ramp"
    assert set(stepmarks.KINDS) <= set(seen), seen
    assert seen["onto a ramp"] > 0
    # every reason a step stays, on some cell of the levels; and walks that drop in z
    assert {f"stays · {w}" for w in ("too high", "a block over you", stepmarks.TOP_WORDS,
                                     "crate stuck")} <= set(seen)
    assert seen["drop"] > 0 and seen["slip and drop"] > 0


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


def test_a_slip_that_comes_to_rest_on_a_crate_says_so():
    """On level 6's shaft, "slip kata 1" beside the marker "crate ↓ 2 kata" of the crate it
    lands on, a blind player could not tell whether he would slip one slice or two, as the
    crate had (t350).  A slip that ends held by a crate says "onto the crate", as the engine
    has it; one that ends on a block does not."""
    from anabasis.formats import levelfile

    # w 1 holds a crate; w 2 holds the pawn's column only at x 0 and 1
    room = levelfile.parse("#### ####\n\n#### ##$.\n\n#### ##..\n\n#### .@.*\n")
    state = rules.start(room).state
    assert state.player == (1, 0, 1, 3) and state.crates == ((2, 0, 1, 1),)
    mark = stepmarks.classify(room, state, "R")
    after = rules.step(room, state, "R").state
    assert after.player == (2, 0, 1, 2) and (2, 0, 1, 1) in after.crates  # on the crate
    assert (mark.kind, mark.slip, mark.label) == ("slip kata", 1, "slip kata 1 · onto the crate")
    bare = levelfile.parse("#### ####\n\n#### ##..\n\n#### ##..\n\n#### .@.*\n")
    mark = stepmarks.classify(bare, rules.start(bare).state, "R")
    assert (mark.kind, mark.slip, mark.label) == ("slip kata", 2, "slip kata 2")


# -- the hook's marks, in hook rooms -------------------------------------------------------


def hook_levels():
    for chapter in levels.chapters():
        for n in range(1, len(chapter) + 1):
            if chapter.load(n).hook:
                yield pytest.param(chapter, n, id=chapter.source(n))


def first_caught(room, state, move):
    """Where the hook ``move`` catches, read from RULES.md apart from the engines: the first
    solid cell of the room along its line (a crate too; at most W - 1 cells along a wrapped
    w), as (cell, k, what), or (None, 0, "") when it flies out of the grid or round."""
    d = rules.HOOKS[move]
    p = state.player
    limit = room.size[3] - 1 if (room.wrap and d[3]) else max(room.size)
    crates = {room.norm(c) for c in state.crates}
    for k in range(1, limit + 1):
        raw = tuple(a + k * b for a, b in zip(p, d, strict=True))
        if room.cell(raw) < 0:  # the wall or the void: outside the grid
            return None, 0, ""
        cell = room.norm(raw)
        if cell in crates:
            return cell, k, "crate"
        if room.cell(cell) != 0:
            return cell, k, "block"
    return None, 0, ""


def check_hook(room, state, mark):
    """``mark`` against the reference engine's own hook, and the line read from the rules."""
    from anabasis.engine import moves as why

    ref = reference.step(room, state, mark.move, trace=True)
    fast = rules.step(room, state, mark.move, trace=True)
    assert (ref.state, ref.status, ref.moved) == (fast.state, fast.status, fast.moved)
    p, d = state.player, rules.HOOKS[mark.move]
    cell, k, what = first_caught(room, state, mark.move)
    if cell is not None:
        assert mark.cell == cell
    if mark.kind == "hook nothing":
        assert not ref.moved and ref.why != why.FELL_BACK
        return
    assert cell is not None and k >= 2  # anything more than nothing caught something away
    if mark.kind == "hook falls back":
        assert not ref.moved and ref.why == why.FELL_BACK
        if mark.move == "hA":
            assert what == "block"
        return
    assert ref.moved
    if mark.kind == "hook fall out":
        assert ref.status == "lost"
        return
    assert ref.status != "lost" and mark.won == (ref.status == "won")
    kata = [a.player[3] != b.player[3] for a, b in zip(ref.frames, ref.frames[1:], strict=False)]
    assert mark.slip == sum(kata)
    first = ref.frames[0]
    beside = room.norm(_add(p, d))
    if mark.kind in ("hook pull", "hook fetch"):
        assert what == "crate" and (mark.kind == "hook fetch") == (mark.move == "hA")
        assert first.player == p and beside in first.crates and cell not in first.crates
        return
    assert mark.kind in ("hook cross", "hook lift"), mark
    assert what == "block" and (mark.kind == "hook lift") == (mark.move == "hA")
    assert first.crates == state.crates
    assert first.player == room.norm(tuple(a + (k - 1) * b for a, b in zip(p, d, strict=True)))
    if mark.kind == "hook lift":  # kept up: it ends ana of where it was fired
        assert ref.state.player != p


@pytest.mark.parametrize("chapter,n", list(hook_levels()))
def test_every_hook_mark_is_what_the_engine_does_on_every_cell(chapter, n):
    room = chapter.load(n)
    seen = collections.Counter()
    for state in standing_states(room):
        hooks = stepmarks.hook_marks(room, state)
        assert [m.move for m in hooks] == list(rules.HOOKS)
        for mark in hooks:
            assert mark.kind in stepmarks.HOOK_KINDS
            check_hook(room, state, mark)
            seen[mark.kind] += 1
        # and the game's cache gives the steps, then the hooks, in a hook room
        assert stepmarks.Cache(room).get(state) == stepmarks.marks(room, state) + hooks
    assert seen["hook nothing"] and len(seen) >= 2, seen


def test_the_hook_levels_show_the_hooks_outcomes():
    seen = collections.Counter()
    for param in hook_levels():
        chapter, n = param.values
        room = chapter.load(n)
        for state in standing_states(room):
            seen.update(m.kind for m in stepmarks.hook_marks(room, state))
    for kind in ("hook pull", "hook fetch", "hook cross", "hook lift", "hook falls back",
                 "hook nothing"):
        assert seen[kind], (kind, seen)


def test_a_plain_rooms_marks_are_its_steps_alone():
    room = levels.load_level(1)
    state = rules.start(room).state
    assert not room.hook
    assert stepmarks.Cache(room).get(state) == stepmarks.marks(room, state)


def test_a_hook_mark_names_what_it_pulls_and_which_way():
    from anabasis.formats import levelfile

    # a crate two cells along +x, a block two slices ana: pull it, and fall back
    room = levelfile.parse("hook: yes\n\n### ### ###\n\n### @.$ ..*\n\n"
                           "### ... ...\n\n### #.. ...\n")
    state = rules.start(room).state
    pull = stepmarks.classify_hook(room, state, "hR")
    assert (pull.kind, pull.cell, pull.label) == ("hook pull", (2, 0, 1, 1),
                                                   "hook: pulls the crate")
    back = stepmarks.classify_hook(room, state, "hA")
    assert (back.kind, back.cell) == ("hook falls back", (0, 0, 1, 3))
    assert back.label == "hook ana: pulls you up, you fall back"
    assert stepmarks.classify_hook(room, state, "hL").kind == "hook nothing"
    assert stepmarks.GLYPH[pull.kind] and stepmarks.MEANING[back.kind]


def test_a_push_mark_says_what_the_crate_does_after_it_is_pushed():
    """A blind player pushed a crate on "push" and saw it slip a slice kata into a dead end:
    the mark now says what the settle does with the pushed crate, from the step's own
    result.  Along every shortest way of chapters 1 to 3: a plain "push" leaves the crate
    on the cell it was pushed to; "slips kata N" lands it N slices kata in its column."""
    from anabasis.app.play.session import open_level
    from anabasis.formats import levelfile

    out = levelfile.parse("#### ####\n\n##.# @$.*\n")  # pushed right, off the floor: out
    assert stepmarks.classify(out, out.start, "R").label == "push · crate falls out"
    seen = {"": 0, "slips": 0}
    for chapter, count in ((1, 7), (2, 8), (3, 8)):
        for n in range(1, count + 1):
            room = open_level(n, chapter=chapter).room
            moves = solver.solve(room).moves
            for k in range(len(moves) + 1):
                state = rules.replay(room, moves[:k]).state
                for mark in stepmarks.marks(room, state):
                    if mark.kind != "push":
                        continue
                    d = rules.STEPS[mark.move]
                    pushed = tuple(a + b for a, b in zip(mark.cell, d, strict=True))
                    after = set(rules.step(room, state, mark.move).state.crates)
                    if not mark.then:
                        assert pushed in after, (chapter, n, k, mark)
                        seen[""] += 1
                    elif mark.then.startswith("slips kata "):
                        kata = int(mark.then.split()[2])
                        w = (pushed[3] - kata) % room.size[3] if room.wrap else pushed[3] - kata
                        assert pushed not in after
                        assert any(c[:2] == pushed[:2] and c[3] == w for c in after), mark
                        seen["slips"] += 1
    assert seen[""] > 20 and seen["slips"] > 10, seen
    assert stepmarks.Mark("R", "push", then="slips kata 1").label == "push · crate slips kata 1"


def test_a_climb_onto_a_crate_says_so():
    """A crate that cannot move is climbed as a block is; blind players of two rounds, a
    "climb" badge on the crate beside them, pressed toward it to push it.  hard.roan's
    first step up climbs its crate: "climb · onto the crate"."""
    from anabasis import gen

    room = gen.build(*gen.parse_spec("hard.roan")).room
    state = rules.start(room).state
    mark = stepmarks.classify(room, state, "U")
    assert mark.kind == "climb" and mark.label == "climb · onto the crate"
    check(room, state, mark)


def test_a_climb_refused_at_the_rooms_top_says_so_and_not_a_block():
    """A blind player, told "stays · a block over you" with nothing over the pawn but the
    room's top, looked for the block in every view.  At the room's top the badge and the
    bump's words say so; under a block, they say the block."""
    from anabasis.app.play import cues
    from anabasis.formats import levelfile

    top = levelfile.parse("#### ####\n\n#### #@#*\n")  # two high: you stand at its top
    state = rules.start(top).state
    assert state.player == (1, 0, 1, 1) and top.size[2] == 2
    result = rules.step(top, state, "R")
    assert not result.moved and result.why == NO_HEADROOM
    assert stepmarks.classify(top, state, "R").then == "a wall"
    (bump,) = cues.of_move(state, result, None, top.size[3], top.wrap, top.size[2])
    assert "room's top" in bump.text
    # a room one higher, a block over you: the block is said
    under = levelfile.parse("#### #### ####\n\n#### #@#* .#..\n")
    state = rules.start(under).state
    result = rules.step(under, state, "R")
    assert not result.moved and result.why == NO_HEADROOM
    assert stepmarks.classify(under, state, "R").then == "a block over you"
    (bump,) = cues.of_move(state, result, None, under.size[3], under.wrap, under.size[2])
    assert "room's top" not in bump.text
