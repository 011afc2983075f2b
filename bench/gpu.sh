#!/usr/bin/env bash
# The whole GPU run in one command, built for a GPU machine that has no Rust:
#
#   bash bench/gpu.sh pack   # here, without a GPU: build the test binaries, the
#                            # examples and the benchmark harness, stripped, into
#                            # target/gpu-pack.tar.xz (carry it to the GPU machine)
#   bash bench/gpu.sh        # on the GPU machine: unpack, then run every stage
#   bash bench/gpu.sh tests bench checks   # the same, by groups (any subset)
#
# The stages, each under its own time limit so that one slow stage cannot eat
# the others' time (the whole run fits in 10 minutes of GPU time):
#   1. (tests) random programs on the CUDA device, in-process, against the interpreter;
#   2. (tests) the GPU test suites with ACCEL_BACKEND=cuda;
#   3. (bench) the benchmark programs (accel on CUDA, then CuPy and JAX on the
#      same inputs) into docs/bench/gpu.md;
#   4. (checks) the expand/permute strategies, compute-sanitizer memcheck and
#      racecheck on every example (small sizes), and ncu's time, DRAM bytes,
#      instructions, sectors and bank conflicts of the dot product,
#      Black-Scholes and the histogram (the model's counters: gpu-model.md);
#   5. (issues) the open issues' own GPU checks: the clustering ways of
#      benches/horizontal.rs timed on the device (optimal fusion), and a
#      streamed dot product beside CuPy's pinned and pageable copy bandwidth
#      (sequences, out of core).
# Logs go to $GPU_RUN_OUT (default target/gpu-run): run.log (every stage's
# output, in order) and the benchmark JSON.
#
#   BENCH_SCALE=small|medium|full (default full)   GPU_FUZZ_PROGRAMS (default 1500)
set -uo pipefail
cd "$(dirname "$0")/.."

pack=target/gpu-pack
# The suites that exercise the GPU path (the others are compile-time or CPU-only).
suites="gpu_skeletons resident differential expand regressions lang_control lang_stencil lang_scalar lang_ops corpus"
# Test binaries run with a name filter: (binary, filter).
filtered="distributed:programs_on_cuda_ranks"

