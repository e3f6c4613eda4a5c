"""Room codes: exact round trips, stable frozen codes, and every corruption refused."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anabasis.engine.cells import STATIC
from anabasis.engine.world import MAX_SIZE, VIEWS, Room, State
from anabasis.formats import codes, levelfile
from anabasis.formats.codes import ALPHABET, CodeError, decode, encode

# Codes written by earlier releases, and the room each must open, for good:
# (code, levelfile.write of the decoded room).  Never edit an entry; add new ones.
FROZEN = [
    (
        'DCEiWNbKSOyh_wpEk',
        'wrap: no\n'
        'view: stand\n'
        '\n'
        '##### ##### #####\n'
        '##### ##### #####\n'
        '##### ##### #####\n'
        '\n'
        '##### ##### .....\n'
        '##### #@..* .....\n'
        '##### ##### .....\n'
    ),
    (
        'EBik2Pl-8hYjPJQ339B',
        'wrap: w\n'
        'view: w-up\n'
        '\n'
        '#### #... ....\n'
        '#### ##.. ....\n'
        '\n'
        '#### #... ....\n'
        '#### #@.. ....\n'
        '\n'
        '#### #.*. ....\n'
        '#### #... ....\n'
    ),
    (
        'DCklWJxm7M2hkr_3keInENwVtCPXu',
        'wrap: no\n'
        'view: both\n'
        '\n'
        '###### ###### ......\n'
        '###### ###### ......\n'
        '###### ###### ......\n'
        '\n'
        '###### #>.<.. ......\n'
        '###### #v.^.. ......\n'
        '###### ###### ......\n'
        '\n'
        '###### #.$... ......\n'
        '###### #@.%.. ......\n'
        '###### ###### ......\n'
    ),
    (
        'DAAAKLUqA',
        'wrap: no\n'
        'view: stand\n'
        '\n'
        '+\n'
    ),
    (
        'EEK5Y2VD3cC8KMWlPjiUuuPSdliiSPCTJYXuGLmWL1GoUdY-eQgq8rEzTY_ZvxZCxU6eACnhqyPuY7zA'
        'IvFs_3vgnClEJjP9gTc4xsqhTnG0Py9Dt9DHgoATreHaV3eWkmimIaWqdLL4gIUPi1WHMmN6Qp4VZtoV'
        'ELVb3XJKmsxd6r-8UWO46UBcW1A1IjqBL2wVAiZTQH8_1_ol0aF5pffs7XLYoheOqyDyzbS2I5iAgP9i'
        'l8c89MKnuL6taQmoMi0ZcqHwzKWofzeOrpc0ZNzOsgHh3Xq498rbNrX4RATUf5iHibONSE5UTg_QTzZU'
        'oZf-4qXj5wj8HiYAjpVUyz-Tpli2oCCw5XqKLIi1uBog_um18nT2VYoYRK2ithJtsduruPkLQBhM1orZ'
        '-8jDVfXbgfAHwSsllkcWrUfFQ_ULtV33X8RkXj-NexUxTvkJvJEUW2e8gpuab4jwMWfvrlsDf4UtqPdh'
        '9nMP5',
        'wrap: w\n'
        'view: both\n'
        '\n'
        '>.<..^$>. #.#.#^v>v v<^#.<^#< .>..#<.#>\n'
        '^#..<<.#. #..^<.>.v ><#....## >v..vvvv#\n'
        '^<..#.<.# <..^>>>vv .v.##..<^ ...>#v.^.\n'
        '.^.#<.^.# ..#v..#v# >>.^.v^<< #^>.^.^#.\n'
        '^..#>.^.. <>.v>..v. <<.v<.#.# #^>.>#^^^\n'
        '#v^<>vv># ##.#<<v.. v..>....^ >###<##^v\n'
        '\n'
        '>..#v##>v <##.###^# v>^^##v^^ >^vv.<>^#\n'
        '>>.#.#v#> >#^<..>v^ v^#^#^#v. ^..#..##.\n'
        '#v$v>..<# <^.^.^^.v <.<v>.#<. .#.<#<.^^\n'
        'v.<>.<v<. $....v.^. ##..>.#.v v>.#..<.#\n'
        '.....v.v> >^^^v.^.# #.<v.#.<^ ..#.#.#.v\n'
        '.^^....^. ##..^v^.. <><#>>.>. .>^<#..^#\n'
        '\n'
        '..#..###^ ##.v..#v. ^.^^.#... #.#v#^#vv\n'
        '##v^.#>.# #>>^>#.## .>.<v^..^ v.^##.v.#\n'
        '...^^#^v# >..><.v#^ #v#.v.^^. v.^v#<##.\n'
        'v.<v^<^## ##^..#..< ^*v#.#### ..^#>.^#.\n'
        '#>#.<>... .<.###.^. vv<.v#.#. >#vv<...v\n'
        '.#<...<^# <>v.#..^< .>##.@v.v v<#$<><>.\n'
        '\n'
        '>.>><.#.# #<##v^<.. <<v<#...< v^#^#.<#.\n'
        '#>.<<.><# ..#^v^#v> vv..<^vv# .#v<.##<>\n'
        '.#..#.##< v<.^##..> .#..^.v.^ #v.><><#.\n'
        '^>#><.<^^ ^.>#>##.< ...#.#.#^ #^.#v####\n'
        '#..<v.#v. <<^#<#>.v <...#^#<# v###.v.#v\n'
        '^..v<>### #>.^^#.## #..^#v#># <..<.#..<\n'
        '\n'
        '...<v>... ..##.>>#> .#.<vv.#. .>^.v#..>\n'
        '>#.^v.#<> .#>##...# <v#^.#### #.>>..##.\n'
        '>v....#.> .vv<#<v.v >###v#.## #.><>.#.#\n'
        '<.^#<>#<. ..#.#>>v> .##>.<##^ .v^v.<.<^\n'
        '.v#>^v#>> .^#<.#<.. ^#.v...v# .^..<#<##\n'
        'v.<#<.<.v v^^>.<..# v>.##..## <.#><<.>#\n'
    ),
    (
        'FCCiWN9tnDS6k7ElP',
        'hook: yes\n'
        'wrap: no\n'
        'view: stand\n'
        '\n'
        '##### ##### #####\n'
        '##### ##### #####\n'
        '\n'
        '##### ##### .....\n'
        '##### #@.$* .....\n'
    ),
    (
        'GBgU2SxITgfvAz',
        'hook: yes\n'
        'wrap: w\n'
        'view: w-up\n'
        '\n'
        '#### ####\n'
        '\n'
        '#### #@.$\n'
        '\n'
        '#### ...*\n'
    ),
    (
        'DCEiWNbKSOyh_U0gz3uyXwkN_EY3Y2xDeVH7Es6_QDZ8xQB4eAHRSHdoH',
        'name: corridor\n'
        "teaches: walk in w's own slice to the glow\n"
        'wrap: no\n'
        'view: stand\n'
        '\n'
        '##### ##### #####\n'
        '##### ##### #####\n'
        '##### ##### #####\n'
        '\n'
        '##### ##### .....\n'
        '##### #@..* .....\n'
        '##### ##### .....\n'
    ),
]
#: The frozen codes that carry a name and teaches line (encoded with ``named=True``).
NAMED = {code for code, text in FROZEN if text.startswith("name:")}


def corridor() -> Room:
    return decode(FROZEN[0][0])


def random_room(rng: random.Random, size, wrap: bool, view: str, crates: int,
                hook: bool = False) -> Room:
    """A room of ``size`` with a random mix of cells and movers."""
    X, Y, Z, W = size
    weights = [rng.randint(0, 6) for _ in STATIC]
    weights[0] += 1  # some room for the movers
    cells = bytearray(rng.choices(STATIC, weights, k=X * Y * Z * W))
    cells[rng.randrange(len(cells))] = 0
    shape = Room.empty(size, (0, 0, 0, 0), (0, 0, 0, 0))
    empties = [shape.pos(i) for i, c in enumerate(cells) if c == 0]
    goal = rng.choice(empties)
    player = rng.choice(empties)
    spots = [p for p in empties if p != player]
    crates_at = rng.sample(spots, min(crates, len(spots)))
    return Room(size, bytes(cells), goal, State.of(player, crates_at), wrap=wrap, view=view,
                hook=hook)


def same_room(a: Room, b: Room) -> bool:
    """Equal in everything a code carries."""
    return (a.size, a.cells, a.goal, a.start, a.wrap, a.view, a.hook) == (
        b.size, b.cells, b.goal, b.start, b.wrap, b.view, b.hook)


def some_codes() -> list[str]:
    rng = random.Random(2)
    made = [encode(random_room(rng, (rng.randint(1, 7), rng.randint(1, 7), rng.randint(1, 3),
                                      rng.randint(2, 4)), rng.random() < 0.5,
                                rng.choice(VIEWS), rng.randint(0, 3)))
            for _ in range(3)]
    return [code for code, _ in FROZEN[:4]] + [FROZEN[5][0]] + made


# -- stable ------------------------------------------------------------------------


@pytest.mark.parametrize("code, text", FROZEN)
def test_frozen_codes_open_the_same_rooms(code, text):
    room = decode(code, check_start=False)  # the format: some of these rooms start lost
    assert levelfile.write(room) == text
    assert encode(room, named=code in NAMED) == code


def test_the_rules_letter_says_wrap_and_hook():
    for code, _ in FROZEN:
        room = decode(code, check_start=False)
        assert codes.LETTER_OF[room.wrap, room.hook] == code[0]
    assert [codes.RULES_OF[x] for x in "DEFG"] == [(False, False), (True, False),
                                                   (False, True), (True, True)]


def test_a_hook_room_and_its_plain_twin_have_codes_of_their_own():
    hooked = decode(FROZEN[5][0])
    plain = replace(hooked, hook=False)
    assert encode(plain)[0] == "D" and encode(plain)[1:-4] == FROZEN[5][0][1:-4]
    assert decode(encode(plain)) == plain and not decode(encode(plain)).hook


def test_a_named_code_carries_the_name_and_teaches_line():
    room = levelfile.parse(FROZEN[7][1])
    named = encode(room, named=True)
    assert named == FROZEN[7][0]
    assert encode(room) == FROZEN[0][0]  # not asked: the plain code, as ever
    again = decode(named)
    assert (again.name, again.teaches) == ("corridor", "walk in w's own slice to the glow")
    assert again == replace(room, par=None, needs=())
    for name, teaches in [("Ünïcode ✓", ""), ("", "only a teaches line"), ("x" * 200, "y")]:
        room = replace(decode(FROZEN[5][0]), name=name, teaches=teaches)
        assert decode(encode(room, named=True)) == room
    # a room with neither gets the plain code, asked or not
    assert encode(decode(FROZEN[0][0]), named=True) == FROZEN[0][0]


LINE = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=60).map(
    lambda s: s.strip(" "))


@settings(max_examples=150, deadline=None)
@given(LINE, LINE, st.sampled_from([0, 1, 5, 6]))
def test_any_name_and_teaches_line_come_back(name, teaches, frozen):
    room = replace(decode(FROZEN[frozen][0], check_start=False), name=name, teaches=teaches)
    code = encode(room, named=True)
    assert decode(code, check_start=False) == room
    assert code[0] == FROZEN[frozen][0][0]
    assert (code == FROZEN[frozen][0]) == (not name and not teaches)  # nothing to carry: plain
    # one character changed is still refused, named or not
    i = len(code) // 2
    changed = code[:i] + ("A" if code[i] != "A" else "B") + code[i + 1 :]
    with pytest.raises(CodeError):
        decode(changed, check_start=False)


def test_a_name_that_is_not_one_line_is_refused_by_encode():
    for name in ["two\nlines", " padded", "x" * 201]:
        with pytest.raises(ValueError, match="not one header line"):
            encode(replace(corridor(), name=name), named=True)


@pytest.mark.parametrize("code", [FROZEN[7][0], FROZEN[6][0]])
def test_a_named_or_hook_code_with_any_one_changed_character_is_refused(code):
    for i in range(len(code)):
        for ch in ALPHABET:
            if ch != code[i]:
                with pytest.raises(CodeError):
                    decode(code[:i] + ch + code[i + 1 :])


def test_the_checksum_refusal_says_which_character_is_wrong():
    code = FROZEN[2][0]
    for i in range(1, len(code)):
        for ch in ALPHABET:
            if ch == code[i]:
                continue
            with pytest.raises(CodeError) as refused:
                decode(code[:i] + ch + code[i + 1 :])
            message = str(refused.value)
            assert message.startswith("the checksum does not match")
            # a single change has a syndrome of its own here: the place is named
            assert f"character {i + 1}, {ch!r}, looks wrong (perhaps {code[i]!r})" in message


def test_the_checksum_refusal_says_which_neighbours_are_swapped():
    code = FROZEN[2][0]
    named = 0
    for i in range(1, len(code) - 1):
        if code[i] == code[i + 1]:
            continue
        with pytest.raises(CodeError) as refused:
            decode(code[:i] + code[i + 1] + code[i] + code[i + 2 :])
        message = str(refused.value)
        if "look swapped" in message:
            named += 1
            assert f"characters {i + 1} and {i + 2}, {code[i + 1] + code[i]!r}" in message
        else:  # where it cannot tell, it names no place rather than a wrong one
            assert "looks wrong" not in message
    assert named >= len(code) - 4


def test_a_missing_character_names_no_place():
    code = FROZEN[2][0]
    with pytest.raises(CodeError, match="checksum") as refused:
        decode(code[:7] + code[8:])
    assert "character" not in str(refused.value).split("swapped", 1)[1]


def test_the_display_form_groups_the_code_and_names_its_look_alikes():
    shown = codes.display(" DCEiWNbKSOyh_wpEk\n")
    assert shown.groups == ("DCEi", "WNbK", "SOyh", "_wpE", "k")
    assert "".join(shown.groups) == FROZEN[0][0]
    assert shown.look_alikes == ((10, "O", "capital o"),)
    assert shown.legend == "O is capital o"
    alike = codes.display("Il1O0x")
    assert [(p, ch) for p, ch, _ in alike.look_alikes] == [(1, "I"), (2, "l"), (3, "1"),
                                                          (4, "O"), (5, "0")]
    assert alike.legend == "I is capital i; l is small L; 1 is one; O is capital o; 0 is zero"
    assert codes.display("DAAAKLUqA").look_alikes == ()
    assert codes.display("DAAAKLUqA").legend == ""
    with pytest.raises(CodeError):  # the display form is for people: decode refuses it
        decode(shown.text)


# -- round trips --------------------------------------------------------------------


@st.composite
def rooms(draw):
    X = draw(st.integers(1, MAX_SIZE[0]))
    Y = draw(st.integers(1, MAX_SIZE[1]))
    Z = draw(st.integers(1, MAX_SIZE[2]))
    W = draw(st.integers(1, MAX_SIZE[3]))
    wrap = W >= 2 and draw(st.booleans())
    rng = random.Random(draw(st.integers(0, 2**32)))
    return random_room(rng, (X, Y, Z, W), wrap, draw(st.sampled_from(VIEWS)),
                       draw(st.integers(0, 40)), draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(rooms())
def test_decode_of_encode_is_the_room(room):
    code = encode(room)
    assert code[0] == codes.LETTER_OF[room.wrap, room.hook]
    assert set(code) <= set(ALPHABET)
    # a code carries no name, par or needs: the rest is equal (the format alone: a random
    # room's start may be lost, which decode refuses by default)
    assert decode(code, check_start=False) == room


def test_the_largest_rooms_encode():
    rng = random.Random(5)
    for view in VIEWS:
        room = random_room(rng, MAX_SIZE, True, view, 60)
        assert decode(encode(room), check_start=False) == room
    full = Room.empty(MAX_SIZE, (0, 0, 0, 0), (15, 15, 7, 7))
    assert decode(encode(full), check_start=False) == full


def test_a_code_ignores_the_header_but_keeps_the_view():
    room = levelfile.parse(FROZEN[2][1].replace("wrap: no", "name: x\npar: 9\nneeds: ramps"))
    again = decode(encode(room))
    assert same_room(again, room) and again.view == "both"
    assert (again.name, again.par, again.needs) == ("", None, ())


def test_surrounding_white_space_and_bytes_are_fine():
    code = FROZEN[0][0]
    assert decode(f"  {code}\n") == decode(code) == decode(code.encode())


# -- short ---------------------------------------------------------------------------


def test_a_tutorial_sized_room_encodes_in_80_characters():
    # 7x7x3x4: solid ground kata, a walled floor, a few ramps, crates and holes
    rng = random.Random(11)
    X, Y, Z, W = 7, 7, 3, 4
    cells = bytearray(X * Y * Z * W)
    shape = Room.empty((X, Y, Z, W), (0, 0, 0, 0), (0, 0, 0, 0))
    for p in shape.positions():
        x, y, z, w = p
        wall = x in (0, X - 1) or y in (0, Y - 1)
        if w == 0 or (z == 0 and rng.random() < 0.8) or (z == 1 and wall and w < 2):
            cells[shape.index(p)] = 1
    for ramp in (2, 3, 4, 5):
        cells[shape.index((rng.randint(1, 5), rng.randint(1, 5), 0, rng.randint(1, 3)))] = ramp
    empties = [p for p in shape.positions() if cells[shape.index(p)] == 0]
    picks = rng.sample(empties, 5)
    room = Room((X, Y, Z, W), bytes(cells), picks[0], State.of(picks[1], picks[2:]))
    code = encode(room)
    assert len(code) <= 80, len(code)
    assert decode(code, check_start=False) == room


# -- refused ---------------------------------------------------------------------------


def test_larger_rooms_are_refused_with_a_clear_message():
    for size in [(17, 1, 1, 1), (1, 17, 1, 1), (1, 1, 9, 1), (1, 1, 1, 9)]:
        room = Room.empty(size, (0, 0, 0, 0), (0, 0, 0, 0))
        with pytest.raises(ValueError, match="too large for a room code.*up to 16x16x8x8"):
            encode(room)


def test_movers_on_top_of_each_other_are_refused():
    base = Room.empty((3, 1, 1, 1), (0, 0, 0, 0), (2, 0, 0, 0))
    with pytest.raises(ValueError, match="crate in the player"):
        encode(Room(base.size, base.cells, base.goal, State((0, 0, 0, 0), ((0, 0, 0, 0),))))
    with pytest.raises(ValueError, match="two crates"):
        encode(Room(base.size, base.cells, base.goal, State((0, 0, 0, 0), ((1, 0, 0, 0),) * 2)))


@pytest.mark.parametrize("code", some_codes())
def test_any_one_changed_character_is_refused(code):
    for i in range(len(code)):
        for ch in ALPHABET:
            if ch != code[i]:
                with pytest.raises(CodeError):
                    decode(code[:i] + ch + code[i + 1 :])


@pytest.mark.parametrize("code", some_codes())
def test_any_two_neighbours_swapped_are_refused(code):
    swaps = 0
    for i in range(len(code) - 1):
        if code[i] != code[i + 1]:
            swaps += 1
            with pytest.raises(CodeError, match="checksum" if i else "checksum|starts with"):
                decode(code[:i] + code[i + 1] + code[i] + code[i + 2 :])
    assert swaps > 3


def test_changed_characters_are_refused_by_the_checksum_with_a_clear_message():
    code = FROZEN[2][0]
    with pytest.raises(CodeError, match="checksum does not match: a character is changed"):
        decode(code[:5] + ("A" if code[5] != "A" else "B") + code[6:])


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("   ", "empty"),
    ("DCEiWNbKSOyh_wp=k", r"character 16, '=', is not in a room code"),
    ("DCEiWN bKSOyh", r"character 7, ' ', is not"),
    ("dCEiWNbKSOyh_wpEk", "starts with D .* or E"),
    ("XCEiWNbKSOyh_wpEk", "starts with D"),
    ("DCEiW", "too short"),
    ("DAAAAAAAAAA", "checksum"),
])
def test_not_a_code_is_refused_with_what_is_wrong(text, message):
    with pytest.raises(CodeError, match=message):
        decode(text)


def test_non_text_is_refused_as_a_code_error():
    for thing in (None, 42, b"\xff\xfe", ["D"]):
        with pytest.raises(CodeError):
            decode(thing)


def packed(letter: str, fields) -> str:
    """A code with a valid checksum around hand-made fields [(value, count), ...]."""
    out = codes._Writer()
    for value, count in fields:
        out.uniform(value, count)
    return codes._pack(letter, out.coder.finish())


def test_a_later_format_version_is_refused():
    with pytest.raises(CodeError, match="format version 1, from a later release"):
        decode(packed("D", [(1, 8), (0, 16), (0, 16), (0, 8), (0, 8), (0, 4)]))


def test_a_view_past_the_last_is_refused():
    with pytest.raises(CodeError, match="view 3"):
        decode(packed("D", [(0, 8), (2, 16), (0, 16), (0, 8), (0, 8), (3, 4)]))


def test_a_wrap_of_one_slice_is_refused():
    code = encode(Room.empty((3, 1, 1, 1), (0, 0, 0, 0), (2, 0, 0, 0)))
    with pytest.raises(CodeError, match="w wraps, but its room has W = 1"):
        decode(codes._pack("E", [(codes._VALUE[c] >> s) & 1 for c in code[1:-4]
                                 for s in range(5, -1, -1)]))


def test_trailing_data_is_refused():
    code = FROZEN[0][0]
    bits = [(codes._VALUE[c] >> s) & 1 for c in code[1:-4] for s in range(5, -1, -1)]
    with pytest.raises(CodeError, match="does not explain"):
        decode(codes._pack("D", bits + [0] * 11 + [1]))


def test_zeros_after_a_code_pass_the_crc_but_are_refused():
    # CRC(data + its CRC) is 0, and zeros keep it 0: the re-encode check catches these
    code = FROZEN[2][0]
    for n in (1, 4, 5, 9):
        with pytest.raises(CodeError, match="does not explain"):
            decode(code + "A" * n)


def test_a_room_with_no_empty_cell_is_refused():
    # a 1x1x1x1 room whose one cell is a block: nowhere for the player
    out = codes._Writer()
    for value, count in [(0, 8), (0, 16), (0, 16), (0, 8), (0, 8), (0, 4)]:
        out.uniform(value, count)
    out.bit(codes._Bit(), 1)  # solid
    with pytest.raises(CodeError, match="no empty cell"):
        decode(codes._pack("D", out.coder.finish()))


# -- fuzz: anything else is a CodeError, never a crash ------------------------------------


@settings(max_examples=1000, deadline=None)
@given(st.text(ALPHABET, max_size=90).map(lambda s: "D" + s) | st.text(max_size=40))
def test_random_text_is_refused(text):
    with pytest.raises(CodeError):
        decode(text)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=60))
def test_random_bytes_are_refused(data):
    with pytest.raises(CodeError):
        decode(data)
    with pytest.raises(CodeError):
        decode(data.decode("latin-1"))


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from([code for code, _ in FROZEN]), st.lists(
    st.tuples(st.sampled_from(["change", "insert", "delete"]), st.integers(0, 10**6),
              st.sampled_from(ALPHABET)), min_size=1, max_size=4))
def test_mutated_codes_are_refused_or_are_their_own_room(code, edits):
    text = code
    for kind, where, ch in edits:
        i = where % (len(text) + 1)
        if kind == "change" and i < len(text):
            text = text[:i] + ch + text[i + 1 :]
        elif kind == "insert":
            text = text[:i] + ch + text[i:]
        elif kind == "delete" and i < len(text):
            text = text[:i] + text[i + 1 :]
    try:
        decode(text, check_start=False)
    except CodeError:
        return
    # never some other room under a valid code (a 2**-24 coincidence: if it ever happens,
    # look at it)
    assert text == code


def test_the_crc_table_is_the_bitwise_crc():
    def bitwise(values):
        crc = codes._CRC_INIT
        for v in values:
            for shift in range(5, -1, -1):
                top = ((v >> shift) & 1) ^ (crc >> 23)
                crc = ((crc << 1) & 0xFFFFFF) ^ (codes._CRC_POLY if top else 0)
        return crc

    rng = random.Random(3)
    for n in (0, 1, 5, 200):
        values = [rng.randrange(64) for _ in range(n)]
        assert codes._crc(values) == bitwise(values)


def flipped(code: str, start: int, pattern: int, length: int) -> list[int]:
    """The code's six-bit values with ``pattern`` (``length`` bits) xored in at bit ``start``."""
    bits = [(codes._VALUE[c] >> s) & 1 for c in code for s in range(5, -1, -1)]
    for k in range(length):
        bits[start + k] ^= (pattern >> (length - 1 - k)) & 1
    return [int("".join(map(str, bits[i : i + 6])), 2) for i in range(0, len(bits), 6)]


