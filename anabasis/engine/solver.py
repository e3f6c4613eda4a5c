"""The exact solver: breadth-first search over states, shortest solution or a proof.

``solve(room)`` finds a shortest solution by moves, or proves that there is
none by searching every reachable state, or gives up after ``max_states``
states.  It gives the same answers as the reference solver
(:func:`anabasis.engine.reference.solve`): the same moves tried in the same order,
the same states counted, so the same solution string.

>>> from anabasis.formats import levelfile
>>> room = levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n")
>>> solve(room)
Solution(status='solved', moves=('R', 'R', 'R'), states=5)

How it is fast (see ``docs/engine.md`` for the figures):

- a state is one int: the player's flat cell index in the low bits, the
  sorted crate indices (each plus one) above it, so that the crates' part is
  reused as it is whenever no crate moves;
- a move that pushes or pulls no crate, from a settled state, can only
  unsettle a crate resting on the player or leaning kata on it; when there
  is none, only the player settles;
- better still, what a player-only move does depends on the static room and
  on a few cells only (those the step and the player's fall look at, and the
  two cells over and ana of the player).  That is worked out once per cell
  and move (a *footprint*, as a bit mask), and reused for every crate layout
  that leaves those cells empty: one mask test instead of a step and a settle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from anabasis.engine.moves import Solution, moves_for  # noqa: F401
from anabasis.engine.rules import (
    ANA,
    DOWN,
    FEW_CRATES,
    GONE,
    KATA,
    MOVE_CODES,
    UP,
    VOID,
    Tables,
    at_rest,
    hook_movers,
    settle_movers,
    step_movers,
    tables,
)
from anabasis.engine.world import Room, State

#: The default state cap: about 1 GB of search (some 100 bytes a state), 10 to 20 s.
DEFAULT_MAX_STATES = 10_000_000


class _Spy:
    """Stands in for an empty crate list and records every cell asked about."""

    def __init__(self):
        self.asked: set[int] = set()

    def __contains__(self, cell: int) -> bool:
        self.asked.add(cell)
        return False


def settle_player(t: Tables, player: int, crates) -> int:
    """Settle the player alone among crates that cannot move: its cell, or -1 if it is lost."""
    below_of, kata_of = t.nb[DOWN], t.nb[KATA]
    hard, lean = t.hard, t.lean
    gravity_w, endless = t.gravity_w, t.endless
    run = 0
    while True:
        b = below_of[player]
        if not (hard[b] or b in crates):
            if b == VOID:
                return -1
            run = 0
            player = b
        elif gravity_w and lean[b] < 0:
            k = kata_of[player]
            if hard[k] or k in crates:
                return player
            run += 1
            if k == VOID or run == endless:
                return -1
            player = k
        else:
            return player


class _Search:
    """One room and rule set, compiled for searching: the tables, and the footprint memo."""

    def __init__(self, room: Room, gravity_w: bool, hook: bool):
        self.t = t = tables(room, gravity_w)
        self.moves = moves_for(hook)
        self.codes = [MOVE_CODES[m] for m in self.moves]
        self.shift = (t.n + 1).bit_length()
        self.pmask = (1 << self.shift) - 1
        #: Per player cell, each move's (cell after or -1, footprint mask, move number).
        self.rows: list[tuple | None] = [None] * t.n
        #: Per player cell, the moves of its row that do something with no crate
        #: near, and the union of the other moves' footprints (see :meth:`live`).
        self.lives: list[tuple | None] = [None] * t.n
        self.crate_info: dict[int, tuple[tuple[int, ...], int]] = {}
        #: One int object per cell, shared: what the seen states hold as parents and keys.
        self.cell_ints = list(range(t.n))
        #: Per player cell, for the search (see :meth:`touch_of`).
        self.touch: list[tuple | None] = [None] * t.n

    # -- states as ints ---------------------------------------------------------

    def pack_crates(self, crates: Iterable[int]) -> int:
        """The crates' part of a state's int: sorted indices, each plus one, above the player."""
        part, step = 0, self.shift
        shift = step
        for c in sorted(crates):
            part |= (c + 1) << shift
            shift += step
        return part

    def crates_of(self, part: int) -> tuple[tuple[int, ...], int]:
        """The crates of a crates' part, and their cells as a bit mask (memoised)."""
        info = self.crate_info.get(part)
        if info is None:
            crates, rest = [], part >> self.shift
            while rest:
                crates.append((rest & self.pmask) - 1)
                rest >>= self.shift
            mask = 0
            for c in crates:
                mask |= 1 << c
            info = self.crate_info[part] = (tuple(crates), mask)
        return info

    # -- one move -----------------------------------------------------------------

    def footprints(self, player: int) -> tuple[tuple[int, int, int], ...]:
        """What each move does from ``player`` with no crate near, and what "near" is.

        One ``(cell after, near, move number)`` per move, in the search's order;
        the cell is -1 for a move that is no move, or that loses, and ``near``
        is the bit mask of the cells whose holding a crate could change that.
        """
        t = self.t
        row = []
        for m, (is_hook, d) in enumerate(self.codes):
            spy = _Spy()
            moved_to = (hook_movers if is_hook else step_movers)(t, player, spy, d)
            if moved_to == player:
                # the move itself moved nothing (no crate in what it asked): from a
                # settled state nothing falls after it, whatever the crates under the
                # player or on it; only a crate in what the move asked can change that
                after, asked = player, spy.asked
            else:
                after = settle_player(t, moved_to, spy)
                # a crate resting on the player, or leaning kata on it, falls when it leaves
                asked = spy.asked | {t.nb[UP][player], t.nb[ANA][player]}
            near = 0
            for c in asked:
                if c >= 0:
                    near |= 1 << c
            row.append((after if after != player else -1, near, m))
        self.rows[player] = row = tuple(row)
        return row

    def cells_of(self, part: int) -> tuple[int, ...]:
        """The crates of a crates' part, as a tuple of cells (the search keeps it with the
        layout's states: see :class:`_Seen`)."""
        crates, rest = [], part >> self.shift
        while rest:
            crates.append((rest & self.pmask) - 1)
            rest >>= self.shift
        return tuple(crates)

    def touch_of(self, player: int) -> tuple:
        """What the search needs of the player's cell: ``(touch, row, afters)``.

        ``touch`` holds for each cell the bits of the moves (``1 << m``) whose
        footprint holds it (0 for most cells), so that the moves a crate
        layout can change are the union of a few small ints, one look-up a
        crate (not a test of a room-sized bit mask per move: with the hook's
        ten moves those were the loop's largest cost).  ``row`` is every
        move's ``(cell after or -1, move number)`` with no crate near, in
        order; ``afters`` the live moves' cells, each once.
        """
        row = self.rows[player] or self.footprints(player)
        touch = [0] * self.t.n  # a list, not a dict: indexing it beats a method call
        for _, near, m in row:
            bit = 1 << m
            while near:
                low = near & -near
                touch[low.bit_length() - 1] |= bit
                near ^= low
        afters = tuple(dict.fromkeys(after for after, _, _ in row if after >= 0))
        found = self.touch[player] = (touch, {}, afters)
        return found

    def moves_with(self, player: int, hit: int) -> tuple:
        """The moves worth trying from ``player`` when crates are near the moves of ``hit``
        (bit m: move m), in order: ``(cell after, whole, arg)``, where ``whole`` is None for
        a move its footprint answers, else the method that plays it (``general(m, ...)``,
        or ``hook(d, ...)`` for a hook).  A move that does nothing with no crate near, and
        none near it, is left out: with the hook, about half the row."""
        row = self.rows[player]
        out = []
        answered = set()  # a second footprint move to the same cell finds it seen: once is enough
        for after, _, m in row:
            if hit >> m & 1:
                is_hook, d = self.codes[m]
                out.append((after, self.hook, d) if is_hook else (after, self.general, m))
            elif after >= 0 and after not in answered:
                answered.add(after)
                out.append((after, None, m))
        found = self.touch[player][1][hit] = tuple(out)
        return found

    def live(self, player: int) -> tuple:
        """The moves from ``player`` worth trying, for crate layouts that miss most footprints.

        ``(dead, moves, near_any, afters)``.  A move whose footprint says it
        does nothing (or loses) with no crate near can only do something when
        a crate is in its footprint: for every crate layout that misses the
        union of those footprints (``dead``), the search tries only the live
        ``moves``, in order (most states; half of the moves when the hook is
        on).  When the layout misses every footprint (``near_any``), each
        live move's cell is its footprint's: ``afters``, in order.
        """
        row = self.rows[player] or self.footprints(player)
        dead = near_any = 0
        for after, near, _ in row:
            near_any |= near
            if after < 0:
                dead |= near
        moves = tuple(move for move in row if move[0] >= 0)
        # a second move to the same cell finds it seen: once is enough
        afters = tuple(dict.fromkeys(after for after, _, _ in moves))
        live = (dead, moves, near_any, afters)
        self.lives[player] = live
        return live

    def move_between(self, key: int, new: int) -> str:
        """The first move, in the search's order, that leads from state ``key`` to ``new``."""
        player = key & self.pmask
        part = key ^ player
        crates, _ = self.crates_of(part)
        for m in range(len(self.moves)):
            if self.general(m, player, crates, part) == new:
                return self.moves[m]
        raise AssertionError("no move leads from the parent to the child")

    def general(self, m: int, player: int, crates: tuple[int, ...], part: int) -> int:
        """Move ``m`` with crates near: the new state's int, or -1 (no move, or lost)."""
        t = self.t
        is_hook, d = self.codes[m]
        if is_hook:
            return self.hook(d, player, crates, part)
        moved = list(crates)
        moved_to = (hook_movers if is_hook else step_movers)(t, player, moved, d)
        untouched = tuple(moved) == crates  # no crate pushed or pulled
        if untouched and (t.nb[UP][player] not in crates and t.nb[ANA][player] not in crates):
            after = settle_player(t, moved_to, crates)  # no crate can move: the player alone
            if after < 0 or after == player:
                return -1
            return part | after
        if len(moved) <= FEW_CRATES and at_rest(t, moved_to, moved):
            # most pushes and pulls: nothing falls after (a crowded room: the settle's sets)
            after = moved_to
            new = part if untouched else self.pack_crates(moved)
        else:
            after, lost, _ = settle_movers(t, moved_to, moved)
            if lost:
                return -1
            new = (part if tuple(moved) == crates
                   else self.pack_crates(c for c in moved if c != GONE))
        key = new | after
        return -1 if key == (part | player) else key

    def hook(self, d: int, player: int, crates: tuple[int, ...], part: int) -> int:
        """:meth:`general` for the hook fired in direction ``d``: ``rules.hook_movers``'s
        flight, with the settle after it only where something can move."""
        t = self.t
        line, hard = t.nb[d], t.hard
        first = line[player]
        if first in crates:
            return -1  # it catches the crate beside you at once: nothing moves
        before, cell = player, first
        for k in range(1, t.reach[d] + 1):
            if k > 1:
                before, cell = cell, line[cell]
            if cell < 0:
                return -1  # it flew out of the grid: nothing happens
            if cell in crates:  # k >= 2: the crate comes to the cell beside you
                moved = [first if c == cell else c for c in crates]
                if len(moved) <= FEW_CRATES and at_rest(t, player, moved):
                    return self.pack_crates(moved) | player
                after, lost, _ = settle_movers(t, player, moved)
                if lost:
                    return -1
                key = self.pack_crates(c for c in moved if c != GONE) | after
                return -1 if key == (part | player) else key
            if hard[cell]:
                if k < 2:
                    return -1
                break
        else:
            return -1  # round the wrapped room and nothing caught
        moved_to = before  # pulled to the cell before the block; no crate moved
        if t.nb[UP][player] not in crates and t.nb[ANA][player] not in crates:
            after = settle_player(t, moved_to, crates)  # no crate can move: the player alone
            return -1 if after < 0 or after == player else part | after
        moved = list(crates)
        after, lost, _ = settle_movers(t, moved_to, moved)
        if lost:
            return -1
        key = self.pack_crates(c for c in moved if c != GONE) | after
        return -1 if key == (part | player) else key


