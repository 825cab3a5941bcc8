"""Benchmark: what redacting a credential costs compression, side by side in one run.

Redaction scans the artifact once, replaces each credential's span and scans the result once
more: linear in the length of a line, whatever the number of credentials on it. Two artifacts,
each compressed with and without one credential in it (the same bytes otherwise):

1. one generated 200 KB minified JSON line holding one AWS access key id, tiered mode (the
   JSON's own compressor), best of 3; target: at most 1.5 times the time without the key;
2. a generated ~35 MB log whose first line holds a connection string with a password (after
   a 2 MB payload on that line), smart and tiered mode: a file too large to hold,
   streamed, its first line among what is kept; best of 2, the runs interleaved.
"""

from __future__ import annotations

import json
import random
import string
import sys
import tempfile
from functools import partial
from pathlib import Path

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import best, repeat, timed
from cleveragents.container import build_container
from cleveragents.domain.artifact import CompressionMode
from tests.secret_recall_set import ALNUM, DIGITS, UPPER, random_key

SEED = 20261206
JSON_LINE_BYTES = 200_000
LOG_BYTES = 35_000_000
FIRST_LINE_PAYLOAD_BYTES = 2_000_000
BUDGET = 2000
REPEATS = 3
LARGE_REPEATS = 2
RATIO_TARGET = 1.5


def json_line(key: str | None, seed: int = SEED) -> str:
    """A minified JSON document of about `JSON_LINE_BYTES` on one line; with `key`, one of
    its records holds it as ``aws_access_key_id``."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    size = 0
    while size < JSON_LINE_BYTES:
        record: dict[str, object] = {
            "id": len(records),
            "name": "".join(rng.choice(string.ascii_lowercase) for _ in range(8)),
            "status": rng.choice(("ok", "failed", "pending")),
            "score": round(rng.random(), 6),
        }
        if len(records) == 600:
            record["aws_access_key_id"] = key if key is not None else "none"
        records.append(record)
        size += len(json.dumps(record, separators=(",", ":"))) + 1
    return json.dumps({"records": records}, separators=(",", ":"))


def log_lines(password: str | None, seed: int = SEED) -> list[str]:
    """A ~`LOG_BYTES` log; its first line a 2 MB payload then a connection string (with
    `password` in it, or none)."""
    rng = random.Random(seed)
    payload = ",".join(
        f"k{i}=v{rng.randrange(10_000)}" for i in range(FIRST_LINE_PAYLOAD_BYTES // 9)
    )
    authority = f"orders:{password}@" if password is not None else ""
    lines = [f"config {payload} url=postgres://{authority}db.internal:5432/orders\n"]
    size = len(lines[0])
    index = 0
    while size < LOG_BYTES:
        level = "ERROR" if index % 5000 == 4999 else "INFO"
        line = (
            f"2026-12-06 10:{index // 60 % 60:02d}:{index % 60:02d},{index % 1000:03d} {level} "
            f"[worker-{index % 7}] org.example.Task: record {index} took {rng.randrange(900)} ms\n"
        )
        lines.append(line)
        size += len(line)
        index += 1
    return lines


def rows() -> list[Result]:
    """The two comparisons, each measured with and without the credential in this run."""
    rng = random.Random(SEED)
    key = "AKIA" + random_key(rng, UPPER + DIGITS, 16)
    password = random_key(rng, ALNUM, 16)
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        container = build_container(f"sqlite:///{root}/bench.db", home=root)
        try:
            service = container.artifact_compressor_service()

            def compress(name: str, mode: CompressionMode) -> str:
                outcome = service.compress(name, BUDGET, workdir=str(root), mode=mode)
                content: str = outcome.result.content
                return content

            (root / "with.json").write_text(json_line(key))
            (root / "without.json").write_text(json_line(None))
            content = compress("with.json", CompressionMode.TIERED)
            if key in content:
                raise AssertionError("the key was printed")
            with_s = best(repeat(lambda: compress("with.json", CompressionMode.TIERED), REPEATS))
            without_s = best(
                repeat(lambda: compress("without.json", CompressionMode.TIERED), REPEATS)
            )
            results = [
                Result(
                    name="redaction, 200 KB JSON line with an AWS key id",
                    measured=with_s,
                    baseline=without_s,
                    ratio=with_s / without_s,
                    unit="s",
                    target=f"<= {RATIO_TARGET:g}x without the key",
                    met=with_s <= RATIO_TARGET * without_s,
                    baseline_label="without the key",
                    details={"bytes": len(json_line(key)), "repeats": REPEATS, "budget": BUDGET},
                )
            ]
            with (root / "with.log").open("w") as handle:
                handle.writelines(log_lines(password))
            with (root / "without.log").open("w") as handle:
                handle.writelines(log_lines(None))
            size = (root / "with.log").stat().st_size
            for mode in (CompressionMode.SMART, CompressionMode.TIERED):
                # Interleaved, best of each: a shared machine's load falls on both alike.
                withs: list[float] = []
                withouts: list[float] = []
                for _ in range(LARGE_REPEATS):
                    elapsed, content = timed(partial(compress, "with.log", mode))
                    if password in content:
                        raise AssertionError("the password was printed")
                    withs.append(elapsed)
                    withouts.append(timed(partial(compress, "without.log", mode))[0])
                elapsed, baseline = best(withs), best(withouts)
                results.append(
                    Result(
                        name=f"redaction, {size / 1e6:.0f} MB log, connection string on line 1, "
                        f"{mode.value}",
                        measured=elapsed,
                        baseline=baseline,
                        ratio=elapsed / baseline,
                        unit="s",
                        target=f"<= {RATIO_TARGET:g}x without it",
                        met=elapsed <= RATIO_TARGET * baseline,
                        baseline_label="without it",
                        details={
                            "bytes": size,
                            "budget": BUDGET,
                            "mode": mode.value,
                            "repeats": LARGE_REPEATS,
                        },
                    )
                )
        finally:
            container.store().dispose()
    print_section("redaction speed: compress with and without one credential")
    for result in results:
        print_line(
            f"{result.name}: {result.measured:.3f} s with, {result.baseline:.3f} s without "
            f"({result.ratio:.2f}x)"
        )
    return results


if __name__ == "__main__":  # pragma: no cover
    for result in rows():
        print(result, file=sys.stderr)
