#!/usr/bin/env bash
# Release build time of the example programs (examples/programs/*.rs, 20
# `#[acc]` functions) compiled as a library that depends on accel, with the
# default features (`gpu`: PTX and GPU host code) and without them (CPU only).
# Dependencies are built first; the time is the library's own build: macro
# expansion (front end, fusion, code generation) and rustc. Also counts the
# PTX modules in the library (none without `gpu`).
#
#   bash bench/build_time.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/target/build-time"
mkdir -p "$dir/src"
{
    echo '#![allow(unused)]'
    for f in "$root"/examples/programs/*.rs; do
        printf '#[path = "%s"]\npub mod %s;\n' "$f" "$(basename "$f" .rs)"
    done
} > "$dir/src/programs.rs"
for defaults in true false; do
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "build-time"
version = "0.0.0"
edition = "2021"

[dependencies]
accel = { path = "$root", default-features = $defaults }

[workspace]
TOML
    echo '' > "$dir/src/lib.rs"
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target-$defaults" cargo build --release -q)
    echo 'pub mod programs;' > "$dir/src/lib.rs"
    start=$(date +%s.%N)
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target-$defaults" cargo build --release -q 2>&1 | grep -v '^warning' || true)
    end=$(date +%s.%N)
    lib="$dir/target-$defaults/release/libbuild_time.rlib"
    ptx=$(grep -c -a 'address_size 64' "$lib" || true)
    printf 'default-features = %-5s  %6.2f s  (%d functions)  PTX modules in the library: %s\n' \
        "$defaults" "$(echo "$end - $start" | bc)" "$(grep -c 'fn ' "$root"/examples/programs/*.rs | awk -F: '{s+=$2} END {print s}')" "$ptx"
done
