"""Programming languages known by file extension, and how each writes a line comment."""

from __future__ import annotations

LANGUAGE_BY_EXTENSION: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".rb": "ruby",
    ".sh": "shell",
    ".bash": "shell",
    ".sql": "sql",
    ".lua": "lua",
    ".kt": "kotlin",
    ".swift": "swift",
    ".cs": "csharp",
    ".php": "php",
    ".scala": "scala",
}

_HASH_COMMENT = frozenset({"python", "ruby", "shell"})
_DASH_COMMENT = frozenset({"sql", "lua"})


def language_for_path(path: str) -> str | None:
    """The language of a file name by its extension, or None."""
    dot = path.rfind(".")
    if dot < 0 or "/" in path[dot:]:
        return None
    return LANGUAGE_BY_EXTENSION.get(path[dot:].lower())


def line_comment(language: str | None) -> str:
    """The line-comment token: ``#`` for Python, Ruby and shell, ``--`` for SQL and Lua, else
    ``//`` (the C family, and the design's default)."""
    if language in _HASH_COMMENT:
        return "#"
    if language in _DASH_COMMENT:
        return "--"
    return "//"


IMPLEMENTATION_OMITTED = "... (implementation omitted for brevity)"
"""The design's body placeholder, written after the language's comment token."""
