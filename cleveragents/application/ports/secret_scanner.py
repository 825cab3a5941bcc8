"""The secret-scanner port: finds suspected credentials in a stream of bytes."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cleveragents.domain.secrets import SecretFinding


class SecretScan(ABC):
    """One scan over a stream fed in chunks of any size.

    A credential split across two chunks is found (implementations carry the unfinished line
    over); invalid UTF-8 does not stop the scan; time is linear in the input (very long lines
    are scanned in overlapping windows, not re-scanned as they grow).
    """

    @abstractmethod
    def feed(self, data: bytes) -> None: ...

    @abstractmethod
    def finish(self) -> list[SecretFinding]:
        """All findings, sorted by line then kind, without duplicates."""


class SecretScanner(ABC):
    @property
    @abstractmethod
    def name(self) -> str: ...

    @abstractmethod
    def start(self) -> SecretScan:
        """A new scan."""

    def scan_bytes(self, data: bytes) -> list[SecretFinding]:
        scan = self.start()
        scan.feed(data)
        return scan.finish()

    def scan_text(self, text: str) -> list[SecretFinding]:
        return self.scan_bytes(text.encode("utf-8", errors="surrogatepass"))
