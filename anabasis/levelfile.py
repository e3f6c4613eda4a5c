"""The level text format: parse a file into a :class:`~anabasis.world.Room`, and write one back.

The format is RULES.md's: ``key: value`` header lines, then one block per
w-slice (w = 0 first) separated by a blank line, a row per y, the z layers
side by side separated by one space.  :func:`write` is canonical:
``write(parse(write(room))) == write(room)`` and ``parse(write(room)) == room``.

A bad file raises :class:`LevelError`, whose text is
``file:line:column: what is wrong``, pointing at the offending character.

>>> room = parse("par: 1\\n\\n#@*\\n", "tiny.txt")
Traceback (most recent call last):
...
anabasis.levelfile.LevelError: tiny.txt:3:2: the player falls out of the room at the start
"""

from __future__ import annotations

import re
from pathlib import Path

from anabasis.cells import CHAR_OF, CODE_OF, EMPTY
from anabasis.world import SWITCHES, VIEWS, Room, State

KEYS = ("name", "teaches", "par", "needs", "wrap", "view")
MOVER_CHARS = {"$": "crate", "@": "player", "*": "goal", "+": "player+goal", "%": "crate+goal"}
_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)[ \t]*:(.*)$")


class LevelError(ValueError):
    """A level file that is refused: ``file:line:column: what is wrong``."""

    def __init__(self, path: str, line: int, col: int, message: str):
        self.path, self.line, self.col, self.message = path, line, col, message
        super().__init__(f"{path}:{line}:{col}: {message}")


def load(path) -> Room:
    """Read and parse a level file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise LevelError(str(path), 0, 0, f"cannot read: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise LevelError(str(path), line, col, "not UTF-8 text") from None
    return parse(text, str(path), default_name=_name_from_path(path))


def _name_from_path(path: Path) -> str:
    stem = path.stem
    return re.sub(r"^\d+[-_ ]*", "", stem) or stem


def parse(text: str, path: str = "<level>", *, default_name: str = "") -> Room:
    """Parse a level's text into a room, settled-checked as RULES.md asks."""
    lines = [ln.rstrip("\r").rstrip(" \t") for ln in text.split("\n")]
    header: dict[str, tuple[str, int, int]] = {}
    n = 0
    while n < len(lines):
        line = lines[n]
        if not line.strip():
            n += 1
            continue
        m = _HEADER.match(line)
        if not m:
            break
        key, value = m.group(1), m.group(2).strip()
        col = m.start(2) + 1 + (len(m.group(2)) - len(m.group(2).lstrip()))
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
    meta = _read_header(header, path)
    if not meta.get("name"):
        meta["name"] = default_name

    # The map: blocks of rows separated by blank lines.
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    first_map_line = min(n + 1, max(1, len(lines) - 1))
    for i in range(n, len(lines)):
        line = lines[i]
        if not line.strip():
            if current:
                blocks.append(current)
                current = []
            continue
        if _HEADER.match(line):
            raise LevelError(path, i + 1, 1, "header line inside the map (headers go at the top)")
        current.append((i + 1, line))
    if current:
        blocks.append(current)
    if not blocks:
        raise LevelError(path, first_map_line, 1, "the file has no map")

    X = Y = Z = None
    cells: dict[tuple[int, int, int, int], int] = {}
    player = goal = None
    crates = []
    for w, block in enumerate(blocks):
        if Y is None:
            Y = len(block)
        elif len(block) != Y:
            lineno = block[min(Y, len(block) - 1)][0]
            raise LevelError(path, lineno, 1,
                             f"slice w={w} has {len(block)} rows, slice w=0 has {Y}")
        for y, (lineno, line) in enumerate(block):
            if line[0] == " " or line[0] == "\t":
                raise LevelError(path, lineno, 1, "a map row must not start with a space")
            layers = line.split(" ")
            if Z is None:
                Z = len(layers)
            col = 1
            for z, layer in enumerate(layers):
                if not layer:
                    raise LevelError(path, lineno, col, "layers are separated by exactly one space")
                if z >= Z:
                    raise LevelError(path, lineno, col,
                                     f"row has {len(layers)} z layers, the first row has {Z}")
                if X is None:
                    X = len(layer)
                for x, ch in enumerate(layer):
                    if ch == "\t":
                        raise LevelError(path, lineno, col + x, "tab in the map")
                    if ch not in CODE_OF and ch not in MOVER_CHARS:
                        raise LevelError(path, lineno, col + x,
                                         f"unknown cell character {ch!r}")
                    if x >= X:
                        raise LevelError(path, lineno, col + x,
                                         f"layer is {len(layer)} wide, the first layer is {X}")
                    pos = (x, y, z, w)
                    kind = MOVER_CHARS.get(ch)
                    cells[pos] = CODE_OF.get(ch, EMPTY)
                    if kind in ("player", "player+goal"):
                        if player is not None:
                            raise LevelError(path, lineno, col + x,
                                             f"a second player (the first is on line {player[1]})")
                        player = (pos, lineno, col + x)
                    if kind in ("goal", "player+goal", "crate+goal"):
                        if goal is not None:
                            raise LevelError(path, lineno, col + x,
                                             f"a second goal (the first is on line {goal[1]})")
                        goal = (pos, lineno, col + x)
                    if kind in ("crate", "crate+goal"):
                        crates.append(pos)
                if len(layer) < X:
                    raise LevelError(path, lineno, col + len(layer),
                                     f"layer is {len(layer)} wide, the first layer is {X}")
                col += len(layer) + 1
            if len(layers) < Z:
                raise LevelError(path, lineno, len(line) + 1,
                                 f"row has {len(layers)} z layers, the first row has {Z}")
    W = len(blocks)
    if player is None:
        raise LevelError(path, first_map_line, 1, "the map has no player '@'")
    if goal is None:
        raise LevelError(path, first_map_line, 1, "the map has no goal '*'")
    flat = bytearray(X * Y * Z * W)
    for (x, y, z, w), code in cells.items():
        flat[x + X * (y + Y * (z + Z * w))] = code
    if meta.get("wrap") and W < 2:
        _, lineno, col = header["wrap"]
        raise LevelError(path, lineno, col, "a room whose w wraps needs at least 2 slices")
    room = Room((X, Y, Z, W), bytes(flat), goal[0], State.of(player[0], crates), **meta)

    from anabasis import rules  # the engine settles the start, as a load does

    first = rules.start(room)
    if first.status == "lost":
        raise LevelError(path, player[1], player[2], "the player falls out of the room at the start")
    if first.status == "won":
        raise LevelError(path, player[1], player[2], "the player is already in the goal at the start")
    return room


