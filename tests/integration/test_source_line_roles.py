"""`signature_lines` of the tree-sitter adapter with the real grammars: what each line of the
ORIGINAL source is, at any depth, for smart mode's ranks.

Sources are written here for the cases (nested functions, methods of nested classes,
decorators, multi-line signatures, closures, bodiless signatures), plus the realistic
`tests/data/source/` files and `click-core.py.txt` (pallets/click, BSD-3-Clause)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.source.grammars import line_query, load_grammar
from cleveragents.adapters.source.language_rules import RULES
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.application.ports.source_skeleton import SourceLines

SOURCE_DATA = Path(__file__).resolve().parent.parent / "data" / "source"
CLICK_CORE = SOURCE_DATA.parent / "click-core.py.txt"
LANGUAGES = ("python", "javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp")
ROLES = ("names", "signatures", "docstrings", "errors", "closers", "members", "comments")

skeletonizer = TreeSitterSkeletonizer()


def roles_of(source: str, language: str) -> dict[str, set[str]]:
    """Each role's lines, stripped (a role's text rather than its index reads better here)."""
    found = skeletonizer.signature_lines(source, language)
    assert found is not None
    lines = source.split("\n")
    return {role: {lines[index].strip() for index in getattr(found, role)} for role in ROLES}


def assert_roles(roles: dict[str, set[str]], **expected: set[str]) -> None:
    for role, lines in expected.items():
        assert lines <= roles[role], (role, lines - roles[role])


def assert_not_in(roles: dict[str, set[str]], role: str, *lines: str) -> None:
    for line in lines:
        assert line not in roles[role], (role, line)


# --- the rules and the query ------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_node_type_named_in_the_line_rules_exists_in_its_grammar(language: str) -> None:
    grammar = load_grammar(language)
    rules = RULES[language].lines
    for name in (
        "declaration_types",
        "member_body_types",
        "import_types",
        "decorator_types",
        "wrapper_types",
        "member_group_types",
    ):
        for node_type in getattr(rules, name):
            assert grammar.id_for_node_kind(node_type, True) is not None, (name, node_type)
    assert line_query(language) is line_query(language)  # compiled once


# --- per language -----------------------------------------------------------------------------

PYTHON = '''\
"""The module's doc."""

import os
from typing import (
    Any,
    Callable,
)

LIMIT = 3


class Outer:
    """Outer's doc."""

    size: int = 0

    class Inner:
        @staticmethod
        def helper(
            value: int,
            *,
            strict: bool = False,
        ) -> int:
            """Help with a value.

            More words."""
            def nested(x):
                def deeper():
                    return x
                return deeper
            if value < 0:
                raise ValueError(
                    "negative",
                )
            return value

    async def fetch(self, url: str) -> bytes:
        # Fetch it now.
        callback = lambda y: y
        return b""


@decorator(
    "argument",
)
def top() -> None:
    """
    Words on the second line.
    """
    pass
