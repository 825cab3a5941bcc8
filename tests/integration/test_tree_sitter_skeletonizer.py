"""The tree-sitter skeletonizer outlines real source in nine languages with the real grammars."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tree_sitter import Parser

from cleveragents.adapters.source.grammars import load_grammar
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED, line_comment

SOURCE_DATA = Path(__file__).resolve().parent.parent / "data" / "source"
CLICK_CORE = SOURCE_DATA.parent / "click-core.py.txt"
LANGUAGES = ("python", "javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp")

skeletonizer = TreeSitterSkeletonizer()


@dataclass(frozen=True)
class Sample:
    """A realistic file and what its outline must show and hide."""

    language: str
    fixture: str
    declarations: tuple[str, ...]
    """Signatures and declarations, verbatim."""
    hidden: tuple[str, ...]
    """Body statements, nested functions and closures."""
    errors: tuple[str, ...]
    """Kept error statements, each a whole line of the outline once stripped."""
    comments: tuple[str, ...]

    @property
    def source(self) -> str:
        return (SOURCE_DATA / self.fixture).read_text(encoding="utf-8")

    @property
    def outline(self) -> str:
        outline = skeletonizer.skeleton(self.source, self.language)
        assert outline is not None
        return outline


SAMPLES = (
    Sample(
        "python",
        "inventory.py.txt",
        declarations=(
            '"""Stock keeping for a small warehouse."""',
            "MAX_ITEMS = 1_000",
            "class OutOfStockError(Exception):",
            "@dataclass\nclass Inventory:",
            "counts: dict[str, int] = field(default_factory=dict)",
            "    def add(self, sku: str, quantity: int = 1) -> None:",
            '        """Put items on the shelf."""\n        # ... (implementation omitted',
            "    def reserve(self, sku: str, quantity: int) -> int:",
            "    @property\n    def size(self) -> int:\n        # ... (implementation omitted",
            'def load(path: str) -> Inventory:\n    """Read an inventory from a CSV file."""',
        ),
        hidden=(
            "if quantity <= 0",
            "total = ",
            "def remaining",
            "return available - quantity",
            "sum(self.counts.values())",
            "Quantities must be positive.",
            "with open(path",
        ),
        errors=(
            'raise ValueError(f"quantity must be positive, got {quantity}")',
            'raise OutOfStockError(f"only {available} of {sku} left",)',
        ),
        comments=("# Shared by every", "# running total", "# shown to the customer"),
    ),
    Sample(
        "javascript",
        "inventory.js",
        declarations=(
            'import { readFile } from "node:fs/promises";',
            "const MAX_ITEMS = 1000;",
            "export class OutOfStockError extends Error {",
            "  constructor(sku, available) {",
            "  counts = new Map();",
            "  add(sku, quantity = 1) {",
            "  reserve(sku, quantity) {",
            "  get size() {",
            "export async function load(path) {",
            "export const double = (x) => x * 2;",
        ),
        hidden=("this.sku = sku", "const remaining", "const total", "forEach", "return sum"),
        errors=(
            "throw new RangeError(`quantity must be positive, got ${quantity}`);",
            "throw new OutOfStockError(sku, available);",
        ),
        comments=("// Stock keeping", "/** Raised", "// running total", "/* Read an"),
    ),
    Sample(
        "typescript",
        "inventory.ts",
        declarations=(
            "export type Sku = string;",
            "export interface Shelf {\n  add(sku: Sku, quantity?: number): void;\n"
            "  readonly size: number;\n}",
            'export enum Unit {\n  Piece = "piece",\n  Box = "box",\n}',
            "  constructor(public readonly sku: Sku, available: number) {",
            "export class Inventory implements Shelf {",
            "  private readonly counts = new Map<Sku, number>();",
            "  add(sku: Sku, quantity: number = 1): void {",
            "  reserve(sku: Sku, quantity: number): Promise<number> {",
            "  get size(): number {",
            "export async function load(path: string): Promise<Inventory> {",
        ),
        hidden=("super(", "const total", "new Promise", "resolve(", "reduce(", "readFile(path"),
        errors=(
            "throw new RangeError(`quantity must be positive, got ${quantity}`);",
            "reject(new OutOfStockError(sku, available));",
        ),
        comments=("// Stock keeping", "/** Raised", "// running total", "/* Read an"),
    ),
    Sample(
        "tsx",
        "inventory_view.tsx",
        declarations=(
            'import React, { useState } from "react";',
            "export interface InventoryViewProps {",
            "  onReserve: (sku: string) => void;",
            "type Row = { sku: string; quantity: number };",
            "export function InventoryView({ counts, onReserve }: InventoryViewProps): "
            "JSX.Element {",
            "export class InventoryErrorBoundary extends React.Component<{ children: "
            "React.ReactNode }> {",
            "  state = { failed: false };",
            "  static getDerivedStateFromError(): { failed: boolean } {",
            "  render(): React.ReactNode {",
        ),
        hidden=("useState(", "<table>", "handleClick", "this.state.failed"),
        errors=("throw new Error(`unknown SKU ${sku}`);",),
        comments=("// A table", "// The children"),
    ),
    Sample(
        "go",
        "inventory.go",
        declarations=(
            "package inventory",
            'import (\n\t"errors"\n\t"fmt"\n\t"os"\n\t"strings"\n)',
            "const MaxItems = 1000",
            'var ErrOutOfStock = errors.New("out of stock")',
            "type Inventory struct {\n\tcounts map[string]int\n}",
            "type Shelf interface {\n\tAdd(sku string, quantity int) error\n\tSize() int\n}",
            "func (inv *Inventory) Add(sku string, quantity int) error {",
            "func (inv *Inventory) Reserve(sku string, quantity int) int {",
            "func Load(path string) (*Inventory, error) {",
        ),
        hidden=("remaining := func", "inv.counts[sku] +=", "os.ReadFile", "return nil\n"),
        errors=(
            'return fmt.Errorf("quantity must be positive, got %d", quantity)',
            'panic(fmt.Sprintf("only %d of %s left", available, sku))',
            'return nil, fmt.Errorf("reading %s: %w", path, err)',
        ),
        comments=("// Package", "// MaxItems", "// by SKU", "// running total", "/* Load"),
    ),
    Sample(
        "rust",
        "inventory.rs",
        declarations=(
            "use std::collections::HashMap;",
            "pub const MAX_ITEMS: usize = 1000;",
            "#[derive(Debug)]\npub enum InventoryError {\n"
            "    OutOfStock { sku: String, available: u32 },\n    Io(std::io::Error),\n}",
            "#[derive(Debug, Default)]\npub struct Inventory {\n"
            "    counts: HashMap<String, u32>,\n}",
            "pub trait Shelf {\n    fn add(&mut self, sku: &str, quantity: u32);\n"
            "    fn size(&self) -> u32 {",
            "impl Inventory {\n    pub fn reserve(&mut self, sku: &str, quantity: u32) -> "
            "Result<u32, InventoryError> {",
            "impl Shelf for Inventory {\n    fn add(&mut self, sku: &str, quantity: u32) {",
            "pub fn load(path: &str) -> Inventory {",
        ),
        hidden=("let remaining", "available - taken", "or_insert", "Ok(remaining", "for line"),
        errors=(
            "return Err(InventoryError::OutOfStock { sku: sku.to_string(), available });",
            'panic!("quantity must be positive");',
            'let text = fs::read_to_string(path).expect("inventory file is readable");',
        ),
        comments=("//! Stock", "/// Bounds", "// by SKU", "// running total", "/* Read"),
    ),
    Sample(
        "java",
        "Inventory.java",
        declarations=(
            "package shop.inventory;",
            "import java.util.function.IntSupplier;",
            "public class Inventory implements Shelf {",
            "    public static final int MAX_ITEMS = 1000;",
            "    private final Map<String, Integer> counts;",
            "    public Inventory() {",
            "    @Override\n    public void add(String sku, int quantity) {",
            "    public int reserve(String sku, int quantity) throws OutOfStockException {",
            "interface Shelf {\n    void add(String sku, int quantity);\n\n    int size();\n}",
            "class OutOfStockException extends Exception {\n"
            "    OutOfStockException(String message) {",
        ),
        hidden=("new HashMap", "counts.merge", "IntSupplier remaining", "super(message)"),
        errors=(
            'throw new IllegalArgumentException("quantity must be positive, got " + quantity);',
            'throw new OutOfStockException("only " + available + " of " + sku + " left");',
        ),
        comments=("// Stock", "/** Counts", "// by SKU", "// running total", "/* The number"),
    ),
    Sample(
        "c",
        "inventory.c",
        declarations=(
            "#include <stdio.h>",
            "#define MAX_ITEMS 1000",
            "struct inventory {\n    char skus[MAX_ITEMS][16];\n    int counts[MAX_ITEMS];\n"
            "    int size;\n};",
            "typedef int (*visitor)(const char *sku, int count);",
            "static int find(const struct inventory *inv, const char *sku);",
            "int inventory_add(struct inventory *inv, const char *sku, int quantity)\n{",
            "int inventory_reserve(struct inventory *inv, const char *sku, int quantity) {",
            "struct inventory *inventory_load(const char *path) {",
        ),
        hidden=("return -1;", "strcmp(", "calloc(", "fclose(", "-= quantity"),
        errors=(
            'fprintf(stderr, "quantity must be positive, got %d\\n", quantity);',
            "abort();",
            'perror("inventory_load");',
        ),
        comments=("/* Stock", "// Counts", "/* by SKU */", "// running total"),
    ),
    Sample(
        "cpp",
        "inventory.cpp",
        declarations=(
            "namespace shop {",
            "constexpr int kMaxItems = 1000;",
            "class Inventory {\npublic:\n    Inventory() = default;",
            "    explicit Inventory(std::map<std::string, int> counts) : "
            "counts_(std::move(counts)) {}",
            "    void add(const std::string& sku, int quantity);",
            "    int size() const {",
            "private:\n    std::map<std::string, int> counts_;\n};",
            "void Inventory::add(const std::string& sku, int quantity) {",
            "int Inventory::reserve(const std::string& sku, int quantity) {",
            "template <typename T>\nT clamp_quantity(T value) {",
        ),
        hidden=("int total = 0", "auto remaining", "counts_[sku] +=", "value < 0"),
        errors=(
            'throw std::invalid_argument("quantity must be positive");',
            'throw std::out_of_range("only " + std::to_string(available) + " left");',
        ),
        comments=("// Stock", "/// Counts", "// by SKU", "/* running total */", "// namespace"),
    ),
)


by_language = pytest.mark.parametrize("sample", SAMPLES, ids=[s.language for s in SAMPLES])


def test_every_language_has_a_sample() -> None:
    assert skeletonizer.languages == frozenset(LANGUAGES)
    assert {sample.language for sample in SAMPLES} == set(LANGUAGES)


@by_language
def test_keeps_signatures_and_declarations_verbatim(sample: Sample) -> None:
    outline = sample.outline
    for declaration in sample.declarations:
        assert declaration in outline


@by_language
def test_elides_bodies_and_nested_functions(sample: Sample) -> None:
    outline = sample.outline
    for statement in sample.hidden:
        assert statement in sample.source
        assert statement not in outline
    assert len(outline) < len(sample.source)


@by_language
def test_writes_the_placeholder_in_the_language_comment_syntax(sample: Sample) -> None:
    placeholder = f"{line_comment(sample.language)} {IMPLEMENTATION_OMITTED}"
    lines = [line.strip() for line in sample.outline.splitlines()]
    assert placeholder in lines
    other = "//" if sample.language == "python" else "#"
    assert f"{other} {IMPLEMENTATION_OMITTED}" not in sample.outline


@by_language
def test_keeps_error_statements_on_one_line_each(sample: Sample) -> None:
    lines = [line.strip() for line in sample.outline.splitlines()]
    for error in sample.errors:
        assert lines.count(error) == 1


@by_language
def test_removes_comments(sample: Sample) -> None:
    for comment in sample.comments:
        assert comment in sample.source
        assert comment not in sample.outline


@by_language
def test_output_is_tidy_and_deterministic(sample: Sample) -> None:
    outline = sample.outline
    assert outline == skeletonizer.skeleton(sample.source, sample.language)
    assert outline.endswith("\n")
    assert not outline.endswith("\n\n")
    assert "\n\n\n" not in outline
    assert all(line == line.rstrip() for line in outline.splitlines())


@by_language
def test_outline_is_valid_code_for_the_same_grammar(sample: Sample) -> None:
    tree = Parser(load_grammar(sample.language)).parse(sample.outline.encode("utf-8"))
    assert not tree.root_node.has_error


@by_language
def test_outlining_an_outline_keeps_its_declarations(sample: Sample) -> None:
    twice = skeletonizer.skeleton(sample.outline, sample.language)
    assert twice is not None
    for declaration in sample.declarations:
        assert declaration.split("\n")[0] in twice


def _top_level_function_lines(source: str) -> list[str]:
    """The ``def`` line of every function that is not nested inside another function."""
    lines = source.splitlines()
    found: list[str] = []
    pending: list[ast.AST] = [ast.parse(source)]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append(lines[child.lineno - 1].strip())
            elif isinstance(child, ast.ClassDef | ast.If | ast.Try):
                pending.append(child)
    return found


def test_click_core_keeps_every_function_signature_and_halves_the_size() -> None:
    source = CLICK_CORE.read_text(encoding="utf-8")
    outline = skeletonizer.skeleton(source, "python")
    assert outline is not None
    signatures = _top_level_function_lines(source)
    assert len(signatures) > 100
    outline_lines = {line.strip() for line in outline.splitlines()}
    missing = [line for line in signatures if line not in outline_lines]
    assert missing == []
    assert len(outline) < 0.5 * len(source)
    assert "raise NoArgsIsHelpError(ctx)" in outline_lines
    assert not Parser(load_grammar("python")).parse(outline.encode("utf-8")).root_node.has_error


@pytest.mark.parametrize("language", ["ruby", "cobol", "", "Python"])
def test_unsupported_language_gives_none(language: str) -> None:
    assert skeletonizer.skeleton("def f():\n    return 1\n", language) is None


BROKEN = {
    "python": "def f(:\n    return 1\n",
    "javascript": "function f( {\n  return 1;\n}\n",
    "typescript": "class A { m(): { }\n",
    "tsx": "export function F() { return <div>; }\n",
    "go": "package p\nfunc f( {\n}\n",
    "rust": "fn f( -> u8 { 1 }\n",
    "java": "class A { void m( { } }\n",
    "c": "int f( { return 1; }\n",
    "cpp": "class A { void m( { } };\n",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_source_with_syntax_errors_gives_none(language: str) -> None:
    assert skeletonizer.skeleton(BROKEN[language], language) is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_empty_source_gives_empty_outline(language: str) -> None:
    assert skeletonizer.skeleton("", language) == ""
    assert skeletonizer.skeleton("\n\n  \n", language) == ""


def test_python_one_liners_stubs_comments_before_the_block_and_odd_docstrings() -> None:
    source = (
        "def short(x): return x  # inline\n"
        "async def fetch(url):  # why\n"
        "    r'''Fetch \\d+ \"pages\"\\\n\n    more'''\n"
        "    raise IOError(url)  # retry later\n"
        "lam = lambda y: y + 1\n"
        "def stub(x: int) -> int: ...\n"
        "def noop():\n    pass  # on purpose\n"
    )
    assert skeletonizer.skeleton(source, "python") == (
        "def short(x):\n"
        "    # ... (implementation omitted for brevity)\n"
        "async def fetch(url):\n"
        '    r"""Fetch \\d+ "pages"""\n'
        "    # ... (implementation omitted for brevity)\n"
        "    raise IOError(url)\n"
        "lam = lambda y: y + 1\n"
        "def stub(x: int) -> int: ...\n"
        "def noop():\n    pass\n"
    )


