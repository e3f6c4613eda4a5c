"""What a step will do: the four steps' outcomes, read from the engine before a key is pressed.

Each mark is what :func:`anabasis.engine.rules.step` returns for that step,
put in one of eight words, so it can never say other than what the move
does (a test holds every mark to the engine, on every cell of every level):

| kind | when |
|---|---|
| ``walk`` | you end one cell along the step, in your slice and at your height |
| ``climb`` | the step took you one up (z) onto what was in your way |
| ``push`` | a crate moved with the step |
| ``ramp ana`` | a ramp carried you one slice ana |
| ``ramp kata`` | a ramp carried you one slice back down, kata |
| ``slip kata`` | after the step you fall kata ``slip`` slices (nothing held you in w) |
| ``fall out`` | the step loses: you fall out of the room (the game would undo it) |
| ``nothing`` | the step is not a move |

A step is named by what the step itself did (walk, climb, push, a ramp);
when the settle after it takes you kata, that slip is the word instead
(with how many slices), since it is the part a player misses.  A fall in z
after it is said beside the word (``walk · 2 down in z``: :attr:`Mark.drop`), and
a step that is no move says why, in the engine's own reason (``stays · too
high``: :data:`STAYS_WHY`).

In a hook room (RULES.md, "The hook") the six hooks have marks too
(:func:`hook_marks`), each on the cell the hook would catch on, read from
the same :func:`rules.step`:

| kind | when |
|---|---|
| ``hook pull`` | a crate comes along the line to the cell beside you (x, y or kata) |
| ``hook fetch`` | fired ana: a crate comes to the cell just ana of you |
| ``hook cross`` | you are pulled along the line to the cell before the block |
| ``hook lift`` | fired ana at a block: pulled up, and a ramp keeps you up |
| ``hook falls back`` | fired ana at a block: pulled up, you fall back (not a move) |
| ``hook fall out`` | the hook's pull loses: you fall out of the room |
| ``hook nothing`` | it catches beside you, or on nothing: not a move (not drawn) |

A hook that pulls you and lets you slip kata after says so (``slip``).
(Round a wrapped w, "falls back" is also what it pulled falling back as it was.)
"""

from __future__ import annotations

from typing import NamedTuple

from anabasis.engine import moves as why
from anabasis.engine import rules
from anabasis.engine.cells import RAMP_LEAN, RAMPS
from anabasis.engine.world import Room, State

KINDS = ("walk", "climb", "push", "ramp ana", "ramp kata", "slip kata", "fall out", "nothing")
#: The hook's marks, in a hook room.
HOOK_KINDS = ("hook pull", "hook fetch", "hook cross", "hook lift", "hook falls back",
              "hook fall out", "hook nothing")
#: Marks not drawn: a hook that does nothing (a step that does nothing says "stays").
UNDRAWN = ("hook nothing",)

#: Each kind's glyph (drawn in its badge, with the word or number beside it: never colour
#: alone) and colour.  A "stays" is grey, lighter than it was (120, 126, 140): blind players
#: found its words hard to read on the badge's dark ground.  No glyph is an arrow key's
#: arrow (a blind player read "↑ climb" as "press Up"): a climb is a step then up, a slip
#: kata a dashed way down.
GLYPH = {"walk": "•", "climb": "⬏", "push": "▶", "ramp ana": "⇗", "ramp kata": "⇘",
         "slip kata": "⇣", "fall out": "✕", "nothing": "·",
         "hook pull": "↩", "hook fetch": "↩", "hook cross": "↪", "hook lift": "⇑",
         "hook falls back": "⇅", "hook fall out": "✕", "hook nothing": "·"}
COLOUR = {"walk": (170, 230, 255), "climb": (140, 230, 150), "push": (214, 156, 92),
          "ramp ana": (255, 214, 102), "ramp kata": (230, 170, 255),
          "slip kata": (255, 150, 90), "fall out": (255, 90, 90), "nothing": (150, 156, 170),
          "hook pull": (214, 156, 92), "hook fetch": (255, 214, 102),
          "hook cross": (170, 230, 255), "hook lift": (255, 214, 102),
          "hook falls back": (160, 166, 180), "hook fall out": (255, 90, 90),
          "hook nothing": (150, 156, 170)}
