"""Smart mode for JSON: `JsonCompressor.fit` keeps the output valid JSON at any budget and uses most
of it, counted with the real tokenizer.

Real data: the GitHub API fixtures of octokit/fixtures (MIT) in `../shared/corpus/json/` (the
budgets are shares of each file's count: nothing is tuned to them) and
`tests/data/github-labels-excerpt.json`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.json.ladder import ladder
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import Positions
from cleveragents.application.services.artifact_compression.kinds.json.positions import (
    parse_with_positions,
)
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import render
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.conftest import TEST_DATA, corpus_files
from tests.json_samples import key_paths

JSON_FILES = [
    *corpus_files("json", "*.json"),
    TEST_DATA / "github-labels-excerpt.json",
]
SHARES = (0.02, 0.1, 0.3, 0.5, 0.7, 0.9)
COUNTER = TiktokenCounter("cl100k_base")
COMPRESSOR = JsonCompressor()
NO_TERMS = TaskTerms()
HANDLES = Handles()
ITEMS_MARKER = re.compile(r"^… (\d+) items? omitted \((lines? \d+(?:-\d+)?[^)]*)\)$")
KEYS_MARKER = re.compile(r"^(\d+) keys? omitted \((lines? \d+(?:-\d+)?[^)]*)\)$")
CUT_STRING = re.compile(r"… \((\d+) chars omitted\)$")


def fit(text: str, budget: int, terms: TaskTerms = NO_TERMS, handles: Handles = HANDLES) -> str:
    out = COMPRESSOR.fit(text, terms, budget, COUNTER, handles)
    assert out is not None
    assert out.tokens == COUNTER.count(out.text)  # the count it hands back is exact
    return out.text


def strings(value: object) -> list[str]:
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return [value] if isinstance(value, str) else []


def is_whole(out: str, text: str) -> bool:
    return bool(json.loads(out) == json.loads(text))


# --- real data --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda path: path.name)
@pytest.mark.parametrize("share", SHARES)
def test_real_json_parses_and_uses_the_budget(path: Path, share: float) -> None:
    text = path.read_text(encoding="utf-8")
    budget = max(1, int(COUNTER.count(text) * share))
    out = fit(text, budget)
    json.loads(out)
    tokens = COUNTER.count(out)
    assert tokens <= budget
    # The whole document in less is the best answer there is; and below 100 tokens one
    # marker is a large share of the budget.
    if not is_whole(out, text) and budget >= 100:
        assert tokens >= 0.85 * budget


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda path: path.name)
def test_real_json_keeps_every_key_path_while_the_budget_allows(path: Path) -> None:
    """Whatever the budget, as long as it holds every key path once (the first new-shape
    level, with strings at their shortest) and the few percent the search leaves unused,
    every key path is shown."""
    text = path.read_text(encoding="utf-8")
    value, spans = parse_with_positions(text)
    survey = Survey(value, NO_TERMS)
    lines = Positions(text, spans)
    pruner = Pruner(survey, lines, HANDLES, pretty=True)
    coverage = ladder(survey)[2]
    everything = coverage.detail(coverage.high())
    needed = COUNTER.count(render(pruner.build(everything).value, pretty=True))
    for budget in (int(needed * 1.1), needed + 300, (needed + COUNTER.count(text)) // 2):
        assert key_paths(json.loads(text)) <= key_paths(json.loads(fit(text, budget)))


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda path: path.name)
def test_real_json_is_deterministic(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    budget = COUNTER.count(text) // 4
    assert fit(text, budget) == fit(text, budget)


def test_a_task_keeps_the_matching_item_of_real_data() -> None:
    text = (TEST_DATA / "github-labels-excerpt.json").read_text(encoding="utf-8")
    budget = COUNTER.count(text) // 3
    terms = TaskTerms.from_task("check the X-GitHub-Request-Id header")
    assert "X-GitHub-Request-Id" in json.loads(fit(text, budget, terms))["rawHeaders"]


# --- arrays -----------------------------------------------------------------------------------


def records(count: int, **overrides: dict[str, object]) -> list[dict[str, object]]:
    items: list[dict[str, object]] = [
        {"id": index, "name": f"record {index}", "state": "open", "score": index * 7}
        for index in range(count)
    ]
    for index, extra in overrides.items():
        items[int(index.removeprefix("at"))].update(extra)
    return items


def test_first_and_last_items_are_kept_and_omitted_runs_marked_with_their_lines() -> None:
    items = records(400)
    text = json.dumps({"items": items}, indent=2)
    out = fit(text, COUNTER.count(text) // 10)
    kept = json.loads(out)["items"]
    assert kept[0] == items[0]
    assert kept[-1] == items[-1]
    markers = [item for item in kept if isinstance(item, str)]
    assert markers
    lines = text.split("\n")
    shown = sum(1 for item in kept if isinstance(item, dict))
    omitted = 0
    for marker in markers:
        match = ITEMS_MARKER.match(marker)
        assert match, marker
        omitted += int(match.group(1))
        first, last = map(int, re.findall(r"\d+", match.group(2)))
        # The range is exactly the omitted items' lines: an item opens it, one closes it.
        assert lines[first - 1].strip() == "{"
        assert lines[last - 1].strip() in ("},", "}")
        assert (last - first + 1) == int(match.group(1)) * 6
    assert shown + omitted == len(items)


def test_the_marker_names_the_stored_artifact() -> None:
    text = json.dumps(list(range(2000)))
    out = fit(text, 200, handles=Handles("sha256:abc"))
    marker = next(item for item in json.loads(out) if isinstance(item, str))
    assert re.fullmatch(r"… \d+ items omitted \(line 1 of sha256:abc\)", marker)


def test_items_of_a_new_shape_are_kept_before_more_of_the_same() -> None:
    items = records(300, at150={"labels": [{"name": "bug", "color": "f00"}]}, at200={"x": None})
    text = json.dumps(items, indent=2)
    out = json.loads(fit(text, COUNTER.count(text) // 8))
    assert items[150] in out
    assert items[200] in out
    assert key_paths(items) <= key_paths(out)


def test_a_kind_of_value_not_seen_before_is_a_new_shape() -> None:
    items: list[object] = [{"closed_at": None, "id": index} for index in range(200)]
    items[120] = {"closed_at": "2024-05-01T10:00:00Z", "id": 120}
    text = json.dumps(items)
    assert items[120] in json.loads(fit(text, 150))


def test_items_that_mention_the_task_are_kept_first() -> None:
    items = records(500, at321={"name": "the needle record"})
    text = json.dumps(items, indent=2)
    budget = COUNTER.count(text) // 20
    terms = TaskTerms.from_task("find the needle")
    out = fit(text, budget, terms)
    assert items[321] in json.loads(out)
    assert items[321] not in json.loads(fit(text, budget))


def test_a_task_never_turns_json_into_packed_lines() -> None:
    items = records(300, at10={"name": "needle"}, at20={"name": "needle"}, at30={"name": "needle"})
    text = json.dumps(items, indent=2)
    for budget in (40, 200, 1000):
        out = fit(text, budget, TaskTerms.from_task("needle record"))
        json.loads(out)
        assert COUNTER.count(out) <= budget


def test_arrays_of_scalars_get_a_string_marker() -> None:
    text = json.dumps({"values": list(range(10_000))})
    out = json.loads(fit(text, 300))
    values = out["values"]
    assert values[0] == 0
    assert values[-1] == 9999
    assert any(isinstance(item, str) and ITEMS_MARKER.match(item) for item in values)


# --- strings, keys, layout --------------------------------------------------------------------


def test_long_strings_are_cut_with_an_in_string_marker() -> None:
    body = "lorem ipsum dolor sit amet " * 400
    text = json.dumps({"title": "short", "body": body}, indent=2)
    out = json.loads(fit(text, 500))
    assert out["title"] == "short"
    match = CUT_STRING.search(out["body"])
    assert match
    head = out["body"][: match.start()]
    assert body.startswith(head)
    assert len(head) + int(match.group(1)) == len(body)


def test_keys_go_last_with_one_marker_member_per_object() -> None:
    document = {
        "meta": {"version": 3},
        "table": {f"key{index:05}": {"a": index, "b": "x" * 20} for index in range(3000)},
    }
    text = json.dumps(document, indent=2)
    out = json.loads(fit(text, 400))
    assert set(out) == {"meta", "table"}
    table = out["table"]
    assert isinstance(table, dict)
    marker = table["…"]
    match = KEYS_MARKER.match(marker)
    assert match
    assert len(table) - 1 + int(match.group(1)) == 3000
    assert next(iter(table)) == "key00000"


def test_the_root_skeleton_survives_a_tiny_budget() -> None:
    document = {name: list(range(500)) for name in ("alpha", "beta", "gamma", "delta")}
    text = json.dumps(document, indent=2)
    for budget in (40, 60, 120):
        out = json.loads(fit(text, budget))
        assert list(out) == list(document)


def test_below_the_skeleton_the_root_marker_then_nothing() -> None:
    text = json.dumps([{"id": index, "name": "n" * 30} for index in range(100)], indent=2)
    out = json.loads(fit(text, 12))
    assert isinstance(out, list)
    assert len(out) == 1
    assert "100 items omitted" in out[0]
    assert COMPRESSOR.fit(text, NO_TERMS, 1, COUNTER, HANDLES) is None


def test_layout_follows_the_input() -> None:
    items = records(300)
    pretty = fit(json.dumps(items, indent=2), 1500)
    assert pretty.startswith("[\n  {\n    ")
    compact = fit(json.dumps(items, separators=(",", ":")), 1500)
    assert "\n" not in compact
    assert compact.startswith('[{"id":0,')


def test_a_pretty_document_that_fits_without_its_whitespace_is_returned_whole() -> None:
    items = records(50)
    text = json.dumps(items, indent=2)
    compact = json.dumps(items, separators=(",", ":"))
    out = fit(text, COUNTER.count(compact) + 5)
    assert out == compact


def test_non_ascii_is_kept_as_it_is() -> None:
    text = json.dumps([{"name": f"café {index}", "city": "Zürich"} for index in range(300)])
    out = fit(text, 300)
    assert "café 0" in out
    assert "\\u00e9" not in out


def test_invalid_json_is_left_to_the_line_packer() -> None:
    for text in ("{", "[1,]", '{"a": 1} trailing', "{'a': 1}", "[" * 50_000 + "]" * 50_000):
        assert COMPRESSOR.fit(text, NO_TERMS, 10, COUNTER, HANDLES) is None


def test_a_layout_of_its_own_gets_its_lines_from_the_positions() -> None:
    """Short arrays on one line (as Prettier writes them): the lines are not those of the
    usual pretty layout, so the markers' lines come from a parse with positions."""
    rows = [f'    {{"id": {index}, "tags": ["a", "b"]}}' for index in range(300)]
    text = '{\n  "rows": [\n' + ",\n".join(rows) + "\n  ]\n}\n"
    out = json.loads(fit(text, 200))
    marker = next(item for item in out["rows"] if isinstance(item, str))
    match = ITEMS_MARKER.match(marker)
    assert match
    first, last = map(int, re.findall(r"\d+", match.group(2)))
    lines = text.split("\n")
    omitted = int(match.group(1))
    assert last - first + 1 == omitted
    assert lines[first - 1].lstrip().startswith('{"id": ')


