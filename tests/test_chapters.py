"""The chapters after the tutorial, each level proved, and the chapter layout.

For every level of chapters 2 and 3, as ``tests/test_levels.py`` does for
the seven: its par is the solver's shortest solution; the stored solution
(here and in ``docs/levels.md``) wins in exactly par moves; its ``needs:``
line is exact, each rule proved; the hook saves nothing; it round-trips
through the text writer and its room code.  And what a new level must be
besides: impossible without w's gravity, every shortest solution climbing
in z or slipping in w, its depth measures as ``docs/levels.md`` gives them,
depth rising through its chapter, and the last levels as deep as a hard
made room.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from anabasis import cli
from anabasis.engine import rules
from anabasis.engine.solver import explore, solve
from anabasis.engine.world import SWITCHES, Room, State
from anabasis.formats import codes, levelfile, levels, source
from anabasis.gen.depth import measure, random_walk

#: chapter -> (folder, title, [(file, par, needs, solution), ...]).
CHAPTERS = {
    2: ("02-crates", "crates in four dimensions", [
        ("01-step.txt", 8, ("gravity-w", "crates"), "RDLDRRRR"),
        ("02-keep.txt", 14, ("gravity-w", "crates"), "RRDDLDRRRRRUUU"),
        ("03-fetch.txt", 21, ("gravity-w", "ramps", "crates"), "RDDRDRUUDLDLLUURRURRR"),
        ("04-ledge.txt", 15, ("gravity-w", "crates"), "DRRURRDLULDDRLL"),
        ("05-higher-up.txt", 14, ("gravity-w", "crates"), "RURRDULURRRDUU"),
        ("06-backstop.txt", 16, ("gravity-w", "crates"), "DRRRUDRLLDRRDRUR"),
        ("07-two-in-a-shaft.txt", 18, ("gravity-w", "crates"), "RRUURRLLLDRRRRDUUL"),
        ("08-underpass.txt", 20, ("gravity-w", "ramps", "crates"), "LLDRDDRRULDLUURRRRRU"),
    ]),
    3: ("03-wrap", "the wrap", [
        ("01-descending.txt", 10, ("gravity-w", "wrap"), "RRRDDDLLLU"),
        ("02-round.txt", 8, ("gravity-w", "wrap"), "RDDRRRUU"),
        ("03-ramp-round.txt", 7, ("gravity-w", "ramps", "wrap"), "URRRDLD"),
        ("04-from-above.txt", 10, ("gravity-w", "crates", "wrap"), "RDDRULURRR"),
        ("05-climb-round.txt", 7, ("gravity-w", "crates", "wrap"), "LDRDURR"),
        ("06-far-gap.txt", 10, ("gravity-w", "crates", "wrap"), "DRRRRURDDD"),
        ("07-rounds.txt", 16, ("gravity-w", "crates", "wrap"), "DRURDRDULDLDRRRR"),
        ("08-ring.txt", 22, ("gravity-w", "ramps", "crates", "wrap"), "DRRDRRRDUULULDLDRRRUDD"),
    ]),
}
LEVELS = [(c, n) for c, (_, _, rows) in CHAPTERS.items() for n in range(1, len(rows) + 1)]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "levels.md"
#: How deep a chapter's last levels are, at the least: a hard made room's measures.
DEEP_STATES, DEEP_FORKS, DEEP_WALK = 1000, 8, 0.01
#: How many of each chapter's levels, from the end, must be that deep.
DEEP_LAST = 2


def row(c: int, n: int):
    return CHAPTERS[c][2][n - 1]


@pytest.fixture(scope="module", params=LEVELS, ids=lambda cn: f"level{cn[0]}.{cn[1]}")
def level(request) -> tuple[int, int, Room]:
    c, n = request.param
    return c, n, levels.chapter(c).load(n)


@pytest.fixture(scope="module")
def graphs() -> dict:
    """Each level's whole state graph (with losing moves) and its measures."""
    out = {}
    for c, n in LEVELS:
        room = levels.chapter(c).load(n)
        graph = explore(room, max_states=1_000_000, losses=True)
        assert graph.complete
        out[c, n] = graph, measure(graph)
    return out


