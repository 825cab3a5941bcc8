"""More generated logs the shared corpus lacks: formats without a level column, structured
logs, and the output of build and test tools.

Line-per-record logs reuse `generated_logs`' templates and schedule (a Linux syslog with no
level word, JSON lines, logfmt, ``kubectl get events``, an nginx access log); tool output is
written block by block the way the tool prints it (pytest, cargo build and test, npm install,
tsc, go test, a Python program's stderr with tracebacks). Every text is a pure function of its
format, its size and a seed, so the benchmark and the tests get the same bytes every run; the
lines are written here from the tools' published shapes, none taken from a real run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from random import Random

from benchmarks.generated_logs import (
    ERROR,
    LINES,
    ROUTINE,
    WARNING,
    LogFormat,
    Record,
    Template,
    fill,
    generate,
    stable,
)

# --- Linux syslog without a level: the program and pid are all the prefix says -----------


def _plain_syslog(record: Record) -> str:
    program = record.template.component
    day = f"{record.when:%b} {record.when.day:>2} {record.when:%H:%M:%S}"
    if program == "kernel":
        return f"{day} combo kernel: {record.message}"
    return f"{day} combo {program}[{stable(program + record.message[:4], 300, 32_000)}]: " + (
        record.message
    )


_AUTH_FAILURE = "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost={ip}"
LEVELLESS_SYSLOG = LogFormat(
    name="syslog-no-level",
    file_name="Linux_nolevel_2k.log",
    start=datetime(2005, 6, 14, 15, 16, 1, tzinfo=UTC),
    render=_plain_syslog,
    routine=(
        Template(ROUTINE, "sshd(pam_unix)", _AUTH_FAILURE),
        Template(ROUTINE, "su(pam_unix)", "session opened for user cyrus by (uid=0)"),
        Template(ROUTINE, "su(pam_unix)", "session closed for user cyrus"),
        Template(ROUTINE, "ftpd", "connection from {ip} () at Tue Jun 14 15:{n2}:{n2} 2005"),
        Template(ROUTINE, "sshd(pam_unix)", "check pass; user unknown"),
        Template(ROUTINE, "crond(pam_unix)", "session opened for user root by (uid=0)"),
        Template(ROUTINE, "crond(pam_unix)", "session closed for user root"),
        Template(ROUTINE, "xinetd", "START: ftp pid={pid} from={ip}"),
        Template(ROUTINE, "kernel", "Enabling unmasked SIMD FPU exception support... done."),
        Template(ROUTINE, "kernel", "ACPI: PCI Interrupt Link [LNKB] enabled at IRQ {small}"),
        Template(ROUTINE, "kernel", "Memory: {big}k/{big}k available ({n}k kernel code)"),
        Template(ROUTINE, "gpm", "*** info [startup.c(95)]: Started gpm successfully."),
        Template(ROUTINE, "named", "lame server resolving '{host}' (in 'example.com'?): {ip}#53"),
        Template(ROUTINE, "cups", "cupsd startup succeeded"),
    ),
    warnings=(
        Template(WARNING, "kernel", "warning: many lost ticks."),
        Template(WARNING, "logrotate", "ALERT exited abnormally with [1]"),
        Template(WARNING, "kernel", "Warning: ACPI BIOS table checksum mismatch, using anyway"),
        Template(WARNING, "snmpd", "Connection from UDP: [{ip}]:{port} REFUSED"),
    ),
    errors=(
        Template(ERROR, "sshd(pam_unix)", _AUTH_FAILURE + "  user=root"),
        Template(ERROR, "kernel", "Out of memory: Killed process {pid} (httpd)."),
        Template(ERROR, "kernel", "EXT3-fs error (device hda{small}): ext3_find_entry: bad entry"),
        Template(ERROR, "nfslock", "rpc.statd startup failed"),
    ),
)


# --- JSON lines and logfmt (a Go or Node service) -----------------------------------------


def _fields(message: str) -> tuple[str, list[tuple[str, str]]]:
    """A template's message and its extra fields (``msg | key=value; key=value``)."""
    text, _, extra = message.partition(" | ")
    pairs = [pair.split("=", 1) for pair in extra.split("; ") if "=" in pair]
    return text, [(key, value) for key, value in pairs]


def _json_line(record: Record) -> str:
    message, extra = _fields(record.message)
    document: dict[str, object] = {
        "ts": f"{record.when:%Y-%m-%dT%H:%M:%S}.{record.when.microsecond // 1000:03d}Z",
        "level": record.template.level,
        "logger": record.template.component,
        "msg": message,
    }
    for key, value in extra:
        document[key] = int(value) if value.isdigit() else value
    return json.dumps(document, separators=(",", ":"))


