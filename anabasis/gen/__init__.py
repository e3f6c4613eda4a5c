"""Rooms made to order: seeds, terrain, crate placements searched on state graphs, proofs.

One idea per module:

- :mod:`~anabasis.gen.seeds`: GEN, the tiers and their texts, seeds and specs, today's room;
- :mod:`~anabasis.gen.prng`: the random numbers (SplitMix64);
- :mod:`~anabasis.gen.terrain`: plazas, ramps, dips, shafts, decoys, holes; the 4D room;
- :mod:`~anabasis.gen.measure`: the state-graph measures and the depth score;
- :mod:`~anabasis.gen.proofs`: impossible without ramps, without crates; spare crates;
- :mod:`~anabasis.gen.builder`: the search, the gates, :class:`Made`;
- :mod:`~anabasis.gen.pool`: building off the game's thread.

See ``docs/gen.md``.
"""

<<<<<<< HEAD
from __future__ import annotations

import concurrent.futures
import contextlib
import datetime as _dt
import re
import sys
import threading
from dataclasses import dataclass, replace

from anabasis.engine import rules, solver
from anabasis.engine.cells import BLOCK, EMPTY, RAMP_OF_LEAN
from anabasis.engine.world import MAX_SIZE, Room, State
from anabasis.gen.prng import MASK64, SplitMix64, derive
from anabasis.refusal import Refusal

#: The generator's version.  Bump it whenever a seed may give another room
#: (the frozen vectors in tests/test_gen.py fail until it is bumped).
GEN = 1

TIERS = ("easy", "medium", "hard")

#: The four steps in the plane, in a fixed order: R, L, D, U.
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))

SEED_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_SEED = MASK64  #: seeds are 64-bit: at most 13 base-36 digits


class GenError(Refusal):
    """A spec that names no room, or a seed for which no room was found."""


@dataclass(frozen=True)
class Tier:
    """What a tier asks of its rooms, and the knobs that shape them."""

    name: str
    ramps: int  #: ramps up in the shortest solution (and rises in the spine)
    slips: int  #: slips down in the shortest solution (and drops in the spine)
    band: tuple[int, int]  #: the shortest solution's length, in moves, both ends included
    spine: tuple[int, int]  #: spine length in cells, both ends included
    area: int  #: the spine winds inside an area this many columns square
    dips: tuple[int, ...]  #: the number of dips, drawn from this list
    fetch: float  #: chance that a dip's crate starts on a shelf, to be fetched
    extra: float  #: chance of one more crate on the ground
    needs_crates: bool  #: keep only rooms proved impossible without their crates (if any)
    keep: int  #: of the first this many rooms that pass, keep the best
    max_states: int  #: the full search gives up (and the candidate is dropped) past this
    # terrace weights: wall, hole, level, solid through, drop through the floor
    terrace: tuple[int, int, int, int, int]


TIER = {
    "easy": Tier("easy", 1, 1, (5, 12), (6, 10), 5, (0,), 0.0, 0.0, False, 3, 4_000,
                 (76, 8, 12, 2, 2)),
    "medium": Tier("medium", 2, 2, (9, 20), (10, 15), 6, (1, 1, 1, 1, 1, 0), 0.45, 0.25,
                   True, 4, 12_000, (70, 10, 14, 3, 3)),
    "hard": Tier("hard", 3, 3, (13, 36), (14, 22), 8, (1, 2, 2), 0.65, 0.6, True, 6, 20_000,
                 (66, 10, 18, 3, 3)),
}

#: Candidates built per seed before giving up (never reached in practice).
MAX_TRIES = 400


# -- seeds, specs and today's room ----------------------------------------------


def seed_text(seed: int) -> str:
    """A seed in base 36, lower case.

    >>> seed_text(36 * 36 - 1), seed_text(0)
    ('zz', '0')
    """
    if not 0 <= seed <= MAX_SEED:
        raise GenError(f"seed {seed} is out of range (0 to {MAX_SEED})")
    digits = []
    while True:
        seed, r = divmod(seed, 36)
        digits.append(SEED_DIGITS[r])
        if not seed:
            return "".join(reversed(digits))


