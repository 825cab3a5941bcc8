"""Markdown Tier 2 deletes filler words from its kept sentences joined into one long text in a
pass per character that may come before a filler word (`_delete_filler_words`); the deletions
must be `_FILLER`'s, in one pass, on any text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.markdown import compressor

# Filler words, "rather than", what may come before a filler word (a space, a line break, the
# span character, brackets, the start) and what must not, blanks of every kind.
TOKENS = [
    "the", "a", "an", "rather", "than", "thank", "than1", "than_", "very", "just", "quite",
    "basically", "The", "A", "x", "é", " ", "  ", "\t", "\n", "\x1f", "\r", "\x0b", "\xa0",
    "(", "[", ")", ".", "-", "_", "(the ", "[a ", "\x1fthe ", "\nrather ", "rather than",
]  # fmt: skip
TEXT = st.lists(
    st.tuples(st.sampled_from(TOKENS), st.sampled_from(["", " ", "  "])), max_size=30
).map(lambda pairs: "".join(token + blank for token, blank in pairs))
# The same without tabs, other whitespace and non-ASCII text, which go to `_FILLER` itself,
# and with fewer words, so that "rather", a filler word and "than" often meet.
PLAIN = ["the", "a", "rather", "than", "x", "The", " ", "\n", "\x1f", "(", "[", ".", "-"]
PLAIN_TEXT = st.lists(
    st.tuples(st.sampled_from(PLAIN), st.sampled_from(["", " ", "  "])), max_size=30
).map(lambda pairs: "".join(token + blank for token, blank in pairs))


@settings(max_examples=2000)
@given(st.one_of(PLAIN_TEXT, TEXT))
@example("\nrather the than")  # the spaces' pass must come last
@example(" rather (the than")
def test_a_pass_per_character_before_a_filler_word_deletes_what_one_pass_does(text: str) -> None:
    assert compressor._delete_filler_words(text) == compressor._FILLER.sub("", text)


@settings(max_examples=500)
@given(PLAIN_TEXT)
def test_a_space_before_punctuation_goes_as_with_a_replace_per_mark(text: str) -> None:
    tidied = compressor._SPACE_RUN.sub(" ", text)
    for mark in ",;:.!?)":
        tidied = tidied.replace(" " + mark, mark)
    assert compressor._tidy_blanks(text) == tidied
