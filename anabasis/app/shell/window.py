"""The window: pygame-ce with an OpenGL 3.3 core context, and moderngl on it.

The GL attributes (3.3, core profile, forward-compatible) are set before
``set_mode`` so that the same code opens on macOS, where only a
forward-compatible core context offers 3.3.  Only SDL's video subsystem is
started: no audio device, joystick or clipboard is needed to run.

The room is drawn into an offscreen framebuffer at an *internal* size, at
most :data:`SOFTWARE_PIXELS` pixels on a software rasteriser (llvmpipe) and
:data:`HARDWARE_PIXELS` on a GPU, and scaled up to the window; the HUD is
drawn afterwards at the window's own size, so text stays sharp.  On a
software rasteriser the game loop also lowers that budget while frames run
over 1/60 s (:meth:`Window.adapt`), and raises it again when they are quick.  Once the
room is at rest, a software rasteriser draws it once more at the window's own size
(:meth:`Window.begin_sharp`): the still picture is the one a player reads.
"""

from __future__ import annotations

import array
import ctypes
import math
import os
import statistics
import time
from collections import deque
from importlib import resources

import moderngl
import pygame  # its greeting is hushed by the package's __init__, which runs first

#: Internal pixel budgets: the ray tracer costs per pixel, llvmpipe ~9 ms at 640x360 and ~6
#: at 512x288.  On two cores a frame's work jitters by up to ~8 ms whatever it draws (the
#: rasteriser's threads, the X server and Python share them), so the software budget leaves
#: that much headroom under 1/60 s: 512x288 (2.5x to 1280x720) looks all but the same.
SOFTWARE_PIXELS = 512 * 288
HARDWARE_PIXELS = 1920 * 1080
MIN_SIZE = (480, 270)
#: On a software rasteriser a cross-fade (two slices traced) is drawn at this part of the
#: internal width and height (0.56 of the pixels): for the quarter second it lasts.
FADE_PART = 0.75
#: ... and a turn (an oblique slice, and the HUD's axes redrawn every frame) at this part.
TURN_PART = 0.85
FRAME_MS = 1000.0 / 60  #: the frame time dynamic resolution aims under


def _glsl(name: str) -> str:
    """One of the window's GLSL files in ``shaders/`` (package data ``anabasis.shaders``)."""
    return resources.files("anabasis.shaders").joinpath(name).read_text()


#: The window's own programs: the room scaled up onto it, the HUD over it.

QUAD_VS = _glsl("window_quad.vert")

UPSCALE_FS = _glsl("window_upscale.frag")

#: On a software rasteriser the room is scaled up in two steps where it is under half the
#: window's size (each way): smoothly to half the window (UPSCALE_FS into a target of that
#: size), then each of those pixels doubled.  llvmpipe pays most for the smooth texture
#: fetch, and a quarter of the window's pixels pay it instead of all; the picture is the
#: same but for the last step's 2 x 2 pixels.
DOUBLE_FS = _glsl("window_double.frag")

#: The HUD, blended over the room: the pictures shown under it (Overlay.layers), then the
#: rectangles of its own that hold anything (Overlay.rects), all from its one texture.
HUD_VS = _glsl("window_hud.vert")

HUD_FS = _glsl("window_hud.frag")


