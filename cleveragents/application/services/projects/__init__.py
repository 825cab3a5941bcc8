"""Projects: what every capability files its records under (imports, usage, prefixes,
compaction settings), and the context policy a plan starts from."""
