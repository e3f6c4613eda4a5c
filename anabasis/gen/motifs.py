"""The motif library: small 4D patterns, each with one trick, and the recipes they make.

A *motif* is one link of a made room's chain (:mod:`anabasis.gen.terrain`
lays it): what it asks of the player, and so what every shortest solution
of a room that has it must do (:data:`TRICKS_OF`, checked on the room's
whole state graph by :func:`anabasis.gen.depth.every_shortest`):

======  ==========================================  ===========================
motif   the pattern                                 every shortest solution ...
======  ==========================================  ===========================
ramp    a ramp up one slice in w                    takes a ramp up
dip     a column a slice lower: a crate fills it    has a crate fall kata
shaft   two slices lower: two crates, in order      has a crate fall kata
drop    a plaza a slice lower, by a slip only       slips kata on purpose
step    a plaza one higher in z                     climbs in z
stair   two higher in z: a crate is the stair       climbs onto a crate
======  ==========================================  ===========================

A *recipe* is a tier's motifs in chain order.  Every recipe a tier may use
is listed once, in a fixed order (:func:`recipes`); a seed picks one
through a bijection on that list (:func:`recipe_for`), so a run of seeds
as long as the list never repeats a recipe.  Today's room is the hard
room of the day's seed, and consecutive days are consecutive seeds: each
day its own mix.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

#: What every shortest solution of a room with the motif does (names of depth.TRICKS).
TRICKS_OF = {
    "ramp": ("ramp up",),
    "dip": ("crate falls in w",),
    "shaft": ("crate falls in w",),
    "drop": ("slip",),
    "step": ("climb",),
    "stair": ("climb", "crate climb"),
    "fall": (),
}

#: Per tier: the ramps and drops every recipe has, the crate motifs (one set drawn), the
#: extras (one set drawn).  Ramps outnumber drops by the tier's climb.
MENU = {
    "easy": (("ramp", "ramp", "drop"), (("dip",), ("stair",)), ((), ("step",))),
    "medium": (("ramp", "ramp", "ramp", "drop"),
               (("dip", "dip"), ("dip", "stair"), ("stair", "dip"), ("shaft",)),
               ((), ("step",))),
    "hard": (("ramp", "ramp", "ramp", "ramp", "drop"),
             (("dip", "shaft"), ("dip", "stair"), ("shaft", "stair"), ("dip", "dip", "stair")),
             ((), ("step",))),
}


def _valid(order: tuple[str, ...]) -> bool:
    """Whether a chain can be laid in this order: z stays 0 to 2, a stair starts on the
    floor, every drop is left by a ramp, and the chain ends on a trick."""
    s = 0
    waiting = False  # a drop not yet left by a ramp
    for m in order:
        if m == "step":
            if s >= 2:
                return False
            s += 1
        elif m == "stair":
            if s:
                return False
            s = 2
        elif m == "drop":
            if waiting:
                return False
            waiting = True
        elif m == "ramp":
            waiting = False
    return not waiting and order[-1] != "drop"


@cache
def recipes(tier: str) -> tuple[tuple[str, ...], ...]:
    """Every recipe of ``tier``, in a fixed order (sorted)."""
    base, crates, extras = MENU[tier]
    out = set()
    for crate in crates:
        for extra in extras:
            items = base + crate + extra
            if tier != "easy" and "step" not in items and "stair" not in items:
                continue  # medium and hard rooms all climb in z
            for order in set(permutations(items)):
                if _valid(order) and _plain(order, crate):
                    out.add(order)
    # a tier's easiest shape first is no matter: the seed's bijection scatters them
    return tuple(sorted(out))


def _plain(order: tuple[str, ...], crate: tuple[str, ...]) -> bool:
    """The crate motifs come in the menu's order (a dip before a shaft, say), so that
    one recipe is not listed twice under two names."""
    picked = [m for m in order if m in ("dip", "shaft", "stair")]
    return tuple(picked) == crate


#: Odd, and prime to every list length that occurs: seeds one apart pick recipes far apart.
_STRIDE = 7919


def recipe_for(tier: str, seed: int, attempt: int = 0) -> tuple[str, ...]:
    """The recipe seed ``seed`` builds (``attempt`` > 0: the next ones along, if it cannot)."""
    listed = recipes(tier)
    n = len(listed)
    stride = _STRIDE
    while _gcd(stride, n) != 1:
        stride += 2
    return listed[(seed * stride + attempt * (n // 2 + 1)) % n]


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def motif_set(chain: tuple[str, ...], extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A room's motifs as a sorted set with counts: ``('dip', 'drop', 'ramp x4', ...)``."""
    names = [m for m in chain if m != "fall"] + list(extra)
    out = []
    for name in sorted(set(names)):
        k = names.count(name)
        out.append(name if k == 1 else f"{name} x{k}")
    return tuple(out)


def tricks_of(chain: tuple[str, ...]) -> tuple[str, ...]:
    """The tricks a chain's motifs ask of every shortest solution."""
    out: list[str] = []
    for m in chain:
        for t in TRICKS_OF[m]:
            if t not in out:
                out.append(t)
    return tuple(out)
