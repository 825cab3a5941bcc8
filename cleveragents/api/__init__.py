"""The Python API: a driving adapter over the container and the services, as thin as the CLI.

The names are exported by the top-level package (``cleveragents.compact`` and so on, loaded on
first use); each lives in a module of its own here: `compaction`, `compression`, `tokens`,
`store`, `skeleton`, `budget`. `engines` builds the container the functions share when no store
is given.
"""
