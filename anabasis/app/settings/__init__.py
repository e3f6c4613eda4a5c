"""What the player keeps and the game reads: the save file, the keymap, the campaign, the rooms."""
