"""The rules of motion: steps, the hook, settling, won and lost, undo.

This is the fast engine.  It implements ``RULES.md`` exactly, with the same
API as :mod:`anabasis.engine.reference` (``start``, ``settle``, ``step``,
:class:`Result`, ``STEPS``, ``HOOKS``), and the tests hold the two to each
other state by state.  The sections below follow RULES.md in order.

Speed comes from working on flat integer cell indices: a room is compiled
once into a :class:`Tables` (cached per room and rule set) holding one
neighbour list per direction, with the w wrap already resolved and the
outside of the grid read as two sentinel indices, :data:`WALL` (-1) and
:data:`VOID` (-2).  Every per-cell list has two extra entries at its end,
so that indexing it with a sentinel reads what RULES.md says is there, and
no caller range-checks.

>>> from anabasis.formats import levelfile
>>> room = levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n")
>>> step(room, start(room).state, "R").state.player
(2, 0, 1, 1)

The app plays through :class:`Game`: a room, a state, and an undo stack of
states.
"""

from __future__ import annotations

from functools import lru_cache
from heapq import heapify, heappop, heappush

from anabasis.engine import moves as why
from anabasis.engine.cells import EMPTY, RAMP_LEAN
from anabasis.engine.moves import HOOKS, STEPS, Replay, Result, play_out  # noqa: F401
from anabasis.engine.world import VOID, WALL, Pos, Room, State, flat_index

# -- the world, compiled ------------------------------------------------------

#: Direction numbers.  Steps and level hooks first, in the order of their letters.
RIGHT, LEFT, DOWN_PAGE, UP_PAGE, ANA, KATA, UP, DOWN = range(8)
DELTA = ((1, 0, 0, 0), (-1, 0, 0, 0), (0, 1, 0, 0), (0, -1, 0, 0),
         (0, 0, 0, 1), (0, 0, 0, -1), (0, 0, 1, 0), (0, 0, -1, 0))
OPPOSITE = (LEFT, RIGHT, UP_PAGE, DOWN_PAGE, KATA, ANA, DOWN, UP)

#: Each move as (is a hook, direction number), from the moves' own table.
MOVE_CODES = {**{m: (False, DELTA.index(d)) for m, d in STEPS.items()},
              **{m: (True, DELTA.index(d)) for m, d in HOOKS.items()}}

# WALL (-1, the walls and the ceiling: solid) and VOID (-2, the void below and
# kata: falls out) are the world's own codes for outside the grid, used here as
# sentinel indices.
GONE = -3  #: a crate that fell out, during a settle (never read as a cell)

_LEAN_DIRECTION = {(0, +1): RIGHT, (0, -1): LEFT, (1, +1): DOWN_PAGE, (1, -1): UP_PAGE}