def solve(room: Room, *, without=(), hook: bool | None = None,
          max_states: int | None = DEFAULT_MAX_STATES) -> Solution:
    """Breadth-first search for the shortest solution, or prove there is none.

    ``without`` names rules switched off (``gravity-w``, ``ramps``, ``crates``,
    ``wrap``, and in a hook room ``hook``); ``hook`` says whether the hook is
    a move: None (the default) as the room says (a hook room has it), True
    to add it anywhere (the proof that it saves nothing).  ``without=("hook",)``
    wins over ``hook``.  The search gives up (status ``gave-up``) once it has
    reached ``max_states`` states (None: the default cap).
    """
    hook = uses_hook(room, without, hook)
    room = room.without(set(without) - {"gravity-w"})
    return solve_from(room, room.start, gravity_w="gravity-w" not in without, hook=hook,
                      max_states=max_states)


def uses_hook(room: Room, without=(), hook: bool | None = None) -> bool:
    """Whether a search of ``room`` takes hook moves: ``hook`` if given, else the room's
    own (a hook room), and never with ``hook`` among ``without``.

    >>> from anabasis.engine.world import Room
    >>> plain = Room.empty((3, 1, 1, 1), (0, 0, 0, 0), (2, 0, 0, 0))
    >>> uses_hook(plain), uses_hook(plain, hook=True), uses_hook(plain, ("hook",), True)
    (False, True, False)
    """
    if "hook" in without:
        return False
    return room.hook if hook is None else bool(hook)