#: The same in the colour-blind-safe palette (the settings' ``safe``): Okabe and Ito's
#: colours, as the slice map and the markers take them (a push in the crate's vermillion, a
#: ramp ana in the goal's yellow), and a fall out in white, the one left that no hue
#: blindness mixes up; the glyph and the word still say which mark it is.
SAFE_COLOUR = {"walk": (86, 180, 233), "climb": (0, 158, 115), "push": (213, 94, 0),
               "ramp ana": (240, 228, 66), "ramp kata": (204, 121, 167),
               "slip kata": (230, 159, 0), "fall out": (245, 245, 245),
               "nothing": (160, 160, 160),
               "hook pull": (213, 94, 0), "hook fetch": (240, 228, 66),
               "hook cross": (86, 180, 233), "hook lift": (240, 228, 66),
               "hook falls back": (170, 170, 170), "hook fall out": (245, 245, 245),
               "hook nothing": (160, 160, 160)}


#: Why a step is no move, in the few words of its badge ("stays · too high"), by the engine's
#: own reason (:attr:`rules.Result.why`): a blind player found a plain "stays" said nothing.
#: The room's edge has no badge (nothing is drawn past it).
#: Why a climb at the room's top is no move: the block ahead reaches the room's top (the map
#: and the room frame such a wall's top in dark), and there is no room over it.
TOP_WORDS = "a wall"
STAYS_WHY = {why.IN_YOUR_WAY: "too high", why.NO_HEADROOM: "a block over you",
             why.CRATE_STUCK: "crate stuck", why.ROOM_ENDS: "the room ends",
             why.ROOM_OVER: "room over"}


def colour_of(kind: str, palette: str = "standard") -> tuple[int, int, int]:
    """The colour of a mark of ``kind`` in ``palette`` (the settings' ``standard`` or
    ``safe``).

    >>> colour_of("push"), colour_of("push", "safe")
    ((214, 156, 92), (213, 94, 0))
    """
    return (SAFE_COLOUR if palette == "safe" else COLOUR)[kind]
#: A hook mark's words (the ana and kata hooks' say which way).
HOOK_WORDS = {"hook pull": "pulls the crate", "hook fetch": "fetches the crate",
              "hook cross": "pulls you to it", "hook lift": "lifts you (a ramp keeps you)",
              "hook falls back": "pulls you up, you fall back", "hook fall out": "you fall out",
              "hook nothing": "nothing"}
#: What each says in the help's legend.
MEANING = {
    "walk": "walk: you step onto this cell (· N down in z: then you fall N in z)",
    "climb": "climb: you step up one onto it",
    "push": "push: the crate here moves one on",
    "ramp ana": "ramp ana to w N: the ramp takes you one slice up in w, to slice N",
    "ramp kata": "ramp kata to w N: the ramp takes you one slice down in w, to slice N",
    "slip kata": "slip kata N: nothing holds you in w there: you slip N slices (· N down in z:"
                 " and fall N in z)",
    "fall out": "fall out: you fall out of the room (the move is undone)",
    "nothing": "stays: the step is no move; why, beside it (too high, a block over you,"
               " crate stuck)",
    "hook pull": "hook, pulls the crate: it comes to the cell beside you",
    "hook fetch": "hook ana, fetches the crate: it comes just ana of you, onto your head",
    "hook cross": "hook, pulls you to it: to the cell before the block it caught",
    "hook lift": "hook ana, lifts you: pulled up, a ramp under you keeps you there",
    "hook falls back": "hook ana, you fall back: it cannot lift you (not a move)",
    "hook fall out": "hook, you fall out: the pull leaves you over nothing (undone)",
    "hook nothing": "no badge: the hook does nothing that way",
}


