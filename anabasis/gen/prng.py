"""The generator's random numbers: SplitMix64, in pure integer Python.

Python's :mod:`random` may change its algorithms between versions, and
numpy's default generator between releases; a made room must be the same
on every machine for as long as the generator's ``GEN`` is unchanged.  So
the generator draws from this small, fully specified PRNG instead.

SplitMix64 (Steele, Lea and Flood, 2014) keeps one 64-bit word.  Each draw
adds the odd constant ``0x9E3779B97F4A7C15`` (2**64 over the golden ratio)
to it, modulo 2**64, and returns the word passed through a fixed
mixer (xor-shift 30, multiply, xor-shift 27, multiply, xor-shift 31).
Everything is integer arithmetic masked to 64 bits, so the results cannot
depend on the platform.  From seed 0 the first draws are
``0xE220A8397B1DCDAF``, ``0x6E789E6AA1B965F4``, ``0x06C45D188009454F``.

Whole numbers below ``n`` are drawn by rejection (never ``u % n``, which
favours the small ones); a chance ``p`` compares the top 53 bits with
``p * 2**53``, exact for the binary fractions and the same everywhere.

>>> rng = SplitMix64(0)
>>> hex(rng.next_u64())
'0xe220a8397b1dcdaf'
>>> SplitMix64(7).below(10) == SplitMix64(7).below(10)
True
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_TOP53 = 1 << 53


def mix64(z: int) -> int:
    """SplitMix64's output mixer: a bijection on 64-bit words.

    >>> hex(mix64(0x9E3779B97F4A7C15))
    '0xe220a8397b1dcdaf'
    """
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive(*parts: int) -> int:
    """One 64-bit seed from several whole numbers (a version, a tier, a seed...).

    Each part is folded in through the mixer, so neighbouring inputs give
    unrelated seeds, and ``derive(a, b) != derive(b, a)`` in general.
    """
    h = 0
    for part in parts:
        if part < 0:
            raise ValueError("derive takes whole numbers >= 0")
        while True:  # parts wider than 64 bits go in 64 bits at a time
            h = mix64(h ^ ((part & MASK64) + GOLDEN_GAMMA))
            part >>= 64
            if not part:
                break
    return h


class SplitMix64:
    """A SplitMix64 stream: :meth:`next_u64` and the draws built on it."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """The next 64-bit word."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A whole number in ``[0, n)``, every one equally likely."""
        if not 0 < n <= MASK64:
            raise ValueError(f"below({n}): n must be 1 to 2**64-1")
        limit = (MASK64 + 1) - (MASK64 + 1) % n  # the largest multiple of n <= 2**64
        while True:
            u = self.next_u64()
            if u < limit:
                return u % n

    def between(self, lo: int, hi: int) -> int:
        """A whole number in ``[lo, hi]``, both ends included."""
        return lo + self.below(hi - lo + 1)

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (0 never, 1 always)."""
        return (self.next_u64() >> 11) < int(p * _TOP53)

    def choice(self, seq: Sequence[T]) -> T:
        """One item of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def pick(self, weights: Sequence[int]) -> int:
        """An index drawn with the given whole-number weights."""
        r = self.below(sum(weights))
        for i, weight in enumerate(weights):
            if r < weight:
                return i
            r -= weight
        raise AssertionError("unreachable")
