"""Clubs: the people who play together, their seasons and their year (docs/clubs.md)."""
