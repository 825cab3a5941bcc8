"""The `agents` command line: a driving adapter above the container.

Modules here import only Typer at import time; everything heavy (SQLAlchemy, tiktoken, pydantic
models) is imported inside the commands, so `agents --help` starts fast.
"""
