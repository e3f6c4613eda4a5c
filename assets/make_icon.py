"""Draw the window icon: a stair of three cells climbing to the glowing goal.

Run it after changing the drawing (from the project's root)::

    python assets/make_icon.py             # writes assets/icon.png
    python assets/make_icon.py OUT.png     # or somewhere else

The cells are drawn as flat-shaded cubes in an isometric view, at four
times the icon's size and scaled down smoothly, with pygame alone (no
window is opened).  The colours are the game's own: stone blocks, the
blue tint of a block kata of you, the goal's gold.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

SIZE = 64  #: the icon's side in pixels (window managers scale it as they need)
SUPER = 4  #: drawn this many times larger, then scaled down: smooth edges

#: (top, left, right) face colours of each cube, bottom of the stair first
CUBES = [
    ((150, 132, 112), (104, 90, 76), (82, 70, 60)),      # stone
    ((128, 164, 210), (82, 110, 150), (62, 86, 120)),    # the block kata of you, tinted blue
    ((255, 222, 120), (224, 170, 60), (186, 132, 40)),   # the goal's gold
]


def _cube(surface: pygame.Surface, centre: tuple[float, float], side: float, faces) -> None:
    """An isometric cube whose top face's centre is at ``centre``."""
    cx, cy = centre
    dx, dy = side * 0.866, side * 0.5
    top = [(cx, cy - dy), (cx + dx, cy), (cx, cy + dy), (cx - dx, cy)]
    left = [(cx - dx, cy), (cx, cy + dy), (cx, cy + dy + side), (cx - dx, cy + side)]
    right = [(cx + dx, cy), (cx, cy + dy), (cx, cy + dy + side), (cx + dx, cy + side)]
    for poly, colour in zip((top, left, right), faces, strict=True):
        pygame.draw.polygon(surface, colour, poly)
    edge = (20, 22, 30)
    width = max(1, int(side * 0.06))
    for poly in (top, left, right):
        pygame.draw.polygon(surface, edge, poly, width)


def draw(size: int = SIZE) -> pygame.Surface:
    """The icon at ``size`` x ``size`` pixels, transparent round the stair."""
    big = size * SUPER
    surface = pygame.Surface((big, big), pygame.SRCALPHA, 32)
    surface.fill((0, 0, 0, 0))
    side = big * 0.26
    dx = side * 0.866
    # each cube one step right and one step up from the last: a stair climbing, centred
    centres = [((big - 4 * dx) / 2 + dx + i * dx, big / 2 + side * 0.25 - i * side * 0.75)
               for i in range(len(CUBES))]
    gx, gy = centres[-1]
    for r, a in ((side * 1.3, 36), (side * 1.0, 56)):  # the goal glows, behind the stair
        pygame.draw.circle(surface, (255, 214, 102, a), (gx, gy + side * 0.5), int(r))
    for centre, faces in zip(centres, CUBES, strict=True):
        _cube(surface, centre, side, faces)
    return pygame.transform.smoothscale(surface, (size, size))


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).parent / "icon.png"
    pygame.image.save(draw(), str(out))
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
