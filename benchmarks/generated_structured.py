"""Deterministic JSON documents, diffs and source files in the shapes the shared corpus lacks.

The corpus has GitHub API JSON (pretty, homogeneous arrays), diffs of one Python project and
two Python modules. A compressor tuned on those alone can miss what other artifacts of the
same kinds hold, so these generators write:

* JSON: an API response whose array mixes objects of several shapes (events of different types,
  each with its own payload, some keys rare), the same kind of document minified onto one line,
  and a deeply nested document (a discussion thread dozens of replies deep);
* diffs: a change to many files in several languages, with renamed files (pure and with
  edits), binary files (``Binary files ... differ`` and ``GIT binary patch``), mode changes,
  new and deleted files;
* source: classes, nested classes, methods, decorated or annotated ones and nested functions in
  Python, Go, Rust, TypeScript, JavaScript and Java, with the lines that name each declaration
  recorded as they were written (so a measure needs no parser of its own).

Every artifact is a pure function of its arguments: a `random.Random` seeded with the
generator's name and size draws every choice. The names, words and code are made up here;
nothing is taken from a real project.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

JSON, DIFF, CODE = "json", "diff", "code"

_WORDS = tuple(
    " ".join(
        (
            "alpha bravo cache delta event field graph hash index join kernel ledger merge node",
            "offset parse query route schema token update value worker yard zone buffer client",
            "driver engine filter gateway handler importer journal key limit metric network order",
            "packet queue record socket thread upload vector window",
        )
    ).split()
)


@dataclass(frozen=True)
class GeneratedArtifact:
    """One generated artifact: its kind (``json``, ``diff`` or ``code``), a file name whose
    suffix says its kind and language, its text, and what the generator knows matters in it:
    a diff's `files` (each file's path after the change) and a source file's `signatures`
    (the line that names each class, function or method, stripped, in file order)."""

    kind: str
    name: str
    text: str
    files: tuple[str, ...] = ()
    signatures: tuple[str, ...] = ()
    language: str = ""


def _rng(name: str, size: int) -> Random:
    return Random(zlib.crc32(f"{name}:{size}".encode()))


def _words(rng: Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high)))


def _ident(rng: Random, parts: int = 2) -> str:
    return "_".join(rng.choice(_WORDS) for _ in range(parts))


def _camel(rng: Random, parts: int = 2) -> str:
    return "".join(rng.choice(_WORDS).capitalize() for _ in range(parts))


def _lower_camel(rng: Random, parts: int = 2) -> str:
    name = _camel(rng, parts)
    return name[0].lower() + name[1:]


# --- JSON ---------------------------------------------------------------------------------


def _actor(rng: Random) -> dict[str, object]:
    login = _ident(rng)
    return {
        "id": rng.randint(1000, 10**7),
        "login": login,
        "url": f"https://api.example.test/users/{login}",
        "site_admin": rng.random() < 0.05,
    }


def _event_payload(rng: Random, kind: str, index: int) -> dict[str, object]:
    """The payload of one event: each type has keys of its own, some only now and then."""
    if kind == "push":
        commits = [
            {"sha": f"{rng.getrandbits(160):040x}", "message": _words(rng, 3, 12)}
            for _ in range(rng.randint(1, 4))
        ]
        payload: dict[str, object] = {"ref": f"refs/heads/{_ident(rng)}", "commits": commits}
        if rng.random() < 0.2:
            payload["forced"] = True
        return payload
    if kind == "issue":
        payload = {
            "action": rng.choice(("opened", "closed", "reopened")),
            "number": index + 1,
            "title": _words(rng, 4, 10),
            "body": _words(rng, 60, 400),
        }
        if rng.random() < 0.3:
            payload["labels"] = [
                {"name": rng.choice(_WORDS), "color": f"{rng.getrandbits(24):06x}"}
                for _ in range(rng.randint(1, 3))
            ]
        if rng.random() < 0.1:
            payload["milestone"] = {"title": _words(rng, 1, 3), "due_on": None}
        return payload
    if kind == "deployment":
        return {
            "environment": rng.choice(("production", "staging", "preview")),
            "status": {"state": rng.choice(("success", "failure", "pending")), "log_url": None},
            "duration_ms": rng.randint(100, 90000),
        }
    if kind == "release":
        return {
            "tag_name": f"v{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}",
            "prerelease": rng.random() < 0.3,
            "assets": [
                {"name": f"{_ident(rng)}.tar.gz", "size": rng.randint(10**3, 10**8)}
                for _ in range(rng.randint(0, 3))
            ],
            "notes": _words(rng, 30, 200),
        }
    return {  # a comment
        "comment": {"id": rng.randint(1, 10**9), "body": _words(rng, 10, 120)},
        "in_reply_to": rng.choice((None, rng.randint(1, 10**9))),
    }


def _event(rng: Random, index: int) -> dict[str, object]:
    kind = rng.choices(
        ("push", "issue", "comment", "deployment", "release"), weights=(8, 5, 6, 2, 1)
    )[0]
    event: dict[str, object] = {
        "id": str(rng.randint(10**9, 10**10)),
        "type": kind,
        "actor": _actor(rng),
        "created_at": f"2026-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{rng.randint(10, 23)}:00Z",
        "payload": _event_payload(rng, kind, index),
    }
    if rng.random() < 0.15:
        event["org"] = {"id": rng.randint(1, 10**6), "login": _ident(rng)}
    return event


def json_api_response(size: int = 60, *, minified: bool = False) -> GeneratedArtifact:
    """A page of an events API: `size` events of five types with their own payloads, rare
    keys among them, long texts, and the page's metadata and links."""
    name = "json-minified" if minified else "json-api-events"
    rng = _rng(name, size)
    document = {
        "data": [_event(rng, index) for index in range(size)],
        "meta": {"page": 1, "per_page": size, "total": size * rng.randint(2, 9)},
        "links": {
            "self": "https://api.example.test/events?page=1",
            "next": "https://api.example.test/events?page=2",
        },
    }
    text = (
        json.dumps(document, separators=(",", ":")) if minified else json.dumps(document, indent=2)
    )
    return GeneratedArtifact(JSON, f"{name}-{size}.json", text + ("" if minified else "\n"))


