"""Building a room for a tier and a seed: terrains, crate placements searched, gates, the best kept.

A seed picks a recipe (:func:`anabasis.gen.motifs.recipe_for`) and lays
terrains along it (:mod:`anabasis.gen.terrain`).  For each candidate
terrain the crates' starting columns are searched, Taylor and Parberry's
way: several
placements are tried, each one's whole state graph is explored
(:func:`anabasis.engine.solver.explore`) and measured
(:mod:`anabasis.gen.depth`), and of those that pass the tier's gates the
one with the highest depth score is kept, once its proofs hold.

>>> made = build("easy", 42)
>>> made.room.name, made.depth.climb >= 1
('easy.16', True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise, permutations

from anabasis.engine import solver
from anabasis.engine.moves import moves_for
from anabasis.engine.world import Room
from anabasis.formats import source as sources
from anabasis.gen import motifs, proofs, terrain
from anabasis.gen.depth import Depth, crate_play, live_states, measure, to_win
from anabasis.gen.prng import SplitMix64, derive
from anabasis.gen.seeds import (
    GEN,
    TIER,
    TIERS,
    GenError,
    Tier,
    check,
    is_spec,
    parse_spec,
    room_name,
)
from anabasis.refusal import shorten

#: Terrains built per seed before giving up (never reached in practice).
MAX_TRIES = 300
#: Terrains tried on one recipe before the seed moves on to the next recipe along.
TRIES_PER_RECIPE = 12

_MOVES = moves_for(False)
#: Other starts measured per kept placement (the farthest from the win first).
STARTS = 1


@dataclass(frozen=True)
class Made:
    """A made room with its proved solution, its measures and what it does.

    ``room.name`` is ``TIER.SEED``, ``room.par`` the solution's length,
    ``room.needs`` the proofs that hold and ``room.teaches`` its
    :attr:`subtitle`; the room opens in the stand view (z up, w hidden), as players chose.
    """

    room: Room
    tier: str
    seed: int
    moves: tuple[str, ...]  #: a shortest solution, the one the solver finds
    ramps: int  #: ramps up taken by that solution
    slips: int  #: slips down (moves in which the player falls kata)
    pushes: int  #: crate pushes
    heights: tuple[int, ...]  #: the player's heights in w along it, each once, ascending
    proofs: tuple[str, ...]  #: impossible without each of these: ("ramps",) or ("ramps", "crates")
    depth: Depth  #: the measures on the room's whole state graph
    subtitle: str  #: the room's name in words, that spoils nothing (the game shows it)
    tries: int  #: terrains built before this room was chosen
    states: int  #: states searched in all, over every candidate
    recipe: str = ""  #: what the room is made of, every claim true (on request, after a win)
    chain: tuple[str, ...] = ()  #: its motifs in chain order (:mod:`anabasis.gen.motifs`)
    motifs: tuple[str, ...] = ()  #: its motif set, with counts (the bench counts distinct ones)
    #: the ledges with no way back that the player can get onto, as (x, y) columns each
    ledges: tuple[tuple[tuple[int, int], ...], ...] = ()
    #: each route's other way up (a slip down a slice, a ramp, a landing, a ramp), as (x, y)
    #: columns: the landing is the last two
    routes: tuple[tuple[tuple[int, int], ...], ...] = ()

    @property
    def name(self) -> str:
        return self.room.name

    @property
    def score(self) -> float:
        """The depth score (:attr:`Depth.score`)."""
        return self.depth.score


class _Verdict:
    """Why candidates were dropped (for the bench's and the docs' figures)."""

    def __init__(self) -> None:
        self.dropped: dict[str, int] = {}
        self.states = 0

    def drop(self, why: str) -> None:
        self.dropped[why] = self.dropped.get(why, 0) + 1


FREE_WALK = "a free walk at the end"


def gates(depth: Depth, tier: Tier, tricks: tuple[str, ...] = ()) -> str:
    """Why ``depth`` fails ``tier``'s gates ("" when it passes them all).

    ``tricks`` are what the room's motifs ask of every shortest solution,
    beside the tier's own (:attr:`Tier.tricks`): a trick some shortest
    solution does without fails the room ("no slip", say).
    """
    lo, hi = tier.band
    if depth.climb < 1 or depth.min_ramps < tier.climb:
        return "climb"
    if not lo <= depth.solution <= hi:
        return "out of band"
    if depth.states < tier.min_states:
        return "few states"
    if tier.needs_dead and not depth.dead:
        return "no dead state"
    if depth.lines < tier.min_lines or depth.changes < tier.min_changes:
        return "little crate play"
    if depth.forks < tier.min_forks:
        return "few forks"
    for trick in tier.tricks + tuple(tricks):
        if not depth.does(trick):
            return f"no {trick}"
    if depth.after_fork > tier.max_after_fork:
        return FREE_WALK
    return ""


def _place(rng: SplitMix64, land: terrain.Terrain) -> list[int] | None:
    """One crate placement: the crates each gap needs, where they can be pushed into it.

    A gap's crates start on the plaza before it or, across gaps filled
    before it, on an earlier plaza at the same height (the player then
    chooses which crate fills which gap, and ferries the others over).
    Each crate is drawn among the columns from which it could reach its
    gap, the farther the likelier, and kept only if the whole plan still
    works in the plane (:func:`_feasible`).  A placement that fails that
    is seldom solvable, and costs a whole state graph to find out.
    """
    taken = {land.start, land.goal}
    holes = {c for gap in land.gaps for c in gap.cells}
    plan: list[tuple[terrain.Gap, list[int]]] = []
    for gap in land.gaps:
        area = land.area(gap)
        far = land.feed_distance(gap, land.area(gap, crossings=True))
        spots = [c for c in far if c not in taken and c not in holes and c != area[0]]
        chosen: list[int] = []
        ledge = set(land.ledge_above(gap))  # a crate up there is pushed off it: tried first
        for c in (_far_first(rng, [c for c in spots if c in ledge], far)
                  + _far_first(rng, [c for c in spots if c not in ledge], far)):
            if _feasible(land, plan + [(gap, chosen + [c])]):
                chosen.append(c)
                taken.add(c)
                if len(chosen) == terrain.GAP_CRATES[gap.kind]:
                    break
        if len(chosen) < terrain.GAP_CRATES[gap.kind]:
            return None
        plan.append((gap, chosen))
    return [c for _, chosen in plan for c in chosen]


def _decoy_spot(rng: SplitMix64, land: terrain.Terrain, crates: list[int]) -> int:
    """A column for one crate more than the gaps need, or -1: beside a ramp, where a
    wrong push can shut the way up (the proofs keep it only if it does)."""
    taken = set(crates) | {land.start, land.goal}
    holes = {c for gap in land.gaps for c in gap.cells}
    spots = [c for plaza in land.plazas for c in plaza
             if c not in taken and c not in land.ramps and c not in holes and c != plaza[0]
             and any(n in land.ramps for n in land.neighbours(c))]
    return rng.choice(spots) if spots else -1


def _far_first(rng: SplitMix64, spots: list[int], far: dict[int, int]) -> list[int]:
    """``spots`` in a random order that favours the ones farther (in pushes) from the gap."""
    out = []
    spots = list(spots)
    while spots:
        i = rng.pick([far[c] * far[c] for c in spots])
        out.append(spots.pop(i))
    return out


def _feasible(land: terrain.Terrain, plan) -> bool:
    """Whether the gaps of ``plan`` can be filled in order, each by its own crates.

    A small Sokoban in the plane, gap by gap: each crate, in some order, is
    pushed into its gap by a player coming in at the area's first column,
    with every crate not yet used standing still; a filled gap column is
    ground from then on.  (A shaft's two crates must go down one column.)
    """
    unused = {c for _, crates in plan for c in crates}
    filled: set[int] = set()
    stuck: set[int] = set()  # crates standing as stairs: in the way from then on
    for gap, crates in plan:
        area = land.area(gap)
        upper = set(land.ledge_above(gap))
        ground = (set(area) | filled) - stuck
        targets = [set(gap.cells)] if len(crates) == 1 or gap.kind != "shaft" else [
            {c} for c in gap.cells]
        done = None
        for target in targets:
            for order in permutations(crates):
                left = set(unused)
                into = -1
                for crate in order:
                    left.discard(crate)
                    into = _feeds(land, ground - left, target, crate, area[0], upper)
                    if into < 0:
                        break
                else:
                    done = into
                    break
            if done is not None:
                break
        if done is None:
            return False
        unused -= set(crates)
        if gap.kind == "stair":
            stuck.add(done)
        elif len(crates) == terrain.GAP_CRATES[gap.kind]:
            filled.add(done)
    return True


def _feeds(land: terrain.Terrain, free: set[int], gap: set[int], crate: int, entry: int,
           upper: set[int] = frozenset()) -> int:
    """The gap column ``crate`` can be pushed into by a player coming in at ``entry``, or -1.

    ``free`` is the ground the player and the crate may use (the crate's own
    column among it); ``upper`` the part of it a slice up, a ledge: what
    leaves it (the player dropping, a crate pushed off) never comes back,
    and from it the player cannot push a crate below (he would walk onto it).
    """
    start = (crate, entry)
    seen = {start}
    todo = [start]
    for c, p in todo:
        for step in land.step:
            q = step[p]
            if q == c:
                beyond = step[c]
                if p in upper and c not in upper:
                    continue
                if beyond in gap:
                    return beyond
                if beyond not in free or (beyond in upper and c not in upper):
                    continue
                nxt = (beyond, c)
            elif q in free and not (q in upper and p not in upper):
                nxt = (c, q)
            else:
                continue
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return -1


_NUMBER = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int, thing: str) -> str:
    """``_count(2, "crate")`` is ``"two crates"``."""
    return f"{_NUMBER[n] if n < len(_NUMBER) else n} {thing}{'s' * (n != 1)}"


#: Words for a made room's name, per motif: the name flavours the room, it does not tell it.
_NOUNS = {
    "stair": ("Stile", "Perch", "Tor", "Crag"),
    "shaft": ("Well", "Cistern", "Sump", "Throat"),
    "dip": ("Ford", "Sill", "Trough", "Hollow"),
}
_ADJECTIVES = {
    "drop": ("Sunken", "Nether", "Undercut", "Kata"),
    "step": ("Terraced", "Stepped", "Tiered", "Benched"),
    "carry": ("Ferried", "Borrowed", "Wandering", "Carried"),
    "decoy crate": ("Crowded", "Idle", "Loose", "Spare"),
    "ledge crate": ("Tumbled", "Fallen", "Shoved", "Toppled"),
    "ramp": ("High", "Ana", "Upper", "Lifted"),
    "descent": ("Winding", "Doubled", "Folded", "Switchback"),
    "route": ("Forked", "Branching", "Parted", "Twofold"),
}


def subtitle(chain: tuple[str, ...], seed: int, extra: tuple[str, ...] = ()) -> str:
    """The room's name in words: from its motifs, varied by its seed, and no recipe.

    >>> subtitle(("ramp", "drop", "ramp", "stair"), 3)
    'the Sunken Crag'
    """
    noun_of = next((m for m in ("stair", "shaft", "dip") if m in chain), "dip")
    adjective_of = next((m for m in ("ledge crate", "decoy crate", "carry") if m in extra),
                        next((m for m in ("route", "descent", "step", "drop") if m in chain),
                             "ramp"))
    noun = _NOUNS[noun_of][seed % 4]
    adjective = _ADJECTIVES[adjective_of][(seed // 4) % 4]
    return f"the {adjective} {noun}"


def recipe(depth: Depth, land: terrain.Terrain, columns: list[int], graph,
           live: list[bool] | None = None) -> str:
    """What the room is made of, every claim true of it: for the player who asks, or has won.

    The climb and the tricks are what every shortest solution does
    (checked on the state graph); a ledge is named only if the player can
    get onto it; the dead ends are counted on the graph.
    """
    d = depth
    crates = sum(terrain.GAP_CRATES[gap.kind] for gap in land.gaps)
    spare = len(columns) - crates  # proved a trap, or the room was not kept
    parts = [f"up {_count(d.climb, 'slice')} in w"]
    if d.does("slip"):
        parts.append("a slip kata you must take, and a ramp back up")
    if land.routes:
        parts.append("two ways up a slice: a ramp, or a slip and two ramps round by the slice"
                     " below, which costs moves" if len(land.routes) == 1 else
                     f"{_count(len(land.routes), 'place')} with two ways up a slice, the ramp"
                     " the shorter")
    if "descent" in land.chain and d.does("ramp down"):
        parts.append("a ramp to take down, before the way goes up again")
    if "stair" in land.chain and d.does("crate climb"):
        parts.append("a crate to push against a wall two high in z, as a stair")
    elif d.does("crate climb"):
        parts.append("a climb onto a crate")
    if "step" in land.chain and d.does("climb"):
        parts.append("a step to climb in z")
    elif d.does("climb") and not d.does("crate climb"):
        parts.append("a climb in z")
    shafts = sum(g.kind == "shaft" for g in land.gaps)
    dips = sum(g.kind == "dip" for g in land.gaps)
    what = []
    if dips:
        what.append("a crate for the dip" if dips == 1 else _count(dips, "crate") + " for "
                    + _count(dips, "dip"))
    if shafts:
        what.append("two crates, in order, for a shaft two deep")
    if what:
        parts.append(" and ".join(what))
    carried, off = _carried(land, columns)
    if off:
        parts.append(f"{_count(off, 'crate')} to push off a ledge, to land a slice below")
    if carried:
        parts.append(f"{_count(carried, 'crate')} to carry over a filled gap")
    if spare:
        parts.append(f"{_count(spare, 'crate')} too many, that can shut the way")
    met = _ledges_met(land, graph, live)
    if met:
        parts.append("a ledge with no way back" if met == 1 else
                     f"{_count(met, 'ledge')} with no way back")
    if d.dead >= 10:
        parts.append(f"{round(100 * d.dead_share)}% of its {d.states} states are dead ends")
    elif d.dead:
        parts.append(f"{_count(d.dead, 'dead end')} among its {d.states} states")
    return "; ".join(parts)


def _ledges_met(land: terrain.Terrain, graph, live: list[bool] | None = None) -> int:
    """How many of the decoy ledges the player can get onto and not come back from."""
    return len(_ledges(land, graph, live))


def _ledges(land: terrain.Terrain, graph,
            live: list[bool] | None = None) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The decoy ledges the player can get onto (stand on, at their own slice, in some
    reachable state) and that have no way back (no state with the player over their
    columns, on a crate that filled them, say, can still be won), each as (x, y) columns."""
    X = land.X
    if live is None:
        live = live_states(graph)
    stood, over_live = set(), set()
    for i in range(len(graph)):
        x, y, _z, w = graph.position(i)
        c = x + X * y
        if w == land.height[c]:
            stood.add(c)
        if live[i]:
            over_live.add(c)
    return tuple(tuple((c % X, c // X) for c in ledge) for ledge in land.decoys
                 if any(c in stood for c in ledge) and not any(c in over_live for c in ledge))


def _carried(land: terrain.Terrain, columns: list[int]) -> tuple[int, int]:
    """How many crates start short of their gap's plaza, carried over a filled gap; and how
    many start on the ledge a drop came down from, to be pushed off it."""
    at = carried = off = 0
    for gap in land.gaps:
        need = terrain.GAP_CRATES[gap.kind]
        ledge = set(land.ledge_above(gap))
        for c in columns[at:at + need]:
            if c in ledge:
                off += 1
            elif c not in land.plazas[gap.before]:
                carried += 1
        at += need
    return carried, off


def _stream(tier: str, seed: int) -> SplitMix64:
    return SplitMix64(derive(GEN, TIERS.index(tier), seed))


def build(tier: str, seed: int, *, stats: dict | None = None) -> Made:
    """The proved room for ``tier`` and ``seed``: the same every time while ``GEN`` stands.

    The seed's recipe is laid as terrain after terrain, drawn from the
    seed's stream (after :data:`TRIES_PER_RECIPE`, the next recipe along).
    For each terrain, ``tier.placements`` crate placements are measured on
    their whole state graphs; the first terrain with a placement that
    passes the gates (the tier's and its motifs' tricks on every shortest
    solution among them) gives the room: its passing placement with the
    highest depth score whose proofs hold (without w's gravity, its ramps,
    its crates), its start searched on that placement's graph (:func:`_start`)
    and its routes checked (:func:`_routes_hold`).  Pass a dict as ``stats``
    to get the drop reasons.
    """
    check(tier, seed)
    spec = TIER[tier]
    rng = _stream(tier, seed)
    name = room_name(tier, seed)
    verdict = _Verdict()
    tries = 0
    made = None
    attempt = 0
    while tries < MAX_TRIES and made is None:
        recipe = motifs.recipe_for(tier, seed, attempt)
        for _ in range(TRIES_PER_RECIPE):
            tries += 1
            made = _try(rng, spec, recipe, name, tier, seed, verdict)
            if made is not None or tries >= MAX_TRIES:
                break
        attempt += 1
    if stats is not None:
        stats.update(tries=tries, states=verdict.states, dropped=dict(verdict.dropped))
    if made is None:
        raise GenError(f"no {tier} room found for seed {seed} in {tries} tries")
    made = replace(made, tries=tries, states=verdict.states)
    return made


def _try(rng: SplitMix64, spec: Tier, recipe: tuple[str, ...], name: str, tier: str, seed: int,
         verdict: _Verdict) -> Made | None:
    """One terrain for ``recipe``: its crate placements searched; the room, or None."""
    land = terrain.make(rng, spec, recipe)
    if land is None:
        verdict.drop("no terrain")
        return None
    if land.goal in land.walkable():
        verdict.drop("a way round the crates")
        return None
    if any(len(land.feed_distance(gap, land.area(gap, True))) < terrain.GAP_CRATES[gap.kind]
           for gap in land.gaps):
        verdict.drop("no room for crates")
        return None
    tricks = motifs.tricks_of(recipe)
    passed = []
    first = True  # the terrain's first placement: the gravity flood, once
    for _ in range(spec.placements):
        crates = _place(rng, land)
        if crates is None:  # the next draw would most likely fail too
            verdict.drop("no room for crates")
            break
        if spec.decoy_crate and rng.chance(spec.decoy_crate):
            spot = _decoy_spot(rng, land, crates)
            if spot >= 0:
                crates = crates + [spot]
        room = land.room(name, land.start, crates)
        if first and not proofs.out_of_reach_without_gravity_w(room):
            verdict.drop("gravity-w optional")  # the flood ignores crates: so will the next
            break
        first = False
        graph = solver.explore(room, max_states=spec.max_states)
        verdict.states += len(graph)
        if not graph.complete:
            verdict.drop("too big")
            continue
        if len(graph) < spec.min_states:  # the first gate, before the measures
            verdict.drop("few states")
            if 2 * len(graph) < spec.min_states:  # far too few: this terrain is too small
                break
            continue
        play = crate_play(graph)  # the cheap gates first: a third of the graphs fail them
        if play is not None and not (spec.band[0] <= play[0] <= spec.band[1]):
            verdict.drop("out of band")
            continue
        if play is not None and (play[1] < spec.min_lines or play[2] < spec.min_changes):
            verdict.drop("little crate play")
            continue
        togo = to_win(graph)
        depth = measure(graph, togo=togo)
        if depth is None:
            verdict.drop("unsolvable")
            continue
        why = gates(depth, spec, tricks)
        if why:
            verdict.drop(why)
            if why == FREE_WALK:  # the end is the terrain's: the next placement's would be too
                break
            continue
        moves = tuple(_MOVES[graph.moves[a][graph.children[a].index(b)]]
                      for a, b in pairwise(depth.path))
        passed.append((depth.score, len(passed), room, depth, moves, crates, graph, togo))
        if len(passed) >= spec.keep:
            break
    for _, _, room, depth, moves, crates, graph, togo in sorted(passed,
                                                                key=lambda p: (-p[0], p[1])):
        start, depth = _start(land, graph, togo, depth, spec, tricks)
        if start != land.start:
            room = land.room(name, start, crates)
            moves = tuple(_MOVES[graph.moves[a][graph.children[a].index(b)]]
                          for a, b in pairwise(depth.path))
            depth = _renumbered(graph, depth)
        if land.routes and not _routes_hold(land, graph, togo, depth):
            verdict.drop("a route not taken both ways")
            continue
        spare = proofs.spare_crates(room, spec.max_states)
        if spare:
            live = [t >= 0 for t in togo]
            if not all(proofs.decoy(graph, live, c, depth.path[0]) for c in spare):
                verdict.drop("a spare crate")
                continue
        if not proofs.needs_ramps(room, spec.max_states):
            verdict.drop("ramps optional")
            continue
        if not proofs.needs_crates(room, spec.max_states):
            verdict.drop("crates optional")
            continue
        if not proofs.needs_gravity_w(room, spec.max_states):
            verdict.drop("gravity-w optional")
            continue
        return _made(room, tier, seed, depth, moves, land, crates, graph)
    return None


def _start(land: terrain.Terrain, graph, togo: list[int], depth: Depth, spec: Tier,
           tricks: tuple[str, ...]) -> tuple[int, Depth]:
    """The start column, searched on the placement's whole state graph: ``(column, depth)``.

    Every state with the crates where they start and the player on a column
    of the first plaza is a start the room could have; one from which the
    whole graph can be reached gives the same room, states and dead ends,
    and another shortest solution.  The :data:`STARTS` farthest from a win
    (in moves, on the graph) are measured beside the first plaza's own
    seed column, and the one whose room passes the gates with the highest
    depth score is kept (the seed column on a tie).
    """
    crates0 = graph.keys[0] ^ graph.player(0)
    first = set(land.plazas[0])
    X = land.X
    lo, hi = spec.band
    candidates = []
    for i in range(1, len(graph)):
        if graph.keys[i] ^ graph.player(i) != crates0 or not lo <= togo[i] <= hi:
            continue
        x, y, z, w = graph.position(i)
        c = x + X * y
        if c in first and (x, y, z, w) == land.at(c):
            candidates.append((-togo[i], i, c))
    best = (depth.score, land.start, depth)
    for _, i, c in sorted(candidates)[:STARTS]:
        other = measure(graph, i, togo)
        if other is not None and other.score > best[0] and not gates(other, spec, tricks):
            best = (other.score, c, other)
    return best[1], best[2]


def _routes_hold(land: terrain.Terrain, graph, togo: list[int], depth: Depth) -> bool:
    """Whether each route's other way is a real way on, and longer: some state with the
    player on its landing can still be won, and none of them is on a shortest solution
    (every shortest solution takes the ramp, the other way costs moves)."""
    order, dist = _breadth_first(graph, depth.path[0])
    X = land.X
    for way in land.routes:
        landing = set(way[2:])
        on = [i for i in order
              if (p := graph.position(i))[0] + X * p[1] in landing]
        if not any(togo[i] >= 0 for i in on):
            return False
        if any(togo[i] >= 0 and dist[i] + togo[i] <= depth.solution for i in on):
            return False
    return True


def _renumbered(graph, depth: Depth) -> Depth:
    """``depth`` with its path's states numbered as in the graph explored from the path's
    first state (the room's start): breadth-first, children in the search's move order,
    as :func:`anabasis.engine.solver.explore` numbers them."""
    order, _ = _breadth_first(graph, depth.path[0])
    number = {s: k for k, s in enumerate(order)}
    return replace(depth, path=tuple(number[i] for i in depth.path))


def _breadth_first(graph, root: int) -> tuple[list[int], dict[int, int]]:
    """The states reachable from ``root`` in breadth-first order (children in the search's
    move order), and each one's distance from it in moves."""
    dist = {root: 0}
    order = [root]
    for i in order:
        for c in graph.children[i]:
            if c >= 0 and c not in dist:
                dist[c] = dist[i] + 1
                order.append(c)
    return order, dist


def _made(room: Room, tier: str, seed: int, depth: Depth, moves, land: terrain.Terrain,
          crates: list[int], graph) -> Made:
    run = proofs.walk_through(room, moves)
    assert run.won, "the graph's solution must win when replayed"
    needs = ("gravity-w", "ramps", "crates")
    live = live_states(graph)
    ledges = _ledges(land, graph, live)
    carried, off = _carried(land, crates)
    extra = tuple(name for name, there in (
        ("carry", carried),
        ("ledge crate", off),
        ("decoy crate", len(crates) > sum(terrain.GAP_CRATES[g.kind] for g in land.gaps)))
        if there) + ("ledge",) * len(ledges)
    line = subtitle(land.chain, seed, extra)
    room = replace(room, par=len(moves), needs=needs, teaches=line)
    return Made(room, tier, seed, moves, run.ramps, run.slips, run.pushes, run.heights,
                needs, depth, line, 0, 0, recipe(depth, land, crates, graph, live),
                land.chain, motifs.motif_set(land.chain, extra), ledges,
                tuple(tuple((c % land.X, c // land.X) for c in way) for way in land.routes))


def resolve_source(source: str):
    """The room a SOURCE names (:func:`anabasis.formats.source.resolve`), a made room's
    name too (``hard.k3x9``, ``daily``, ``daily.2026-12-05``: built as the game builds it):
    the command line and the editor take what the game's code box takes.  A bad made
    room's name is a :class:`~anabasis.formats.source.SourceError`."""
    if is_spec(source):
        try:
            return build(*parse_spec(source)).room
        except GenError as e:
            raise sources.SourceError(f"{shorten(source.strip())}: {e}") from None
    return sources.resolve(source)


def build_spec(spec: str) -> Made:
    """:func:`build` for a spec: ``hard.k3x9``, ``daily`` or ``daily.2026-11-29``."""
    return build(*parse_spec(spec))
