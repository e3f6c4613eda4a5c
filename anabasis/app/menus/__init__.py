"""The menus: the launcher, the keys screen, and the two-column list they share."""
