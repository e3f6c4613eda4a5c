"""Terrain: plazas in four dimensions, joined by motifs, and the room they make.

A made room is ``X x Y x Z x W``.  Each column ``(x, y)`` has a *level*
``(h, s)``: its ground in w stands at ``h`` (every cell kata of it, at every
z above the floor, is block), and its ground in z at ``s`` (the cells
``z <= s`` are block from ``w = h`` on: a step ``s`` high).  The z = 0
layer is floor.  The player and the crates stand at ``(x, y, s + 1, h)``,
held from below by the step (or the floor) and from kata by the ground.

The terrain is a chain of *plazas* (regions of columns at one level), and
each link of the chain is a motif with one trick:

- **ramp**: a ramp set in a column of this plaza, up one slice in w;
- **dip** / **shaft**: a column one (two) slices lower at the same z, that a
  crate (two crates, in order) falling kata must fill before anyone crosses;
- **drop**: a plaza one slice lower in w, reached only by slipping kata
  (the plaza after it, by a ramp, touches nothing lower than itself but its
  ramp: without w's gravity the player can never get down there);
- **step**: a plaza one higher in z: a climb;
- **stair**: a plaza two higher in z: only a crate pushed against it, as a
  stair, lets the player up;
- **descent**: a plaza one slice lower in w, reached down a ramp set in
  it (the only place it touches the plaza above): a ramp taken both ways;
- **route**: a ramp up one slice, and another way up beside it, longer: a
  slip to a column a slice below, a ramp up to a landing, a ramp up again;
- **fall**: back down to the floor in z (glue, no trick).

A new plaza touches no earlier plaza from which it could be reached
(walking, slipping, climbing one, or climbing a crate), except the plaza
it comes from when the motif is a drop, a step or a stair; so the only
ways on are the ones the chain made.  Decoys are dead-end ledges in w;
every other column is a hole to the void or a wall, solid right through
(a wall a slice above its neighbours, as GEN 2 made them, is floor to a
player who floats, without w's gravity, at the slice above them).  A ramp
column is open below and above the slices above its ramp: a mover that
walks onto it from above, other than down the ramp, falls through and out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from anabasis.engine.cells import BLOCK, RAMP_OF_LEAN
from anabasis.engine.world import MAX_SIZE, Room, State, flat_index
from anabasis.gen.prng import SplitMix64
from anabasis.gen.seeds import Tier

#: The four steps in the plane, in a fixed order: R, L, D, U.
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))

FREE = -1  #: a column not yet given a part
WALLED = -2  #: a column that must stay a wall
#: The ramp that rises toward each of DIRS.
RAMP_TOWARD = tuple(RAMP_OF_LEAN[(0, dx) if dx else (1, dy)] for dx, dy in DIRS)
GAP_DEPTH = {"dip": 1, "shaft": 2}
GAP_CRATES = {"dip": 1, "shaft": 2, "stair": 1}
TOP_S = 2  #: the highest ground in z


def can_step(a: tuple[int, int], b: tuple[int, int], crates: bool = False) -> bool:
    """Whether a player on ground of level ``a`` can get onto a neighbour of level ``b``
    (walk, slip kata, fall in z, climb one; with ``crates``, climb two on a crate)."""
    return b[0] <= a[0] and b[1] <= a[1] + (2 if crates else 1)


@dataclass
class Gap:
    """A crossing that needs crates: from plaza ``before`` to plaza ``after``.

    A dip or a shaft is filled (its columns are ground once filled); a
    stair's columns are the plaza's own, beside the high plaza, where a
    crate stands as a step.
    """

    kind: str  #: "dip", "shaft" or "stair"
    before: int
    after: int
    cells: list[int]  #: its columns (the first is the one the chain made)


@dataclass
class Terrain:
    """A candidate landscape: column levels, ramps, plazas, gaps; start and goal columns.

    Columns are numbered ``x + X * y``.  A height of ``W`` is solid right
    through, 0 is a hole to the void; ``lift`` is each column's ground in z.
    """

    X: int
    Y: int
    W: int
    height: list[int]
    ramps: dict[int, int]  #: column -> ramp code, set into the ground at its height
    plazas: list[list[int]]  #: columns of each plaza, in the chain's order
    level: list[int]  #: each plaza's height
    gaps: list[Gap]
    decoys: list[list[int]]  #: the dead-end ledges' columns
    holes: list[int]
    start: int
    goal: int
    lift: list[int] = field(default_factory=list)  #: each column's ground in z (0: the floor)
    chain: tuple[str, ...] = ()  #: the motifs of the chain, in order
    ground: list[int] = field(default_factory=list)  #: each plaza's ground in z
    #: each route's other way up (a route motif's): its columns, the slice below first, then
    #: the landing between its two ramps
    routes: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._cells: bytes | None = None
        if not self.lift:
            self.lift = [0] * (self.X * self.Y)
        if not self.ground:
            self.ground = [0] * len(self.plazas)
        #: ``step[d][c]``: the column beside ``c`` in direction ``DIRS[d]``, or -1
        self.step = [[_toward(c, d, self.X, self.Y) for c in range(self.X * self.Y)]
                     for d in range(4)]

    @property
    def Z(self) -> int:
        """Layers in z: the floor, the highest step, the player on it, and room to climb."""
        return max(3, max(self.lift) + 2)

    def neighbours(self, c: int) -> list[int]:
        return _neighbours(c, self.X, self.Y)

    def toward(self, c: int, d: int) -> int:
        """The column beside ``c`` in direction ``DIRS[d]``, or -1 past the grid's edge."""
        return self.step[d][c]

    def area(self, gap: Gap, crossings: bool = False) -> list[int]:
        """The plazas a crate for ``gap`` may start on: the one before it, and the ones
        before that at the same level, back across the dips and shafts between them
        (once filled, a crate is pushed over a gap like over ground), and the ledge a
        drop came down from to them (:meth:`ledge_above`).  The column the player
        comes in by is first.  With ``crossings``, the columns of the gaps between
        them too (as if filled).
        """
        plazas = [gap.before]
        between: list[int] = []
        while True:
            came = next((g for g in self.gaps if g.after == plazas[0] and g.kind != "stair"),
                        None)
            if came is None:
                break
            plazas.insert(0, came.before)
            between += came.cells
        ledge = self.ledge_above(gap)
        return ledge + [c for k in plazas for c in self.plazas[k]] + (
            between if crossings else [])

    def ledge_above(self, gap: Gap) -> list[int]:
        """The columns of the plaza a drop came down from, when the plazas a crate for
        ``gap`` may start on were reached by that drop: a crate there is pushed off the
        ledge, and lands a slice lower where it is needed.  Otherwise none."""
        first = gap.before
        while True:
            came = next((g for g in self.gaps if g.after == first and g.kind != "stair"), None)
            if came is None:
                break
            first = came.before
        if first >= 1 and first - 1 < len(self.chain) and self.chain[first - 1] == "drop":
            return list(self.plazas[first - 1])
        return []

    def feed_distance(self, gap: Gap, floor) -> dict[int, int]:
        """The columns of ``floor`` from which a crate can be pushed into ``gap``, each with
        the fewest pushes it takes.

        Found backwards from the gap, ignoring the other crates: a crate on
        ``c`` can go on to ``c + d`` when the player can stand on ``c - d``.
        (A crate anywhere else can never fill the gap: no placement puts one
        there.)
        """
        floor = set(floor)
        dist = {c: 0 for c in gap.cells}
        layer = set(gap.cells)
        k = 0
        while layer:
            k += 1
            nxt = set()
            for c in floor:
                if c in dist:
                    continue
                for d in range(4):
                    ahead, behind = self.toward(c, d), self.toward(c, d ^ 1)
                    if behind in floor and ahead in layer:
                        dist[c] = k
                        nxt.add(c)
                        break
            layer = nxt
        return {c: k for c, k in sorted(dist.items()) if k}

    def level_of(self, c: int) -> tuple[int, int]:
        return self.height[c], self.lift[c]

    def walkable(self) -> set[int]:
        """The columns the player reaches with no crates, in this landscape's own terms.

        From a column: walk, slip or fall to a neighbour no higher in w and at
        most one higher in z (:func:`can_step`), or take a ramp to a neighbour
        one slice higher.  A ramp column entered from above, except down its
        ramp, is a fall through.  A quick filter, no engine: the chosen room is
        proved by the exhaustive search all the same.
        """
        height, ramps, lift = self.height, self.ramps, self.lift
        seen = {self.start}
        todo = [self.start]
        for c in todo:
            here = (height[c], lift[c])
            lean = ramps.get(c)
            for d in range(4):
                n = self.toward(c, d)
                if n < 0 or n in seen:
                    continue
                there = (height[n], lift[n])
                if there[0] <= 0:  # a hole: out
                    continue
                if can_step(here, there):
                    if n in ramps and there[0] < here[0] and not (
                            there[0] == here[0] - 1 and ramps[n] == RAMP_TOWARD[d ^ 1]):
                        continue  # onto a ramp column from above: through it, out
                    ok = True
                else:
                    ok = (there == (here[0] + 1, here[1]) and lean is not None
                          and lean == RAMP_TOWARD[d])
                if ok:
                    seen.add(n)
                    todo.append(n)
        return seen

    def room(self, name: str, start: int, crates) -> Room:
        """The 4D room: floor at z = 0, each column's ground in w and its step in z."""
        X, Y, W, Z = self.X, self.Y, self.W, self.Z
        size = (X, Y, Z, W)
        at = self.at
        return Room(size, self.cells(), at(self.goal),
                    State.of(at(start), [at(c) for c in crates]), name=name, view="stand")

    def cells(self) -> bytes:
        """The room's cells (made once: every crate placement shares them)."""
        if self._cells is not None:
            return self._cells
        X, Y, W, Z = self.X, self.Y, self.W, self.Z
        size = (X, Y, Z, W)
        cells = bytearray(X * Y * Z * W)
        for c, h in enumerate(self.height):
            if h <= 0:  # a hole has no floor either: what falls in falls out
                continue
            x, y = c % X, c // X
            s = self.lift[c]
            ramp = self.ramps.get(c)
            for w in range(W):
                for z in range(Z):
                    if w < h or z <= s:  # the ground in w, the step (and the floor) in z
                        cells[flat_index(size, (x, y, z, w))] = BLOCK
            if ramp is not None:
                cells[flat_index(size, (x, y, s, h))] = ramp
                # nothing under the slices above the ramp: walk onto it from above and fall out
                for w in range(h + 1, W):
                    for z in range(s + 1):
                        cells[flat_index(size, (x, y, z, w))] = 0
        self._cells = bytes(cells)
        return self._cells

    def at(self, c: int) -> tuple[int, int, int, int]:
        """Where a mover stands on column ``c``: on its step in z, on its ground in w."""
        return (c % self.X, c // self.X, self.lift[c] + 1, self.height[c])


def _toward(c: int, d: int, X: int, Y: int) -> int:
    x, y = c % X + DIRS[d][0], c // X + DIRS[d][1]
    return x + X * y if 0 <= x < X and 0 <= y < Y else -1


def _neighbours(c: int, X: int, Y: int) -> list[int]:
    x, y = c % X, c // X
    return [nx + X * ny for dx, dy in DIRS
            if 0 <= (nx := x + dx) < X and 0 <= (ny := y + dy) < Y]


class _Grower:
    """The terrain while it grows: who owns each column, and at what level."""

    GAP_BASE = 1000
    ROUTE_BASE = 2000  #: a route's other way: its two parts, numbered from here

    def __init__(self, rng: SplitMix64, X: int, Y: int):
        self.rng, self.X, self.Y = rng, X, Y
        self.owner = [FREE] * (X * Y)  #: plaza number, or gap number + GAP_BASE, or FREE
        self.lv: dict[int, tuple[int, int]] = {}  #: plaza or gap number -> level (h, s)
        self.plazas: list[list[int]] = []
        self.entry: dict[int, int] = {}  #: plaza -> the gap it was entered by
        self.side: dict[int, tuple[int, int]] = {}  #: gap -> the level of its two sides
        self.gap_before: dict[int, int] = {}  #: gap -> the plaza before it
        self.parent: dict[int, int] = {}  #: plaza -> the plaza it may touch (drop, step, stair)
        self.door: dict[int, int] = {}  #: plaza -> the one column above it it may touch (descent)
        self.sealed: dict[int, int] = {}  #: plaza -> the one lower column it may touch (its ramp)
        #: the first sealed plaza: no plaza from it on touches a plaza or gap from before it
        self.fence: int | None = None
        self.route_before: dict[int, int] = {}  #: a route part -> the plaza below the route
        self.nb = [_neighbours(c, X, Y) for c in range(X * Y)]

    def fits(self, c: int, plaza: int, level: tuple[int, int]) -> bool:
        """Whether ``c`` may join ``plaza``: free, and next to nothing that would join it otherwise.

        A plaza may touch itself, walls, the gap it was entered by, its
        parent (a drop, a step or a stair), and plazas and gaps from which
        it cannot be reached (from it they are slips down, back the way the
        chain came, or pits).  A sealed plaza touches nothing lower than
        itself but its ramp.
        """
        if self.owner[c] != FREE:
            return False
        seal = self.sealed.get(plaza)
        fence = self.fence if self.fence is not None and plaza >= self.fence else None
        for n in self.nb[c]:
            o = self.owner[n]
            if o == FREE or o == plaza or o == WALLED:
                continue
            gap = self.GAP_BASE <= o < self.ROUTE_BASE
            before = self.gap_before[o] if gap else self.route_before.get(o, o)
            if fence is not None and n != seal and before < fence:
                return False
            if gap:
                if self.entry.get(plaza) == o:
                    continue
                if seal is not None or can_step(self.side[o], level, True):
                    return False
                continue
            if seal is not None and n != seal and self.lv[o][0] < level[0]:
                return False
            if self.parent.get(plaza) == o or self.door.get(plaza) == n:
                continue
            if can_step(self.lv[o], level, True):
                return False
        return True

    def new_plaza(self, seed: int, level: tuple[int, int]) -> int:
        k = len(self.plazas)
        self.plazas.append([seed])
        self.lv[k] = level
        self.owner[seed] = k
        return k

    def grow(self, k: int, size: int) -> None:
        """Grow plaza ``k`` to ``size`` columns, favouring compact shapes (plazas, not paths)."""
        cells = self.plazas[k]
        level = self.lv[k]
        rng = self.rng
        while len(cells) < size:
            seen: dict[int, int] = {}
            for c in cells:
                for n in self.nb[c]:
                    if n not in seen and self.fits(n, k, level):
                        seen[n] = sum(self.owner[m] == k for m in self.nb[n])
            if not seen:
                return
            spots = list(seen)
            c = spots[rng.pick([seen[s] * seen[s] for s in spots])]
            self.owner[c] = k
            cells.append(c)

    def doors(self, k: int) -> list[tuple[int, int, int]]:
        """``(a, b, c)`` per column ``a`` of plaza ``k`` and direction: ``b`` next, ``c`` beyond."""
        X, Y = self.X, self.Y
        out = []
        for a in self.plazas[k]:
            x, y = a % X, a // X
            for dx, dy in DIRS:
                bx, by, cx, cy = x + dx, y + dy, x + 2 * dx, y + 2 * dy
                if not (0 <= bx < X and 0 <= by < Y):
                    continue
                c = cx + X * cy if 0 <= cx < X and 0 <= cy < Y else -1
                out.append((a, bx + X * by, c))
        return out


def _region(tier: Tier, following: tuple[str, ...], rng: SplitMix64) -> int:
    """How many columns a plaza grows to, by the motifs ``following`` it: room for crates
    before a dip, a shaft or a stair (and above a drop to one: its crates may start up
    there, to be pushed off); a landing before anything else; a column or three at the
    end."""
    lo, hi = tier.region
    if not following:
        return rng.between(1, 3)
    if following[0] in ("dip", "shaft", "stair") or (
            following[0] == "drop" and following[1:2] in (("dip",), ("shaft",), ("stair",))):
        return rng.between(lo, hi)
    return rng.between(max(2, lo - 3), max(3, hi - 4))


def make(rng: SplitMix64, tier: Tier, recipe: tuple[str, ...]) -> Terrain | None:
    """One candidate terrain for ``tier`` laid along ``recipe``, or None when it could not be."""
    X = rng.between(*tier.size)
    Y = rng.between(*tier.size)
    g = _Grower(rng, X, Y)
    start = rng.below(X * Y)
    k = g.new_plaza(start, (0, 0))
    g.grow(k, _region(tier, recipe, rng))
    ramps: dict[int, int] = {}
    gaps: list[Gap] = []
    routes: list[list[int]] = []  #: each route's other way (its columns)
    after_drop = False
    for i, step in enumerate(recipe):
        here = g.lv[k]
        doors = g.doors(k)
        rng.shuffle(doors)
        nk = -1
        for a, b, c in doors:
            if step in ("ramp", "route"):
                if a in ramps or any(a in gap.cells for gap in gaps):
                    continue
                if after_drop:
                    # the plaza up from a drop touches nothing lower but this ramp
                    if any(g.owner[n] not in (FREE, WALLED) and n != a for n in g.nb[b]):
                        continue
                    g.sealed[len(g.plazas)] = a
                    if g.fence is None:
                        g.fence = len(g.plazas)
                nk = len(g.plazas)
                if g.fits(b, nk, (here[0] + 1, here[1])):
                    g.new_plaza(b, (here[0] + 1, here[1]))
                    ramps[a] = RAMP_TOWARD[next(d for d in range(4) if _toward(a, d, X, Y) == b)]
                    after_drop = False
                    break
                g.sealed.pop(nk, None)
                if g.fence == nk:
                    g.fence = None
                nk = -1
            elif step in ("dip", "shaft"):
                if c < 0 or g.owner[b] != FREE or g.owner[c] != FREE or a in ramps:
                    continue
                # the gap's column touches only the plaza before it (and the next one's seed)
                if any(g.owner[n] not in (FREE, k) for n in g.nb[b]):
                    continue
                nk = len(g.plazas)
                gap_id = g.GAP_BASE + len(gaps)
                g.owner[b] = gap_id  # for fits(): the new plaza may touch its own gap
                g.entry[nk] = gap_id
                g.side[gap_id] = here
                g.gap_before[gap_id] = k
                if not g.fits(c, nk, here):
                    g.owner[b] = FREE
                    del g.entry[nk], g.side[gap_id]
                    nk = -1
                    continue
                g.lv[gap_id] = (here[0] - GAP_DEPTH[step], here[1])
                g.new_plaza(c, here)
                gaps.append(Gap(step, k, nk, [b]))
                break
            elif step == "descent":
                # a plaza a slice lower, that touches this one only where its ramp comes up
                if a in ramps or any(a in gap.cells for gap in gaps) or g.owner[b] != FREE:
                    continue
                if any(g.owner[n] not in (FREE, WALLED) and n != a for n in g.nb[b]):
                    continue
                nk = len(g.plazas)
                g.door[nk] = a
                if g.fits(b, nk, (here[0] - 1, here[1])):
                    g.new_plaza(b, (here[0] - 1, here[1]))
                    ramps[b] = RAMP_TOWARD[next(d for d in range(4) if _toward(b, d, X, Y) == a)]
                    break
                del g.door[nk]
                nk = -1
            else:
                if step == "drop":
                    level = (here[0] - 1, here[1])
                elif step == "step":
                    level = (here[0], here[1] + 1)
                elif step == "stair":
                    level = (here[0], here[1] + 2)
                else:  # fall
                    level = (here[0], 0)
                if a in ramps or level[1] > TOP_S or level[1] < 0:
                    continue
                nk = len(g.plazas)
                g.parent[nk] = k
                if g.fits(b, nk, level):
                    g.new_plaza(b, level)
                    if step == "drop":
                        after_drop = True
                    break
                del g.parent[nk]
                nk = -1
        if nk < 0:
            return None
        below = k
        k = nk
        g.grow(k, _region(tier, recipe[i + 1:], rng))
        if step == "route":
            # the other way up: a slip down a slice, a ramp, a landing, a ramp
            way = _other_way(g, ramps, below, k, len(routes))
            if way is None:
                return None
            routes.append(way)
        if step == "stair":
            # where a crate stands as the stair: columns of the plaza below beside the high
            # one, with room to stand behind them
            before = g.parent[k]
            spots = []
            for t in g.plazas[before]:
                if t in ramps or t == start:
                    continue
                for d in range(4):
                    u, back = _toward(t, d, X, Y), _toward(t, d ^ 1, X, Y)
                    if u >= 0 and g.owner[u] == k and back >= 0 and g.owner[back] == before:
                        spots.append(t)
                        break
            if not spots:
                return None
            gaps.append(Gap("stair", before, k, spots))
    last = k
    # the other columns between the two sides of a dip or shaft become the gap too
    for i, gap in enumerate(gaps):
        if gap.kind == "stair":
            continue
        gap_id = g.GAP_BASE + i
        for c in range(X * Y):
            if g.owner[c] != FREE:
                continue
            sides = {g.owner[n] for n in g.nb[c]} - {FREE, WALLED}
            if {gap.before, gap.after} <= sides and sides <= {gap.before, gap.after, gap_id}:
                g.owner[c] = gap_id
                gap.cells.append(c)
    # decoys: ledges below a plaza with no way back
    decoys = []
    for _ in range(tier.decoys):
        k = rng.below(len(g.plazas))
        h, s = g.lv[k]
        low = (h - 1 - rng.below(2), s)
        doors = g.doors(k)
        rng.shuffle(doors)
        for _a, b, _c in doors:
            if g.owner[b] != FREE or k in g.sealed or not _dead_end(g, b, low, None, k):
                continue
            d = g.new_plaza(b, low)  # it leads nowhere: nothing round it can be reached from it
            cells = g.plazas[d]
            for _ in range(rng.between(1, 3)):
                spots = [n for c in cells for n in g.nb[c]
                         if g.owner[n] == FREE and _dead_end(g, n, low, d, k)]
                if not spots:
                    break
                n = rng.choice(spots)
                g.owner[n] = d
                cells.append(n)
            decoys.append(cells)
            break

    # heights: shift so the lowest ground is at w = 1; walls and holes for the rest
    chain = g.plazas[:last + 1]
    low = min(lv[0] for lv in g.lv.values())
    top = max(lv[0] for lv in g.lv.values()) - low + 1
    W = top + 1
    if W > MAX_SIZE[3] or X > MAX_SIZE[0] or Y > MAX_SIZE[1]:
        return None
    height = [0] * (X * Y)
    lift = [0] * (X * Y)
    holes = []
    for c in range(X * Y):
        o = g.owner[c]
        if o != FREE and o != WALLED:
            height[c] = g.lv[o][0] - low + 1
            lift[c] = g.lv[o][1]
    for c in range(X * Y):
        o = g.owner[c]
        if o != FREE and o != WALLED:
            continue
        near = any(g.owner[n] not in (FREE, WALLED) for n in g.nb[c])
        if near and rng.chance(tier.holes):
            height[c] = 0
            holes.append(c)
        else:  # a wall, solid right through: nowhere to stand, even where nothing falls kata
            height[c] = W
    if max(lift) + 2 > MAX_SIZE[2]:
        return None
    goal = _nearest(g, last, g.plazas[last][0])
    return _cropped(Terrain(X, Y, W, height, ramps, chain,
                            [g.lv[i][0] - low + 1 for i in range(last + 1)],
                            gaps, decoys, holes, start, goal, lift, tuple(recipe),
                            [g.lv[i][1] for i in range(last + 1)], routes))


def _other_way(g: _Grower, ramps: dict[int, int], below: int, above: int,
               number: int) -> list[int] | None:
    """A route's other way from plaza ``below`` up to plaza ``above`` (one slice higher), by
    the slice under ``below``: a column to slip onto, a ramp beside it up to a landing at
    ``below``'s own slice, and a ramp on the landing up into ``above``.  Its columns, or
    None when there is no room for it.

    The landing touches ``below`` nowhere (or it would be a walk), and the low slice
    touches ``above`` nowhere; the first way found in a fixed order is laid.
    """
    h, s = g.lv[below]
    low, mid = (h - 1, s), (h, s)
    X, Y = g.X, g.Y
    for a in g.plazas[below]:
        if a in ramps:
            continue
        for d1 in g.nb[a]:
            if g.owner[d1] != FREE:
                continue
            for d2 in g.nb[d1]:
                if d2 == a or g.owner[d2] != FREE:
                    continue
                for e1 in g.nb[d2]:
                    if e1 in (d1, a) or g.owner[e1] != FREE:
                        continue
                    for e2 in g.nb[e1]:
                        if e2 in (d2, d1) or g.owner[e2] != FREE:
                            continue
                        n = next((n for n in g.nb[e2] if g.owner[n] == above), -1)
                        if n < 0:
                            continue
                        way = _lay_way(g, below, above, (d1, d2), (e1, e2), low, mid,
                                       g.ROUTE_BASE + 2 * number)
                        if way is None:
                            continue
                        ramps[d2] = RAMP_TOWARD[next(k for k in range(4)
                                                     if _toward(d2, k, X, Y) == e1)]
                        ramps[e2] = RAMP_TOWARD[next(k for k in range(4)
                                                     if _toward(e2, k, X, Y) == n)]
                        return way
    return None


def _lay_way(g: _Grower, below: int, above: int, slipped: tuple[int, int],
             landing: tuple[int, int], low: tuple[int, int], mid: tuple[int, int], d: int):
    """Lay a route's two parts (``slipped`` at ``low``, ``landing`` at ``mid``, numbered
    ``d`` and ``d + 1``) if they fit; their columns, else None (and nothing laid)."""
    e = d + 1
    g.parent[d], g.parent[e] = below, above  # each part touches the plaza it joins
    g.route_before[d] = g.route_before[e] = below
    ok = all(g.fits(c, d, low) for c in slipped)
    if ok:
        for c in slipped:
            g.owner[c] = d
        g.lv[d] = low
        ok = all(g.fits(c, e, mid) and not any(g.owner[n] == below for n in g.nb[c])
                 for c in landing)
        if not ok:
            for c in slipped:
                g.owner[c] = FREE
            del g.lv[d]
    if not ok:
        del g.parent[d], g.parent[e], g.route_before[d], g.route_before[e]
        return None
    for c in landing:
        g.owner[c] = e
    g.lv[e] = mid
    return [*slipped, *landing]


def _dead_end(g: _Grower, c: int, low: tuple[int, int], decoy: int | None, beside: int) -> bool:
    """Whether a ledge at ``low`` beside plaza ``beside`` may take column ``c``: it touches
    nothing else (so it is a dead end, and joins no two plazas even where nothing falls
    kata), and ``beside`` cannot be reached from it (not even on a crate)."""
    for n in g.nb[c]:
        o = g.owner[n]
        if o in (FREE, WALLED) or o == decoy:
            continue
        if o != beside or can_step(low, g.lv[o], True):
            return False
    return True


def _cropped(land: Terrain) -> Terrain:
    """``land`` without the rows and columns at its edges that are solid right through.

    The grid's edge is a wall anyway, so the room is the same; it is
    smaller, so the engine compiles it faster and its code is shorter.
    """
    X, Y, W = land.X, land.Y, land.W
    open_ = [c for c in range(X * Y) if land.height[c] < W]
    x0 = min(c % X for c in open_)
    x1 = max(c % X for c in open_)
    y0 = min(c // X for c in open_)
    y1 = max(c // X for c in open_)
    nx, ny = x1 - x0 + 1, y1 - y0 + 1
    if (nx, ny) == (X, Y):
        return land

    def new(c: int) -> int:
        return (c % X - x0) + nx * (c // X - y0)

    def old(c: int) -> int:
        return (c % nx + x0) + X * (c // nx + y0)

    return Terrain(nx, ny, W, [land.height[old(c)] for c in range(nx * ny)],
                   {new(c): r for c, r in land.ramps.items()},
                   [[new(c) for c in p] for p in land.plazas], land.level,
                   [Gap(g.kind, g.before, g.after, [new(c) for c in g.cells]) for g in land.gaps],
                   [[new(c) for c in d] for d in land.decoys], [new(c) for c in land.holes],
                   new(land.start), new(land.goal), [land.lift[old(c)] for c in range(nx * ny)],
                   land.chain, land.ground, [[new(c) for c in r] for r in land.routes])


def _nearest(g: _Grower, k: int, seed: int) -> int:
    """The goal: a column of plaza ``k`` one step in from where the chain comes in
    (the seed itself when the plaza is one column): no free walk at the end."""
    near = [n for n in g.nb[seed] if g.owner[n] == k]
    return near[0] if near else seed
