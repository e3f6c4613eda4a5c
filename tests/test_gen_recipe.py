"""A made room's recipe: in the window on request and after a win, and every claim true.

The window tests play in a real window under Xvfb (the conftest's): the
recipe key shows the recipe as the message of the moment (again: hides it),
the help names the key, the win panel shows the recipe under the moves,
and a level (which has no recipe) says so.  The claims test reads each
recipe's clauses and checks each one against the room's own state graph,
explored again from the room's code, for many seeds of every tier.
"""

from __future__ import annotations

import pygame
import pytest
from conftest import DT
from window import press, settle

from anabasis import gen
from anabasis.app.play import recipe
from anabasis.app.play.scene import Play
from anabasis.app.play.session import open_level, opened_made
from anabasis.engine import solver
from anabasis.engine.cells import RAMP_LEAN
from anabasis.formats import codes
from anabasis.gen import terrain


def written(app) -> str:
    return "\n".join(app.overlay.written)


@pytest.fixture(scope="module")
def easy():
    return gen.build("easy", 5)


def test_the_recipe_key_shows_the_recipe_and_hides_it_again(make_app, easy):
    app = make_app(opened_made(easy))
    play = app.scene
    assert isinstance(play, Play) and play.opened.recipe == easy.recipe
    app.tick(DT)
    assert "the recipe" not in written(app)  # never shown unasked
    assert easy.recipe.split(";")[0] not in written(app)
    press(app, pygame.K_i, frames=2)
    assert play.message == recipe.text(play.opened) and play.message_left > 0
    shown = " ".join(app.overlay.written)
    assert shown.count("the recipe:") == 1 and "in w" in shown
    # the message wraps; its words are the recipe's, in order
    words = play.message.split()
    assert " ".join(w for w in shown.split() if w in words).find("the recipe: up") >= 0
    press(app, pygame.K_i, frames=2)  # again: hidden
    assert play.message_left <= 0 and "the recipe:" not in written(app)


def test_the_help_lists_the_recipe_key_as_bound(make_app, easy):
    app = make_app(opened_made(easy))
    press(app, pygame.K_h, frames=2)
    assert "I: in a made room, its recipe: what it is made of" in written(app)
    press(app, pygame.K_ESCAPE, frames=1)  # (closes the help: the help's key turns a page)
    app.progress.bind_key("recipe", "b")
    app.keys_changed()
    press(app, pygame.K_h, frames=2)
    assert "B: in a made room, its recipe" in written(app)
    press(app, pygame.K_ESCAPE, frames=1)
    press(app, pygame.K_b, frames=2)
    assert app.scene.message.startswith("the recipe: ")


def test_the_win_panel_shows_the_recipe(make_app, easy):
    app = make_app(opened_made(easy))
    play = app.scene
    play.play_moves(easy.moves)
    settle(app)
    app.tick(DT)
    assert play.won
    shown = written(app)
    assert "Solved!" in shown and "the recipe:" in shown
    # every word of the recipe is on the panel, in its order
    lines = shown.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("the recipe:"))
    panel = " ".join(lines[first:first + 6])
    assert panel.startswith(recipe.text(play.opened)[:60])


def test_a_level_has_no_recipe_and_says_so(make_app):
    app = make_app(open_level(1))
    press(app, pygame.K_i, frames=2)
    assert app.scene.message == recipe.NO_RECIPE
    assert recipe.text(app.scene.opened) == ""


# -- every claim of a recipe, against the room's own graph ---------------------------------


