"""Text and flat shapes over the GL frame: a pygame Surface uploaded as a texture.

Everything 2D (the HUD, the launcher, messages) is drawn with pygame into
one transparent Surface the size of the window; it is uploaded to a texture
only when something on it changed, and blended over the frame by the
window (:meth:`Window.present`).  Only the part drawn on counts: the
Surface is cut into tiles of :data:`TILE` pixels, and the rectangles made
of tiles that hold any pixel (:attr:`Overlay.rects`) are all that is
uploaded and blended; on a software rasteriser every pixel of a
full-window pass costs.  The font is the one in ``assets/`` (DejaVu Sans
Condensed Bold): pygame's own has no arrows, check mark or box lines.
"""

from __future__ import annotations

import io
import sys

import moderngl
import numpy as np
import pygame

#: Colours used across the UI (RGB).
INK = (235, 238, 245)
DIM = (150, 158, 175)
GOLD = (255, 214, 102)
WARN = (255, 140, 110)
GOOD = (140, 230, 150)
PANEL = (12, 14, 20, 200)
#: The side of the square tiles the overlay is uploaded and blended by, in pixels.
TILE = 32


#: The shipped font is drawn at this part of the size asked for: sizes across the UI were
#: chosen with pygame's own font, which draws at 0.6875 of its size; at 0.65 the shipped
#: one sets a line about as wide.
FONT_SCALE = 0.65


class Fonts:
    """Fonts by pixel size, made once each; and what they drew and measured lately.

    A HUD drawn again (a camera that turns moves the editor's cursor box) sets mostly the
    same lines: each line's picture, its width and a paragraph's wrapping are kept, up to
    :data:`KEPT` of each, and all forgotten when that many more come.
    """

    KEPT = 256  #: a HUD has some 50 lines; a line typed in grows it by one a key

    def __init__(self):
        self._cache: dict[int, pygame.font.Font] = {}
        self._drawn: dict[tuple, tuple[pygame.Surface, pygame.Surface | None]] = {}
        self._widths: dict[tuple[str, int], int] = {}
        self._wrapped: dict[tuple[str, int, int], tuple[str, ...]] = {}

    def get(self, size: int) -> pygame.font.Font:
        font = self._cache.get(size)
        if font is None:
            font = self._cache[size] = shipped_font(size)
        return font

    @classmethod
    def _keep(cls, kept: dict, key, value):
        if len(kept) >= cls.KEPT:
            kept.clear()
        kept[key] = value
        return value

    def drawn(self, text: str, size: int, colour, shadow: bool):
        """(the line's picture, its shadow's or None), drawn once while it is kept."""
        key = (text, size, tuple(colour), shadow)
        got = self._drawn.get(key)
        if got is None:
            font = self.get(size)
            sh = None
            if shadow:
                sh = font.render(text, True, (0, 0, 0))
                sh.set_alpha(140)
            got = self._keep(self._drawn, key, (font.render(text, True, colour), sh))
        return got

    def width(self, text: str, size: int) -> int:
        got = self._widths.get((text, size))
        if got is None:
            got = self._keep(self._widths, (text, size), self.get(size).size(text)[0])
        return got

    def wrapped(self, text: str, size: int, width: int) -> tuple[str, ...]:
        """``text`` broken into lines no wider than ``width`` pixels."""
        got = self._wrapped.get((text, size, width))
        if got is None:
            lines, line = [], ""
            for word in text.split():
                trial = f"{line} {word}".strip()
                if self.width(trial, size) <= width or not line:
                    line = trial
                else:
                    lines.append(line)
                    line = word
            if line:
                lines.append(line)
            got = self._keep(self._wrapped, (text, size, width), tuple(lines))
        return got


def shipped_font(size: int) -> pygame.font.Font:
    """The HUD's font at ``size`` (the UI's sizes); pygame's own where it cannot be read."""
    from anabasis.app.shell import assets

    try:
        # each Font reads from its own stream for as long as it lives
        return pygame.font.Font(io.BytesIO(assets.font_bytes()),
                                max(1, round(size * FONT_SCALE)))
    except (OSError, pygame.error):  # a broken install: text in pygame's font, not a crash
        return pygame.font.Font(None, size)


