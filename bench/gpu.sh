#!/usr/bin/env bash
# The GPU half of the benchmarks: accel on CUDA against CuPy and JAX on the
# GPU, on the same inputs, into docs/bench/gpu.md. Needs a CUDA GPU and a
# python3 with cupy and jax (with its CUDA plugin).
#
#   bash bench/gpu.sh                    # build the harness, then run it
#   BENCH_BIN=PATH bash bench/gpu.sh     # a harness built elsewhere, by
#                                        # `cargo bench --bench programs --no-run`
#   BENCH_SCALE=small|medium bash bench/gpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scale="${BENCH_SCALE:-full}"
data="${BENCH_DATA_DIR:-target/bench-data-gpu-$scale}"
results="${BENCH_RESULTS:-target/bench-results}"
bin="${BENCH_BIN:-}"
if [ -z "$bin" ]; then
    bin=$(cargo bench --bench programs --no-run --message-format=json 2>/dev/null |
        python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("target", {}).get("name") == "programs" and m.get("executable"):
        print(m["executable"])')
fi
mkdir -p "$results" "$data"
BENCH_BACKEND="${BENCH_BACKEND:-cuda}" BENCH_SCALE="$scale" BENCH_DATA="$data" \
    BENCH_OUT="$results/rust-gpu-$scale.json" "$bin" --bench
python3 bench/compare.py --gpu "$data" "$results/python-gpu-$scale.json"
python3 bench/merge_gpu.py "$results/rust-gpu-$scale.json" "$results/python-gpu-$scale.json" docs/bench