def solve_from(room: Room, state: State, *, gravity_w: bool = True, hook: bool | None = None,
               max_states: int | None = DEFAULT_MAX_STATES) -> Solution:
    """:func:`solve` from any state of the room (settled first), not only from its start.

    >>> from anabasis.formats import levelfile
    >>> room = levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n")
    >>> solve_from(room, State((2, 0, 1, 1), ()))
    Solution(status='solved', moves=('R', 'R'), states=4)
    """
    if max_states is None:
        max_states = DEFAULT_MAX_STATES
    search = _Search(room, gravity_w, uses_hook(room, (), hook))
    first = _settled_key(search, state)
    if first is None:
        return Solution("impossible", None, 0)
    if first & search.pmask == search.t.goal:
        return Solution("solved", (), 1)
    return _bfs(search, first, max_states)


def _settled_key(search: _Search, state: State) -> int | None:
    """A state, settled, as the search's int; None when the settle loses."""
    t = search.t
    crates = [t.index(c) for c in state.crates]
    player, lost, _ = settle_movers(t, t.index(state.player), crates)
    if lost:
        return None
    return search.pack_crates(c for c in crates if c != GONE) | player


class _Seen:
    """The states a search has reached, each with its parent: per crate layout (the
    crates' part of the key), its crates' cells and a small dict from the player's
    cell to the parent's key.

    Most moves leave the crates where they are, so the search asks the
    layout's own dict, a few hundred entries that stay in the cache, rather
    than one dict of millions (a cache miss a move).  ``count`` is the
    states held.
    """

    __slots__ = ("layouts", "count", "search")

    def __init__(self, search: _Search):
        #: crates' part -> (player cell -> parent key, the crates' cells)
        self.layouts: dict[int, tuple[dict[int, int], tuple[int, ...]]] = {}
        self.count = 0
        self.search = search

    def __contains__(self, key: int) -> bool:
        player = key & self.search.pmask
        layout = self.layouts.get(key ^ player)
        return layout is not None and player in layout[0]

    def __len__(self) -> int:
        return self.count

    def add(self, key: int, parent: int) -> None:
        player = key & self.search.pmask
        part = key ^ player
        layout = self.layouts.get(part)
        if layout is None:
            layout = self.layouts[part] = ({}, self.search.cells_of(part))
        layout[0][player] = parent
        self.count += 1

    def parent(self, key: int) -> int:
        """The parent's key (-1 for a root).  A parent of the same layout is held as its
        player's cell alone (an int the search already has: no object a state); one of
        another layout, as its key, which is larger than any cell, since a crate never
        appears (a parent with no crates has children with none)."""
        pmask = self.search.pmask
        player = key & pmask
        part = key ^ player
        parent = self.layouts[part][0][player]
        if parent < 0 or parent > pmask:
            return parent
        return part | parent


