"""Declarative prefix files (YAML, TOML) read into the domain's `PrefixSpec`."""