def _logfmt(record: Record) -> str:
    message, extra = _fields(record.message)
    pairs = [
        ("ts", f"{record.when:%Y-%m-%dT%H:%M:%S}.{record.when.microsecond // 1000:03d}Z"),
        ("level", record.template.level),
        ("caller", record.template.component),
        ("msg", json.dumps(message)),
        *((key, json.dumps(value) if " " in value else value) for key, value in extra),
    ]
    return " ".join(f"{key}={value}" for key, value in pairs)


_SERVICE_ROUTINE = (
    Template("info", "http", "request completed | method=GET; path=/api/items/{n}; status=200"),
    Template("info", "http", "request completed | method=POST; path=/api/orders; status=201"),
    Template("debug", "cache", "cache hit | key=item:{n}; ttl_ms={ms}"),
    Template("debug", "cache", "cache miss | key=item:{n}"),
    Template("info", "db", "query executed | table=orders; rows={n}; duration_ms={ms}"),
    Template("info", "worker", "job started | job=reindex; id={uuid}"),
    Template("info", "worker", "job finished | job=reindex; id={uuid}; duration_ms={ms}"),
    Template("info", "auth", "token refreshed | user_id={n}"),
    Template("debug", "http", "health check | path=/healthz; status=200"),
    Template("info", "metrics", "flushed metrics | series={n}; bytes={big}"),
)
_SERVICE_WARNINGS = (
    Template("warn", "http", "slow request | path=/api/search; duration_ms={ms}"),
    Template("warn", "db", "connection pool nearly exhausted | in_use={n}; max=100"),
    Template("warn", "auth", "token close to expiry | user_id={n}; seconds_left={small}"),
    Template("warn", "config", "deprecated option used | option=cache.legacy_mode"),
)
_SERVICE_ERRORS = (
    Template("error", "payments", "charge failed | error=card declined; order={n}"),
    Template("error", "db", "query failed | error=deadlock detected; table=orders"),
    Template("error", "http", "upstream unavailable | upstream=inventory:8080; status=503"),
    Template("fatal", "worker", "job crashed | job=reindex; error=out of memory; id={uuid}"),
)
JSON_LINES = LogFormat(
    name="json-lines",
    file_name="service_jsonl_2k.log",
    start=datetime(2024, 4, 2, 9, 0, 0, tzinfo=UTC),
    render=_json_line,
    routine=_SERVICE_ROUTINE,
    warnings=_SERVICE_WARNINGS,
    errors=_SERVICE_ERRORS,
)
LOGFMT = LogFormat(
    name="logfmt",
    file_name="service_logfmt_2k.log",
    start=datetime(2024, 4, 3, 9, 0, 0, tzinfo=UTC),
    render=_logfmt,
    routine=tuple(
        Template(t.level, f"{t.component}/handler.go:{len(t.message)}", t.message)
        for t in _SERVICE_ROUTINE
    ),
    warnings=tuple(
        Template(t.level, f"{t.component}/client.go:{len(t.message)}", t.message)
        for t in _SERVICE_WARNINGS
    ),
    errors=tuple(
        Template(t.level, f"{t.component}/client.go:{len(t.message)}", t.message)
        for t in _SERVICE_ERRORS
    ),
)


# --- kubectl get events ------------------------------------------------------------------


def _event(record: Record) -> str:
    obj, _, message = record.message.partition(" ")
    age = f"{max(1, 90 - record.seq // 25)}m"
    return (
        f"{age:<11} {record.template.level:<9} {record.template.component:<18} {obj:<42} {message}"
    )


