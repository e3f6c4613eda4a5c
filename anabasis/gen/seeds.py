"""Seeds, specs and tiers: what names a made room, and what each tier asks of it.

A made room is named ``TIER.SEED`` (``hard.k3x9``): the tier, and a seed
written in base 36.  Today's room is the hard room seeded by the date.
The tiers and the words the game shows for them are typed here once; the
launcher reads :data:`TIER_TEXT`.

>>> parse_spec("hard.k3x9")
('hard', 938205)
>>> room_name("easy", 36 * 36 - 1)
'easy.zz'
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass

from anabasis.gen.prng import MASK64
from anabasis.refusal import Refusal

#: The generator's version.  Bump it whenever a seed may give another room
#: (the frozen vectors in tests/test_gen.py fail until it is bumped).
GEN = 3

TIERS = ("easy", "medium", "hard")

SEED_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_SEED = MASK64  #: seeds are 64-bit: at most 13 base-36 digits


class GenError(Refusal):
    """A spec that names no room, or a seed for which no room was found."""


@dataclass(frozen=True)
class Tier:
    """What a tier asks of its rooms (the gates), and the knobs that shape them."""

    name: str
    climb: int  #: slices the goal stands above the start: ramps up every solution takes
    band: tuple[int, int]  #: the shortest solution's length, in moves, both ends included
    size: tuple[int, int]  #: the grid is X by Y columns, each drawn from this range
    gaps: tuple[str, ...]  #: GEN 2's crossings (GEN 3 draws its motifs from motifs.MENU)
    region: tuple[int, int]  #: columns in each plaza, both ends included
    together: float  #: GEN 2's chance of gaps in a row (a GEN 3 recipe orders its own)
    decoys: int  #: dead-end ledges beside the way
    decoy_crate: float  #: chance of one crate more than the gaps need, kept only if it is a trap
    holes: float  #: chance that a spare column beside a plaza is a hole to the void
    placements: int  #: crate placements tried per terrain (the search over state graphs)
    keep: int  #: of a terrain's placements, stop once this many pass the gates
    max_states: int  #: a placement whose graph is larger than this is dropped
    # the gates: a room is kept for the tier only if it meets all of these
    min_states: int  #: reachable states
    min_lines: int  #: box lines in the shortest solution
    min_changes: int  #: box changes in the shortest solution
    min_forks: int  #: states on the solution with two or more live ways on
    needs_dead: bool  #: at least one reachable dead state
    needs_crates: bool  #: impossible without its crates
    #: what every shortest solution of every room of the tier does (names of depth.TRICKS)
    tricks: tuple[str, ...] = ()
    #: moves of the shortest solution after its last real fork, at most (depth.real_fork): the
    #: tail's cut; the tiers' targets (4 and 3) are on the median, which recipes that end on a
    #: crate motif meet
    max_after_fork: int = 99


TIER = {
    "easy": Tier("easy", 1, (6, 24), (6, 8), ("dip",), (4, 7), 0.0, 1, 0.0, 0.1, 4, 2, 2_000,
                 30, 1, 0, 0, True, False, ("ramp up", "slip")),
    "medium": Tier("medium", 2, (12, 40), (8, 10), ("dip", "dip"), (5, 9), 0.6, 1, 0.0, 0.3, 5, 2,
                   5_000, 180, 2, 1, 3, True, True,
                   ("ramp up", "slip", "climb", "crate falls in w"), 8),
    "hard": Tier("hard", 3, (20, 60), (9, 12), ("dip", "shaft"), (6, 10), 0.6, 2, 0.3, 0.3, 6, 2,
                 5_000, 700, 4, 2, 8, True, True,
                 ("ramp up", "slip", "climb", "crate falls in w"), 8),
}

#: What the launcher says of each tier: what its rooms are made of, and its band of moves.
TIER_TEXT = {
    name: f"{what}; {TIER[name].band[0]} to {TIER[name].band[1]} moves"
    for name, what in (
        ("easy", "one slice up: a drop, a ramp, a crate, a step"),
        ("medium", "two slices up, and climbs in z: crates with a use each"),
        ("hard", "three slices up, in all four dimensions: which crate goes where"),
    )
}


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


def is_spec(text: str) -> bool:
    """Whether ``text`` is written as a made room's name (a tier or ``daily``, a dot or
    nothing after ``daily``), right or wrong after the dot; a room code never has a dot.

    >>> is_spec("hard.k3x9"), is_spec("Daily"), is_spec("easy."), is_spec("DCEiWNbK")
    (True, True, True, False)
    """
    head, dot, _ = text.strip().partition(".")
    head = head.lower()
    return (head in TIER and bool(dot)) or head == "daily"


def parse_spec(spec: str) -> tuple[str, int]:
    """``TIER.SEED``, ``daily`` or ``daily.YYYY-MM-DD`` as ``(tier, seed)``.

    Today's room is a hard room seeded by the date (see :func:`daily_seed`).

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


def check(tier: str, seed: int) -> None:
    """Refuse an unknown tier or a seed out of range (:class:`GenError`)."""
    if tier not in TIER:
        raise GenError(f"unknown tier {tier!r}: the tiers are {', '.join(TIERS)}")
    seed_text(seed)  # its range check
