"""Token counting with tiktoken, offline."""
