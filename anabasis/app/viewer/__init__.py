"""Looking at a room, for play and the editor: the sight, the draw state, the animations."""