if [ "${1:-}" = pack ]; then
    set -e
    rm -rf "$pack" "$pack.tar.xz"
    mkdir -p "$pack/tests" "$pack/examples" "$pack/bench"
    exe() { # the executables of cargo's JSON messages whose target name is $1
        python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("target", {}).get("name") == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$1"
    }
    tests_json=$(cargo test --workspace --no-run --message-format=json 2>/dev/null)
    for t in random_gpu $suites ${filtered%%:*}; do
        cp "$(echo "$tests_json" | exe "$t" | tail -1)" "$pack/tests/$t"
    done
    cargo build --release --examples --quiet
    for e in examples/*.rs; do
        name=$(basename "$e" .rs)
        cp "target/release/examples/$name" "$pack/examples/$name"
    done
    bench_json=$(cargo bench --bench programs --bench expand --bench horizontal --no-run --message-format=json 2>/dev/null)
    for b in programs expand horizontal; do
        cp "$(echo "$bench_json" | exe $b | tail -1)" "$pack/bench/$b"
    done
    strip "$pack"/tests/* "$pack"/examples/* "$pack"/bench/*
    tar -C target -cJf "$pack.tar.xz" gpu-pack
    du -sh "$pack" "$pack.tar.xz"
    exit 0
fi

out="${GPU_RUN_OUT:-target/gpu-run}"
mkdir -p "$out"
log="$out/run.log"
: >"$log"
if [ -f "$pack.tar.xz" ] && [ ! -d "$pack" ]; then
    tar -C target -xJf "$pack.tar.xz"
fi
if [ ! -d "$pack" ]; then
    echo "no $pack: build it with \`bash bench/gpu.sh pack\` (needs cargo)" >&2
    exit 1
fi
# stage NAME SECONDS COMMAND...: runs COMMAND under a time limit, into the log.
stage() {
    local name=$1 limit=$2
    shift 2
    local t0=$SECONDS
    echo "=== $name (limit ${limit}s)" >>"$log"
    timeout --kill-after=5 "$limit" "$@" >>"$log" 2>&1
    local rc=$?
    echo "=== $name: exit $rc after $((SECONDS - t0))s" >>"$log"
    echo "$name: exit $rc after $((SECONDS - t0))s"
}
export ACCEL_BACKEND=cuda
scale="${BENCH_SCALE:-full}"
data="target/bench-data-gpu-$scale"
mkdir -p "$data"

run_tests() {
    stage device 30 sh -c 'nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv; '"$pack"'/examples/gpu_info'
    # Few threads: the driver serialises the JIT of each program's module (docs/gpu.md).
    # One thread: with two, runs past ~700 programs stalled (docs/gpu.md, 2026-11-27).
    stage random-programs 120 env ACCEL_FUZZ_THREADS=1 ACCEL_FUZZ_GPU_PROGRAMS="${GPU_FUZZ_PROGRAMS:-1500}" "$pack/tests/random_gpu"
    for t in $suites; do
        # lang_ops's segmented scans alone take 66 s on an H200 (2026-11-30).
        local limit=75
        [ "$t" = lang_ops ] && limit=150
        # The corpus at a tenth of its benchmark sizes (tests/corpus.rs).
        stage "suite $t" "$limit" env PROPTEST_CASES="${PROPTEST_CASES:-64}" CORPUS_CHECK_DIVISOR="${CORPUS_CHECK_DIVISOR:-10}" "$pack/tests/$t"
    done
    # The distributed checks with each thread rank's blocks on the GPU.
    stage "suite ${filtered%%:*}" 75 "$pack/tests/${filtered%%:*}" "${filtered#*:}"
}

run_bench() {
    stage bench-accel 200 env BENCH_BACKEND=cuda BENCH_SCALE="$scale" BENCH_DATA="$data" \
        BENCH_OUT="$out/rust-gpu.json" "$pack/bench/programs" --bench
    stage bench-python 150 env BENCH_RUNS=5 PYTHONUNBUFFERED=1 python3 bench/compare.py --gpu "$data" "$out/python-gpu.json"
    if [ -f "$out/rust-gpu.json" ] && [ -f "$out/python-gpu.json" ]; then
        stage merge 10 python3 bench/merge_gpu.py "$out/rust-gpu.json" "$out/python-gpu.json" docs/bench
        cp docs/bench/gpu.md "$out/gpu.md"
    fi
}

run_checks() {
    # The expand/permute strategies at the largest input count (criterion's filter).
    stage bench-expand 90 env BENCH_BACKEND=cuda "$pack/bench/expand" --bench \
        --warm-up-time 0.2 --measurement-time 0.5 n=200000
    local sizes="bfs:20000 black_scholes:100000 canny:256 dotp:100000 fluid:16384 gpu_info: histogram:100000 kmeans:20000 laplace:256 mandelbrot:65536 nbody:1024 sieve:100000 sort:100000 spmv:100000"
    for tool in memcheck racecheck; do
        for es in $sizes; do
            e=${es%%:*} n=${es#*:}
            stage "sanitizer $tool $e" 30 compute-sanitizer --tool "$tool" --error-exitcode 9 "$pack/examples/$e" $n
        done
    done
    # ncu beside the model's counters (docs/bench/gpu-model.md, `cargo bench --bench gpu_model`).
    local metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
    metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
    for es in dotp:67108864 black_scholes:20000000 histogram:20000000; do
        stage "ncu ${es%%:*}" 60 ncu --launch-count 12 --metrics "$metrics" --csv "$pack/examples/${es%%:*}" "${es#*:}"
    done
}

run_issues() {
    # Optimal fusion: optimal, greedy, separate and no-fusion builds on the device
    # (inputs held by the caller, so their device copies stay between calls).
    stage horizontal 150 env HORIZONTAL_BENCH_ROUNDS="${HORIZONTAL_BENCH_ROUNDS:-7}" "$pack/bench/horizontal"
    # Out of core: each streamed chunk is uploaded; the yardstick is the pinned copy.
    stage h2d 40 python3 bench/h2d.py 256
    stage dotp-seq 120 "$pack/examples/dotp_seq" 20000000 4194304
}

for s in ${@:-tests bench checks issues}; do
    case $s in
        tests) run_tests ;;
        bench) run_bench ;;
        checks) run_checks ;;
        issues) run_issues ;;
        *) echo "unknown stage $s (tests, bench, checks, issues)" >&2; exit 2 ;;
    esac
done
grep '^=== .*: exit' "$log"
