#!/usr/bin/env bash
# The corpus of public-suite programs (benches/corpus/): accel, sequential and
# rayon, checked against each other, timed, into docs/bench/CORPUS.md.
#
#   bash bench/corpus.sh                       # full scale
#   CORPUS_SCALE=small bash bench/corpus.sh    # a tenth, quicker
#   bash bench/corpus.sh gemm                  # the programs whose name contains `gemm`
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench corpus -- "$@"