def crc_holds(values: list[int]) -> bool:
    crc = codes._crc(values[:-4])
    return [(crc >> s) & 63 for s in (18, 12, 6, 0)] == values[-4:]


def test_every_error_burst_of_12_bits_or_fewer_fails_the_crc():
    # a changed character is a burst of <= 6 bits, a swap of <= 12: this is the proof
    code = FROZEN[0][0]
    assert crc_holds(flipped(code, 0, 0, 1))
    nbits = 6 * len(code)
    for length in range(1, 13):
        ends = 1 if length == 1 else (1 << (length - 1)) | 1
        for middle in range(1 << max(length - 2, 0)):
            pattern = ends | (middle << 1) if length > 2 else ends
            for start in range(nbits - length + 1):
                assert not crc_holds(flipped(code, start, pattern, length)), (length, start)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([code for code, _ in FROZEN]), st.integers(13, 24), st.data())
def test_longer_bursts_up_to_24_bits_fail_the_crc(code, length, data):
    middle = data.draw(st.integers(0, (1 << (length - 2)) - 1))
    start = data.draw(st.integers(0, 6 * len(code) - length))
    pattern = (1 << (length - 1)) | (middle << 1) | 1
    assert not crc_holds(flipped(code, start, pattern, length))


# -- what a code refuses, any text, the largest room ----------------------------------------
# Bounds are checked structurally (what was read, peak memory), never by timing.

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402
from pathlib import Path  # noqa: E402

