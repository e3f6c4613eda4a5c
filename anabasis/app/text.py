"""Text and flat shapes over the GL frame: a pygame Surface uploaded as a texture.

Everything 2D (the HUD, the launcher, messages) is drawn with pygame into
one transparent Surface the size of the window; it is uploaded to a texture
only when something on it changed, and blended over the frame by the
window's compositing pass (:meth:`Window.present`).  pygame's
default font ships with pygame, so the game needs no font files of its own;
a font in ``assets/`` named ``ui.ttf`` is used instead when present.
"""

from __future__ import annotations

from pathlib import Path

import moderngl
import pygame

ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"

#: Colours used across the UI (RGB).
INK = (235, 238, 245)
DIM = (150, 158, 175)
GOLD = (255, 214, 102)
WARN = (255, 140, 110)
GOOD = (140, 230, 150)
PANEL = (12, 14, 20, 200)


class Fonts:
    """Fonts by pixel size, made once each."""

    def __init__(self):
        self._cache: dict[int, pygame.font.Font] = {}
        custom = ASSETS / "ui.ttf"
        self._file = str(custom) if custom.exists() else None

    def get(self, size: int) -> pygame.font.Font:
        font = self._cache.get(size)
        if font is None:
            font = self._cache[size] = pygame.font.Font(self._file, size)
        return font


class Overlay:
    """A window-sized RGBA Surface, blended over the GL frame."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int]):
        self.ctx = ctx
        self.fonts = Fonts()
        self.surface: pygame.Surface | None = None
        self.texture: moderngl.Texture | None = None
        self.resize(size)

    def resize(self, size: tuple[int, int]) -> None:
        if self.surface is not None and self.surface.get_size() == tuple(size):
            return
        self.surface = pygame.Surface(size, pygame.SRCALPHA, 32)
        if self.texture is not None:
            self.texture.release()
        self.texture = self.ctx.texture(size, 4)
        self.texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self._key = None

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def begin(self, key) -> bool:
        """Start a new picture unless ``key`` (what it shows) is unchanged: True to draw."""
        if key == self._key:
            return False
        self._key = key
        self.surface.fill((0, 0, 0, 0))
        return True

    def upload(self) -> None:
        self.texture.write(pygame.image.tobytes(self.surface, "RGBA"))

    # -- drawing helpers --------------------------------------------------------

    def text(self, text: str, pos: tuple[int, int], size: int = 20, colour=INK,
             anchor: str = "topleft", shadow: bool = True) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` (a pygame.Rect attribute) at ``pos``."""
        font = self.fonts.get(size)
        img = font.render(text, True, colour)
        rect = img.get_rect(**{anchor: pos})
        if shadow:
            sh = font.render(text, True, (0, 0, 0))
            sh.set_alpha(140)
            self.surface.blit(sh, rect.move(1, 1))
        self.surface.blit(img, rect)
        return rect

    def panel(self, rect, colour=PANEL, radius: int = 10) -> None:
        pygame.draw.rect(self.surface, colour, rect, border_radius=radius)

    def width_of(self, text: str, size: int) -> int:
        return self.fonts.get(size).size(text)[0]

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        """Break ``text`` into lines no wider than ``width`` pixels."""
        font = self.fonts.get(size)
        lines, line = [], ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if font.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
        return lines
