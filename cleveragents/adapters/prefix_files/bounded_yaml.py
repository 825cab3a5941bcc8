"""A YAML safe loader whose work is bounded before anything is built: node count and depth.

An alias is a pointer: ``&a [...]`` once and ``*a`` a hundred times is a small file whose data,
once walked, checked or rendered, is a hundred copies. Nine levels of ten aliases (the "billion
laughs") fit in half a kilobyte and stand for a billion values. So while the document is
composed, before a single Python object is constructed, every node is counted as many times as it
will be used: a node once, an alias as all the nodes it names, and so is the text of their
scalars. The document is refused at the node that takes the count past `MAX_YAML_NODES`, the
text past `MAX_YAML_TEXT_CHARS` (one long string named a thousand times), or the nesting past
`MAX_YAML_DEPTH` (an alias's nodes sit as deep as the alias itself). Each alias costs one
dictionary look-up, so a hostile file fails as fast as an honest one is read.

Anchors, aliases and merge keys (``<<: *defaults``) therefore keep working in any file whose
expanded form stays under the bounds. An alias inside the node it names (a recursive structure)
is refused: its expansion never ends.
"""

from __future__ import annotations

from typing import Any, ClassVar

import yaml  # type: ignore[import-untyped, unused-ignore]  # no stubs (types-PyYAML) required

MAX_YAML_NODES = 50_000
"""The most values (scalars, sequences, mappings) a document may hold once its aliases are
expanded. An honest prefix file holds a few thousand; 50,000 is a prefix of some 100,000
tokens. The bound also bounds the time spent on an honest-looking file: PyYAML's pure-Python
composer takes some 50 microseconds a value, so the largest file accepted reads in seconds."""

MAX_YAML_TEXT_CHARS = 4_000_000
"""The most characters of scalar text a document may hold once its aliases are expanded: four
times the largest settings file, about a million tokens."""

MAX_YAML_DEPTH = 100
"""The deepest nesting of sequences and mappings allowed, counting aliases where they are used."""


class YamlBoundError(yaml.YAMLError):  # type: ignore[misc, unused-ignore]
    """A document past `MAX_YAML_NODES` or `MAX_YAML_DEPTH`: the message says which bound and
    where (``at line L, column C``, 1-based)."""


def _where(mark: Any) -> str:
    return f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""


class TooDeepError(YamlBoundError):
    """Nested past `MAX_YAML_DEPTH`."""

    def __init__(self, limit: int, mark: Any) -> None:
        super().__init__(
            f"malformed YAML: nested too deeply (more than {limit} levels){_where(mark)}"
        )


class TooLargeError(YamlBoundError):
    """More than `MAX_YAML_NODES` values, or `MAX_YAML_TEXT_CHARS` characters of text, once
    aliases are expanded."""

    def __init__(self, what: str, mark: Any) -> None:
        super().__init__(
            f"more than {what} once YAML aliases are expanded{_where(mark)} "
            "(each use of an alias counts everything it names)"
        )


class BoundedSafeLoader(yaml.SafeLoader):  # type: ignore[misc, unused-ignore]
    """PyYAML's safe loader, counting nodes and depth as it composes (see the module's doc)."""

    max_nodes: ClassVar[int] = MAX_YAML_NODES
    max_text_chars: ClassVar[int] = MAX_YAML_TEXT_CHARS
    max_depth: ClassVar[int] = MAX_YAML_DEPTH

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._expanded = 0  # nodes so far, each alias counted as the nodes it names
        self._text_chars = 0  # scalar text so far, aliases counted likewise
        self._depth = 0  # of the node being composed (the document's root is at 1)
        self._deepest = 0  # the deepest level reached inside the node being composed
        # Per anchored node, once composed: its nodes and text (aliases inside it expanded) and
        # its height.
        self._extents: dict[Any, tuple[int, int, int]] = {}

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            node = super().compose_node(parent, index)  # refuses an undefined alias
            extent = self._extents.get(node)
            if extent is None:  # named, but not composed yet: the alias is inside it
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    f"found the alias *{event.anchor} inside the node it names "
                    "(a recursive structure)",
                    event.start_mark,
                )
            nodes, text_chars, height = extent
            self._grow(nodes, text_chars, self._depth + height, event.start_mark)
            return node
        self._grow(1, 0, self._depth + 1, event.start_mark)
        nodes_before, text_before = self._expanded - 1, self._text_chars
        outer_deepest = self._deepest
        self._depth += 1
        self._deepest = self._depth
        node = super().compose_node(parent, index)
        self._depth -= 1
        if isinstance(node, yaml.ScalarNode):
            self._grow(0, len(node.value), self._depth + 1, event.start_mark)
        if event.anchor is not None:
            self._extents[node] = (
                self._expanded - nodes_before,
                self._text_chars - text_before,
                self._deepest - self._depth,
            )
        self._deepest = max(outer_deepest, self._deepest)
        return node

    def _grow(self, nodes: int, text_chars: int, depth: int, mark: Any) -> None:
        self._expanded += nodes
        self._text_chars += text_chars
        self._deepest = max(self._deepest, depth)
        if depth > self.max_depth:
            raise TooDeepError(self.max_depth, mark)
        if self._expanded > self.max_nodes:
            raise TooLargeError(f"{self.max_nodes:,} values", mark)
        if self._text_chars > self.max_text_chars:
            raise TooLargeError(f"{self.max_text_chars:,} characters of text", mark)