def parse_seed(text: str) -> int:
    """A base-36 seed (digits and letters, any case) as a whole number."""
    if not re.fullmatch(r"[0-9A-Za-z]{1,13}", text):
        raise GenError(f"seed {text!r} is not a base-36 number (0-9, a-z, at most 13 digits)")
    seed = int(text, 36)
    if seed > MAX_SEED:
        raise GenError(f"seed {text!r} is too large (at most {seed_text(MAX_SEED)})")
    return seed


def today() -> _dt.date:
    """Today's date in UTC: today's room is the same for everyone, wherever they are."""
    return _dt.datetime.now(_dt.timezone.utc).date()


def daily_seed(date: _dt.date | str | None = None) -> int:
    """The seed of a day's room: the date as the number YYYYMMDD.

    >>> seed_text(daily_seed("2026-11-29"))
    'c29l5'
    """
    if date is None:
        date = today()
    if isinstance(date, str):
        try:
            date = _dt.date.fromisoformat(date)
        except ValueError:
            raise GenError(f"date {date!r} is not a date (YYYY-MM-DD)") from None
    return date.year * 10_000 + date.month * 100 + date.day


def parse_spec(spec: str) -> tuple[str, int]:
    """``TIER.SEED``, ``daily`` or ``daily.YYYY-MM-DD`` as ``(tier, seed)``.

    Today's room is a hard room seeded by the date (see :func:`daily_seed`).

    >>> parse_spec("hard.k3x9")
    ('hard', 938205)
    >>> parse_spec("daily.2026-11-29") == ("hard", 20261129)
    True
    """
    text = spec.strip()
    if text.lower() == "daily" or text.lower() == "daily.today":
        return "hard", daily_seed()
    head, dot, rest = text.partition(".")
    head = head.lower()
    if head == "daily":
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", rest):
            raise GenError(f"{spec!r}: a day is written daily.YYYY-MM-DD")
        return "hard", daily_seed(rest)
    if head not in TIER:
        raise GenError(f"{spec!r}: the tier must be easy, medium or hard "
                       "(TIER.SEED, daily or daily.YYYY-MM-DD)")
    if not dot or not rest:
        raise GenError(f"{spec!r}: no seed (write {head}.SEED, SEED in base 36)")
    return head, parse_seed(rest)


def room_name(tier: str, seed: int) -> str:
    """The made room's name: ``hard.k3x9``."""
    return f"{tier}.{seed_text(seed)}"


# -- what a build gives -----------------------------------------------------------


@dataclass(frozen=True)
class Made:
    """A made room with its proved solution and what it does.

    ``room.name`` is ``TIER.SEED``, ``room.par`` the solution's length,
    ``room.needs`` the proofs that hold and ``room.teaches`` the hint that
    says so; the room opens in the w-up view.
    """

    room: Room
    tier: str
    seed: int
    moves: tuple[str, ...]  #: a shortest solution, as the solver found it
    ramps: int  #: ramps up taken by that solution
    slips: int  #: slips down (moves in which the player falls kata)
    pushes: int  #: crate pushes
    heights: tuple[int, ...]  #: the player's heights in w along it, each once, ascending
    proofs: tuple[str, ...]  #: impossible without each of these: ("ramps",) or ("ramps", "crates")
    tries: int  #: candidates built before this room was chosen
    states: int  #: states the solver searched in all, over every candidate

    @property
    def name(self) -> str:
        return self.room.name

    @property
    def score(self) -> int:
        """How much the solution does: moves, ramps, slips, pushes and heights visited."""
        return (len(self.moves) + 2 * (self.ramps + self.slips) + 3 * self.pushes
                + 2 * len(self.heights))


# -- the spine --------------------------------------------------------------------


