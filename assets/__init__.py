"""Sounds, the window icon and the HUD font: package data, read by the game."""