# --- properties -------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=400),
    lambda children: (
        st.lists(children, max_size=30) | st.dictionaries(st.text(max_size=8), children, max_size=8)
    ),
    max_leaves=120,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON_VALUES, st.booleans(), st.floats(min_value=0.01, max_value=1.2), st.booleans())
def test_any_document_at_any_budget_gives_valid_json_within_it(
    value: object, pretty: bool, share: float, with_task: bool
) -> None:
    text = json.dumps(value, indent=2 if pretty else None, ensure_ascii=False)
    budget = max(1, int(COUNTER.count(text) * share))
    terms = TaskTerms.from_task("needle 0 true") if with_task else NO_TERMS
    out = COMPRESSOR.fit(text, terms, budget, COUNTER, HANDLES)
    if out is None:
        # Only when not even the root's marker fits, or the root is a scalar that does not
        # fit whole and has nothing to cut (a short string of costly characters, a number):
        # smart mode then cuts the text as Tier 3 does.
        assert budget < 12 or not isinstance(value, (dict, list))
        return
    json.loads(out.text)
    assert out.tokens == COUNTER.count(out.text) <= budget
    assert out == COMPRESSOR.fit(text, terms, budget, COUNTER, HANDLES)


# Text as documents hold it (letters, digits, punctuation, spaces): arbitrary code points cost
# a few tokens each, so that one member can be a tenth of a small budget.
WORDS = st.text(st.characters(min_codepoint=32, max_codepoint=0x24F), max_size=120)
ITEMS = st.recursive(
    st.none() | st.booleans() | st.integers() | WORDS,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(
            st.text(st.characters(min_codepoint=97, max_codepoint=122), max_size=8),
            children,
            max_size=5,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ITEMS, min_size=12, max_size=40), st.floats(min_value=0.1, max_value=0.9))
