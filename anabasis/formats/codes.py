"""Room codes: a whole room in one URL-safe word, checked, stable for good.

A code is a rules letter (``D`` two downs, ``E`` two downs with the wrap,
``F`` and ``G`` the same with the hook), then the room's bits packed six to a
character in the URL-safe alphabet
``A-Z a-z 0-9 - _``, then four characters of CRC-24 over everything before
them.  The room's bits come from an adaptive binary arithmetic coder whose
context for each cell is its already-coded neighbours (x-1, y-1, z-1 and
w-1), so the solid ground and walls of a tutorial room cost little; all of
its arithmetic is on integers, so a code decodes the same on every machine,
for good.  ``docs/format.md`` lays the code out bit by bit.

What a code carries: size, cells, goal, player, crates, the wrap and the
hook (in the letter) and the room's opening view; and, when it is asked to
(``encode(room, named=True)``), the room's name and ``teaches`` line, after
the room in the same stream, under the same CRC.  A code without them is
exactly the code an earlier release wrote.  Never the par or needs: those
are a level file's proofs, not a room's.

:func:`display` is a code as a person reads it out: in groups, with the
look-alike characters (``I l 1 O 0``) named.

Checked: the CRC-24 has degree 24 and a constant term, so every error
burst of 24 bits or fewer is caught.  One changed character is a burst of
at most 6 bits, and two neighbours swapped one of at most 12, so both are
always refused, never opened as some other room.  Random text passes the
CRC once in 2**24, and must then still decode to a valid room whose own
code is exactly the text given.  Where the CRC can tell which one character
was changed (or which two neighbours swapped), the refusal says where.

>>> from anabasis.engine.world import Room, State
>>> floor = bytes([1] * 9 + [0] * 3)  # w = 0 solid, and the floor of w = 1
>>> room = Room((3, 1, 2, 2), floor, (2, 0, 1, 1), State((0, 0, 1, 1), ()))
>>> decode(encode(room)) == room
True
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from anabasis.engine.cells import BLOCK, EMPTY, RAMP_XN, RAMP_XP, RAMP_YN, RAMP_YP
from anabasis.engine.world import MAX_SIZE, VIEWS, Room, State
from anabasis.refusal import Refusal

#: The 64 characters, a character's index is its six bits.
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}

#: The rules letters: two downs; with the wrap; with the hook; with both.
PLAIN, WRAPPED, HOOKED, WRAPPED_HOOKED = "D", "E", "F", "G"
#: The letter of each (wrap, hook), and the rules each letter names.
LETTER_OF = {(False, False): PLAIN, (True, False): WRAPPED,
             (False, True): HOOKED, (True, True): WRAPPED_HOOKED}
RULES_OF = {letter: rules for rules, letter in LETTER_OF.items()}
#: Every letter a code may start with, in order.
LETTERS = tuple(LETTER_OF.values())

#: The version this release writes and reads (3 bits: later releases may add more).
VERSION = 0
_VERSION_BITS = 3

#: The longest text :func:`decode` looks at (a 16x16x8x8 room is far shorter).
MAX_LENGTH = 1 << 20

_CRC_POLY = 0x864CFB  # CRC-24 (RFC 4880): degree 24, constant term 1
_CRC_INIT = 0xB704CE
_CRC_CHARS = 4  # 24 bits


class CodeError(Refusal):
    """A text that is not a room code, with a message that says why."""


# -- the checksum ---------------------------------------------------------------


def _crc_table() -> tuple[int, ...]:
    # One entry per 6-bit symbol, fed most significant bit first, so the
    # code word (symbols, then the CRC's four symbols) is one polynomial.
    table = []
    for sym in range(64):
        crc = sym << 18
        for _ in range(6):
            crc = ((crc << 1) ^ _CRC_POLY) if crc & 0x800000 else (crc << 1)
            crc &= 0xFFFFFF
        table.append(crc)
    return tuple(table)


_CRC_TABLE = _crc_table()


def _crc(values) -> int:
    crc = _CRC_INIT
    for v in values:
        crc = ((crc << 6) & 0xFFFFFF) ^ _CRC_TABLE[(crc >> 18) ^ v]
    return crc


# -- the arithmetic coder ------------------------------------------------------
#
# A classic bit-at-a-time arithmetic coder (low/high registers of 32 bits,
# underflow bits held back and emitted after the next decided bit).  After
# each renormalisation the interval spans more than a quarter of 2**32, so
# any symbol whose frequency is at least 1 out of a total of at most 2**16
# keeps a non-empty interval: the decoder can never get stuck, on any input.

_TOP = (1 << 32) - 1
_HALF = 1 << 31
_QUARTER = 1 << 30
_PROB_BITS = 16
_PROB_ONE = 1 << _PROB_BITS


class _Encoder:
    def __init__(self) -> None:
        self.low, self.high, self.pending = 0, _TOP, 0
        self.bits: list[int] = []

    def put(self, cum: int, freq: int, total: int) -> None:
        span = self.high - self.low + 1
        self.high = self.low + span * (cum + freq) // total - 1
        self.low = self.low + span * cum // total
        while True:
            if self.high < _HALF:
                self._emit(0)
            elif self.low >= _HALF:
                self._emit(1)
                self.low -= _HALF
                self.high -= _HALF
            elif self.low >= _QUARTER and self.high < _HALF + _QUARTER:
                self.pending += 1
                self.low -= _QUARTER
                self.high -= _QUARTER
            else:
                break
            self.low <<= 1
            self.high = (self.high << 1) | 1

    def _emit(self, bit: int) -> None:
        self.bits.append(bit)
        self.bits.extend([bit ^ 1] * self.pending)
        self.pending = 0

    def finish(self) -> list[int]:
        # Two more bits pin a value inside [low, high] whatever follows; the
        # decoder reads zeros past the end, so trailing zeros are dropped.
        self.pending += 1
        self._emit(0 if self.low < _QUARTER else 1)
        bits = self.bits
        while bits and bits[-1] == 0:
            bits.pop()
        return bits


class _Decoder:
    def __init__(self, bits: list[int]) -> None:
        self.bits, self.pos = bits, 0
        self.low, self.high, self.value = 0, _TOP, 0
        for _ in range(32):
            self.value = (self.value << 1) | self._next()

    def _next(self) -> int:
        bit = self.bits[self.pos] if self.pos < len(self.bits) else 0
        self.pos += 1
        return bit

    def target(self, total: int) -> int:
        span = self.high - self.low + 1
        return ((self.value - self.low + 1) * total - 1) // span

    def take(self, cum: int, freq: int, total: int) -> None:
        span = self.high - self.low + 1
        self.high = self.low + span * (cum + freq) // total - 1
        self.low = self.low + span * cum // total
        while True:
            if self.high < _HALF:
                pass
            elif self.low >= _HALF:
                self.low -= _HALF
                self.high -= _HALF
                self.value -= _HALF
            elif self.low >= _QUARTER and self.high < _HALF + _QUARTER:
                self.low -= _QUARTER
                self.high -= _QUARTER
                self.value -= _QUARTER
            else:
                break
            self.low <<= 1
            self.high = (self.high << 1) | 1
            self.value = (self.value << 1) | self._next()


class _Bit:
    """An adaptive probability for one yes/no question in one context.

    Counts with a half-count prior (the Krichevsky-Trofimov estimate), halved
    past 1000 so that a long room can drift; integers only.
    """

    __slots__ = ("n0", "n1")

    def __init__(self) -> None:
        self.n0 = self.n1 = 0

    def p0(self) -> int:
        p = ((2 * self.n0 + 1) << _PROB_BITS) // (2 * (self.n0 + self.n1) + 2)
        return min(max(p, 1), _PROB_ONE - 1)

    def seen(self, bit: int) -> None:
        if bit:
            self.n1 += 1
        else:
            self.n0 += 1
        if self.n0 + self.n1 > 1000:
            self.n0 = (self.n0 + 1) // 2
            self.n1 = (self.n1 + 1) // 2


class _Writer:
    """The room's fields onto the coder."""

    def __init__(self) -> None:
        self.coder = _Encoder()

    def bit(self, model: _Bit, bit: int) -> None:
        p0 = model.p0()
        if bit:
            self.coder.put(p0, _PROB_ONE - p0, _PROB_ONE)
        else:
            self.coder.put(0, p0, _PROB_ONE)
        model.seen(bit)

    def uniform(self, value: int, count: int) -> None:
        """``value`` in ``range(count)``, each equally likely (count <= 2**16)."""
        if count > 1:
            self.coder.put(value, 1, count)

    def number(self, value: int) -> None:
        """A count >= 0 (Elias gamma of value + 1: small numbers are cheap)."""
        n = value + 1
        length = n.bit_length()
        for _ in range(length - 1):
            self.uniform(0, 2)
        self.uniform(1, 2)
        self.uniform(n - (1 << (length - 1)), 1 << (length - 1))


