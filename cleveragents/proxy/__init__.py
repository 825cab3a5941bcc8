"""The local proxy for the Anthropic and OpenAI APIs: a driving adapter, like the CLI and the
MCP server, that puts the engine in front of an unchanged agent (`agents proxy serve`).

It needs the ``proxy`` extra (Starlette, uvicorn, httpx); this package's own modules import
them, so this file imports nothing.
"""
