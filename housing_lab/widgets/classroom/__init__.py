"""Room pages: the teacher's projector page and each team's own page, over a room store."""
