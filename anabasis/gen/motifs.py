"""The motif library: small 4D patterns, each with one trick, and the recipes they make.

A *motif* is one link of a made room's chain (:mod:`anabasis.gen.terrain`
lays it): what it asks of the player, and so what every shortest solution
of a room that has it must do (:data:`TRICKS_OF`, checked on the room's
whole state graph by :func:`anabasis.gen.depth.every_shortest`):

=======  ==========================================  ===========================
motif    the pattern                                 every shortest solution ...
=======  ==========================================  ===========================
ramp     a ramp up one slice in w                    takes a ramp up
dip      a column a slice lower: a crate fills it    has a crate fall kata
shaft    two slices lower: two crates, in order      has a crate fall kata
drop     a plaza a slice lower, by a slip only       slips kata on purpose
step     a plaza one higher in z                     climbs in z
stair    two higher in z: a crate is the stair       climbs onto a crate
descent  a plaza a slice lower, down a ramp          takes a ramp down
=======  ==========================================  ===========================

A *recipe* is a tier's motifs in chain order.  Every recipe a tier may use
is listed once, in a fixed order (:func:`recipes`); a seed picks one
through a bijection on that list (:func:`recipe_for`), so a run of seeds
as long as the list never repeats a recipe.  Today's room is the hard
room of the day's seed, and consecutive days are consecutive seeds: each
day its own mix.
"""

from __future__ import annotations

from functools import cache

from anabasis.gen.prng import derive, mix64

#: The motifs, as :func:`anabasis.gen.terrain.make` lays them ("fall" is glue: no trick).
MOTIFS = ("ramp", "dip", "shaft", "drop", "step", "stair", "descent", "route", "fall")

#: What every shortest solution of a room with the motif does (names of depth.TRICKS).
TRICKS_OF = {
    "ramp": ("ramp up",),
    "dip": ("crate falls in w",),
    "shaft": ("crate falls in w",),
    "drop": ("slip",),
    "step": ("climb",),
    "stair": ("climb", "crate climb"),
    "descent": ("ramp down",),
    "route": ("ramp up",),
    "fall": (),
}

#: Per tier: the ramps and drops every recipe has, the crate motifs (one set drawn), the
#: extras (one set drawn).  Ramps outnumber drops by the tier's climb (an extra drop comes
#: with its ramp back).
MENU = {
    "easy": (("ramp", "ramp", "drop"), (("dip",), ("stair",), ("shaft",)),
             ((), ("step",), ("ramp", "descent"), ("route", "drop"))),
    "medium": (("ramp", "ramp", "ramp", "drop"),
               (("dip", "dip"), ("dip", "stair"), ("stair", "dip"), ("shaft",),
                ("shaft", "stair")),
               ((), ("step",), ("step", "step"), ("ramp", "descent"), ("ramp", "drop"),
                ("route", "drop"))),
    "hard": (("ramp", "ramp", "ramp", "ramp", "drop"),
             (("dip", "shaft"), ("shaft", "stair"), ("dip", "dip", "stair"),
              ("stair", "shaft")),
             ((), ("step",), ("ramp", "drop"), ("ramp", "descent"))),
}
#: The longest chain each tier lays (links, falls included).
LONGEST = {"easy": 6, "medium": 8, "hard": 10}


_CRATE_MOTIFS = ("dip", "shaft", "stair")


@cache
def _orders(counts: tuple[tuple[str, int], ...], s: int, waiting: bool,
            crate: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every order of the motifs ``counts`` holds that can be laid from ground ``s`` in z
    (``waiting``: a drop not yet left by a ramp), the crate motifs in ``crate``'s order.

    Built one motif at a time and memoized, so that an order that cannot be
    laid is cut short and a tail is worked out once.  A stair (or a step)
    that finds the ground too high in z comes after a fall back to the floor.
    """
    if not any(k for _, k in counts):
        return ((),) if not waiting else ()
    out = []
    for i, (m, k) in enumerate(counts):
        if not k or (m in _CRATE_MOTIFS and m != crate[0]):
            continue
        head: tuple[str, ...] = (m,)
        ns, nw = s, waiting
        if m == "step":
            if s >= 2:
                head, ns = ("fall", "step"), 1
            else:
                ns = s + 1
        elif m == "stair":
            if s:
                head = ("fall", "stair")
            ns = 2
        elif m == "drop":
            if waiting:
                continue
            nw = True
        elif m == "ramp":
            nw = False
        elif m == "route" and waiting:
            continue  # a drop is left by a plain ramp (the plaza up from it is sealed)
        rest = counts[:i] + ((m, k - 1),) + counts[i + 1:]
        tail_crate = crate[1:] if m in _CRATE_MOTIFS else crate
        for tail in _orders(rest, ns, nw, tail_crate):
            if not tail and m == "drop":
                continue  # a chain does not end on a drop
            out.append(head + tail)
    return tuple(out)


@cache
def recipes(tier: str) -> tuple[tuple[str, ...], ...]:
    """Every recipe of ``tier``, in a fixed order (sorted).

    An order can be laid when z stays 0 to 2 (a step climbs one, a stair
    starts on the floor and climbs two: where the ground is too high in z
    for either, a fall back to the floor comes first), every drop is left
    by a ramp before the next drop or the end, and the chain does not end
    on a drop.  Medium and hard recipes all climb in z (a step or a stair),
    and so do easy ones with a descent; medium and hard ones end on a crate
    motif: the top slice is a puzzle, not a walk.
    """
    base, crates, extras = MENU[tier]
    out: set = set()
    for crate in crates:
        for extra in extras:
            items = base + crate + extra
            if "step" not in items and "stair" not in items and (
                    tier != "easy" or "descent" in items):
                continue  # medium and hard rooms climb in z, and so do easy ones that descend
            counts = tuple((m, items.count(m)) for m in sorted(set(items)))
            out.update(o for o in _orders(counts, 0, False, crate) if len(o) <= LONGEST[tier]
                       and (tier == "easy" or o[-1] in _CRATE_MOTIFS))
    return tuple(sorted(out))


def recipe_for(tier: str, seed: int, attempt: int = 0) -> tuple[str, ...]:
    """The recipe seed ``seed`` builds (``attempt`` > 0: others, when it cannot be laid).

    Seed ``s`` takes entry ``s * stride mod n`` of the tier's ``n`` recipes,
    the stride prime to ``n`` and near ``n`` over the golden ratio, so that
    seeds one apart take recipes far apart in the (sorted) list and any
    ``n`` seeds in a row take ``n`` different recipes.  A seed's first
    three fallbacks are the first choices of the seeds a quarter, a half
    and three quarters of the list along (so no seed of a run shorter than
    ``n / 4`` falls back onto another's first choice); later ones are
    drawn anywhere in the list.
    """
    listed = recipes(tier)
    n = len(listed)
    stride = max(1, (n * 618) // 1000)
    while _gcd(stride, n) != 1:
        stride += 1
    if attempt > 3:  # anywhere in the list
        return listed[mix64(derive(seed, attempt)) % n]
    # the recipe of the seed a quarter of the list along: for a run of seeds shorter than
    # that, a seed's first three fallbacks are no other seed's first choice
    return listed[((seed + attempt * (n // 4)) * stride) % n]


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
