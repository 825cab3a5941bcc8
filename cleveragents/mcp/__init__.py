"""The MCP server: the engine offered to an agent as tools, over stdio."""
