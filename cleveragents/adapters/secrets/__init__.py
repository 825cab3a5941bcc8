"""Secret scanners: the built-in pattern scanner and, optionally, detect-secrets."""
