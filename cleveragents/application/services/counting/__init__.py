"""Counting shared by the capabilities: the labelled fallback when the tokenizer fails."""
