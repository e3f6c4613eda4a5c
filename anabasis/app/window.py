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
over 1/60 s (:meth:`Window.adapt`), and raises it again when they are quick.
"""

from __future__ import annotations

import ctypes
import math
import os

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

QUAD_VS = """
#version 330 core
out vec2 uv;
void main() {
    // one triangle that covers the screen: no vertex buffer needed
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
"""

COMPOSE_FS = """
#version 330 core
uniform sampler2D scene;    // the room, at the internal size, scaled up smoothly
uniform sampler2D overlay;  // the HUD at the window's size, rows top first (pygame's order)
uniform vec2 scene_part;    // the part of the scene texture drawn this frame (1, 1: all)
uniform vec2 scene_edge;    // that part less half a texel: no bleed from the undrawn rest
in vec2 uv;
out vec4 colour;
void main() {
    vec4 o = texture(overlay, vec2(uv.x, 1.0 - uv.y));
    vec3 room = texture(scene, min(uv * scene_part, scene_edge)).rgb;
    colour = vec4(mix(room, o.rgb, o.a), 1.0);
}
"""


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
    from anabasis.app import assets

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
        # one pass over the window puts the scaled room and the HUD together: on a
        # software rasteriser each full-window pass costs ~5 ms, so there is just one
        self._quad = self.ctx.program(vertex_shader=QUAD_VS, fragment_shader=COMPOSE_FS)
        self._vao = self.ctx.vertex_array(self._quad, [])
        self._set_uniforms(scene=0, overlay=1)  # texture units, the same every frame
        self._part = None  #: the (scene size, part drawn) the compositing uniforms are set for
        self._scene_tex = None
        self._scene_fbo = None
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
            if self._scene_fbo is not None:
                self._scene_fbo.release()
                self._scene_tex.release()
            self._scene_tex = self.ctx.texture(want, 4)
            # scaled up to the window smoothly; the HUD is drawn at full size anyway
            self._scene_tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self._scene_fbo = self.ctx.framebuffer(color_attachments=[self._scene_tex])
            self.scene_serial += 1
        self.scene_viewport = (0, 0, *want)

    def adapt(self, frame_ms: float) -> bool:
        """Dynamic resolution on a software rasteriser: fit the frame into 60 fps.

        ``frame_ms`` is the recent median frame time.  Over budget, the room
        is drawn at fewer pixels (down to half the default); well
        under, back up to the default.  True when the internal size changed.
        """
        if not self.software:
            return False
        budget = self.pixel_budget
        if frame_ms > FRAME_MS and budget > SOFTWARE_PIXELS // 2:
            budget = max(SOFTWARE_PIXELS // 2, int(budget * 0.8))
        elif frame_ms < FRAME_MS * 0.6 and budget < SOFTWARE_PIXELS:
            budget = min(SOFTWARE_PIXELS, int(budget * 1.2))
        if budget == self.pixel_budget:
            return False
        self.pixel_budget = budget
        self._fit()
        return True

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
        self._scene_fbo.use()
        self._scene_fbo.viewport = (0, 0, w, h)
        self._scene_fbo.clear(0.05, 0.06, 0.08, 1.0)
        return self._scene_fbo

    def present(self, overlay: moderngl.Texture) -> None:
        """Put the room (scaled up) and the HUD over it onto the window, in one pass."""
        self.ctx.screen.use()
        self.ctx.disable(moderngl.BLEND)
        self._scene_tex.use(0)
        overlay.use(1)
        part = (self._scene_tex.size, self.scene_viewport[2:])
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
        pygame.display.flip()

    def read_screen(self) -> pygame.Surface:
        """The window's default framebuffer as drawn (glReadPixels), as a pygame Surface."""
        w, h = self.size
        data = self.ctx.screen.read(viewport=(0, 0, w, h), components=3, alignment=1)
        # GL rows run bottom first; pygame's top first
        return pygame.transform.flip(pygame.image.frombytes(data, (w, h), "RGB"), False, True)

    def close(self) -> None:
        pygame.display.quit()
