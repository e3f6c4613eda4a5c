import os

import pytest
from hypothesis import HealthCheck, settings

#: Hypothesis for the engine's agreement and fault fuzzes: the same examples on every run
#: (CI reproduces a failure), no example database, no deadline (a slow machine is no fault).
#: Each suite sets its own number of examples over it: ``settings(REPRODUCIBLE, max_examples=N)``.
REPRODUCIBLE = settings(deadline=None, derandomize=True, database=None,
                        suppress_health_check=[HealthCheck.too_slow])

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def pytest_report_header(config):
    """What this run is, said before its dots: the suite draws for real, and takes minutes."""
    workers = config.getoption("numprocesses", None) if config.pluginmanager.hasplugin(
        "xdist") else None
    how = (f"on {workers} workers, a test file to each at a time (-n 0: in one process)"
           if workers else "in one process")
    where = (f"the window on DISPLAY={os.environ['DISPLAY']}" if os.environ.get("DISPLAY")
             else "the window under an Xvfb it starts")
    gl = ("no GL is a failure (ANABASIS_REQUIRE_GL=1)"
          if os.environ.get("ANABASIS_REQUIRE_GL") == "1" else "no GL skips those tests")
    return [f"anabasis: the rules on both engines, the solver, the generator, the formats, "
            f"the command line and the game, {how}",
            f"anabasis: pictures drawn for real and read back: headless through EGL, {where}; "
            f"{gl}",
            "anabasis: the whole suite takes some 2 to 5 minutes on two cores"]


@pytest.fixture(scope="session")
def display():
    """An X display for window tests: the one we have, or a fresh Xvfb for the session.

    Skips where there is neither, unless ANABASIS_REQUIRE_GL=1 (CI), where
    that is a failure.
    """
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    from anabasis.bench import xvfb

    if not xvfb.available():
        if os.environ.get("ANABASIS_REQUIRE_GL") == "1":
            pytest.fail("no DISPLAY and no Xvfb, but ANABASIS_REQUIRE_GL=1")
        pytest.skip("no DISPLAY and no Xvfb for the window tests")
    try:
        proc, name = xvfb.start()
    except RuntimeError as e:
        if os.environ.get("ANABASIS_REQUIRE_GL") == "1":
            pytest.fail(f"Xvfb would not start: {e}")
        pytest.skip(f"Xvfb would not start: {e}")
    os.environ["DISPLAY"] = name
    try:
        yield name
    finally:
        os.environ.pop("DISPLAY", None)
        xvfb.stop(proc)


@pytest.fixture(params=["fast", "reference"])
def engine(request):
    """Each engine in turn: a rule test holds the fast one and the plain one to it alike."""
    from anabasis.engine import reference, rules

    return rules if request.param == "fast" else reference


#: The window the game's tests open, and the time step of a frame they tick.
SIZE = (640, 360)
DT = 1 / 30


def open_app(size=SIZE, **kw):
    """A real game window (``App(size=size, **kw)``), or the test skipped where there is no
    GL window (failed instead under ``ANABASIS_REQUIRE_GL=1``, as in CI)."""
    from anabasis.app.routes import App
    from anabasis.app.shell.window import GLUnavailable

    try:
        return App(size=size, **kw)
    except GLUnavailable as e:
        if os.environ.get("ANABASIS_REQUIRE_GL") == "1":
            pytest.fail(f"no GL window: {e}")
        pytest.skip(f"no GL window: {e}")


@pytest.fixture
def make_app(display, tmp_path):
    """Open the game (a level, or the launcher) in a real window of :data:`SIZE`, one frame
    ticked; closed afterwards."""
    made = []

    def make(opened=None, **kw):
        app = open_app(opened=opened, data_dir=tmp_path, **kw)
        made.append(app)
        app.tick(DT)
        return app

    yield make
    for app in made:
        app.close()


@pytest.fixture(scope="module")
def ctx():
    """A headless GL context (Mesa's EGL here) for a module's pixel tests; skipped where
    there is none, failed instead under ``ANABASIS_REQUIRE_GL=1`` (CI)."""
    from anabasis.picture import render

    try:
        context = render.headless_context()
    except render.NoGLError as e:
        if os.environ.get("ANABASIS_REQUIRE_GL") == "1":
            pytest.fail(f"no GL context and ANABASIS_REQUIRE_GL=1: {e}")
        pytest.skip(f"no GL context: {e}")
    yield context
    context.release()