def test_documents_with_many_items_use_most_of_the_budget(
    items: list[object], share: float
) -> None:
    text = json.dumps(items, indent=2, ensure_ascii=False)
    budget = max(300, int(COUNTER.count(text) * share))
    out = fit(text, budget)
    if not is_whole(out, text):
        # Strings of rare characters cost several tokens a character: the search sizes the
        # levels between one that fits and one that is over at the rate between them, and
        # room a compact rendering leaves opens its outer containers.
        assert COUNTER.count(out) >= 0.85 * budget


def test_a_layout_that_only_has_the_usual_number_of_lines_is_found_out() -> None:
    """One array written on one line (four newlines fewer) and four empty objects written
    over two lines (four more): the count of newlines is the usual one, the lines are not.
    The rows between the two are four lines higher than the usual layout puts them: the
    markers' lines are checked against the text, and found by a parse with positions."""
    document = {"short": [1, 2, 3], "rows": records(300), "empty": [{}, {}, {}, {}]}
    usual = json.dumps(document, indent=2)
    text = usual.replace("[\n    1,\n    2,\n    3\n  ]", "[1, 2, 3]").replace("{}", "{\n}")
    assert text.count("\n") == usual.count("\n")
    out = json.loads(fit(text, 600))
    marker = next(item for item in out["rows"] if isinstance(item, str))
    match = ITEMS_MARKER.match(marker)
    assert match
    first, last = map(int, re.findall(r"\d+", match.group(2)))
    lines = text.split("\n")
    assert lines[first - 1].strip() == "{"
    assert lines[first].strip().startswith('"id": ')
    assert lines[last - 1].strip() in ("},", "}")


