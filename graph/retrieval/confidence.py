"""The confidence threshold of a relevant passage (a leaf: the package and its modules share it)."""

MIN_CONFIDENCE = 0.5
"""Seed 003: below this the answer says no relevant document was found."""