def _tricks(graph, room) -> set[str]:
    """The tricks every shortest solution does, by this test's own pass over the graph:
    breadth-first layers, each state's tricks the AND over its shortest ways in of what the
    way did; the answer, the AND over the won states of the first layer that has one."""
    pos, index = graph.tables.pos, graph.tables.index
    dist = {0: 0}
    every = {0: frozenset()}
    layer = [0]
    while layer:
        won = [i for i in layer if graph.won[i]]
        if won:
            common = set(every[won[0]])
            for i in won[1:]:
                common &= every[i]
            return common
        nxt = []
        for i in layer:
            d = dist[i] + 1
            for c in graph.children[i]:
                if c < 0 or dist.get(c, d) != d:
                    continue
                if c not in dist:
                    dist[c] = d
                    nxt.append(c)
                a, b = pos[graph.player(i)], pos[graph.player(c)]
                did = set()
                if b[3] > a[3]:
                    did.add("ramp up")
                elif b[3] < a[3]:
                    under = (b[0], b[1], b[2] - 1, b[3])
                    did.add("ramp down" if b[3] == a[3] - 1 and room.cell(under) in RAMP_LEAN
                            else "slip")
                if b[2] > a[2]:
                    did.add("climb")
                    if index((b[0], b[1], b[2] - 1, b[3])) in graph.crates(c):
                        did.add("crate climb")
                ca, cb = graph.crates(i), graph.crates(c)
                if len(ca) == len(cb) and sum(pos[k][3] for k in cb) < sum(pos[k][3] for k in ca):
                    did.add("crate falls in w")
                way = every[i] | did
                every[c] = way if c not in every else every[c] & way
        layer = nxt
    raise AssertionError("no solution")


CLAIMS = {
    "a slip kata you must take": "slip",
    "a ramp to take down": "ramp down",
    "as a stair": "crate climb",
    "a climb onto a crate": "crate climb",
    "a step to climb in z": "climb",
    "a climb in z": "climb",
}


@pytest.mark.parametrize("tier", gen.TIERS)
def test_every_claim_of_a_recipe_is_true_of_its_room(tier):
    words = ("no", "one", "two", "three", "four", "five")
    routed = 0
    for seed in range(12):
        made = gen.build(tier, seed)
        room = codes.decode(codes.encode(made.room))
        graph = solver.explore(room, max_states=gen.TIER[tier].max_states)
        assert graph.complete
        live = gen.live_states(graph)
        clauses = made.recipe.split("; ")
        # the climb: slices between the start and the goal
        start_w = graph.position(0)[3]
        assert clauses[0] == f"up {words[room.goal[3] - start_w]} slice" + (
            "s" if room.goal[3] - start_w != 1 else "") + " in w"
        tricks = _tricks(graph, room)
        assert tricks == set(made.depth.tricks), (tier, seed)  # the generator's own agrees
        for clause in clauses[1:]:
            for claim, trick in CLAIMS.items():
                if clause.startswith(claim) or clause.endswith(claim):
                    assert trick in tricks, (tier, seed, clause)
        # the crates: as many as the clauses say, each gap's
        n = len(room.start.crates)
        needed = sum(terrain.GAP_CRATES[g] for g in made.chain if g in terrain.GAP_CRATES)
        assert ("too many" in made.recipe) == (n > needed)
        # the ledges: each named ledge is one the player can stand on, and a dead end
        on_ledge = [i for i in range(len(graph))
                    if any(graph.position(i)[:2] in ledge for ledge in made.ledges)]
        assert ("no way back" in made.recipe) == bool(made.ledges)
        assert all(not live[i] for i in on_ledge)
        assert all(any(graph.position(i)[:2] in ledge for i in on_ledge)
                   for ledge in made.ledges)
        # a route: its other way up leads on, and no shortest solution takes it
        assert ("two ways up" in made.recipe) == bool(made.routes) == ("route" in made.chain)
        if made.routes:
            routed += 1
            dist = [-1] * len(graph)
            dist[0] = 0
            for i in range(len(graph)):
                for c in graph.children[i]:
                    if c >= 0 and dist[c] < 0:
                        dist[c] = dist[i] + 1
            togo = gen.depth.to_win(graph)
            for way in made.routes:
                on = [i for i in range(len(graph)) if graph.position(i)[:2] in way[2:]]
                assert any(togo[i] >= 0 for i in on), (tier, seed)
                assert all(dist[i] + togo[i] > made.room.par for i in on if togo[i] >= 0)
        # the dead ends, counted on the graph
        dead = len(graph) - sum(live)
        tail = clauses[-1]
        if dead >= 10:
            share = round(100 * dead / len(graph))
            assert tail == f"{share}% of its {len(graph)} states are dead ends"
        elif dead:
            assert tail.endswith(f"among its {len(graph)} states")
    if tier == "easy":
        assert routed  # some of them have a route (easy.2 among them)
