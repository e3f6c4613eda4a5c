"""Terrain: plazas joined by ramps and by crossings only a crate makes, and the room they make.

A made room is a landscape in w: ``X x Y x 2 x W``.  The z = 0 layer is
floor (blocks, with the ramps set into it), and the player walks the z = 1
layer, where each column ``(x, y)`` is solid below its height ``h`` in w
and open from there up: the player stands at ``w = h``, held from kata by
the ground.  The ceiling at z = 2 means nothing is climbed in z; only a
ramp takes the player ana, one slice.

The terrain is grown as a chain of *plazas* (regions of columns at one
height, two or more wide, so crates can be turned and walked round):

- a **ramp** joins a plaza to the next, one slice higher: a ramp set in one
  of its columns, leaning toward the next plaza;
- a **dip** joins it to a plaza at the same height across a column one
  slice lower, and a **shaft** across a column two slices lower: the player
  crosses only once a crate (two for a shaft) fills it.  Every other
  column between the two plazas becomes a dip (or shaft) too, so where to
  cross is a choice;
- **decoys**: dead-end ledges a slice or two below a plaza, with no way
  back up, and **holes** to the void beside the plazas, which eat crates.

Every other column is a wall, a slice above everything round it.  A new
plaza touches no earlier plaza at its own height or above (that would be a
way round a crossing), so the only ways on are the ones the chain made.
The chain's ramps outnumber its slips, so the goal stands ``tier.climb``
slices above the start (or more).  Where the crates start is not decided
here: :mod:`anabasis.gen.builder` searches for it.
"""

from __future__ import annotations

from dataclasses import dataclass

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
GAP_CRATES = {"dip": 1, "shaft": 2}


@dataclass
class Gap:
    """A crossing that needs crates: from plaza ``before`` to plaza ``after``."""

    kind: str  #: "dip" or "shaft"
    before: int
    after: int
    cells: list[int]  #: its columns (the first is the one the chain made)


