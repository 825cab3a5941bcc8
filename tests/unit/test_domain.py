"""Unit tests of the domain layer: policies, ratios, ids, fragments, metadata, errors."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from pydantic import ValidationError

from cleveragents.domain.errors import (
    CleverAgentsError,
    ConflictError,
    DuplicateFragmentError,
    InvalidIdError,
    InvalidInputError,
    InvalidPolicyError,
    InvalidRatioError,
    NotFoundError,
    PlanNotFoundError,
    ProjectAlreadyExistsError,
    ProjectNotFoundError,
)
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ids import new_ulid, parse_ulid
from cleveragents.domain.plan import Plan
from cleveragents.domain.policy import (
    DEFAULT_CONTEXT_WINDOW,
    DEFAULT_KEEP_RECENT_TOKENS,
    DEFAULT_RESERVE_TOKENS,
    DEFAULT_SUMMARY_TOKENS,
    ContextPolicy,
    ContextPolicyChanges,
    EffectiveSetting,
    check_window_budget,
)
from cleveragents.domain.project import Project
from cleveragents.domain.ratio import DEFAULT_SKELETON_RATIO, ratio_as_decimal, validate_ratio
from cleveragents.domain.skeleton import SkeletonMetadata
from cleveragents.domain.validation import build

VALID_ULID = "01HX3Z8Q9V6W2Y4K5M7N8P0R1S"

# --- ContextPolicy ----------------------------------------------------------------------------


def test_policy_defaults_are_unset_with_documented_effective_values() -> None:
    policy = ContextPolicy()
    assert policy.skeleton_ratio is None
    assert policy.context_window is None
    assert policy.effective_skeleton_ratio == 0.3 == DEFAULT_SKELETON_RATIO
    assert policy.effective_context_window == 200_000 == DEFAULT_CONTEXT_WINDOW
    assert policy.effective_reserve_tokens == 16_384 == DEFAULT_RESERVE_TOKENS
    assert policy.effective_keep_recent_tokens == 20_000 == DEFAULT_KEEP_RECENT_TOKENS
    assert policy.summary_tokens is None
    assert policy.effective_summary_tokens == 4_000 == DEFAULT_SUMMARY_TOKENS
    assert policy.check_coherent() is policy


def test_policy_effective_values_use_set_fields_including_zero() -> None:
    policy = ContextPolicy(
        skeleton_ratio=0.0, context_window=1000, reserve_tokens=0, keep_recent_tokens=5
    )
    assert policy.effective_skeleton_ratio == 0.0
    assert policy.effective_context_window == 1000
    assert policy.effective_reserve_tokens == 0
    assert policy.effective_keep_recent_tokens == 5


def test_overridden_by_takes_set_fields_of_the_override() -> None:
    project = ContextPolicy(skeleton_ratio=0.5, context_window=100_000, reserve_tokens=1000)
    override = ContextPolicy(skeleton_ratio=0.0, keep_recent_tokens=50)
    merged = project.overridden_by(override)
    assert merged.skeleton_ratio == 0.0  # 0.0 is set, not falsy-unset
    assert merged.context_window == 100_000
    assert merged.reserve_tokens == 1000
    assert merged.keep_recent_tokens == 50
    assert project.skeleton_ratio == 0.5  # unchanged: frozen value semantics


def test_overridden_by_empty_override_changes_nothing() -> None:
    project = ContextPolicy(skeleton_ratio=0.7, context_window=5000)
    assert project.overridden_by(ContextPolicy()) == project


def test_policy_updated_changes_only_what_the_changes_set() -> None:
    policy = ContextPolicy(skeleton_ratio=0.4, reserve_tokens=10)
    updated = policy.updated(ContextPolicyChanges(skeleton_ratio=None, context_window=900))
    assert updated.skeleton_ratio == 0.4
    assert updated.reserve_tokens == 10
    assert updated.context_window == 900
    assert policy.updated(ContextPolicyChanges()) == policy
    assert policy.updated(ContextPolicyChanges(skeleton_ratio=0.0)).skeleton_ratio == 0.0


def test_policy_changes_are_checked_as_they_are_made() -> None:
    assert ContextPolicyChanges().changes_nothing
    assert not ContextPolicyChanges(reserve_tokens=0).changes_nothing  # zero is a change
    with pytest.raises(InvalidRatioError):
        build(ContextPolicyChanges, skeleton_ratio=1.5)
    with pytest.raises(InvalidInputError, match="invalid context_window"):
        build(ContextPolicyChanges, context_window=0)
    with pytest.raises(InvalidInputError, match="invalid summary_tokens"):
        build(ContextPolicyChanges, summary_tokens=99)
    with pytest.raises(InvalidInputError, match="invalid colour"):
        build(ContextPolicyChanges, colour=1)
    with pytest.raises(ValidationError):
        ContextPolicyChanges(preview_tail_bytes=0)


def test_check_coherent_rejects_reserve_not_below_window() -> None:
    with pytest.raises(InvalidPolicyError) as caught:
        ContextPolicy(context_window=1000, reserve_tokens=1000).check_coherent()
    assert str(caught.value) == (
        "reserve_tokens (1000) must be less than context_window (1000); "
        "lower reserve_tokens or raise context_window"
    )


def test_a_window_below_the_default_reserve_scales_what_is_unset() -> None:
    policy = ContextPolicy(context_window=10_000).check_coherent()
    assert policy.effective_reserve_tokens == 2_500  # a quarter of the window
    assert policy.effective_keep_recent_tokens == 3_750  # half of what the reserve leaves
    with pytest.raises(InvalidPolicyError, match="reserve"):
        ContextPolicy(context_window=10_000, reserve_tokens=16_384).check_coherent()


def test_check_coherent_rejects_keep_recent_above_usable() -> None:
    policy = ContextPolicy(context_window=1000, reserve_tokens=100, keep_recent_tokens=901)
    with pytest.raises(InvalidPolicyError, match=r"; lower keep_recent_tokens$") as caught:
        policy.check_coherent()
    assert "(900)" in str(caught.value)


def test_check_coherent_accepts_keep_recent_and_summary_equal_to_usable() -> None:
    policy = ContextPolicy(
        context_window=1000, reserve_tokens=100, keep_recent_tokens=800, summary_tokens=100
    )
    assert policy.check_coherent() is policy


def test_check_coherent_rejects_summary_and_keep_recent_above_usable() -> None:
    policy = ContextPolicy(
        context_window=1000, reserve_tokens=100, keep_recent_tokens=800, summary_tokens=101
    )
    with pytest.raises(
        InvalidPolicyError, match=r"lower summary_tokens or keep_recent_tokens$"
    ) as caught:
        policy.check_coherent()
    message = str(caught.value)
    assert "summary_tokens (101) + keep_recent_tokens (800)" in message
    assert "(900)" in message


def test_the_default_summary_budget_adapts_to_the_room_a_set_one_must_fit() -> None:
    # keep_recent leaves 3,000 of the window: the default budget shrinks to that.
    policy = ContextPolicy(context_window=30_000, reserve_tokens=1000, keep_recent_tokens=26_000)
    assert policy.check_coherent().effective_summary_tokens == 3_000 < DEFAULT_SUMMARY_TOKENS
    assert (
        policy.updated(ContextPolicyChanges(summary_tokens=3000)).check_coherent().summary_tokens
        == 3000
    )
    with pytest.raises(InvalidPolicyError, match="summary_tokens \\(3001\\)"):
        policy.updated(ContextPolicyChanges(summary_tokens=3001)).check_coherent()
    full = ContextPolicy(context_window=1000, reserve_tokens=100, keep_recent_tokens=900)
    assert full.check_coherent().effective_summary_tokens == 100  # the least a summary gets


def test_effective_settings_give_each_value_and_where_it_comes_from() -> None:
    policy = ContextPolicy(context_window=50_000, artifact_retention_days=30)
    settings = policy.effective_settings()
    assert list(settings) == list(ContextPolicy.model_fields)  # every field, in their order
    assert settings["context_window"] == EffectiveSetting(50_000, "project")
    assert settings["reserve_tokens"] == EffectiveSetting(12_500, "default")  # a quarter of it
    assert settings["skeleton_ratio"] == EffectiveSetting(0.3, "default")
    # The default summary budget is the one the set window leaves room for.
    summary = EffectiveSetting(policy.effective_summary_tokens, "default")
    assert settings["summary_tokens"] == summary
    assert settings["artifact_retention_days"] == EffectiveSetting(30, "project")
    assert settings["artifact_retention_bytes"] == EffectiveSetting(None, "default")  # no default
    assert policy.effective_settings("plan")["context_window"].source == "plan"


def test_check_window_budget_checks_the_summary_budget_only_when_given() -> None:
    check_window_budget(1000, 100, 900)
    with pytest.raises(InvalidPolicyError, match=r"lower summary_tokens or keep_recent_tokens$"):
        check_window_budget(1000, 100, 900, 1)
    check_window_budget(1000, 100, 899, 1)


def test_check_window_budget_reports_keep_recent_alone_first() -> None:
    with pytest.raises(InvalidPolicyError, match=r"; lower keep_recent_tokens$"):
        check_window_budget(1000, 100, 901, 50)


def test_policy_errors_are_invalid_input() -> None:
    assert issubclass(InvalidPolicyError, InvalidInputError)
    assert issubclass(InvalidPolicyError, CleverAgentsError)


@pytest.mark.parametrize("ratio", [1.5, -0.1, math.nan, math.inf, True])
def test_policy_rejects_bad_ratio(ratio: object) -> None:
    with pytest.raises(ValidationError, match="skeleton ratio"):
        ContextPolicy(skeleton_ratio=ratio)


@pytest.mark.parametrize(
    "field", ["context_window", "keep_recent_tokens", "summary_tokens", "artifact_retention_days"]
)
def test_policy_rejects_non_positive_sizes(field: str) -> None:
    with pytest.raises(ValidationError):
        ContextPolicy.model_validate({field: 0})


def test_policy_rejects_negative_reserve_and_unknown_fields() -> None:
    with pytest.raises(ValidationError):
        ContextPolicy(reserve_tokens=-1)
    with pytest.raises(ValidationError):
        ContextPolicy.model_validate({"skeleton": 0.3})


# --- ratios -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [(0, 0.0), (1, 1.0), (0.0, 0.0), (1.0, 1.0), (0.3, 0.3), (Fraction(1, 4), 0.25)],
)
def test_validate_ratio_accepts_closed_interval(given: object, expected: float) -> None:
    value = validate_ratio(given)
    assert value == expected
    assert type(value) is float


@pytest.mark.parametrize(
    "ratio",
    [1.5, -0.1, -0.0000001, 1.0000000001, math.nan, math.inf, -math.inf, True, False, "0.5", None],
)
def test_validate_ratio_rejects(ratio: object) -> None:
    with pytest.raises(InvalidRatioError, match="skeleton ratio"):
        validate_ratio(ratio)


def test_invalid_ratio_error_is_value_error_and_domain_error() -> None:
    with pytest.raises(ValueError, match=r"\[0\.0, 1\.0\]") as caught:
        validate_ratio(2)
    assert isinstance(caught.value, CleverAgentsError)
    assert isinstance(caught.value, InvalidInputError)


@pytest.mark.parametrize(
    ("ratio", "expected"),
    [(0.7, "0.7"), (0.3, "0.3"), (0.0, "0"), (1.0, "1"), (0.1, "0.1"), (1e-05, "0.00001")],
)
def test_ratio_as_decimal_is_the_ratio_as_written(ratio: float, expected: str) -> None:
    assert ratio_as_decimal(ratio) == Decimal(expected)


def test_ratio_as_decimal_makes_point_seven_budget_exact() -> None:
    assert 1000 * (1 - 0.7) != 300  # the float trap
    assert 1000 * (1 - ratio_as_decimal(0.7)) == 300


# --- ids --------------------------------------------------------------------------------------


def test_new_ulid_is_canonical_and_parses() -> None:
    value = new_ulid()
    assert len(value) == 26
    assert value == value.upper()
    assert parse_ulid(value) == value
    assert new_ulid() != value


def test_parse_ulid_canonicalises_lower_case() -> None:
    assert parse_ulid(VALID_ULID.lower()) == VALID_ULID


@pytest.mark.parametrize(
    "value",
    [
        "",
        VALID_ULID[:-1],  # 25 characters
        VALID_ULID + "0",  # 27 characters
        "01HX3Z8Q9V6W2Y4K5M7N8P0RIS",  # I
        "01HX3Z8Q9V6W2Y4K5M7N8P0RLS",  # L
        "01HX3Z8Q9V6W2Y4K5M7N8P0ROS",  # O
        "01HX3Z8Q9V6W2Y4K5M7N8P0RUS",  # U
        "81HX3Z8Q9V6W2Y4K5M7N8P0R1S",  # first character above 7: more than 128 bits
        "Z1HX3Z8Q9V6W2Y4K5M7N8P0R1S",
        "01HX3Z8Q9V6W2Y4K5M7N8P0R1-",
        "01HX3Z8Q9V6W2Y 4K5M7N8P0R1",
    ],
)
def test_parse_ulid_rejects(value: str) -> None:
    with pytest.raises(InvalidIdError, match="26-character ULID"):
        parse_ulid(value, "plan id")


def test_parse_ulid_accepts_first_char_seven() -> None:
    assert parse_ulid("7ZZZZZZZZZZZZZZZZZZZZZZZZZ") == "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"


def test_parse_ulid_message_names_what_and_value() -> None:
    with pytest.raises(InvalidIdError, match=r"malformed plan id 'nope'"):
        parse_ulid("nope", "plan id")


# --- ContextFragment --------------------------------------------------------------------------


def _fragment(**overrides: object) -> ContextFragment:
    data: dict[str, object] = {
        "fragment_id": "f1",
        "decision_id": VALID_ULID,
        "relevance": 0.5,
        "token_count": 10,
    }
    data.update(overrides)
    return ContextFragment.model_validate(data)


def test_fragment_valid_and_canonicalises_decision_id() -> None:
    fragment = _fragment(decision_id=VALID_ULID.lower(), relevance=1, token_count=0)
    assert fragment.decision_id == VALID_ULID
    assert fragment.relevance == 1.0
    assert fragment.token_count == 0
    assert fragment.content == ""


@pytest.mark.parametrize(
    "overrides",
    [
        {"fragment_id": ""},
        {"fragment_id": "   "},
        {"fragment_id": "\t\n"},
        {"fragment_id": "x" * 201},
        {"relevance": -0.01},
        {"relevance": 1.01},
        {"relevance": math.nan},
        {"relevance": math.inf},
        {"token_count": -1},
        {"token_count": 1.5},
        {"decision_id": "not-a-ulid"},
        {"decision_id": "81HX3Z8Q9V6W2Y4K5M7N8P0R1S"},
        {"unexpected": 1},
    ],
)
def test_fragment_rejects(overrides: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        _fragment(**overrides)


def test_fragment_is_frozen() -> None:
    fragment = _fragment()
    with pytest.raises(ValidationError):
        fragment.relevance = 0.9  # type: ignore[misc]


# --- SkeletonMetadata -------------------------------------------------------------------------


def test_skeleton_metadata_is_frozen() -> None:
    meta = SkeletonMetadata(ratio=0.5, original_tokens=10, compressed_tokens=4)
    with pytest.raises(ValidationError):
        meta.compressed_tokens = 5  # type: ignore[misc]
    assert meta.compressed_tokens == 4


def test_skeleton_metadata_rejects_duplicate_source_ids() -> None:
    a = new_ulid()
    with pytest.raises(ValidationError, match="unique"):
        SkeletonMetadata(
            ratio=0.5, original_tokens=10, compressed_tokens=4, source_decision_ids=(a, a)
        )


@pytest.mark.parametrize("ratio", [1.5, math.nan, True])
def test_skeleton_metadata_validates_ratio(ratio: object) -> None:
    with pytest.raises(ValidationError):
        SkeletonMetadata(ratio=ratio, original_tokens=1, compressed_tokens=1)


def test_skeleton_metadata_rejects_negative_tokens() -> None:
    with pytest.raises(ValidationError):
        SkeletonMetadata(ratio=0.5, original_tokens=-1, compressed_tokens=0)
    with pytest.raises(ValidationError):
        SkeletonMetadata(ratio=0.5, original_tokens=1, compressed_tokens=-1)


@pytest.mark.parametrize(
    ("original", "compressed", "expected"),
    [(1000, 400, 40.0), (3, 1, 33.3), (3, 2, 66.7), (10, 10, 100.0), (0, 0, 100.0), (7, 0, 0.0)],
)
def test_retained_pct(original: int, compressed: int, expected: float) -> None:
    meta = SkeletonMetadata(ratio=0.3, original_tokens=original, compressed_tokens=compressed)
    assert meta.retained_pct == expected


def test_skeleton_metadata_round_trips_json() -> None:
    ids = (new_ulid(), new_ulid())
    meta = SkeletonMetadata(
        ratio=0.7, original_tokens=10, compressed_tokens=3, source_decision_ids=ids
    )
    again = SkeletonMetadata.model_validate_json(meta.model_dump_json())
    assert again == meta
    assert again.source_decision_ids == ids


# --- build ------------------------------------------------------------------------------------


def test_build_returns_the_model() -> None:
    project = build(Project, name="demo")
    assert isinstance(project, Project)
    assert project.name == "demo"


def test_build_turns_validation_error_into_one_line_invalid_input() -> None:
    with pytest.raises(InvalidInputError) as caught:
        build(
            ContextFragment, fragment_id="  ", decision_id=VALID_ULID, relevance=0.5, token_count=1
        )
    message = str(caught.value)
    assert "\n" not in message
    assert message == "invalid fragment_id: fragment_id must not be blank"
    assert isinstance(caught.value.__cause__, ValidationError)


def test_build_names_the_field_for_plain_value_errors() -> None:
    with pytest.raises(InvalidInputError, match=r"^invalid name: invalid project name 'has sp"):
        build(Project, name="has space")
    with pytest.raises(InvalidInputError, match=r"^invalid relevance: "):
        build(ContextFragment, fragment_id="f", decision_id=VALID_ULID, relevance=2, token_count=1)


def test_build_re_raises_domain_errors_raised_inside_validators() -> None:
    with pytest.raises(InvalidIdError, match=r"^malformed decision id 'bad'") as bad_id:
        build(ContextFragment, fragment_id="f", decision_id="bad", relevance=0.5, token_count=1)
    assert isinstance(bad_id.value.__cause__, ValidationError)
    with pytest.raises(InvalidRatioError, match=r"^skeleton ratio must be within") as bad_ratio:
        build(ContextPolicy, skeleton_ratio=1.5)
    assert "\n" not in str(bad_ratio.value)


def test_build_reports_only_the_first_problem() -> None:
    with pytest.raises(InvalidInputError) as caught:
        build(ContextFragment, fragment_id="", decision_id="bad", relevance=5, token_count=-1)
    assert str(caught.value).startswith("invalid fragment_id:")
    assert "\n" not in str(caught.value)


# --- Project and Plan -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a", "demo-1", "x.y_z", "9lives", "a" * 100])
def test_project_name_valid(name: str) -> None:
    assert Project(name=name).name == name


@pytest.mark.parametrize("name", ["", "-lead", ".hidden", "has space", "a" * 101, "ü"])
def test_project_name_invalid(name: str) -> None:
    with pytest.raises(ValidationError, match="invalid project name"):
        Project(name=name)


def test_plan_accumulated_context_is_inherited_then_own() -> None:
    inherited = _fragment(fragment_id="i")
    own = _fragment(fragment_id="o", decision_id=new_ulid())
    plan = Plan(
        project_id=new_ulid(), title="t", fragments=(own,), inherited_fragments=(inherited,)
    )
    assert plan.accumulated_context == (inherited, own)
    assert plan.has_fragment("i")
    assert plan.has_fragment("o")
    assert not plan.has_fragment("x")


def test_plan_title_must_not_be_empty() -> None:
    with pytest.raises(ValidationError):
        Plan(project_id=new_ulid(), title="")


# --- errors -----------------------------------------------------------------------------------


def test_error_hierarchy() -> None:
    assert issubclass(InvalidRatioError, ValueError)
    assert issubclass(InvalidRatioError, CleverAgentsError)
    assert issubclass(InvalidRatioError, InvalidInputError)
    assert issubclass(InvalidIdError, InvalidInputError)
    assert issubclass(InvalidIdError, ValueError)
    assert issubclass(ProjectNotFoundError, NotFoundError)
    assert issubclass(PlanNotFoundError, NotFoundError)
    assert issubclass(NotFoundError, LookupError)
    assert issubclass(NotFoundError, CleverAgentsError)
    assert issubclass(ProjectAlreadyExistsError, ConflictError)
    assert issubclass(DuplicateFragmentError, ConflictError)
    assert issubclass(ConflictError, CleverAgentsError)
    assert not issubclass(ConflictError, ValueError)


def test_error_messages_and_attributes() -> None:
    missing = ProjectNotFoundError("demo")
    assert missing.name == "demo"
    assert "unknown project 'demo'" in str(missing)
    plan_missing = PlanNotFoundError(VALID_ULID)
    assert plan_missing.plan_id == VALID_ULID
    assert VALID_ULID in str(plan_missing)
    exists = ProjectAlreadyExistsError("demo")
    assert "'demo' already exists" in str(exists)
    duplicate = DuplicateFragmentError(VALID_ULID, "f1")
    assert duplicate.fragment_id == "f1"
    assert duplicate.plan_id == VALID_ULID
    assert str(duplicate).endswith("choose another fragment_id")
    for error in (missing, plan_missing, exists, duplicate):
        assert "\n" not in str(error)


def test_the_tiered_modes_former_name_still_reads_as_tiered() -> None:
    from cleveragents.domain.artifact import CompressionMode

    assert CompressionMode("seed") is CompressionMode.TIERED
    assert [mode.value for mode in CompressionMode] == ["tiered", "smart"]
    with pytest.raises(ValueError, match="'fast' is not a valid CompressionMode"):
        CompressionMode("fast")
