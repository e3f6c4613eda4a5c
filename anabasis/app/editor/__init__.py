"""The room editor: the scene, its 2D layer, and the draft being edited with its undo."""