K8S_EVENTS = LogFormat(
    name="kubernetes-events",
    file_name="kubectl_events_2k.log",
    start=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC),
    render=_event,
    routine=(
        Template(
            "Normal", "Scheduled", "pod/web-{hex2} Successfully assigned shop/web to node-{n}"
        ),
        Template("Normal", "Pulling", 'pod/web-{hex2} Pulling image "registry/web:1.{n}"'),
        Template("Normal", "Pulled", 'pod/web-{hex2} Successfully pulled image "registry/web"'),
        Template("Normal", "Created", "pod/web-{hex2} Created container web"),
        Template("Normal", "Started", "pod/web-{hex2} Started container web"),
        Template("Normal", "Killing", "pod/web-{hex2} Stopping container web"),
        Template("Normal", "SuccessfulCreate", "replicaset/web-{hex2} Created pod: web-{hex2}"),
        Template("Normal", "ScalingReplicaSet", "deployment/web Scaled up replica set to {small}"),
        Template("Normal", "SuccessfulDelete", "replicaset/web-{hex2} Deleted pod: web-{hex2}"),
    ),
    warnings=(
        Template("Warning", "Unhealthy", "pod/web-{hex2} Readiness probe failed: HTTP 503"),
        Template("Warning", "BackOff", "pod/worker-{hex2} Back-off restarting failed container"),
        Template("Warning", "FailedMount", "pod/db-0 MountVolume.SetUp failed for volume data"),
        Template("Warning", "DNSConfigForming", "pod/web-{hex2} Nameserver limits were exceeded"),
    ),
    errors=(
        Template("Warning", "FailedScheduling", "pod/web-{hex2} 0/3 nodes are available"),
        Template("Warning", "Failed", 'pod/web-{hex2} Error: ErrImagePull "registry/web:9.9"'),
        Template("Warning", "OOMKilling", "node/node-{small} Memory cgroup out of memory: oom"),
        Template("Warning", "Evicted", "pod/worker-{hex2} The node was low on resource: memory."),
    ),
)


# --- nginx access log: no level at all, the status says how it went -----------------------


def _access(record: Record) -> str:
    stamp = f"{record.when:%d/%b/%Y:%H:%M:%S} +0000"
    request, _, rest = record.message.partition(" || ")
    client = fill("{ip}", Random(record.seq))
    return f'{client} - - [{stamp}] "{request}" {rest} "-" "{record.template.component}"'


_CURL, _BROWSER = "curl/8.4.0", "Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0"
NGINX_ACCESS = LogFormat(
    name="nginx-access",
    file_name="nginx_access_2k.log",
    start=datetime(2023, 11, 14, 8, 0, 0, tzinfo=UTC),
    render=_access,
    routine=(
        Template("200", _BROWSER, "GET /api/items/{n} HTTP/1.1 || 200 {n}"),
        Template("200", _BROWSER, "GET /static/app.{hex2}.js HTTP/1.1 || 200 {big}"),
        Template("200", _CURL, "GET /healthz HTTP/1.1 || 200 2"),
        Template("201", _BROWSER, "POST /api/orders HTTP/1.1 || 201 {n}"),
        Template("304", _BROWSER, "GET /static/logo.svg HTTP/1.1 || 304 0"),
        Template("200", _BROWSER, "GET /api/reports/failed-payments HTTP/1.1 || 200 {n}"),
    ),
    warnings=(
        Template("404", _BROWSER, "GET /api/items/{n}/reviews HTTP/1.1 || 404 {n}"),
        Template("401", _CURL, "POST /api/login HTTP/1.1 || 401 {n}"),
        Template("429", _CURL, "GET /api/search?q=shoes HTTP/1.1 || 429 {n}"),
        Template("403", _CURL, "GET /.env HTTP/1.1 || 403 {n}"),
    ),
    errors=(
        Template("502", _BROWSER, "POST /api/checkout HTTP/1.1 || 502 {n}"),
        Template("500", _BROWSER, "GET /api/orders/{n} HTTP/1.1 || 500 {n}"),
        Template("504", _CURL, "GET /api/export HTTP/1.1 || 504 {n}"),
        Template("503", _BROWSER, "GET /api/cart HTTP/1.1 || 503 {n}"),
    ),
)

LINE_FORMATS: tuple[LogFormat, ...] = (
    LEVELLESS_SYSLOG,
    JSON_LINES,
    LOGFMT,
    K8S_EVENTS,
    NGINX_ACCESS,
)


# --- tool output, block by block ----------------------------------------------------------

_MODULES = ("api", "cart", "orders", "billing", "search", "users", "auth", "stock")
_WORDS = ("total", "count", "price", "name", "items", "state", "limit", "user")