class Tables:
    """A room compiled for the engine: flat per-cell lists and neighbour lists.

    Every list has ``N + 2`` entries: the cells, then what :data:`VOID`
    (index -2) and :data:`WALL` (index -1) read as.

    - ``nb[d][i]``: the neighbour of cell ``i`` in direction ``d`` (the wrap
      resolved), or a sentinel; a sentinel's neighbour is itself.
    - ``hard[i]``: a block, a ramp, or the wall: solid whatever the movers do.
    - ``empty[i]``: an empty cell of the room (the void and the wall are not).
    - ``lean[i]``: the direction a ramp rises ana toward, or -1.
    - ``rank[i]``: sorts cells by ``(z, w, y, x)``, the settle order.
    """

    def __init__(self, room: Room, gravity_w: bool = True):
        X, Y, Z, W = room.size
        self.room = room
        self.n = X * Y * Z * W
        self.gravity_w = gravity_w
        #: Kata steps in a row that make the endless fall; never reached where w does not wrap.
        self.endless = W if room.wrap else 1 << 30
        self.pos: list[Pos] = list(room.positions())
        self._cell_of: dict[Pos, int] | None = None
        self.goal = room.index(room.goal)
        cells = room.cells
        self.hard = [c != EMPTY for c in cells] + [False, True]
        self.empty = [c == EMPTY for c in cells] + [False, False]
        self.lean = [_LEAN_DIRECTION[RAMP_LEAN[c]] if c in RAMP_LEAN else -1
                     for c in cells] + [-1, -1]
        self.rank = [((z * W + w) * Y + y) * X + x for (x, y, z, w) in self.pos] + [0, 0]
        self.nb = [self._neighbours(DELTA[d]) for d in range(8)]
        #: How far a hook flies at most, per direction.
        self.reach = [max(room.size)] * 4 + ([W - 1] * 2 if room.wrap else [max(room.size)] * 2)

    def _neighbours(self, delta: Pos) -> list[int]:
        room = self.room
        dx, dy, dz, dw = delta
        X, Y, Z, W = room.size
        step = flat_index(room.size, delta)  # the index is linear: a neighbour is a fixed step
        out = []
        for i, (x, y, z, w) in enumerate(self.pos):
            if 0 <= x + dx < X and 0 <= y + dy < Y and 0 <= z + dz < Z and 0 <= w + dw < W:
                out.append(i + step)
                continue
            q = (x + dx, y + dy, z + dz, w + dw)
            # Room.cell is the one place that knows what lies outside the grid
            outside = room.cell(q)
            out.append(outside if outside in (WALL, VOID) else room.index(room.norm(q)))
        return out + [VOID, WALL]

    def cell_of(self) -> dict[Pos, int]:
        """Each position of the grid's, to its flat index (made on first use)."""
        if self._cell_of is None:
            self._cell_of = {p: i for i, p in enumerate(self.pos)}
        return self._cell_of

    def index(self, pos: Pos) -> int:
        """The flat index of a position inside the room (w taken modulo W where it wraps)."""
        return self.room.index(self.room.norm(pos))

    def state(self, player: int, crates, player_pos: Pos | None = None) -> State:
        """A :class:`State` of flat indices (``player_pos`` for a player outside the room)."""
        pos = self.pos
        return State(player_pos if player_pos is not None else pos[player],
                     tuple(sorted(pos[c] for c in crates if c >= 0)))


def tables(room: Room, gravity_w: bool = True) -> Tables:
    """The compiled :class:`Tables` of a room, built once and cached.

    The cache is keyed on what the tables depend on (size, cells, goal,
    wrap), not on the movers or the header, so the proofs' variants of one
    room (without its crates, say) share one compile: the generator builds
    each room's tables once instead of once per proof.
    """
    return _tables(room.size, room.cells, room.goal, room.wrap, gravity_w)


@lru_cache(maxsize=64)
def _tables(size, cells, goal, wrap, gravity_w) -> Tables:
    return Tables(Room(size, cells, goal, State(goal, ()), wrap), gravity_w)


# -- held, and settling -------------------------------------------------------


#: Past this many crates, "is there a crate in cell i" is asked of a set, not the list:
#: the solver's few crates are quicker to scan, a crowded room's 12,000 are not.
FEW_CRATES = 16