def _bfs(search: _Search, first: int, max_states: int, seen: _Seen | None = None) -> Solution:
    """The breadth-first search proper: the hot loop, kept flat on purpose.

    ``seen`` may hold states already known to be dead (each visited by an
    earlier search that ended impossible): they are skipped as if seen, and
    they count toward ``max_states``.  ``first`` must not be among them.
    """
    t = search.t
    goal, pmask = t.goal, search.pmask
    touches, touch_of, moves_with = search.touch, search.touch_of, search.moves_with
    cells_of, cell_ints = search.cells_of, search.cell_ints
    if seen is None:
        seen = _Seen(search)
    seen.add(first, -1)
    layouts = seen.layouts
    count = seen.count
    if count >= max_states:  # the cap is reached already (a cap of 1: the start alone)
        return Solution("gave-up", None, count)
    # breadth first, a layer at a time: a state's key is let go once it is searched
    # (its children of the same layout hold only its player's cell, one shared int)
    layer = [first]
    while layer:
        queue: list[int] = []
        for key in layer:
            player = key & pmask
            part = key ^ player
            here, crates = layouts[part]  # this crate layout's states, and its crates
            me = cell_ints[player]  # the parent, as this layout's children hold it
            touch = touches[player]
            if touch is None:
                touch = touch_of(player)
            near, by_hit, afters = touch
            hit = 0  # the moves a crate is near: bit m for move m
            for c in crates:
                hit |= near[c]
            if not hit:  # no crate near any move: each goes where its footprint says
                for after in afters:
                    if after in here:
                        continue
                    here[after] = me
                    count += 1
                    new = part | after
                    if after == goal:
                        seen.count = count
                        return Solution("solved", _path(search, seen, new), count)
                    if count >= max_states:
                        seen.count = count
                        return Solution("gave-up", None, count)
                    queue.append(new)
                continue
            row = by_hit.get(hit)
            if row is None:
                row = moves_with(player, hit)
            for after, whole, arg in row:
                if whole is not None:  # a crate is near: the whole move
                    new = whole(arg, player, crates, part)
                    if new < 0:
                        continue
                    after = cell_ints[new & pmask]  # the shared int: the dict keeps it
                    moved = new ^ after
                    if moved == part:
                        if after in here:
                            continue
                        here[after] = me
                    else:
                        layout = layouts.get(moved)
                        if layout is None:
                            layout = layouts[moved] = ({}, cells_of(moved))
                        elif after in layout[0]:
                            continue
                        layout[0][after] = key
                else:  # the player alone, as the footprint says; the crates' part as it was
                    if after in here:
                        continue
                    here[after] = me
                    new = part | after
                count += 1
                if after == goal:
                    seen.count = count
                    return Solution("solved", _path(search, seen, new), count)
                if count >= max_states:
                    seen.count = count
                    return Solution("gave-up", None, count)
                queue.append(new)
        layer = queue
    seen.count = count
    return Solution("impossible", None, count)