def json_deep(depth: int = 40) -> GeneratedArtifact:
    """A discussion thread `depth` replies deep, as a forum's API returns it: each comment has
    its author, text and score, one to three replies of which one goes on, and now and then
    a key of its own (an edit, awards, a moderation note)."""
    rng = _rng("json-deep", depth)

    def comment(level: int) -> dict[str, object]:
        node: dict[str, object] = {
            "id": f"c{rng.getrandbits(40):x}",
            "author": {"name": _ident(rng), "karma": rng.randint(1, 10**5)},
            "score": rng.randint(-5, 900),
            "text": _words(rng, 20, 140),
        }
        extra = rng.random()
        if extra < 0.15:
            node["edited"] = {"at": f"2026-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"}
        elif extra < 0.25:
            node["awards"] = [{"kind": rng.choice(_WORDS), "count": rng.randint(1, 9)}]
        elif extra < 0.3:
            node["moderation"] = {"removed": False, "note": _words(rng, 3, 12)}
        replies: list[object] = []
        if level < depth:
            replies.append(comment(level + 1))
            for _ in range(rng.randint(0, 2)):
                replies.append(
                    {
                        "id": f"c{rng.getrandbits(40):x}",
                        "author": {"name": _ident(rng), "karma": rng.randint(1, 10**5)},
                        "score": rng.randint(-5, 900),
                        "text": _words(rng, 10, 80),
                        "replies": [],
                    }
                )
        node["replies"] = replies
        return node

    document = {"thread": {"title": _words(rng, 4, 10), "root": comment(1)}}
    text = json.dumps(document, indent=2) + "\n"
    return GeneratedArtifact(JSON, f"json-deep-{depth}.json", text)


