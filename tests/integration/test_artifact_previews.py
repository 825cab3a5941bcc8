"""Previews hold their bounds on any bytes, cut on character boundaries, keep the tail, and
never show a line the scanner flags."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.services.governance.media_types import sniff_media_type
from cleveragents.application.services.governance.previews import WITHHELD, _shown, build_preview
from tests.secret_samples import fake_aws_access_key_id

SCANNER = PatternSecretScanner()


def _preview_of(data: bytes, head_limit: int, tail_limit: int) -> tuple[str, str, int]:
    """As the store reads them: the first bytes, and the last bytes after those."""
    head = data[:head_limit]
    tail = data[max(len(data) - tail_limit, head_limit) :] if tail_limit else b""
    shown = build_preview(head, tail, len(data), SCANNER)
    return shown.head, shown.tail, shown.omitted_bytes


@settings(max_examples=300)
@given(
    data=st.binary(max_size=3000), head_limit=st.integers(0, 600), tail_limit=st.integers(0, 600)
)
def test_previews_hold_their_bounds_on_any_bytes(
    data: bytes, head_limit: int, tail_limit: int
) -> None:
    head, tail, omitted = _preview_of(data, head_limit, tail_limit)
    # Each byte decodes to at most one character (a bad byte becomes one U+FFFD).
    if len(data) <= head_limit + tail_limit:
        assert omitted == 0
        assert tail == ""
        assert head == _shown(data.decode("utf-8", errors="replace")) or WITHHELD in head
        return
    assert len(head) <= head_limit
    assert len(tail) <= tail_limit
    # Bytes of a character split by a cut count as omitted too (at most 3 on each side).
    assert 0 <= omitted - (len(data) - head_limit - tail_limit) <= 6
    # The tail is the output's end: its last complete character is always there.
    if tail_limit >= 4 and data[-1:].isascii():
        assert tail.endswith(_shown(data[-1:].decode())) or WITHHELD in tail
    # Nothing a terminal would obey is left: no ESC, no other C0 control but tab and newline
    # (and the CR of a CRLF), no DEL, no C1 control.
    for text in (head, tail):
        assert not _OBEYED.search(text.replace("\r\n", "\n"))


_OBEYED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_control_characters_are_shown_not_obeyed() -> None:
    data = (
        b"\x1b[2J\x1b[31mred\x1b[0m\r\nprogress 10%\rprogress 90%\x07\x7f"
        b"\xc2\x9b\te\xe2\x80\xaedone\n"  # a C1 CSI, a tab, a right-to-left override
    )
    shown = build_preview(data, b"", len(data), SCANNER)
    assert shown.head == "␛[2J␛[31mred␛[0m\r\nprogress 10%␍progress 90%␇␡\ufffd\te\ufffddone\n"


def test_a_multibyte_character_split_by_the_limit_is_dropped_not_mangled() -> None:
    data = ("é" * 10 + "x" * 100 + "日本語" * 10).encode()
    shown = build_preview(data[:5], data[-7:], len(data), SCANNER)
    assert shown.head == "éé"  # 5 bytes: two whole characters, the third dropped
    assert shown.tail == "本語"  # 7 bytes: the partial character at the start dropped
    assert "\ufffd" not in shown.head + shown.tail


def test_a_flagged_line_never_reaches_a_preview() -> None:
    key = fake_aws_access_key_id()
    data = f"first\nexport AWS_ACCESS_KEY_ID={key}\nlast\n".encode()
    shown = build_preview(data, b"", len(data), SCANNER)
    assert key not in shown.head
    assert shown.head.splitlines() == ["first", WITHHELD, "last"]
    assert shown.withheld_lines == 1


def test_media_types_from_content_then_name() -> None:
    assert sniff_media_type("x.bin", b"\x89PNG\r\n\x1a\nrest") == "image/png"
    assert sniff_media_type("out", b'{"a": 1}') == "application/json"
    assert sniff_media_type("build.log", b"INFO started") == "text/plain"
    assert sniff_media_type("change.diff", b"diff --git a/x b/x") == "text/x-diff"
    assert sniff_media_type("blob", b"\x00\x01\x02") == "application/octet-stream"
    assert sniff_media_type("notes.md", b"# Title") == "text/markdown"
    assert sniff_media_type("data.csv", b"a,b\n1,2") == "text/csv"