def play(room: Room, moves: str):
    first = rules.start(room)
    state, status, taken = first.state, first.status, 0
    for move in moves:
        assert status == "playing", f"{moves} goes on after the game ended ({status})"
        result = rules.step(room, state, move)
        assert result.moved, f"move {taken + 1} ({move}) of {moves} changes nothing"
        state, status = result.state, result.status
        taken += 1
    return status, taken


# -- the layout, and the calls that keep meaning chapter 1 -----------------------------


def test_chapters_are_the_tutorial_then_the_folders_in_order():
    found = levels.chapters()
    assert [c.number for c in found][:3] == [1, 2, 3]
    assert found[0].title == "the two downs"
    assert found[0].folder == levels.LEVELS_DIR
    for c, (folder, title, rows) in CHAPTERS.items():
        chapter = levels.chapter(c)
        assert chapter.folder.name == folder
        assert chapter.title == title
        assert [p.name for p in chapter.paths] == [r[0] for r in rows]
        assert chapter.opens == Fraction(2, 3)
        assert chapter.playable()


def test_the_old_calls_still_mean_chapter_1():
    assert levels.count() == 7
    assert [p.parent for p in levels.level_paths()] == [levels.LEVELS_DIR] * 7
    assert levels.level_paths() == list(levels.chapter(1).paths)
    assert levels.level_path(3).name == "03-around.txt"
    assert levels.load_level(3) == levels.chapter(1).load(3)


def test_at_least_23_levels_in_three_chapters():
    playable = [c for c in levels.chapters() if c.playable()]
    assert len(playable) >= 3
    assert sum(len(c) for c in playable) >= 23
    for c in playable[1:]:
        assert len(c) >= 8


def test_a_chapter_opens_when_two_thirds_of_the_one_before_are_solved():
    two, three = levels.chapter(2), levels.chapter(3)
    assert levels.chapter(1).needed(0) == 0  # the tutorial is always open
    assert two.needed(levels.count()) == 5  # 5 of the 7
    assert three.needed(len(two)) == 6  # 6 of the 8


def test_a_level_is_named_by_chapter_and_number():
    assert levels.parse_number("2.4") == (2, 4)
    assert levels.parse_number("3") == (1, 3)
    assert levels.parse_number("03") == (1, 3)
    assert levels.parse_number("02.04") == (2, 4)
    for text in ("2.", ".4", "2.4.1", "-2.4", "2,4", "a.1", ""):
        assert levels.parse_number(text) is None, text
    assert levels.chapter(2).source(4) == "2.4"
    assert levels.chapter(1).source(4) == "4"


def test_source_c_n_opens_that_chapters_level():
    assert source.resolve("2.4") == levels.chapter(2).load(4)
    assert source.resolve("3.8") == levels.chapter(3).load(8)
    assert source.resolve("3") == levels.load_level(3)
    assert source.resolve("1.3") == levels.load_level(3)


@pytest.mark.parametrize("text, says", [
    ("9.1", "no chapter 9: the chapters are 1, 2, 3"),
    ("2.9", "no level 2.9: chapter 2 has levels 1 to 8"),
    ("2.0", "no level 2.0: chapter 2 has levels 1 to 8"),
    ("1.8", "no level 8: the levels are 1 to 7"),
    ("-2.4", "no level -2.4"),
    ("2." + "4" * 20, "no level 2.4444"),
])
def test_source_refuses_a_level_that_is_not_there(text, says):
    with pytest.raises(source.SourceError) as e:
        source.resolve(text)
    assert says in str(e.value)