from conftest import REPRODUCIBLE  # noqa: E402
from crowded import crowded_rooms  # noqa: E402

from anabasis.app.settings.progress import FILE_NAME, MAX_BYTES  # noqa: E402
from anabasis.engine import rules  # noqa: E402
from anabasis.formats.levelfile import LevelError  # noqa: E402

FUZZ = settings(REPRODUCIBLE, max_examples=150)


def test_a_code_refuses_a_start_the_level_format_refuses_in_the_same_words():
    lost = Room.empty((3, 1, 2, 2), player=(0, 0, 1, 1), goal=(2, 0, 1, 1))  # nothing holds
    won = Room((3, 1, 2, 2), bytes([1] * 9 + [0] * 3), (1, 0, 1, 1), State((1, 0, 1, 1), ()))
    for room, words in ((lost, rules.START_LOST), (won, rules.START_WON)):
        with pytest.raises(LevelError, match=words):
            levelfile.parse(levelfile.write(room))
        with pytest.raises(codes.CodeError, match=f"^{words}$"):
            codes.decode(codes.encode(room))


@FUZZ
@given(crowded_rooms())
def test_show_and_code_round_trip_for_every_code_that_opens(room):
    code = codes.encode(room)
    try:
        opened = codes.decode(code)
    except codes.CodeError as e:
        assert str(e) in (rules.START_LOST, rules.START_WON)
        return
    # show prints a level file that code reads back to the same code
    assert codes.encode(levelfile.parse(levelfile.write(opened))) == code


