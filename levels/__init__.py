"""The tutorial levels, one text file each: package data, read by ``anabasis.formats.levels``."""
