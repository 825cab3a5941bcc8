"""The local proxy's use cases, with no HTTP in them: a provider request transformed for
forwarding (credentials redacted, large tool outputs stored and condensed, the conversation
compacted when it would not fit), each exchange recorded, and the figures summed."""