class Budget:
    """How many pixels the room is drawn at on a software rasteriser: fitted to the tail of
    recent frame times, so that under load frames still fit 1/60 s.

    :meth:`note` takes the work of each frame that drew the room.  Every :data:`DECIDE`
    such frames it looks at the 95th percentile of the last :data:`RECENT`: over
    :data:`FRAME_MS` x 0.95 it draws fewer pixels at once (down to :data:`MIN_PART` of the
    default), which is a sixth of a second at 60 fps; under 0.55 of it over a whole
    :data:`RECENT` frames, a few more (up to the default).  The median would hide the slow
    frames a busy machine adds.

    How many fewer: a frame's work is a part that does not scale with the pixels (the
    compositing at the window's size, the HUD, the swap, the game's own) and the room's
    part, which does.  :meth:`note_fixed` takes the work of frames that showed something
    new without drawing the room; their median stands for the first part, and the cut
    aims the rest under 0.8 of the frame at once.  Until such frames are seen, the whole
    frame is taken to scale, and one look cuts by at most a third.

    >>> b = Budget(100_000)
    >>> [b.note(25.0) for _ in range(Budget.DECIDE)][-1] < 100_000   # all slow: fewer
    True
    >>> b = Budget(100_000)
    >>> for i in range(10):
    ...     _ = b.note(22.0 if i == 4 else 8.0)  # the median is 8 ms, the tail is not
    >>> b.pixels < 100_000
    True
    >>> b = Budget(100_000)   # 8 ms of every frame is the compositing: the room's 12 ms ...
    >>> for _ in range(5):
    ...     b.note_fixed(8.0)
    >>> [b.note(20.0) for _ in range(Budget.DECIDE)][-1]   # ... cut to its 5.3 at once
    44444
    """

    DECIDE = 10  #: frames noted between two looks
    RECENT = 30  #: frames the percentile is taken over
    MIN_PART = 1 / 3
    #: ... or, where few frames draw the room (an editor between edits), a look once
    #: :data:`SPARSE` have been noted over :data:`LOOK_S` seconds: it reacts within a second
    SPARSE = 3
    LOOK_S = 0.5

    def __init__(self, default: int):
        self.default = default
        self.pixels = default
        self._recent: deque[float] = deque(maxlen=self.RECENT)
        self._since = 0
        self._since_t = 0.0  # when the first frame since the last look was noted
        self._fixed: deque[float] = deque(maxlen=self.RECENT)  # frames without the room

    def note_fixed(self, frame_ms: float) -> None:
        """Note the work of a frame that showed something new but did not draw the room."""
        self._fixed.append(frame_ms)

    def fixed(self) -> float | None:
        """The median work of the recent frames noted by :meth:`note_fixed`; None if none."""
        return statistics.median(self._fixed) if self._fixed else None

    def p95(self) -> float:
        times = sorted(self._recent)
        return times[min(len(times) - 1, round(0.95 * (len(times) - 1)))] if times else 0.0

    def note(self, frame_ms: float, now: float | None = None) -> int | None:
        """Note a frame's work (at ``now``, ``time.perf_counter()``'s); the new pixel budget
        when it changes, else None.

        >>> b = Budget(100_000)  # four slow frames, a quarter of a second apart
        >>> [b.note(25.0, now=0.25 * i) for i in range(3)][-1] < 100_000
        True
        """
        now = time.perf_counter() if now is None else now
        self._recent.append(frame_ms)
        if self._since == 0:
            self._since_t = now
        self._since += 1
        if self._since < self.DECIDE and not (
                self._since >= self.SPARSE and now - self._since_t >= self.LOOK_S):
            return None
        self._since = 0
        tail = self.p95()
        pixels = self.pixels
        if tail > FRAME_MS * 0.95:
            least = int(self.default * self.MIN_PART)
            fixed = self.fixed()
            if fixed is None or fixed >= tail:
                part = max(0.67, FRAME_MS * 0.8 / tail)
            else:  # the room's part of the frame cut to what is left of 0.8 of it
                part = max(0.0, FRAME_MS * 0.8 - fixed) / (tail - fixed)
            pixels = max(least, int(pixels * min(0.9, part)))
        elif tail < FRAME_MS * 0.55 and len(self._recent) == self.RECENT:
            pixels = min(self.default, int(pixels * 1.15))
        if pixels == self.pixels:
            return None
        self.pixels = pixels
        self._recent.clear()  # what the old size took says little about the new
        return pixels


class GLUnavailable(RuntimeError):
    """No window with an OpenGL 3.3 core context could be opened."""


def gl_attributes() -> None:
    """Ask SDL for a 3.3 core, forward-compatible context (before ``set_mode``)."""
    pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MAJOR_VERSION, 3)
    pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MINOR_VERSION, 3)
    pygame.display.gl_set_attribute(pygame.GL_CONTEXT_PROFILE_MASK,
                                    pygame.GL_CONTEXT_PROFILE_CORE)
    pygame.display.gl_set_attribute(pygame.GL_CONTEXT_FORWARD_COMPATIBLE_FLAG, 1)
    pygame.display.gl_set_attribute(pygame.GL_DOUBLEBUFFER, 1)
    pygame.display.gl_set_attribute(pygame.GL_DEPTH_SIZE, 0)


