"""The files the game ships in ``assets/`` (package data ``anabasis.assets``), found at run time.

Read through ``importlib.resources``, like the levels and the shaders, so
they are found from a source checkout, an installed wheel or a zip alike:

- ``fonts/DejaVuSansCondensed-Bold.ttf``: the HUD's font (every glyph it
  uses: the middle dot, arrows, the check mark, box lines), under the
  Bitstream Vera licence in ``fonts/LICENSE-DejaVu.txt`` beside it;
- ``sounds/*.wav``: the effects, written by ``assets/make_sounds.py``;
- ``icon.png``: the window icon, drawn by ``assets/make_icon.py``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

FONT = "fonts/DejaVuSansCondensed-Bold.ttf"
FONT_LICENCE = "fonts/LICENSE-DejaVu.txt"
ICON = "icon.png"


def read(name: str) -> bytes:
    """The bytes of the shipped file ``name`` (a path inside ``assets/``, with ``/``)."""
    node = resources.files("anabasis.assets")
    for part in name.split("/"):
        node = node.joinpath(part)
    return node.read_bytes()


@cache
def font_bytes() -> bytes:
    """The HUD font, read once (each pygame Font reads its own copy of it)."""
    return read(FONT)


def sound_bytes(name: str) -> bytes:
    """The WAV file of the effect ``name`` ("step", "win", ...)."""
    return read(f"sounds/{name}.wav")


def icon():
    """The window icon as a pygame Surface, or None where it cannot be read."""
    import io

    import pygame

    try:
        return pygame.image.load(io.BytesIO(read(ICON)), "icon.png")
    except (OSError, pygame.error):
        return None