CODE_CHARS = st.sampled_from(codes.ALPHABET)


@FUZZ
@given(st.one_of(
    st.text(max_size=60),
    st.text(codes.ALPHABET, min_size=1, max_size=400).map(lambda t: "D" + t),
    # a body of any bits under a right checksum: the room reader gets arbitrary input
    st.tuples(st.sampled_from("DE"), st.lists(st.integers(0, 1), max_size=3000)).map(
        lambda lb: codes._pack(*lb)),
))
def test_any_text_is_a_room_code_or_a_code_error(text):
    try:
        room = codes.decode(text)
    except codes.CodeError as e:
        assert "\n" not in str(e)
        return
    assert codes.encode(room) == text.strip()
    assert rules.start_refusal(room) == ""


#: Each worst case in a fresh process, which reports its peak memory: the largest room a
#: code holds decoded and settled, the largest save file read.
_PEAK = textwrap.dedent("""
    import sys
    case, arg = sys.argv[1:]
    if case == "code":
        from anabasis.engine import rules
        from anabasis.formats import codes
        rules.start(codes.decode(arg))
    else:
        from anabasis.app.settings.progress import Progress
        assert Progress.load(arg).aside is not None
    # the process's peak resident memory, KiB (VmHWM: ru_maxrss would carry the forking
    # parent's size over the exec)
    with open("/proc/self/status") as f:
        print(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
""")


