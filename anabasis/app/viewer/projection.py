"""From the picture to window pixels: the ray tracer's camera, on the CPU, in one place.

A point of the slice (3D slice coordinates, from the picture's centre: the
player's centre, or the editor's cursor) falls on the window where the
shader's ray through that pixel would meet it.  Play's markers and hint
arrow and the editor's outlines and clicks all go through :func:`projector`.
"""

from __future__ import annotations

import math

import numpy as np


def projector(camera, size: tuple[int, int]):
    """A function from a slice point to its window pixel and depth, ``(x, y, depth)``, for a
    ``size`` picture seen by ``camera`` (the camera worked out once, for many points).
    A depth at or below 0 is behind the eye (the pixel is then meaningless)."""
    eye, fwd, right, up = camera.frame()
    tan = math.tan(math.radians(camera.fov) / 2.0)
    w, h = size

    def at(s) -> tuple[float, float, float]:
        v = np.asarray(s, float) - eye
        depth = float(v @ fwd)
        d = max(depth, 1e-6)
        return w / 2 + float(v @ right) / (d * tan) * h / 2, \
            h / 2 - float(v @ up) / (d * tan) * h / 2, depth

    return at


def project_many(camera, size: tuple[int, int], points: np.ndarray):
    """:func:`projector`'s ``(x, y, depth)`` for an (N, 3) array of slice points at once:
    three arrays of N."""
    eye, fwd, right, up = camera.frame()
    tan = math.tan(math.radians(camera.fov) / 2.0)
    w, h = size
    v = np.asarray(points, float) - eye
    depth = v @ fwd
    d = np.maximum(depth, 1e-6) * tan
    return w / 2 + (v @ right) / d * h / 2, h / 2 - (v @ up) / d * h / 2, depth


def to_slice(offset, b: np.ndarray) -> np.ndarray:
    """A 4D offset (from the picture's centre) as a point of the slice of basis ``b``."""
    return np.asarray(offset, float) @ b[:, :3]


def ray(camera, size: tuple[int, int], pixel) -> tuple[np.ndarray, np.ndarray]:
    """The eye and the direction (slice coordinates) of the ray through window ``pixel``."""
    eye, fwd, right, up = camera.frame()
    tan = math.tan(math.radians(camera.fov) / 2.0)
    w, h = size
    nx = (2 * pixel[0] - w) / h
    ny = (h - 2 * pixel[1]) / h
    return eye, fwd + nx * tan * right + ny * tan * up
