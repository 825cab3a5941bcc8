"""What the generic rules (`token`, `secret`, `password`, `api-key`) require of a value.

Values that programs print and that are no credential (dotted identifiers, paths, URLs, format
strings and templates, numbers, timestamps, versions, words), assigned to any of those names in
any common layout, give no finding; random values assigned the same ways are found. Random values
come from seeded generators (a credential-shaped literal never sits in the repository).
"""

from __future__ import annotations

import random
import re
import uuid
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.secrets.secret_values import is_placeholder
from tests.secret_recall_set import ALNUM, DIGITS, LOWER, UPPER, random_key

SCANNER = PatternSecretScanner()
BARE_WORDS = re.compile(r"[A-Za-z]+(?:[-_][A-Za-z]+)*")
NAMES = (
    "token",
    "access_token",
    "secret",
    "client_secret",
    "password",
    "DB_PASSWORD",
    "passwd",
    "api_key",
    "apiKey",
    "x-api-key",
)
LAYOUTS = (
    "{name}={value}",
    "{name}: {value}",
    '"{name}": "{value}",',
    "{name} = '{value}'",
    "level=info {name}={value} user=ana",
    "stream/{name}: {value}: 132: done",
    "export {name}={value}",
)
# Words programs name things with (identifier pieces, log vocabulary).
WORDS = (
    "com",
    "apple",
    "xpc",
    "activity",
    "token",
    "refresh",
    "client",
    "secret",
    "store",
    "orders",
    "config",
    "db",
    "handler",
    "cache",
    "http",
    "json",
    "unknown",
    "stream",
    "request",
    "stale",
    "data",
    "version",
    "latest",
    "projects",
    "acme",
    "prod",
    "kubernetes",
    "io",
    "service",
    "account",
    "auth",
    "oauth",
    "bearer",
    "session",
    "manager",
    "default",
    "value",
    "user",
    "id",
    "key",
)

word = st.sampled_from(WORDS)
number = st.integers(min_value=0, max_value=10**12).map(str)


@st.composite
def name_piece(draw: st.DrawFn) -> str:
    """`unknown`, `unknown12`, `sha256`-like, `oauthClient`, `OAUTH_CLIENT`."""
    words = draw(st.lists(word, min_size=1, max_size=3))
    style = draw(st.sampled_from(("snake", "camel", "upper", "kebab")))
    if style == "camel":
        text = words[0] + "".join(w.capitalize() for w in words[1:])
    elif style == "upper":
        text = "_".join(words).upper()
    else:
        text = ("_" if style == "snake" else "-").join(words)
    if draw(st.booleans()):
        text += draw(number)
    return text


dotted = st.builds(
    lambda parts, suffix, colon: ".".join(parts) + suffix + colon,
    st.lists(name_piece(), min_size=2, max_size=5),
    st.one_of(st.just(""), number.map(lambda n: "/" + n), number.map(lambda n: "@" + n)),
    st.sampled_from(("", ":")),
)
path = st.builds(
    lambda lead, parts: lead + "/".join(parts),
    st.sampled_from(("/", "~/", "./", "../", "")),
    st.lists(st.one_of(name_piece(), number), min_size=2, max_size=6),
)
url = st.builds(
    lambda scheme, host, parts: f"{scheme}://{host}.example.com/" + "/".join(parts),
    st.sampled_from(("https", "http", "grpc", "s3")),
    name_piece(),
    st.lists(st.one_of(name_piece(), number), max_size=4),
)
FIELDS = ("%d", "%s", "%(name)s", "%-8.3f", "{}", "{0}", "{name}", "${HOME}", "$API_KEY", "%v")
format_string = st.builds(
    lambda parts, fields: "".join(p + f for p, f in zip(parts, fields, strict=False)),
    st.lists(st.one_of(name_piece(), number, st.just("_")), min_size=1, max_size=4),
    st.lists(st.sampled_from(FIELDS), min_size=1, max_size=4),
)
numeric = st.one_of(
    number,
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.builds(lambda n, unit: f"{n}{unit}", number, st.sampled_from(("ms", "s", "KB", "%"))),
    st.integers(min_value=0, max_value=2**64).map(hex),
    st.builds(lambda a, b, c, d: f"{a}.{b}.{c}.{d}", *[st.integers(0, 255)] * 4),
)
timestamp = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2099, 1, 1), timezones=st.just(UTC)
).map(lambda when: when.isoformat().replace("+00:00", "Z"))
version = st.builds(
    lambda v, parts, pre: v + ".".join(map(str, parts)) + pre,
    st.sampled_from(("", "v", "V")),
    st.lists(st.integers(0, 9999), min_size=2, max_size=4),
    st.sampled_from(("", "-rc.1", "-beta", "+build.20240605")),
)
NOT_SECRETS = st.one_of(dotted, path, url, format_string, numeric, timestamp, version)


def _found(name: str, value: str, layout: str) -> list[object]:
    line = layout.format(name=name, value=value)
    return list(SCANNER.match_bytes(f"before\n{line}\nafter\n".encode()))


@settings(max_examples=400, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    value=NOT_SECRETS,
    layout=st.sampled_from(LAYOUTS),
)
def test_values_of_a_known_shape_are_no_credential(name: str, value: str, layout: str) -> None:
    assert _found(name, value, layout) == []


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    value=st.one_of(word, name_piece().filter(lambda piece: not piece[-1].isdigit())),
    layout=st.sampled_from(LAYOUTS),
)
def test_words_and_names_are_no_credential(name: str, value: str, layout: str) -> None:
    """Words assigned to a password's name with `=`, ending the word, are the one exception: a
    .env file's password (`password=hunter`, `PASSWORD=correct-horse`), reported by design
    when long and varied enough."""
    ends_the_word = layout.split("{value}")[1][:1] in ("", " ")
    if "pass" in name.lower() and BARE_WORDS.fullmatch(value) and "{name}={value}" in layout:
        assert ends_the_word or _found(name, value, layout) == []
        return
    assert _found(name, value, layout) == []


def _random_values(seed: int) -> list[str]:
    """Values shaped as keys, tokens and generated passwords are (hex digests, base64, mixed
    case, lower case with digits, a UUID, a prefixed token)."""
    rng = random.Random(seed)
    hex_digits = "0123456789abcdef"
    return [
        "".join(rng.choice(hex_digits) for _ in range(40)),
        "".join(rng.choice(hex_digits) for _ in range(64)),
        random_key(rng, ALNUM, 32),
        random_key(rng, ALNUM + "+/", 40),
        random_key(rng, LOWER + DIGITS, 32),
        random_key(rng, UPPER + DIGITS, 24),
        str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "tok_" + random_key(rng, ALNUM, 32),
        random_key(rng, ALNUM + "!#%^*@", 20),
    ]


@pytest.mark.parametrize("seed", range(60))
def test_random_values_assigned_the_same_ways_are_found(seed: int) -> None:
    rng = random.Random(seed)
    for value in _random_values(seed):
        if is_placeholder(value.encode()):
            continue  # `%PDW...`, `ab**cd`: read as a template or a mask, by convention
        name = rng.choice(NAMES)
        layout = rng.choice(LAYOUTS)
        found = _found(name, value, layout)
        assert len(found) == 1, (name, value, layout)


def test_the_seen_log_line_is_no_credential_in_any_layout() -> None:
    for layout in LAYOUTS:
        assert _found("token", "com.apple.xpc.activity/4505", layout) == []
        assert _found("token", "unknown_12_%d", layout) == []