'''


def test_python_nested_functions_nested_classes_decorators_and_multi_line_signatures() -> None:
    roles = roles_of(PYTHON, "python")
    names = {
        "class Outer:",
        "class Inner:",
        "def helper(",
        "def nested(x):",
        "def deeper():",
        "async def fetch(self, url: str) -> bytes:",
        "def top() -> None:",
    }
    assert roles["names"] == names
    assert_roles(
        roles,
        signatures=names
        | {
            '"""The module\'s doc."""',
            "import os",
            "from typing import (",
            "Any,",
            "Callable,",
            "@staticmethod",
            "value: int,",
            "*,",
            "strict: bool = False,",
            ") -> int:",
            "@decorator(",
            '"argument",',
        },
        docstrings={
            '"""Outer\'s doc."""',
            '"""Help with a value.',
            '"""',
            "Words on the second line.",
        },
        errors={"raise ValueError(", '"negative",'},
        members={"LIMIT = 3", "size: int = 0"},
        comments={"# Fetch it now."},
    )
    assert_not_in(roles, "docstrings", "More words.")
    assert_not_in(roles, "signatures", "return x", "callback = lambda y: y", "return value")
    assert roles["closers"] == set()  # Python blocks close by indentation


JAVASCRIPT = """\
import { readFile } from "node:fs/promises";

export const double = (x) => x * 2;
export const handler = async (
  request,
) => {
  return request;
};
const table = {
  render: () => {
    return 1;
  },
};

/** A store of values. */
export class Store extends Base {
  #items = new Map();

  @logged
  put(key, value) {
    if (!key) {
      throw new TypeError("empty key");
    }
    this.#items.set(key, value);
  }

  static create() {
    return new Store();
  }
}

function outer() {
  function inner() {
    return [1, 2].map((n) => n + 1);
  }
  return inner;
}
"""


def test_javascript_arrow_functions_assigned_to_consts_and_class_methods() -> None:
    roles = roles_of(JAVASCRIPT, "javascript")
    assert roles["names"] == {
        "export const double = (x) => x * 2;",
        "export const handler = async (",
        "render: () => {",
        "export class Store extends Base {",
        "put(key, value) {",
        "static create() {",
        "function outer() {",
        "function inner() {",
    }
    assert_roles(
        roles,
        signatures={
            'import { readFile } from "node:fs/promises";',
            "request,",
            ") => {",
            "@logged",
        },
        docstrings={"/** A store of values. */"},
        errors={'throw new TypeError("empty key");'},
        closers={"};", "},", "}"},
        members={"const table = {", "#items = new Map();"},
    )
    # An anonymous callback with an expression body is part of its statement, not a signature.
    assert_not_in(roles, "signatures", "return [1, 2].map((n) => n + 1);")


TYPESCRIPT = """\
@Component({
  selector: "x",
})
export class View {
  @Input() name: string;

  @HostListener("click")
  onClick(event: Event): void {
    go();
  }
}

export interface Shelf {
  add(sku: string, quantity?: number): void;
  readonly size: number;
}

export enum Unit {
  Piece = "piece",
}

export type Sku = string;
abstract class Base { abstract run(): void; }
declare function f(x: number): string;
namespace Tools {
  export function g(): void {}
}
"""


def test_typescript_interfaces_enums_type_aliases_decorators_and_namespaces() -> None:
    roles = roles_of(TYPESCRIPT, "typescript")
    assert_roles(
        roles,
        names={
            "export class View {",
            "onClick(event: Event): void {",
            "export interface Shelf {",
            "add(sku: string, quantity?: number): void;",
            "export enum Unit {",
            "export type Sku = string;",
            "abstract class Base { abstract run(): void; }",
            "declare function f(x: number): string;",
            "namespace Tools {",
            "export function g(): void {}",
        },
        signatures={"@Component({", 'selector: "x",', "})", '@HostListener("click")'},
        members={"@Input() name: string;", "readonly size: number;", 'Piece = "piece",'},
    )
    assert_not_in(roles, "signatures", "go();")


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_the_typescript_samples_rank_methods_and_their_closures(language: str) -> None:
    fixture = "inventory.ts" if language == "typescript" else "inventory_view.tsx"
    roles = roles_of((SOURCE_DATA / fixture).read_text(encoding="utf-8"), language)
    if language == "typescript":
        assert_roles(
            roles,
            names={
                "reserve(sku: Sku, quantity: number): Promise<number> {",
                "return new Promise((resolve, reject) => {",  # a closure with a block body
                "get size(): number {",
            },
            errors={"reject(new OutOfStockError(sku, available));"},
            docstrings={"/** Raised when a reservation asks for more than is on the shelf. */"},
        )
    else:
        assert_roles(
            roles,
            names={
                "const handleClick = (sku: string) => {",
                "static getDerivedStateFromError(): { failed: boolean } {",
            },
            members={"state = { failed: false };"},
        )


GO = """\
// Package shop sells things.
package shop

import (
\t"errors"
\t"fmt"
)

const (
\tSmall = 1
\tLarge = 2
)

// Store holds stock.
type Store struct {
\tcounts map[string]int
}

type Shelf interface {
\tAdd(sku string) error
}

func (s *Store) Add(
\tsku string,
) error {
\tremaining := func() int {
\t\treturn 1
\t}
\tif sku == "" {
\t\treturn errors.New("empty sku")
\t}
\treturn fmt.Errorf("%d", remaining())
}
"""


def test_go_methods_closures_interfaces_and_grouped_constants() -> None:
    roles = roles_of(GO, "go")
    assert roles["names"] == {
        "type Store struct {",
        "type Shelf interface {",
        "Add(sku string) error",
        "func (s *Store) Add(",
        "remaining := func() int {",
    }
    assert_roles(
        roles,
        signatures={"package shop", "import (", '"errors"', ")", "sku string,", ") error {"},
        docstrings={"// Store holds stock."},
        errors={'return errors.New("empty sku")', 'return fmt.Errorf("%d", remaining())'},
        members={"Small = 1", "Large = 2", "counts map[string]int"},
        closers={"}"},
        comments={"// Package shop sells things.", "// Store holds stock."},
    )


RUST = """\
use std::fmt;

/// A shelf.
#[derive(Debug)]
pub struct Shelf {
    size: u32,
}

pub trait Store {
    fn put(&mut self, key: &str);
    fn size(&self) -> u32 {
        0
    }
}

impl Store for Shelf {
    fn put(&mut self, key: &str) {
        let check = |k: &str| k.is_empty();
        let report = |k: &str| {
            println!("{}", k);
        };
        if check(key) {
            panic!("empty key");
        }
        report(key);
    }
}

mod inner {
    pub fn helper(
        value: u32,
    ) -> u32 {
        value
    }
}
"""


def test_rust_impl_blocks_trait_functions_attributes_and_closures() -> None:
    roles = roles_of(RUST, "rust")
    assert roles["names"] == {
        "pub struct Shelf {",
        "pub trait Store {",
        "fn put(&mut self, key: &str);",
        "fn size(&self) -> u32 {",
        "impl Store for Shelf {",
        "fn put(&mut self, key: &str) {",
        "let check = |k: &str| k.is_empty();",  # a named closure
        "let report = |k: &str| {",
        "mod inner {",
        "pub fn helper(",
    }
    assert_roles(
        roles,
        signatures={"use std::fmt;", "#[derive(Debug)]", "value: u32,", ") -> u32 {"},
        docstrings={"/// A shelf."},
        errors={'panic!("empty key");'},
        members={"size: u32,"},
        closers={"}", "};"},
    )


JAVA = """\
package shop;

import java.util.Map;

/** The store. */
public class Store {
    private final Map<String, Integer> counts;

    public Store() {
        this.counts = Map.of();
    }

    @Override
    public int size(
            String unit) {
        Runnable check = () -> {
            throw new IllegalStateException("never");
        };
        return 0;
    }

    static class Inner {
        void help() {
        }
    }

    enum Kind { SMALL, LARGE }
}

interface Shelf {
    void add(String sku);
}
"""


def test_java_methods_of_nested_classes_annotations_lambdas_and_interfaces() -> None:
    roles = roles_of(JAVA, "java")
    assert roles["names"] == {
        "public class Store {",
        "public Store() {",
        "public int size(",
        "Runnable check = () -> {",
        "static class Inner {",
        "void help() {",
        "enum Kind { SMALL, LARGE }",
        "interface Shelf {",
        "void add(String sku);",
    }
    assert_roles(
        roles,
        signatures={"package shop;", "import java.util.Map;", "@Override", "String unit) {"},
        docstrings={"/** The store. */"},
        errors={'throw new IllegalStateException("never");'},
        members={"private final Map<String, Integer> counts;"},
    )


C = """\
#ifndef SHOP_H
#define SHOP_H
#include <stdio.h>

#define LIMIT 10

/* A shelf. */
typedef struct {
    int size;
} shelf;

static int find(const shelf *s, int key);

int
shelf_put(shelf *s,
          int key)
{
    if (key < 0) {
        fprintf(stderr, "negative key\\n");
        abort();
    }
    return find(s, key);
}
#endif
"""


def test_c_functions_prototypes_typedefs_and_header_guards() -> None:
    roles = roles_of(C, "c")
    assert roles["names"] == {
        "typedef struct {",
        "static int find(const shelf *s, int key);",
        "shelf_put(shelf *s,",
    }
    assert_roles(
        roles,
        signatures={"#include <stdio.h>", "int", "int key)", "{"},
        docstrings={"/* A shelf. */"},
        errors={'fprintf(stderr, "negative key\\n");', "abort();"},
        members={"#define SHOP_H", "#define LIMIT 10", "int size;"},
        closers={"} shelf;", "}"},
    )


CPP = """\
#include <string>

namespace shop {

class Store {
public:
    Store() = default;
    void put(const std::string& key);
    int size() const {
        auto count = [this]() {
            return 0;
        };
        return count();
    }

private:
    int size_;
};

template <typename T>
T clamp(T value) {
    if (value < 0) {
        throw std::invalid_argument("negative");
    }
    return value;
}

}  // namespace shop
"""


def test_cpp_classes_namespaces_templates_and_lambdas() -> None:
    roles = roles_of(CPP, "cpp")
    assert roles["names"] == {
        "namespace shop {",
        "class Store {",
        "Store() = default;",
        "void put(const std::string& key);",
        "int size() const {",
        "auto count = [this]() {",
        "T clamp(T value) {",
    }
    assert_roles(
        roles,
        signatures={"#include <string>", "template <typename T>"},
        errors={'throw std::invalid_argument("negative");'},
        members={"public:", "private:", "int size_;"},
        closers={"};", "}", "}  // namespace shop"},
    )


# --- real files -------------------------------------------------------------------------------


def _ast_headers(source: str) -> tuple[set[int], set[int]]:
    """0-based lines of every def/class at any depth, and of every whole header (decorators to
    the line before the first statement of the body), found by `ast`."""
    names: set[int] = set()
    headers: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.lineno - 1)
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
            body = node.body[0].lineno - 1
            headers.update(range(first, max(body, node.lineno)))
    return names, headers


def test_click_core_names_every_def_and_class_at_any_depth() -> None:
    source = CLICK_CORE.read_text(encoding="utf-8")
    found = skeletonizer.signature_lines(source, "python")
    assert found is not None
    names, headers = _ast_headers(source)
    assert len(names) > 150
    assert found.names == names
    assert headers <= found.signatures


@pytest.mark.parametrize(
    ("language", "fixture"),
    [
        ("python", "inventory.py.txt"),
        ("javascript", "inventory.js"),
        ("typescript", "inventory.ts"),
        ("tsx", "inventory_view.tsx"),
        ("go", "inventory.go"),
        ("rust", "inventory.rs"),
        ("java", "Inventory.java"),
        ("c", "inventory.c"),
        ("cpp", "inventory.cpp"),
    ],
)
def test_real_samples_have_roles_within_their_lines(language: str, fixture: str) -> None:
    source = (SOURCE_DATA / fixture).read_text(encoding="utf-8")
    found = skeletonizer.signature_lines(source, language)
    assert found is not None
    count = len(source.split("\n"))
    for role in ROLES:
        assert all(0 <= index < count for index in getattr(found, role)), role
    assert found.names
    assert found.names <= found.signatures
    assert found == skeletonizer.signature_lines(source, language)


# --- what the port promises -------------------------------------------------------------------

BROKEN = {
    "python": "def f(:\n    return 1\n",
    "javascript": "function f( {\n  return 1;\n}\n",
    "go": "package p\nfunc f( {\n}\n",
    "rust": "fn f( -> u8 { 1 }\n",
    "java": "class A { void m( { } }\n",
    "c": "int f( { return 1; }\n",
}


@pytest.mark.parametrize("language", sorted(BROKEN))
def test_a_source_that_does_not_parse_gives_none(language: str) -> None:
    assert skeletonizer.signature_lines(BROKEN[language], language) is None


@pytest.mark.parametrize("language", ["ruby", "kotlin", "", "Python"])
def test_a_language_without_a_grammar_gives_none(language: str) -> None:
    assert skeletonizer.signature_lines("def f():\n    return 1\n", language) is None


def test_empty_source_has_no_roles() -> None:
    assert skeletonizer.signature_lines("", "python") == SourceLines()


def test_lines_are_those_of_the_text_with_crlf_and_non_ascii() -> None:
    source = "x = 'é'\r\ndef f():\r\n    raise ValueError('ü')\r\n"
    found = skeletonizer.signature_lines(source, "python")
    assert found is not None
    assert found.names == {1}
    assert found.errors == {2}


HEADERS = ["def f(x):\n", "    raise E()\n", "class A:\n", "function g() {", "fn h() {"]
PUNCTUATION = ["}", "{", "\n", "    ", "(", ")", ":", ";", "//c\n", "/*", "*/", '"""', "é", "\x00"]
CODE = st.sampled_from([*HEADERS, "func k() {", *PUNCTUATION])


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=40, deadline=None)
@given(source=st.one_of(st.text(max_size=200), st.lists(CODE, max_size=30).map("".join)))
def test_any_text_gives_roles_or_none_and_never_raises(language: str, source: str) -> None:
    found = skeletonizer.signature_lines(source, language)
    if found is not None:
        count = len(source.split("\n"))
        assert all(0 <= index < count for role in ROLES for index in getattr(found, role))
