"""Playing a room: the scene, its HUD, cues, hints, markers, what is open and its par's proof."""