def _pytest(rng: Random, lines: int) -> list[str]:
    files = max(2, lines // 11)
    out = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.12.2, pytest-8.1.1, pluggy-1.4.0",
        f"collected {files * 9} items",
        "",
    ]
    failures: list[tuple[str, str]] = []
    for index in range(files):
        name = f"tests/test_{rng.choice(_MODULES)}_{index}.py"
        for number in range(9):
            test = f"test_{rng.choice(_WORDS)}_{number}"
            verdict = rng.choices(("PASSED", "FAILED", "SKIPPED"), (40, 1, 2))[0]
            out.append(f"{name}::{test} {verdict} [{100 * (index + 1) // files:3d}%]")
            if verdict == "FAILED":
                failures.append((name, test))
    out += ["", "=================================== FAILURES ==================================="]
    for name, test in failures:
        got, want = rng.randint(1, 99), rng.randint(100, 200)
        out += [
            f"_________________________________ {test} _________________________________",
            "",
            f"    def {test}():",
            f"        result = compute({got})",
            f">       assert result == {want}",
            f"E       assert {got} == {want}",
            "",
            f"{name}:{rng.randint(5, 300)}: AssertionError",
        ]
    out.append("=============================== warnings summary ===============================")
    out += [
        f"{failures[0][0] if failures else 'tests/conftest.py'}::test_setup",
        "  /app/.venv/lib/python3.12/site-packages/dateutil/tz.py:37: DeprecationWarning: "
        "datetime.utcfromtimestamp() is deprecated",
        "",
        "=========================== short test summary info ============================",
    ]
    out += [f"FAILED {name}::{test} - assert {rng.randint(2, 9)} == 1" for name, test in failures]
    passed = files * 9 - len(failures)
    out.append(
        f"============ {len(failures)} failed, {passed} passed, 1 warning in "
        f"{rng.uniform(1, 60):.2f}s ============"
    )
    return out


