"""The hook chapter (``levels/04-hook/``): every level proved, and the commands on hook rooms.

Each level's par is its shortest solution with the hook a move; each rule of
its ``needs:`` line (``hook`` always) is proved impossible without, and no
other; its stored solution wins in exactly par moves on both engines; the
last one is as deep as a hard made room.  ``docs/hook.md`` gives the same
solutions and measures.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from anabasis.cli import main
from anabasis.engine import moves, proofs, reference, rules, solver
from anabasis.engine.world import SWITCHES
from anabasis.formats import codes, levelfile
from anabasis.gen import depth

CHAPTER = Path(__file__).resolve().parent.parent / "levels" / "04-hook"

#: file: (name, par, needs, the solver's shortest solution), in the chapter's order:
#: the pull; over a gap; across a gap; fetched from ana; the hook that cannot lift you;
#: hook and push; across the wrap; the last, deep one.
TABLE = {
    "01-reach.txt": ("reach", 11, ("crates", "hook"), "UUhRhLDLLURRR"),
    "02-bridge.txt": ("bridge", 7, ("crates", "hook"), "RRhRRRRR"),
    "03-leap.txt": ("leap", 3, ("hook",), "hRDR"),
    "04-fetch.txt": ("fetch", 6, ("gravity-w", "crates", "hook"), "RhALRRR"),
    "05-lift.txt": ("lift", 3, ("ramps", "hook"), "hRhAR"),
    "06-fill.txt": ("fill", 16, ("crates", "hook"), "RUhRhLDLLURRRRRRDD"),
    "07-round.txt": ("round", 4, ("wrap", "hook"), "hKRRR"),
    "08-deep.txt": ("the deep", 20, ("gravity-w", "crates", "hook"),
                    "DhAUUhRhDLDRRDhULURRRRRD"),
}
FILES = sorted(TABLE)


def load(name: str):
    return levelfile.load(CHAPTER / name)


def test_the_chapter_holds_these_eight_levels_in_order():
    assert sorted(p.name for p in CHAPTER.glob("[0-9][0-9]-*.txt")) == FILES
    assert len(FILES) >= 8


@pytest.mark.parametrize("name", FILES)
def test_a_hook_level_reads_as_its_table_says(name):
    room = load(name)
    title, par, needs, _ = TABLE[name]
    assert room.hook and (room.name, room.par, room.needs) == (title, par, needs)
    assert room.teaches and "hook" in room.needs
    text = (CHAPTER / name).read_text(encoding="utf-8")
    assert levelfile.write(room) == text  # canonical


@pytest.mark.parametrize("name", FILES)
def test_par_is_the_shortest_solution_with_the_hook(name):
    room = load(name)
    found = solver.solve(room)
    assert found.status == "solved" and len(found.moves) == room.par
    assert found.text == TABLE[name][3]
    assert found == reference.solve(room)  # the plain engine's search agrees, state for state


@pytest.mark.parametrize("name", FILES)
def test_the_stored_solution_wins_in_exactly_par_moves(name):
    room = load(name)
    solution = moves.parse_moves(TABLE[name][3])
    for engine in (rules, reference):
        played = engine.replay(room, solution)
        assert (played.status, played.moves) == ("won", room.par)
        assert engine.replay(room, solution[:-1]).status == "playing"
    # and as the game plays it: in a hook room the hook is the player's own
    game = rules.Game(room)
    assert [game.play(m).status for m in solution][-1] == "won" and game.moves == room.par


@pytest.mark.parametrize("name", FILES)
def test_each_need_is_proved_and_no_other(name):
    room = load(name)
    found = proofs.prove(room)
    assert proofs.refusals(room, found) == []
    assert dict(found.needs) == {rule: "impossible" for rule in room.needs}
    assert proofs.unlisted(room) == []
    for rule in SWITCHES:
        if rule not in room.needs:
            assert proofs.needs(room, rule) == "solved", rule
    # without the hook it is a plain room, and a plain room cannot be won
    assert solver.solve(replace(room, hook=False)).status == "impossible"


def chapter_depth(room):
    """States, dead states and forks (``gen.depth``'s measures) on the hook's state graph,
    counted here on the graph itself, apart from ``depth.measure``."""
    graph = solver.explore(room, max_states=200_000)
    assert graph.complete
    live = depth.live_states(graph)
    parent, seen = [-1] * len(graph), {0}
    for i in range(len(graph)):
        for c in graph.children[i]:
            if c >= 0 and c not in seen:
                seen.add(c)
                parent[c] = i
    path = [graph.won.index(True)]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    path.reverse()
    forks = 0
    for k, i in enumerate(path[:-1]):
        back = path[k - 1] if k else -1
        forks += len({c for c in graph.children[i] if c >= 0 and c != back and live[c]}) >= 2
    return len(graph), len(graph) - sum(live), forks, len(path) - 1


#: file: (states, dead, forks), as docs/hook.md gives them.
DEPTH = {
    "01-reach.txt": (287, 0, 11),
    "02-bridge.txt": (14, 1, 3),
    "03-leap.txt": (13, 4, 3),
    "04-fetch.txt": (13, 4, 3),
    "05-lift.txt": (6, 0, 3),
    "06-fill.txt": (892, 268, 13),
    "07-round.txt": (8, 0, 1),
    "08-deep.txt": (1051, 307, 19),
}
#: file: (box lines, box changes, pushes, hook pulls) of the solver's shortest solution.
CRATE_PLAY = {
    "01-reach.txt": (2, 0, 1, 1),
    "02-bridge.txt": (1, 0, 0, 1),
    "03-leap.txt": (0, 0, 0, 0),
    "04-fetch.txt": (2, 0, 1, 1),
    "05-lift.txt": (0, 0, 0, 0),
    "06-fill.txt": (3, 1, 2, 2),
    "07-round.txt": (0, 0, 0, 0),
    "08-deep.txt": (6, 3, 3, 4),
}


@pytest.mark.parametrize("name", FILES)
def test_the_depth_measures_are_the_docs(name):
    room = load(name)
    states, dead, forks, length = chapter_depth(room)
    assert (states, dead, forks) == DEPTH[name]
    assert length == room.par  # the graph's shortest way to a win is the par
    assert set(solver.explore(room).names) == set(moves.moves_for(hook=True))


@pytest.mark.parametrize("name", FILES)
def test_depth_measure_reads_hook_moves_as_hooks(name):
    """``gen.depth.measure`` on a hook room's graph: the counts above, and its crate play
    follows the crates the hook pulls (it once read a hook's move number as a step's)."""
    room = load(name)
    graph = solver.explore(room, max_states=200_000, losses=True)
    measured = depth.measure(graph)
    assert (measured.states, measured.dead, measured.forks) == DEPTH[name]
    assert measured.solution == room.par
    assert (measured.lines, measured.changes, measured.pushes,
            measured.pulls) == CRATE_PLAY[name]
    # the path it measured is the stored solution's, state for state
    end = measured.path[-1]
    played = rules.replay(room, moves.parse_moves(TABLE[name][3]))
    assert played.state == graph.tables.state(graph.player(end), list(graph.crates(end)))


def test_docs_levels_gives_each_hook_levels_row_and_solution():
    """docs/levels.md's chapter 4: its table row as ``gen.depth`` measures it (states, the
    dead share, forks, box lines, box changes, the random walkers' wins), and its heading."""
    doc = (CHAPTER.parent.parent / "docs" / "levels.md").read_text(encoding="utf-8")
    lines = doc.splitlines()
    for n, name in enumerate(FILES, 1):
        room = load(name)
        title, par, needs, solution = TABLE[name]
        graph = solver.explore(room, max_states=200_000, losses=True)
        m = depth.measure(graph)
        walk = depth.random_walk(graph)
        row = (f"| 4.{n} | {title} | {par} | {', '.join(needs)} | `{solution}` | {m.states} "
               f"| {m.dead_share:.2f} | {m.forks} | {m.lines} | {m.changes} "
               f"| {100 * walk:.1f}% |")
        assert row in lines, row
        heading = f"## 4.{n}. {title} (par {par}): `{solution}`"
        assert heading in lines, heading
        assert lines[lines.index(heading) + 2].startswith("*Idea:* ")


def test_the_last_level_is_as_deep_as_a_hard_made_room():
    states, dead, forks, _ = chapter_depth(load(FILES[-1]))
    assert states >= 1000 and dead >= 1 and forks >= 8


def test_the_docs_give_each_levels_solution_and_measures():
    doc = (CHAPTER.parent.parent / "docs" / "hook.md").read_text(encoding="utf-8")
    for name in FILES:
        title, par, _, solution = TABLE[name]
        states, dead, forks = DEPTH[name]
        assert f"`{solution}`" in doc, name
        assert f"| {name[:2]} {title} | {par} | {states} | {dead} | {forks} |" in doc, name


# -- the commands on hook rooms -----------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_solve_a_hook_room_counts_hooks_and_without_hook_proves_it(capsys):
    path = str(CHAPTER / "03-leap.txt")
    assert run(capsys, "solve", path) == (0, "solution: 3\nmoves: hRDR\n", "")
    rc, out, _ = run(capsys, "solve", path, "--without", "hook")
    assert rc == 1 and out.startswith("impossible: ")
    rc, out, _ = run(capsys, "solve", str(CHAPTER / "07-round.txt"), "--without", "wrap, hook")
    assert rc == 1


def test_solve_without_hook_is_refused_outside_a_hook_room(capsys):
    rc, out, err = run(capsys, "solve", "1", "--without", "hook")
    assert rc == 2 and out == "" and "not a hook room" in err
    rc, _, err = run(capsys, "solve", str(CHAPTER / "03-leap.txt"), "--hook", "--without", "hook")
    assert rc == 2 and "one or the other" in err


def test_replay_and_hint_take_a_hook_rooms_moves(capsys):
    path = str(CHAPTER / "04-fetch.txt")
    rc, out, _ = run(capsys, "replay", path, "R hA L")
    assert rc == 0 and out.splitlines()[:2] == ["status: playing", "moves: 3"]
    assert run(capsys, "hint", path) == (0, "next: R\nmoves: RhALRRR\n", "")
    # from after the fetch, the way on steps away first
    assert run(capsys, "hint", path, "RhA") == (0, "next: L\nmoves: LRRR\n", "")
    # stepping away the wrong way leaves the crate where no push brings it to the tower
    rc, out, _ = run(capsys, "hint", path, "RhAR")
    assert (rc, out) == (1, "lost: undo 1\n")


def test_code_and_show_carry_the_hook(capsys):
    for name in FILES:
        rc, out, _ = run(capsys, "code", str(CHAPTER / name))
        code = out.strip()
        assert rc == 0 and code[0] == ("G" if load(name).wrap else "F")
        rc, shown, _ = run(capsys, "show", code)
        assert rc == 0 and "hook: yes\n" in shown
        assert levelfile.parse(shown).hook
    rc, out, _ = run(capsys, "code", "--named", str(CHAPTER / FILES[0]))
    rc, shown, _ = run(capsys, "show", out.strip())
    assert shown.startswith("name: reach\nteaches: a crate in a corner")
    assert codes.decode(out.strip()).name == "reach"


def test_the_way_on_in_a_hook_room_takes_the_hook():
    room = load("02-bridge.txt")
    way = solver.way_on(room, rules.start(room).state)
    assert way.status == "solvable" and "hR" in way.moves
    plain = solver.way_on(room, rules.start(room).state, hook=False)
    assert plain.status == "lost"


def test_render_plays_a_hook_rooms_hooks_first(capsys, tmp_path):
    import numpy as np
    import pygame

    from anabasis.app.viewer import slicemap

    path = str(CHAPTER / "04-fetch.txt")
    out = tmp_path / "map.png"
    rc, _, err = run(capsys, "render", path, "--moves", "RhA", "--map", "--size", "640x360",
                     "-o", str(out))
    assert rc == 0, err
    room = load("04-fetch.txt")
    state = rules.replay(room, moves.parse_moves("RhA")).state
    expected = slicemap.image(room, state, (640, 360))  # the crate on your head, tagged
    got = np.transpose(pygame.surfarray.array3d(pygame.image.load(str(out))), (1, 0, 2))
    assert np.array_equal(got, expected)
    # outside a hook room a hook is still refused
    rc, _, err = run(capsys, "render", "1", "--moves", "hR", "--map", "-o", str(out))
    assert rc != 0 and "hook" in err
