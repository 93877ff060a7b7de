"""The Teach page: lessons, the student view, exercise sets, handouts."""
