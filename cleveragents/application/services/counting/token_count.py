"""A token count with how it was made: the one result `count_tokens` returns and every
driver prints (``agents tokens count --model``, the MCP tool, the Python API)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TokenCountReport:
    """`input_tokens`, and whether it is the provider's own figure (`exact`) or an estimate,
    with `method` saying how it was made (``o200k_base (the model's own tokenizer)``,
    ``cl100k_base estimate``, ``Anthropic's count_tokens endpoint``)."""

    input_tokens: int
    exact: bool
    method: str
    encoding: str | None
    model: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "estimated": not self.exact,
            "method": self.method,
            "encoding": self.encoding,
            "model": self.model,
        }
