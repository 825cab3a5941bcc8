"""Application layer: ports (interfaces named by role) and one service per capability."""