class Overlay:
    """A window-sized RGBA Surface, blended over the GL frame."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int]):
        self.ctx = ctx
        self.fonts = Fonts()
        self.surface: pygame.Surface | None = None
        #: the HUD (its rows at the top, as the window's) and under it the pictures shown
        self.texture: moderngl.Texture | None = None
        #: the player's text size (a setting): a factor on :attr:`scale`
        self.text_scale = 1.0
        self.resize(size)

    def resize(self, size: tuple[int, int]) -> None:
        if self.surface is not None and self.surface.get_size() == tuple(size):
            return
        self.surface = pygame.Surface(size, pygame.SRCALPHA, 32)
        # The Surface's own bytes go up as they are (no copy into RGBA order: a full-window
        # copy costs ~1 ms a frame on two cores); the texture's swizzle reorders them.
        self._raw = _raw_swizzle(self.surface)
        self._make_texture(size[0], 0)  # (the old one, of the old size, released)
        self._key = None
        self.written: list[str] = []  #: every text drawn since the last begin (tests read it)
        #: set by the game for a frame that traced the room: a new picture waits a frame
        self.hold = False
        #: a new picture waited this frame (the next one draws it, whatever it traces)
        self.held = False
        #: the rectangles (x, y, w, h; rows top first) that hold anything, as last uploaded
        self.rects: list[tuple[int, int, int, int]] = []
        #: counts the uploads: a window that composed this version has nothing new to show
        self.version = getattr(self, "version", 0) + 1
        #: the pictures shown under the drawing since the last begin (:meth:`show`)
        self.shown: list[tuple[pygame.Surface, pygame.Rect]] = []
        #: each picture shown as the texture holds it, under the HUD's rows: (the picture,
        #: its top row there); one texture holds the HUD and every picture, so that the
        #: window blends them all in one draw, as it blends the HUD alone
        self._slots: list[tuple[pygame.Surface | None, int]] = []
        self._sizes: list[tuple[int, int]] = []  #: the pictures' sizes the slots are laid for

    def _make_texture(self, width: int, room: int) -> None:
        """A new texture ``width`` wide, with the HUD's rows and ``room`` rows under them
        (:attr:`_room`: the rows it has for the pictures shown)."""
        if self.texture is not None:
            self.texture.release()
        self.texture = self.ctx.texture((width, self.surface.get_height() + room), 4)
        self.texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        if self._raw:
            self.texture.swizzle = self._raw
        self._room = room

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    @property
    def scale(self) -> float:
        """How big to draw the UI: 1 at 1280 x 720, with the window; never under 0.85; times
        the player's text size."""
        w, h = self.surface.get_size()
        return max(0.85, min(w / 1280, h / 720)) * self.text_scale

    def begin(self, key) -> bool:
        """Start a new picture unless ``key`` (what it shows) is unchanged: True to draw.

        While :attr:`hold` is set (the frame traced the room already) a changed picture
        waits for the next frame (:attr:`held` says so), unless there is none yet.
        """
        if key == self._key:
            return False
        if self.hold and self._key is not None:
            self.held = True
            return False
        self._key = key
        self.surface.fill((0, 0, 0, 0))
        self.written = []
        self.shown = []
        return True

    def show(self, picture: pygame.Surface, rect) -> None:
        """Show ``picture`` at ``rect`` (its place and size, in window pixels), under what is
        drawn on the surface, as a layer of its own: the window blends it from a texture of
        its own, which is uploaded again only when the picture is not the Surface object shown
        there last.  A picture that is kept while it does not change (the slice map) is then
        sent to the GL once, not with every HUD drawn over it; and it is never copied onto
        the surface.  A changed picture must be a new Surface."""
        self.shown.append((picture, pygame.Rect(rect)))

    def place(self, index: int, rect) -> None:
        """Move the picture shown ``index``-th to ``rect`` (its size kept) without drawing
        the HUD again: the window composes it there from the next frame (the version is
        new).  A small picture that moves (a mover on the slice map) is sent once, then only
        placed."""
        picture, old = self.shown[index]
        rect = pygame.Rect(rect)
        if rect != old:
            self.shown[index] = (picture, rect)
            self.version += 1

    @property
    def layers(self) -> list[tuple[moderngl.Texture, tuple, tuple]]:
        """The pictures shown, as uploaded: (the texture that holds them all, the HUD's own,
        their rectangle in the window, their rectangle in that texture), in the order drawn."""
        return [(self.texture, tuple(rect), (0, top, *picture.get_size()))
                for (picture, top), (_, rect) in zip(self._slots, self.shown, strict=False)]

    def flat(self) -> pygame.Surface:
        """The HUD as the window composes it, on a clear Surface: the pictures shown, then
        the surface's drawing over them (what tests look at)."""
        out = pygame.Surface(self.size, pygame.SRCALPHA, 32)
        for picture, rect in self.shown:
            out.blit(picture, rect)
        out.blit(self.surface, (0, 0))
        return out

    def upload(self) -> None:
        """Send what was drawn since :meth:`begin` to the texture: only its used rectangles,
        and the pictures shown that it does not hold yet."""
        self.rects = used_rects(self.surface)
        self.version += 1
        self._upload_layers()
        if not self._raw:
            width, height = self.surface.get_size()
            self.texture.write(pygame.image.tobytes(self.surface, "RGBA"),
                               viewport=(0, 0, width, height))
            return
        # the raw pixels as rows (H, W), as they lie: a rectangle's rows are copied as they
        # are (the (W, H) view pixels2d gives needs a transposing copy, 5x the time)
        width, height = self.surface.get_size()
        pixels = np.frombuffer(self.surface.get_buffer(), np.uint32).reshape(height, width)
        try:
            for x, y, w, h in self.rects:
                block = np.ascontiguousarray(pixels[y:y + h, x:x + w])
                self.texture.write(block, viewport=(x, y, w, h))
        finally:
            del pixels  # unlocks the Surface

    def _upload_layers(self) -> None:
        """Send the pictures shown to their rows under the HUD's: each one its slot does not
        hold already (its Surface object); all of them, laid out anew, where their sizes
        changed; into a bigger texture (the HUD's rows then sent again by :meth:`upload`)
        where they do not fit."""
        shown = [picture for picture, _ in self.shown]
        if not shown:
            self._slots, self._sizes = [], []
            return
        sizes = [p.get_size() for p in shown]
        if sizes != self._sizes:
            width = max(w for w, _ in sizes)
            height = sum(h for _, h in sizes)
            if width > self.texture.width or height > self._room:
                # room to spare, so that a map a little bigger (another room) fits as it is
                self._make_texture(max(width, self.texture.width),
                                   max(height, 2 * self._room, 64))
            tops, top = [], self.surface.get_height()
            for _, h in sizes:
                tops.append(top)
                top += h
            self._slots = [(None, t) for t in tops]  # (nothing held yet: all sent below)
            self._sizes = sizes
        for i, picture in enumerate(shown):
            held, top = self._slots[i]
            if held is picture:
                continue  # the texture holds it already
            w, h = picture.get_size()
            self.texture.write(self._bytes_of(picture), viewport=(0, top, w, h))
            self._slots[i] = (picture, top)

    def _bytes_of(self, picture: pygame.Surface) -> bytes:
        """``picture``'s pixels as the texture reads the HUD's: its raw bytes where they lie
        as the HUD's do, else copied into a Surface like the HUD's first (an add onto clear
        pixels copies every channel as it is)."""
        if not self._raw:
            return pygame.image.tobytes(picture, "RGBA")
        if (_raw_swizzle(picture) != self._raw
                or picture.get_masks() != self.surface.get_masks()):
            like = pygame.Surface(picture.get_size(), pygame.SRCALPHA, self.surface)
            like.fill((0, 0, 0, 0))
            like.blit(picture, (0, 0), special_flags=pygame.BLEND_RGBA_ADD)
            picture = like
        return picture.get_buffer().raw

    # -- drawing helpers --------------------------------------------------------

    def text(self, text: str, pos: tuple[int, int], size: int = 20, colour=INK,
             anchor: str = "topleft", shadow: bool = True) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` (a pygame.Rect attribute) at ``pos``."""
        self.written.append(text)
        img, sh = self.fonts.drawn(text, size, colour, shadow)
        rect = img.get_rect(**{anchor: pos})
        if sh is not None:
            self.surface.blit(sh, rect.move(1, 1))
        self.surface.blit(img, rect)
        return rect

    def panel(self, rect, colour=PANEL, radius: int = 10) -> None:
        pygame.draw.rect(self.surface, colour, rect, border_radius=radius)

    def width_of(self, text: str, size: int) -> int:
        return self.fonts.width(text, size)

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        """Break ``text`` into lines no wider than ``width`` pixels."""
        return list(self.fonts.wrapped(text, size, width))


def used_rects(surface: pygame.Surface, tile: int = TILE) -> list[tuple[int, int, int, int]]:
    """The rectangles ``(x, y, w, h)`` of whole tiles that hold a pixel that is not clear:
    each row of tiles cut into runs, a run the same as the row above's joined to it.  All of
    the surface where its pixels are not 4 whole bytes in unpadded rows.

    >>> s = pygame.Surface((100, 70), pygame.SRCALPHA, 32)
    >>> _ = s.fill((255, 255, 255, 255), pygame.Rect(40, 5, 10, 50))
    >>> used_rects(s)
    [(32, 0, 32, 64)]
    """
    width, height = surface.get_size()
    if width == 0 or height == 0:
        return []
    if _raw_swizzle(surface) is None:
        return [(0, 0, width, height)]
    # OR the raw pixels together by tile (about 0.5 ms at 1280 x 720), then look at alpha.
    raw = np.frombuffer(surface.get_buffer(), np.uint32).reshape(height, width)
    by_rows = _or_by(raw, tile, axis=0)  # (tile rows, width)
    del raw  # unlocks the Surface
    used = (_or_by(by_rows, tile, axis=1) & np.uint32(surface.get_masks()[3])) != 0
    rects: list[list[int]] = []
    above: dict[tuple[int, int], list[int]] = {}  # the runs of the row above, by (x0, x1)
    # the runs of each row as plain lists (some 40 x 23 tiles: numpy's calls a row cost more
    # than the walk)
    for j, row in enumerate(used.tolist()):
        here = {}
        for a, b in _runs(row):
            x0, x1 = a * tile, min(b * tile, width)
            y1 = min((j + 1) * tile, height)
            rect = above.get((x0, x1))
            if rect is not None:
                rect[3] = y1 - rect[1]  # the run goes on down
            else:
                rect = [x0, j * tile, x1 - x0, y1 - j * tile]
                rects.append(rect)
            here[(x0, x1)] = rect
        above = here
    return [tuple(r) for r in rects]


def _runs(row: list[bool]) -> list[tuple[int, int]]:
    """The runs of True in ``row``, as (first, past the last).

    >>> _runs([False, True, True, False, True])
    [(1, 3), (4, 5)]
    """
    runs, start = [], None
    for i, on in enumerate(row):
        if on and start is None:
            start = i
        elif not on and start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(row)))
    return runs


def _or_by(a: np.ndarray, tile: int, axis: int) -> np.ndarray:
    """``a`` (2D) ORed together over runs of ``tile`` along ``axis`` (the last run short)."""
    n = a.shape[axis]
    whole = n // tile * tile
    if axis == 0:
        parts = [np.bitwise_or.reduce(a[:whole].reshape(n // tile, tile, -1), axis=1)]
        if whole < n:
            parts.append(np.bitwise_or.reduce(a[whole:], axis=0)[None, :])
        return np.concatenate(parts, axis=0)
    parts = [np.bitwise_or.reduce(a[:, :whole].reshape(a.shape[0], n // tile, tile), axis=2)]
    if whole < n:
        parts.append(np.bitwise_or.reduce(a[:, whole:], axis=1)[:, None])
    return np.concatenate(parts, axis=1)


def _raw_swizzle(surface: pygame.Surface) -> str | None:
    """The texture swizzle that reads ``surface``'s raw pixel bytes as RGBA, or None.

    None where the raw bytes cannot go up as they are (not 4 bytes a pixel,
    padded rows, a mask that is not one whole byte).
    """
    w = surface.get_width()
    if surface.get_bytesize() != 4 or surface.get_pitch() != 4 * w:
        return None
    stored = {}  # byte index in memory -> the colour held there
    for colour, mask in zip("RGBA", surface.get_masks(), strict=True):
        if mask not in (0xFF, 0xFF00, 0xFF0000, 0xFF000000):
            return None
        byte = (mask.bit_length() - 1) // 8  # its byte in the 32-bit value
        stored[byte if sys.byteorder == "little" else 3 - byte] = colour
    if len(stored) != 4:
        return None
    # texel channel i holds the byte i; sampled colour c must read the channel holding c
    where = {colour: "RGBA"[i] for i, colour in stored.items()}
    return "".join(where[c] for c in "RGBA")