def json_lock_file(size: int = 200) -> GeneratedArtifact:
    """A package manager's lock file: `size` packages keyed by their install path, each with a
    version, a download URL and an integrity hash (dense in tokens, and unique), and now and
    then dependencies, a dev flag or an engine range. Its objects share a few shapes, but no
    value repeats: nothing the counts of one candidate learn helps with another's."""
    rng = _rng("json-lock", size)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/"
    packages: dict[str, object] = {"": {"name": "app", "version": "1.0.0"}}
    for _ in range(size):
        name = "-".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 3)))
        entry: dict[str, object] = {
            "version": f"{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 50)}",
            "resolved": f"https://registry.example.test/{name}/-/{name}.tgz",
            "integrity": "sha512-" + "".join(rng.choice(alphabet) for _ in range(86)) + "==",
        }
        if rng.random() < 0.5:
            entry["dependencies"] = {
                _ident(rng): f"^{rng.randint(0, 9)}.{rng.randint(0, 9)}.0"
                for _ in range(rng.randint(1, 6))
            }
        if rng.random() < 0.2:
            entry["dev"] = True
        if rng.random() < 0.1:
            entry["engines"] = {"node": f">={rng.randint(8, 22)}"}
        packages[f"node_modules/{name}-{rng.randint(0, 999)}"] = entry
    document = {"name": "app", "lockfileVersion": 3, "packages": packages}
    return GeneratedArtifact(JSON, f"json-lock-{size}.json", json.dumps(document, indent=2) + "\n")


def json_api_spec(size: int = 40) -> GeneratedArtifact:
    """An API description: `size` paths, each with a few operations, their parameters and
    responses, and schemas nested a few levels deep. Every object is keyed by a name of its
    own, so no two subtrees are alike."""
    rng = _rng("json-spec", size)

    def schema(depth: int) -> dict[str, object]:
        if depth > 2 or rng.random() < 0.3:
            kind = rng.choice(["string", "integer", "boolean"])
            return {"type": kind, "description": _words(rng, 3, 12)}
        properties = {_lower_camel(rng): schema(depth + 1) for _ in range(rng.randint(1, 5))}
        return {"type": "object", "properties": properties, "required": [next(iter(properties))]}

    def operation() -> dict[str, object]:
        return {
            "operationId": _lower_camel(rng, 3),
            "summary": _words(rng, 4, 10),
            "parameters": [
                {
                    "name": _lower_camel(rng, 1),
                    "in": rng.choice(["query", "path", "header"]),
                    "required": rng.random() < 0.5,
                    "schema": schema(2),
                }
                for _ in range(rng.randint(0, 4))
            ],
            "responses": {
                str(code): {
                    "description": _words(rng, 3, 6),
                    "content": {"application/json": {"schema": schema(0)}},
                }
                for code in sorted(rng.sample([200, 201, 400, 404, 500], rng.randint(1, 3)))
            },
        }

    paths = {
        "/" + "/".join(_ident(rng, 1) for _ in range(rng.randint(1, 4))) + f"/v{index}": {
            method: operation()
            for method in rng.sample(["get", "post", "put", "delete", "patch"], rng.randint(1, 3))
        }
        for index in range(size)
    }
    document = {"openapi": "3.0.3", "info": {"title": "example", "version": "1"}, "paths": paths}
    return GeneratedArtifact(JSON, f"json-spec-{size}.json", json.dumps(document, indent=2) + "\n")