class Mark(NamedTuple):
    """What one step will do."""

    move: str  #: "R", "L", "D" or "U"; in a hook room also "hR" ... "hK"
    kind: str  #: one of :data:`KINDS` (a step's) or :data:`HOOK_KINDS` (a hook's)
    slip: int = 0  #: for "slip kata": how many slices
    won: bool = False  #: the step wins the room
    #: the cell the step goes toward; a hook's: the cell it catches on
    cell: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: for "push": what the crate does after it is pushed ("slips kata 1", "falls 2",
    #: "falls out"; "" where it stays on the cell it was pushed to); for "nothing": why
    #: (:data:`STAYS_WHY`'s words: "too high", "a block over you", "crate stuck", ...); for
    #: "walk" and "climb": "onto a ramp" where you end standing on one; for "slip kata":
    #: "onto the crate" where a crate holds you where you come to rest
    then: str = ""
    #: for "walk", "push" and a ramp's: how far you fall in z after the step (a blind
    #: player walked off a crate's top on a plain "walk")
    drop: int = 0
    #: for "push" where the crate moves on after it (``then``, but "falls out"): the cell it
    #: comes to rest in, which the map boxes (planning on the large map, a blind player saw
    #: only the push's arrow there, and needed two hints to learn that a crate pushed into
    #: a pit drops a slice and holds the floor over it)
    lands: tuple = ()

    @property
    def is_hook(self) -> bool:
        return self.kind in HOOK_WORDS

    @property
    def label(self) -> str:
        """The words on the mark: ``walk``, ``slip kata 2``, ``hook ana: fetches the crate``."""
        if self.is_hook:
            way = {"hA": " ana", "hK": " kata"}.get(self.move, "")
            slip = f", slip kata {self.slip}" if self.slip else ""
            words = HOOK_WORDS[self.kind]
            if self.kind == "hook falls back" and self.move != "hA":
                words = "all falls back as it was"  # (round a wrapped w)
            return f"hook{way}: {words}{slip}"
        words = self.kind if self.kind != "nothing" else "stays"
        if self.kind == "slip kata":
            words = f"slip kata {self.slip}" + (f" · {self.then}" if self.then else "")
        elif self.kind == "push" and self.then:
            words = f"push · crate {self.then}"
        elif self.kind == "nothing" and self.then:
            words = f"stays · {self.then}"
        elif self.kind in ("walk", "climb") and self.then:
            words = f"{self.kind} · {self.then}"
        # (said "drop 1", a blind player took it for a slip kata, the other down)
        return words + (f" · {self.drop} down in z" if self.drop else "")

    @property
    def glyph(self) -> str:
        return GLYPH[self.kind]

    @property
    def colour(self) -> tuple[int, int, int]:
        """Its colour in the standard palette (:meth:`tint` for the settings')."""
        return self.tint()

    def tint(self, palette: str = "standard") -> tuple[int, int, int]:
        """Its colour in ``palette`` (:func:`colour_of`); a push that throws its crate out
        of the room, the fall-out colour (in the push's, two blind players lost a crate
        to a push they took for a safe one)."""
        lost = self.kind == "push" and self.then == "falls out"
        return colour_of("fall out" if lost else self.kind, palette)

    @property
    def short(self) -> str:
        """The mark's few characters, drawn beside its glyph: ``2`` for a slip of two."""
        if self.is_hook:
            return str(self.slip) if self.slip else ""
        return {"slip kata": str(self.slip), "ramp ana": "ana", "ramp kata": "kata"}.get(
            self.kind, "")


def _axis(d) -> tuple[int, int]:
    axis = 0 if d[0] else 1
    return axis, d[axis]


def classify(room: Room, state: State, move: str, result=None) -> Mark:
    """The mark of ``move`` from ``state``: what :func:`rules.step` does with it."""
    if result is None:
        result = rules.step(room, state, move, trace=True)
    p = state.player
    d = rules.STEPS[move]
    toward = tuple(a + b for a, b in zip(p, d, strict=True))
    if not result.moved:
        then = STAYS_WHY.get(result.why, "")
        if result.why == why.NO_HEADROOM and (p[0], p[1], p[2] + 1, p[3]) in state.crates:
            then = "a crate over you"  # (a blind player asked what "no headroom" meant)
        elif result.why == why.NO_HEADROOM and p[2] + 1 >= room.size[2]:
            # nothing is over you but the room's top, and the block ahead reaches it: a
            # blind player, told "a block over you", looked for the block in every view, and
            # the next, told "at the room's top", read it as "you are at the top"; told "a
            # wall to the top", three read "to the top" as up the screen, or took the words
            # for the cell they sit on ("a wall" is what the legend calls such a block)
            then = TOP_WORDS
        return Mark(move, "nothing", cell=toward, then=then)
    if result.status == "lost":
        return Mark(move, "fall out", cell=toward)
    won = result.status == "won"
    frames = result.frames or (result.state,)
    stepped = frames[0]
    q = stepped.player
    # the settle after the step: each round moves the player at most one cell
    slip, at = 0, q
    for f in frames[1:]:
        if f.player[3] != at[3]:
            slip += 1
        at = f.player
    # the fall in z after the step (with a slip too: a blind player, told "slip kata 1" of a
    # step that also dropped him one in z, expected to land on a crate at his own height)
    drop = max(0, q[2] - result.state.player[2])
    if slip:
        # where it comes to rest on a crate (in z or kata), said: on level 6's shaft, "slip
        # kata 1" beside the marker "crate ↓ 2 kata" of the crate it lands on, a blind
        # player could not tell whether he would drop one slice or two, like the crate
        x, y, z, w = result.state.player
        kata, below = room.norm((x, y, z, w - 1)), (x, y, z - 1, w)
        then = "onto the crate" if kata in result.state.crates or below in result.state.crates \
            else ""
        return Mark(move, "slip kata", slip, won, toward, then, drop=drop)
    if stepped.crates != state.crates:
        then, lands = _crate_after(room, state, stepped, result.state)
        return Mark(move, "push", 0, won, toward, then, drop, lands)
    else:
        x, y, z, w = toward
        ana, kata = room.norm((x, y, z, w + 1)), room.norm((x, y, z, w - 1))
        under = room.cell((p[0], p[1], p[2] - 1, p[3]))
        if q == ana and (q != kata or RAMP_LEAN.get(under) == _axis(d)):
            kind = "ramp ana"  # (in a wrapped W of 2, ana and kata are one cell)
        elif q == kata:
            kind = "ramp kata"
        elif q[2] > p[2]:
            kind = "climb"
        else:
            kind = "walk"
        end = result.state.player
        if kind in ("walk", "climb") and room.cell((end[0], end[1], end[2] - 1, end[3])) in RAMPS:
            # (a blind player found a step onto a ramp said only "walk")
            return Mark(move, kind, 0, won, toward, "onto a ramp", drop)
        if kind == "climb" and room.norm(toward) in state.crates:  # (crates lie in the room)
            # a crate that cannot move, climbed: said (blind players of two rounds, a
            # "climb" badge on the crate beside them, pressed toward it to push it)
            return Mark(move, kind, 0, won, toward, "onto the crate", drop)
    return Mark(move, kind, 0, won, toward, drop=drop)


def _crate_after(room: Room, before: State, pushed: State, after: State) -> tuple[str, tuple]:
    """What the crate a push moved does once it is on its new cell, by the settle
    :func:`rules.step` played: "" (it stays), "slips kata N", "falls N", both, or "falls
    out" (the room has one crate fewer); and where it comes to rest, where it moves on
    (else ())."""
    moved = set(pushed.crates) - set(before.crates)
    if len(moved) != 1:
        return "", ()
    (c,) = moved
    final = set(after.crates)
    if c in final:
        return "", ()
    if len(after.crates) < len(pushed.crates) and not (final - set(pushed.crates)):
        return "falls out", ()
    landed = [f for f in final - set(pushed.crates) if f[:2] == c[:2]]
    if len(landed) != 1:
        return "", ()
    f = landed[0]
    W = room.size[3]
    kata = (c[3] - f[3]) % W if room.wrap else c[3] - f[3]
    parts = ([f"slips kata {kata}"] if kata else []) + ([f"falls {c[2] - f[2]}"]
                                                        if c[2] != f[2] else [])
    return " and ".join(parts), tuple(f)


def marks(room: Room, state: State) -> tuple[Mark, ...]:
    """The four steps' marks from ``state`` (R, L, D, U)."""
    return tuple(classify(room, state, m) for m in rules.STEPS)


def catch(room: Room, state: State, move: str) -> tuple[tuple[int, int, int, int], int, str]:
    """Where the hook ``move`` from ``state`` catches: (the cell, how many cells away, what:
    "block", "crate" or "" for none), the line followed through the rules' own tables as
    :func:`rules.hook_movers` follows it; with nothing caught, the cell beside you."""
    t = rules.tables(room)
    k, what, cell = rules.hook_line(t, t.index(state.player),
                                    {t.index(c) for c in state.crates},
                                    rules.MOVE_CODES[move][1])
    if what in ("crate", "block"):
        return t.pos[cell], k, what
    p, step = state.player, rules.HOOKS[move]
    return tuple(a + b for a, b in zip(p, step, strict=True)), 0, ""


def classify_hook(room: Room, state: State, move: str, result=None) -> Mark:
    """The mark of the hook ``move`` from ``state``: what :func:`rules.step` does with it."""
    if result is None:
        result = rules.step(room, state, move, trace=True)
    cell, _, _ = catch(room, state, move)
    if not result.moved:
        kind = "hook falls back" if result.why == why.FELL_BACK else "hook nothing"
        return Mark(move, kind, cell=cell)
    if result.status == "lost":
        return Mark(move, "hook fall out", cell=cell)
    frames = result.frames or (result.state,)
    pulled = frames[0]
    slip, at = 0, pulled.player
    for f in frames[1:]:
        if f.player[3] != at[3]:
            slip += 1
        at = f.player
    ana = move == "hA"
    if pulled.crates != state.crates:
        kind = "hook fetch" if ana else "hook pull"
    else:
        kind = "hook lift" if ana else "hook cross"
    return Mark(move, kind, slip, result.status == "won", cell)


def hook_marks(room: Room, state: State) -> tuple[Mark, ...]:
    """The six hooks' marks from ``state`` (hR hL hD hU hA hK): a hook room's."""
    return tuple(classify_hook(room, state, m) for m in rules.HOOKS)


def shown_in(mark: Mark, b, yaw: float) -> bool:
    """Whether ``mark`` has its badge in the picture of basis ``b`` at ``yaw``: a step that
    an arrow takes there, a hook that a key fires there (an arrow with the hook key, or
    the ana and kata keys in any view); never a hook that does nothing."""
    from anabasis.picture import views

    if mark.kind in UNDRAWN:
        return False
    if not mark.is_hook:
        return views.move_to_arrow(b, yaw, mark.move) is not None
    if mark.move in ("hA", "hK"):
        return True
    from anabasis.app.play.hook import hook_to_arrow

    return hook_to_arrow(b, yaw, mark.move) is not None


class Cache:
    """The marks of the state last asked for: asked every frame, worked out once a state
    (the four steps', and in a hook room the six hooks' after them)."""

    def __init__(self, room: Room):
        self.room = room
        self._state: State | None = None
        self._marks: tuple[Mark, ...] = ()

    def get(self, state: State) -> tuple[Mark, ...]:
        if state != self._state:
            found = marks(self.room, state)
            if self.room.hook:
                found += hook_marks(self.room, state)
            self._marks = found
            self._state = state
        return self._marks
