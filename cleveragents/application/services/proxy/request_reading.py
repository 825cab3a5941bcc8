"""A request's JSON read once, keeping the text of each top-level field and of each message.

The proxy remembers its work by what the client sent: the text of each message, as the client
wrote it, is the key. Reading the body with `json.loads` and writing every message back to find
its key would cost a second pass over the whole conversation on every request; here the body
is walked with the standard decoder's own scanner, value by value, and each value's text is
the slice of the body it was read from.

A conversation grows at its end: when a request's conversation starts with the text of one
read recently (`RecentConversations`), the messages of that text are taken as read then, and
only the new ones are parsed.
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from cleveragents.domain.errors import InvalidInputError

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class MalformedRequestError(InvalidInputError):
    """The body is not a JSON object."""


@dataclass(slots=True)
class RawValue:
    """A JSON value and the text it was read from. `transformed` is free for the reader's
    caller to keep what it made of the value: an element taken from a recent conversation is
    the same object, and brings it along."""

    text: str
    value: Any
    transformed: Any = None


@dataclass(frozen=True, slots=True)
class ReadRequest:
    """The fields of a request object in order (a repeated name: its last value, in its first
    place, as `json.loads` keeps it), and the elements of the conversation field when it is a
    list (None otherwise: it is then an ordinary field)."""

    fields: dict[str, RawValue]
    conversation: list[RawValue] | None

    def value(self, name: str) -> Any:
        field = self.fields.get(name)
        return None if field is None else field.value


REMEMBERED_CONVERSATIONS = 16
"""Conversations whose last text is kept, to read only what is new in the next request."""


class RecentConversations:
    """The conversations read last (their array's text without its closing bracket, and its
    elements), the newest first. Safe to use from several threads."""

    def __init__(self, size: int = REMEMBERED_CONVERSATIONS) -> None:
        self._recent: deque[tuple[str, list[RawValue]]] = deque(maxlen=size)
        self._lock = threading.Lock()

    def longest_prefix(self, text: str, position: int) -> tuple[str, list[RawValue]] | None:
        """The longest conversation read before whose text `text` holds at `position`,
        followed by more elements."""
        with self._lock:
            recent = list(self._recent)
        best: tuple[str, list[RawValue]] | None = None
        for head, elements in recent:
            longer = best is None or len(head) > len(best[0])
            if longer and text.startswith(head, position) and _more(text, position + len(head)):
                best = (head, elements)
        return best

    def remember(self, head: str, elements: list[RawValue]) -> None:
        with self._lock:
            self._recent.appendleft((head, elements))


def read_request(
    body: bytes, conversation_field: str, recent: RecentConversations | None = None
) -> ReadRequest:
    """`body` read as a JSON object; `MalformedRequestError` when it is not one. The values of
    messages taken from `recent` are those read then: a caller that changes a value must
    change a copy."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedRequestError("the request body is not UTF-8 JSON") from None
    try:
        return _object(text, conversation_field, recent)
    except (ValueError, IndexError, RecursionError):
        raise MalformedRequestError("the request body is not JSON") from None


def _object(text: str, conversation_field: str, recent: RecentConversations | None) -> ReadRequest:
    position = _skip(text, 0)
    if text[position] != "{":
        raise MalformedRequestError("the request body is not a JSON object")
    fields: dict[str, RawValue] = {}
    conversation: list[RawValue] | None = None
    position = _skip(text, position + 1)
    if text[position] == "}":
        return _ended(text, position, fields, conversation)
    while True:
        name, position = _DECODER.raw_decode(text, position)
        if not isinstance(name, str):
            raise ValueError("a key that is not a string")
        position = _skip(text, position)
        if text[position] != ":":
            raise ValueError("no colon after a key")
        position = _skip(text, position + 1)
        start = position
        if name == conversation_field and text[position] == "[":
            conversation, position = _array(text, position, recent)
            fields[name] = RawValue(text[start:position], None)
        else:
            value, position = _DECODER.raw_decode(text, position)
            fields[name] = RawValue(text[start:position], value)
            if name == conversation_field:
                conversation = None
        position = _skip(text, position)
        if text[position] == "}":
            return _ended(text, position, fields, conversation)
        if text[position] != ",":
            raise ValueError("no comma between fields")
        position = _skip(text, position + 1)


def _array(
    text: str, position: int, recent: RecentConversations | None
) -> tuple[list[RawValue], int]:
    start_of_array = position
    elements: list[RawValue] = []
    known = recent.longest_prefix(text, position) if recent is not None else None
    if known is not None:
        head, read_before = known
        elements = list(read_before)
        position = _skip(text, _skip(text, position + len(head)) + 1)  # past the comma
    else:
        position = _skip(text, position + 1)
        if text[position] == "]":
            return elements, position + 1
    while True:
        start = position
        value, position = _DECODER.raw_decode(text, position)
        elements.append(RawValue(text[start:position], value))
        position = _skip(text, position)
        if text[position] == "]":
            if recent is not None:
                recent.remember(text[start_of_array:position], elements)
            return elements, position + 1
        if text[position] != ",":
            raise ValueError("no comma between elements")
        position = _skip(text, position + 1)


def _ended(
    text: str, position: int, fields: dict[str, RawValue], conversation: list[RawValue] | None
) -> ReadRequest:
    if _skip(text, position + 1) != len(text):
        raise ValueError("text after the object")
    return ReadRequest(fields, conversation)


def _more(text: str, position: int) -> bool:
    """Whether another element follows at `position` (a comma, after any space)."""
    after = _skip(text, position)
    return after < len(text) and text[after] == ","


def _skip(text: str, position: int) -> int:
    match = _SPACE.match(text, position)
    assert match is not None  # the pattern matches the empty string
    return match.end()
