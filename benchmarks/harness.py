"""Timing machinery shared by the benchmark sections.

Each measurement is a `timeit.Timer` whose statement is the library's own idiom inlined
into the timing loop (no adapter frame), timed with `time.thread_time_ns` (thread CPU
time: other processes on a shared 2-core VM do not count; jit's executor threads do not
count either, only the dispatch cost in the calling thread). The garbage collector is off
inside a sample, as in `timeit`.

Libraries are interleaved: every round visits every cell, and inside a cell the libraries
run in a fresh random order, one sample each. A sample repeats the statement `n` times,
with `n` calibrated per (library, cell) so that one sample takes about `sample_ms`, in a
timing loop compiled afresh for that sample.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
import timeit
from collections.abc import Callable, Sequence
from typing import Any


@dataclasses.dataclass
class Job:
    """One (cell, library) timing: ns per `units` of the statement."""

    cell: tuple[str, ...]  # e.g. (shape, op)
    lib: str
    stmt: str
    setup: str
    globals: dict[str, Any]
    units: int = 1  # how many "operations" one execution of stmt is
    number: int = 0  # calibrated repetitions per sample
    samples: list[float] = dataclasses.field(default_factory=list)  # ns per unit
    timer: timeit.Timer | None = None

    def compile(self) -> None:
        self.timer = timeit.Timer(
            self.stmt, self.setup, timer=time.thread_time_ns, globals=self.globals
        )

    def calibrate(self, sample_ns: float) -> None:
        assert self.timer is not None
        self.timer.timeit(3)  # warm-up: specialisation, caches, first-call work
        number = 1
        while True:
            t = self.timer.timeit(number)
            if t >= sample_ns / 10 or number >= 1 << 22:
                break
            number *= 4
        self.number = max(1, int(number * sample_ns / max(t, 1)))

    def sample(self, fresh: bool = True) -> None:
        """One sample. `fresh`: through a newly compiled timing loop, so the placement and
        specialisation state of one code object cannot bias every round the same way (it
        did, by up to ~7%, for the ~5-10 ns attribute reads)."""
        if fresh:
            self.compile()
            assert self.timer is not None
            self.timer.timeit(2)
        assert self.timer is not None
        self.samples.append(self.timer.timeit(self.number) / self.number / self.units)


def run_interleaved(
    jobs: Sequence[Job],
    rounds: int,
    sample_ms: float,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> None:
    rng = random.Random(seed)
    for job in jobs:
        job.compile()
    for job in jobs:
        job.calibrate(sample_ms * 1e6)
    cells: dict[tuple[str, ...], list[Job]] = {}
    for job in jobs:
        cells.setdefault(job.cell, []).append(job)
    cell_keys = list(cells)
    t0 = time.perf_counter()
    for r in range(rounds):
        rng.shuffle(cell_keys)
        for key in cell_keys:
            group = cells[key][:]
            rng.shuffle(group)
            for job in group:
                job.sample()
        if progress is not None:
            progress(f"round {r + 1}/{rounds} ({time.perf_counter() - t0:.0f}s)")


@dataclasses.dataclass
class Ratio:
    ratio: float  # median(lib) / median(reference)
    ratio_min: float  # min(lib) / min(reference)
    q1: float  # quartiles of the per-round paired ratios lib[r] / ref[r]
    q3: float

    @property
    def spread(self) -> float:
        """Half the interquartile range of the paired per-round ratios."""
        return (self.q3 - self.q1) / 2


def ratio(lib: Sequence[float], ref: Sequence[float]) -> Ratio:
    paired = sorted(a / b for a, b in zip(lib, ref, strict=True))
    if len(paired) >= 4:
        q = statistics.quantiles(paired, n=4)
        q1, q3 = q[0], q[2]
    else:
        q1, q3 = paired[0], paired[-1]
    return Ratio(statistics.median(lib) / statistics.median(ref), min(lib) / min(ref), q1, q3)
