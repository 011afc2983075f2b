#!/usr/bin/env bash
# Scaling of the distributed examples (examples/distributed_*.rs) from 1 to 4
# ranks on this machine, as processes under mpiexec (the `distributed`
# feature; Debian's MPICH, as .ci/run installs it). Each rank computes on one
# thread (RAYON_NUM_THREADS=1), so that ranks up to the number of cores each
# have a core of their own; one run of 1 rank on all cores is the reference of
# what threads alone give. Prints the RESULT lines; with `--write`, also
# writes docs/bench/distributed.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release --features distributed --example distributed_dotp --example distributed_stencil
CORES=$(nproc)
OUT=$(mktemp)

run() { # KIND RANKS THREADS EXAMPLE ARGS..
    local kind=$1 p=$2 threads=$3; shift 3
    RAYON_NUM_THREADS=$threads mpiexec -n "$p" target/release/examples/"$@" \
        | grep '^RESULT' | sed "s/^RESULT/$kind/" | tee -a "$OUT"
}

for p in 1 2 4; do
    run strong "$p" 1 distributed_dotp 40000000 30
    run strong "$p" 1 distributed_stencil 4096 20
done
run strong 1 "$CORES" distributed_dotp 40000000 30
run strong 1 "$CORES" distributed_stencil 4096 20
# Weak scaling: the same work per rank (the grid's side grows as sqrt(ranks)).
for p in 1 2 4; do
    run weak "$p" 1 distributed_dotp $(( 10000000 * p )) 30
    side=$(python3 -c "print(round(2048 * $p ** 0.5))")
    run weak "$p" 1 distributed_stencil "$side" 20
done

if [ "${1:-}" = "--write" ]; then
    python3 bench/distributed_table.py "$OUT" "$CORES" > docs/bench/distributed.md
    echo "wrote docs/bench/distributed.md"
fi
rm -f "$OUT"