def _read_header(header, path) -> dict:
    meta: dict = {}
    for key, (value, lineno, col) in header.items():
        if key in ("name", "teaches"):
            meta[key] = value
        elif key == "par":
            if not re.fullmatch(r"[0-9]+", value) or int(value) < 1:
                raise LevelError(path, lineno, col,
                                 f"par must be a whole number of moves, 1 or more, not {value!r}")
            meta["par"] = int(value)
        elif key == "needs":
            needs = []
            offset = col
            for item in value.split(","):
                name = item.strip()
                at = offset + (len(item) - len(item.lstrip()))
                if name not in SWITCHES:
                    raise LevelError(path, lineno, at,
                                     f"needs: unknown rule {name!r} (known: {', '.join(SWITCHES)})")
                if name in needs:
                    raise LevelError(path, lineno, at, f"needs: {name!r} named twice")
                needs.append(name)
                offset += len(item) + 1
            if value:
                meta["needs"] = tuple(s for s in SWITCHES if s in needs)
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


def write_map(room: Room, state: State | None = None) -> str:
    """The map part of the text format, with the movers of ``state`` (default: the start)."""
    state = state or room.start
    X, Y, Z, W = room.size
    crates = set(state.crates)
    blocks = []
    for w in range(W):
        rows = []
        for y in range(Y):
            layers = []
            for z in range(Z):
                chars = []
                for x in range(X):
                    pos = (x, y, z, w)
                    ch = CHAR_OF[room.cells[room.index(pos)]]
                    if pos == state.player:
                        ch = "+" if pos == room.goal else "@"
                    elif pos in crates:
                        ch = "%" if pos == room.goal else "$"
                    elif pos == room.goal:
                        ch = "*"
                    chars.append(ch)
                layers.append("".join(chars))
            rows.append(" ".join(layers))
        blocks.append("\n".join(rows))
    return "\n\n".join(blocks) + "\n"


def write(room: Room) -> str:
    """The room as a level file, in canonical form."""
    head = []
    if room.name:
        head.append(f"name: {room.name}")
    if room.teaches:
        head.append(f"teaches: {room.teaches}")
    if room.par is not None:
        head.append(f"par: {room.par}")
    if room.needs:
        head.append(f"needs: {', '.join(room.needs)}")
    head.append(f"wrap: {'w' if room.wrap else 'no'}")
    head.append(f"view: {room.view}")
    return "\n".join(head) + "\n\n" + write_map(room)
