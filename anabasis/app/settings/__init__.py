"""What the player keeps between runs: the save file (progress, window, keys, sound)."""
