"""What a room asks of the player, measured on its whole state graph; the depth score.

:func:`measure` takes the graph from :func:`anabasis.engine.solver.explore`
and gives a :class:`Depth`: how many states there are, how many of them
are dead (no win can be reached from them), the shortest solution and what
it does with the crates (box lines and box changes, Taylor and Parberry's
measures of crate play), how many of its states offer two or more live
ways on, and the fewest ramps up that *any* shortest solution takes.
:func:`random_walk` is the bench's measure of how far luck gets a player.
See ``docs/gen.md`` for the score and why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from anabasis.engine.rules import DOWN, MOVE_CODES, OPPOSITE
from anabasis.engine.solver import Graph
from anabasis.gen.prng import SplitMix64

#: What a move can do that a room may ask of every shortest solution (see :func:`tricks`):
#: a ramp taken up, a ramp taken down, a deliberate slip (the player falling kata, not
#: down a ramp), a climb in z, a climb onto a crate, a crate falling kata in w.
TRICKS = ("ramp up", "ramp down", "slip", "climb", "crate climb", "crate falls in w")
TRICK = {name: 1 << k for k, name in enumerate(TRICKS)}
RAMP_UP, RAMP_DOWN, SLIP, CLIMB, CRATE_CLIMB, CRATE_FALL = (1 << k for k in range(6))


@dataclass(frozen=True)
class Depth:
    """A room's measures (all on its full state graph)."""

    states: int  #: reachable states
    dead: int  #: reachable states from which no win can be reached
    solution: int  #: the shortest solution's length, in moves
    forks: int  #: states on that solution with two or more live ways on (back not counted)
    lines: int  #: box lines: pushes of one crate in one direction in a row count once
    changes: int  #: box changes: pushes of another crate than the last one pushed
    pushes: int  #: pushes in the shortest solution
    falls: int  #: crates that fall two slices or more in it
    climb: int  #: slices the goal stands above the start
    min_ramps: int  #: the fewest ramps up taken by any shortest solution
    path: tuple[int, ...]  #: the shortest solution's states (the solver's own)
    every: int = 0  #: the tricks (:data:`TRICKS` bits) that every shortest solution does
    after_fork: int = 0  #: moves of the shortest solution after its last real fork (real_fork)
    after_push: int = 0  #: moves of the shortest solution after its last push
    #: moves of the shortest solution after the last state where a move leads to a dead state
    after_trap: int = 0
    pulls: int = 0  #: crates the hook pulls in the shortest solution (a hook room's)

    def does(self, trick: str) -> bool:
        """Whether every shortest solution does ``trick`` (one of :data:`TRICKS`)."""
        return bool(self.every & TRICK[trick])

    @property
    def tricks(self) -> tuple[str, ...]:
        """The tricks every shortest solution does, in :data:`TRICKS` order."""
        return tuple(t for t in TRICKS if self.does(t))

    @property
    def dead_share(self) -> float:
        return self.dead / self.states if self.states else 0.0

    @property
    def score(self) -> float:
        """The depth score: what makes people think, in one number (see docs/gen.md)."""
        return (10.0 * math.log2(max(self.states, 1)) + 30.0 * self.dead_share
                + 2.0 * self.forks + 4.0 * self.lines + 6.0 * self.changes
                + 5.0 * self.falls + 0.5 * self.solution)


#: How many moves longer than the rest of the shortest solution another way on may be, and
#: still count as a real fork (:func:`measure`'s ``after_fork``).
NEAR = 2


def to_win(graph: Graph) -> list[int]:
    """Per state, the fewest moves to a win from it (-1: dead, no win can be reached)."""
    back = _parents(graph)
    togo = [0 if w else -1 for w in graph.won]
    todo = [i for i, won in enumerate(graph.won) if won]
    for i in todo:
        d = togo[i] + 1
        for p in back[i]:
            if togo[p] < 0:
                togo[p] = d
                todo.append(p)
    return togo