def unbind_egl() -> None:
    """Leave no EGL context current on this thread, before SDL makes its GLX one.

    libglvnd keeps one current context per thread across EGL and GLX.  A
    headless renderer's EGL context (``render.headless_context``) stays
    current even after moderngl releases it, and then ``glXMakeCurrent``
    fails with BadAccess, which Xlib's default handler answers by ending the
    process without a word.  Where libEGL was never loaded there is nothing
    to unbind.
    """
    noload = getattr(os, "RTLD_NOLOAD", None)
    if noload is None:
        return
    try:
        egl = ctypes.CDLL("libEGL.so.1", mode=noload)
    except OSError:
        return
    egl.eglGetCurrentContext.restype = ctypes.c_void_p
    if not egl.eglGetCurrentContext():
        return
    egl.eglGetCurrentDisplay.restype = ctypes.c_void_p
    egl.eglMakeCurrent.argtypes = [ctypes.c_void_p] * 4
    egl.eglMakeCurrent(egl.eglGetCurrentDisplay(), None, None, None)


def internal_size(window: tuple[int, int], budget: int) -> tuple[int, int]:
    """The size the room is drawn at: the window's, scaled down to ``budget`` pixels.

    >>> internal_size((1280, 720), 640 * 360)
    (640, 360)
    >>> internal_size((800, 600), 10**7)
    (800, 600)
    """
    w, h = max(1, window[0]), max(1, window[1])
    if w * h <= budget:
        return (w, h)
    s = math.sqrt(budget / (w * h))
    return (max(1, int(w * s)), max(1, int(h * s)))


def _set_icon() -> None:
    """The window's icon, from ``assets/`` (before ``set_mode``: some systems take it only then)."""
    from anabasis.app.shell import assets

    icon = assets.icon()
    if icon is not None:
        pygame.display.set_icon(icon)