class _Reader:
    """The room's fields off the coder; the mirror of :class:`_Writer`."""

    def __init__(self, bits: list[int]) -> None:
        self.coder = _Decoder(bits)

    def bit(self, model: _Bit) -> int:
        p0 = model.p0()
        if self.coder.target(_PROB_ONE) < p0:
            self.coder.take(0, p0, _PROB_ONE)
            bit = 0
        else:
            self.coder.take(p0, _PROB_ONE - p0, _PROB_ONE)
            bit = 1
        model.seen(bit)
        return bit

    def uniform(self, count: int) -> int:
        if count <= 1:
            return 0
        value = self.coder.target(count)
        self.coder.take(value, 1, count)
        return value

    def number(self, limit: int) -> int:
        length = 1
        while self.uniform(2) == 0:
            length += 1
            if length > limit.bit_length() + 1:
                raise CodeError("a count in the code is larger than any room holds")
        n = (1 << (length - 1)) + self.uniform(1 << (length - 1))
        return n - 1


# -- the room model --------------------------------------------------------------
#
# Cells go in index order (x fastest, then y, z, w).  Each cell answers up
# to four yes/no questions: solid? (context: what is at x-1, y-1, z-1 and
# w-1, each as empty / block / ramp / outside the grid), then ramp?
# (context: how many of those four are ramps, and whether the one at w-1
# is), then which ramp, in two questions (context: the ramp at w-1, else
# at z-1, if any).  Rooms are mostly runs of the same thing, and a slice is
# mostly the slice kata of it, so these neighbours predict a cell well.

