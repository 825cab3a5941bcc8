"""The operating system: the clock and who is running."""
