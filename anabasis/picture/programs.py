"""The slice shader's source and its compiled programs, cached per GL context.

:func:`slice_source` gives ``slice.frag`` with its chunks in; :func:`fragment_preamble` what
goes before it (the constants shared with Python, the variant's ``#define`` names); the
programs compiled on a context, by variant, are shared by every renderer on it.
"""

from __future__ import annotations

import weakref
from importlib.resources import files
from pathlib import Path

from anabasis.engine import cells
from anabasis.picture import clearance, pose
from anabasis.picture.pose import SHADER_CONSTANTS

SHADER_DIR = Path(str(files("anabasis.shaders")))
#: The chunks ``slice.frag`` includes (``#include "name"``), joined by moderngl's ``ctx.includes``.
SLICE_CHUNKS = ("slice_march", "slice_shading", "slice_footing")


def slice_source() -> str:
    """``slice.frag`` with its chunks in, as the GPU compiles it (the tests read it whole)."""
    out = []
    for line in (SHADER_DIR / "slice.frag").read_text().split("\n"):
        name = line[len('#include "'):-1] if line.startswith('#include "') else None
        out.append((SHADER_DIR / f"{name}.glsl").read_text() if name in SLICE_CHUNKS else line)
    return "\n".join(out)

def _variant_defines(names) -> str:
    return "".join(f"#define {n}\n" for n in sorted(names))

def fragment_preamble(variant=()) -> str:
    """What goes before ``slice.frag``: the version, the constants shared with Python (the
    cell codes, the texel's layout, :data:`SHADER_CONSTANTS`) and the variant's ``#define``
    names.

    >>> "const float HAIR = 0.0001;" in fragment_preamble()
    True
    """
    consts = "".join(f"const {kind} {name} = {_glsl(getattr(pose, name), kind)};\n"
                     for name, kind in SHADER_CONSTANTS.items())
    return ("#version 330 core\n" + cells.glsl_defines()
            + f"#define TEXEL_CODE_MASK {clearance.CODE_MASK}u\n"
            + f"#define TEXEL_STOP_MASK {clearance.CODE_MASK | clearance.CUT}u\n"
            + f"#define TEXEL_FIRST_SOLID {cells.EMPTY + 1}u\n"
            + f"#define CLEAR_SHIFT {clearance.CLEAR_SHIFT}u\n"
            + f"#define TEXEL_CLEAR_MASK {clearance.MAX_CLEARANCE << clearance.CLEAR_SHIFT}u\n"
            + f"#define TEXEL_NEAR_SHIFT {clearance.NEAR_SHIFT}u\n"
            + f"#define TEXEL_KATA_SOLID {clearance.KATA_SOLID}u\n"
            + f"#define TEXEL_BELOW_SOLID {clearance.BELOW_SOLID}u\n"
            + consts + _variant_defines(variant))


def _glsl(value, kind: str) -> str:
    """A Python number as a GLSL literal of ``kind`` (``float`` or ``int``)."""
    return repr(float(value)) if kind == "float" else str(int(value))

#: The (program, vertex array) pairs compiled on each context, by variant; a context's go
#: when it does.
_PROGRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shared_programs(ctx) -> dict:
    """The (program, vertex array) pairs compiled on ``ctx``, by variant.

    Shared by every renderer on the context: a software rasteriser compiles a
    program at its first draw (100-400 ms), so a new room must not redo it.
    """
    return _PROGRAMS.setdefault(ctx, {})


def compiled_variants(ctx) -> set[frozenset]:
    """The variants (sets of ``#define`` names) compiled on ``ctx`` so far, by any renderer."""
    return set(_PROGRAMS.get(ctx, ()))
