"""The level text format: parse a file into a :class:`~anabasis.engine.world.Room`; write one.

The format is RULES.md's: ``key: value`` header lines, then one block per
w-slice (w = 0 first) separated by a blank line, a row per y, the z layers
side by side separated by one space.  :func:`write` is canonical:
``write(parse(write(room))) == write(room)`` and ``parse(write(room)) == room``.

A bad file raises :class:`LevelError`, whose text is
``file:line:column: what is wrong``, pointing at the offending character
(line and column count from 1; a column counts characters, not bytes).
``docs/format.md`` lists every refusal.

>>> room = parse("par: 1\\n\\n#@*\\n", "tiny.txt")
Traceback (most recent call last):
...
anabasis.formats.levelfile.LevelError: tiny.txt:3:2: the player falls out of the room at the start
"""

from __future__ import annotations

import re
from pathlib import Path

from anabasis.engine.cells import CHAR_OF, CODE_OF, EMPTY
from anabasis.engine.world import MAX_SIZE, NEEDS, VIEWS, Room, State, flat_index
from anabasis.refusal import Refusal, shorten

#: The header keys, in the order :func:`write` writes them.
KEYS = ("name", "teaches", "par", "needs", "hook", "wrap", "view")
#: The map characters that are not static cells: what each one puts there.
MOVER_CHARS = {"$": "crate", "@": "player", "*": "goal", "+": "player+goal", "%": "crate+goal"}
#: The largest file :func:`load` reads (the largest room a code holds is some 20 kB of text),
#: as a room code is at most 1 Mi characters.
MAX_BYTES = 1 << 20
#: The longest ``name`` or ``teaches`` (the game shows them on one line).
MAX_TEXT = 200
#: The largest par (nine digits: past that a number is no count of moves).
MAX_PAR = 999_999_999
_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*) *:(.*)$")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


class LevelError(Refusal):
    """A level file that is refused: ``file:line:column: what is wrong``."""

    def __init__(self, path: str, line: int, col: int, message: str):
        self.path, self.line, self.col, self.message = path, line, col, message
        # line 0: the whole file (one that cannot be read has no place in it)
        super().__init__(f"{path}:{line}:{col}: {message}" if line else f"{path}: {message}")


def load(path) -> Room:
    """Read and parse a level file (UTF-8; its name defaults to the file's)."""
    path = Path(path)
    return parse(_read_text(path), str(path), default_name=_name_from_path(path))


def load_header(path) -> dict:
    """Only the header of a level file, read as :func:`load` reads it (the name defaults to
    the file's; ``LevelError`` for a bad header): ``name``, ``teaches``, ``par`` and the rest
    that the file gives.  What a list of levels shows, without the map's parse; the map is
    :func:`load`'s to check."""
    path = Path(path)
    meta = _read_header(_read_header_lines(_lines(_read_text(path), str(path)), str(path))[0],
                        str(path))
    meta["name"] = meta.get("name") or _name_from_path(path)
    return meta


