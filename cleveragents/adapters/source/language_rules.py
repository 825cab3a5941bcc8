"""What to keep and what to elide in each grammar: node types and error-statement queries.

The node type names come from each grammar's ``node-types.json``; a test compiles every query
against the installed grammars, so a renamed node type fails there rather than at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class LineRules:
    """How one grammar spells what `signature_lines` looks for, besides functions and errors.

    ``declaration_types`` are class-like declarations (class, struct, interface, enum, impl,
    trait, namespace, type alias): their header is a signature, and their body holds members.
    The body is the node's ``body`` field, else its nearest descendant of ``member_body_types``
    (Go's ``type T struct {`` keeps its fields two levels down); one without a body counts only
    where it stands among members (a C ``struct s *p`` parameter is no declaration).
    ``signature_query`` captures ``@line_signature`` bodiless signatures (prototypes, interface
    and trait methods). A header starts at its ``decorator_types`` siblings before it, or at the
    start of the ``wrapper_types`` parents around it (``export``, ``template <...>``, the
    ``const f =`` a function is assigned to); a function without a block body (``(x) => x``) is
    a signature only when such a parent names it. ``member_group_types`` hold members of their
    own (a Go ``const ( ... )`` block, a C ``#ifdef``).
    """

    declaration_types: frozenset[str] = frozenset()
    member_body_types: frozenset[str] = frozenset()
    signature_query: str = ""
    import_types: frozenset[str] = frozenset()
    decorator_types: frozenset[str] = frozenset()
    wrapper_types: frozenset[str] = frozenset()
    member_group_types: frozenset[str] = frozenset()
    doc_comments_precede: bool = True
    """The doc of a declaration is the comment above it (Python's is the docstring in it)."""


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
    lines: LineRules = LineRules()
    """What smart mode needs to know of each line (`signature_lines`)."""


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
    lines=LineRules(
        declaration_types=frozenset({"class_declaration", "class"}),
        import_types=frozenset({"import_statement"}),
        decorator_types=frozenset({"decorator"}),
        wrapper_types=frozenset(
            {
                "export_statement",
                "lexical_declaration",
                "variable_declaration",
                "variable_declarator",
                "field_definition",
                "pair",
            }
        ),
    ),
)
_TS_RULES = replace(
    _JS_RULES,
    lines=LineRules(
        declaration_types=frozenset(
            {
                "class_declaration",
                "class",
                "abstract_class_declaration",
                "interface_declaration",
                "enum_declaration",
                "type_alias_declaration",
                "internal_module",
                "module",
            }
        ),
        signature_query="""
[(method_signature) (abstract_method_signature) (function_signature) (call_signature)
 (construct_signature) (index_signature)] @line_signature
""",
        import_types=frozenset({"import_statement"}),
        decorator_types=frozenset({"decorator"}),
        wrapper_types=frozenset(
            {
                "export_statement",
                "ambient_declaration",
                "lexical_declaration",
                "variable_declaration",
                "variable_declarator",
                "public_field_definition",
                "pair",
            }
        ),
    ),
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
# A prototype: a declaration whose declarator is a function (maybe returning a pointer).
_C_PROTOTYPES = """
(declaration declarator: (function_declarator)) @line_signature
(declaration declarator: (pointer_declarator declarator: (function_declarator))) @line_signature
"""
_C_DECLARATIONS = frozenset(
    {"struct_specifier", "union_specifier", "enum_specifier", "type_definition"}
)
_C_MEMBER_BODIES = frozenset({"field_declaration_list", "enumerator_list"})
_C_PREPROCESSOR_GROUPS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"})

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
        lines=LineRules(
            declaration_types=frozenset({"class_definition"}),
            import_types=frozenset(
                {"import_statement", "import_from_statement", "future_import_statement"}
            ),
            wrapper_types=frozenset({"decorated_definition"}),
            doc_comments_precede=False,
        ),
    ),
    "javascript": _JS_RULES,
    "typescript": _TS_RULES,
    "tsx": _TS_RULES,
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
        lines=LineRules(
            declaration_types=frozenset({"type_declaration"}),
            member_body_types=frozenset({"field_declaration_list", "interface_type"}),
            signature_query="(method_elem) @line_signature",
            import_types=frozenset({"import_declaration", "package_clause"}),
            wrapper_types=frozenset(
                {"short_var_declaration", "var_spec", "var_declaration", "assignment_statement"}
            ),
            member_group_types=frozenset({"const_declaration", "var_declaration", "var_spec_list"}),
        ),
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
        lines=LineRules(
            declaration_types=frozenset(
                {
                    "struct_item",
                    "enum_item",
                    "union_item",
                    "trait_item",
                    "impl_item",
                    "mod_item",
                    "type_item",
                    "foreign_mod_item",
                }
            ),
            signature_query="(function_signature_item) @line_signature",
            import_types=frozenset({"use_declaration", "extern_crate_declaration"}),
            decorator_types=frozenset({"attribute_item"}),
            wrapper_types=frozenset({"let_declaration", "const_item", "static_item"}),
        ),
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
        lines=LineRules(
            declaration_types=frozenset(
                {
                    "class_declaration",
                    "interface_declaration",
                    "enum_declaration",
                    "record_declaration",
                    "annotation_type_declaration",
                }
            ),
            import_types=frozenset({"import_declaration", "package_declaration"}),
            wrapper_types=frozenset(
                {"variable_declarator", "local_variable_declaration", "field_declaration"}
            ),
        ),
    ),
    "c": LanguageRules(
        function_types=frozenset({"function_definition"}),
        body_types=frozenset({"compound_statement"}),
        comment_types=frozenset({"comment"}),
        error_query=_C_ERRORS,
        statement_types=_C_STATEMENTS,
        container_types=_C_CONTAINERS,
        lines=LineRules(
            declaration_types=_C_DECLARATIONS | {"linkage_specification"},
            member_body_types=_C_MEMBER_BODIES,
            signature_query=_C_PROTOTYPES,
            import_types=frozenset({"preproc_include"}),
            member_group_types=_C_PREPROCESSOR_GROUPS,
        ),
    ),
    "cpp": LanguageRules(
        function_types=frozenset({"function_definition", "lambda_expression"}),
        body_types=frozenset({"compound_statement"}),
        comment_types=frozenset({"comment"}),
        error_query=_C_ERRORS + "(throw_statement) @error\n",
        statement_types=_C_STATEMENTS,
        container_types=_C_CONTAINERS,
        lines=LineRules(
            declaration_types=_C_DECLARATIONS
            | {
                "class_specifier",
                "namespace_definition",
                "linkage_specification",
                "alias_declaration",
                "concept_definition",
            },
            member_body_types=_C_MEMBER_BODIES | {"declaration_list"},
            signature_query=_C_PROTOTYPES
            + """
(field_declaration declarator: (function_declarator)) @line_signature
(field_declaration declarator: (pointer_declarator declarator: (function_declarator)))
 @line_signature
(field_declaration declarator: (reference_declarator (function_declarator))) @line_signature
(declaration declarator: (reference_declarator (function_declarator))) @line_signature
""",
            import_types=frozenset({"preproc_include", "using_declaration"}),
            wrapper_types=frozenset({"template_declaration", "init_declarator", "declaration"}),
            member_group_types=_C_PREPROCESSOR_GROUPS,
        ),
    ),
}