_OUTSIDE = 3
_KIND = {EMPTY: 0, BLOCK: 1, RAMP_XP: 2, RAMP_XN: 2, RAMP_YP: 2, RAMP_YN: 2}
_RAMP_ORDER = (RAMP_XP, RAMP_XN, RAMP_YP, RAMP_YN)
_RAMP_INDEX = {code: i for i, code in enumerate(_RAMP_ORDER)}


class _Model:
    def __init__(self) -> None:
        self.solid = [_Bit() for _ in range(4**4)]
        self.ramp = [_Bit() for _ in range(5 * 2)]
        self.which = [[_Bit() for _ in range(3)] for _ in range(5)]


def _context(cells, i: int, pos, size):
    """The neighbours' kinds and the ramp behind: (solid ctx, ramp ctx, which ctx)."""
    x, y, z, w = pos
    X, Y, Z, _ = size
    a = _KIND[cells[i - 1]] if x else _OUTSIDE
    b = _KIND[cells[i - X]] if y else _OUTSIDE
    c = _KIND[cells[i - X * Y]] if z else _OUTSIDE
    d = _KIND[cells[i - X * Y * Z]] if w else _OUTSIDE
    ramps = (a == 2) + (b == 2) + (c == 2) + (d == 2)
    solid_ctx = a + 4 * b + 16 * c + 64 * d
    ramp_ctx = ramps * 2 + (d == 2)
    if d == 2:
        which_ctx = 1 + _RAMP_INDEX[cells[i - X * Y * Z]]
    elif c == 2:
        which_ctx = 1 + _RAMP_INDEX[cells[i - X * Y]]
    else:
        which_ctx = 0
    return solid_ctx, ramp_ctx, which_ctx


