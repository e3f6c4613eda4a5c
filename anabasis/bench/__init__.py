"""``anabasis bench``: the performance figures, one ``name: value`` line each.

Each subsystem contributes a section: a module with a ``bench()`` generator
that yields ``(name, value)`` pairs.  Ratios are measured side by side in
the same run, so that a noisy machine moves both sides alike.  The rooms
the benches measure are level files in ``anabasis/bench/rooms/`` (package
data, read with :func:`room`).
"""

from __future__ import annotations

import importlib
import sys
from importlib.resources import files

from anabasis.engine.world import Room
from anabasis.refusal import Refusal


class BenchError(Refusal):
    """``--only`` names no figure."""


def room(name: str) -> Room:
    """The bench room ``anabasis/bench/rooms/NAME.txt``, parsed (found wherever installed).

    >>> room("solver").size
    (10, 8, 4, 5)
    """
    from anabasis.formats import levelfile

    text = (files("anabasis.bench") / "rooms" / f"{name}.txt").read_text(encoding="utf-8")
    return levelfile.parse(text, f"anabasis/bench/rooms/{name}.txt")

#: The sections, in order: (figure-name prefix, module holding ``bench()``).
SECTIONS = [
    ("solver", "anabasis.bench.solver"),
    ("levels", "anabasis.bench.levels"),
    ("rules", "anabasis.bench.rules"),
    ("hint", "anabasis.bench.hint"),
    ("render", "anabasis.bench.render"),
    ("gen", "anabasis.bench.gen"),
    ("startup", "anabasis.bench.startup"),
    ("idle", "anabasis.bench.idle"),
    ("play", "anabasis.bench.play"),
    ("play_loaded", "anabasis.bench.play_loaded"),
    ("edit", "anabasis.bench.edit"),
    ("board", "anabasis.bench.board"),
]


def main(args) -> int:
    """Print the figures of every section (or those whose names start with ``--only``)."""
    only = getattr(args, "only", None)
    # "--only gen" picks a section, "--only gen.hard" a figure inside one
    # (and "--only play_loaded" not the play section as well)
    chosen = [module for prefix, module in SECTIONS
              if not only or prefix.startswith(only) or only.startswith(prefix + ".")]
    if not chosen:
        raise BenchError(f"--only {only!r}: no figure starts so (the sections: "
                         f"{', '.join(prefix for prefix, _ in SECTIONS)})")
    for k, module_name in enumerate(chosen, 1):
        # a line on stderr as each section starts: the whole run takes minutes, and
        # stdout stays the figures alone (``anabasis bench > figures.txt``)
        prefix = next(p for p, m in SECTIONS if m == module_name)
        _progress(f"bench: {prefix} ({k} of {len(chosen)})…")
        for name, value in importlib.import_module(module_name).bench():
            if only and not name.startswith(only):
                continue
            text = f"{value:.4g}" if isinstance(value, float) else str(value)
            print(f"{name}: {text}", flush=True)
    return 0


def _progress(line: str) -> None:
    """A progress line on stderr (nothing when stderr cannot be written)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:
        pass