def test_empty_bodies_stay_empty_and_parameter_closures_do_not_shield_the_body() -> None:
    source = (
        "function f(cb = () => { return 1; }) {\n  go();\n}\n"
        "function noop() {}\n"
        "function later() {\n  // TODO\n}\n"
    )
    assert skeletonizer.skeleton(source, "javascript") == (
        "function f(cb = () => {\n"
        "    // ... (implementation omitted for brevity)\n"
        "}) {\n"
        "  // ... (implementation omitted for brevity)\n"
        "}\n"
        "function noop() {}\n"
        "function later() {\n}\n"
    )


def test_one_statement_holding_two_error_calls_is_kept_once() -> None:
    source = (
        "package p\n\nfunc f(err error) {\n"
        '\tif e := errors.New("a"); e != nil {\n'
        '\t\tpanic(fmt.Errorf("wrapped: %w",\n\t\t\terr))\n'
        "\t}\n"
        '\tpanic(fmt.Errorf("wrapped: %w", err))\n'
        "}\n"
    )
    assert skeletonizer.skeleton(source, "go") == (
        "package p\n\nfunc f(err error) {\n"
        "\t// ... (implementation omitted for brevity)\n"
        '\te := errors.New("a")\n'
        '\tpanic(fmt.Errorf("wrapped: %w", err))\n'
        "}\n"
    )