def settle_movers(t: Tables, player: int, crates: list[int], frames: list | None = None,
                  touched: list[int] | None = None):
    """Settle in rounds, RULES.md's way: crates lowest first, then the player.

    ``crates`` is changed in place (a crate that falls out becomes
    :data:`GONE`).  Returns ``(player, lost, where)``: ``lost`` is "" or,
    when the player fell out, why (``FELL_BELOW``, ``FELL_KATA`` or
    ``FELL_FOR_EVER`` of :mod:`~anabasis.engine.moves`); ``where`` is the
    player's position as a tuple when it fell out (a cell of the void, or
    the last cell of an endless fall), else None.  With ``frames``, the
    state after each round that moved is appended.  ``touched``, when
    given, says the movers were settled but for these cells (left or
    taken since): a crowded room then looks only near them.
    """
    nb = t.nb
    below_of, kata_of = nb[DOWN], nb[KATA]
    hard, lean, rank = t.hard, t.lean, t.rank
    gravity_w, endless = t.gravity_w, t.endless
    count = len(crates)
    runs = [0] * count
    player_run = 0
    crowded = count > FEW_CRATES
    if crowded:
        return _settle_crowded(t, player, crates, frames, touched)
    while True:
        moved = False
        if count:
            order = sorted((i for i in range(count) if crates[i] != GONE),
                           key=lambda i: rank[crates[i]])
            for i in order:
                c = crates[i]
                b = below_of[c]
                if not (hard[b] or b == player or b in crates):
                    moved = True
                    runs[i] = 0
                    crates[i] = GONE if b == VOID else b
                elif gravity_w and lean[b] < 0:
                    k = kata_of[c]
                    if not (hard[k] or k == player or k in crates):
                        moved = True
                        runs[i] += 1
                        crates[i] = GONE if (k == VOID or runs[i] == endless) else k
        p = player
        target, player_run = _player_falls(t, p, crates, player_run)
        if target != GONE:
            moved = True
            if target == VOID or player_run == endless:
                return (p, *_fell(t, p, target, player_run, crates, frames))
            player = target
        if not moved:
            return player, "", None
        if frames is not None:
            frames.append(t.state(player, crates))


def at_rest(t: Tables, player: int, crates: list[int]) -> bool:
    """Whether nothing would move in a settle's first round: no crate falls, nor the player.

    The same tests as :func:`settle_movers`, for a few crates (at most
    :data:`FEW_CRATES`: it scans the list), none gone; the solver asks it
    first, since after most pushes and pulls nothing falls.
    """
    below_of, kata_of, hard, lean = t.nb[DOWN], t.nb[KATA], t.hard, t.lean
    gravity_w = t.gravity_w
    for c in crates:
        b = below_of[c]
        if not (hard[b] or b == player or b in crates):
            return False
        if gravity_w and lean[b] < 0:
            k = kata_of[c]
            if not (hard[k] or k == player or k in crates):
                return False
    return _player_falls(t, player, crates, 0)[0] == GONE


def _fell(t: Tables, p: int, target: int, run: int, crates, frames) -> tuple[str, Pos]:
    """Why the player fell out of the room, and where it is shown (that frame traced)."""
    x, y, z, w = t.pos[p]
    if target != VOID:
        where = t.pos[target]  # the endless fall: shown where it would land
        lost = why.FELL_FOR_EVER
    elif run:
        where = (x, y, z, w - 1)
        lost = why.FELL_KATA
    else:
        where = (x, y, z - 1, w)
        lost = why.FELL_BELOW
    if frames is not None:
        frames.append(State(where, tuple(sorted(t.pos[c] for c in crates if c != GONE))))
    return lost, where


def _player_falls(t: Tables, p: int, occupied, run: int) -> tuple[int, int]:
    """Where the player at ``p`` goes in this round of a settle (``GONE``: held) and
    its kata run after it, with crates in ``occupied`` (a list or a set of cells).

    Down in z first, when nothing solid or crate is under it; else kata in w,
    when no ramp is under it and nothing is kata of it.  A step down in z
    ends a kata run.
    """
    b = t.nb[DOWN][p]
    if not (t.hard[b] or b in occupied):
        return b, 0
    if t.gravity_w and t.lean[b] < 0:
        k = t.nb[KATA][p]
        if not (t.hard[k] or k in occupied):
            return k, run + 1
    return GONE, run