def _path(search: _Search, seen: _Seen, key: int) -> tuple[str, ...]:
    """The moves from the start to ``key``.

    Only parents are kept (a move number per state would cost a multiply in
    the hot loop); each move is found again as the first, in the search's
    order, that leads from the parent to the child, which is the one the
    search took.
    """
    path = []
    parent = seen.parent(key)
    while parent >= 0:
        path.append(search.move_between(parent, key))
        key, parent = parent, seen.parent(parent)
    return tuple(reversed(path))


# -- the way on: hints and lost causes ------------------------------------------

#: The cap for a hint or a lost-cause check: about a tenth of a second of search
#: on a quiet machine.  Past it the answer is "too big to tell".
HINT_MAX_STATES = 100_000


class WayOn(NamedTuple):
    """What :func:`way_on` finds from a position."""

    status: str  #: "won", "solvable", "lost" or "too-big"
    moves: tuple[str, ...] | None  #: solvable: a shortest solution from here; won: ()
    undo: int | None  #: lost: the fewest undos back to a live position; None if none is
    states: int  #: distinct states reached, over every search it made


def way_on(room: Room, state: State, history: Sequence[State] = (), *,
           gravity_w: bool = True, hook: bool | None = None,
           max_states: int = HINT_MAX_STATES) -> WayOn:
    """Whether the goal can still be reached from ``state``: the hint and the lost-cause check.

    ``history`` is the undo stack, oldest first (``history[-1]`` is one undo
    back).  When the goal can be reached, the answer holds a shortest
    solution from ``state``; when it cannot, the fewest undos back to a
    position from which it can (None when no position on the stack can).
    Past ``max_states`` states, all searches together, it is ``too-big``.

    It is the solver's own search, run from ``state`` and then from each
    position back along the stack.  Every state an impossible search
    reached is dead, so the next search skips those: the walk back costs
    no more than one search over all the states the positions reach.

    >>> from anabasis.formats import levelfile
    >>> room = levelfile.parse("###### ######\\n###### ######\\n\\n"
    ...                        "###### #@$.*#\\n###### #....#\\n")
    >>> from anabasis.engine import rules
    >>> start = room.start
    >>> way_on(room, start).moves
    ('R', 'D', 'R', 'R', 'U')
    >>> played = [start]
    >>> for move in "RRD":  # the crate pushed onto the goal, where nothing moves it again
    ...     played.append(rules.step(room, played[-1], move).state)
    >>> way_on(room, played[-1], played[:-1])
    WayOn(status='lost', moves=None, undo=2, states=14)
    """
    search = _Search(room, gravity_w, uses_hook(room, (), hook))
    goal, pmask = search.t.goal, search.pmask
    first = _settled_key(search, state)
    parents = _Seen(search)
    if first is not None:
        if first & pmask == goal:
            return WayOn("won", (), None, 1)
        found = _bfs(search, first, max_states, parents)
        if found.status == "solved":
            return WayOn("solvable", found.moves, None, found.states)
        if found.status == "gave-up":
            return WayOn("too-big", None, None, found.states)
    for undo, earlier in enumerate(reversed(history), 1):
        key = _settled_key(search, earlier)
        if key is None or key in parents:
            continue  # lost, or reached by a search that ended impossible: dead
        if key & pmask == goal:
            return WayOn("lost", None, undo, len(parents))
        found = _bfs(search, key, max_states, parents)
        if found.status == "solved":
            return WayOn("lost", None, undo, found.states)
        if found.status == "gave-up":
            return WayOn("too-big", None, None, found.states)
    return WayOn("lost", None, None, len(parents))


