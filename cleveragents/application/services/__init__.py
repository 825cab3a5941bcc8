"""Application services: one per capability."""