def _settle_crowded(t: Tables, player: int, crates: list[int], frames: list | None,
                    touched: list[int] | None):
    """:func:`settle_movers` for a room of many crates: the same rounds, the same result.

    "A crate in cell b" is asked of a set.  The first round looks at every
    crate; after it, a crate can only start to fall where a cell under it
    or kata of it was left, so a round looks only at the crates over and
    ana of the cells left (in rank order, a heap, so that one left early in
    a round still lets the crates after it fall in that round, as the full
    order would).  The work grows with what moves, not with the crates.
    """
    nb = t.nb
    below_of, kata_of, above_of, ana_of = nb[DOWN], nb[KATA], nb[UP], nb[ANA]
    hard, lean, rank = t.hard, t.lean, t.rank
    gravity_w, endless = t.gravity_w, t.endless
    runs = [0] * len(crates)
    player_run = 0
    at = {c: i for i, c in enumerate(crates) if c != GONE}  # cell -> crate
    if touched is None:
        heap = sorted((rank[c], i) for c, i in at.items())  # sorted: already a heap
    else:
        heap = _near(touched, at, above_of, ana_of, rank, crates)
    while True:
        moved = False
        seen = set()
        left: list[int] = []  # cells left this round
        while heap:
            r, i = heappop(heap)
            if i in seen:
                continue
            seen.add(i)
            c = crates[i]
            b = below_of[c]
            if not (hard[b] or b == player or b in at):
                runs[i] = 0
                new = GONE if b == VOID else b
            elif gravity_w and lean[b] < 0:
                k = kata_of[c]
                if hard[k] or k == player or k in at:
                    continue
                runs[i] += 1
                new = GONE if (k == VOID or runs[i] == endless) else k
            else:
                continue
            moved = True
            crates[i] = new
            del at[c]
            if new != GONE:
                at[new] = i
                left.append(new)  # a crate that moved may move again next round
            left.append(c)
            for cell in (above_of[c], ana_of[c]):
                j = at.get(cell)
                if j is not None and rank[cell] > r and j not in seen:
                    heappush(heap, (rank[cell], j))  # later in this round's order
        p = player
        target, player_run = _player_falls(t, p, at, player_run)
        if target != GONE:
            moved = True
            if target == VOID or player_run == endless:
                return (p, *_fell(t, p, target, player_run, crates, frames))
            player = target
            left.append(p)
        if not moved:
            return player, "", None
        if frames is not None:
            frames.append(t.state(player, crates))
        heap = _near(left, at, above_of, ana_of, rank, crates)


def _near(cells, at: dict, above_of, ana_of, rank, crates) -> list[tuple[int, int]]:
    """The next round's heap: the crates in ``cells`` and those over and ana of them."""
    todo = set()
    for cell in cells:
        for c in (cell, above_of[cell], ana_of[cell]):
            j = at.get(c)
            if j is not None:
                todo.add(j)
    heap = [(rank[crates[j]], j) for j in todo]
    heapify(heap)
    return heap


# -- moves --------------------------------------------------------------------


def step_movers(t: Tables, player: int, crates: list[int], d: int) -> int:
    """RULES.md's step in direction ``d``: the player's new cell (``crates`` changed in place).

    The first rule that applies is taken: ramp up, ramp down, walk, push, climb.
    """
    nb = t.nb
    hard, empty, lean = t.hard, t.empty, t.lean
    below_of = nb[DOWN]
    ahead = nb[d][player]
    crate_ahead = ahead in crates
    pushable = False
    if crate_ahead:
        beyond = nb[d][ahead]
        pushable = empty[beyond] and beyond not in crates
    solid_ahead = hard[ahead] or crate_ahead
    free_ahead = empty[ahead] and not crate_ahead
    if solid_ahead:
        blocked = not pushable  # in your way
    elif free_ahead:
        b = below_of[ahead]
        blocked = not (hard[b] or b in crates)  # no floor
    else:
        blocked = False
    if blocked:
        if lean[below_of[player]] == d:  # 1. ramp up
            target = nb[ANA][ahead]
            if empty[target] and target not in crates:
                return target
        target = nb[KATA][ahead]
        if lean[below_of[target]] == OPPOSITE[d]:  # 2. ramp down
            if empty[target] and target not in crates:
                return target
    if free_ahead:
        return ahead  # 3. walk
    if pushable:
        crates[crates.index(ahead)] = beyond  # 4. push
        return ahead
    if solid_ahead:  # 5. climb
        up = nb[UP]
        over, head = up[ahead], up[player]
        if empty[over] and over not in crates and empty[head] and head not in crates:
            return over
    return player  # 6. otherwise nothing happens


