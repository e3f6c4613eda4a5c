"""The GLSL: the ray tracer's (``slice.*``, read by ``anabasis.picture.render``) and the
window's own passes (``window_*``, read by ``anabasis.app.shell.window``): package data."""