def fit_to_display(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` at least :data:`MIN_SIZE` and at most the desktop (a size saved on a
    larger display, or a bad one, never asks for a window the screen cannot hold)."""
    w, h = max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])
    try:
        most = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        return (w, h)
    if most[0] >= MIN_SIZE[0] and most[1] >= MIN_SIZE[1]:
        w, h = min(w, most[0]), min(h, most[1])
    return (w, h)


class Window:
    """The game's window, its GL context, and the offscreen target the room is drawn into."""

    def __init__(self, size: tuple[int, int] = (1280, 720), *, fullscreen: bool = False,
                 title: str = "Anabasis", vsync: bool = True):
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
            # SDL fell back to drawing nowhere: a player would get a game they cannot see
            pygame.display.quit()
            raise GLUnavailable("no display to open a window on (is DISPLAY set?); run under "
                                "Xvfb, or set SDL_VIDEODRIVER=offscreen to run unseen")
        #: drawn nowhere (SDL_VIDEODRIVER=offscreen, asked for): its size is no player's to keep
        self.unseen = driver in ("offscreen", "dummy")
        pygame.font.init()
        pygame.key.set_repeat(220, 90)
        _set_icon()
        gl_attributes()
        unbind_egl()
        flags = pygame.OPENGL | pygame.DOUBLEBUF | pygame.RESIZABLE
        self.windowed_size = fit_to_display(size)
        self.vsync = False
        try:
            if vsync:
                try:
                    pygame.display.set_mode(self.windowed_size, flags, vsync=1)
                    self.vsync = True
                except pygame.error:
                    # no vsync on this driver (Xvfb, some VMs): pace frames with a clock
                    pygame.display.set_mode(self.windowed_size, flags)
            else:
                pygame.display.set_mode(self.windowed_size, flags)
            pygame.display.set_caption(title)
            self.ctx = moderngl.create_context(require=330)
        except Exception as e:  # pygame.error, moderngl.Error, a driver without GL 3.3
            pygame.display.quit()
            raise GLUnavailable(
                f"no OpenGL 3.3 core window: {e} (try LIBGL_ALWAYS_SOFTWARE=1, "
                "or run under Xvfb)") from None
        renderer = self.ctx.info.get("GL_RENDERER", "")
        self.software = any(s in renderer.lower() for s in ("llvmpipe", "softpipe", "swrast"))
        self.pixel_budget = SOFTWARE_PIXELS if self.software else HARDWARE_PIXELS
        self.fullscreen = False
        self.budget = Budget(self.pixel_budget) if self.software else None
        # The room scaled up over the whole window, then the HUD blended only where it has
        # anything: on a software rasteriser every pixel of a pass costs.
        self._quad = self.ctx.program(vertex_shader=QUAD_VS, fragment_shader=UPSCALE_FS)
        self._vao = self.ctx.vertex_array(self._quad, [])
        self._set_uniforms(scene=0)  # its texture unit, the same every frame
        self._double = self.ctx.program(vertex_shader=QUAD_VS, fragment_shader=DOUBLE_FS)
        self._double["half_size"] = 2
        self._double_vao = self.ctx.vertex_array(self._double, [])
        self._half_tex = None  #: the room scaled up to half the window (see DOUBLE_FS)
        self._half_fbo = None
        self._half_fresh = False  #: the half-size target holds the room last drawn
        #: the room reaches the window in two steps (DOUBLE_FS): software GL, a small room
        self.two_step = False
        self._hud = self.ctx.program(vertex_shader=HUD_VS, fragment_shader=HUD_FS)
        self._hud["overlay"] = 1
        self._hud_vbo = None
        self._hud_vao = None
        #: what the HUD's vertex buffer holds: [(texture, its corners), ...], a run a texture
        self._hud_runs = None
        self._part = None  #: the (scene size, part drawn) the compositing uniforms are set for
        self._scene_new = True  #: the room was drawn since the window last showed it
        self._shown = None  #: the overlay version the window last showed
        self.dirty = True  #: the window must be drawn again whatever changed (resize, expose)
        self.presented = False  #: this frame's present drew the window (else it is unchanged)
        self.swapped = True  #: the last flip swapped the buffers (with vsync: it waited)
        self._last = None  #: the last present's (overlay, rects)
        self._scene_tex = None
        self._scene_fbo = None
        #: the room drawn sharp, at the window's own size, once it is at rest (a software
        #: rasteriser only: see :meth:`begin_sharp`)
        self._sharp_tex = None
        self._sharp_fbo = None
        self.sharp = False  #: the room last drawn is the sharp one
        #: counts the internal targets made: a room drawn into an earlier one is gone
        self.scene_serial = 0
        self.scene_viewport = (0, 0, 1, 1)  #: where in the target this frame's room is drawn
        self.size = pygame.display.get_window_size()
        self._fit()
        if fullscreen:
            self.toggle_fullscreen()

    # -- size -------------------------------------------------------------------

    def _fit(self) -> None:
        """Match the default framebuffer's viewport and the internal target to the window."""
        self.size = pygame.display.get_window_size()
        self.ctx.screen.viewport = (0, 0, *self.size)
        want = internal_size(self.size, self.pixel_budget)
        if self._scene_tex is None or self._scene_tex.size != want:
            # scaled up to the window smoothly; the HUD is drawn at full size anyway
            self._scene_tex, self._scene_fbo = self._target(
                self._scene_tex, self._scene_fbo, want, moderngl.LINEAR)
            self.scene_serial += 1
        self.scene_viewport = (0, 0, *want)
        half = ((self.size[0] + 1) // 2, (self.size[1] + 1) // 2)
        self.two_step = self.software and want[0] < half[0] and want[1] < half[1]
        if self.two_step and (self._half_tex is None or self._half_tex.size != half):
            self._half_tex, self._half_fbo = self._target(
                self._half_tex, self._half_fbo, half, moderngl.NEAREST)
            self._half_tex.repeat_x = self._half_tex.repeat_y = False
        self._half_fresh = False
        self.dirty = True

    def _target(self, tex, fbo, size: tuple[int, int], filtering: int):
        """A colour texture of ``size`` sampled with ``filtering``, and its framebuffer, made
        in place of ``tex`` and ``fbo`` (released; None when there were none)."""
        if fbo is not None:
            fbo.release()
            tex.release()
        tex = self.ctx.texture(size, 4)
        tex.filter = (filtering, filtering)
        return tex, self.ctx.framebuffer(color_attachments=[tex])

    def adapt_fixed(self, frame_ms: float) -> None:
        """Note the work (ms) of a frame that showed something new without drawing the room:
        what a frame costs whatever the internal size (see :class:`Budget`)."""
        if self.budget is not None:
            self.budget.note_fixed(frame_ms)

    def adapt(self, frame_ms: float) -> bool:
        """Dynamic resolution on a software rasteriser: note the work (ms) of a frame that
        drew the room, and fit the internal size to what recent frames took (see
        :class:`Budget`).  True when the internal size changed."""
        if self.budget is None:
            return False
        budget = self.budget.note(frame_ms)
        if budget is None or budget == self.pixel_budget:
            return False
        self.pixel_budget = budget
        self._fit()
        return True

    @property
    def scene_drawn(self) -> bool:
        """Whether the room was drawn this frame (since the window last showed it)."""
        return self._scene_new

    def resized(self) -> None:
        """Call on a window-size event."""
        self._fit()
        if not self.fullscreen:
            self.windowed_size = self.size

    def toggle_fullscreen(self) -> None:
        """F11: fullscreen (desktop resolution) and back."""
        try:
            pygame.display.toggle_fullscreen()
            self.fullscreen = not self.fullscreen
        except pygame.error:
            return  # some drivers (Xvfb) cannot; stay windowed
        self._fit()

    @property
    def scene_size(self) -> tuple[int, int]:
        return self._scene_tex.size

    # -- drawing ----------------------------------------------------------------

    def begin_scene(self, part: float = 1.0) -> moderngl.Framebuffer:
        """The offscreen target the room is drawn into, bound and cleared.

        ``part`` < 1 draws this frame into that fraction of the target's width
        and height (:attr:`scene_viewport`), scaled up the same by :meth:`present`:
        a frame that costs twice the usual (a cross-fade traces two slices) stays
        inside 1/60 s on a software rasteriser.
        """
        w, h = self._scene_fbo.size
        self.scene_viewport = (0, 0, max(1, round(w * part)), max(1, round(h * part)))
        self.sharp = False
        self._scene_fbo.use()
        self._scene_fbo.viewport = (0, 0, w, h)
        self._scene_fbo.clear(0.05, 0.06, 0.08, 1.0)
        self._scene_new = True
        return self._scene_fbo

    @property
    def sharp_size(self) -> tuple[int, int]:
        """The size the room is drawn at by :meth:`begin_sharp`: the window's, or as near it
        as :data:`HARDWARE_PIXELS` allows."""
        return internal_size(self.size, HARDWARE_PIXELS)

    def begin_sharp(self) -> moderngl.Framebuffer:
        """The target the room is drawn into once it is at rest, bound and cleared: at the
        window's own size (:attr:`sharp_size`), where :meth:`begin_scene`'s is the software
        budget's (2.5 times smaller each way at 1280 x 720).  Scaled up that far, the still
        picture a player reads the room from was soft: a blind player found "the whole
        scene blurry in every screenshot", its edges and dashed marks smeared.  One frame
        at full size costs some 30 ms on llvmpipe, paid once while nothing moves."""
        size = self.sharp_size
        if self._sharp_tex is None or self._sharp_tex.size != size:
            self._sharp_tex, self._sharp_fbo = self._target(
                self._sharp_tex, self._sharp_fbo, size, moderngl.LINEAR)
        self.scene_viewport = (0, 0, *size)
        self.sharp = True
        self._sharp_fbo.use()
        self._sharp_fbo.viewport = (0, 0, *size)
        self._sharp_fbo.clear(0.05, 0.06, 0.08, 1.0)
        self._scene_new = True
        return self._sharp_fbo

    def present(self, overlay: moderngl.Texture, rects=None, version=None,
                layers=()) -> bool:
        """Put the room (scaled up) and the HUD over it onto the window; False, drawing
        nothing, when nothing changed since the window last showed them.

        ``rects``: where the HUD has anything, ``(x, y, w, h)`` with rows top first
        (``Overlay.rects``; None: the whole window).  ``layers``: pictures of their own
        blended under the HUD, each ``(texture, (x, y, w, h), (its x, y, w, h in the
        texture))``, all of one texture (``Overlay.layers``).
        ``version``: what the overlay holds (``Overlay.version``; None: new every frame).
        Nothing changed when the room was not drawn since, the overlay's version is the one
        shown, and the window is not :attr:`dirty` (resized, exposed, a screenshot wanted);
        then :meth:`flip` swaps nothing and the window keeps showing the last frame.
        """
        self._last = (overlay, rects, layers)
        if not (self._scene_new or self.dirty or version is None or version != self._shown):
            self.presented = False
            return False
        self._shown = version
        self._compose(overlay, rects, layers)
        return True

    def _compose(self, overlay: moderngl.Texture, rects, layers=()) -> None:
        scene_new, self._scene_new = self._scene_new, False
        self.dirty = False
        self.presented = True
        self.ctx.disable(moderngl.BLEND)
        if self.sharp:
            self.ctx.screen.use()
            self._upscale(self._sharp_tex)
        elif self.two_step:
            if scene_new or not self._half_fresh:  # a new HUD alone keeps the last step
                self._half_fbo.use()
                self._upscale()
                self._half_fresh = True
            self.ctx.screen.use()
            self._half_tex.use(2)
            self._double_vao.render(moderngl.TRIANGLES, vertices=3)
        else:
            self.ctx.screen.use()
            self._upscale()
        if rects is None:
            rects = [(0, 0, *self.size)]
        self._draw_hud(overlay, list(rects), layers)

    def _draw_hud(self, overlay: moderngl.Texture, rects, layers) -> None:
        """Blend ``layers`` (``Overlay.layers``: (texture, place, source)), then the HUD's
        ``rects`` of ``overlay``: in one draw where one texture holds them all, as the
        Overlay's does, so that the slice map adds no draw of its own (what it costs on a
        software rasteriser is its pixels: about 0.2 ms a frame for the corner map's)."""
        quads = [*layers, *((overlay, rect, rect) for rect in rects)]
        if not quads:
            return
        runs: list[tuple[moderngl.Texture, list[float]]] = []
        for texture, (x, y, w, h), (sx, sy, _, _) in quads:
            tw, th = texture.size
            u0, v0, u1, v1 = sx / tw, sy / th, (sx + w) / tw, (sy + h) / th
            corners = [x, y, u0, v0, x + w, y, u1, v0, x, y + h, u0, v1,
                       x + w, y, u1, v0, x + w, y + h, u1, v1, x, y + h, u0, v1]
            if runs and runs[-1][0] is texture:
                runs[-1][1].extend(corners)
            else:
                runs.append((texture, corners))
        if runs != self._hud_runs:
            self._hud_runs = runs
            self._hud_vbo, self._hud_vao = self._vertices(
                self._hud_vbo, self._hud_vao, self._hud,
                [v for _, corners in runs for v in corners], "2f 2f", "corner", "source")
        self.ctx.enable(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self._hud["size"] = (float(self.size[0]), float(self.size[1]))
        first = 0
        for texture, corners in runs:
            texture.use(1)
            count = len(corners) // 4
            self._hud_vao.render(moderngl.TRIANGLES, vertices=count, first=first)
            first += count
        self.ctx.disable(moderngl.BLEND)

    def _vertices(self, vbo, vao, program, values: list[float], layout: str, *names):
        """``values`` (floats) written into ``vbo``, made anew (with its vertex array of
        ``program``, ``layout`` and ``names``) where there is none or it is too small:
        the (buffer, vertex array) that hold them."""
        data = array.array("f", values).tobytes()
        if vbo is None or vbo.size < len(data):
            if vbo is not None:
                vao.release()
                vbo.release()
            vbo = self.ctx.buffer(reserve=max(len(data), 4096), dynamic=True)
            vao = self.ctx.vertex_array(program, [(vbo, layout, *names)])
        vbo.write(data)
        return vbo, vao

    def _upscale(self, tex=None) -> None:
        """Scale the room up smoothly over the bound framebuffer (UPSCALE_FS), from ``tex``
        (the internal target where None)."""
        tex = self._scene_tex if tex is None else tex
        tex.use(0)
        part = (tex.size, self.scene_viewport[2:])
        if part != self._part:  # only when the internal size or the part drawn changes
            self._part = part
            (w, h), (vw, vh) = part
            self._set_uniforms(scene_part=(vw / w, vh / h),
                               scene_edge=((vw - 0.5) / w, (vh - 0.5) / h))
        self._vao.render(moderngl.TRIANGLES, vertices=3)

    def _set_uniforms(self, **values) -> None:
        for name, value in values.items():
            if name in self._quad:  # one the compiler optimised away is absent
                self._quad[name] = value

    def flip(self) -> None:
        """Show the frame drawn; nothing when :meth:`present` drew nothing new."""
        self.swapped = self.presented
        if self.presented:
            pygame.display.flip()
            self.presented = False

    def read_screen(self) -> pygame.Surface:
        """The window's default framebuffer as drawn (glReadPixels), as a pygame Surface."""
        if not self.presented and self._last is not None:
            # after a swap the back buffer's content is undefined: draw the frame again
            self._compose(*self._last)
        w, h = self.size
        data = self.ctx.screen.read(viewport=(0, 0, w, h), components=3, alignment=1)
        # GL rows run bottom first; pygame's top first
        return pygame.transform.flip(pygame.image.frombytes(data, (w, h), "RGB"), False, True)

    def close(self) -> None:
        pygame.display.quit()
