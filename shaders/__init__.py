"""The ray tracer's GLSL: package data, read by ``anabasis.picture.render``."""