def measure(graph: Graph, root: int = 0, togo: list[int] | None = None) -> Depth | None:
    """The measures of a complete graph, played from state ``root`` (the room's start,
    or another state from which every state of the graph can be reached); None when
    no state is won, or some state cannot be reached from ``root``.  ``togo`` is the
    graph's :func:`to_win`, if already known."""
    n = len(graph)
    children, won = graph.children, graph.won
    # breadth-first from the root, in the order the graph was found (from state 0, the
    # ids themselves are that order)
    dist = [-1] * n
    parent = [-1] * n
    dist[root] = 0
    order = [root]
    for i in order:
        d = dist[i] + 1
        for c in children[i]:
            if c >= 0 and dist[c] < 0:
                dist[c] = d
                parent[c] = i
                order.append(c)
    if len(order) < n:  # a root from which some state cannot be reached: not a start
        return None
    wins = [i for i in order if won[i]]
    if not wins:
        return None
    first = wins[0]  # the solver's: the first won state found
    length = dist[first]
    if togo is None:
        togo = to_win(graph)
    live = [t >= 0 for t in togo]
    dead = n - sum(live)
    # ramps up on every shortest solution: the fewest along the shortest-path DAG
    pos = graph.tables.pos
    w = [pos[graph.player(i)][3] for i in range(n)]
    fewest = [1 << 30] * n
    fewest[root] = 0
    for i in order:
        f = fewest[i]
        if f == 1 << 30 or dist[i] >= length:
            continue
        for c in children[i]:
            if c >= 0 and dist[c] == dist[i] + 1:
                r = f + (w[c] > w[i])
                if r < fewest[c]:
                    fewest[c] = r
    min_ramps = min(fewest[i] for i in wins if dist[i] == length)
    path = [first]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    path.reverse()
    forks = sum(_is_fork(graph, live, path, k) for k in range(len(path) - 1))
    lines, changes, pushes, pulls, falls = _crate_play(graph, path)
    last_fork = max((k for k in range(len(path) - 1) if real_fork(graph, togo, path, k)),
                    default=-1)
    last_push = max((k for k, (a, b) in enumerate(pairwise(path))
                     if graph.crates(a) != graph.crates(b)), default=-1)
    last_trap = max((k for k in range(len(path) - 1)
                     if any(c >= 0 and not live[c] for c in children[path[k]])), default=-1)
    return Depth(n, dead, length, forks, lines, changes, pushes, falls,
                 w[first] - w[root], min_ramps, tuple(path),
                 every_shortest(graph, dist, length, order),
                 length - 1 - last_fork, length - 1 - last_push, length - 1 - last_trap, pulls)


def crate_play(graph: Graph) -> tuple[int, int, int] | None:
    """The shortest solution's length, box lines and box changes, played from state 0:
    what :func:`measure` would say of them, for a fraction of its cost (no dead states, no
    shortest-path DAG).  None when no state is won."""
    n = len(graph)
    children, won = graph.children, graph.won
    parent = [-1] * n
    seen = [False] * n
    seen[0] = True
    first = -1
    for i in range(n):  # the ids are breadth-first from state 0
        if won[i]:
            first = i
            break
        for c in children[i]:
            if c >= 0 and not seen[c]:
                seen[c] = True
                parent[c] = i
    if first < 0:
        return None
    path = [first]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    path.reverse()
    lines, changes, _, _, _ = _crate_play(graph, path)
    return len(path) - 1, lines, changes


def _is_fork(graph: Graph, live: list[bool], path: list[int], k: int) -> bool:
    back_to = path[k - 1] if k else -1
    ways = {c for c in graph.children[path[k]] if c >= 0 and c != back_to and live[c]}
    return len(ways) >= 2


def real_fork(graph: Graph, togo: list[int], path: list[int], k: int) -> bool:
    """Whether the ``k``-th state of the shortest solution ``path`` is a real fork.

    It is when a different move than the solution's (and than straight
    back) also keeps a solution at most :data:`NEAR` moves longer, and one
    of the two moves does more than walk on the slice: it pushes a crate or
    changes the player's slice in w.  A sidestep on a plaza keeps a
    solution two moves longer almost everywhere: it is no decision, so a
    walk to the goal, however wide the plaza, has no real fork on it.
    """
    a, nxt = path[k], path[k + 1]
    back_to = path[k - 1] if k else -1
    room_left = togo[nxt] + NEAR  # the moves the solution has left after this one, and NEAR
    pos = graph.tables.pos

    def acts(b: int) -> bool:  # the move a -> b pushes a crate or changes the player's w
        return (graph.crates(a) != graph.crates(b)
                or pos[graph.player(a)][3] != pos[graph.player(b)][3])

    ways = [c for c in graph.children[a]
            if c >= 0 and c != nxt and c != back_to and 0 <= togo[c] <= room_left]
    return bool(ways) and (acts(nxt) or any(acts(c) for c in ways))


def every_shortest(graph: Graph, dist: list[int], length: int,
                   order: list[int] | None = None) -> int:
    """The tricks (bits of :data:`TRICK`) that every shortest solution does.

    On the shortest-path DAG (moves from distance ``d`` to ``d + 1``, kept
    only where a win at distance ``length`` can still follow): a state's
    value is what every shortest way to it has done, the AND over the ways
    in of (the parent's value OR the move's tricks); the answer is the AND
    over the won states at ``length``.  Only the DAG's moves are classified.
    ``order`` is the breadth-first order ``dist`` was found in (the ids, from state 0).
    """
    n = len(graph)
    children, won = graph.children, graph.won
    if order is None:
        order = list(range(n))  # ids are in BFS order from state 0: children after parents
    root = order[0]
    on = [False] * n
    for i in reversed(order):
        if dist[i] == length:
            on[i] = won[i]
        elif 0 <= dist[i] < length:
            d = dist[i] + 1
            on[i] = any(c >= 0 and dist[c] == d and on[c] for c in children[i])
    if not on[root]:
        return 0
    t = graph.tables
    pos, lean, below = t.pos, t.lean, t.nb[DOWN]
    every: list[int | None] = [None] * n
    every[root] = 0
    result = -1
    for i in order:
        e = every[i]
        if e is None or not on[i]:
            continue
        if dist[i] == length:
            result &= e
            continue
        d = dist[i] + 1
        pa = graph.player(i)
        xa, ya, za, wa = pos[pa]
        crates_a = None
        for c in children[i]:
            if c < 0 or dist[c] != d or not on[c]:
                continue
            pb = graph.player(c)
            xb, yb, zb, wb = pos[pb]
            f = 0
            if wb > wa:
                f |= RAMP_UP
            elif wb < wa:
                f |= RAMP_DOWN if wb == wa - 1 and lean[below[pb]] >= 0 else SLIP
            if zb > za:
                f |= CLIMB
                if below[pb] in graph.crates(c):
                    f |= CRATE_CLIMB
            if crates_a is None:
                crates_a = graph.crates(i)
            crates_b = graph.crates(c)
            if crates_b != crates_a and len(crates_b) == len(crates_a) and (
                    sum(pos[k][3] for k in crates_b) < sum(pos[k][3] for k in crates_a)):
                f |= CRATE_FALL
            v = e | f
            old = every[c]
            every[c] = v if old is None else old & v
    return max(result, 0)