def hook_movers(t: Tables, player: int, crates: list[int], d: int) -> int:
    """The hook fired in direction ``d``: the player's new cell (a pulled crate moves in place)."""
    line = t.nb[d]
    hard = t.hard
    before = cell = player
    for k in range(1, t.reach[d] + 1):
        before, cell = cell, line[cell]
        if cell < 0:
            return player  # it flew out of the grid: it catches only on the room
        if cell in crates:
            if k >= 2:
                crates[crates.index(cell)] = line[player]
            return player
        if hard[cell]:
            return before if k >= 2 else player
    return player


def hook_line(t: Tables, player: int, crates, d: int) -> tuple[int, str, int]:
    """Where the hook fired in direction ``d`` flies, as :func:`hook_movers` follows it
    (never on a hot path): ``(k, what, cell)``.  ``what`` is "crate" or "block" (caught
    ``k`` cells out, at ``cell``), "out" (it flew out of the grid after ``k`` cells in it;
    ``cell`` -1) or "" (it flew its whole reach, ``k`` cells, to ``cell``, catching
    nothing)."""
    line = t.nb[d]
    cell = player
    for k in range(1, t.reach[d] + 1):
        cell = line[cell]
        if cell < 0:
            return k - 1, "out", -1
        if cell in crates:
            return k, "crate", cell
        if t.hard[cell]:
            return k, "block", cell
    return t.reach[d], "", cell


def why_still(t: Tables, player: int, crates: list[int], is_hook: bool, d: int) -> str:
    """Why a move in direction ``d`` did nothing, in the game's words (never on a hot path)."""
    line = t.nb[d]
    if is_hook:
        _, what, _ = hook_line(t, player, crates, d)
        if what == "out":
            return why.HOOK_FLEW_OUT
        if what:
            return why.HOOK_TOO_CLOSE  # caught at k >= 2 would have moved something
        return why.HOOK_CAUGHT_NOTHING
    ahead = line[player]
    if ahead == WALL:
        return why.ROOM_ENDS
    if ahead in crates:
        return why.CRATE_STUCK
    head = t.nb[UP][player]
    if not t.empty[head] or head in crates:
        return why.NO_HEADROOM
    return why.IN_YOUR_WAY


# -- the API ------------------------------------------------------------------


def _status(t: Tables, player: int, lost: str) -> str:
    if lost:
        return "lost"
    return "won" if player == t.goal else "playing"


def _flat(t: Tables, state: State) -> tuple[int, list[int]]:
    """The state as flat indices; a state this module just settled is not converted again."""
    known = _settled.get(id(state))
    if known is not None and known[0] is state and known[1] is t:
        return known[2], list(known[3])
    if len(state.crates) > FEW_CRATES:  # a crowded room: a dict lookup a crate
        at = t.cell_of()
        try:
            return t.index(state.player), [at[c] for c in state.crates]
        except KeyError:
            pass  # a position outside the grid's own (a wrapped w not taken modulo)
    return t.index(state.player), [t.index(c) for c in state.crates]


#: The last few states settle() and step() returned, by id, with their flat form:
#: stepping from one of them skips the conversion, and (being settled) lets a crowded
#: room's settle look only where the step changed something.  Held, so ids stay theirs.
_settled: dict[int, tuple[State, Tables, int, list[int]]] = {}
_SETTLED_KEPT = 8


