"""Timing helpers shared by the benchmarks: best-of-N with the garbage collector paused."""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Collect, then keep the cyclic collector off for the block (restored afterwards)."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def timed(func: Callable[[], T]) -> tuple[float, T]:
    """Seconds one call of `func` takes (perf_counter, collector paused), and its result."""
    with gc_paused():
        start = time.perf_counter()
        result = func()
        elapsed = time.perf_counter() - start
    return elapsed, result


def timed_with_cpu(func: Callable[[], T]) -> tuple[float, float, T]:
    """Like `timed`, also with the CPU time of every thread of the process during the call
    (taken inside the paused collector, so the collection before it is not counted)."""
    with gc_paused():
        cpu_start = time.process_time()
        start = time.perf_counter()
        result = func()
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
    return elapsed, cpu, result


def repeat(func: Callable[[], object], repeats: int) -> list[float]:
    """The times of `repeats` calls of `func`, in call order."""
    times = []
    for _ in range(repeats):
        elapsed, result = timed(func)
        del result
        times.append(elapsed)
    return times


def best(times: list[float]) -> float:
    return min(times)


def median(times: list[float]) -> float:
    return statistics.median(times)


def peak_bytes(func: Callable[[], object]) -> int:
    """tracemalloc's peak of the Python allocations made during one call of `func`."""
    with gc_paused():
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            result = func()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    del result
    return peak