def _walk(rng: SplitMix64, length: int, area: int) -> list[tuple[int, int]] | None:
    """A walk of ``length`` columns inside ``area x area`` that never touches itself.

    "Never touches" means no two cells of it are side by side unless they
    follow each other, so nothing but the spine's own heights joins it.
    """
    x, y = rng.below(area), rng.below(area)
    path = [(x, y)]
    taken = {(x, y)}
    d = rng.below(4)
    while len(path) < length:
        order = [d] if rng.chance(0.55) else []
        turns = [i for i in range(4) if i != d and DIRS[i] != (-DIRS[d][0], -DIRS[d][1])]
        rng.shuffle(turns)
        order += turns + [d]
        here = path[-1]
        for i in order:
            nx, ny = here[0] + DIRS[i][0], here[1] + DIRS[i][1]
            if not (0 <= nx < area and 0 <= ny < area) or (nx, ny) in taken:
                continue
            if any((nx + dx, ny + dy) in taken and (nx + dx, ny + dy) != here
                   for dx, dy in DIRS):
                continue
            path.append((nx, ny))
            taken.add((nx, ny))
            d = i
            break
        else:
            return None
    return path


def _collinear(a, b, c) -> bool:
    return (b[0] - a[0], b[1] - a[1]) == (c[0] - b[0], c[1] - b[1])


#: How much each step along the spine rises in w.
_RISE = {"flat": 0, "rise": 1, "drop": -1, "dip-in": -1, "dip-out": 1}


def _profile(rng: SplitMix64, path, tier: Tier):
    """Heights along the spine, and where its ramps and dips are.

    Returns ``(heights, ramp_cells, dips)`` or None: ``ramp_cells`` are the
    spine indices whose next cell is a rise; ``dips`` the indices sunk a
    slice, each with a straight run of two flat cells before it (the crate's
    and the pusher's) and a flat cell after.
    """
    n = len(path)
    moves = ["flat"] * (n - 1)  # the transition from cell i to cell i + 1
    fixed = [False] * (n - 1)
    dips = []
    for _ in range(rng.choice(tier.dips)):
        spots = [k for k in range(2, n - 1)
                 if not any(fixed[k - 2:k + 1]) and _collinear(*path[k - 2:k + 1])]
        if not spots:
            return None
        k = rng.choice(spots)
        fixed[k - 2] = fixed[k - 1] = fixed[k] = True
        moves[k - 1], moves[k] = "dip-in", "dip-out"
        dips.append(k)
    free = [i for i in range(n - 1) if not fixed[i]]
    need = tier.ramps + tier.slips
    if len(free) < need:
        return None
    rng.shuffle(free)
    events = ["rise"] * tier.ramps + ["drop"] * tier.slips
    rng.shuffle(events)
    for i, event in zip(sorted(free[:need]), events, strict=True):
        moves[i] = event
    heights = [0]
    for move in moves:
        heights.append(heights[-1] + _RISE[move])
    low = min(heights)
    heights = [h - low + 1 for h in heights]
    ramp_cells = [i for i, move in enumerate(moves) if move == "rise"]
    return heights, ramp_cells, sorted(dips)


# -- the terraces and the crates -----------------------------------------------------


@dataclass
class _Plan:
    """A candidate room, as columns: heights in w, floors, ramps, crates."""

    X: int
    Y: int
    W: int
    height: dict  #: column -> height in w (W: solid right through; 0: a hole to the void)
    no_floor: set  #: columns with no floor at z = 0: a drop through the floor
    ramps: dict  #: column -> ramp code, set into the floor at the column's height
    crates: list  #: columns a crate starts on
    start: tuple[int, int]
    goal: tuple[int, int]


