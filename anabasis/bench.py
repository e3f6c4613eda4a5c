"""``anabasis bench``: the performance figures, one ``name: value`` line each.

Each subsystem contributes a section: a module with a ``bench()`` generator
that yields ``(name, value)`` pairs.  Ratios are measured side by side in
the same run, so that a noisy machine moves both sides alike.
"""

from __future__ import annotations

import importlib
import sys

#: The sections, in order: (figure-name prefix, module holding ``bench()``).
SECTIONS = [
    ("solver", "anabasis.bench_solver"),
    ("levels", "anabasis.bench_levels"),
    ("render", "anabasis.bench_render"),
    ("gen", "anabasis.bench_gen"),
    ("startup", "anabasis.bench_startup"),
]


def main(args) -> int:
    only = getattr(args, "only", None)
    done = set()
    for prefix, module_name in SECTIONS:
        if only and not (prefix.startswith(only) or only.startswith(prefix)):
            continue
        if module_name in done:
            continue
        done.add(module_name)
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name == module_name:
                continue
            raise
        for name, value in module.bench():
            if only and not name.startswith(only):
                continue
            text = f"{value:.4g}" if isinstance(value, float) else str(value)
            print(f"{name}: {text}", flush=True)
    sys.stdout.flush()
    return 0