def test_cli_takes_a_chapter_level_everywhere_a_source_is_taken(capsys, tmp_path):
    room = levels.chapter(2).load(4)
    assert cli.main(["solve", "2.4"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"solution: {room.par}"
    assert cli.main(["replay", "2.4", row(2, 4)[3]]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "status: won"
    assert cli.main(["hint", "2.4"]) == 0
    assert row(2, 4)[3][0] in capsys.readouterr().out
    assert cli.main(["code", "2.4"]) == 0
    assert capsys.readouterr().out.strip() == codes.encode(room)
    assert cli.main(["show", "3.1"]) == 0
    assert "wrap: w" in capsys.readouterr().out
    assert cli.main(["solve", "2.9"]) == 2
    assert "no level 2.9" in capsys.readouterr().err


def test_a_new_chapter_folder_is_picked_up_without_code(tmp_path):
    for p in levels.level_paths():
        (tmp_path / p.name).write_bytes(p.read_bytes())
    folder = tmp_path / "05-mine"
    folder.mkdir()
    (folder / "01-corridor.txt").write_text("par: 3\n\n##### #####\n\n##### #@..*\n")
    (folder / "02-notes.md").write_text("not a level")
    (tmp_path / "06-empty").mkdir()  # no levels: no chapter
    (tmp_path / "notes").mkdir()  # not NN-slug: not a chapter
    found = levels.chapters(tmp_path)
    assert [c.number for c in found] == [1, 5]
    mine = found[1]
    assert mine.title == "mine"  # no chapter file: the folder's slug
    assert mine.opens == levels.DEFAULT_OPENS
    assert [p.name for p in mine.paths] == ["01-corridor.txt"]
    assert mine.load(1).par == 3
    (folder / "chapter.txt").write_text("name: my rooms\nopens: 1/2\n")
    assert levels.chapters(tmp_path)[1].title == "my rooms"
    assert levels.chapters(tmp_path)[1].needed(7) == 4


def test_a_chapter_this_engine_cannot_read_yet_lists_and_refuses_only_on_load(tmp_path):
    folder = tmp_path / "04-hook"
    folder.mkdir()
    (folder / "01-pull.txt").write_text("hook: yes\npar: 3\n\n##### #####\n\n##### #@..*\n")
    (folder / "chapter.txt").write_text("name: the hook\n")
    (chapter,) = levels.chapters(tmp_path)[1:]
    assert chapter.number == 4 and len(chapter) == 1 and chapter.title == "the hook"
    if "hook" not in levelfile.KEYS:  # on an engine without the hook's header
        assert not chapter.playable()
        with pytest.raises(levelfile.LevelError):
            chapter.load(1)


@pytest.mark.parametrize("text, says", [
    ("title: x\n", "holds only name:, opens: lines"),
    ("name: a\nname: b\n", "'name' repeated"),
    ("opens: 3/2\n", "opens is a share from 0 to 1"),
    ("opens: most\n", "opens is a share from 0 to 1"),
    ("opens: 1/0\n", "opens is a share from 0 to 1"),
])
def test_a_bad_chapter_file_is_refused_with_its_line(text, says):
    with pytest.raises(levelfile.LevelError) as e:
        levels.parse_chapter(text, "chapter.txt")
    assert says in str(e.value) and str(e.value).startswith("chapter.txt:")


def test_a_chapter_file_reads_comments_shares_and_decimals():
    assert levels.parse_chapter("# a comment\n\nname: x\nopens: 0.75\n") == ("x", Fraction(3, 4))
    assert levels.parse_chapter("", default_title="d") == ("d", levels.DEFAULT_OPENS)


def test_the_wheel_carries_the_chapter_folders():
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    line = next(x for x in pyproject.splitlines() if x.startswith('"anabasis.levels" = ['))
    assert '"*/*.txt"' in line and '"*.txt"' in line


# -- each level, proved ----------------------------------------------------------------


def test_header_matches_the_table(level):
    c, n, room = level
    name, par, needs, _ = row(c, n)
    assert room.name == name[3:-4].replace("-", " ")
    assert room.par == par
    assert room.needs == needs
    assert room.wrap == (c == 3)
    assert room.view == "stand"
    assert room.teaches and len(room.teaches) <= 80, "one line the game shows"


def test_no_two_levels_share_a_name_or_a_teaches_line():
    rooms = [levels.chapter(c).load(n) for c, n in LEVELS]
    rooms += [levels.load_level(n) for n in range(1, 8)]
    assert len({r.name for r in rooms}) == len(rooms)
    assert len({r.teaches for r in rooms}) == len(rooms)


def test_room_is_small_enough_to_take_in_at_a_glance(level):
    _, _, room = level
    X, Y, Z, W = room.size
    assert X <= 9 and Y <= 9 and Z <= 4 and W <= 6


def test_start_is_neither_lost_nor_won(level):
    _, _, room = level
    assert rules.start(room).status == "playing"


def test_shortest_solution_is_par(level):
    c, n, room = level
    result = solve(room)
    assert result.status == "solved"
    assert len(result.moves) == room.par == row(c, n)[1]


def test_stored_solution_wins_in_exactly_par_moves(level):
    c, n, room = level
    moves = row(c, n)[3]
    assert play(room, moves) == ("won", room.par)
    assert play(room, moves[:-1])[0] == "playing"


def test_each_needs_entry_is_proved_impossible(level):
    _, _, room = level
    for rule in room.needs:
        assert solve(room, without=(rule,)).status == "impossible", rule


def test_rules_not_listed_in_needs_leave_it_solvable(level):
    _, _, room = level
    for rule in SWITCHES:
        if rule not in room.needs:
            assert solve(room, without=(rule,)).status == "solved", rule


def test_every_new_level_is_impossible_without_ws_gravity(level):
    _, _, room = level
    assert "gravity-w" in room.needs
    assert solve(room, without=("gravity-w",)).status == "impossible"


def test_every_crate_is_needed(level):
    # No crate is there for show: without any one of them the level cannot be won.
    _, _, room = level
    for crate in room.start.crates:
        rest = [c for c in room.start.crates if c != crate]
        fewer = replace(room, start=State.of(room.start.player, rest))
        assert solve(fewer).status == "impossible", crate


def test_every_ramp_is_needed(level):
    # No ramp is there for show either: as a plain block, each one leaves the room
    # unsolvable (3.8 had four that changed nothing at all, and read as busy).
    _, _, room = level
    head, _, body = levelfile.write(room).partition("\n\n")
    for at, ch in enumerate(body):
        if ch in "<>^v":
            plain = levelfile.parse(head + "\n\n" + body[:at] + "#" + body[at + 1:])
            assert solve(plain).status == "impossible", (at, ch)


def test_hook_saves_nothing(level):
    _, _, room = level
    result = solve(room, hook=True)
    assert result.status == "solved"
    assert len(result.moves) == room.par


def test_round_trips_through_the_text_writer_and_is_canonical(level):
    c, n, room = level
    text = levelfile.write(room)
    assert levelfile.parse(text) == replace(room, name=room.name)
    assert levels.chapter(c).level_path(n).read_text() == text


def test_round_trips_through_its_room_code(level):
    _, _, room = level
    code = codes.encode(room)
    assert len(code) <= 80
    assert code[0] == ("E" if room.wrap else "D")
    back = codes.decode(code)
    assert back == replace(room, name="", teaches="", par=None, needs=())
    assert len(solve(back).moves) == room.par


def climbs_and_slips(graph) -> dict:
    """Per edge (a, b) of the graph: (the player climbed in z, the player slipped in w)."""
    t = graph.tables
    search = graph._search  # the move numbers' directions
    out = {}
    for a in range(len(graph)):
        p = graph.player(a)
        for b, m in zip(graph.children[a], graph.moves[a], strict=True):
            if b < 0:
                continue
            crates = list(graph.crates(a))
            stepped = rules.step_movers(t, p, crates, search.codes[m][1])
            settled, _, _ = rules.settle_movers(t, stepped, crates)
            out[a, b] = (t.pos[stepped][2] > t.pos[p][2], t.pos[settled][3] != t.pos[stepped][3])
    return out


def plain_shortest_solution_exists(graph, length: int) -> bool:
    """Whether some shortest solution neither climbs in z nor slips in w anywhere."""
    n = len(graph)
    back: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for c in graph.children[i]:
            if c >= 0:
                back[c].append(i)
    to_win = [-1] * n
    todo = deque(i for i in range(n) if graph.won[i])
    for i in todo:
        to_win[i] = 0
    while todo:
        i = todo.popleft()
        for p in back[i]:
            if to_win[p] < 0:
                to_win[p] = to_win[i] + 1
                todo.append(p)
    kinds = climbs_and_slips(graph)
    plain = {0}
    frontier = [0]
    for depth in range(length):
        nxt = []
        for i in frontier:
            for c in graph.children[i]:
                if (c >= 0 and c not in plain and to_win[c] == length - depth - 1
                        and not any(kinds[i, c])):
                    plain.add(c)
                    nxt.append(c)
        frontier = nxt
    return any(graph.won[i] for i in frontier)


def test_every_shortest_solution_climbs_in_z_or_slips_in_w(level, graphs):
    c, n, room = level
    graph, depth = graphs[c, n]
    assert depth.solution == room.par
    assert not plain_shortest_solution_exists(graph, room.par)


def test_the_check_finds_a_plain_shortest_solution_where_there_is_one():
    # Level 1.1 is walked on one floor: the check must say so, or it proves nothing.
    room = levels.load_level(1)
    assert plain_shortest_solution_exists(explore(room, losses=True), room.par)


# -- depth: as the docs give it, rising, deep at the end -------------------------------


def docs_rows() -> dict[str, list[str]]:
    out = {}
    for line in DOCS.read_text().splitlines():
        cells = [x.strip() for x in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(r"[0-9]+\.[0-9]+", cells[0]):
            out[cells[0]] = cells
    return out


def test_docs_table_gives_each_levels_depth_measures(level, graphs):
    c, n, room = level
    _, depth = graphs[c, n]
    cells = docs_rows()[f"{c}.{n}"]
    # | C.N | name | par | needs | solution | states | dead | forks | lines | changes |
    assert cells[1] == room.name
    assert cells[2] == str(room.par)
    assert cells[3] == ", ".join(room.needs)
    assert cells[4] == f"`{row(c, n)[3]}`"
    assert cells[5:10] == [str(depth.states), f"{depth.dead_share:.2f}", str(depth.forks),
                           str(depth.lines), str(depth.changes)]


def test_docs_give_each_levels_solution_and_idea():
    text = DOCS.read_text().splitlines()
    for c, n in LEVELS:
        name, par, _, moves = row(c, n)
        title = name[3:-4].replace("-", " ")
        heading = f"## {c}.{n}. {title} (par {par}): `{moves}`"
        assert heading in text, f"docs/levels.md lacks {heading!r}"
        at = text.index(heading)
        idea = text[at + 2]
        assert idea.startswith("*Idea:* ") and len(idea) > 20, heading


def test_depth_rises_through_each_chapter(graphs):
    for c, (_, _, rows) in CHAPTERS.items():
        states = [graphs[c, n][1].states for n in range(1, len(rows) + 1)]
        assert states == sorted(states) and len(set(states)) == len(states), (c, states)


def test_each_chapter_ends_as_deep_as_a_hard_made_room(graphs):
    for c, (_, _, rows) in CHAPTERS.items():
        for n in range(len(rows) - DEEP_LAST + 1, len(rows) + 1):
            graph, depth = graphs[c, n]
            assert depth.states >= DEEP_STATES, (c, n)
            assert depth.dead > 0, (c, n)
            assert depth.forks >= DEEP_FORKS, (c, n)
            assert random_walk(graph, 200, 300, seed=0) <= DEEP_WALK, (c, n)


def test_each_chapters_last_level_combines_its_idea_with_earlier_ones():
    # Crates with ramps (chapter 1) at the end of chapter 2; crates and ramps
    # with the wrap at the end of chapter 3.
    assert set(levels.chapter(2).load(8).needs) >= {"gravity-w", "ramps", "crates"}
    assert set(levels.chapter(3).load(8).needs) == {"gravity-w", "ramps", "crates", "wrap"}


def test_bench_proves_every_chapter():
    from anabasis.bench import levels as bench_levels

    figures = dict(bench_levels.bench())
    readable = sum(len(c) for c in levels.chapters() if c.playable())
    assert figures["levels.proved"] == readable >= 23
    assert figures["levels.unread"] == sum(len(c) for c in levels.chapters()) - readable
