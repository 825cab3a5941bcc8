"""Files the user names for the engine to read: read whole but never past a limit, and
TOML's nesting bounded before a parser spends memory on it."""
