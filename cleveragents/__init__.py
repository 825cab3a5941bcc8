"""cleveragents: the context engine of an AI agent orchestrator."""

__version__ = "0.1.0"