def generated_json(size: int = 60) -> list[GeneratedArtifact]:
    """The three JSON shapes, `size` setting their length (events, or levels for the tree)."""
    return [
        json_api_response(size),
        json_api_response(size, minified=True),
        json_deep(max(size // 2, 3)),
    ]


# --- source ---------------------------------------------------------------------------------


@dataclass
class _Source:
    """Lines of a source file being written, and the lines that name declarations."""

    lines: list[str] = field(default_factory=list)
    signatures: list[str] = field(default_factory=list)

    def add(self, line: str, *, names: bool = False) -> None:
        self.lines.append(line)
        if names:
            self.signatures.append(line.strip())


def _statements(rng: Random, count: int, style: str) -> list[str]:
    """`count` plausible body statements in one language's `style`."""
    out = []
    for _ in range(count):
        a, b, c = _ident(rng, 1), _ident(rng), rng.randint(0, 999)
        choice = rng.randrange(4)
        if style == "python":
            out.append(
                (
                    f"{a} = {b}({c}, {rng.choice(_WORDS)!r})",
                    f"if {a} > {c}:\n    {b} += {a}",
                    f"for {a} in self.{b}:\n    total += len({a})",
                    f"log.debug({_words(rng, 3, 8)!r}, {a})",
                )[choice]
            )
        elif style == "go":
            out.append(
                (
                    f"{a} := {b}({c})",
                    f"if {a} > {c} {{\n\treturn nil\n}}",
                    f"for _, item := range {b} {{\n\ttotal += len(item)\n}}",
                    f'log.Printf("{_words(rng, 3, 8)} %v", {a})',
                )[choice]
            )
        elif style == "rust":
            out.append(
                (
                    f"let {a} = {b}({c});",
                    f"if {a} > {c} {{\n    return None;\n}}",
                    f"for item in {b}.iter() {{\n    total += item.len();\n}}",
                    f'debug!("{_words(rng, 3, 8)} {{}}", {a});',
                )[choice]
            )
        else:  # the C family: Java, JavaScript, TypeScript
            decl = "const" if style in ("ts", "js") else "int"
            out.append(
                (
                    f"{decl} {a} = {b}({c});",
                    f"if ({a} > {c}) {{\n    return null;\n}}",
                    f"for ({decl} i = 0; i < {b}.length; i++) {{\n    total += {b}[i];\n}}",
                    f'log("{_words(rng, 3, 8)}", {a});',
                )[choice]
            )
    return [line for statement in out for line in statement.split("\n")]


def _body(src: _Source, rng: Random, indent: str, style: str, tab: str = "    ") -> None:
    """A function's body: as long as real code's (click's functions average about 190 tokens
    with their docstrings), with a comment now and then."""
    comment = "#" if style == "python" else "//"
    for line in _statements(rng, rng.randint(4, 14), style):
        if rng.random() < 0.1:
            src.add(f"{indent}{comment} {_words(rng, 4, 12)}")
        src.add(indent + line.replace("    ", tab))


def _python(rng: Random, size: int) -> _Source:
    src = _Source()
    src.add('"""A module written by a generator: classes, nested functions, decorators."""')
    src.add("")
    src.add("import logging")
    src.add("")
    src.add("log = logging.getLogger(__name__)")
    for _ in range(size):
        src.add("")
        src.add("")
        if rng.random() < 0.3:
            src.add(f"@{_ident(rng, 1)}.register")
        src.add(f"class {_camel(rng)}({_camel(rng, 1)}):", names=True)
        src.add(f'    """{_words(rng, 4, 12)}."""')
        for _ in range(rng.randint(2, 6)):
            src.add("")
            decorated = rng.random()
            if decorated < 0.25:
                src.add("    @property")
            elif decorated < 0.4:
                src.add(f"    @{_ident(rng, 1)}(retries={rng.randint(1, 5)})")
            keyword = "async def" if rng.random() < 0.15 else "def"
            params = ", ".join(f"{_ident(rng, 1)}: int" for _ in range(rng.randint(0, 3)))
            src.add(
                f"    {keyword} {_ident(rng)}(self{', ' if params else ''}{params}) -> int:",
                names=True,
            )
            if rng.random() < 0.6:
                src.add(f'        """{_words(rng, 4, 12).capitalize()}.')
                for _ in range(rng.randint(0, 3)):
                    src.add(f"        {_words(rng, 6, 14)}")
                src.add('        """')
            src.add("        total = 0")
            _body(src, rng, "        ", "python")
            if rng.random() < 0.3:
                src.add(f"        def {_ident(rng)}(item):", names=True)
                _body(src, rng, "            ", "python")
                src.add("            return item")
            src.add("        return total")
        if rng.random() < 0.3:
            src.add("")
            src.add(f"    class {_camel(rng)}:", names=True)
            src.add(f"        def {_ident(rng)}(self):", names=True)
            src.add("            total = 0")
            _body(src, rng, "            ", "python")
            src.add("            return total")
    src.add("")
    src.add("")
    src.add(f"def {_ident(rng)}(argv=None):", names=True)
    src.add("    total = 0")
    _body(src, rng, "    ", "python")
    src.add("    return total")
    return src


def _go(rng: Random, size: int) -> _Source:
    src = _Source()
    src.add("package service")
    src.add("")
    src.add('import "log"')
    for _ in range(size):
        kind = _camel(rng)
        src.add("")
        src.add(f"// {kind} {_words(rng, 4, 10)}.")
        src.add(f"type {kind} struct {{", names=True)
        for _ in range(rng.randint(1, 4)):
            src.add(f"\t{_camel(rng, 1)} int")
        src.add("}")
        for _ in range(rng.randint(2, 6)):
            src.add("")
            src.add(f"func (s *{kind}) {_camel(rng)}(limit int) (int, error) {{", names=True)
            src.add("\ttotal := 0")
            _body(src, rng, "\t", "go", "\t")
            src.add("\treturn total, nil")
            src.add("}")
    src.add("")
    src.add(f"func {_camel(rng)}() error {{", names=True)
    src.add("\treturn nil")
    src.add("}")
    return src


def _rust(rng: Random, size: int) -> _Source:
    src = _Source()
    src.add("use std::collections::HashMap;")
    for _ in range(size):
        kind = _camel(rng)
        src.add("")
        src.add("#[derive(Debug, Clone)]")
        src.add(f"pub struct {kind} {{", names=True)
        for _ in range(rng.randint(1, 4)):
            src.add(f"    {_ident(rng, 1)}: usize,")
        src.add("}")
        src.add("")
        src.add(f"impl {kind} {{", names=True)
        for index in range(rng.randint(2, 6)):
            if index:
                src.add("")
            if rng.random() < 0.3:
                src.add("    #[inline]")
            src.add(
                f"    pub fn {_ident(rng)}(&self, limit: usize) -> Option<usize> {{", names=True
            )
            src.add("        let mut total = 0;")
            _body(src, rng, "        ", "rust")
            src.add("        Some(total)")
            src.add("    }")
        src.add("}")
    src.add("")
    src.add("fn main() {", names=True)
    src.add('    println!("done");')
    src.add("}")
    return src


def _typescript(rng: Random, size: int, *, typed: bool) -> _Source:
    src = _Source()
    style = "ts" if typed else "js"
    src.add('import { log } from "./log";')
    for _ in range(size):
        src.add("")
        if typed and rng.random() < 0.4:
            src.add("@Injectable()")
        src.add(f"export class {_camel(rng)} {{", names=True)
        for index in range(rng.randint(2, 6)):
            if index:
                src.add("")
            if typed and rng.random() < 0.2:
                src.add("  @Memoize()")
            ret = ": number" if typed else ""
            param = "limit: number" if typed else "limit"
            prefix = "async " if rng.random() < 0.2 else ""
            src.add(f"  {prefix}{_lower_camel(rng)}({param}){ret} {{", names=True)
            src.add("    let total = 0;")
            _body(src, rng, "    ", style, "  ")
            src.add("    return total;")
            src.add("  }")
        src.add("}")
    src.add("")
    src.add(f"export function {_lower_camel(rng)}(){': void' if typed else ''} {{", names=True)
    src.add("  return;")
    src.add("}")
    return src


def _java(rng: Random, size: int) -> _Source:
    src = _Source()
    src.add("package com.example.service;")
    src.add("")
    src.add("import java.util.List;")
    src.add("")
    src.add(f"public class {_camel(rng)} {{", names=True)
    for _ in range(size):
        src.add("")
        src.add(f"    static class {_camel(rng)} {{", names=True)
        for index in range(rng.randint(2, 6)):
            if index:
                src.add("")
            if rng.random() < 0.3:
                src.add("        @Override")
            src.add(f"        public int {_lower_camel(rng)}(int limit) {{", names=True)
            src.add("            int total = 0;")
            _body(src, rng, "            ", "java")
            src.add("            return total;")
            src.add("        }")
        src.add("    }")
    src.add("}")
    return src


_LANGUAGES: dict[str, tuple[str, Callable[[Random, int], _Source]]] = {
    "python": ("py", _python),
    "go": ("go", _go),
    "rust": ("rs", _rust),
    "typescript": ("ts", lambda rng, size: _typescript(rng, size, typed=True)),
    "javascript": ("js", lambda rng, size: _typescript(rng, size, typed=False)),
    "java": ("java", _java),
}
SOURCE_LANGUAGES = tuple(_LANGUAGES)


def source_file(language: str, size: int = 12) -> GeneratedArtifact:
    """A source file of `size` classes (or types) in `language`, with their methods."""
    suffix, write = _LANGUAGES[language]
    src = write(_rng(f"code-{language}", size), size)
    return GeneratedArtifact(
        CODE,
        f"code-{language}-{size}.{suffix}",
        "\n".join(src.lines) + "\n",
        signatures=tuple(src.signatures),
        language=language,
    )


def generated_sources(size: int = 12) -> list[GeneratedArtifact]:
    return [source_file(language, size) for language in SOURCE_LANGUAGES]


# --- diffs ----------------------------------------------------------------------------------

_OPERATIONS = (
    "modify",
    "modify",
    "modify",
    "add",
    "delete",
    "rename",
    "rename-edit",
    "binary",
    "binary-patch",
    "mode",
    "mode-edit",
)


def _hunks(rng: Random, language: str, hunks: int) -> list[str]:
    """Hunks of a modified file: each around a function, with context, removed and added
    lines, and counts that match its header."""
    out: list[str] = []
    start = rng.randint(1, 30)
    style = {"py": "python", "go": "go", "rs": "rust", "ts": "ts", "java": "java"}.get(
        language, "python"
    )
    for _ in range(hunks):
        context_before = [f"    {line}" for line in _statements(rng, 2, style)][:3]
        removed = [f"    {line}" for line in _statements(rng, rng.randint(1, 8), style)]
        added = [f"    {line}" for line in _statements(rng, rng.randint(1, 16), style)]
        context_after = [f"    {line}" for line in _statements(rng, 2, style)][:3]
        old = len(context_before) + len(removed) + len(context_after)
        new = len(context_before) + len(added) + len(context_after)
        function = f"def {_ident(rng)}(self):" if style == "python" else f"func {_camel(rng)}() {{"
        out.append(f"@@ -{start},{old} +{start},{new} @@ {function}")
        out += [f" {line}" for line in context_before]
        out += [f"-{line}" for line in removed]
        out += [f"+{line}" for line in added]
        out += [f" {line}" for line in context_after]
        start += old + rng.randint(10, 80)
    return out


def _blob(rng: Random) -> str:
    return f"{rng.getrandbits(28):07x}"


def _whole_file(rng: Random, sign: str, count: int) -> list[str]:
    return [f"{sign}{line}" for line in _statements(rng, count, "python")][:count]


def diff_mixed(files: int = 16) -> GeneratedArtifact:
    """A `git diff` of `files` files: modified files in several languages, new and deleted
    files, renames with and without edits, binary files and mode changes."""
    rng = _rng("diff-mixed", files)
    out: list[str] = []
    paths: list[str] = []
    for index in range(files):
        operation = (
            _OPERATIONS[index % len(_OPERATIONS)]
            if index < len(_OPERATIONS)
            else (rng.choice(_OPERATIONS))
        )
        directory = rng.choice(("src", "lib", "cmd/server", "internal/store", "docs"))
        language = rng.choice(("py", "go", "rs", "ts", "java"))
        path = f"{directory}/{_ident(rng)}_{index}.{language}"
        if operation.startswith("binary"):
            path = f"assets/{_ident(rng)}_{index}.png"
        if operation.startswith("rename"):
            old_path = f"{directory}/old_{_ident(rng)}_{index}.{language}"
            out.append(f"diff --git a/{old_path} b/{path}")
            similarity = 100 if operation == "rename" else rng.randint(60, 97)
            out.append(f"similarity index {similarity}%")
            out.append(f"rename from {old_path}")
            out.append(f"rename to {path}")
            if operation == "rename-edit":
                out.append(f"index {_blob(rng)}..{_blob(rng)} 100644")
                out.append(f"--- a/{old_path}")
                out.append(f"+++ b/{path}")
                out += _hunks(rng, language, rng.randint(1, 4))
            paths.append(path)
            continue
        out.append(f"diff --git a/{path} b/{path}")
        if operation == "add":
            lines = _whole_file(rng, "+", rng.randint(5, 120))
            out += ["new file mode 100644", f"index 0000000..{_blob(rng)}", "--- /dev/null"]
            out += [f"+++ b/{path}", f"@@ -0,0 +1,{len(lines)} @@", *lines]
        elif operation == "delete":
            lines = _whole_file(rng, "-", rng.randint(5, 120))
            out += ["deleted file mode 100644", f"index {_blob(rng)}..0000000", f"--- a/{path}"]
            out += ["+++ /dev/null", f"@@ -1,{len(lines)} +0,0 @@", *lines]
        elif operation == "binary":
            out += [f"index {_blob(rng)}..{_blob(rng)} 100644"]
            out += [f"Binary files a/{path} and b/{path} differ"]
        elif operation == "binary-patch":
            out += [f"index {_blob(rng)}..{_blob(rng)} 100644", "GIT binary patch"]
            out.append(f"literal {rng.randint(100, 5000)}")
            out += [
                "z" + "".join(rng.choice("0123456789ABCDEFabcdef!#$%") for _ in range(60))
                for _ in range(rng.randint(3, 12))
            ]
            out += ["", f"literal {rng.randint(100, 5000)}", "zcmV?d00001", ""]
        elif operation.startswith("mode"):
            out += ["old mode 100644", "new mode 100755"]
            if operation == "mode-edit":
                out += [f"index {_blob(rng)}..{_blob(rng)}", f"--- a/{path}", f"+++ b/{path}"]
                out += _hunks(rng, language, rng.randint(1, 2))
        else:
            out += [f"index {_blob(rng)}..{_blob(rng)} 100644", f"--- a/{path}", f"+++ b/{path}"]
            out += _hunks(rng, language, rng.randint(1, 8))
        paths.append(path)
    return GeneratedArtifact(
        DIFF, f"diff-mixed-{files}.diff", "\n".join(out) + "\n", files=tuple(paths)
    )


def generated_diffs(files: int = 16) -> list[GeneratedArtifact]:
    return [diff_mixed(files), diff_mixed(files * 4)]


def generate_all() -> list[GeneratedArtifact]:
    """The benchmark's generated set: the JSON shapes, diffs and source files."""
    return [
        *generated_json(60),
        *generated_json(200),
        *generated_diffs(16),
        *generated_sources(12),
        *generated_sources(40),
    ]
