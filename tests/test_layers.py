"""The layers hold: nothing imports upward, nothing imports the command line, no circles.

An ``ast`` walk of the package (every import, at the top or inside a
function), so that the picture the README's map draws stays true.  Inside
the game (``anabasis.app``) the sub-packages are layers too: the shell and
the settings import no scene, play never imports the editor or the menus,
and only :mod:`anabasis.app.routes` (which scene follows which) and the
package's own ``__init__`` (the way in) may import them all.

Each check is a function of a package folder, so that the tests at the end
can run it on a copy with a wrong arrow planted, and see it caught.
"""

import ast
import shutil
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

#: The game's sub-packages, bottom up, and what each may import of the others.
SCENES = {"play", "editor", "menus", "routes"}
APP_ALLOWED = {
    "settings": set(),
    "shell": {"settings"},
    "viewer": {"settings", "shell"},
    "play": {"settings", "shell", "viewer"},
    "editor": {"settings", "shell", "viewer", "play"},
    "menus": {"settings", "shell", "viewer", "play"},
    "routes": {"settings", "shell", "viewer", "play", "editor", "menus"},
    "": {"settings", "shell", "viewer", "play", "editor", "menus", "routes"},  # app/__init__
}


def _is_module(root: Path, dotted: str) -> bool:
    """Whether ``dotted`` names a module or a package under ``root``'s parent."""
    path = root.parent / dotted.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module ``path`` imports, by its full dotted name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            # "from anabasis.app.play import hud" imports the module anabasis.app.play.hud;
            # "from anabasis.engine.world import Room" imports anabasis.engine.world
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.add(sub if _is_module(root, sub) else node.module)
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


def app_part(module: str) -> str | None:
    """``anabasis.app.play.hud`` -> ``play``; ``anabasis.app`` -> ``''``; outside the game: None."""
    parts = module.split(".")
    if parts[:2] != ["anabasis", "app"]:
        return None
    return parts[2] if len(parts) > 2 else ""


def modules(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package at ``root`` (dotted name) and the modules it imports."""
    out = {}
    for path in root.rglob("*.py"):
        rel = path.relative_to(root.parent).with_suffix("")
        name = ".".join(p for p in rel.parts if p != "__init__")
        out[name] = imports(path, root)
    return out


def back_arrows(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a layer above, or of the command line."""
    wrong = []
    for name, imported in graph.items():
        here = layer_of(name)
        for target in imported:
            there = layer_of(target)
            if there is None or there == "" or there == here:
                continue
            if here == "" or there not in ALLOWED[here]:
                wrong.append(f"{name} imports {target}")
    return wrong


def app_back_arrows(graph: dict[str, set[str]]) -> list[str]:
    """Every import, inside the game, of a sub-package above (a scene from the shell...)."""
    wrong = []
    for name, imported in graph.items():
        here = app_part(name)
        if here is None:
            continue
        for target in imported:
            there = app_part(target)
            if there is None or there == "" or there == here:
                continue
            if there not in APP_ALLOWED.get(here, set()):
                wrong.append(f"{name} imports {target}")
    return wrong


def circle(graph: dict[str, set[str]]) -> str | None:
    """An import circle among the package's modules ("a -> b -> a"), or None."""
    names = set(graph)
    edges = {n: {m for m in graph[n] if m in names and m != n} for n in graph}
    state: dict[str, int] = {}

    def visit(n, path):
        state[n] = 1
        for m in sorted(edges[n]):
            if state.get(m) == 1:
                return " -> ".join(path[path.index(m):] + [m]) if m in path else f"{n} -> {m}"
            if m not in state:
                found = visit(m, path + [m])
                if found:
                    return found
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n, [n])
            if found:
                return found
    return None


def test_no_layer_imports_a_layer_above_it_or_the_command_line():
    wrong = back_arrows(modules())
    assert not wrong, wrong


def test_the_engine_and_formats_import_no_pygame_gl_numpy_or_pyrr():
    wrong = [f"{name} imports {target}" for name, imported in modules().items()
             for target in imported
             if target.split(".")[0] in THIRD_PARTY_BANNED.get(layer_of(name) or "", ())]
    assert not wrong, wrong


def test_no_import_circles():
    found = circle(modules())
    assert found is None, found


def test_inside_the_game_the_shell_and_settings_import_no_scene_and_play_no_editor():
    graph = modules()
    parts = {app_part(n) for n in graph} - {None, ""}
    assert parts == set(APP_ALLOWED) - {""}, f"a sub-package the layers do not know: {parts}"
    assert not (APP_ALLOWED["shell"] | APP_ALLOWED["settings"]) & SCENES
    assert "editor" not in APP_ALLOWED["play"] and "menus" not in APP_ALLOWED["play"]
    wrong = app_back_arrows(graph)
    assert not wrong, wrong


def test_the_layer_check_sees_a_back_arrow(tmp_path):
    # the check itself can fail: an engine module that imports the game is caught
    bad = tmp_path / "bad.py"
    bad.write_text("from anabasis.app.play import scene\nimport pygame\n")
    assert layer_of("anabasis.app.play.scene") == "app"
    assert "app" not in ALLOWED["engine"] and "anabasis.app.play.scene" in imports(bad)
    assert "pygame" in {t.split(".")[0] for t in imports(bad)} & THIRD_PARTY_BANNED["engine"]


def _copy(tmp_path) -> Path:
    """A copy of the package's source, to plant a wrong arrow in."""
    root = tmp_path / "anabasis"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__", "*.png",
                                                                 "*.txt", "*.wav", "*.ttf"))
    assert not back_arrows(modules(root)) and not app_back_arrows(modules(root))
    return root


def _plant(path: Path, line: str) -> None:
    path.write_text(path.read_text() + f"\n\ndef _planted():\n    {line}\n")


def test_the_checks_catch_arrows_planted_in_a_copy_of_the_package(tmp_path):
    root = _copy(tmp_path)
    # the shell names a scene: caught, and nowhere else
    _plant(root / "app" / "shell" / "loop.py", "from anabasis.app.menus.launcher import Launcher")
    assert app_back_arrows(modules(root)) == [
        "anabasis.app.shell.loop imports anabasis.app.menus.launcher"]
    # play reaches into the editor (a whole sub-package named: the same)
    _plant(root / "app" / "play" / "hud.py", "from anabasis.app import editor")
    assert "anabasis.app.play.hud imports anabasis.app.editor" in app_back_arrows(modules(root))
    # the settings import the frame loop
    _plant(root / "app" / "settings" / "keymap.py", "import anabasis.app.shell.loop")
    assert ("anabasis.app.settings.keymap imports anabasis.app.shell.loop"
            in app_back_arrows(modules(root)))
    # the engine imports the game: a back-arrow between layers
    _plant(root / "engine" / "rules.py", "from anabasis.app.viewer import sight")
    assert back_arrows(modules(root)) == ["anabasis.engine.rules imports anabasis.app.viewer.sight"]


def test_the_circle_check_sees_a_circle(tmp_path):
    root = _copy(tmp_path)
    assert circle(modules(root)) is None
    _plant(root / "app" / "viewer" / "sight.py", "from anabasis.app.viewer import drawstate")
    found = circle(modules(root))
    assert found is not None and "anabasis.app.viewer.sight" in found
    assert "anabasis.app.viewer.drawstate" in found
