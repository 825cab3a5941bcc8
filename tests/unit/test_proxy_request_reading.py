"""Reading a request once, keeping each message's text: the same values as `json.loads`,
whether the conversation is read whole or from where a recent one ended."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.proxy.request_reading import (
    MalformedRequestError,
    RecentConversations,
    read_request,
)

_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_messages = st.lists(st.dictionaries(st.text(max_size=8), _values, max_size=4), max_size=6)


def _body(fields: dict[str, Any], messages: list[Any], indent: int | None) -> bytes:
    return json.dumps({**fields, "messages": messages}, indent=indent).encode()


@given(
    fields=st.dictionaries(
        st.text(max_size=8).filter(lambda n: n != "messages"), _values, max_size=4
    ),
    messages=_messages,
    more=_messages,
    indent=st.sampled_from([None, 2]),
)
def test_the_values_are_those_json_loads_reads(
    fields: dict[str, Any], messages: list[Any], more: list[Any], indent: int | None
) -> None:
    recent = RecentConversations()
    for conversation in (messages, messages + more):
        body = _body(fields, conversation, indent)
        read = read_request(body, "messages", recent)
        expected = json.loads(body)
        assert read.conversation is not None
        assert [element.value for element in read.conversation] == expected["messages"]
        assert [json.loads(element.text) for element in read.conversation] == expected["messages"]
        assert {name: read.value(name) for name in fields} == fields
        assert list(read.fields) == list(expected)


def test_a_conversation_that_is_not_a_list_is_an_ordinary_field() -> None:
    read = read_request(b'{"input": "hello", "model": "m"}', "input")
    assert read.conversation is None
    assert read.value("input") == "hello"


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"[]",
        b'{"messages": [1, 2}',
        b'{"a": 1} trailing',
        b'{"a" 1}',
        b"\xff\xfe{}",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    ],
)
def test_what_is_not_a_json_object_is_refused(body: bytes) -> None:
    with pytest.raises(MalformedRequestError):
        read_request(body, "messages", RecentConversations())
