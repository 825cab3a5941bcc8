"""The tiktoken adapter loads real vocabularies offline, checked against the hashes it pins."""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext import openai_public

from cleveragents.adapters.tokens import offline_encodings, tiktoken_counter
from cleveragents.adapters.tokens.offline_encodings import OFFLINE_ENCODINGS, read_ranks
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter, load_encoding
from cleveragents.domain.errors import TokenCountingError, UnknownEncodingError


def _official_definition(name: str, ranks: dict[bytes, int]) -> dict[str, Any]:
    """tiktoken's own definition of `name`, with the download replaced by `ranks`."""
    constructor = openai_public.ENCODING_CONSTRUCTORS[name]
    original = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = lambda *_args, **_kwargs: ranks
    try:
        definition: dict[str, Any] = constructor()
    finally:
        openai_public.load_tiktoken_bpe = original
    return definition


@pytest.mark.parametrize("name", sorted(OFFLINE_ENCODINGS))
def test_pinned_hash_is_the_one_tiktoken_pins(name: str) -> None:
    source = inspect.getsource(openai_public.ENCODING_CONSTRUCTORS[name])
    pinned = re.findall(r'expected_hash="([0-9a-f]{64})"', source)
    assert pinned == [OFFLINE_ENCODINGS[name].sha256]


@pytest.mark.parametrize("name", sorted(OFFLINE_ENCODINGS))
def test_offline_encoding_equals_tiktokens_own_definition(name: str) -> None:
    encoding = load_encoding(name)
    official = _official_definition(name, encoding._mergeable_ranks)
    assert encoding._pat_str == official["pat_str"]
    assert encoding._special_tokens == official["special_tokens"]
    assert encoding.n_vocab == tiktoken.Encoding(**official).n_vocab


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("cl100k_base", "hello world", [15339, 1917]),
        ("o200k_base", "hello world", [24912, 2375]),
    ],
)
def test_known_token_ids(name: str, text: str, expected: list[int]) -> None:
    assert load_encoding(name).encode(text) == expected


def test_counts_on_real_source_differ_by_encoding() -> None:
    text = (Path(__file__).parent / "test_tiktoken_offline.py").read_text()
    cl100k = TiktokenCounter("cl100k_base").count(text)
    o200k = TiktokenCounter("o200k_base").count(text)
    assert cl100k > 0
    assert o200k > 0
    assert cl100k != o200k


def test_special_token_text_counts_as_plain_text() -> None:
    counter = TiktokenCounter()
    # As a special token it would be 1; as text it is several ordinary tokens.
    assert counter.count("<|endoftext|>") > 1


def test_unknown_encoding_is_a_usage_error() -> None:
    with pytest.raises(UnknownEncodingError, match="available offline: cl100k_base, o200k_base"):
        TiktokenCounter("p50k_base").count("x")


@pytest.mark.parametrize("tiktoken_cache", ["default", "off"])
def test_a_vocabulary_with_the_wrong_hash_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tiktoken_cache: str
) -> None:
    tampered = dataclasses.replace(OFFLINE_ENCODINGS["o200k_base"], name="o200k_tampered")
    tampered = dataclasses.replace(tampered, sha256="0" * 64)
    monkeypatch.setitem(OFFLINE_ENCODINGS, "o200k_tampered", tampered)
    if tiktoken_cache == "off":
        # tiktoken skips its own hash check when its cache is off; ours still runs.
        monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    else:
        monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken-cache"))
    with pytest.raises(TokenCountingError, match="cannot load the o200k_tampered vocabulary"):
        load_encoding("o200k_tampered", cache_dir=tmp_path)
    assert "o200k_tampered" not in tiktoken_counter._cache


@pytest.mark.parametrize("name", sorted(OFFLINE_ENCODINGS))
def test_the_ranks_are_those_tiktoken_reads_from_the_same_file(name: str) -> None:
    spec = OFFLINE_ENCODINGS[name]
    path = spec.vocabulary_path()
    ours = read_ranks(path, spec.sha256)
    assert list(ours.items()) == list(load_tiktoken_bpe(str(path), spec.sha256).items())


def test_a_file_that_is_not_a_vocabulary_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.tiktoken"
    path.write_bytes(b"IQ== 0\nIg==\n")  # the second token has no rank
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(ValueError, match="a token without its rank"):
        read_ranks(path, digest)
    with pytest.raises(ValueError, match="has SHA-256"):
        read_ranks(path, "0" * 64)


def test_gzipped_vocabulary_is_decompressed_once_into_the_cache(tmp_path: Path) -> None:
    spec = offline_encodings.OFFLINE_ENCODINGS["o200k_base"]
    path = spec.vocabulary_path(tmp_path)
    assert path.parent == tmp_path
    modified = path.stat().st_mtime_ns
    assert spec.vocabulary_path(tmp_path) == path
    assert path.stat().st_mtime_ns == modified
    path.write_bytes(b"corrupt")  # a damaged cache file is replaced, not trusted
    assert spec.vocabulary_path(tmp_path).read_bytes() != b"corrupt"
