"""Properties of the skeleton compressor (docs/skeleton-compressor.md) on generated fragments:
arrival order, the budget, the extreme ratios, output order and greedy maximality."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.plans.skeleton_compressor import SkeletonCompressorService
from cleveragents.domain.fragment import ContextFragment
from tests.skeleton_samples import exact_budget, frag


def rank_key(fragment: ContextFragment) -> tuple[float, str]:
    return (-fragment.relevance, fragment.fragment_id)


_fragment_ids = st.text(alphabet="abcAB0_-", min_size=1, max_size=4)
_relevances = st.one_of(
    st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0]),  # ties, so the tie-break gets exercised
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
)
_token_counts = st.one_of(st.integers(0, 5), st.integers(0, 2000))


@st.composite
def fragment_lists(draw: st.DrawFn, min_size: int = 0) -> list[ContextFragment]:
    rows = draw(
        st.lists(
            st.tuples(_fragment_ids, _relevances, _token_counts),
            min_size=min_size,
            max_size=12,
            unique_by=lambda row: row[0],
        )
    )
    return [frag(fragment_id, relevance, tokens) for fragment_id, relevance, tokens in rows]


_ratios = st.one_of(
    st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0]),
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
    st.integers(0, 1000).map(lambda n: n / 1000),
)
_PROPERTY_SETTINGS = settings(max_examples=150)
_service = SkeletonCompressorService()


@_PROPERTY_SETTINGS
@given(data=st.data(), fragments=fragment_lists(), ratio=_ratios)
def test_property_arrival_order_does_not_matter(
    data: st.DataObject, fragments: list[ContextFragment], ratio: float
) -> None:
    """Identical inputs in any order give identical output (kept tuple and metadata)."""
    shuffled = data.draw(st.permutations(fragments))
    first = _service.compress(fragments, ratio)
    second = _service.compress(shuffled, ratio)
    assert first.fragments == second.fragments
    assert first.metadata == second.metadata
    assert first.metadata.model_dump_json() == second.metadata.model_dump_json()


@_PROPERTY_SETTINGS
@given(fragments=fragment_lists(), ratio=_ratios)
def test_property_budget(fragments: list[ContextFragment], ratio: float) -> None:
    """With ``budget = floor(original_tokens * (1 - ratio))`` (exact arithmetic), and ``top`` the
    first fragment in ``(-relevance, fragment_id)`` order:

    * ``compressed_tokens <= budget``, or else the kept tuple is exactly ``(top,)`` (the top
      fragment is always kept; once it alone exceeds the budget nothing else can be added, not
      even a zero-token fragment, because the running total is already over the budget);
    * hence ``compressed_tokens <= max(budget, top.token_count)`` always;
    * ``compressed_tokens`` is the true sum of the kept fragments' token counts and
      ``original_tokens`` the true sum of all.
    """
    result = _service.compress(fragments, ratio)
    original = sum(f.token_count for f in fragments)
    budget = exact_budget(original, ratio)
    meta = result.metadata
    assert meta.original_tokens == original
    assert meta.compressed_tokens == sum(f.token_count for f in result.fragments)
    assert meta.ratio == ratio
    if not fragments:
        assert result.fragments == ()
        return
    top = min(fragments, key=rank_key)
    assert result.fragments[0] is top
    assert meta.compressed_tokens <= budget or result.fragments == (top,)
    assert meta.compressed_tokens <= max(budget, top.token_count)


@_PROPERTY_SETTINGS
@given(fragments=fragment_lists(min_size=1))
def test_property_ratio_zero_keeps_all_ratio_one_keeps_one(
    fragments: list[ContextFragment],
) -> None:
    ranked = tuple(sorted(fragments, key=rank_key))
    everything = _service.compress(fragments, 0.0)
    assert everything.fragments == ranked
    assert everything.metadata.compressed_tokens == everything.metadata.original_tokens
    one = _service.compress(fragments, 1.0)
    assert one.fragments == ranked[:1]
    assert one.metadata.compressed_tokens == ranked[0].token_count


@_PROPERTY_SETTINGS
@given(fragments=fragment_lists(), ratio=_ratios)
def test_property_output_order_and_source_ids(
    fragments: list[ContextFragment], ratio: float
) -> None:
    """Output is in (-relevance, fragment_id) order, a subsequence of the ranked input; the
    source decision ids are the kept fragments' decision ids in kept order, unique."""
    result = _service.compress(fragments, ratio)
    kept = list(result.fragments)
    assert kept == sorted(kept, key=rank_key)
    keys = [rank_key(f) for f in kept]
    assert len(set(keys)) == len(keys)  # strictly increasing: fragment ids are unique
    ranked = sorted(fragments, key=rank_key)
    kept_ids = {f.fragment_id for f in kept}
    assert [f for f in ranked if f.fragment_id in kept_ids] == kept
    decision_ids = result.metadata.source_decision_ids
    assert decision_ids == tuple(f.decision_id for f in kept)
    assert len(set(decision_ids)) == len(decision_ids)


@_PROPERTY_SETTINGS
@given(fragments=fragment_lists(min_size=1), ratio=_ratios)
def test_property_greedy_maximality(fragments: list[ContextFragment], ratio: float) -> None:
    """Below ratio 1.0, every skipped fragment would have pushed the running total (of the
    fragments kept before it in rank order) over the budget when it was considered; every kept
    fragment after the top one stayed within it."""
    if ratio == 1.0:
        return
    result = _service.compress(fragments, ratio)
    budget = exact_budget(sum(f.token_count for f in fragments), ratio)
    kept_ids = {f.fragment_id for f in result.fragments}
    ranked = sorted(fragments, key=rank_key)
    total = ranked[0].token_count
    assert ranked[0].fragment_id in kept_ids
    for fragment in ranked[1:]:
        if fragment.fragment_id in kept_ids:
            total += fragment.token_count
            assert total <= budget
        else:
            assert total + fragment.token_count > budget, fragment.fragment_id
    assert total == result.metadata.compressed_tokens
