"""One home for proofs: what a level's header claims, asked of the solver.

RULES.md's "Proofs" table, as a small API that the command line, the bench,
the tests (and, later, the editor and the generator) all ask, so that a
proof is written once:

| function | the proof |
|---|---|
| :func:`par` | the shortest solution: hook moves count in a hook room, elsewhere there are none |
| :func:`without` | the search with rules switched off (``--without``; ``hook`` too) |
| :func:`needs` | the room is impossible without one rule (``needs: RULE``) |
| :func:`hook_saves` | how many moves the hook would save (a plain room's proof wants 0) |
| :func:`prove` | all of these for one room, as :class:`Proofs` |
| :func:`refusals` | what of a room's header :class:`Proofs` do not bear out ([] when all hold) |

Every function takes ``max_states`` (None: the solver's default cap); a
search that reaches it answers ``gave-up``, which proves nothing either way.

>>> from anabasis.formats import levelfile
>>> room = levelfile.parse("par: 3\\n\\n##### ##### #####\\n\\n##### #@..* .....\\n")
>>> found = prove(room)
>>> found.par, found.needs, found.hook, refusals(room, found)
(3, (), 3, [])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from anabasis.engine import solver
from anabasis.engine.moves import Solution
from anabasis.engine.world import NEEDS, SWITCHES, Room


def par(room: Room, max_states: int | None = None) -> Solution:
    """The room's shortest solution, as its par counts it (with the hook in a hook room)."""
    return solver.solve(room, max_states=max_states)


def without(room: Room, rules: Iterable[str], max_states: int | None = None, *,
            hook: bool | None = None) -> Solution:
    """The room's search with ``rules`` switched off (``--without``); the hook is a move
    where the room has it (or anywhere with ``hook=True``), unless ``hook`` is among ``rules``.

    Raises ``ValueError`` for a rule that is not one of :data:`~anabasis.engine.world.NEEDS`,
    and for ``hook`` in a room that has no hook to switch off.
    """
    rules = tuple(dict.fromkeys(rules))
    for rule in rules:
        if rule not in NEEDS:
            raise ValueError(f"unknown rule {rule!r} (known: {', '.join(NEEDS)})")
    if "hook" in rules and not room.hook:
        raise ValueError("'hook' is a rule of hook rooms only (hook: yes); "
                         "in this room the hook is no move")
    return solver.solve(room, without=rules, hook=hook, max_states=max_states)


def needs(room: Room, rule: str, max_states: int | None = None) -> str:
    """The status of the search without ``rule``: ``impossible`` proves ``needs: RULE``."""
    return without(room, (rule,), max_states).status


def hooked(room: Room, max_states: int | None = None) -> Solution:
    """The shortest solution with the hook a move, in any room."""
    return solver.solve(room, hook=True, max_states=max_states)


def hook_saves(room: Room, max_states: int | None = None) -> int | None:
    """Moves the hook would save over the par (0: none); None when either search
    found no solution.  In a hook room the hook is in the par already: always 0."""
    if room.hook:
        return 0 if par(room, max_states).status == "solved" else None
    plain, hook = par(room, max_states), hooked(room, max_states)
    if plain.moves is None or hook.moves is None:
        return None
    return len(plain.moves) - len(hook.moves)


class Proofs(NamedTuple):
    """What the solver says of one room (:func:`prove`)."""

    status: str  #: the par's search: "solved", "impossible" or "gave-up"
    par: int | None  #: the shortest solution's length (hook moves count in a hook room)
    moves: tuple[str, ...] | None  #: that solution
    #: for each rule of the room's ``needs:`` line, in order: (rule, its search's status)
    needs: tuple[tuple[str, str], ...]
    #: the shortest solution's length with the hook a move (a hook room's: its par)
    hook: int | None

    @property
    def hook_saves(self) -> int | None:
        """Moves the hook saves (0: none), or None when there is no solution."""
        return None if self.par is None or self.hook is None else self.par - self.hook


def prove(room: Room, rules: Iterable[str] | None = None,
          max_states: int | None = None) -> Proofs:
    """The par, each rule of ``rules`` (default: the room's ``needs:``) switched off, and
    the hook's search (only outside hook rooms: in one, the par already has it)."""
    found = par(room, max_states)
    length = len(found.moves) if found.moves is not None else None
    rules = room.needs if rules is None else tuple(rules)
    proved = tuple((rule, needs(room, rule, max_states)) for rule in rules)
    if room.hook:
        hook = length
    else:
        with_hook = hooked(room, max_states)
        hook = len(with_hook.moves) if with_hook.moves is not None else None
    return Proofs(found.status, length, found.moves, proved, hook)


def refusals(room: Room, proofs: Proofs) -> list[str]:
    """What of ``room``'s header ``proofs`` do not bear out, in words ([]: every claim holds).

    The par is the shortest solution; each rule of ``needs:`` is proved
    impossible without; the hook saves nothing (outside hook rooms).
    """
    out = []
    if proofs.par != room.par:
        out.append(f"par is {room.par}, the shortest solution {proofs.par} "
                   f"({proofs.status})")
    done = dict(proofs.needs)
    for rule in room.needs:
        status = done.get(rule, "not proved")
        if status != "impossible":
            out.append(f"needs {rule}: without it the search is {status}")
    if not room.hook and proofs.hook_saves:
        out.append(f"the hook saves {proofs.hook_saves} moves")
    return out


def unlisted(room: Room, max_states: int | None = None) -> list[str]:
    """The rules not on the room's ``needs:`` line that it is impossible without (the
    line should be exact: [] when it is)."""
    rules = [r for r in SWITCHES if r not in room.needs]
    if room.hook and "hook" not in room.needs:
        rules.append("hook")
    return [r for r in rules if needs(room, r, max_states) == "impossible"]
