"""Unit tests of log message templates (issue 13: templates before repeats).

The sample lines are written for these tests in the real formats; the loghub samples in
`tests/data/*_head.log` (see `test_log_compressor.py`) check that real logs fall into few
templates, without tuning the masking to any one of them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.logs.templates import (
    masked_lines,
    template_ids,
    template_of,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def _same(*lines: str) -> bool:
    return len(set(template_ids(list(lines)))) == 1


@pytest.mark.parametrize(
    "variants",
    [
        pytest.param(
            (
                "081109 203615 148 INFO dfs.DataNode$PacketResponder: Received block "
                "blk_-1608999687919862906 of size 91178 from /10.250.10.6",
                "081110 011214 31 INFO dfs.DataNode$PacketResponder: Received block "
                "blk_38865049064139660 of size 67108864 from /10.251.194.213",
            ),
            id="block ids of either sign, sizes, IPs",
        ),
        pytest.param(
            (
                "2015-10-18 18:01:47,978 INFO [main] org.apache.App: attempt "
                "attempt_1445144423722_0020_m_000002_0 took 12ms",
                "2015-10-19 09:11:02,004 INFO [main] org.apache.App: attempt "
                "attempt_1445087491445_0005_m_000009_1 took 3.5s",
            ),
            id="job ids and durations in other units",
        ),
        pytest.param(
            (
                "[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6",
                "[Mon Jan  9 17:02:10 2006] [error] mod_jk child workerEnv in error state 7",
            ),
            id="weekday and month names, aligned day",
        ),
        pytest.param(
            (
                "18-Oct-2015 18:01:47.978 SEVERE [main] org.apache.catalina.Startup: failed",
                "02-Nov-2016 07:11:02.004 SEVERE [main] org.apache.catalina.Startup: failed",
            ),
            id="month names between digits",
        ),
        pytest.param(
            (
                "Mon, 04 Jan 2016 07:11:02 GMT proxy: upstream timed out",
                "Tue, 05 Feb 2016 17:01:09 GMT proxy: upstream timed out",
            ),
            id="weekdays with a comma",
        ),
        pytest.param(
            (
                "Jun  4 15:16:01 combo sshd[19939]: Connection from 10.0.0.1 port 22",
                "Jun 14 15:16:01 combo sshd[9]: Connection from 192.168.100.10 port 51022",
            ),
            id="syslog with a padded day",
        ),
        pytest.param(
            (
                "request 550e8400-e29b-41d4-a716-446655440000 served by 0x7ffd5e8c in 12 ms",
                "request 6ba7b810-9dad-11d1-80b4-00c04fd430c8 served by 0x1a2b in 980 ms",
            ),
            id="UUIDs and hex addresses",
        ),
        pytest.param(
            (
                'open("/var/www/html/index.php") failed, user=alice path=/tmp/a.txt',
                'open("/srv/static/app.js") failed, user=bob path=C:\\Temp\\b.log',
            ),
            id="quoted strings, key=value values, Unix and Windows paths",
        ),
        pytest.param(
            (
                "03-17 16:13:38.811  1702  2395 D WindowManager: focus moved to 5e8c1f u0",
                "03-17 16:14:02.034   702 12395 D WindowManager: focus moved to 91f0cc u0",
            ),
            id="logcat columns aligned for pids of other widths",
        ),
        pytest.param(
            (
                '{"ts": 1700000000, "level": "info", "msg": "user logged in", "user": "ann"}',
                '{"ts": 1700000042, "level": "info", "msg": "user logged in", "user": "bo"}',
            ),
            id="JSON values other than the message",
        ),
        pytest.param(
            (
                "GET https://example.com/api/v1/items?id=7 returned 200",
                "GET https://example.org/static/logo.png returned 304",
            ),
            id="URLs",
        ),
    ],
)
def test_variables_are_masked(variants: tuple[str, ...]) -> None:
    assert _same(*variants)
    assert not re.search(r"[0-9]", template_of(variants[0]))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "2024-01-01 10:00:00 INFO pool: connection opened",
            "2024-01-01 10:00:00 WARN pool: connection opened",
        ),
        ("ts=1 level=info msg=ready", "ts=1 level=error msg=ready"),
        ('{"level": "info", "msg": "job started"}', '{"level": "info", "msg": "job failed"}'),
        ('ts=1 msg="cache warmed" n=5', 'ts=1 msg="cache flushed" n=5'),
        (
            "081109 203615 148 INFO dfs.DataNode: Starting thread to transfer block blk_1",
            "081109 203615 148 INFO dfs.DataNode: Stopping thread to transfer block blk_1",
        ),
        (
            "Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster from 173.234.31.186",
            "Dec 10 06:55:46 LabSZ sshd[24200]: Accepted password for fztu from 173.234.31.186",
        ),
        ("\tat com.acme.Client.call(Client.java:88)", "\tat com.acme.Server.run(Server.java:42)"),
        ("May not start: disk full", "Must not start: disk full"),
    ],
)
def test_different_messages_stay_apart(first: str, second: str) -> None:
    assert not _same(first, second)


def test_a_word_that_varies_becomes_a_variable_after_three_values() -> None:
    users = ["webmaster", "admin", "oracle", "guest", "test"]
    lines = [
        f"Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user {u} from 10.0.0.{i}"
        for i, u in enumerate(users)
    ]
    ids = template_ids(lines)
    assert ids[0] != ids[1]  # two values could be two messages
    assert ids[2:] == [ids[0]] * 3  # from the third on, it is a name
    # Only one place may vary: another message of the same length stays apart.
    other = "Dec 10 06:55:46 LabSZ sshd[24200]: Accepted password for admin from 10.0.0.9"
    assert template_ids([*lines, other])[-1] not in ids


def test_hex_ids_that_start_with_a_letter_merge_as_a_varying_word() -> None:
    # Masking keeps the letters before a hex id's first digit (`a<*>`, `<*>`); the word that
    # varies in one place makes them one template from its third value on.
    ids = template_ids(
        [
            f"2024-03-17 16:13:38 DEBUG session {h} refreshed for tenant acme"
            for h in ("a91f0c77", "5e8c1f02", "c3b2a190", "77aa01bc")
        ]
    )
    assert ids[2:] == [ids[0], ids[0]]


def test_ids_in_order_of_first_appearance() -> None:
    lines = [
        "INFO a started",
        "WARN disk 91% full",
        "INFO a started",
        "INFO b 5 done",
        "WARN disk 97% full",
    ]
    assert template_ids(lines) == [0, 1, 0, 2, 1]
    assert template_ids([]) == []


def test_template_text() -> None:
    line = (
        "2015-07-29 19:04:29,071 - WARN  [SendWorker:188978561024:QuorumCnxManager$SendWorker@688]"
        " - Send worker leaving thread"
    )
    assert template_of(line) == (
        "<*> <*> - WARN [SendWorker:<*>:QuorumCnxManager$SendWorker@<*>]"
        " - Send worker leaving thread"
    )
    assert template_of("user=bob took 12ms") == "user<*> took <*>"
    assert template_of('msg="disk 5 full"') == 'msg="disk <*> full"'  # the message stays


def test_real_logs_fall_into_few_templates() -> None:
    for path in sorted(DATA.glob("*_head.log")):
        lines = path.read_text().splitlines()
        assert len(set(template_ids(lines))) < len(lines) / 4, path.name


def test_a_line_with_a_newline_of_its_own() -> None:
    lines = ["a 1", "b\n2", "a 3"]
    assert masked_lines(lines) == [template_of(line) for line in lines]
    assert template_ids(lines) == [0, 1, 0]
