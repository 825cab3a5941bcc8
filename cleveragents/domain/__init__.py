"""Domain layer: pydantic models and pure rules. Imports only the stdlib, pydantic and ulid.

Each name is imported from its module (``from cleveragents.domain.errors import
NotFoundError``): the package re-exports nothing, so that importing one small module of the
domain (the vocabulary, the errors the tokenizer raises) loads no model and no pydantic, some
240 ms that `agents tokens count` would pay for nothing.
"""
