"""compare_context_strategies: the same messages through every strategy, measured alike."""

from __future__ import annotations

from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recall import FactCategory
from cleveragents.application.services.compaction.strategy_comparison import (
    MASK_MIN_CHARS,
    ObservationMasking,
    StrategyComparison,
    compare_context_strategies,
)
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.domain.transcript import Message, Role, TextBlock, ToolCall, ToolResult
from tests.fakes import FakeTokenCounter

COUNTER = FakeTokenCounter()


def session(turns: int) -> list[Message]:
    messages: list[Message] = []
    for turn in range(turns):
        path = f"src/module_{turn}.py"
        messages += [
            Message(role=Role.USER, content=(TextBlock(text=f"request {turn}: fix {path}"),)),
            Message(
                role=Role.ASSISTANT,
                content=(
                    TextBlock(text="Editing, then testing."),
                    ToolCall(id=f"e{turn}", name="Edit", input={"file_path": path}),
                ),
            ),
            Message(role=Role.USER, content=(ToolResult(call_id=f"e{turn}", content="edited"),)),
            Message(
                role=Role.ASSISTANT,
                content=(
                    ToolCall(id=f"t{turn}", name="Bash", input={"command": f"pytest {turn}"}),
                ),
            ),
            Message(
                role=Role.USER,
                content=(ToolResult(call_id=f"t{turn}", content="test output " * 300),),
            ),
        ]
    return messages


SETTINGS = CompactionSettings(context_window=6_000, reserve_tokens=1_000, keep_recent_tokens=800)


def test_every_strategy_is_measured_on_the_same_messages() -> None:
    messages = session(8)
    comparison = StrategyComparison(COUNTER, DeterministicSummarizer())
    results = comparison.compare(messages, SETTINGS)
    by_name = {result.strategy: result for result in results}
    assert comparison.strategies == ("none", "deterministic", "observation-masking")
    assert list(by_name) == list(comparison.strategies)
    none, deterministic, masking = results
    assert len({r.tokens_before for r in results}) == 1
    assert none.tokens_after == none.tokens_before > SETTINGS.threshold
    assert not none.fits_window
    assert deterministic.tokens_after < masking.tokens_after < none.tokens_after
    assert deterministic.fits_window
    assert masking.fits_window
    assert all(r.valid for r in results)
    for result in results:  # every fact survives: the files, the commands, the request
        for category in FactCategory:
            assert result.recovery[category].missing == (), (result.strategy, category)
    assert none.recovery[FactCategory.FILES_MODIFIED].total == 8
    assert all(r.latency_s >= 0 for r in results)
    row = deterministic.as_dict()
    assert row["recovery"]["files_modified"] == {"recovered": 8, "total": 8, "share": 1.0}


def test_observation_masking_keeps_structure_and_recent_outputs() -> None:
    messages = session(4)
    masked = ObservationMasking(COUNTER).apply(messages, SETTINGS)
    assert len(masked) == len(messages)
    assert [m.role for m in masked] == [m.role for m in messages]
    outputs = [b for m in masked for b in m.content if isinstance(b, ToolResult)]
    assert outputs[-1].content == "test output " * 300  # the recent window is untouched
    assert outputs[1].content.startswith("[tool output omitted (observation masking):")
    assert outputs[0].content == "edited"  # shorter than a placeholder is worth
    assert len("edited") < MASK_MIN_CHARS


def test_latency_comes_from_the_clock_given() -> None:
    ticks = iter(range(100))
    results = compare_context_strategies(
        session(2),
        [ObservationMasking(COUNTER)],
        SETTINGS,
        COUNTER,
        clock=lambda: float(next(ticks)),
    )
    assert [r.latency_s for r in results] == [1.0]