def _plan(rng: SplitMix64, tier: Tier) -> _Plan | None:
    length = rng.between(*tier.spine)
    path = _walk(rng, length, tier.area)
    if path is None:
        return None
    made = _profile(rng, path, tier)
    if made is None:
        return None
    heights, ramp_cells, dips = made

    # Shift the walk into its bounding box: the grid's edge is a wall anyway.
    x0 = min(x for x, _ in path)
    y0 = min(y for _, y in path)
    path = [(x - x0, y - y0) for x, y in path]
    X = max(x for x, _ in path) + 1
    Y = max(y for _, y in path) + 1
    W = max(heights) + 1  # the top of the spine is the top slice: walls above it are solid
    spine = dict(zip(path, heights, strict=True))
    index = {c: i for i, c in enumerate(path)}
    dip_cells = {path[k] for k in dips}

    height: dict = dict(spine)
    no_floor: set = set()
    shelves = []  # level columns: room for a crate
    for y in range(Y):
        for x in range(X):
            c = (x, y)
            if c in spine:
                continue
            beside = [(x + dx, y + dy) for dx, dy in DIRS if (x + dx, y + dy) in spine]
            if not beside:
                height[c] = W  # out of reach: solid right through
                continue
            hs = [spine[b] for b in beside]
            if any(b in dip_cells for b in beside):
                kind = 0  # walls round a dip, or it could be walked round
            else:
                kind = rng.pick(tier.terrace)
            if kind == 0:  # a wall a slice above them all
                height[c] = min(max(hs) + 1, W)
            elif kind == 1:  # a hole below them all
                height[c] = max(min(hs) - 1, 0)
            elif kind == 2:  # level with one of them
                height[c] = spine[rng.choice(beside)]
                shelves.append(c)
            elif kind == 3:
                height[c] = W
            else:  # a drop through the floor, level with its lowest neighbour
                height[c] = min(hs)
                no_floor.add(c)

    ramps = {}
    for i in ramp_cells:
        (ax, ay), (bx, by) = path[i], path[i + 1]
        ramps[path[i]] = RAMP_OF_LEAN[(0, bx - ax)] if bx != ax else RAMP_OF_LEAN[(1, by - ay)]

    crates = []
    for k in dips:
        if rng.chance(tier.fetch):
            shelf = _shelf(rng, path, k, spine, height, index, X, Y)
            if shelf is not None:
                for cell in shelf:
                    height[cell] = spine[path[k - 1]]
                    no_floor.discard(cell)
                crates.append(shelf[0])
                continue
        crates.append(path[k - 1])
    if tier.extra and rng.chance(tier.extra):
        spots = [c for c in shelves if c not in crates and c not in no_floor
                 and 0 < height[c] < W]
        if spots:
            crates.append(rng.choice(spots))
    return _Plan(X, Y, W, height, no_floor, ramps, crates, path[0], path[-1])


def _shelf(rng, path, k, spine, height, index, X, Y):
    """A 2 x 2 shelf beside the two cells before dip ``k``, its crate to be fetched.

    The shelf's cells, crate first: ``s`` beside the crate's spine cell,
    ``a`` beside the pusher's, and ``b``, ``c`` one further out.  The player
    walks round through ``a``, ``b`` and ``c`` and pushes the crate from
    ``c`` over ``s`` onto the spine, then pushes it on into the dip.
    """
    (px, py), (qx, qy) = path[k - 2], path[k - 1]
    dx, dy = qx - px, qy - py
    sides = [(-dy, dx), (dy, -dx)]
    rng.shuffle(sides)
    for ex, ey in sides:
        s = (qx + ex, qy + ey)
        a = (px + ex, py + ey)
        c = (qx + 2 * ex, qy + 2 * ey)
        b = (px + 2 * ex, py + 2 * ey)
        cells = (s, a, b, c)
        if all(0 <= cx < X and 0 <= cy < Y and (cx, cy) not in spine for cx, cy in cells):
            # keep the shelf off every other stretch of spine, or it is a shortcut
            near = {index[(cx + ddx, cy + ddy)] for cx, cy in cells for ddx, ddy in DIRS
                    if (cx + ddx, cy + ddy) in index}
            if near <= {k - 2, k - 1}:
                return cells
    return None