def test_a_document_too_deep_to_walk_still_gives_valid_json() -> None:
    value: object = list(range(50))
    for _ in range(300):
        value = [value, "x" * 100, {"k": 1}]
    text = json.dumps(value, indent=2)
    out = fit(text, 500)
    assert json.loads(out) == [f"… 3 items omitted (lines 1-{text.count(chr(10)) + 1})"]


def _thread(depth: int) -> object:
    """A discussion `depth` replies deep: each comment's replies hold the next one."""
    node: object = {"id": "last", "text": "the end", "replies": []}
    for level in range(depth, 0, -1):
        words = " ".join(f"word{level}x{n}" for n in range(30))
        node = {"id": f"c{level}", "text": words, "replies": [node, {"id": f"r{level}"}]}
    return {"thread": node}


@pytest.mark.parametrize("depth", [60, 100])
def test_a_deep_thread_is_cut_level_by_level_with_its_lines_named(depth: int) -> None:
    """Deep enough that the walk takes much of the stack, not so deep that it cannot be
    walked: the answer is a level of detail that uses the budget, not the root's marker,
    and its markers name the lines they stand for (found without a call per level)."""
    text = json.dumps(_thread(depth), indent=2)
    budget = COUNTER.count(text) // 12
    out = COMPRESSOR.fit(text, NO_TERMS, budget, COUNTER, HANDLES)
    assert out is not None
    assert out.tokens == COUNTER.count(out.text) <= budget
    assert out.tokens >= 0.85 * budget
    assert json.loads(out.text)["thread"]["id"] == "c1"
    lines = text.split("\n")
    spans = re.findall(r"omitted \(lines (\d+)-(\d+)\)", out.text)
    assert spans
    for first, last in spans:
        assert 1 < int(first) <= int(last) <= len(lines)
        assert lines[int(first) - 1].strip()[:1] in ('"', "{")  # a member or an item starts


@pytest.mark.parametrize("depth", [300, 600, 900])
def test_a_document_too_deep_to_survey_is_its_roots_marker(depth: int) -> None:
    text = "[" * depth + '"' + "w " * 3000 + '"' + "]" * depth
    out = COMPRESSOR.fit(text, NO_TERMS, 2_000, COUNTER, HANDLES)
    assert out is not None
    assert json.loads(out.text) == ["… 1 item omitted (line 1)"]
