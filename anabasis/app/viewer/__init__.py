"""Looking at a room, for play and the editor: sight, draw state, camera, pixels, animations."""