def _peak_mb(*args) -> float:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run([sys.executable, "-c", _PEAK, *args], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return int(run.stdout) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc to ask")
def test_the_largest_inputs_are_bounded_in_memory(tmp_path):
    # the largest level file: refused at its first row, before a cell is read
    huge = (("#" * 1000 + " " + "#" * 1000 + "\n") * 250 + "\n") * 2
    assert len(huge) < levelfile.MAX_BYTES
    with pytest.raises(LevelError, match=r":1:17: the room is 1000 wide"):
        levelfile.parse(huge)
    # the largest room a code holds, decoded and settled: the process peaks under 200 MB
    from anabasis.bench.rules import crowded_room

    assert _peak_mb("code", codes.encode(crowded_room())) < 200
    # the largest save file read (a cap's worth of nesting-free JSON): set aside
    (tmp_path / FILE_NAME).write_bytes(b"[" + b"0," * (MAX_BYTES // 2 - 2) + b"0]")
    assert _peak_mb("save", str(tmp_path)) < 200


def test_the_largest_room_a_code_holds_opens_and_plays_in_the_window(display, tmp_path):
    """Opened from its code in the real window, the most crowded room plays a move whose
    per-frame work is the crates that move, and marks a bounded number of crates."""
    import pygame

    from anabasis.app.play import markers
    from anabasis.app.play.scene import Play
    from anabasis.app.play.session import open_code
    from anabasis.app.routes import App
    from anabasis.bench.rules import crowded_room

    room = crowded_room()
    app = App(size=(640, 360), opened=open_code(codes.encode(room)), data_dir=tmp_path)
    try:
        app.tick(1 / 60)
        play = app.scene
        assert isinstance(play, Play) and len(play.game.state.crates) == len(room.start.crates)
        right = pygame.K_RIGHT
        seen = []
        for _ in range(4):  # the arrow that means R depends on the camera: try them in turn
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=right, mod=0,
                                                 unicode="", scancode=0))
            app.tick(1 / 60)
            if play.timeline is not None:
                seen = [moving for _, moving in play.timeline._pairs]
            for _ in range(60):
                if play.timeline is None:
                    break
                app.tick(1 / 60)
            if play.game.moves:
                break
            right = {pygame.K_RIGHT: pygame.K_DOWN, pygame.K_DOWN: pygame.K_LEFT,
                     pygame.K_LEFT: pygame.K_UP}.get(right, pygame.K_RIGHT)
        assert play.game.moves == 1 and seen
        assert all(len(moving) <= 2 for moving in seen)  # a push moves one crate, a walk none
        marks = markers.find(room, play.game.state, play.game.state.player, play.sight.basis(),
                             play.sight.camera, (640, 360))
        assert 0 < len(marks) <= markers.MOST_CRATE_MARKS + 1
    finally:
        app.close()
