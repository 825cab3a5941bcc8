"""Key paths and omission markers, for the unit, property and corpus tests of the JSON
compressor."""

from __future__ import annotations


def key_paths(value: object, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every key as the path of keys that leads to it, array indices left out."""
    found: set[tuple[str, ...]] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found.add((*path, key))
            found |= key_paths(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            found |= key_paths(item, path)
    return found


def without_markers(paths: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    return {path for path in paths if path[-1] != "_truncated"}


def marker(omitted: int) -> dict[str, str]:
    return {"_truncated": f"{omitted} items omitted"}