def _read_text(path: Path) -> str:
    from anabasis.formats.files import FileRefusal, read_bounded

    try:  # bounded: a FIFO, /dev/zero or a wrong file name never hangs nor fills memory
        raw = read_bounded(path, MAX_BYTES, "a level file")
    except FileRefusal as e:
        raise LevelError(str(path), 0, 0, e.reason) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        before = raw[: e.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        col = len(before[line_start:].decode("utf-8", "replace")) + 1
        raise LevelError(str(path), line, col,
                         f"not UTF-8 text (byte 0x{raw[e.start]:02x})") from None


def _name_from_path(path: Path) -> str:
    stem = path.stem
    return (re.sub(r"^\d+[-_ ]*", "", stem) or stem).strip(" ")


def _lines(text: str, path: str) -> list[str]:
    """The file's lines: a BOM, CR line ends and trailing spaces dropped; tabs refused."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = []
    for n, line in enumerate(text.split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
        line = line.rstrip(" ")
        tab = line.find("\t")
        if tab >= 0:
            raise LevelError(path, n, tab + 1, "a tab character (use spaces)")
        bad = _CONTROL.search(line)
        if bad:
            raise LevelError(path, n, bad.start() + 1,
                             f"a control character (U+{ord(bad.group()):04X})")
        lines.append(line)
    if lines and lines[-1] == "":
        lines.pop()  # the newline at the end of the last line
    return lines


def parse(text: str, path: str = "<level>", *, default_name: str = "") -> Room:
    """Parse a level's text into a room, refusing a start that is lost or won once settled."""
    lines = _lines(text, path)
    header, n = _read_header_lines(lines, path)
    meta = _read_header(header, path)
    if not meta.get("name"):
        meta["name"] = default_name

    # The map: blocks of rows (one per w-slice), separated by blank lines.
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for i in range(n, len(lines)):
        line = lines[i]
        if not line:
            if current:
                blocks.append(current)
                current = []
            continue
        if _HEADER.match(line):
            _shape((blocks[0] if blocks else current)[0], path)  # a typo up there comes first
            raise LevelError(path, i + 1, 1, "a header line inside the map (headers go at the top)")
        current.append((i + 1, line))
    if current:
        blocks.append(current)
    if not blocks:  # point just past the end of the file's last line
        raise LevelError(path, max(1, len(lines)), len(lines[-1]) + 1 if lines else 1,
                         "the file has no map")
    first_line = blocks[0][0][0]

    X, Z = _shape(blocks[0][0], path)
    Y = len(blocks[0])
    _check_size(blocks, X, Y, Z, path)
    cells: list[int] = []  # in write order: w, y, z, x; placed into index order below
    player = goal = None
    crates = []
    for w, block in enumerate(blocks):
        if len(block) > Y:
            raise LevelError(path, block[Y][0], 1,
                             f"slice w={w} has more rows than slice w=0, which has {Y}")
        if len(block) < Y:
            raise LevelError(path, block[-1][0] + 1, 1,
                             f"slice w={w} has {len(block)} rows, slice w=0 has {Y}")
        for y, (lineno, line) in enumerate(block):
            _check_row(line, lineno, X, Z, path, hint=lineno == first_line)
            for z in range(Z):
                for x in range(X):
                    col = z * (X + 1) + x + 1
                    ch = line[col - 1]
                    kind = MOVER_CHARS.get(ch)
                    cells.append(CODE_OF.get(ch, EMPTY))
                    if kind is None:
                        continue
                    pos = (x, y, z, w)
                    if kind in ("player", "player+goal"):
                        if player is not None:
                            raise LevelError(path, lineno, col,
                                             f"a second player (the first is at "
                                             f"{player[1]}:{player[2]})")
                        player = (pos, lineno, col)
                    if kind in ("goal", "player+goal", "crate+goal"):
                        if goal is not None:
                            raise LevelError(path, lineno, col,
                                             f"a second goal (the first is at "
                                             f"{goal[1]}:{goal[2]})")
                        goal = (pos, lineno, col)
                    if kind in ("crate", "crate+goal"):
                        crates.append(pos)
    W = len(blocks)
    if player is None:
        raise LevelError(path, first_line, 1, "the map has no player '@'")
    if goal is None:
        raise LevelError(path, first_line, 1, "the map has no goal '*'")
    flat = bytearray(X * Y * Z * W)
    k = 0
    for w in range(W):
        for y in range(Y):
            for z in range(Z):
                base = flat_index((X, Y, Z, W), (0, y, z, w))
                flat[base : base + X] = bytes(cells[k : k + X])
                k += X
    if meta.get("wrap") and W < 2:
        _, lineno, col = header["wrap"]
        raise LevelError(path, lineno, col,
                         "w wraps only in a room of 2 or more slices, and this has 1")
    if "hook" in meta.get("needs", ()) and not meta.get("hook"):
        value, lineno, col = header["needs"]
        raise LevelError(path, lineno, col + _item_offset(value, "hook"),
                         "needs: 'hook' only in a hook room (add 'hook: yes')")
    room = Room((X, Y, Z, W), bytes(flat), goal[0], State.of(player[0], crates), **meta)

    from anabasis.engine import rules  # the engine settles the start, as a load does

    refusal = rules.start_refusal(room)  # the same test a room code passes
    if refusal:
        raise LevelError(path, player[1], player[2], refusal)
    return room


def _read_header_lines(lines: list[str], path: str):
    """The ``key: value`` lines at the top, {key: (value, line, column)}, and the map's start."""
    header: dict[str, tuple[str, int, int]] = {}
    n = 0
    while n < len(lines):
        line = lines[n]
        if not line:
            n += 1
            continue
        m = _HEADER.match(line)
        if not m:
            break
        key, raw = m.group(1), m.group(2)
        value = raw.strip(" ")
        col = m.start(2) + 1 + (len(raw) - len(raw.lstrip(" ")))
        if key != key.lower():
            raise LevelError(path, n + 1, 1, f"header key {key!r} must be lower case")
        if key not in KEYS:
            raise LevelError(path, n + 1, 1,
                             f"unknown header key {key!r} (known: {', '.join(KEYS)})")
        if key in header:
            raise LevelError(path, n + 1, 1,
                             f"header key {key!r} repeated (first on line {header[key][1]})")
        header[key] = (value, n + 1, col)
        n += 1
    return header, n


def _shape(first: tuple[int, str], path: str) -> tuple[int, int]:
    """X and Z from the map's first row."""
    lineno, line = first
    for col0, ch in enumerate(line):  # what it holds first: a mistyped header lands here
        if ch != " ":
            _check_char(ch, lineno, col0 + 1, path, hint=True)
    if line.startswith(" "):
        raise LevelError(path, lineno, 1, "a map row must not start with a space")
    layers = line.split(" ")
    for z, layer in enumerate(layers):
        if not layer:
            col = sum(len(s) + 1 for s in layers[:z]) + 1
            raise LevelError(path, lineno, col, "layers are separated by exactly one space")
    X = len(layers[0])
    col = 1
    for layer in layers:
        if len(layer) != X:
            # point at the first character past the shorter of the two widths
            raise LevelError(path, lineno, col + min(len(layer), X),
                             f"a layer {len(layer)} wide, and the first is {X}")
        col += len(layer) + 1
    return X, len(layers)


def _check_size(blocks, X: int, Y: int, Z: int, path: str) -> None:
    """Refuse a room larger than a room code holds (:data:`MAX_SIZE`), at the first cell
    past the limit, before any cell is read: the work of a file is bounded by it."""
    MX, MY, MZ, MW = MAX_SIZE
    limit = "x".join(map(str, MAX_SIZE))
    lineno = blocks[0][0][0]
    if X > MX:
        raise LevelError(path, lineno, MX + 1,
                         f"the room is {X} wide in x, and rooms are at most {limit}")
    if Z > MZ:
        raise LevelError(path, lineno, MZ * (X + 1) + 1,
                         f"the room has {Z} layers in z, and rooms are at most {limit}")
    if Y > MY:
        raise LevelError(path, blocks[0][MY][0], 1,
                         f"the room has {Y} rows in y, and rooms are at most {limit}")
    if len(blocks) > MW:
        raise LevelError(path, blocks[MW][0][0], 1,
                         f"the room has {len(blocks)} slices in w, and rooms are at most "
                         f"{limit}")


def _check_row(line: str, lineno: int, X: int, Z: int, path: str, hint: bool) -> None:
    """Refuse a row that is not Z layers of X known characters, at the first character wrong."""
    for col0, ch in enumerate(line):
        col = col0 + 1
        z, x = divmod(col0, X + 1)
        if z >= Z or (z == Z - 1 and x == X):
            raise LevelError(path, lineno, col,
                             f"the row is longer than {Z} layer{'s' if Z > 1 else ''} "
                             f"of {X} (the first row's shape)")
        if x == X:  # the gap between layers
            if ch != " ":
                raise LevelError(path, lineno, col,
                                 f"expected the space between layers after {X} characters, "
                                 f"found {ch!r}")
            continue
        if ch == " ":
            raise LevelError(path, lineno, col,
                             f"a space inside a layer (layers are {X} wide, "
                             "separated by one space)")
        _check_char(ch, lineno, col, path, hint)
    if len(line) < Z * (X + 1) - 1:
        raise LevelError(path, lineno, len(line) + 1,
                         f"the row ends early: it should be {Z} layer{'s' if Z > 1 else ''} "
                         f"of {X} (the first row's shape)")


def _check_char(ch: str, lineno: int, col: int, path: str, hint: bool) -> None:
    if ch not in CODE_OF and ch not in MOVER_CHARS:
        known = "".join(CHAR_OF.values()) + "".join(MOVER_CHARS)
        more = " (a header line is 'key: value')" if hint and ch.isalpha() else ""
        raise LevelError(path, lineno, col, f"unknown cell character {ch!r} (known: {known}){more}")


def _read_header(header, path) -> dict:
    meta: dict = {}
    for key, (value, lineno, col) in header.items():
        if key in ("name", "teaches"):
            if len(value) > MAX_TEXT:
                raise LevelError(path, lineno, col + MAX_TEXT,
                                 f"{key} is longer than {MAX_TEXT} characters")
            meta[key] = value
        elif key == "par":
            # the digits are counted before int() sees them: past 4,300 Python refuses
            digits = value.lstrip("0")
            if not re.fullmatch(r"[0-9]+", value) or not 1 <= len(digits) <= 9:
                raise LevelError(path, lineno, col,
                                 f"par must be a whole number of moves from 1 to {MAX_PAR}, "
                                 f"not {shorten(value)!r}")
            meta["par"] = int(digits)
        elif key == "needs" and value:
            needs = []
            offset = col
            for item in value.split(","):
                name = item.strip(" ")
                at = offset + (len(item) - len(item.lstrip(" ")))
                if name not in NEEDS:
                    raise LevelError(path, lineno, at,
                                     f"needs: unknown rule {name!r} (known: {', '.join(NEEDS)})")
                if name in needs:
                    raise LevelError(path, lineno, at, f"needs: {name!r} named twice")
                needs.append(name)
                offset += len(item) + 1
            meta["needs"] = tuple(s for s in NEEDS if s in needs)
        elif key == "hook":
            if value not in ("no", "yes"):
                raise LevelError(path, lineno, col, f"hook must be 'no' or 'yes', not {value!r}")
            meta["hook"] = value == "yes"
        elif key == "wrap":
            if value not in ("no", "w"):
                raise LevelError(path, lineno, col, f"wrap must be 'no' or 'w', not {value!r}")
            meta["wrap"] = value == "w"
        elif key == "view":
            if value not in VIEWS:
                raise LevelError(path, lineno, col,
                                 f"view must be one of {', '.join(VIEWS)}, not {value!r}")
            meta["view"] = value
    return meta


def _item_offset(value: str, name: str) -> int:
    """How far into a comma-separated ``value`` the item ``name`` starts."""
    offset = 0
    for item in value.split(","):
        if item.strip(" ") == name:
            return offset + len(item) - len(item.lstrip(" "))
        offset += len(item) + 1
    return 0


def write_map(room: Room, state: State | None = None) -> str:
    """The map part of the text format, with the movers of ``state`` (default: the start)."""
    state = state or room.start
    chars = [CHAR_OF[c] for c in room.cells]
    goal = room.index(room.goal)
    chars[goal] = "*"
    for pos in state.crates:
        i = room.index(pos)
        chars[i] = "%" if i == goal else "$"
    i = room.index(state.player)
    chars[i] = "+" if i == goal else "@"
    return format_map(room.size, "".join(chars))


def format_map(size, chars: str) -> str:
    """A map from its characters in flat-index order (x fastest): a block per w
    slice, a line per y row, the z layers side by side.

    >>> print(format_map((2, 1, 2, 1), "#.@*"), end="")
    #. @*
    """
    X, Y, Z, W = size
    blocks = []
    for w in range(W):
        rows = []
        for y in range(Y):
            bases = (flat_index(size, (0, y, z, w)) for z in range(Z))
            rows.append(" ".join(chars[b : b + X] for b in bases))
        blocks.append("\n".join(rows))
    return "\n\n".join(blocks) + "\n"


def header(*, name: str = "", teaches: str = "", par: int | None = None, needs=(),
           hook: bool = False, wrap: bool = False, view: str = "stand") -> str:
    """The header lines of a level file, in :data:`KEYS`' order, each ending in a line break:
    the one writer of them (:func:`write`, and the editor's draft).  What is not there is
    not written (no name, no par, no needs, not a hook room); ``wrap`` and ``view`` always are.

    >>> print(header(name="steps", par=4, needs=("crates", "gravity-w"), wrap=True), end="")
    name: steps
    par: 4
    needs: gravity-w, crates
    wrap: w
    view: stand
    """
    head = []
    if name:
        head.append(f"name: {name}")
    if teaches:
        head.append(f"teaches: {teaches}")
    if par is not None:
        head.append(f"par: {par}")
    if needs:
        head.append(f"needs: {', '.join(s for s in NEEDS if s in needs)}")
    if hook:  # only a hook room says so: every other room's file reads as it did
        head.append("hook: yes")
    head.append(f"wrap: {'w' if wrap else 'no'}")
    head.append(f"view: {view}")
    return "".join(line + "\n" for line in head)


def write(room: Room) -> str:
    """The room as a level file, in canonical form.

    Raises ``ValueError`` for a name or ``teaches`` line that the format
    could not read back as it is (a line break, a tab, spaces at either end).
    """
    for key in ("name", "teaches"):
        value = getattr(room, key)
        if value != value.strip(" ") or _CONTROL.search(value) or "\t" in value:
            raise ValueError(f"{key} {value!r} cannot be written on one header line")
    return header(name=room.name, teaches=room.teaches, par=room.par, needs=room.needs,
                  hook=room.hook, wrap=room.wrap, view=room.view) + "\n" + write_map(room)
