"""Conversation compaction: summaries, recovery measurement, message token counts."""
