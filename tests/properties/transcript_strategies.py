"""Valid transcripts, generated: for the compactor's property test and for the integration test
that compacts them with the real tokenizer and writes them in every format."""

from __future__ import annotations

from hypothesis import strategies as st

from cleveragents.domain.transcript import Message, Role, TextBlock, ToolResult
from tests.compactor_samples import assistant, call, user

WORDS = st.lists(
    st.sampled_from(["fix", "the", "test", "file", "src/app.py", "error"]), max_size=40
)


@st.composite
def transcripts(draw: st.DrawFn) -> list[Message]:
    """Valid transcripts: turns of user text, then assistant steps with 0-3 parallel calls
    answered (ok, failed, or interrupted) in one or several messages; the last step may end
    with calls still running."""
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(Message(role=Role.SYSTEM, content=(TextBlock(text="rules"),)))
    next_id = 0
    for _ in range(draw(st.integers(1, 6))):
        messages.append(user(" ".join(draw(WORDS)) or "go"))
        for _ in range(draw(st.integers(0, 3))):
            calls = []
            for _ in range(draw(st.integers(0, 3))):
                calls.append(call(f"t{next_id}", " ".join(draw(WORDS))))
                next_id += 1
            messages.append(assistant(" ".join(draw(WORDS)), *calls))
            if not calls:
                continue
            outcomes = [
                draw(st.sampled_from(["ok", "failed", "[Request interrupted by user]"]))
                for _ in calls
            ]
            blocks = [
                ToolResult(call_id=c.id, content=o, is_error=o != "ok")
                for c, o in zip(calls, outcomes, strict=True)
            ]
            if draw(st.booleans()):
                messages.append(Message(role=Role.USER, content=tuple(blocks)))
            else:
                messages += [Message(role=Role.USER, content=(b,)) for b in blocks]
    if draw(st.booleans()):
        messages.append(assistant("still working", call(f"t{next_id}")))
    return messages
