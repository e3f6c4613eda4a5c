"""The cell codes: one table shared by the engine, the level format and the shader.

Static cells live in the room's flat array; the crate, the player and the
goal are not static, but have codes too so that the renderer can upload
them into the same kind of texture.  The shader receives these as
``#define`` lines built from this table (see ``glsl_defines``), so a code is
never typed twice.

| code | char | cell |
|---|---|---|
| 0 | ``.`` | empty |
| 1 | ``#`` | block |
| 2 | ``>`` | ramp rising ana toward +x |
| 3 | ``<`` | ramp rising ana toward -x |
| 4 | ``v`` | ramp rising ana toward +y |
| 5 | ``^`` | ramp rising ana toward -y |
| 6 | ``*`` | the goal (dynamic layer) |
| 7 | ``$`` | a crate (dynamic layer) |
| 8 | ``@`` | the player (dynamic layer) |
"""

from __future__ import annotations

EMPTY = 0
BLOCK = 1
RAMP_XP = 2
RAMP_XN = 3
RAMP_YP = 4
RAMP_YN = 5
GOAL = 6
CRATE = 7
PLAYER = 8

#: The static cells: what a room's flat array may hold.
STATIC = (EMPTY, BLOCK, RAMP_XP, RAMP_XN, RAMP_YP, RAMP_YN)
RAMPS = (RAMP_XP, RAMP_XN, RAMP_YP, RAMP_YN)

#: Text characters of the static cells.
CHAR_OF = {EMPTY: ".", BLOCK: "#", RAMP_XP: ">", RAMP_XN: "<", RAMP_YP: "v", RAMP_YN: "^"}
CODE_OF = {c: k for k, c in CHAR_OF.items()}

#: The direction each ramp leans (rises ana toward), as (axis, sign); axis 0 is x, 1 is y.
RAMP_LEAN = {RAMP_XP: (0, +1), RAMP_XN: (0, -1), RAMP_YP: (1, +1), RAMP_YN: (1, -1)}
RAMP_OF_LEAN = {lean: code for code, lean in RAMP_LEAN.items()}

#: Every named code, for the shader's ``#define`` lines.
NAMES = {
    "EMPTY": EMPTY,
    "BLOCK": BLOCK,
    "RAMP_XP": RAMP_XP,
    "RAMP_XN": RAMP_XN,
    "RAMP_YP": RAMP_YP,
    "RAMP_YN": RAMP_YN,
    "GOAL": GOAL,
    "CRATE": CRATE,
    "PLAYER": PLAYER,
}


def glsl_defines(prefix: str = "CELL_") -> str:
    """The cell codes as GLSL ``#define`` lines, for the shader's preamble."""
    return "".join(f"#define {prefix}{name} {code}u\n" for name, code in NAMES.items())
