#!/usr/bin/env bash
# Runs every benchmark program in accel (fused, no fusion, no sharing), Rust +
# rayon, NumPy and JAX, and writes docs/bench/RESULTS.md and docs/bench/cpu.svg.
#
#   bash bench/run.sh                     # the papers' sizes
#   BENCH_SCALE=medium bash bench/run.sh  # about 1/10 of the work
#   BENCH_SCALE=small bash bench/run.sh   # about 1/50 of it, a quick check
#   BENCH_NOTE="text" bash bench/run.sh   # a note printed under the header
set -euo pipefail
cd "$(dirname "$0")/.."

scale="${BENCH_SCALE:-full}"
venv=target/bench-venv
data="target/bench-data-$scale"
results=target/bench-results

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check numpy "jax[cpu]" scipy matplotlib

mkdir -p "$results"
# The Rust side writes the inputs it generates, so NumPy and JAX run on the same data.
BENCH_SCALE="$scale" BENCH_DATA="$data" BENCH_OUT="$results/rust-$scale.json" \
    cargo bench --bench programs
if [ "$scale" != full ]; then export BENCH_RUNS="${BENCH_RUNS:-5}"; fi
"$venv/bin/python" bench/compare.py "$data" "$results/python-$scale.json"
"$venv/bin/python" bench/merge.py "$results/rust-$scale.json" "$results/python-$scale.json" docs/bench
