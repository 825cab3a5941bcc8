"""Markdown Tier 2's shortcuts against the plain forms they stand for: each must give the same
output on any text. The plain forms are written here as they were before the shortcuts: each
protected span split off by the pattern, each piece of prose condensed on its own, every
sentence of a paragraph split off and tested."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.markdown import compressor
from cleveragents.application.services.artifact_compression.kinds.markdown.blocks import (
    looks_like_block,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.sentences import (
    split_sentences,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

# Words and marks each shortcut turns on: filler, phrases in any case, protected spans, the
# blank that stands for a span, blanks other than spaces, requirement words, digits, examples.
TOKENS = [
    "the", "a", "an", "rather", "than", "The", "A", "Rather", "quite", "x", "Done", "e.g.",
    "It is worth noting that", "in order to", "IN ORDER TO", "able to",
    "`x`", "`", "``", "](u)", "<a>", "http://h.x", "(", "[", ")", "\x1f", "\t", "\xa0",
    ",", ".", ". ", "!", "?", "MUST", "must", "shall", "1", "٣", "For example:", "#", "-",
]  # fmt: skip
PROSE = st.lists(st.sampled_from(TOKENS), max_size=40).map(
    lambda tokens: "".join(token + (" " if len(token) % 3 else "") for token in tokens)
)
TERMS = st.sampled_from([TaskTerms(), TaskTerms.from_task("retry budget"), TaskTerms(("x",))])


def plain_telegraph(sentence: str) -> str:
    """`_telegraph` without the substring tests and with a pass over each piece of prose."""
    parts = compressor._PROTECTED.split(sentence)
    for position in range(0, len(parts), 2):
        part = compressor._PHRASES.sub(compressor._replace_phrase, parts[position])
        if position == 0:
            part = compressor._FILLER_START.sub("", part.lstrip())
        part = compressor._FILLER.sub("", part)
        part = compressor._SPACE_BEFORE_PUNCT.sub("", part)
        parts[position] = compressor._SPACES.sub(" ", part)
    result = "".join(parts).strip()
    if sentence[:1].isupper() and result[:1].islower():
        result = result[0].upper() + result[1:]
    return result


def plain_condense(prefix: str, text: str, terms: TaskTerms) -> list[str]:
    """`_condense` with every sentence split off and tested."""
    if compressor._EXAMPLE.match(text) and not terms.matches(text):
        return []
    sentences = split_sentences(text)
    first = compressor._telegraph(sentences[0])
    lines = [prefix + (sentences[0] if looks_like_block(first) else first)]
    for sentence in sentences[1:]:
        short = (
            compressor._telegraph(sentence) if compressor._keep_sentence(sentence, terms) else ""
        )
        if short and looks_like_block(short):
            lines[-1] += " " + short
        elif short:
            lines.append(compressor._continuation(prefix) + short)
    return lines


@settings(max_examples=500)
@given(PROSE)
def test_the_split_at_backticks_makes_the_pieces_of_the_pattern(text: str) -> None:
    assert compressor._split_protected(text) == compressor._PROTECTED.split(text)


@settings(max_examples=1000)
@given(PROSE)
def test_one_pass_over_the_prose_between_spans_condenses_as_a_pass_over_each(text: str) -> None:
    sentence = text.strip()  # a sentence starts and ends with no blank
    assert compressor._telegraph(sentence) == plain_telegraph(sentence)


@settings(max_examples=500)
@given(PROSE, st.sampled_from(["", "- ", "  1. ", "> "]), TERMS)
def test_a_paragraph_condenses_as_when_each_sentence_is_tested(
    text: str, prefix: str, terms: TaskTerms
) -> None:
    text = " ".join(text.split(" "))
    if text.strip() == text and text:  # a paragraph's text, as `blocks` makes it
        assert compressor._condense(prefix, text, terms) == plain_condense(prefix, text, terms)


@settings(max_examples=500)
@given(st.lists(PROSE.map(str.strip), max_size=8))
def test_sentences_telegraphed_together_come_out_as_each_on_its_own(
    sentences: list[str],
) -> None:
    assert compressor._telegraph_all(sentences) == [
        compressor._telegraph(sentence) for sentence in sentences
    ]


# Phrases and their pieces, next to what may or may not border a phrase, in any case.
PHRASE_PARTS = [
    "in order to", "In Order To", "due to the fact that", "is able to", "are able to",
    "it is important to note that", "in the event that", "for the purpose of", "it is",
    "in", "order", "to", "able", "-", "_", "x", "1", " ", "  ", "\t", ".", "\u0130", "\u017f",
]  # fmt: skip
PHRASE_TEXT = st.lists(st.sampled_from(PHRASE_PARTS), max_size=20).map("".join)


@settings(max_examples=1000)
@given(st.one_of(PROSE, PHRASE_TEXT))
def test_phrases_found_in_the_lowered_text_are_the_patterns_matches(text: str) -> None:
    expected = compressor._PHRASES.sub(compressor._replace_phrase, text)
    assert compressor._shorten_phrases(text) == expected