def _positions(size):
    """Every position of a grid of ``size``, in index order (as :meth:`Room.positions`)."""
    X, Y, Z, W = size
    for w in range(W):
        for z in range(Z):
            for y in range(Y):
                for x in range(X):
                    yield (x, y, z, w)


def _write_room(out: _Writer, room: Room) -> None:
    out.uniform(VERSION, 1 << _VERSION_BITS)
    for n, most in zip(room.size, MAX_SIZE, strict=True):
        out.uniform(n - 1, most)
    out.uniform(VIEWS.index(room.view), 4)
    model = _Model()
    cells = room.cells
    for i, pos in enumerate(room.positions()):
        solid_ctx, ramp_ctx, which_ctx = _context(cells, i, pos, room.size)
        code = cells[i]
        out.bit(model.solid[solid_ctx], code != EMPTY)
        if code == EMPTY:
            continue
        out.bit(model.ramp[ramp_ctx], code != BLOCK)
        if code == BLOCK:
            continue
        k = _RAMP_INDEX[code]
        which = model.which[which_ctx]
        out.bit(which[0], k >> 1)
        out.bit(which[1 + (k >> 1)], k & 1)
    empties = [i for i, c in enumerate(cells) if c == EMPTY]
    rank = {i: r for r, i in enumerate(empties)}
    goal, player = room.index(room.goal), room.index(room.start.player)
    out.uniform(rank[goal], len(empties))
    out.uniform(rank[player], len(empties))
    # Crates: a count, then each one's rank among the cells a crate may hold
    # (empty, not the player's), ascending, each leaving room for the rest.
    spots = [i for i in empties if i != player]
    spot_rank = {i: r for r, i in enumerate(spots)}
    crates = sorted(spot_rank[room.index(c)] for c in room.start.crates)
    out.number(len(crates))
    low = 0
    for k, r in enumerate(crates):
        high = len(spots) - (len(crates) - k)  # the last rank this crate may take
        out.uniform(r - low, high - low + 1)
        low = r + 1


def _read_room(src: _Reader, wrap: bool, hook: bool = False) -> Room:
    version = src.uniform(1 << _VERSION_BITS)
    if version != VERSION:
        raise CodeError(f"the code is format version {version}, from a later release; "
                        f"this release reads version {VERSION}")
    size = tuple(src.uniform(most) + 1 for most in MAX_SIZE)
    X, Y, Z, W = size
    view = src.uniform(4)
    if view >= len(VIEWS):
        raise CodeError(f"the code names view {view}, and there are only {len(VIEWS)}")
    if wrap and W < 2:
        raise CodeError(f"the code says w wraps, but its room has W = {W} (a wrap needs 2)")
    model = _Model()
    cells = bytearray(X * Y * Z * W)
    where = list(_positions(size))  # index -> position (no Room to ask until the end)
    for i, pos in enumerate(where):
        solid_ctx, ramp_ctx, which_ctx = _context(cells, i, pos, size)
        if not src.bit(model.solid[solid_ctx]):
            continue
        if not src.bit(model.ramp[ramp_ctx]):
            cells[i] = BLOCK
            continue
        which = model.which[which_ctx]
        hi = src.bit(which[0])
        cells[i] = _RAMP_ORDER[2 * hi + src.bit(which[1 + hi])]
    empties = [i for i, c in enumerate(cells) if c == EMPTY]
    if not empties:
        raise CodeError("the code's room has no empty cell for the player and the goal")
    goal = empties[src.uniform(len(empties))]
    player = empties[src.uniform(len(empties))]
    spots = [i for i in empties if i != player]
    count = src.number(len(spots))
    if count > len(spots):
        raise CodeError(f"the code has {count} crates and room for only {len(spots)}")
    crates, low = [], 0
    for k in range(count):
        high = len(spots) - (count - k)
        r = low + src.uniform(high - low + 1)
        crates.append(spots[r])
        low = r + 1
    return Room(size, bytes(cells), where[goal],
                State.of(where[player], [where[c] for c in crates]),
                wrap=wrap, view=VIEWS[view], hook=hook)


