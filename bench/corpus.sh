#!/usr/bin/env bash
# The corpus of public-suite programs (benches/corpus/): accel, sequential and
# rayon, and NumPy and Numba forms where there are some (bench/corpus.py),
# checked against each other, timed, into docs/bench/CORPUS.md and its chart
# docs/bench/CORPUS.svg.
#
#   bash bench/corpus.sh                       # full scale
#   CORPUS_SCALE=small bash bench/corpus.sh    # a tenth, quicker
#   bash bench/corpus.sh gemm                  # the programs whose name contains `gemm`
#
# NumPy and Numba come from PyPI, installed once into a cache folder;
# CORPUS_PYTHON= (empty) leaves their columns out.
set -euo pipefail
cd "$(dirname "$0")/.."
PY_DIR="$HOME/.cache/accel/corpus-py"
if [ -z "${CORPUS_PYTHON+set}" ]; then
    if [ ! -d "$PY_DIR/numba" ]; then
        python3 -m pip install --quiet --target "$PY_DIR" numpy numba
    fi
    export PYTHONPATH="$PY_DIR${PYTHONPATH:+:$PYTHONPATH}"
    export CORPUS_PYTHON=python3
fi
cargo bench --bench corpus -- "$@"