def _keep(t: Tables, state: State, player: int, crates: list[int]) -> State:
    """Remember ``state`` (settled, not lost) as :func:`_flat` would give it."""
    if len(crates) > FEW_CRATES:  # only a crowded room gains from it
        if len(_settled) >= _SETTLED_KEPT:
            del _settled[next(iter(_settled))]
        _settled[id(state)] = (state, t, player, [c for c in crates if c != GONE])
    return state


def _is_settled(t: Tables, state: State) -> bool:
    known = _settled.get(id(state))
    return known is not None and known[0] is state and known[1] is t


def settle(room: Room, state: State, *, gravity_w: bool = True, trace: bool = False) -> Result:
    """Let everything fall until nothing moves."""
    t = tables(room, gravity_w)
    player, crates = _flat(t, state)
    frames: list | None = [] if trace else None
    player, lost, where = settle_movers(t, player, crates, frames)
    after = t.state(player, crates, where)
    if frames and frames[-1] == after:
        after = frames[-1]  # one object: the state the animation ends on is known settled
    if not lost:
        _keep(t, after, player, crates)
    return Result(after, _status(t, player, lost), bool(lost) or after != state,
                  tuple(frames or ()), lost)


def falls_out(room: Room, cell: Pos, crates=()) -> bool:
    """Whether the player, put in free ``cell`` among ``crates`` (at rest), falls out of the
    room as everything settles: what the map and the picture mark on a pit with a cross
    (the pit you die in and the one you slip through to a floor looked alike).  Crates at
    rest stay so (the player only adds to what holds them).

    >>> from anabasis.formats import levelfile
    >>> room = levelfile.parse("##### ##### #####\\n\\n##### ##.## .....\\n\\n"
    ...                        "###.# #@..* .....\\n")
    >>> falls_out(room, (3, 0, 1, 2)), falls_out(room, (2, 0, 1, 2))  # down; kata to a floor
    (True, False)
    """
    return settle(room, State.of(cell, crates)).status == "lost"


def start(room: Room, *, gravity_w: bool = True, trace: bool = False) -> Result:
    """The room's start, settled, as when it is loaded.

    The last few are kept (a room is frozen): opening a room asks for its
    start more than once (checked when read, then played).
    """
    key = (id(room), gravity_w, trace)
    known = _started.get(key)
    if known is not None and known[0] is room:
        return known[1]
    result = settle(room, room.start, gravity_w=gravity_w, trace=trace)
    if len(_started) >= _SETTLED_KEPT:
        del _started[next(iter(_started))]
    _started[key] = (room, result)
    return result


_started: dict[tuple, tuple[Room, Result]] = {}

#: The wording of a start no room may have: lost, or won, once settled.
START_LOST = "the player falls out of the room at the start"
START_WON = "the player is already in the goal at the start"


def start_refusal(room: Room) -> str:
    """Why no room may start as ``room`` does ("" when it may): one validity for every
    way a room is read (a level file, a room code).

    >>> from anabasis.formats import levelfile
    >>> start_refusal(levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n"))
    ''
    """
    status = start(room).status
    return START_LOST if status == "lost" else START_WON if status == "won" else ""


def step(room: Room, state: State, move: str, *, gravity_w: bool = True,
         trace: bool = False) -> Result:
    """Play one move (``R L D U``, or a hook ``hR hL hD hU hA hK``) and settle.

    A move that changes nothing is not a move: ``moved`` is False, the state
    is returned as it was, and there are no frames.
    """
    try:
        is_hook, d = MOVE_CODES[move]
    except (KeyError, TypeError):
        raise ValueError(f"unknown move {move!r}") from None
    t = tables(room, gravity_w)
    settled = _is_settled(t, state)
    player, crates = _flat(t, state)
    before = list(crates)
    if is_hook:
        moved_to = hook_movers(t, player, crates, d)
    else:
        moved_to = step_movers(t, player, crates, d)
    frames: list | None = [t.state(moved_to, crates)] if trace else None
    stepped = moved_to != player or crates != before
    touched = None
    if settled:  # only what the step changed can fall
        touched = [player, moved_to]
        if crates != before:
            touched += [c for k, c in enumerate(before) if crates[k] != c]
            touched += [c for k, c in enumerate(crates) if before[k] != c]
    new_player, lost, where = settle_movers(t, moved_to, crates, frames, touched)
    if not lost and new_player == player and (crates == before
                                              or sorted(crates) == sorted(before)):
        still = why.FELL_BACK if stepped else why_still(t, player, before, is_hook, d)
        return Result(state, _status(t, player, ""), False, (), still)
    after = t.state(new_player, crates, where)
    if frames and frames[-1] == after:
        after = frames[-1]  # one object: the state the animation ends on is known settled
    if not lost:
        _keep(t, after, new_player, crates)
    return Result(after, _status(t, new_player, lost), True, tuple(frames or ()), lost)


