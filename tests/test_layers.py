"""The layers hold: nothing imports upward, nothing imports the command line, no circles.

An ``ast`` walk of the package (every import, at the top or inside a
function), so that the picture the README's map draws stays true.
"""

import ast
from pathlib import Path

import anabasis

PACKAGE = Path(anabasis.__file__).parent
#: Each layer, and the layers it may import (besides itself and ``anabasis.refusal``).
ALLOWED = {
    "engine": set(),
    "formats": {"engine"},
    "gen": {"engine", "formats"},
    "picture": {"engine", "formats"},
    "app": {"engine", "formats", "gen", "picture", "board"},
    "board": {"engine", "formats", "gen"},
    "bench": {"engine", "formats", "gen", "picture", "app", "board"},
    "cli": {"engine", "formats", "gen", "picture", "app", "bench", "board"},
}
BASE = {"refusal", ""}  # the package root and its refusals are under every layer
THIRD_PARTY_BANNED = {"engine": {"pygame", "moderngl", "numpy", "pyrr"},
                      "formats": {"pygame", "moderngl", "numpy", "pyrr"}}


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            # "from anabasis.app import hud" imports the module anabasis.app.hud;
            # "from anabasis.engine.world import Room" imports anabasis.engine.world
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.add(sub if (PACKAGE.parent / (sub.replace(".", "/") + ".py")).exists()
                          else node.module)
    return found


def layer_of(module: str) -> str | None:
    """``anabasis.engine.rules`` -> ``engine``; the root and ``refusal`` -> ``''``."""
    parts = module.split(".")
    if parts[0] != "anabasis":
        return None
    if len(parts) > 1 and parts[1] == "__main__":
        return "cli"  # python -m anabasis: the command line
    if len(parts) == 1 or parts[1] in BASE:
        return ""
    return parts[1] if parts[1] in ALLOWED else ""


def modules() -> dict[str, set[str]]:
    """Each module of the package (dotted name) and the package modules it imports."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(p for p in rel.parts if p != "__init__")
        out[name] = imports(path)
    return out


def test_no_layer_imports_a_layer_above_it_or_the_command_line():
    wrong = []
    for name, imported in modules().items():
        here = layer_of(name)
        for target in imported:
            there = layer_of(target)
            if there is None or there == "" or there == here:
                continue
            if here == "" or there not in ALLOWED[here]:
                wrong.append(f"{name} imports {target}")
    assert not wrong, wrong


def test_the_engine_and_formats_import_no_pygame_gl_numpy_or_pyrr():
    wrong = [f"{name} imports {target}" for name, imported in modules().items()
             for target in imported
             if target.split(".")[0] in THIRD_PARTY_BANNED.get(layer_of(name) or "", ())]
    assert not wrong, wrong


def test_no_import_circles():
    graph = modules()
    names = set(graph)
    edges = {n: {m for m in graph[n] if m in names and m != n} for n in graph}
    state: dict[str, int] = {}

    def visit(n, path):
        state[n] = 1
        for m in edges[n]:
            if state.get(m) == 1:
                raise AssertionError(" -> ".join(path[path.index(m):] + [m]) if m in path
                                     else f"{n} -> {m}")
            if m not in state:
                visit(m, path + [m])
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n, [n])


def test_the_layer_check_sees_a_back_arrow(tmp_path):
    # the check itself can fail: an engine module that imports the game is caught
    bad = tmp_path / "bad.py"
    bad.write_text("from anabasis.app import play\nimport pygame\n")
    assert layer_of("anabasis.app.play") == "app"
    assert "app" not in ALLOWED["engine"] and "anabasis.app.play" in imports(bad)
    assert "pygame" in {t.split(".")[0] for t in imports(bad)} & THIRD_PARTY_BANNED["engine"]
