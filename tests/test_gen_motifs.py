"""GEN 3's route motif, laid alone: two ways up a slice, the ramp and the way round below.

Laid as the builder lays it (``terrain.make`` along ``("ramp", "route")``),
the room is checked on its own state graph, explored again here: the other
way is a real way on (the room can be won from its landing, and by a player
who never takes the direct ramp), it is longer (no shortest solution stands
on it), and every shortest solution takes a ramp up.
"""

from __future__ import annotations

from dataclasses import replace

from anabasis import gen
from anabasis.engine import solver
from anabasis.engine.cells import BLOCK
from anabasis.engine.world import State
from anabasis.gen import builder, terrain
from anabasis.gen.prng import SplitMix64, derive


def laid_alone(recipe):
    spec = gen.TIER["easy"]
    for k in range(400):
        land = terrain.make(SplitMix64(derive(77, k)), spec, recipe)
        if land is not None and land.routes:
            return land
    raise AssertionError(f"{recipe}: no room laid")


def test_a_route_has_two_ways_up_and_every_shortest_solution_takes_the_shorter():
    land = laid_alone(("ramp", "route"))
    room = land.room("route", land.start, [])
    graph = solver.explore(room)
    assert graph.complete
    n = len(graph)
    dist = [-1] * n
    dist[0] = 0
    for i in range(n):  # the ids are breadth-first from the start
        for c in graph.children[i]:
            if c >= 0 and dist[c] < 0:
                dist[c] = dist[i] + 1
    togo = gen.depth.to_win(graph)
    par = min(dist[i] for i in range(n) if graph.won[i])
    (way,) = land.routes
    landing = set(way[2:])
    on = [i for i in range(n) if graph.position(i)[0] + land.X * graph.position(i)[1]
          in landing and graph.position(i)[3] == land.height[way[2]]]
    assert on and any(togo[i] >= 0 for i in on)  # the way round leads on
    assert all(dist[i] + togo[i] > par for i in on if togo[i] >= 0)  # and costs moves
    # the generator's check says the same
    depth = gen.measure(graph)
    assert builder._routes_hold(land, graph, togo, depth)
    assert depth.does("ramp up") and depth.min_ramps >= 2
    # the direct ramp walled up: the room can still be won, round by the slice below
    direct = [c for c in land.ramps if c in land.plazas[1]]
    assert direct
    cells = bytearray(room.cells)
    for c in direct:
        x, y = c % land.X, c // land.X
        for z in range(room.size[2]):
            for w in range(room.size[3]):
                cells[room.index((x, y, z, w))] = BLOCK
    walled = replace(room, cells=bytes(cells))
    found = solver.solve(walled)
    assert found.status == "solved" and len(found.moves) > par
    # and from the landing itself
    x, y = way[3] % land.X, way[3] // land.X
    there = replace(room, start=State.of(land.at(way[3]), []))
    assert solver.solve(there).status == "solved"
    assert (x, y) != (room.goal[0], room.goal[1])
