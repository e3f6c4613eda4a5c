"""The menus: the launcher, the keys screen, the settings, "make a room…", and what they share."""
