"""The shell every screen runs in: the frame loop, the scene protocol, the window, overlay, sound.

It imports no scene: which scene follows which is :mod:`anabasis.app.routes`'s.
"""