def _room(plan: _Plan, tier: str, seed: int) -> Room:
    """The 4D room of a plan: floor at z = 0, the landscape at z = 1."""
    X, Y, W = plan.X, plan.Y, plan.W
    Z = 2
    cells = bytearray(X * Y * Z * W)
    for (x, y), h in plan.height.items():
        floor = (x, y) not in plan.no_floor
        for w in range(W):
            if floor:
                cells[x + X * (y + Y * (0 + Z * w))] = BLOCK
            if w < h:
                cells[x + X * (y + Y * (1 + Z * w))] = BLOCK
    for (x, y), code in plan.ramps.items():
        cells[x + X * (y + Y * (0 + Z * plan.height[(x, y)]))] = code
    sx, sy = plan.start
    gx, gy = plan.goal
    start = State.of((sx, sy, 1, plan.height[plan.start]),
                     [(x, y, 1, plan.height[(x, y)]) for x, y in plan.crates])
    return Room((X, Y, Z, W), bytes(cells), (gx, gy, 1, plan.height[plan.goal]), start,
                name=room_name(tier, seed), view="w-up")


# -- the proofs ----------------------------------------------------------------------


def out_of_reach_without_ramps(room: Room) -> bool:
    """A quick proof that ``room`` is impossible with its ramps as blocks.

    Without ramps nothing takes the player ana: walking, pushing and
    climbing keep w, and settling only lowers it.  So the player is always
    in an open (empty) cell at a w no higher than where it is placed.  Flood
    those cells from the start, stepping along x, y and z and kata in w,
    walking through crates as if they were not there: if the goal is not
    among them, no play reaches it.  (The flood over-estimates; when it
    says "reachable" nothing is proved.)  Not for wrapped rooms.
    """
    if room.wrap:
        return False
    start = room.start.player  # unsettled: settling only lowers w, and the flood falls too
    top = start[3]
    if room.goal[3] > top:
        return True
    X, Y, Z, W = room.size
    seen = {start}
    todo = [start]
    steps = ((1, 0, 0, 0), (-1, 0, 0, 0), (0, 1, 0, 0), (0, -1, 0, 0),
             (0, 0, 1, 0), (0, 0, -1, 0), (0, 0, 0, -1))
    cells = room.cells
    while todo:
        x, y, z, w = todo.pop()
        for dx, dy, dz, dw in steps:
            p = (x + dx, y + dy, z + dz, w + dw)
            if p in seen:
                continue
            px, py, pz, pw = p
            if not (0 <= px < X and 0 <= py < Y and 0 <= pz < Z and 0 <= pw <= top):
                continue
            if cells[px + X * (py + Y * (pz + Z * pw))] != EMPTY:
                continue
            if p == room.goal:
                return False
            seen.add(p)
            todo.append(p)
    return True


@dataclass(frozen=True)
class Walkthrough:
    """What a solution does, replayed move by move with the rules' trace."""

    won: bool
    ramps: int
    slips: int
    pushes: int
    heights: tuple[int, ...]


def walk_through(room: Room, moves) -> Walkthrough:
    """Replay ``moves`` and count its ramps up, slips and pushes.

    A move is a ramp up when the step itself (before settling) raises the
    player's w; a slip when settling then lowers the player's w (however
    many slices it falls); a push when the step moves a crate.
    """
    state = rules.start(room).state
    ramps = slips = pushes = 0
    heights = {state.player[3]}
    status = "playing"
    for move in moves:
        result = rules.step(room, state, move, trace=True)
        stepped = result.frames[0] if result.frames else result.state
        if stepped.player[3] > state.player[3]:
            ramps += 1
        if result.state.player[3] < stepped.player[3]:
            slips += 1
        if stepped.crates != state.crates:
            pushes += 1
        for frame in result.frames:
            heights.add(frame.player[3])
        heights.add(result.state.player[3])
        state, status = result.state, result.status
        if status != "playing":
            break
    return Walkthrough(status == "won", ramps, slips, pushes, tuple(sorted(heights)))


