"""Whether a process of this machine (and pid namespace) is still running."""

from __future__ import annotations

import errno
import os


def process_alive(pid: int) -> bool:
    """True while a process with `pid` exists, ours or another user's (EPERM says it exists).
    A pid no process can have (0, negative, past the kernel's range) counts as alive: a file
    named after it is never judged abandoned by it."""
    if not 0 < pid < 1 << 31:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError as error:
        return error.errno == errno.EPERM
    return True
