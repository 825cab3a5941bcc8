"""Conversation transcripts in the formats people have: Anthropic Messages JSON, OpenAI Chat
Completions JSON and Claude Code session JSONL, read into and written from the neutral
`cleveragents.domain.transcript.Transcript`."""

from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec

__all__ = ["JsonTranscriptCodec"]
