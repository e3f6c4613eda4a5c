"""Drawing headless: a framebuffer to draw into and read back."""

from __future__ import annotations

import numpy as np


class Offscreen:
    """A colour framebuffer of ``size`` for headless frames (RGBA8, or float for debug)."""

    def __init__(self, ctx, size: tuple[int, int], dtype: str = "f1"):
        self.ctx = ctx
        self.size = size
        self.colour = ctx.texture(size, 4, dtype=dtype)
        self.fbo = ctx.framebuffer(color_attachments=[self.colour])

    def read(self) -> np.ndarray:
        """The pixels, rows top first: uint8 (H, W, 4), or float32 for a float target."""
        w, h = self.size
        dtype = self.colour.dtype
        raw = self.fbo.read(components=4, dtype=dtype)
        arr = np.frombuffer(raw, dtype=np.float32 if dtype == "f4" else np.uint8)
        return arr.reshape(h, w, 4)[::-1]

    def release(self) -> None:
        self.fbo.release()
        self.colour.release()
