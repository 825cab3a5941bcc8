"""Prefix files in YAML (PyYAML, safe loading) or TOML (the standard library's tomllib).

Both are read so that nothing in the file is silently changed on the way to the spec:
- YAML timestamps stay the text that was written (PyYAML would turn `2026-11-30` into a date
  object, and `2026-11-30 13:45:02` into a datetime with another spelling); the builder then
  refuses them as dates with the text the user wrote. TOML dates and times, which are typed by
  the format, become their ISO 8601 text for the same refusal.
- A key written twice in a YAML mapping is an error (PyYAML keeps the last one silently; TOML
  already refuses it).
Library errors are re-raised as `InvalidInputError` naming the file, the line and the column.

Neither parser is handed work it cannot finish: YAML is composed with its aliases expanded into
a count, and refused past a node count or a depth before anything is built (`bounded_yaml`);
TOML's nesting is measured on the text before `tomllib` reads it (`toml_nesting`).
"""

from __future__ import annotations

import datetime as dt
import sys
import tomllib
from collections.abc import Callable
from pathlib import PurePath
from typing import Any, ClassVar

import yaml  # type: ignore[import-untyped, unused-ignore]  # no stubs (types-PyYAML) required

from cleveragents.adapters.input_files.toml_nesting import TomlNestingError, check_toml_nesting
from cleveragents.adapters.prefix_files.bounded_yaml import BoundedSafeLoader, YamlBoundError
from cleveragents.application.ports.prefix_spec_reader import PrefixSpecReader
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.stable_prefix.spec import PrefixSpec
from cleveragents.domain.stable_prefix.spec_parsing import parse_prefix_spec

_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _PrefixYamlLoader(BoundedSafeLoader):
    """SafeLoader without implicit timestamps, with duplicate keys refused, and bounded."""

    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, Any]]]] = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP_TAG]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


def _mapping_without_duplicates(loader: Any, node: Any) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
            continue
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping",
                node.start_mark,
                f"found duplicate key {key!r}",
                key_node.start_mark,
            )
        seen.add(key)
    mapping: dict[Any, Any] = loader.construct_mapping(node, deep=True)
    return mapping


_PrefixYamlLoader.add_constructor("tag:yaml.org,2002:map", _mapping_without_duplicates)


def _load_yaml(text: str, source: str) -> object:
    try:
        data = yaml.load(text, Loader=_PrefixYamlLoader)  # a SafeLoader: no arbitrary objects
    except YamlBoundError as error:
        raise InvalidInputError(f"{source}: {error}") from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InvalidInputError(f"{source}: malformed YAML{where}: {error.problem}") from None
    except yaml.YAMLError as error:  # a reader error (a control character): two lines, joined
        raise InvalidInputError(f"{source}: malformed YAML: {_one_line(str(error))}") from None
    except ValueError:  # PyYAML's int() of a number Python refuses to read
        raise InvalidInputError(f"{source}: malformed YAML: {_too_many_digits()}") from None
    except RecursionError:
        raise InvalidInputError(f"{source}: malformed YAML: nested too deeply") from None
    _refuse_surrogates(data, source)
    return data


def _load_toml(text: str, source: str) -> object:
    try:
        check_toml_nesting(text)
        return _iso_dates(tomllib.loads(text))
    except TomlNestingError as error:
        raise InvalidInputError(f"{source}: malformed TOML: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InvalidInputError(f"{source}: malformed TOML: {error}") from None
    except ValueError:  # tomllib's int() of a number Python refuses to read
        raise InvalidInputError(f"{source}: malformed TOML: {_too_many_digits()}") from None
    except RecursionError:
        raise InvalidInputError(f"{source}: malformed TOML: nested too deeply") from None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _too_many_digits() -> str:
    return f"an integer has more than {sys.get_int_max_str_digits():,} digits"


def _refuse_surrogates(data: object, source: str) -> None:
    """YAML's ``"\\ud800"`` escape gives half of a UTF-16 surrogate pair, a string that cannot be
    written as UTF-8 (TOML refuses it itself). Walked without recursion: the data may be as deep
    as the parser allowed."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as error:
                code = ord(value[error.start])
                raise InvalidInputError(
                    f"{source}: a string holds \\u{code:04x}, half of a UTF-16 surrogate pair "
                    "and no character; write the character itself"
                ) from None


def _iso_dates(value: object) -> object:
    if isinstance(value, dict):
        return {key: _iso_dates(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_iso_dates(item) for item in value]
    if isinstance(value, dt.date | dt.time):  # datetime is a date
        return value.isoformat()
    return value


_LOADERS: dict[str, Callable[[str, str], object]] = {
    ".yaml": _load_yaml,
    ".yml": _load_yaml,
    ".toml": _load_toml,
}


class PrefixFileReader(PrefixSpecReader):
    """Reads `.yaml`, `.yml` and `.toml` prefix files (schema: docs/stable-prefix.md)."""

    def parse(self, text: str, *, source: str) -> PrefixSpec:
        loader = _LOADERS.get(PurePath(source).suffix.lower())
        if loader is None:
            raise InvalidInputError(f"{source}: unknown prefix file type; use .yaml, .yml or .toml")
        data = loader(text.removeprefix("\ufeff"), source)
        if data is None:
            raise InvalidInputError(f"{source}: the file is empty")
        if not isinstance(data, dict):
            raise InvalidInputError(
                f"{source}: the top level must be a mapping of sections, not {type(data).__name__}"
            )
        try:
            return parse_prefix_spec(data)
        except InvalidInputError as error:
            raise InvalidInputError(f"{source}: {error}") from None
