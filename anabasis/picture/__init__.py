"""The picture: the views and their turns, and the ray tracer that draws a slice.

``views`` (the three views, the camera, the turn between them), ``render``
(the GL renderer, headless or in the game's window).  It imports the engine
and the formats, and nothing of the game or the command line.
"""
