"""Failed tool calls' messages on one line: the SDK's report of arguments that fail the
schema folded, the tools' own one-line messages untouched."""

from __future__ import annotations

from cleveragents.mcp.one_line_errors import fold

REPORT = "\n".join(
    [
        "Error executing tool compress: 2 validation errors for compressArguments",
        "budget",
        "  Input should be greater than or equal to 1 [type=greater_than_equal, "
        "input_value=-5, input_type=int]",
        "    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal",
        "mode",
        "  Input should be 'tiered' or 'smart' [type=literal_error, input_value='fast', "
        "input_type=str]",
        "    For further information visit https://errors.pydantic.dev/2.14/v/literal_error",
    ]
)


def test_the_schema_report_becomes_one_line_per_field_without_links() -> None:
    assert fold(REPORT) == (
        "invalid arguments for compress; "
        "budget: Input should be greater than or equal to 1; "
        "mode: Input should be 'tiered' or 'smart'"
    )


def test_pydantic_internals_go_even_when_the_value_holds_brackets() -> None:
    report = "\n".join(
        [
            "Error executing tool count_tokens: 1 validation error for count_tokensArguments",
            "encoding",
            "  Input should be 'cl100k_base' or 'o200k_base' [type=literal_error, "
            "input_value='p50k], input_type=x', input_type=str]",
        ]
    )
    assert fold(report) == (
        "invalid arguments for count_tokens; "
        "encoding: Input should be 'cl100k_base' or 'o200k_base'"
    )


def test_a_one_line_message_is_kept_as_it_is() -> None:
    message = "Error executing tool plan_status: unknown plan 01J0000000000000000000000Z"
    assert fold(message) == message