# -- the name and the teaches line (only in a code asked to carry them) ------------------
#
# After the crates: one equiprobable "yes", then the name and the teaches
# line, each as its UTF-8 length (Elias gamma) and its bytes, each byte
# eight yes/no questions down a binary tree of adaptive probabilities (one
# tree for both lines), so that the letters of a name cost about five bits.
# A code without them simply ends after the crates: the code an earlier
# release wrote.

#: The longest name or teaches line a code carries, in characters (the level format's).
MAX_TEXT = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _write_text(out: _Writer, tree: list[_Bit], text: str) -> None:
    data = text.encode("utf-8")
    out.number(len(data))
    for byte in data:
        node = 1
        for k in range(7, -1, -1):
            bit = (byte >> k) & 1
            out.bit(tree[node], bit)
            node = 2 * node + bit


def _read_text(src: _Reader, tree: list[_Bit], what: str) -> str:
    size = src.number(4 * MAX_TEXT)
    if size > 4 * MAX_TEXT:
        raise CodeError(f"the code's {what} is longer than {MAX_TEXT} characters")
    data = bytearray()
    for _ in range(size):
        node = 1
        for _ in range(8):
            node = 2 * node + src.bit(tree[node])
        data.append(node - 256)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CodeError(f"the code's {what} is not UTF-8 text") from None
    if len(text) > MAX_TEXT or _CONTROL.search(text) or text != text.strip(" "):
        raise CodeError(f"the code's {what} is not one header line of text")
    return text


def _write_header(out: _Writer, room: Room) -> None:
    out.uniform(1, 2)
    tree = [_Bit() for _ in range(256)]
    _write_text(out, tree, room.name)
    _write_text(out, tree, room.teaches)


def _read_header(src: _Reader) -> tuple[str, str]:
    if src.uniform(2) != 1:
        raise CodeError("no header follows the room")
    tree = [_Bit() for _ in range(256)]
    return _read_text(src, tree, "name"), _read_text(src, tree, "teaches line")


# -- the public face -------------------------------------------------------------


def _check_encodable(room: Room) -> None:
    for n, most, axis in zip(room.size, MAX_SIZE, "XYZW", strict=True):
        if n > most:
            size = "x".join(map(str, room.size))
            limit = "x".join(map(str, MAX_SIZE))
            raise ValueError(f"room {size} is too large for a room code: {axis} = {n}, "
                             f"and codes hold rooms up to {limit}")
    room.validate_cells()
    if room.view not in VIEWS:
        raise ValueError(f"view {room.view!r} is not one of {', '.join(VIEWS)}")
    if room.wrap and room.size[3] < 2:
        raise ValueError("a room whose w wraps needs W >= 2")
    crates = room.start.crates
    if len(set(crates)) != len(crates):
        raise ValueError("two crates in one cell")
    if room.start.player in crates:
        raise ValueError("a crate in the player's cell")


def encode(room: Room, *, named: bool = False) -> str:
    """The room's code: ``D...`` (``E`` where w wraps, ``F`` a hook room, ``G`` both).

    With ``named``, the code carries the room's name and ``teaches`` line
    too (a room with neither gets the plain code).  Raises ``ValueError``
    for a room no code can hold (larger than
    :data:`~anabasis.engine.world.MAX_SIZE`, movers on top of each other, a
    name that is not one line of at most :data:`MAX_TEXT` characters).

    >>> from anabasis.engine.world import Room, State
    >>> floor = bytes([1] * 9 + [0] * 3)
    >>> room = Room((3, 1, 2, 2), floor, (2, 0, 1, 1), State((0, 0, 1, 1), ()), name="step")
    >>> encode(room)[0], decode(encode(room)).name, decode(encode(room, named=True)).name
    ('D', '', 'step')
    """
    _check_encodable(room)
    named = named and bool(room.name or room.teaches)
    if named:
        for key in ("name", "teaches"):
            text = getattr(room, key)
            if len(text) > MAX_TEXT or _CONTROL.search(text) or text != text.strip(" "):
                raise ValueError(f"the {key} {text!r} is not one header line of at most "
                                 f"{MAX_TEXT} characters")
    out = _Writer()
    _write_room(out, room)
    if named:
        _write_header(out, room)
    return _pack(LETTER_OF[room.wrap, room.hook], out.coder.finish())