@dataclass
class Terrain:
    """A candidate landscape: column heights, ramps, plazas, gaps; start and goal columns.

    Columns are numbered ``x + X * y``.  A height of ``W`` is solid right
    through, 0 is a hole to the void.
    """

    X: int
    Y: int
    W: int
    height: list[int]
    ramps: dict[int, int]  #: column -> ramp code, set into the floor at its height
    plazas: list[list[int]]  #: columns of each plaza, in the chain's order
    level: list[int]  #: each plaza's height
    gaps: list[Gap]
    decoys: list[list[int]]  #: the dead-end ledges' columns
    holes: list[int]
    start: int
    goal: int

    def __post_init__(self) -> None:
        #: ``step[d][c]``: the column beside ``c`` in direction ``DIRS[d]``, or -1
        self.step = [[_toward(c, d, self.X, self.Y) for c in range(self.X * self.Y)]
                     for d in range(4)]

    def neighbours(self, c: int) -> list[int]:
        return _neighbours(c, self.X, self.Y)

    def toward(self, c: int, d: int) -> int:
        """The column beside ``c`` in direction ``DIRS[d]``, or -1 past the grid's edge."""
        return self.step[d][c]

    def area(self, gap: Gap, crossings: bool = False) -> list[int]:
        """The plazas a crate for ``gap`` may start on: the one before it, and the ones
        before that at the same height, back across the gaps between them (once
        filled, a crate is pushed over a gap like over ground).  The column the
        player comes in by is first.  With ``crossings``, the columns of the gaps
        between them too (as if filled).
        """
        plazas = [gap.before]
        between: list[int] = []
        while True:
            came = next((g for g in self.gaps if g.after == plazas[0]), None)
            if came is None:
                break
            plazas.insert(0, came.before)
            between += came.cells
        return [c for k in plazas for c in self.plazas[k]] + (between if crossings else [])

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

    def walkable(self) -> set[int]:
        """The columns the player reaches with no crates, in this landscape's own terms.

        From a column of height ``h``: walk to a neighbour of height ``h``,
        slip down to a lower one (not a hole), or take a ramp to a neighbour
        one slice higher.  A quick filter, no engine: the chosen room is
        proved by the exhaustive search all the same.
        """
        height, ramps = self.height, self.ramps
        seen = {self.start}
        todo = [self.start]
        for c in todo:
            h = height[c]
            lean = ramps.get(c)
            for d in range(4):
                n = self.toward(c, d)
                if n < 0 or n in seen:
                    continue
                hn = height[n]
                if 0 < hn <= h or (hn == h + 1 and lean is not None and lean == RAMP_TOWARD[d]):
                    seen.add(n)
                    todo.append(n)
        return seen

    def room(self, name: str, start: int, crates) -> Room:
        """The 4D room: floor at z = 0, the landscape at z = 1, the player and crates at z = 1."""
        X, Y, W = self.X, self.Y, self.W
        size = (X, Y, 2, W)
        cells = bytearray(X * Y * 2 * W)
        for c, h in enumerate(self.height):
            x, y = c % X, c // X
            for w in range(W):
                if h > 0:  # a hole has no floor either: what falls in falls out
                    cells[flat_index(size, (x, y, 0, w))] = BLOCK
                if w < h:
                    cells[flat_index(size, (x, y, 1, w))] = BLOCK
        for c, code in self.ramps.items():
            cells[flat_index(size, (c % X, c // X, 0, self.height[c]))] = code
        at = self.at
        return Room(size, bytes(cells), at(self.goal), State.of(at(start), [at(c) for c in crates]),
                    name=name, view="both")

    def at(self, c: int) -> tuple[int, int, int, int]:
        """Where a mover stands on column ``c``: z = 1, on the ground."""
        return (c % self.X, c // self.X, 1, self.height[c])


def _toward(c: int, d: int, X: int, Y: int) -> int:
    x, y = c % X + DIRS[d][0], c // X + DIRS[d][1]
    return x + X * y if 0 <= x < X and 0 <= y < Y else -1


def _neighbours(c: int, X: int, Y: int) -> list[int]:
    x, y = c % X, c // X
    return [nx + X * ny for dx, dy in DIRS
            if 0 <= (nx := x + dx) < X and 0 <= (ny := y + dy) < Y]


class _Grower:
    """The terrain while it grows: who owns each column, and at what height."""

    def __init__(self, rng: SplitMix64, X: int, Y: int):
        self.rng, self.X, self.Y = rng, X, Y
        self.owner = [FREE] * (X * Y)  #: plaza number, or gap number + GAP_BASE, or FREE
        self.h: dict[int, int] = {}  #: plaza or gap number -> height (relative)
        self.plazas: list[list[int]] = []
        self.entry: dict[int, int] = {}  #: plaza -> the gap it was entered by
        self.side: dict[int, int] = {}  #: gap -> the height of its two sides
        self.nb = [_neighbours(c, X, Y) for c in range(X * Y)]

    GAP_BASE = 1000

    def fits(self, c: int, plaza: int, height: int) -> bool:
        """Whether ``c`` may join ``plaza``: free, and next to nothing that would join it otherwise.

        A plaza may touch itself, walls, the gap it was entered by, and
        plazas and gaps lower than it (from it they are slips down, back the
        way the chain came, or pits).
        """
        if self.owner[c] != FREE:
            return False
        for n in self.nb[c]:
            o = self.owner[n]
            if o == FREE or o == plaza or o == WALLED:
                continue
            if o >= self.GAP_BASE:
                if self.entry.get(plaza) == o or self.side[o] < height:
                    continue
                return False
            if self.h[o] < height:
                continue
            return False
        return True

    def new_plaza(self, seed: int, height: int) -> int:
        k = len(self.plazas)
        self.plazas.append([seed])
        self.h[k] = height
        self.owner[seed] = k
        return k

    def grow(self, k: int, size: int) -> None:
        """Grow plaza ``k`` to ``size`` columns, favouring compact shapes (plazas, not paths)."""
        cells = self.plazas[k]
        height = self.h[k]
        rng = self.rng
        while len(cells) < size:
            seen: dict[int, int] = {}
            for c in cells:
                for n in self.nb[c]:
                    if n not in seen and self.fits(n, k, height):
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


def make(rng: SplitMix64, tier: Tier) -> Terrain | None:
    """One candidate terrain for ``tier``, or None when the chain could not be laid."""
    X = rng.between(*tier.size)
    Y = rng.between(*tier.size)
    g = _Grower(rng, X, Y)
    gaps_in_a_row = len(tier.gaps) > 1 and rng.chance(tier.together)
    if gaps_in_a_row:  # plazas at one height, gap after gap: crates can be ferried over
        steps = ["ramp"] * tier.climb
        at = rng.below(len(steps) + 1)
        gap_kinds = list(tier.gaps)
        rng.shuffle(gap_kinds)
        steps[at:at] = gap_kinds
    else:
        steps = ["ramp"] * tier.climb + list(tier.gaps)
        rng.shuffle(steps)
    start = rng.below(X * Y)
    k = g.new_plaza(start, 0)
    g.grow(k, rng.between(*tier.region))
    ramps: dict[int, int] = {}
    gaps: list[Gap] = []
    for step in steps:
        here = g.h[k]
        doors = g.doors(k)
        rng.shuffle(doors)
        for a, b, c in doors:
            if step == "ramp":
                if g.fits(b, len(g.plazas), here + 1):
                    nk = g.new_plaza(b, here + 1)
                    ramps[a] = RAMP_TOWARD[next(d for d in range(4) if _toward(a, d, X, Y) == b)]
                    break
            else:
                if c < 0 or g.owner[b] != FREE or g.owner[c] != FREE:
                    continue
                # the gap's column touches only the plaza before it (and the next one's seed)
                if any(g.owner[n] not in (FREE, k) for n in g.nb[b]):
                    continue
                gap_id = g.GAP_BASE + len(gaps)
                g.owner[b] = gap_id  # for fits(): the new plaza may touch its own gap
                g.entry[len(g.plazas)] = gap_id
                g.side[gap_id] = here
                if not g.fits(c, len(g.plazas), here):
                    g.owner[b] = FREE
                    del g.entry[len(g.plazas)], g.side[gap_id]
                    continue
                g.h[gap_id] = here - GAP_DEPTH[step]
                nk = g.new_plaza(c, here)
                gaps.append(Gap(step, k, nk, [b]))
                break
        else:
            return None
        k = nk
        g.grow(k, rng.between(*tier.region))
    last = k
    # the other columns between the two sides of a gap become the gap too
    for i, gap in enumerate(gaps):
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
        depth = 1 + rng.below(2)
        low = g.h[k] - depth
        doors = g.doors(k)
        rng.shuffle(doors)
        for _a, b, _c in doors:
            if g.owner[b] != FREE or any(
                    g.owner[n] not in (FREE, WALLED) and g.owner[n] < g.GAP_BASE
                    and g.h[g.owner[n]] <= low for n in g.nb[b]):
                continue
            if any(g.owner[n] >= g.GAP_BASE for n in g.nb[b]):
                continue
            d = g.new_plaza(b, low)  # it touches nothing at or below its height
            cells = g.plazas[d]
            for _ in range(rng.between(1, 3)):
                spots = [n for c in cells for n in g.nb[c] if g.owner[n] == FREE
                         and all(g.owner[m] in (FREE, WALLED, d) or (
                             g.owner[m] < g.GAP_BASE and g.h[g.owner[m]] > low)
                             for m in g.nb[n])]
                if not spots:
                    break
                n = rng.choice(spots)
                g.owner[n] = d
                cells.append(n)
            decoys.append(cells)
            break

    # heights: shift so the lowest ground is at w = 1; walls and holes for the rest
    chain = g.plazas[:last + 1]
    lows = [g.h[o] for o in g.h]
    low = min(lows)
    top = max(lows) - low + 1
    W = top + 1
    if W > MAX_SIZE[3] or X > MAX_SIZE[0] or Y > MAX_SIZE[1]:
        return None
    height = [0] * (X * Y)
    holes = []
    for c in range(X * Y):
        o = g.owner[c]
        if o != FREE and o != WALLED:
            height[c] = g.h[o] - low + 1
    for c in range(X * Y):
        o = g.owner[c]
        if o != FREE and o != WALLED:
            continue
        near = [height[n] for n in g.nb[c] if g.owner[n] not in (FREE, WALLED)]
        if not near:
            height[c] = W
        elif rng.chance(tier.holes):
            height[c] = 0
            holes.append(c)
        else:
            height[c] = min(W, max(near) + 1)
    goal = _farthest(g, last, g.plazas[last][0])
    return _cropped(Terrain(X, Y, W, height, ramps, chain,
                            [g.h[i] - low + 1 for i in range(last + 1)],
                            gaps, decoys, holes, start, goal))


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

    height = [land.height[(x + x0) + X * (y + y0)] for y in range(ny) for x in range(nx)]
    return Terrain(nx, ny, W, height, {new(c): r for c, r in land.ramps.items()},
                   [[new(c) for c in p] for p in land.plazas], land.level,
                   [Gap(g.kind, g.before, g.after, [new(c) for c in g.cells]) for g in land.gaps],
                   [[new(c) for c in d] for d in land.decoys], [new(c) for c in land.holes],
                   new(land.start), new(land.goal))


def _farthest(g: _Grower, k: int, seed: int) -> int:
    """The column of plaza ``k`` farthest from ``seed``, walking inside the plaza."""
    dist = {seed: 0}
    todo = [seed]
    for c in todo:
        for n in g.nb[c]:
            if g.owner[n] == k and n not in dist:
                dist[n] = dist[c] + 1
                todo.append(n)
    return max(todo, key=lambda c: dist[c])  # the first of the farthest
