"""A GL context without a window: a standalone OpenGL 3.3 context through EGL.

The renderer draws into whatever context it is given; this is the one the
command line (``anabasis render``), the benches and the tests make for
themselves.  Where there is no GPU, Mesa's llvmpipe answers.

Gotcha: moderngl issues its calls to whichever context is current.  Making a
second context makes it current, and releasing it leaves none: a caller that
goes on with the first makes it current again (``ctx.__enter__()``).
"""

from __future__ import annotations


class NoGLError(RuntimeError):
    """No usable OpenGL 3.3 context (headless EGL or otherwise)."""


def headless_context():
    """A standalone OpenGL 3.3 context through EGL (Mesa's llvmpipe where there is no GPU).

    Raises :class:`NoGLError` with a one-line reason when none can be had.
    """
    try:
        import moderngl
    except ImportError as e:  # pragma: no cover - moderngl is a dependency
        raise NoGLError(f"moderngl is not installed: {e}") from None
    try:
        ctx = moderngl.create_standalone_context(require=330, backend="egl")
    except Exception as e:  # moderngl raises plain Exceptions for every failure
        reason = " ".join(str(e).split()) or type(e).__name__
        raise NoGLError(f"no OpenGL 3.3 context through EGL ({reason})") from None
    return ctx