class _Verdict:
    """Why a candidate was dropped (for the bench's and the docs' figures)."""

    def __init__(self) -> None:
        self.dropped: dict[str, int] = {}
        self.states = 0

    def drop(self, why: str) -> None:
        self.dropped[why] = self.dropped.get(why, 0) + 1


def prove(room: Room, tier: str, verdict: _Verdict | None = None) -> Made | None:
    """Prove a candidate room for ``tier``, cheapest checks first; None if it fails.

    1. impossible without its ramps, by :func:`out_of_reach_without_ramps`
       (a flood, no search);
    2. impossible without its crates (a search of the player alone: a few
       hundred states at most), required where the tier asks;
    3. the shortest solution, by the full search, with a state cap: in the
       band, and with the tier's ramps up and slips down.
    """
    spec = TIER[tier]
    verdict = verdict or _Verdict()
    if not out_of_reach_without_ramps(room):
        verdict.drop("ramps optional")
        return None
    proofs = ["ramps"]
    if room.start.crates:
        bare = solver.solve(room, without=("crates",), max_states=spec.max_states)
        verdict.states += bare.states
        if bare.status == "impossible":
            proofs.append("crates")
        elif spec.needs_crates:
            verdict.drop("crates optional")
            return None
    found = solver.solve(room, max_states=spec.max_states)
    verdict.states += found.states
    if found.status != "solved":
        verdict.drop("unsolvable" if found.status == "impossible" else "too big")
        return None
    lo, hi = spec.band
    if not lo <= len(found.moves) <= hi:
        verdict.drop("out of band")
        return None
    run = walk_through(room, found.moves)
    if not run.won or run.ramps != spec.ramps or run.slips != spec.slips:
        verdict.drop("wrong climb")
        return None
    return Made(room, tier, 0, tuple(found.moves), run.ramps, run.slips, run.pushes,
                run.heights, tuple(proofs), 0, 0)


def hint(made: Made) -> str:
    """The room's ``teaches`` line: its climb, and which proofs hold."""
    crates = len(made.room.start.crates)
    text = (f"{made.tier} room: {made.ramps} ramp{'s' * (made.ramps != 1)} up, "
            f"{made.slips} slip{'s' * (made.slips != 1)} down; "
            "impossible without its ramps")
    if "crates" in made.proofs:
        text += " and without its crate" + "s" * (crates != 1)
    elif crates:
        text += "; its crates are a help, not a need"
    return text


# -- building --------------------------------------------------------------------------


def _check(tier: str, seed: int) -> None:
    if tier not in TIER:
        raise GenError(f"unknown tier {tier!r}: the tiers are {', '.join(TIERS)}")
    seed_text(seed)  # its range check


def _stream(tier: str, seed: int) -> SplitMix64:
    return SplitMix64(derive(GEN, TIERS.index(tier), seed))


def build(tier: str, seed: int, *, stats: dict | None = None) -> Made:
    """The proved room for ``tier`` and ``seed``: the same every time while ``GEN`` stands.

    Candidates are drawn from the seed's stream one after another; of the
    first ``keep`` that pass :func:`prove`, the one whose solution does the
    most (:attr:`Made.score`; the earliest on a tie) is kept.  Pass a dict
    as ``stats`` to get the drop reasons and the states searched.
    """
    _check(tier, seed)
    spec = TIER[tier]
    rng = _stream(tier, seed)
    verdict = _Verdict()
    passed: list[Made] = []
    tries = 0
    while tries < MAX_TRIES and len(passed) < spec.keep:
        tries += 1
        plan = _plan(rng, spec)
        if plan is None:
            verdict.drop("no spine")
            continue
        room = _room(plan, tier, seed)
        if any(n > m for n, m in zip(room.size, MAX_SIZE, strict=True)):
            verdict.drop("too large")
            continue
        made = prove(room, tier, verdict)
        if made is not None:
            passed.append(made)
    if stats is not None:
        stats.update(tries=tries, states=verdict.states, dropped=dict(verdict.dropped),
                     passed=len(passed))
    if not passed:
        raise GenError(f"no {tier} room found for seed {seed_text(seed)} in {tries} tries")
    best = max(passed, key=lambda m: m.score)  # max keeps the first of equals
    best = replace(best, seed=seed, tries=tries, states=verdict.states)
    room = replace(best.room, par=len(best.moves), needs=best.proofs, teaches=hint(best))
    return replace(best, room=room)


