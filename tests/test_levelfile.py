"""The level text format: exact round trips, and every refusal at its exact place."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from anabasis.engine import rules
from anabasis.engine.cells import BLOCK, STATIC
from anabasis.engine.world import SWITCHES, VIEWS, Room, State
from anabasis.formats import levelfile
from anabasis.formats.levelfile import LevelError, load, parse, write, write_map

# RULES.md's example, canonical as written.  Line numbers below count from 1:
# the player '@' is on line 11, column 8; the goal on line 11, column 11.
CORRIDOR = """\
name: corridor
par: 3
wrap: no
view: stand

##### ##### #####
##### ##### #####
##### ##### #####

##### ##### .....
##### #@..* .....
##### ##### .....
"""


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def with_line(n: int, new: str, text: str = CORRIDOR) -> str:
    """CORRIDOR with line ``n`` (1-based) replaced."""
    lines = lines_of(text)
    lines[n - 1] = new
    return "\n".join(lines)


def refusal(text: str) -> tuple[int, int, str]:
    with pytest.raises(LevelError) as info:
        parse(text, "t.txt")
    e = info.value
    assert str(e) == f"t.txt:{e.line}:{e.col}: {e.message}"
    assert "\n" not in str(e)
    return e.line, e.col, e.message


# -- what the format reads --------------------------------------------------------


def test_the_rules_example_reads_as_rules_md_says():
    room = parse(CORRIDOR)
    assert room.size == (5, 3, 3, 2)
    assert room.start == State.of((1, 1, 1, 1))
    assert room.goal == (4, 1, 1, 1)
    assert room.cell((0, 0, 0, 0)) == BLOCK and room.cell((2, 1, 1, 1)) == 0
    assert (room.name, room.par, room.wrap, room.view) == ("corridor", 3, False, "stand")


def test_write_of_a_canonical_file_is_the_file():
    assert write(parse(CORRIDOR)) == CORRIDOR


def test_movers_on_the_goal_read_and_write_back():
    text = "wrap: no\nview: stand\n\n### ### ###\n\n### #@% ...\n"
    room = parse(text)
    assert room.goal == (2, 0, 1, 1) and room.start.crates == ((2, 0, 1, 1),)
    assert write(room) == text


def test_crlf_trailing_spaces_bom_and_extra_blank_lines_are_accepted():
    loose = "\ufeff" + "\r\n".join(
        (ln + "   " if ln else ln) for ln in lines_of(CORRIDOR.replace("\n\n#", "\n\n\n#"))
    )
    room = parse(loose)
    assert room == parse(CORRIDOR)
    assert write(room) == CORRIDOR


def test_header_spacing_and_needs_order_are_made_canonical():
    text = CORRIDOR.replace("par: 3", "par:3\nneeds:  wrap ,ramps").replace("wrap: no", "wrap: w")
    room = parse(text)
    assert room.needs == ("ramps", "wrap") and room.par == 3
    assert "needs: ramps, wrap\n" in write(room)
    assert write(parse(write(room))) == write(room)


def test_missing_keys_take_their_defaults():
    room = parse(CORRIDOR.split("\n\n", 1)[1])
    assert (room.name, room.teaches, room.par, room.needs, room.wrap, room.view) == (
        "", "", None, (), False, "stand")
    assert write(room) == "wrap: no\nview: stand\n\n" + CORRIDOR.split("\n\n", 1)[1]


def test_empty_needs_and_name_are_nothing():
    room = parse(CORRIDOR.replace("name: corridor", "name:\nneeds:"), default_name="fallback")
    assert room.needs == () and room.name == "fallback"


def test_load_names_a_level_after_its_file(tmp_path):
    path = tmp_path / "07-long-way.txt"
    path.write_text(CORRIDOR.replace("name: corridor\n", ""))
    assert load(path).name == "long-way"
    path.write_text(CORRIDOR)
    assert load(path).name == "corridor"


def test_write_map_draws_a_state():
    room = parse(CORRIDOR)
    moved = State.of((4, 1, 1, 1))
    assert write_map(room, moved).splitlines()[-2] == "##### #...+ ....."


def test_write_refuses_a_name_it_could_not_read_back():
    room = parse(CORRIDOR)
    for bad in ("two\nlines", " padded", "tab\there"):
        with pytest.raises(ValueError):
            write(Room(room.size, room.cells, room.goal, room.start, name=bad))


# -- round trips ----------------------------------------------------------------


@st.composite
def rooms(draw):
    """A random room whose start settles to 'playing', with a random header."""
    X = draw(st.integers(1, 6))
    Y = draw(st.integers(1, 5))
    Z = draw(st.integers(2, 4))
    W = draw(st.integers(2, 4))
    cells = bytearray(draw(st.lists(st.sampled_from(STATIC), min_size=X * Y * Z * W,
                                    max_size=X * Y * Z * W)))
    shape = Room.empty((X, Y, Z, W), (0, 0, 0, 0), (0, 0, 0, 0))
    # the player stands held on a block below and a block kata
    px, py = draw(st.integers(0, X - 1)), draw(st.integers(0, Y - 1))
    pz, pw = draw(st.integers(1, Z - 1)), draw(st.integers(1, W - 1))
    player = (px, py, pz, pw)
    cells[shape.index(player)] = 0
    cells[shape.index((px, py, pz - 1, pw))] = BLOCK
    cells[shape.index((px, py, pz, pw - 1))] = BLOCK
    empties = [p for p in shape.positions() if cells[shape.index(p)] == 0 and p != player]
    assume(empties)
    goal = draw(st.sampled_from(empties))
    crates = draw(st.lists(st.sampled_from(empties), unique=True, max_size=3))
    text = st.text("abcdefghij -,.'", max_size=12).map(lambda s: s.strip(" "))
    room = Room((X, Y, Z, W), bytes(cells), goal, State.of(player, crates),
                wrap=draw(st.booleans()), name=draw(text), teaches=draw(text),
                par=draw(st.none() | st.integers(1, 999)),
                needs=tuple(s for s in SWITCHES if draw(st.booleans())),
                view=draw(st.sampled_from(VIEWS)), hook=draw(st.booleans()))
    if room.hook and draw(st.booleans()):
        room = replace(room, needs=(*room.needs, "hook"))
    assume(rules.start(room).status == "playing")
    return room


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rooms())
def test_parse_of_write_is_the_room_and_write_is_stable(room):
    text = write(room)
    again = parse(text)
    assert again == room
    assert write(again) == text


# -- refusals, each at its place ------------------------------------------------


def test_refuses_an_empty_file():
    assert refusal("") == (1, 1, "the file has no map")
    assert refusal("\n\n")[:2] == (2, 1)


def test_refuses_a_file_of_headers_only():
    assert refusal("name: x\npar: 2\n") == (2, 7, "the file has no map")


def test_refuses_a_layer_too_short():
    line, col, msg = refusal(with_line(11, "##### #@.* ....."))
    assert (line, col) == (11, 11) and "space inside a layer" in msg


def test_refuses_a_layer_too_long():
    line, col, msg = refusal(with_line(11, "##### #@..*. ....."))
    assert (line, col) == (11, 12) and "expected the space between layers" in msg


def test_refuses_a_row_with_too_few_layers():
    line, col, msg = refusal(with_line(11, "##### #@..*"))
    assert (line, col) == (11, 12) and "ends early" in msg


def test_refuses_a_row_with_too_many_layers():
    line, col, msg = refusal(with_line(11, "##### #@..* ..... ....."))
    assert (line, col) == (11, 18) and "longer than 3 layers of 5" in msg


def test_refuses_ragged_layers_in_the_first_row():
    line, col, msg = refusal(with_line(6, "##### #### #####"))
    assert (line, col) == (6, 11) and "a layer 4 wide, and the first is 5" in msg
    line, col, msg = refusal(with_line(6, "##### ###### #####"))
    assert (line, col) == (6, 12)


def test_refuses_two_spaces_between_layers():
    line, col, msg = refusal(with_line(6, "#####  ##### #####"))
    assert (line, col) == (6, 7) and "exactly one space" in msg
    assert refusal(with_line(7, "#####  ##### #####"))[:2] == (7, 7)


def test_refuses_a_row_that_starts_with_a_space():
    assert refusal(with_line(6, " ##### ##### #####"))[:2] == (6, 1)
    assert refusal(with_line(8, " ##### ##### #####"))[:2] == (8, 1)


def test_refuses_an_unknown_character():
    line, col, msg = refusal(with_line(11, "##### #@.x* ....."))
    assert (line, col) == (11, 10) and "unknown cell character 'x'" in msg


def test_a_mistyped_header_gets_a_hint():
    line, col, msg = refusal("nme corridor\n" + CORRIDOR)
    assert (line, col) == (1, 1) and "'n'" in msg and "key: value" in msg


def test_refuses_two_players():
    line, col, msg = refusal(with_line(11, "##### #@.@* ....."))
    assert (line, col) == (11, 10) and msg == "a second player (the first is at 11:8)"


def test_refuses_two_goals():
    line, col, msg = refusal(with_line(12, "##### ##### ..*.."))
    assert (line, col) == (12, 15) and msg == "a second goal (the first is at 11:11)"


def test_a_player_in_the_goal_is_a_player_and_a_goal():
    assert refusal(with_line(12, "##### ##### ..+.."))[:3] == (
        12, 15, "a second player (the first is at 11:8)")
    assert refusal(with_line(12, "##### ##### ..%.."))[:3] == (
        12, 15, "a second goal (the first is at 11:11)")


def test_refuses_a_map_with_no_player_at_its_first_line():
    assert refusal(CORRIDOR.replace("@", ".")) == (6, 1, "the map has no player '@'")


def test_refuses_a_map_with_no_goal_at_its_first_line():
    assert refusal(CORRIDOR.replace("*", ".")) == (6, 1, "the map has no goal '*'")


def test_refuses_a_slice_with_too_few_rows():
    text = CORRIDOR.replace("##### ##### .....\n", "", 1)  # line 10 gone
    line, col, msg = refusal(text)
    assert (line, col) == (12, 1) and msg == "slice w=1 has 2 rows, slice w=0 has 3"


def test_refuses_a_slice_with_too_many_rows():
    line, col, msg = refusal(CORRIDOR + "##### ##### .....\n")
    assert (line, col) == (13, 1) and "more rows than slice w=0" in msg


def test_refuses_a_header_line_inside_the_map():
    line, col, msg = refusal(with_line(9, "par: 3"))
    assert (line, col) == (9, 1) and "header line inside the map" in msg


def test_refuses_an_unknown_header_key():
    line, col, msg = refusal(with_line(2, "pars: 3"))
    assert (line, col) == (2, 1) and "unknown header key 'pars'" in msg


def test_refuses_an_upper_case_header_key():
    line, col, msg = refusal(with_line(1, "Name: corridor"))
    assert (line, col) == (1, 1) and "must be lower case" in msg


def test_refuses_a_repeated_header_key():
    line, col, msg = refusal(with_line(5, "par: 4\n"))
    assert (line, col) == (5, 1) and msg == "header key 'par' repeated (first on line 2)"


@pytest.mark.parametrize("value, col", [("three", 6), ("0", 6), ("-1", 6), ("2.5", 6),
                                        ("", 5), ("3 moves", 6), ("  x", 8)])
def test_refuses_a_bad_par(value, col):
    line, at, msg = refusal(with_line(2, f"par: {value}".rstrip(" ") if value else "par:"))
    assert (line, at) == (2, col) and "par must be a whole number" in msg


def test_refuses_bad_needs():
    line, col, msg = refusal(with_line(2, "needs: ramps, gravity"))
    assert (line, col) == (2, 15) and "unknown rule 'gravity'" in msg
    line, col, msg = refusal(with_line(2, "needs: ramps,ramps"))
    assert (line, col) == (2, 14) and "named twice" in msg
    line, col, msg = refusal(with_line(2, "needs: ramps,"))
    assert (line, col) == (2, 14) and "unknown rule ''" in msg


def test_the_hook_header_makes_a_hook_room_and_writes_back():
    text = with_line(2, "par: 3\nneeds: hook\nhook: yes")
    room = parse(text, "t.txt")
    assert room.hook and room.needs == ("hook",)
    assert write(room) == text  # canonical: hook after needs, written only when yes
    assert not parse(with_line(2, "par: 3\nhook: no")).hook
    assert write(parse(with_line(2, "par: 3\nhook: no"))) == CORRIDOR
    assert "hook" not in write(parse(CORRIDOR))


def test_refuses_a_bad_hook():
    line, col, msg = refusal(with_line(3, "hook: w"))
    assert (line, col) == (3, 7) and msg == "hook must be 'no' or 'yes', not 'w'"


def test_refuses_needs_hook_outside_a_hook_room():
    line, col, msg = refusal(with_line(2, "needs: ramps, hook"))
    assert (line, col) == (2, 15) and "'hook' only in a hook room" in msg
    line, col, msg = refusal(with_line(2, "needs: hook\nhook: no"))
    assert (line, col) == (2, 8) and "add 'hook: yes'" in msg
    assert parse(with_line(2, "needs: hook, ramps\nhook: yes")).needs == ("ramps", "hook")


def test_refuses_a_bad_wrap():
    line, col, msg = refusal(with_line(3, "wrap: yes"))
    assert (line, col) == (3, 7) and "wrap must be 'no' or 'w'" in msg


def test_refuses_a_wrap_of_one_slice():
    text = "wrap: w\n\n##### #@..* .....\n"
    line, col, msg = refusal(text)
    assert (line, col) == (1, 7) and "2 or more slices" in msg


def test_refuses_a_bad_view():
    line, col, msg = refusal(with_line(4, "view: up"))
    assert (line, col) == (4, 7) and "view must be one of stand, w-up, both" in msg


def test_refuses_tabs_anywhere():
    assert refusal(with_line(1, "name:\tcorridor"))[:3] == (1, 6, "a tab character (use spaces)")
    assert refusal(with_line(11, "##### #@..*\t....."))[:2] == (11, 12)
    assert refusal(with_line(11, "##### #@..* .....\t"))[:2] == (11, 18)


def test_refuses_control_characters_and_a_lone_cr():
    assert refusal(with_line(11, "##### #@.\x07* ....."))[:2] == (11, 10)
    assert refusal(with_line(11, "##### #@\r..* ....."))[:3] == (
        11, 9, "a control character (U+000D)")


def test_refuses_a_start_that_falls_out():
    assert refusal("par: 1\n\n#@*\n") == (3, 2, "the player falls out of the room at the start")


def test_refuses_a_start_already_won():
    text = "### ###\n\n### #+.\n"
    assert refusal(text) == (3, 6, "the player is already in the goal at the start")


def test_a_start_that_falls_through_the_goal_is_fine():
    # the player starts in the goal but falls out of it onto the floor below
    room = parse("### ### ###\n\n### #.. #+.\n")
    assert rules.start(room).status == "playing"


def test_refuses_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"name: caf\xe9\n" + CORRIDOR.encode())
    with pytest.raises(LevelError) as info:
        load(path)
    assert (info.value.line, info.value.col) == (1, 10)
    assert str(info.value) == f"{path}:1:10: not UTF-8 text (byte 0xe9)"


def test_refuses_a_file_that_cannot_be_read(tmp_path):
    with pytest.raises(LevelError) as info:
        load(tmp_path / "missing.txt")
    assert "cannot read" in str(info.value)


def test_refuses_a_file_too_large_without_reading_it_all(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"#" * (levelfile.MAX_BYTES + 1))
    with pytest.raises(LevelError) as info:
        load(path)
    assert str(info.value) == f"{path}: more than 1 MiB: too large for a level file"
    if Path("/dev/zero").exists():  # it never ends: it is not even opened
        with pytest.raises(LevelError, match="not a regular file"):
            load("/dev/zero")


# -- fuzz: any text is a room or a LevelError, never a crash --------------------------


def parsed_or_refused(text: str) -> None:
    try:
        room = parse(text, "f.txt")
    except LevelError as e:
        assert str(e).startswith("f.txt:") and "\n" not in str(e)
        assert e.line >= 1 and e.col >= 1
        return
    assert parse(write(room)) == room


@settings(max_examples=400, deadline=None)
@given(st.text(".#<>v^$@*+% \n\r\tx:abnmepr", max_size=120))
def test_random_text_parses_or_is_refused(text):
    parsed_or_refused(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(list(".#<>v^$@*+% \n:\t\x00é"))),
                min_size=1, max_size=4))
def test_edited_levels_parse_or_are_refused(edits):
    text = CORRIDOR
    for where, ch in edits:
        i = where % len(text)
        text = text[:i] + ch + text[i + 1 :] if where % 3 else text[:i] + ch + text[i:]
    parsed_or_refused(text)


# -- refusals at their place, and any text -------------------------------------------------

from conftest import REPRODUCIBLE  # noqa: E402

from anabasis.engine.world import MAX_SIZE  # noqa: E402
from anabasis.formats import codes  # noqa: E402

FUZZ = settings(REPRODUCIBLE, max_examples=150)


def test_a_par_of_5000_digits_is_refused_at_its_place():
    text = "par: " + "9" * 5000 + "\n\n##### ##### #####\n\n##### #@..* .....\n"
    with pytest.raises(LevelError) as info:
        levelfile.parse(text, "big.txt")
    assert str(info.value).startswith("big.txt:1:6: par must be a whole number")
    assert len(str(info.value)) < 200


def test_level_files_hold_what_a_code_holds_and_no_more():
    wide = "#" * 17 + "\n\n" + "#@" + "." * 14 + "*\n"
    with pytest.raises(LevelError, match=r"^<level>:1:17: the room is 17 wide in x"):
        levelfile.parse(wide)
    slices = "\n\n".join(["#"] * 9) + "\n"
    with pytest.raises(LevelError, match=r"^<level>:17:1: the room has 9 slices in w"):
        levelfile.parse(slices)
    with pytest.raises(LevelError, match="name is longer than 200"):
        levelfile.parse("name: " + "x" * 201 + "\n\n#@*\n")


MAP_CHARS = st.sampled_from("#.$@*+%<>v^ \n")


@FUZZ
@given(st.one_of(
    st.text(max_size=200),
    st.text(MAP_CHARS, max_size=400),
    st.tuples(st.sampled_from(["", "par: ", "name: ", "wrap: ", "view: ", "needs: "]),
              st.text(max_size=30), st.text(MAP_CHARS, max_size=300)).map(
        lambda t: f"{t[0]}{t[1]}\n\n{t[2]}"),
))
def test_any_text_is_a_level_or_a_level_error(text):
    try:
        room = levelfile.parse(text, "fuzz.txt")
    except LevelError as e:
        assert str(e).startswith("fuzz.txt:") and "\n" not in str(e)
        return
    assert all(n <= m for n, m in zip(room.size, MAX_SIZE, strict=True))
    again = codes.decode(codes.encode(room))  # a level file's room is a code's room
    assert (again.cells, again.goal, again.start) == (room.cells, room.goal, room.start)
