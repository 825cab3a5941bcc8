"""The sentence splitter's shortcut past inline code against its plain form: the next sentence
end is found first and the code before it skipped with `str.find` (`_next_end`), where the plain
form (`_sentence_ends_stepwise`, which a text with a footnote reference needs) looks at every
backtick run and every sentence end, inside code or not. Both must find the same ends."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.markdown import sentences

# Backtick runs of several lengths, sentence ends inside and outside code, abbreviations,
# initials, emphasis and brackets around an end, blanks of every kind.
TOKENS = [
    "`", "``", "```", "Word", "word", "A", "x", ". ", "! ", "? ", "...", ".", " ", "\t",
    "e.g. ", "etc. ", "Dr. ", "J. ", "5. ", "**", ".** ", "\"", ")", "]", "(", "é", "\xa0",
]  # fmt: skip
TEXT = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)


def plain_ends(text: str, refined: bool, start: int = 0) -> list[tuple[int, int]]:
    boundaries = sentences._boundaries(text, refined)
    return list(sentences._sentence_ends_stepwise(text, boundaries, refined, start))


@settings(max_examples=3000)
@given(TEXT, st.booleans())
@example("Run `a. B` now. Then", False)  # an end inside code, one after it
@example("Run ``a ` b. C`` x. Y", True)  # a shorter run inside longer code
@example("Run `a. B", False)  # unclosed: code to the end
def test_ends_past_inline_code_are_those_found_looking_at_every_run(
    text: str, refined: bool
) -> None:
    if refined and "[^" in text:
        return  # the plain form is the one used then
    assert list(sentences._sentence_ends(text, refined)) == plain_ends(text, refined)
    first = sentences.first_sentence_end(text, refined=refined)
    ends = plain_ends(text, refined)
    assert first == (ends[0][0] if ends else len(text))
