"""Anabasis: a climb through a 4D room with two gravities.

The engine (``world``, ``levelfile``, ``rules``, ``solver``, ``codes``,
``gen``) is pure Python and imports neither pygame nor moderngl; the
renderer (``render``) and the game (``app``) sit on top of it.
"""

from pathlib import Path as _Path

__version__ = "0.1.0"


def data_dir(name: str) -> _Path:
    """Where the project's ``levels/`` or ``shaders/`` folder is.

    In a checkout (and an editable install) it sits beside the package; a
    wheel installs it under ``<prefix>/share/anabasis/`` (pyproject's
    ``data-files``).
    """
    import sys

    here = _Path(__file__).resolve().parent.parent / name
    if here.is_dir():
        return here
    for prefix in (sys.prefix, sys.base_prefix):
        shared = _Path(prefix) / "share" / "anabasis" / name
        if shared.is_dir():
            return shared
    return here