def test_rust_error_in_a_match_arm_keeps_the_arm_value_as_a_statement() -> None:
    source = (
        "fn f(x: Result<u8, E>) -> Result<u8, E> {\n"
        "    match x {\n"
        "        Err(e) => return Err(e),\n"
        "        Ok(v) => Ok(v),\n"
        "    }\n"
        "}\n"
    )
    outline = skeletonizer.skeleton(source, "rust")
    assert outline is not None
    assert "    return Err(e);\n" in outline
    assert not Parser(load_grammar("rust")).parse(outline.encode()).root_node.has_error


# Fragments of code in every supported language, so that random sources often parse.
CODE_FRAGMENTS = st.sampled_from(
    [
        "def f(x):\n",
        "    raise ValueError('x')\n",
        "class A:\n",
        '    """doc"""\n',
        "# c\n",
        "function g() {",
        "fn h() {",
        "func k() {",
        "int m(void) {",
        "throw new Error(`e`);",
        'panic!("p");',
        "return x;",
        "}",
        "{",
        "\n",
        "    ",
        "\t",
        "// c\n",
        "/* c */",
        "(",
        ")",
        ":",
        ";",
        "=>",
        "'",
        '"',
        '"""',
        "\\",
        "\r\n",
        "é",
        "\x00",
        "\ud800",
    ]
)
SOURCES = st.one_of(st.text(max_size=300), st.lists(CODE_FRAGMENTS, max_size=40).map("".join))


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=60, deadline=None)
@given(source=SOURCES)
def test_any_text_gives_an_outline_or_none_and_never_raises(language: str, source: str) -> None:
    outline = skeletonizer.skeleton(source, language)
    assert outline is None or isinstance(outline, str)
    if outline:
        assert outline.endswith("\n")
        assert outline == skeletonizer.skeleton(source, language)
