"""``anabasis bench`` section ``edit``: how soon the editor's proofs update after an edit.

Each figure is the time from handing a draft to the editor's
:class:`~anabasis.app.proofs.Prover` (as an edit does) to its last answer,
through the worker process the editor uses, best of a few runs:

- ``edit.proof_ms.N``: level N (its answer, each rule it uses switched
  off, and the hook);
- ``edit.proof_ms.bench``: the solver's bench room (10 x 8 x 4 x 5, three
  crates, 120,699 states, impossible: one exhaustive search);
- ``edit.proof_ms.bench_goal``: the same room with its goal where it can be
  reached in 39 moves, to the first answer (solvable, par, moves), and
  ``edit.proof_ms.bench_goal.all`` to the last (the rules switched off, and
  the hook, whose search is three times the room's);
- ``edit.proof_ms``: the worst first answer of all these.

Target: 500 ms or less for the first answer of a 10 x 8 x 4 x 5 room with
three crates.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace

#: Where the bench room's goal goes for the solvable variant: par 39.
BENCH_GOAL = (4, 7, 1, 2)


def _timed(prover, text: str) -> tuple[float, float]:
    """(ms to the first answer, ms to the last) for proving ``text``."""
    prover.text = None  # prove it again, although the text is the same
    began = time.perf_counter()
    prover.start(text)
    first = None
    while prover.busy:
        prover.poll()
        if first is None and prover.proofs.status != "proving":
            first = time.perf_counter()
        time.sleep(0.001)
    last = time.perf_counter()
    if first is None:
        first = last
    return (first - began) * 1000.0, (last - began) * 1000.0


def bench(runs: int = 3) -> Iterator[tuple[str, object]]:
    from anabasis.app.draft import Draft
    from anabasis.app.proofs import Prover
    from anabasis.bench.solver import bench_room
    from anabasis.formats import levels

    rooms = [(f"edit.proof_ms.{n}", levels.load_level(n)) for n in range(1, levels.count() + 1)]
    rooms.append(("edit.proof_ms.bench", bench_room()))
    rooms.append(("edit.proof_ms.bench_goal", replace(bench_room(), goal=BENCH_GOAL)))
    prover = Prover()
    try:
        prover.start("warm the fork server up")
        prover.wait()
        worst = 0.0
        for name, room in rooms:
            text = Draft.of_room(room).text()
            times = [_timed(prover, text) for _ in range(runs)]
            first = min(t[0] for t in times)
            last = min(t[1] for t in times)
            worst = max(worst, first)
            if prover.proofs.status not in ("solved", "impossible"):
                raise AssertionError(f"{name}: the proofs came to {prover.proofs}")
            if name.endswith("bench_goal"):
                yield name, round(first, 1)
                yield name + ".all", round(last, 1)
            else:
                yield name, round(last, 1)
        yield "edit.proof_ms", round(worst, 1)
    finally:
        prover.close()