# -- a move string, played -----------------------------------------------------


def replay(room: Room, moves, *, gravity_w: bool = True) -> Replay:
    """Play ``moves`` from the settled start, as ``anabasis replay`` does (see
    :func:`~anabasis.engine.moves.play_out`).

    >>> from anabasis.formats import levelfile
    >>> room = levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n")
    >>> replay(room, "RRRR")
    Replay(state=State(player=(4, 0, 1, 1), crates=()), status='won', moves=3, why='')
    """
    return play_out(start, step, room, moves, gravity_w=gravity_w)


# -- the game, for the app ----------------------------------------------------


class Game:
    """One room being played: its state, the moves taken, and an undo stack of states.

    >>> from anabasis.formats import levelfile
    >>> game = Game(levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n"))
    >>> [game.play(m).status for m in "RRR"], game.moves
    (['playing', 'playing', 'won'], 3)
    >>> game.undo(), game.moves, game.status
    (True, 2, 'playing')
    """

    def __init__(self, room: Room, *, gravity_w: bool = True, hook: bool | None = None):
        self.room = room
        self.gravity_w = gravity_w
        #: whether play() takes hook moves: a hook room's player has them (None: as the
        #: room says); elsewhere they are the engine's, not the player's
        self.hook = room.hook if hook is None else hook
        first = start(room, gravity_w=gravity_w)
        self._first = first.state
        self._first_status = first.status
        self.state: State = first.state
        self.status: str = first.status
        self.moves = 0  #: moves taken to reach this state (not-a-move steps don't count)
        self._undo: list[tuple[State, str, int]] = []

    def play(self, move: str) -> Result:
        """Play a move.  A lost move is not applied: its Result (frames and all) shows the fall.

        Once the room is won (or was lost at its start) nothing more moves.
        """
        if move in HOOKS and not self.hook:
            raise ValueError(f"the hook {move!r} is not a move the player has")
        if self.status != "playing":
            if move not in MOVE_CODES:
                raise ValueError(f"unknown move {move!r}")
            return Result(self.state, self.status, False, (), why.ROOM_OVER)
        result = step(self.room, self.state, move, gravity_w=self.gravity_w, trace=True)
        if result.moved and result.status != "lost":
            self._undo.append((self.state, self.status, self.moves))
            self.state, self.status = result.state, result.status
            self.moves += 1
        return result

    def undo(self) -> bool:
        """Go back to the state before the last move (or restart); False when there is none."""
        if not self._undo:
            return False
        self.state, self.status, self.moves = self._undo.pop()
        return True

    def restart(self) -> bool:
        """Back to the start, undoably; False (and nothing pushed) when already there."""
        if self.state == self._first and self.moves == 0:
            return False
        self._undo.append((self.state, self.status, self.moves))
        self.state = self._first
        self.status = self._first_status
        self.moves = 0
        return True

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def history(self) -> tuple[State, ...]:
        """The states undo goes back to, oldest first: ``history[-1]`` is one undo back."""
        return tuple(state for state, _, _ in self._undo)

    @property
    def first(self) -> State:
        """The settled start, where a restart goes."""
        return self._first
