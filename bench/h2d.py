"""Host-to-device copy bandwidth with CuPy, pinned and pageable, in one run:
the yardstick for streamed (out-of-core) programs on a GPU (docs/bench/sequences.md).

    python3 bench/h2d.py [MB]   (default 256)
"""
import sys
import time

import cupy as cp
import numpy as np

mb = int(sys.argv[1]) if len(sys.argv) > 1 else 256
n = mb * 1_000_000 // 4
dev = cp.empty(n, dtype=cp.float32)
pageable = np.random.default_rng(1).random(n, dtype=np.float32)
pinned_mem = cp.cuda.alloc_pinned_memory(n * 4)
pinned = np.frombuffer(pinned_mem, dtype=np.float32, count=n)
pinned[:] = pageable


def best(src, runs=7):
    times = []
    for _ in range(runs):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        dev.set(src)
        cp.cuda.Device().synchronize()
        times.append(time.perf_counter() - t)
    times.sort()
    return times[0], times[len(times) // 2]


for name, src in [("pinned", pinned), ("pageable", pageable)]:
    lo, med = best(src)
    print(f"h2d {name:8} {mb} MB: best {mb / 1e3 / lo:6.1f} GB/s, median {mb / 1e3 / med:6.1f} GB/s")