def build_spec(spec: str) -> Made:
    """:func:`build` for a spec: ``hard.k3x9``, ``daily`` or ``daily.2026-11-29``."""
    return build(*parse_spec(spec))


# -- building off the main thread ---------------------------------------------------------

_pool: concurrent.futures.Executor | None = None
_pool_lock = threading.Lock()


def _executor(processes: bool) -> concurrent.futures.Executor:
    global _pool
    with _pool_lock:
        if _pool is None:
            if processes:
                import multiprocessing

                # spawn, not fork: the game's process holds a GL context and threads
                _pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_ignores_interrupts)
            else:
                _pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="anabasis-gen")
        return _pool


def _worker_ignores_interrupts() -> None:
    """Ctrl-C reaches the whole process group: the game exits 130, and its worker
    must not print a traceback of its own on the way out."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _main_not_rerun():
    """Keep a spawned worker from running the parent's ``__main__`` script again.

    A spawned process re-imports the script the parent was started with
    (unless it was ``python -m``), so an unguarded script, or stdin, would
    be run again in the worker: a second game window, or a crash.  The
    worker needs only this module, so while it starts the script's path is
    hidden from :mod:`multiprocessing`.
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None or not hasattr(
            main, "__file__"):
        yield
        return
    saved = main.__file__
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = saved


def build_async(tier: str, seed: int, *, processes: bool = True) -> concurrent.futures.Future:
    """Start :func:`build` off the calling thread; a Future of the :class:`Made`.

    By default the room builds in one worker *process* (spawned once, then
    reused), because the generator is pure Python and a thread would hold
    the GIL against the frame loop; the first call pays for the spawn and
    the imports (a few hundred ms), later ones only the build.  With
    ``processes=False`` it builds in a worker thread instead (no spawn, but
    the frame loop shares the GIL with it).  The first call decides which;
    :func:`shutdown` ends the worker.  Poll ``future.done()`` each frame.
    """
    _check(tier, seed)  # here, not in the worker: a bad spec fails at once
    executor = _executor(processes)
    with _main_not_rerun():  # a process pool starts its worker inside submit
        return executor.submit(build, tier, seed)


def shutdown() -> None:
    """End the worker started by :func:`build_async`, if any."""
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
=======
from anabasis.gen.builder import MAX_TRIES, Made, build, build_spec, gates, subtitle
from anabasis.gen.measure import Depth, measure, random_walk
from anabasis.gen.pool import build_async, shutdown
from anabasis.gen.proofs import (
    Walkthrough,
    needs_crates,
    needs_ramps,
    out_of_reach_without_ramps,
    spare_crates,
    walk_through,
)
from anabasis.gen.seeds import (
    GEN,
    MAX_SEED,
    SEED_DIGITS,
    TIER,
    TIER_TEXT,
    TIERS,
    GenError,
    Tier,
    daily_seed,
    parse_seed,
    parse_spec,
    room_name,
    seed_text,
    today,
)

__all__ = [
    "GEN", "MAX_SEED", "MAX_TRIES", "SEED_DIGITS", "TIER", "TIER_TEXT", "TIERS", "Depth",
    "GenError", "Made", "Tier", "Walkthrough", "build", "build_async", "build_spec",
    "daily_seed", "gates", "measure", "needs_crates", "needs_ramps",
    "out_of_reach_without_ramps", "parse_seed", "parse_spec", "random_walk", "room_name",
    "seed_text", "shutdown", "spare_crates", "subtitle", "today", "walk_through",
]
>>>>>>> main
