"""A picture's size, ``WIDTHxHEIGHT``, read from the command line: the one parser.

``anabasis --size``, ``anabasis edit --size`` and ``anabasis render --size``
all read it here; each says its own bounds (a window is at least 160x120,
an image at least 1x1) and its own words for a refusal.
"""

from __future__ import annotations

import re

_FORM = re.compile(r"\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*")


class SizeError(ValueError):
    """Not a size (``form``), or one outside the bounds (``range``)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def read_size(text: str, least: tuple[int, int], most: tuple[int, int],
              digits: tuple[int, int] = (1, 5)) -> tuple[int, int]:
    """``"960x540"`` -> ``(960, 540)``; :class:`SizeError` for anything else.

    ``digits``: how many digits each number may have.

    >>> read_size("960 x 540", (160, 120), (16384, 16384))
    (960, 540)
    >>> read_size("9x5", (160, 120), (16384, 16384))
    Traceback (most recent call last):
    ...
    anabasis.picture.size.SizeError: range
    """
    m = _FORM.fullmatch(text)
    if not m or not all(digits[0] <= len(g) <= digits[1] for g in m.groups()):
        raise SizeError("form")
    w, h = int(m.group(1)), int(m.group(2))
    if not (least[0] <= w <= most[0] and least[1] <= h <= most[1]):
        raise SizeError("range")
    return w, h
