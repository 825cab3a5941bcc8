"""What to keep and what to elide in each grammar: node types and error-statement queries.

The node type names come from each grammar's ``node-types.json``; a test compiles every query
against the installed grammars, so a renamed node type fails there rather than at run time.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LanguageRules:
    """How one grammar spells functions, their bodies, comments and error statements.

    ``function_types`` are nodes whose ``body`` field is elided when its type is one of
    ``body_types`` (an arrow function with an expression body keeps it: there is no block).
    ``error_query`` captures ``@error`` nodes inside elided bodies whose statement is kept;
    the kept statement is the nearest enclosing node of ``statement_types``, found without
    leaving the nearest ``container_types`` node (a block, a case, a match arm).
    """

    function_types: frozenset[str]
    body_types: frozenset[str]
    comment_types: frozenset[str]
    error_query: str
    statement_types: frozenset[str]
    container_types: frozenset[str]
    indents_with_blocks: bool = False
    """Python: the body is an indented block, not braces."""
    statements_end_with_semicolon: bool = True
    """A kept bare expression gets a ``;`` so the outline still parses."""


_JS_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
# `new XxxError(...)` also catches errors passed to callbacks, as in `reject(new Error(...))`.
_JS_ERRORS = """
(throw_statement) @error
((new_expression constructor: (identifier) @class) @error (#match? @class "Error$"))
"""
_JS_RULES = LanguageRules(
    function_types=_JS_FUNCTIONS,
    body_types=frozenset({"statement_block"}),
    comment_types=frozenset({"comment", "html_comment"}),
    error_query=_JS_ERRORS,
    statement_types=frozenset(
        {
            "throw_statement",
            "expression_statement",
            "return_statement",
            "lexical_declaration",
            "variable_declaration",
        }
    ),
    container_types=frozenset({"statement_block", "switch_case", "switch_default"}),
)

_C_ERRORS = """
((call_expression
   function: (identifier) @function
   arguments: (argument_list . (identifier) @stream)) @error
 (#eq? @function "fprintf") (#eq? @stream "stderr"))
((call_expression function: (identifier) @function) @error (#any-of? @function "perror" "abort"))
"""
_C_STATEMENTS = frozenset(
    {"expression_statement", "return_statement", "declaration", "throw_statement"}
)
_C_CONTAINERS = frozenset({"compound_statement", "case_statement"})

RULES: dict[str, LanguageRules] = {
    "python": LanguageRules(
        function_types=frozenset({"function_definition"}),
        body_types=frozenset({"block"}),
        comment_types=frozenset({"comment"}),
        error_query="(raise_statement) @error",
        statement_types=frozenset({"raise_statement"}),
        container_types=frozenset({"block"}),
        indents_with_blocks=True,
        statements_end_with_semicolon=False,
    ),
    "javascript": _JS_RULES,
    "typescript": _JS_RULES,
    "tsx": _JS_RULES,
    "go": LanguageRules(
        function_types=frozenset({"function_declaration", "method_declaration", "func_literal"}),
        body_types=frozenset({"block"}),
        comment_types=frozenset({"comment"}),
        error_query="""
((call_expression function: (identifier) @function) @error (#eq? @function "panic"))
((call_expression function: (selector_expression) @function) @error
 (#any-of? @function "errors.New" "fmt.Errorf" "log.Fatal" "log.Fatalf" "log.Panicf"))
""",
        statement_types=frozenset(
            {
                "expression_statement",
                "return_statement",
                "short_var_declaration",
                "assignment_statement",
                "var_declaration",
                "defer_statement",
                "go_statement",
            }
        ),
        container_types=frozenset(
            {"block", "statement_list", "expression_case", "default_case", "type_case"}
        ),
        statements_end_with_semicolon=False,
    ),
    "rust": LanguageRules(
        function_types=frozenset({"function_item", "closure_expression"}),
        body_types=frozenset({"block"}),
        comment_types=frozenset({"line_comment", "block_comment"}),
        error_query="""
((macro_invocation macro: (identifier) @macro) @error
 (#any-of? @macro "panic" "unreachable" "bail"))
((call_expression function: (field_expression field: (field_identifier) @method)) @error
 (#eq? @method "expect"))
((call_expression function: (identifier) @function) @error (#eq? @function "Err"))
""",
        statement_types=frozenset({"expression_statement", "let_declaration"}),
        container_types=frozenset({"block", "match_arm"}),
    ),
    "java": LanguageRules(
        function_types=frozenset(
            {
                "method_declaration",
                "constructor_declaration",
                "compact_constructor_declaration",
                "lambda_expression",
            }
        ),
        body_types=frozenset({"block", "constructor_body"}),
        comment_types=frozenset({"line_comment", "block_comment"}),
        error_query="(throw_statement) @error",
        statement_types=frozenset({"throw_statement"}),
        container_types=frozenset({"block", "constructor_body", "switch_block_statement_group"}),
    ),
    "c": LanguageRules(
        function_types=frozenset({"function_definition"}),
        body_types=frozenset({"compound_statement"}),
        comment_types=frozenset({"comment"}),
        error_query=_C_ERRORS,
        statement_types=_C_STATEMENTS,
        container_types=_C_CONTAINERS,
    ),
    "cpp": LanguageRules(
        function_types=frozenset({"function_definition", "lambda_expression"}),
        body_types=frozenset({"compound_statement"}),
        comment_types=frozenset({"comment"}),
        error_query=_C_ERRORS + "(throw_statement) @error\n",
        statement_types=_C_STATEMENTS,
        container_types=_C_CONTAINERS,
    ),
}