def _cargo(rng: Random, lines: int) -> list[str]:
    out = [
        f"   Compiling {crate} v0.{rng.randint(1, 9)}.{rng.randint(0, 30)}"
        for crate in ("libc", "serde", "tokio", "regex", "anyhow")[: 2 + lines // 200]
    ]
    for index in range(max(1, lines // 14)):
        path, line = f"src/{rng.choice(_MODULES)}.rs", rng.randint(1, 400)
        variable = rng.choice(_WORDS)
        out += [
            f"warning: unused variable: `{variable}`",
            f"  --> {path}:{line}:{rng.randint(5, 30)}",
            "   |",
            f"{line:>3} |     let {variable} = load();",
            "   |         ^^^^^ help: if this is intentional, prefix it with an underscore: "
            f"`_{variable}`",
            "",
        ]
        if index % 5 == 4:
            out += [f"   Compiling shop-{rng.choice(_MODULES)} v0.1.0 (/app/crates/{index})"]
    out += [
        "error[E0308]: mismatched types",
        f"  --> src/{rng.choice(_MODULES)}.rs:{rng.randint(1, 400)}:20",
        "   |",
        "42 |     let total: u32 = price * 1.2;",
        "   |                ---   ^^^^^^^^^^^ expected `u32`, found floating-point number",
        "",
        "error: could not compile `shop` (lib) due to 1 previous error; 12 warnings emitted",
    ]
    tests = max(3, lines // 6)
    out += ["", "running tests", f"running {tests} tests"]
    for index in range(tests):
        verdict = "FAILED" if index == tests // 2 else "ok"
        out.append(
            f"test {rng.choice(_MODULES)}::tests::{rng.choice(_WORDS)}_{index} ... {verdict}"
        )
    out += [
        "",
        "failures:",
        "",
        f"---- orders::tests::total_{tests // 2} stdout ----",
        f"thread 'orders::tests::total_{tests // 2}' panicked at src/orders.rs:88:9:",
        "assertion `left == right` failed",
        "  left: 3",
        " right: 4",
        "",
        f"test result: FAILED. {tests - 1} passed; 1 failed; 0 ignored; finished in 0.42s",
    ]
    return out


def _npm(rng: Random, lines: int) -> list[str]:
    out = []
    for _ in range(max(1, lines // 4)):
        name = f"{rng.choice(_WORDS)}-{rng.choice(_MODULES)}"
        package = f"{name}@{rng.randint(1, 9)}.0.{rng.randint(0, 20)}"
        fetch = f"npm http fetch GET 200 https://registry.npmjs.org/{name} {rng.randint(5, 900)}ms"
        out.append(
            rng.choice(
                [
                    fetch,
                    f"{fetch} (cache hit)",
                    f"npm WARN deprecated {package}: this package is no longer maintained",
                    f"npm info run {package} install node_modules/{name} node install.js",
                ]
            )
        )
    out += [
        f"added {rng.randint(100, 900)} packages, and audited {rng.randint(900, 1200)} packages",
        "",
        f"{rng.randint(2, 9)} vulnerabilities (1 moderate, 1 high)",
        "npm ERR! code ERESOLVE",
        "npm ERR! ERESOLVE unable to resolve dependency tree",
        "npm ERR! Found: react@18.2.0",
        'npm ERR! Could not resolve dependency: peer react@"^17.0.0" from legacy-widget@2.1.0',
        "npm ERR! A complete log of this run can be found in: /root/.npm/_logs/debug-0.log",
    ]
    return out


def _tsc(rng: Random, lines: int) -> list[str]:
    out = []
    messages = (
        "error TS2322: Type 'string' is not assignable to type 'number'.",
        "error TS2339: Property '{word}' does not exist on type 'Order'.",
        "error TS7006: Parameter '{word}' implicitly has an 'any' type.",
        "error TS2345: Argument of type 'null' is not assignable to parameter of type 'Item'.",
    )
    files: set[str] = set()
    for _ in range(max(1, lines // 5)):
        path = f"src/{rng.choice(_MODULES)}/{rng.choice(_WORDS)}.ts"
        files.add(path)
        line, column = rng.randint(1, 500), rng.randint(1, 40)
        message = rng.choice(messages).replace("{word}", rng.choice(_WORDS))
        out += [
            f"{path}:{line}:{column} - {message}",
            "",
            f"{line} const {rng.choice(_WORDS)} = order.{rng.choice(_WORDS)};",
            "        " + "~" * rng.randint(3, 12),
            "",
        ]
    out.append(f"Found {len(out) // 5} errors in {len(files)} files.")
    return out


def _go_test(rng: Random, lines: int) -> list[str]:
    out = []
    packages = max(1, lines // 20)
    for index in range(packages):
        package = f"example.com/shop/{rng.choice(_MODULES)}{index}"
        failing = index == packages - 1 or rng.random() < 0.15
        for test in range(6):
            name = f"Test{rng.choice(_WORDS).title()}{test}"
            out.append(f"=== RUN   {name}")
            if failing and test == 3:
                out += [
                    f"    {rng.choice(_WORDS)}_test.go:{rng.randint(10, 200)}: "
                    f"got {rng.randint(1, 9)}, want 10",
                    f"--- FAIL: {name} (0.0{rng.randint(0, 9)}s)",
                ]
            else:
                out.append(f"--- PASS: {name} (0.00s)")
        out.append("FAIL" if failing else "PASS")
        out.append(f"{'FAIL' if failing else 'ok  '}\t{package}\t0.{rng.randint(10, 999)}s")
    out += [
        "panic: runtime error: index out of range [3] with length 3",
        "",
        "goroutine 7 [running]:",
        "example.com/shop/cart.(*Cart).Total(...)",
        "\t/app/cart/cart.go:42 +0x1d",
        f"FAIL\texample.com/shop/cart\t0.{rng.randint(10, 99)}s",
    ]
    return out


def _python_stderr(rng: Random, lines: int) -> list[str]:
    out = []
    for index in range(max(1, lines // 10)):
        module = rng.choice(_MODULES)
        out += [
            f"processing batch {index}: {rng.randint(10, 999)} rows",
            f"/app/{module}/io.py:{rng.randint(5, 90)}: "
            f"UserWarning: column '{rng.choice(_WORDS)}' has nulls",
            "  frame = frame.fillna(0)",
        ]
        if index % 4 == 3:
            out += [
                "Traceback (most recent call last):",
                f'  File "/app/{module}/run.py", line {rng.randint(10, 300)}, in main',
                "    load(batch)",
                f'  File "/app/{module}/load.py", line {rng.randint(10, 300)}, in load',
                f"    row[{rng.choice(_WORDS)!r}] / count",
                rng.choice(
                    [
                        "ZeroDivisionError: division by zero",
                        f"KeyError: '{rng.choice(_WORDS)}'",
                        "ConnectionResetError: [Errno 104] Connection reset by peer",
                    ]
                ),
                "retrying batch",
            ]
    out.append(f"done: {lines} batches, see /var/log/app.log")
    return out


ToolOutput = Callable[[Random, int], list[str]]
TOOL_OUTPUTS: dict[str, ToolOutput] = {
    "pytest": _pytest,
    "cargo": _cargo,
    "npm": _npm,
    "tsc": _tsc,
    "go-test": _go_test,
    "python-stderr": _python_stderr,
}


def tool_output(name: str, lines: int = LINES // 4, seed: int | str = 0) -> str:
    """About `lines` lines of the tool's output (a pure function of the arguments)."""
    return "\n".join(TOOL_OUTPUTS[name](Random(f"{name}/{seed}"), lines)) + "\n"


def generate_more(lines: int = LINES) -> list[tuple[str, str]]:
    """(file name, text) of every format here, each about `lines` lines long (a big test suite's
    or build's output, as long as the logs)."""
    found = [(log.name, log.text) for log in (generate(fmt, lines) for fmt in LINE_FORMATS)]
    found += [(f"{name}_output.log", tool_output(name, lines)) for name in TOOL_OUTPUTS]
    return found