# -- the whole state graph ------------------------------------------------------------


class Graph:
    """Every state reachable from a room's start, and the moves between them.

    States are numbered in breadth-first order, the start first (0).  For
    each state, ``children[i]`` holds the state each move that changes
    something leads to, in the search's move order, with ``moves[i]`` the
    move numbers (indices into :func:`moves_for`'s order: R, L, D, U, then
    in a hook room hR hL hD hU hA hK; see :attr:`names`); a move that
    loses leads to -1 (only with ``losses=True``: otherwise it is left out,
    like a move that does nothing).  A won state has no moves: once won,
    nothing more moves.  ``complete`` is False when the search stopped at
    its cap (the graph is then only part of the room's).
    """

    __slots__ = ("keys", "children", "moves", "won", "complete", "_search")

    def __init__(self, search: _Search, keys, children, moves, won, complete):
        self._search = search
        self.keys: list[int] = keys  #: each state as the solver's int
        self.children: list[tuple[int, ...]] = children
        self.moves: list[tuple[int, ...]] = moves
        self.won: list[bool] = won
        self.complete: bool = complete

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def names(self) -> tuple[str, ...]:
        """The move names, indexed by the numbers in :attr:`moves` (``moves_for``'s order)."""
        return self._search.moves

    @property
    def tables(self) -> Tables:
        """The room's compiled tables (``pos`` turns a flat index into a position)."""
        return self._search.t

    def position(self, i: int) -> tuple[int, int, int, int]:
        """State ``i``'s player, as a position."""
        return self._search.t.pos[self.keys[i] & self._search.pmask]

    def player(self, i: int) -> int:
        """State ``i``'s player, as a flat cell index."""
        return self.keys[i] & self._search.pmask

    def crates(self, i: int) -> tuple[int, ...]:
        """State ``i``'s crates, as sorted flat cell indices."""
        key = self.keys[i]
        return self._search.crates_of(key ^ (key & self._search.pmask))[0]


