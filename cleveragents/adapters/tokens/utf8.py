"""UTF-8 facts about a Python string, which the token offsets are counted in."""

from __future__ import annotations


def utf8_length(text: str) -> int:
    """The length of `text` in UTF-8 bytes (a lone surrogate as the three bytes it would take;
    callers that need the tokenizer's view check `encodable` first)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", errors="surrogatepass"))


def encodable(text: str) -> bool:
    """Whether `text` is valid UTF-8 as it is: no lone surrogate, which the tokenizer mends
    before encoding (so its byte offsets would not be the text's)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def chars_within(text: str, limit: int) -> int:
    """How many whole characters of `text` its first `limit` UTF-8 bytes hold."""
    if text.isascii():
        return limit
    return len(text.encode("utf-8")[:limit].decode("utf-8", errors="ignore"))
