"""Files the engine writes for the user: written whole or not at all, never through a trap."""