def _parents(graph: Graph) -> list[list[int]]:
    """Per state, the states one move before it (the graph's edges turned round)."""
    children = graph.children
    back: list[list[int]] = [[] for _ in range(len(graph))]
    for i, kids in enumerate(children):
        for c in kids:
            if c >= 0:
                back[c].append(i)
    return back


def live_states(graph: Graph) -> list[bool]:
    """Per state, whether a win can still be reached from it (found backwards from the wins)."""
    back = _parents(graph)
    live = list(graph.won)
    todo = [i for i, won in enumerate(live) if won]
    for i in todo:
        for p in back[i]:
            if not live[p]:
                live[p] = True
                todo.append(p)
    return live


def _crate_play(graph: Graph, path: list[int]) -> tuple[int, int, int, int, int]:
    """Box lines, box changes, pushes, hook pulls, and falls of two slices or more along
    ``path``.

    A crate the hook pulls toward you moves as a push does, the other way: a pull and a
    push of one crate along one direction in a row are one box line.
    """
    t = graph.tables
    pos = t.pos
    codes = [MOVE_CODES[name] for name in graph.names]
    who = {c: k for k, c in enumerate(graph.crates(path[0]))}  # cell -> crate number
    last = None  # (crate, the way it moved) of the move before, if it moved a crate
    last_crate = None
    lines = changes = pushes = pulls = falls = 0
    for a, b in pairwise(path):
        is_hook, d = codes[graph.moves[a][graph.children[a].index(b)]]
        old, new = graph.crates(a), graph.crates(b)
        if old == new:
            last = None
            continue
        player = graph.player(a)
        if is_hook:
            moved, to, way = _hooked(t, player, old, d), t.nb[d][player], OPPOSITE[d]
        else:
            moved, to, way = t.nb[d][player], t.nb[d][t.nb[d][player]], d
        gone = [c for c in old if c not in new]
        came = [c for c in new if c not in old]
        if moved in who:
            crate = who[moved]
            if is_hook:
                pulls += 1
            else:
                pushes += 1
            if last != (crate, way):
                lines += 1
            if last_crate is not None and crate != last_crate:
                changes += 1
            last, last_crate = (crate, way), crate
        else:
            last = None
        # follow every crate that moved (the pushed or pulled one and any that fell)
        for c in gone:
            k = who.pop(c)
            if not came:
                continue
            aim = pos[to] if c == moved and to >= 0 else pos[c]
            dest = min(came, key=lambda e: abs(pos[e][0] - aim[0]) + abs(pos[e][1] - aim[1]))
            came.remove(dest)
            who[dest] = k
            if pos[c][3] - pos[dest][3] >= 2:
                falls += 1
    return lines, changes, pushes, pulls, falls


def _hooked(t, player: int, crates, d: int) -> int:
    """The crate the hook fired along ``d`` from ``player`` pulls (as
    :func:`anabasis.engine.rules.hook_movers` flies), or -1 when it pulls none."""
    line, hard = t.nb[d], t.hard
    cell = player
    for k in range(1, t.reach[d] + 1):
        cell = line[cell]
        if cell < 0:
            return -1
        if cell in crates:
            return cell if k >= 2 else -1
        if hard[cell]:
            return -1
    return -1


def random_walk(graph: Graph, walkers: int = 200, moves: int = 300, seed: int = 0) -> float:
    """The share of random walkers that win within ``moves`` moves.

    Each walker picks uniformly among the moves that change something (a
    move that loses counts, and is undone, as in the game); the graph must
    have been explored with ``losses=True``.
    """
    rng = SplitMix64(seed)
    children, won = graph.children, graph.won
    wins = 0
    for _ in range(walkers):
        s = 0
        for _ in range(moves):
            kids = children[s]
            if not kids:
                break
            c = kids[rng.below(len(kids))]
            if c >= 0:
                s = c
                if won[s]:
                    wins += 1
                    break
    return wins / walkers