def explore(room: Room, *, max_states: int = 100_000, losses: bool = False,
            hook: bool | None = None) -> Graph:
    """The room's whole reachable state graph (every rule on; the hook as :func:`solve`
    takes it: a move of a hook room's, else steps only).

    It visits what :func:`solve` would, in the same order, but goes on past
    the first win and keeps every edge, for the measures that need the
    whole graph: dead states, forks, every shortest solution.  With
    ``losses``, a move that loses is kept as an edge to -1 (a little
    slower: each is played again to tell it from a move that does nothing).

    >>> from anabasis.formats import levelfile
    >>> g = explore(levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n"))
    >>> len(g), g.won[-1], g.children[0]
    (5, True, (1, 2))
    """
    search = _Search(room, True, uses_hook(room, (), hook))
    t = search.t
    crates = [t.index(c) for c in room.start.crates]
    player, lost, _ = settle_movers(t, t.index(room.start.player), crates)
    if lost:
        return Graph(search, [], [], [], [], True)
    first = search.pack_crates(c for c in crates if c != GONE) | player
    goal, pmask = t.goal, search.pmask
    rows, crate_info = search.rows, search.crate_info
    footprints, general, crates_of = search.footprints, search.general, search.crates_of
    ids = {first: 0}
    keys = [first]
    children: list = []
    moves: list = []
    won: list = []
    for key in keys:  # grows as the search goes
        player = key & pmask
        if player == goal:
            children.append(())
            moves.append(())
            won.append(True)
            continue
        won.append(False)
        part = key ^ player
        info = crate_info.get(part)
        if info is None:
            info = crates_of(part)
        cs, cmask = info
        row = rows[player]
        if row is None:
            row = footprints(player)
        kids = []
        ms = []
        for after, near, m in row:
            if near & cmask:
                new = general(m, player, cs, part)
            else:
                new = part | after if after >= 0 else -1
            if new < 0:
                if losses and _loses(search, m, player, cs):
                    kids.append(-1)
                    ms.append(m)
                continue
            child = ids.get(new)
            if child is None:
                if len(keys) >= max_states:
                    children.append(tuple(kids))
                    moves.append(tuple(ms))
                    return Graph(search, keys, children, moves, won, False)
                child = ids[new] = len(keys)
                keys.append(new)
            kids.append(child)
            ms.append(m)
        children.append(tuple(kids))
        moves.append(tuple(ms))
    return Graph(search, keys, children, moves, won, True)


def _loses(search: _Search, m: int, player: int, crates: tuple[int, ...]) -> bool:
    """Whether move ``m`` from this state loses (rather than doing nothing)."""
    t = search.t
    is_hook, d = search.codes[m]
    moved = list(crates)
    moved_to = (hook_movers if is_hook else step_movers)(t, player, moved, d)
    _, lost, _ = settle_movers(t, moved_to, moved)
    return lost
