"""The room being edited: a :class:`Draft` value, and its undo and redo.

A draft is a room as the text format writes it, one character a cell
(``. # > < v ^`` and the movers ``$ @ * + %``), so that it can hold what a
:class:`~anabasis.engine.world.Room` cannot: two players, no goal, a start
that falls out.  Whether it is a room is the text format's to say:
:meth:`Draft.room` parses :meth:`Draft.text`, and a refusal is the parser's
own line.  Every edit returns a new draft; :class:`History` keeps them,
so undo and redo are unlimited and exact.  No pygame here.

>>> d = Draft.new((3, 1, 1, 1)).put((0, 0, 0, 0), "@").put((2, 0, 0, 0), "*")
>>> d.chars
'@.*'
>>> d.put((2, 0, 0, 0), "@").at((2, 0, 0, 0))
'+'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from anabasis.engine.cells import CHAR_OF
from anabasis.engine.world import MAX_SIZE, VIEWS, Pos, Room, flat_index

#: What can be put in a cell, in the palette's order (number keys 0 to 8).
KINDS = (".", "#", ">", "<", "v", "^", "$", "@", "*")
#: The palette's words for each kind.
KIND_NAMES = {
    ".": "empty", "#": "block", ">": "ramp +x", "<": "ramp -x", "v": "ramp +y",
    "^": "ramp -y", "$": "crate", "@": "player", "*": "goal",
}
#: The brushes beyond the cells: a floor with what holds it, a column of blocks in w.
FLOOR, COLUMN = "floor", "column"
#: Every brush, in the palette's order (the cells' number keys, then 9 and K).
BRUSHES = (*KINDS, FLOOR, COLUMN)
BRUSH_NAMES = {**KIND_NAMES, FLOOR: "floor", COLUMN: "column"}
#: The keymap's action for each brush (its key is the keymap's to say).
BRUSH_KEYS = {**{kind: f"put_{n}" for n, kind in enumerate(KINDS)}, FLOOR: "floor_brush",
              COLUMN: "column_brush"}
#: A new room's size: small, with room to climb.
DEFAULT_SIZE = (5, 4, 3, 3)

_ON_GOAL = {"@": "+", "$": "%"}  # a mover put on the goal, or the goal under a mover
_GOAL_UNDER = {"*", "+", "%"}


class DraftError(ValueError):
    """An edit that cannot be made (a size out of range, the wrap in one slice)."""


@dataclass(frozen=True)
class Draft:
    """A room as edited: size, one text-format character per cell (room index order), header."""

    size: tuple[int, int, int, int]
    chars: str
    wrap: bool = False
    name: str = ""
    teaches: str = ""
    view: str = "stand"
    hook: bool = False  #: a hook room (``hook: yes``): the hook is a move its player has

    @classmethod
    def new(cls, size=DEFAULT_SIZE) -> Draft:
        """An empty room of ``size``: no floor, no player, no goal."""
        size = tuple(size)
        _check_size(size)
        X, Y, Z, W = size
        return cls(size, "." * (X * Y * Z * W))

    @classmethod
    def of_room(cls, room: Room) -> Draft:
        """The draft of ``room`` as it starts (its par and needs are the proofs' to say)."""
        chars = [CHAR_OF[c] for c in room.cells]
        for pos in room.start.crates:
            chars[room.index(pos)] = "$"
        chars[room.index(room.start.player)] = "@"
        g = room.index(room.goal)
        chars[g] = {"@": "+", "$": "%"}.get(chars[g], "*")
        return cls(room.size, "".join(chars), room.wrap, room.name, room.teaches, room.view,
                   room.hook)

    # -- reading ------------------------------------------------------------------

    def index(self, pos: Pos) -> int:
        return flat_index(self.size, pos)

    def inside(self, pos: Pos) -> bool:
        return all(0 <= c < n for c, n in zip(pos, self.size, strict=True))

    def at(self, pos: Pos) -> str:
        """The character at ``pos``."""
        return self.chars[self.index(pos)]

    def text(self, par: int | None = None, needs=()) -> str:
        """The draft as a level file (canonical: the header by :func:`levelfile.header`, the
        writer :func:`levelfile.write` uses too)."""
        from anabasis.formats.levelfile import header

        return header(name=self.name, teaches=self.teaches, par=par, needs=needs,
                      hook=self.hook, wrap=self.wrap, view=self.view) + "\n" + self.map_text()

    def map_text(self) -> str:
        from anabasis.formats.levelfile import format_map

        return format_map(self.size, self.chars)

    def room(self, path: str = "room.txt", par: int | None = None, needs=()) -> Room:
        """The room this draft is, as the text format reads it; ``LevelError`` if refused."""
        from anabasis.formats import levelfile

        return levelfile.parse(self.text(par, needs), path)

    def movers(self):
        """(players, crates, goals): the positions of each, in index order."""
        players, crates, goals = [], [], []
        X, Y, Z, _ = self.size
        for i, ch in enumerate(self.chars):
            if ch in ".#><v^":
                continue
            x, r = i % X, i // X
            y, r = r % Y, r // Y
            pos = (x, y, r % Z, r // Z)
            if ch in "@+":
                players.append(pos)
            if ch in "$%":
                crates.append(pos)
            if ch in _GOAL_UNDER:
                goals.append(pos)
        return players, crates, goals

    # -- edits: each returns a new draft --------------------------------------------

    def put(self, pos: Pos, kind: str) -> Draft:
        """``kind`` (one of :data:`KINDS`) at ``pos``.

        The goal marks an empty cell, so a player or a crate put on the goal
        stands in it (``+`` ``%``), and the goal put under one goes under it;
        anything else put there replaces what was.
        """
        if kind not in KINDS:
            raise DraftError(f"unknown kind {kind!r}")
        i = self.index(pos)
        return self._with({i: _combine(self.chars[i], kind)})

    def fill(self, a: Pos, b: Pos, kind: str) -> Draft:
        """``kind`` put in every cell of the box with corners ``a`` and ``b`` (inclusive)."""
        if kind not in KINDS:
            raise DraftError(f"unknown kind {kind!r}")
        lo = [min(p, q) for p, q in zip(a, b, strict=True)]
        hi = [max(p, q) for p, q in zip(a, b, strict=True)]
        changes = {}
        for w in range(lo[3], hi[3] + 1):
            for z in range(lo[2], hi[2] + 1):
                for y in range(lo[1], hi[1] + 1):
                    for x in range(lo[0], hi[0] + 1):
                        i = self.index((x, y, z, w))
                        changes[i] = _combine(self.chars[i], kind)
        return self._with(changes)

    def floor(self, pos: Pos, up: int = 2) -> tuple[Draft, Pos | None]:
        """A block at ``pos`` that holds whoever stands on it: with it, the block that holds
        the cell on top from the other gravity (``up`` is the view's up axis, 2 for z or 3
        for w; the other is the other's).  The block put with it (None where it would fall
        outside the room: at w = 0 nothing is kata, at z = 0 nothing is below).

        >>> d, held = Draft.new((1, 1, 2, 2)).floor((0, 0, 0, 1))
        >>> d.map_text().split(), held
        (['.', '#', '#', '.'], (0, 0, 1, 0))
        """
        other = 3 if up == 2 else 2
        top = list(pos)
        top[up] += 1
        top[other] -= 1
        held = tuple(top)
        if self.wrap and other == 3:
            held = held[:3] + (held[3] % self.size[3],)
        draft = self.put(pos, "#")
        if not self.inside(held):
            return draft, None
        return draft.put(held, "#"), held

    def column(self, pos: Pos, kind: str = "#") -> Draft:
        """``kind`` in every cell from w = 0 up to ``pos``'s w, at ``pos``'s x, y, z: a
        w-height in one stroke (a landscape's hills)."""
        x, y, z, w = pos
        return self.fill((x, y, z, 0), (x, y, z, w), kind)

    def resized(self, axis: int, n: int) -> Draft:
        """The room with ``n`` cells along ``axis`` (0..3): what fits is kept, new cells empty."""
        size = list(self.size)
        size[axis] = n
        size = tuple(size)
        _check_size(size)
        if self.wrap and size[3] < 2:
            raise DraftError("a room whose w wraps needs 2 slices or more: unwrap it first")
        X, Y, Z, W = size
        out = []
        for w in range(W):
            for z in range(Z):
                for y in range(Y):
                    for x in range(X):
                        pos = (x, y, z, w)
                        out.append(self.at(pos) if self.inside(pos) else ".")
        return replace(self, size=size, chars="".join(out))

    def with_wrap(self, wrap: bool) -> Draft:
        if wrap and self.size[3] < 2:
            raise DraftError("w wraps only in a room of 2 slices or more")
        return replace(self, wrap=wrap)

    def with_header(self, **kw) -> Draft:
        """A new ``name``, ``teaches`` or ``view`` (a name or line is kept to one clean line)."""
        for key in ("name", "teaches"):
            if key in kw:
                kw[key] = " ".join(str(kw[key]).split())
        if "view" in kw and kw["view"] not in VIEWS:
            raise DraftError(f"unknown view {kw['view']!r}")
        return replace(self, **kw)

    def _with(self, changes: dict[int, str]) -> Draft:
        chars = list(self.chars)
        for i, ch in changes.items():
            chars[i] = ch
        return replace(self, chars="".join(chars))


def _combine(old: str, kind: str) -> str:
    if kind in _ON_GOAL:
        return _ON_GOAL[kind] if old in _GOAL_UNDER else kind
    if kind == "*":
        return {"@": "+", "$": "%", "+": "+", "%": "%"}.get(old, "*")
    return kind


def _check_size(size) -> None:
    for axis, (n, most) in enumerate(zip(size, MAX_SIZE, strict=True)):
        if not 1 <= n <= most:
            raise DraftError(f"{'xyzw'[axis]} must be 1 to {most} cells (a room code's limit)")


class History:
    """The draft now, with every earlier one (undo) and those undone (redo)."""

    def __init__(self, draft: Draft):
        self.draft = draft
        self._undo: list[Draft] = []
        self._redo: list[Draft] = []

    def do(self, draft: Draft) -> bool:
        """Make ``draft`` the current one; False (and nothing kept) when it changes nothing."""
        if draft == self.draft:
            return False
        self._undo.append(self.draft)
        self._redo.clear()
        self.draft = draft
        return True

    def amend(self, draft: Draft) -> None:
        """Make ``draft`` the current one in place of the last step (a stroke that goes on)."""
        self._redo.clear()
        self.draft = draft

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append(self.draft)
        self.draft = self._undo.pop()
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append(self.draft)
        self.draft = self._redo.pop()
        return True

    @property
    def depth(self) -> tuple[int, int]:
        """How many undos and redos there are."""
        return len(self._undo), len(self._redo)
