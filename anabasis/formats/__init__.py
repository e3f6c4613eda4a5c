"""The formats: the level text, room codes, the shipped levels, and SOURCE names.

``levelfile`` (the text format), ``codes`` (room codes), ``levels`` (the
seven tutorial levels), ``source`` (a level number, file or code).  They
import the engine and nothing above it.
"""