def _pack(letter: str, bits: list[int]) -> str:
    """The rules letter, the bits six to a character, and the CRC."""
    bits = bits + [0] * (-len(bits) % 6)
    values = [_VALUE[letter]]
    for k in range(0, len(bits), 6):
        v = 0
        for b in bits[k : k + 6]:
            v = (v << 1) | b
        values.append(v)
    crc = _crc(values)
    values += [(crc >> shift) & 63 for shift in range(18, -1, -6)]
    return "".join(ALPHABET[v] for v in values)


def decode(code: str, *, check_start: bool = True) -> Room:
    """The room a code holds; :class:`CodeError` (and nothing else) for any other text.

    Surrounding white space is ignored.  The room has no name, par or needs.
    A room whose start is lost or won is refused, in the level format's words
    (:func:`anabasis.engine.rules.start_refusal`), so that whatever ``show``
    prints, ``code`` reads back; ``check_start=False`` reads the format alone
    (for tests of the format: any room :func:`encode` takes comes back).
    """
    if isinstance(code, (bytes, bytearray)):
        try:
            code = bytes(code).decode("ascii")
        except UnicodeDecodeError:
            raise CodeError("a room code is plain ASCII text") from None
    if not isinstance(code, str):
        raise CodeError(f"a room code is text, not {type(code).__name__}")
    code = code.strip()
    if not code:
        raise CodeError("the room code is empty")
    if len(code) > MAX_LENGTH:
        raise CodeError(f"{len(code)} characters is too long for a room code")
    for n, ch in enumerate(code, 1):
        if ch not in _VALUE:
            raise CodeError(f"character {n}, {ch!r}, is not in a room code "
                            "(A-Z a-z 0-9 - _)")
    if code[0] not in LETTERS:
        raise CodeError(f"a room code starts with {PLAIN} (two downs) or {WRAPPED} (with the "
                        f"wrap), or {HOOKED} or {WRAPPED_HOOKED} for the same with the hook, "
                        f"not {code[0]!r}")
    if len(code) < 1 + _CRC_CHARS + 1:
        raise CodeError(f"{len(code)} character{'' if len(code) == 1 else 's'} is too short "
                        "for a room code")
    values = [_VALUE[ch] for ch in code]
    body, check = values[:-_CRC_CHARS], values[-_CRC_CHARS:]
    crc = _crc(body)
    if [(crc >> shift) & 63 for shift in range(18, -1, -6)] != check:
        raise CodeError("the checksum does not match: a character is changed, "
                        "missing or swapped" + _where_wrong(code, values))
    bits = [(v >> s) & 1 for v in body[1:] for s in range(5, -1, -1)]
    wrap, hook = RULES_OF[code[0]]
    src = _Reader(bits)
    try:
        room = _read_room(src, wrap=wrap, hook=hook)
    except CodeError:
        raise
    except ValueError as e:  # the room refused itself: report it, never crash
        raise CodeError(f"the code's room is not valid: {e}") from None
    if encode(room) != code:
        room = _with_header(src, room, code)
    if check_start:
        from anabasis.engine import rules

        refusal = rules.start_refusal(room)  # what a level file refuses, a code refuses too
        if refusal:
            raise CodeError(refusal)
    return room


def _with_header(src: _Reader, room: Room, code: str) -> Room:
    """The room with the name and teaches line that follow it in the code; refused
    as data the room does not explain unless they are exactly what the code holds."""
    try:
        name, teaches = _read_header(src)
        named = replace(room, name=name, teaches=teaches)
        if encode(named, named=True) == code:
            return named
    except ValueError:  # CodeError included: whatever it was, it is not a header
        pass
    raise CodeError("the code holds data its room does not explain "
                    "(trailing or altered characters)")


# -- where a code is wrong --------------------------------------------------------------

#: The longest code whose changed character the refusal looks for (63 tries a character).
LOCATE_LENGTH = 2000


