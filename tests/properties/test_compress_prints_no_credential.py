"""Whatever `agents artifact import` would block, compress never prints: in no field, in no
mode, for no kind.

The credentials are the recall set's (every kind the scanner knows, generated) and values
generated here holding the characters a redaction by words got wrong (``= : / + ' "`` and
base64 padding); each is planted in a document of every artifact kind, and in its name. The
import's verdict is the same scanner's: when it finds the planted value, no field compress
returns (name, content, notice, error) holds a finding or the value; when it finds nothing in
the input, no field holds a finding either.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.domain.artifact import ArtifactKind, CompressionMode
from tests.secret_recall_set import ALNUM, Credential, credentials

SCANNER = PatternSecretScanner()
SERVICE = ArtifactCompressorService(
    FdContainedFiles(), TiktokenCounter("cl100k_base"), TreeSitterSkeletonizer(), SCANNER
)
CREDENTIALS = credentials()
NAMES = {
    ArtifactKind.LOG: "build.log",
    ArtifactKind.DIFF: "change.diff",
    ArtifactKind.JSON: "response.json",
    ArtifactKind.MARKDOWN: "notes.md",
    ArtifactKind.SOURCE: "settings.py",
    ArtifactKind.TEXT: "output.txt",
}
VALUE_CHARACTERS = ALNUM + "=:/+'\"#!%"
TEMPLATES = (
    "PASSWORD={}",
    "  password: {}",
    "export API_KEY={} && make deploy",
    "client_secret={}",
    "token: {}",
)


def _document(kind: ArtifactKind, planted: str, filler: int) -> str:
    """A document of `kind` holding `planted` (one line or several), with `filler` ordinary
    lines around it."""
    lines = [f"step {i}: worker {i % 7} finished in {i * 13 % 997} ms" for i in range(filler)]
    if kind is ArtifactKind.JSON:
        return json.dumps({"steps": lines, "env": planted, "more": lines[::-1]})
    if kind is ArtifactKind.DIFF:
        added = "\n".join(f"+{line}" for line in [*lines, *planted.split("\n")])
        count = len(lines) + planted.count("\n") + 1
        return f"diff --git a/env b/env\n--- a/env\n+++ b/env\n@@ -0,0 +1,{count} @@\n{added}\n"
    if kind is ArtifactKind.MARKDOWN:
        body = "\n".join(f"- {line}" for line in lines)
        return f"# Deploy\n\n{body}\n\n```sh\n{planted}\n```\n\n## After\n\n{body}\n"
    if kind is ArtifactKind.SOURCE:
        functions = "\n\n".join(f"def step_{i}() -> int:\n    return {i}\n" for i in range(filler))
        return f'ENV = """\n{planted}\n"""\n\n\n{functions}'
    return "\n".join([*lines[: filler // 2], planted, *lines[filler // 2 :]]) + "\n"


def _check(
    name: str, text: str, value: str, budget: int, mode: CompressionMode, kind: ArtifactKind
) -> None:
    data = text.encode()
    outcome = SERVICE.compress_input(name, data, budget, mode=mode, kind=kind)
    result = outcome.result
    printed = [result.content, outcome.notice or "", outcome.error or ""]
    for shown in [result.artifact_name, *printed]:
        assert not SCANNER.match_bytes(shown.encode()), f"a finding in {shown!r}"
    # Each field shows what it was made of: the name the name, the rest the text.
    if _blocks(data, value):
        for shown in printed:
            assert value not in shown
    if _blocks(name.encode(), value):
        assert value not in result.artifact_name


def _blocks(data: bytes, value: str) -> bool:
    """Whether the import's scanner finds (part of) `value` in `data`."""
    position = data.find(value.encode())
    return position >= 0 and any(
        match.start < 0 or (match.start < position + len(value) and position < match.end)
        for match in SCANNER.match_bytes(data)
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    credential=st.sampled_from(CREDENTIALS),
    kind=st.sampled_from(list(ArtifactKind)),
    mode=st.sampled_from(list(CompressionMode)),
    budget=st.integers(min_value=8, max_value=600),
    filler=st.integers(min_value=0, max_value=60),
    in_name=st.booleans(),
)
def test_a_known_credential_is_never_printed(
    credential: Credential,
    kind: ArtifactKind,
    mode: CompressionMode,
    budget: int,
    filler: int,
    in_name: bool,
) -> None:
    name = NAMES[kind]
    if in_name and "\n" not in credential.secret:
        name = f"{credential.secret}.{name}"
    document = _document(kind, credential.text, filler)
    _check(name, document, credential.secret, budget, mode, kind)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.text(alphabet=VALUE_CHARACTERS, min_size=8, max_size=320),
    template=st.sampled_from(TEMPLATES),
    padding=st.sampled_from(("", "=", "==")),
    kind=st.sampled_from(list(ArtifactKind)),
    mode=st.sampled_from(list(CompressionMode)),
    budget=st.integers(min_value=8, max_value=600),
    filler=st.integers(min_value=0, max_value=40),
)
def test_a_generated_value_is_printed_whole_or_not_at_all(
    value: str,
    template: str,
    padding: str,
    kind: ArtifactKind,
    mode: CompressionMode,
    budget: int,
    filler: int,
) -> None:
    value += padding
    _check(NAMES[kind], _document(kind, template.format(value), filler), value, budget, mode, kind)