def _where_wrong(code: str, values: list[int]) -> str:
    """Where the CRC says the code is wrong, as the end of the refusal ("" if it cannot tell).

    The CRC is linear: a code's syndrome (its body's CRC xor the check it
    carries) is the CRC, from zero, of the error alone.  So every one-character
    change and every swap of two neighbours has a syndrome of its own to
    compare with; when exactly one of them matches, that is the likely place.
    (A character missing or added shifts everything after it: no place is named.)
    """
    n = len(values)
    if n > LOCATE_LENGTH:
        return ""
    body, check = values[:-_CRC_CHARS], values[-_CRC_CHARS:]
    syndrome = _crc(body) ^ sum(v << (6 * (_CRC_CHARS - 1 - j)) for j, v in enumerate(check))
    effect, changes = _error_syndromes(n)
    found = []
    for i, v in changes.get(syndrome, ()):
        if i or ALPHABET[values[0] ^ v] in LETTERS:
            found.append(f"character {i + 1}, {code[i]!r}, looks wrong "
                         f"(perhaps {ALPHABET[values[i] ^ v]!r})")
    for i in range(n - 1):
        v = values[i] ^ values[i + 1]
        if v and effect[v][i] ^ effect[v][i + 1] == syndrome:
            found.append(f"characters {i + 1} and {i + 2}, {code[i:i + 2]!r}, look swapped")
    return f": {found[0]}" if len(found) == 1 else ""


@lru_cache(maxsize=8)
def _error_syndromes(n: int) -> tuple[list[list[int]], dict[int, list[tuple[int, int]]]]:
    """For a code of ``n`` characters: ``effect[v][i]``, the syndrome of xoring ``v`` into
    character ``i``, and each syndrome's one-character changes ``(i, v)``."""
    effect = [[0] * n]
    changes: dict[int, list[tuple[int, int]]] = {}
    for v in range(1, 64):
        row = [0] * n
        for j in range(_CRC_CHARS):
            row[n - _CRC_CHARS + j] = v << (6 * (_CRC_CHARS - 1 - j))
        crc = _CRC_TABLE[v]
        for i in range(n - _CRC_CHARS - 1, -1, -1):
            row[i] = crc
            crc = ((crc << 6) & 0xFFFFFF) ^ _CRC_TABLE[crc >> 18]  # a zero character
        effect.append(row)
        for i, syndrome in enumerate(row):
            changes.setdefault(syndrome, []).append((i, v))
    return effect, changes


# -- a code as a person reads it ----------------------------------------------------

#: The characters of the alphabet that a font may draw alike, and what each one is.
LOOK_ALIKES = {"I": "capital i", "l": "small L", "1": "one", "O": "capital o", "0": "zero"}


class Display(NamedTuple):
    """A code set out for reading aloud or copying by hand (see :func:`display`)."""

    groups: tuple[str, ...]  #: the code in groups of :data:`GROUP` characters
    #: each look-alike character: (its position, counting from 1; the character; its name)
    look_alikes: tuple[tuple[int, str, str], ...]

    @property
    def text(self) -> str:
        """The groups with a space between (not a code: :func:`decode` refuses the spaces)."""
        return " ".join(self.groups)

    @property
    def legend(self) -> str:
        """One line naming the look-alikes, or "" when the code has none."""
        names = dict.fromkeys(f"{ch} is {name}" for _, ch, name in self.look_alikes)
        return "; ".join(names)


#: Characters in a group of :attr:`Display.groups`.
GROUP = 4


def display(code: str) -> Display:
    """The code in groups of four, with its look-alike characters (``I l 1 O 0``) named.

    >>> shown = display("DCEiWNbKSOyh_wpEk")
    >>> shown.text
    'DCEi WNbK SOyh _wpE k'
    >>> shown.look_alikes, shown.legend
    (((10, 'O', 'capital o'),), 'O is capital o')
    """
    code = code.strip()
    groups = tuple(code[k : k + GROUP] for k in range(0, len(code), GROUP))
    marks = tuple((i + 1, ch, LOOK_ALIKES[ch]) for i, ch in enumerate(code) if ch in LOOK_ALIKES)
    return Display(groups, marks)
