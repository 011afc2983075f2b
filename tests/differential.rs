//! Differential tests: every program runs on the reference interpreter
//! (`accel_core::interpret_source`) and as compiled CPU code, on random inputs
//! (proptest) and on fixed edge cases (empty arrays, one element, and sizes
//! crossing the parallel chunk size of 16384). Results must agree: integers
//! and bools exactly; floats exactly where both sides compute in the same order,
//! and within a relative tolerance (`F32_TOL` = 1e-4, `F64_TOL` = 1e-9) where
//! the parallel kernels may reorder floating-point additions. When one side
//! fails, the other must fail too, with the same `ErrorKind`.

#![allow(unexpected_cfgs)]

mod common;

use accel::dynamic::{Dyn, Value};
use accel::prelude::*;
use accel::ErrorKind;
use common::*;
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(32),
        max_shrink_iters: 200,
        ..ProptestConfig::default()
    }
}

fn small_f32() -> impl Strategy<Value = f32> + Clone {
    -100.0f32..100.0
}

/// Floats whose sums of a few thousand terms are exact in f32: for sums,
/// folds and scans of f32, whose order differs between back ends (interleaved
/// accumulators on the CPU, a tree on the GPU), so that a cancelling sum of
/// random floats cannot break the relative tolerance.
fn quarter_f32() -> impl Strategy<Value = f32> + Clone {
    (-400i32..400).prop_map(|q| q as f32 * 0.25)
}

fn small_f64() -> impl Strategy<Value = f64> + Clone {
    -1000.0f64..1000.0
}

/// Any f32 including NaN, infinities, zeros of both signs and subnormals.
fn wild_f32() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        4 => any::<f32>(),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(-0.0f32),
        1 => Just(0.0f32),
        1 => Just(f32::MAX),
        1 => Just(f32::MIN_POSITIVE / 2.0),
        4 => -300.0f32..300.0,
    ]
}

fn wild_f64() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        4 => any::<f64>(),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(-0.0f64),
        1 => Just(1e300f64),
        1 => Just(-1e19f64),
        1 => Just(4294967296.5f64),
        4 => -1e6f64..1e6,
    ]
}

// =============================================================================
// generate, fill
// =============================================================================

#[acc]
fn gen1(n: usize) -> Vector<i64> {
    generate([n], |[i]| (i as i64) * (i as i64) - 7)
}

#[acc]
fn gen2(r: usize, c: usize) -> Matrix<u16> {
    generate([r, c], |[i, j]| (i * 31 + j * 7) as u16)
}

#[acc]
fn gen3(a: usize, b: usize, c: usize) -> Array<(u8, bool), 3> {
    generate([a, b, c], |[i, j, k]| {
        (((i ^ j) + k * 3) as u8, (i + j + k) % 2 == 0)
    })
}

#[acc]
fn gen_ix(r: usize, c: usize) -> Matrix<(usize, usize)> {
    generate([r, c], |ix| (ix[0], ix[1]))
}

#[acc]
fn fill2(r: usize, c: usize, v: f32) -> Matrix<f32> {
    fill([r, c], v)
}

#[acc]
fn fill_pair(n: usize, a: i16, b: u32) -> Vector<(i16, u32)> {
    fill([n], (a, b))
}

#[acc]
fn fill_zip(xs: &Vector<u8>) -> Vector<u8> {
    fill(xs.shape(), 3u8).zip_with(xs, |a, b| a * b)
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn generate_ranks_1_to_3(n in 0usize..300, r in 0usize..40, c in 0usize..70, a in 0usize..8, b in 0usize..9, d in 0usize..10) {
        check_ok(gen1::SOURCE, "gen1", &[arg(n)], gen1(n), EXACT);
        check_ok(gen2::SOURCE, "gen2", &[arg(r), arg(c)], gen2(r, c), EXACT);
        check_ok(gen3::SOURCE, "gen3", &[arg(a), arg(b), arg(d)], gen3(a, b, d), EXACT);
        check_ok(gen_ix::SOURCE, "gen_ix", &[arg(r), arg(c)], gen_ix::on(&Backend::cpu(), r, c), EXACT);
    }

    #[test]
    fn fill_values(r in 0usize..40, c in 0usize..70, v in wild_f32(), a in any::<i16>(), b in any::<u32>(), xs in vector(any::<u8>(), 300)) {
        check_ok(fill2::SOURCE, "fill2", &[arg(r), arg(c), arg(v)], fill2(r, c, v), EXACT);
        check_ok(fill_pair::SOURCE, "fill_pair", &[arg(r * c), arg(a), arg(b)], fill_pair(r * c, a, b), EXACT);
        check_ok(fill_zip::SOURCE, "fill_zip", &[arg(&xs)], fill_zip(&xs), EXACT);
    }
}

#[test]
fn generate_large() {
    for n in [0, 1, 16_383, 16_384, 16_385, 50_001] {
        check_pools_ok(gen1::SOURCE, "gen1", &[arg(n)], || gen1(n), EXACT);
        check_pools_ok(
            fill_pair::SOURCE,
            "fill_pair",
            &[arg(n), arg(-3i16), arg(7u32)],
            || fill_pair(n, -3, 7),
            EXACT,
        );
    }
    check_pools_ok(
        gen2::SOURCE,
        "gen2",
        &[arg(3usize), arg(20_000usize)],
        || gen2(3, 20_000),
        EXACT,
    );
    check_pools_ok(
        gen3::SOURCE,
        "gen3",
        &[arg(2usize), arg(3usize), arg(5_000usize)],
        || gen3(2, 3, 5_000),
        EXACT,
    );
}

// =============================================================================
// map, zip_with, zip, unzip
// =============================================================================

#[acc]
fn map_i16(xs: &Vector<i16>) -> Vector<i16> {
    xs.map(|x| x * 3 - 1)
}

#[acc]
fn map_u16_to_bool(m: &Matrix<u16>) -> Matrix<bool> {
    m.map(|x| x % 3 == 0 || x > 60000)
}

#[acc]
fn map_f64_3(a: &Array<f64, 3>) -> Array<f64, 3> {
    a.map(|x| if x > 0.0 { x.sqrt() } else { -x * 0.5 })
}

#[acc]
fn map_bool(xs: &Vector<bool>) -> Vector<(bool, u8)> {
    xs.map(|b| (!b, b as u8 + 1))
}

#[acc]
fn map_map(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| x * 2.0).map(|y| y + 1.0).map(|z| z * z)
}

#[acc]
fn zip_v(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<i32> {
    xs.zip_with(ys, |x, y| x * 2 - y)
}

#[acc]
fn zip_m(a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> {
    a.zip_with(b, |x, y| x - y * 0.5)
}

#[acc]
fn zip_3(a: &Array<u32, 3>, b: &Array<u32, 3>) -> Array<u32, 3> {
    a.zip_with(b, |x, y| x ^ (y << 3))
}

/// Two fused producers of different shapes, then a consumer reading by index.
#[acc]
fn zip_m_fused(a: &Matrix<i64>, b: &Matrix<i64>) -> Matrix<i64> {
    a.map(|x| x + 1).zip_with(&b.map(|y| y * 2), |x, y| x - y)
}

#[acc]
fn zip_m_sum(a: &Matrix<i64>, b: &Matrix<i64>) -> Vector<i64> {
    a.zip_with(b, |x, y| x * y).sum()
}

/// A fold to a scalar of elements read at a matrix index (the CPU reads at
/// the linear offset when the shapes agree).
#[acc]
fn zip_m_total(a: &Matrix<i64>, b: &Matrix<i64>) -> Scalar<i64> {
    a.zip_with(b, |x, y| x * 3 - y).fold_all(0, |s, t| s + t)
}

#[acc]
fn zip_pairs(xs: &Vector<u8>, ys: &Vector<i8>) -> Vector<(u8, i8)> {
    xs.zip(ys)
}

#[acc]
fn zip_triple(xs: &Vector<u8>, ys: &Vector<i8>, zs: &Vector<bool>) -> Vector<(u8, i8, bool)> {
    xs.zip(ys).zip_with(zs, |(a, b), c| (a, b, c))
}

#[acc]
fn zip_nested(xs: &Vector<u8>, ys: &Vector<i8>, zs: &Vector<bool>) -> Vector<((u8, i8), bool)> {
    xs.zip(ys).zip(zs)
}

#[acc]
fn unzip_pairs(ps: &Vector<(i32, f64)>) -> (Vector<i32>, Vector<f64>) {
    ps.unzip()
}

#[acc]
fn unzip_triple(ts: &Matrix<(u8, i8, bool)>) -> (Matrix<u8>, Matrix<i8>, Matrix<bool>) {
    ts.unzip()
}

#[acc]
fn zip_unzip(xs: &Vector<u64>, ys: &Vector<u16>) -> Vector<u64> {
    let (a, b) = xs.zip(ys).unzip();
    a.zip_with(&b, |x, y| x + y as u64)
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn map_all_ranks(xs in vector(any::<i16>(), 300), m in matrix(any::<u16>(), 40, 70), a in array3(wild_f64(), 8, 9, 10), bs in vector(any::<bool>(), 300), fs in vector(small_f32(), 300)) {
        check_ok(map_i16::SOURCE, "map_i16", &[arg(&xs)], map_i16(&xs), EXACT);
        check_ok(map_u16_to_bool::SOURCE, "map_u16_to_bool", &[arg(&m)], map_u16_to_bool(&m), EXACT);
        check_ok(map_f64_3::SOURCE, "map_f64_3", &[arg(&a)], map_f64_3(&a), EXACT);
        check_ok(map_bool::SOURCE, "map_bool", &[arg(&bs)], map_bool(&bs), EXACT);
        check_ok(map_map::SOURCE, "map_map", &[arg(&fs)], map_map(&fs), EXACT);
    }

    #[test]
    fn zip_with_intersects(xs in vector(any::<i32>(), 300), ys in vector(any::<i32>(), 300),
                           a in matrix(small_f32(), 40, 70), b in matrix(small_f32(), 40, 70),
                           c in array3(any::<u32>(), 8, 9, 10), d in array3(any::<u32>(), 8, 9, 10),
                           p in matrix(-1000i64..1000, 40, 70), q in matrix(-1000i64..1000, 40, 70)) {
        let r = check_ok(zip_v::SOURCE, "zip_v", &[arg(&xs), arg(&ys)], zip_v(&xs, &ys), EXACT);
        let Dyn::Array(r) = r else { panic!() };
        prop_assert_eq!(r.shape, vec![xs.len().min(ys.len())]);
        check_ok(zip_m::SOURCE, "zip_m", &[arg(&a), arg(&b)], zip_m(&a, &b), EXACT);
        check_ok(zip_3::SOURCE, "zip_3", &[arg(&c), arg(&d)], zip_3(&c, &d), EXACT);
        check_ok(zip_m_fused::SOURCE, "zip_m_fused", &[arg(&p), arg(&q)], zip_m_fused(&p, &q), EXACT);
        check_ok(zip_m_sum::SOURCE, "zip_m_sum", &[arg(&p), arg(&q)], zip_m_sum(&p, &q), EXACT);
        check_ok(zip_m_total::SOURCE, "zip_m_total", &[arg(&p), arg(&q)], zip_m_total(&p, &q), EXACT);
        // Equal shapes: the linear reads.
        let pq = Matrix::from_vec(p.shape(), p.to_vec().into_iter().map(|x| x ^ 5).collect()).unwrap();
        check_ok(zip_m::SOURCE, "zip_m", &[arg(&a), arg(&a)], zip_m(&a, &a), EXACT);
        check_ok(zip_m_total::SOURCE, "zip_m_total", &[arg(&p), arg(&pq)], zip_m_total(&p, &pq), EXACT);
    }

    #[test]
    fn zip_and_unzip(xs in vector(any::<u8>(), 300), ys in vector(any::<i8>(), 300), zs in vector(any::<bool>(), 300),
                     ps in vector((any::<i32>(), wild_f64()), 300), ts in matrix((any::<u8>(), any::<i8>(), any::<bool>()), 40, 70),
                     us in vector(any::<u64>(), 300), vs in vector(any::<u16>(), 300)) {
        check_ok(zip_pairs::SOURCE, "zip_pairs", &[arg(&xs), arg(&ys)], zip_pairs(&xs, &ys), EXACT);
        check_ok(zip_triple::SOURCE, "zip_triple", &[arg(&xs), arg(&ys), arg(&zs)], zip_triple(&xs, &ys, &zs), EXACT);
        check_ok(zip_nested::SOURCE, "zip_nested", &[arg(&xs), arg(&ys), arg(&zs)], zip_nested(&xs, &ys, &zs), EXACT);
        check_ok(unzip_pairs::SOURCE, "unzip_pairs", &[arg(&ps)], unzip_pairs(&ps), EXACT);
        check_ok(unzip_triple::SOURCE, "unzip_triple", &[arg(&ts)], unzip_triple(&ts), EXACT);
        check_ok(zip_unzip::SOURCE, "zip_unzip", &[arg(&us), arg(&vs)], zip_unzip(&us, &vs), EXACT);
    }
}

#[test]
fn map_zip_large() {
    for n in [0, 1, 16_383, 16_385, 50_001] {
        let xs: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
        let ys: Vector<i32> = (0..n + 3).map(|i| hash(i + 9) as i32).collect();
        check_pools_ok(
            zip_v::SOURCE,
            "zip_v",
            &[arg(&xs), arg(&ys)],
            || zip_v(&xs, &ys),
            EXACT,
        );
        check_pools_ok(
            zip_v::SOURCE,
            "zip_v",
            &[arg(&ys), arg(&xs)],
            || zip_v(&ys, &xs),
            EXACT,
        );
        let fs: Vector<f32> = (0..n).map(|i| (hash(i) % 1000) as f32 / 7.0).collect();
        check_pools_ok(map_map::SOURCE, "map_map", &[arg(&fs)], || map_map(&fs), EXACT);
    }
}

// =============================================================================
// backpermute, reshape
// =============================================================================

#[acc]
fn reverse(xs: &Vector<f64>) -> Vector<f64> {
    xs.backpermute(xs.shape(), |[i]| [xs.len() - 1 - i])
}

#[acc]
fn transpose(m: &Matrix<i32>) -> Matrix<i32> {
    let [r, c] = m.shape();
    m.backpermute([c, r], |[i, j]| [j, i])
}

#[acc]
fn transpose_fused(m: &Matrix<i32>) -> Vector<i32> {
    let [r, c] = m.shape();
    m.map(|x| x * 3)
        .backpermute([c, r], |[i, j]| [j, i])
        .fold(0, |a, b| a + b)
}

/// Reads `k` positions past the end when `k > 0` (and the vector is non-empty
/// or `k` covers index 0).
#[acc]
fn shift_left(xs: &Vector<u16>, k: usize) -> Vector<u16> {
    xs.backpermute(xs.shape(), |[i]| [i + k])
}

#[acc]
fn bp_to_3d(xs: &Vector<i8>, a: usize, b: usize) -> Array<i8, 3> {
    xs.backpermute([a, b, 2], |[i, j, k]| [(i * b + j) * 2 + k])
}

#[acc]
fn reshape_flat(m: &Matrix<i32>) -> Vector<i32> {
    m.reshape([m.len()])
}

#[acc]
fn reshape_to(xs: &Vector<u16>, r: usize, c: usize) -> Matrix<u16> {
    xs.reshape([r, c])
}

#[acc]
fn reshape_3(m: &Matrix<i64>, a: usize, b: usize, c: usize) -> Array<i64, 3> {
    m.map(|x| x - 1).reshape([a, b, c])
}

/// A reshape of a zip of two differently shaped matrices (no linear form).
#[acc]
fn reshape_zip(a: &Matrix<i32>, b: &Matrix<i32>) -> Vector<i32> {
    let z = a.zip_with(b, |x, y| x * 100 + y);
    z.reshape([z.len()])
}

#[acc]
fn reshape_transpose(m: &Matrix<u8>) -> Vector<u8> {
    let [r, c] = m.shape();
    m.backpermute([c, r], |[i, j]| [j, i]).reshape([r * c])
}

/// A sort of a fused producer (the producer runs inside the sort kernel).
#[acc]
fn sort_fused(xs: &Vector<i32>) -> Vector<i64> {
    xs.map(|x| x as i64 * 3 - 7).sort()
}

/// Few distinct keys (the CPU skips the passes of digits all keys share),
/// stability seen through the indices.
#[acc]
fn sort_narrow(xs: &Vector<u16>) -> Vector<usize> {
    xs.map(|x| x % 7).sort_indices()
}

/// Sorted pairs used twice, by a scan and a fold, after a sort of a sort.
#[acc]
fn sort_then_scan(ps: &Vector<(i16, u8)>) -> (Vector<i64>, Scalar<i64>) {
    let s = ps.sort_by_key(|p| p.1).sort_by_key(|p| p.0 / 8);
    let w = s.map(|p| p.0 as i64 * 256 + p.1 as i64);
    (w.scanl1(|a, b| a ^ b), w.fold_all(0, |a, b| a + b))
}

/// Reads `ys` at the iteration index: the CPU compares the extents once, on
/// entry, and reads unchecked when `ys` is long enough.
#[acc]
fn xor_at_iteration(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<i32> {
    generate([xs.len()], |[i]| xs[[i]] ^ ys[[i]])
}

/// All pairs reduced along rows, `ws` read at the inner iteration index (the
/// n-body pattern).
#[acc]
fn weighted_pairs(xs: &Vector<i16>, ws: &Vector<i16>) -> Vector<i64> {
    let n = xs.len();
    generate([n, n], |[i, j]| xs[[i]] as i64 * ws[[j]] as i64).fold(0, |a, b| a + b)
}

/// A loop over `ys` bounded by its length: `ys[[c]]` needs no check.
#[acc]
fn loop_below_len(xs: &Vector<i64>, ys: &Vector<i64>) -> Vector<i64> {
    let n = ys.len();
    xs.map(|x| {
        let mut c = 0usize;
        let mut acc = x;
        while c < n && acc > -1000000 {
            acc = acc + ys[[c]] * (c as i64 + 1);
            c += 1;
        }
        acc
    })
}

/// The same loop bounded by `m` instead: out of bounds when `m > ys.len()`.
#[acc]
fn loop_below_m(xs: &Vector<i64>, ys: &Vector<i64>, m: usize) -> Vector<i64> {
    xs.map(|x| {
        let mut c = 0usize;
        let mut acc = x;
        while c < m {
            acc = acc + ys[[c]];
            c += 1;
        }
        acc
    })
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn reads_at_the_iteration_index(xs in vector(any::<i32>(), 300), ys in vector(any::<i32>(), 300),
                                    ps in vector(any::<i16>(), 60), ws in vector(any::<i16>(), 60)) {
        check_fails_if(xor_at_iteration::SOURCE, "xor_at_iteration", &[arg(&xs), arg(&ys)], xor_at_iteration(&xs, &ys), EXACT, ys.len() < xs.len(), ErrorKind::IndexOutOfBounds).ok();
        check_fails_if(weighted_pairs::SOURCE, "weighted_pairs", &[arg(&ps), arg(&ws)], weighted_pairs(&ps, &ws), EXACT, ws.len() < ps.len(), ErrorKind::IndexOutOfBounds).ok();
        let small: Vec<i64> = ys.to_vec().iter().map(|&y| (y % 1000) as i64).collect();
        let small = Vector::from(small);
        let big: Vector<i64> = Vector::from(xs.to_vec().iter().map(|&x| x as i64).collect::<Vec<_>>());
        check_ok(loop_below_len::SOURCE, "loop_below_len", &[arg(&big), arg(&small)], loop_below_len(&big, &small), EXACT);
        let m = ps.len();
        check_fails_if(loop_below_m::SOURCE, "loop_below_m", &[arg(&big), arg(&small), arg(m)], loop_below_m(&big, &small, m), EXACT,
                       !(big.is_empty() || m <= small.len()), ErrorKind::IndexOutOfBounds).ok();
        // Long enough: the unchecked version.
        let long: Vector<i32> = Vector::from((0..xs.len() as i32 + 3).collect::<Vec<_>>());
        check_ok(xor_at_iteration::SOURCE, "xor_at_iteration", &[arg(&xs), arg(&long)], xor_at_iteration(&xs, &long), EXACT);
    }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn sorts(xs in vector(any::<i32>(), 300), us in vector(any::<u16>(), 300), ps in vector((any::<i16>(), any::<u8>()), 300)) {
        check_ok(sort_fused::SOURCE, "sort_fused", &[arg(&xs)], sort_fused(&xs), EXACT);
        check_ok(sort_narrow::SOURCE, "sort_narrow", &[arg(&us)], sort_narrow(&us), EXACT);
        check_ok(sort_then_scan::SOURCE, "sort_then_scan", &[arg(&ps)], sort_then_scan(&ps), EXACT);
    }
}

/// Sizes crossing the CPU sort's chunks (16384 elements at least each) and
/// the size from which it splits by the first digit into buckets (32768). The
/// simulator runs every GPU thread of every pass, so there only the smaller.
#[test]
fn sort_large() {
    let sizes: &[usize] = if on_gpu() {
        &[0, 1, 700]
    } else {
        &[0, 1, 16_385, 70_001]
    };
    for &n in sizes {
        let xs: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
        check_pools_ok(
            sort_fused::SOURCE,
            "sort_fused",
            &[arg(&xs)],
            || sort_fused(&xs),
            EXACT,
        );
        let us: Vector<u16> = (0..n).map(|i| hash(i + 5) as u16).collect();
        check_pools_ok(
            sort_narrow::SOURCE,
            "sort_narrow",
            &[arg(&us)],
            || sort_narrow(&us),
            EXACT,
        );
    }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn backpermute_cases(xs in vector(wild_f64(), 300), m in matrix(any::<i32>(), 40, 70), us in vector(any::<u16>(), 300), k in 0usize..3,
                         bs in vector(any::<i8>(), 300), a in 0usize..8, b in 0usize..9) {
        check_ok(reverse::SOURCE, "reverse", &[arg(&xs)], reverse(&xs), EXACT);
        check_ok(transpose::SOURCE, "transpose", &[arg(&m)], transpose(&m), EXACT);
        check_ok(transpose_fused::SOURCE, "transpose_fused", &[arg(&m)], transpose_fused(&m), EXACT);
        check_fails_if(shift_left::SOURCE, "shift_left", &[arg(&us), arg(k)], shift_left(&us, k), EXACT, k > 0 && !us.is_empty(), ErrorKind::IndexOutOfBounds).ok();
        check_fails_if(bp_to_3d::SOURCE, "bp_to_3d", &[arg(&bs), arg(a), arg(b)], bp_to_3d(&bs, a, b), EXACT, a * b * 2 > bs.len(), ErrorKind::IndexOutOfBounds).ok();
    }

    #[test]
    fn reshape_cases(m in matrix(any::<i32>(), 40, 70), xs in vector(any::<u16>(), 300), r in 0usize..20, c in 0usize..20,
                     p in matrix(any::<i64>(), 12, 12), a in 0usize..5, b in 0usize..5, d in 0usize..5,
                     q in matrix(-1000i32..1000, 10, 10), q2 in matrix(-1000i32..1000, 10, 10), t in matrix(any::<u8>(), 40, 70)) {
        check_ok(reshape_flat::SOURCE, "reshape_flat", &[arg(&m)], reshape_flat(&m), EXACT);
        check_fails_if(reshape_to::SOURCE, "reshape_to", &[arg(&xs), arg(r), arg(c)], reshape_to(&xs, r, c), EXACT, r * c != xs.len(), ErrorKind::ShapeMismatch).ok();
        // Valid half of the time: reshape to (len / c) × c when c divides len.
        if xs.len() % (c + 1) == 0 {
            let rows = xs.len() / (c + 1);
            check_ok(reshape_to::SOURCE, "reshape_to", &[arg(&xs), arg(rows), arg(c + 1)], reshape_to(&xs, rows, c + 1), EXACT);
        }
        check_fails_if(reshape_3::SOURCE, "reshape_3", &[arg(&p), arg(a), arg(b), arg(d)], reshape_3(&p, a, b, d), EXACT, a * b * d != p.len(), ErrorKind::ShapeMismatch).ok();
        let [pr, pc] = p.shape();
        check_ok(reshape_3::SOURCE, "reshape_3", &[arg(&p), arg(pc), arg(1usize), arg(pr)], reshape_3(&p, pc, 1, pr), EXACT);
        check_ok(reshape_zip::SOURCE, "reshape_zip", &[arg(&q), arg(&q2)], reshape_zip(&q, &q2), EXACT);
        check_ok(reshape_transpose::SOURCE, "reshape_transpose", &[arg(&t)], reshape_transpose(&t), EXACT);
    }
}

#[test]
fn reshape_size_mismatch_is_an_error() {
    let xs = Vector::from(vec![1u16, 2, 3, 4, 5, 6]);
    check_ok(
        reshape_to::SOURCE,
        "reshape_to",
        &[arg(&xs), arg(2usize), arg(3usize)],
        reshape_to(&xs, 2, 3),
        EXACT,
    );
    check_err(
        reshape_to::SOURCE,
        "reshape_to",
        &[arg(&xs), arg(4usize), arg(2usize)],
        reshape_to(&xs, 4, 2),
        ErrorKind::ShapeMismatch,
    );
    let empty = Vector::<u16>::from(vec![]);
    check_ok(
        reshape_to::SOURCE,
        "reshape_to",
        &[arg(&empty), arg(0usize), arg(5usize)],
        reshape_to(&empty, 0, 5),
        EXACT,
    );
    check_err(
        reshape_to::SOURCE,
        "reshape_to",
        &[arg(&empty), arg(1usize), arg(1usize)],
        reshape_to(&empty, 1, 1),
        ErrorKind::ShapeMismatch,
    );
    // Sizes whose product overflows usize.
    check_err(
        reshape_to::SOURCE,
        "reshape_to",
        &[arg(&xs), arg(usize::MAX), arg(3usize)],
        reshape_to(&xs, usize::MAX, 3),
        ErrorKind::ShapeMismatch,
    );
}

#[test]
fn backpermute_out_of_bounds_is_an_error() {
    let xs = Vector::from(vec![1u16, 2, 3]);
    check_pools_err(
        shift_left::SOURCE,
        "shift_left",
        &[arg(&xs), arg(1usize)],
        || shift_left(&xs, 1),
        ErrorKind::IndexOutOfBounds,
    );
    check_pools_ok(
        shift_left::SOURCE,
        "shift_left",
        &[arg(&xs), arg(0usize)],
        || shift_left(&xs, 0),
        EXACT,
    );
    let big: Vector<u16> = (0..50_001).map(|i| hash(i) as u16).collect();
    check_pools_err(
        shift_left::SOURCE,
        "shift_left",
        &[arg(&big), arg(1usize)],
        || shift_left(&big, 1),
        ErrorKind::IndexOutOfBounds,
    );
    let m: Matrix<i32> = Matrix::from_fn([3, 20_000], |[i, j]| (i * 7 + j) as i32);
    check_pools_ok(
        transpose::SOURCE,
        "transpose",
        &[arg(&m)],
        || transpose(&m),
        EXACT,
    );
    check_pools_ok(
        transpose_fused::SOURCE,
        "transpose_fused",
        &[arg(&m)],
        || transpose_fused(&m),
        EXACT,
    );
}

// =============================================================================
// fold, fold1, fold_all, sum, product, minimum, maximum
// =============================================================================

#[acc]
fn fold_v(xs: &Vector<i32>) -> Scalar<i32> {
    xs.fold(17, |a, b| a + b)
}

#[acc]
fn fold_m(m: &Matrix<i64>) -> Vector<i64> {
    m.fold(5, |a, b| a ^ b)
}

#[acc]
fn fold_3(a: &Array<u64, 3>) -> Matrix<u64> {
    a.fold(3, |x, y| x.max(y))
}

/// Composition of affine maps `x -> x * m + c` (wrapping u32): associative but
/// not commutative, so it detects operands combined out of order.
#[acc]
fn affine_fold_v(xs: &Vector<(u32, u32)>) -> Scalar<(u32, u32)> {
    xs.fold((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2))
}

#[acc]
fn affine_fold_m(xs: &Matrix<(u32, u32)>) -> Vector<(u32, u32)> {
    xs.fold((3, 5), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2))
}

#[acc]
fn affine_fold1_3(xs: &Array<(u32, u32), 3>) -> Matrix<(u32, u32)> {
    xs.fold1(|(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2))
}

#[acc]
fn fold1_first_last(m: &Matrix<i16>) -> (Vector<i16>, Vector<i16>) {
    (m.fold1(|a, _b| a), m.fold1(|_a, b| b))
}

#[acc]
fn fold1_v(xs: &Vector<f32>) -> Scalar<f32> {
    xs.fold1(|a, b| a + b)
}

#[acc]
fn fold_f64_m(m: &Matrix<f64>) -> Vector<f64> {
    m.fold(0.5, |a, b| a + b)
}

#[acc]
fn fold_all_m(m: &Matrix<i32>) -> Scalar<i32> {
    m.fold_all(1, |a, b| a + b)
}

#[acc]
fn fold_all_3(a: &Array<f64, 3>) -> Scalar<f64> {
    a.fold_all(0.0, |x, y| x + y)
}

#[acc]
fn fold_all_affine(a: &Array<(u32, u32), 3>) -> Scalar<(u32, u32)> {
    a.fold_all((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2))
}

#[acc]
fn fold_all_scalar(s: &Scalar<i8>) -> Scalar<i8> {
    s.fold_all(100, |a, b| a + b)
}

#[acc]
fn fold_bool_rows(m: &Matrix<bool>) -> (Vector<bool>, Vector<bool>) {
    (m.fold(true, |a, b| a && b), m.fold(false, |a, b| a || b))
}

#[acc]
fn sums(xs: &Vector<u8>, m: &Matrix<i16>, a: &Array<u64, 3>) -> (Scalar<u8>, Vector<i16>, Matrix<u64>) {
    (xs.sum(), m.sum(), a.sum())
}

#[acc]
fn products(xs: &Vector<i8>, m: &Matrix<u32>, a: &Array<i64, 3>) -> (Scalar<i8>, Vector<u32>, Matrix<i64>) {
    (xs.product(), m.product(), a.product())
}

#[acc]
fn float_sums(xs: &Vector<f32>, m: &Matrix<f64>) -> (Scalar<f32>, Vector<f64>) {
    (xs.sum(), m.sum())
}

#[acc]
fn float_products(m: &Matrix<f32>) -> Vector<f32> {
    m.product()
}

#[acc]
fn min_v(xs: &Vector<i64>) -> Scalar<i64> {
    xs.minimum()
}

#[acc]
fn max_v(xs: &Vector<u16>) -> Scalar<u16> {
    xs.maximum()
}

#[acc]
fn min_m(m: &Matrix<f64>) -> Vector<f64> {
    m.minimum()
}

#[acc]
fn max_3(a: &Array<f32, 3>) -> Matrix<f32> {
    a.maximum()
}

#[acc]
fn minmax_bool(m: &Matrix<bool>) -> (Vector<bool>, Vector<bool>) {
    (m.minimum(), m.maximum())
}

#[acc]
fn minmax_small(xs: &Vector<i8>, ys: &Vector<u8>) -> (Scalar<i8>, Scalar<u8>) {
    (xs.minimum(), ys.maximum())
}

fn pair_u32() -> impl Strategy<Value = (u32, u32)> + Clone {
    (any::<u32>(), any::<u32>())
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn folds_with_initial_value(xs in vector(any::<i32>(), 300), m in matrix(any::<i64>(), 40, 70), a in array3(any::<u64>(), 8, 9, 10),
                                pv in vector(pair_u32(), 300), pm in matrix(pair_u32(), 40, 70), fm in matrix(small_f64(), 40, 70)) {
        check_ok(fold_v::SOURCE, "fold_v", &[arg(&xs)], fold_v(&xs), EXACT);
        check_ok(fold_m::SOURCE, "fold_m", &[arg(&m)], fold_m(&m), EXACT);
        check_ok(fold_3::SOURCE, "fold_3", &[arg(&a)], fold_3(&a), EXACT);
        check_ok(affine_fold_v::SOURCE, "affine_fold_v", &[arg(&pv)], affine_fold_v(&pv), EXACT);
        check_ok(affine_fold_m::SOURCE, "affine_fold_m", &[arg(&pm)], affine_fold_m(&pm), EXACT);
        check_ok(fold_f64_m::SOURCE, "fold_f64_m", &[arg(&fm)], fold_f64_m(&fm), F64_TOL);
    }

    #[test]
    fn fold1_rows(pa in array3(pair_u32(), 8, 9, 10), m in matrix(any::<i16>(), 40, 70), fs in vector(quarter_f32(), 300)) {
        let r = check(affine_fold1_3::SOURCE, "affine_fold1_3", &[arg(&pa)], affine_fold1_3(&pa), EXACT);
        let [a, b, c] = pa.shape();
        if c == 0 && a * b > 0 {
            prop_assert_eq!(r.unwrap_err(), ErrorKind::EmptyReduction);
        } else {
            prop_assert!(r.is_ok());
        }
        check_fails_if(fold1_first_last::SOURCE, "fold1_first_last", &[arg(&m)], fold1_first_last(&m), EXACT, m.shape()[1] == 0 && m.shape()[0] > 0, ErrorKind::EmptyReduction).ok();
        let mag = abs_sum(&fs.to_vec());
        check_fails_if(fold1_v::SOURCE, "fold1_v", &[arg(&fs)], fold1_v(&fs), sum_tol(F32_TOL, mag), fs.is_empty(), ErrorKind::EmptyReduction).ok();
    }

    #[test]
    fn fold_all_ranks(m in matrix(any::<i32>(), 40, 70), a in array3(small_f64(), 8, 9, 10), pa in array3(pair_u32(), 8, 9, 10), s in any::<i8>(), bm in matrix(any::<bool>(), 40, 70)) {
        check_ok(fold_all_m::SOURCE, "fold_all_m", &[arg(&m)], fold_all_m(&m), EXACT);
        check_ok(fold_all_3::SOURCE, "fold_all_3", &[arg(&a)], fold_all_3(&a), F64_TOL);
        check_ok(fold_all_affine::SOURCE, "fold_all_affine", &[arg(&pa)], fold_all_affine(&pa), EXACT);
        let sc = Scalar::new(s);
        check_ok(fold_all_scalar::SOURCE, "fold_all_scalar", &[arg(&sc)], fold_all_scalar(&sc), EXACT);
        check_ok(fold_bool_rows::SOURCE, "fold_bool_rows", &[arg(&bm)], fold_bool_rows(&bm), EXACT);
    }

    #[test]
    fn sum_product(xs in vector(any::<u8>(), 300), m in matrix(any::<i16>(), 40, 70), a in array3(any::<u64>(), 8, 9, 10),
                   ys in vector(any::<i8>(), 300), um in matrix(any::<u32>(), 40, 70), la in array3(-3i64..4, 8, 9, 10),
                   fs in vector(quarter_f32(), 300), fm in matrix(small_f64(), 40, 70), pm in matrix(0.5f32..1.5, 40, 70)) {
        check_ok(sums::SOURCE, "sums", &[arg(&xs), arg(&m), arg(&a)], sums(&xs, &m, &a), EXACT);
        check_ok(products::SOURCE, "products", &[arg(&ys), arg(&um), arg(&la)], products(&ys, &um, &la), EXACT);
        check_ok(float_sums::SOURCE, "float_sums", &[arg(&fs), arg(&fm)], float_sums(&fs, &fm), F32_TOL);
        check_ok(float_products::SOURCE, "float_products", &[arg(&pm)], float_products(&pm), F32_TOL);
    }

    #[test]
    fn minimum_maximum(xs in vector(any::<i64>(), 300), us in vector(any::<u16>(), 300), m in matrix(wild_f64(), 40, 70),
                       a in array3(small_f32(), 8, 9, 10), bm in matrix(any::<bool>(), 40, 70), bs in vector(any::<i8>(), 300), cs in vector(any::<u8>(), 300)) {
        check_fails_if(min_v::SOURCE, "min_v", &[arg(&xs)], min_v(&xs), EXACT, xs.is_empty(), ErrorKind::EmptyReduction).ok();
        check_fails_if(max_v::SOURCE, "max_v", &[arg(&us)], max_v(&us), EXACT, us.is_empty(), ErrorKind::EmptyReduction).ok();
        let [mr, mc] = m.shape();
        check_fails_if(min_m::SOURCE, "min_m", &[arg(&m)], min_m(&m), EXACT, mc == 0 && mr > 0, ErrorKind::EmptyReduction).ok();
        let [x, y, z] = a.shape();
        check_fails_if(max_3::SOURCE, "max_3", &[arg(&a)], max_3(&a), EXACT, z == 0 && x * y > 0, ErrorKind::EmptyReduction).ok();
        let [br, bc] = bm.shape();
        check_fails_if(minmax_bool::SOURCE, "minmax_bool", &[arg(&bm)], minmax_bool(&bm), EXACT, bc == 0 && br > 0, ErrorKind::EmptyReduction).ok();
        check_fails_if(minmax_small::SOURCE, "minmax_small", &[arg(&bs), arg(&cs)], minmax_small(&bs, &cs), EXACT, bs.is_empty() || cs.is_empty(), ErrorKind::EmptyReduction).ok();
    }
}

#[test]
fn empty_rows_without_initial_value_are_errors() {
    let empty = Vector::<i64>::from(vec![]);
    check_err(
        min_v::SOURCE,
        "min_v",
        &[arg(&empty)],
        min_v(&empty),
        ErrorKind::EmptyReduction,
    );
    let fe = Vector::<f32>::from(vec![]);
    check_err(
        fold1_v::SOURCE,
        "fold1_v",
        &[arg(&fe)],
        fold1_v(&fe),
        ErrorKind::EmptyReduction,
    );
    // Three rows of length zero.
    let m = Matrix::<f64>::from_vec([3, 0], vec![]).unwrap();
    check_err(
        min_m::SOURCE,
        "min_m",
        &[arg(&m)],
        min_m(&m),
        ErrorKind::EmptyReduction,
    );
    // Zero rows of length zero: no row to reduce, an empty result.
    let m = Matrix::<f64>::from_vec([0, 0], vec![]).unwrap();
    check_ok(min_m::SOURCE, "min_m", &[arg(&m)], min_m(&m), EXACT);
    // With an initial value, empty rows give the initial value.
    let m = Matrix::<f64>::from_vec([4, 0], vec![]).unwrap();
    check_ok(
        fold_f64_m::SOURCE,
        "fold_f64_m",
        &[arg(&m)],
        fold_f64_m(&m),
        EXACT,
    );
    let e = Vector::<i32>::from(vec![]);
    let r = check_ok(fold_v::SOURCE, "fold_v", &[arg(&e)], fold_v(&e), EXACT);
    assert_eq!(r, arg(Scalar::new(17i32)));
}

#[test]
fn folds_large() {
    for n in BIG {
        let xs: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
        check_pools_ok(fold_v::SOURCE, "fold_v", &[arg(&xs)], || fold_v(&xs), EXACT);
        let pv: Vector<(u32, u32)> = (0..n).map(|i| (hash(i) as u32 | 1, hash(i + 1) as u32)).collect();
        check_pools_ok(
            affine_fold_v::SOURCE,
            "affine_fold_v",
            &[arg(&pv)],
            || affine_fold_v(&pv),
            EXACT,
        );
        // Integers as floats: every partial sum is exact, so the order does not matter.
        let fs: Vector<f32> = (0..n).map(|i| (hash(i) % 201) as f32 - 100.0).collect();
        check_pools_ok(fold1_v::SOURCE, "fold1_v", &[arg(&fs)], || fold1_v(&fs), EXACT);
        // Arbitrary floats: the parallel sum reorders additions.
        let fs: Vector<f32> = (0..n).map(|i| (hash(i) % 10_000) as f32 / 77.0).collect();
        let fm = Matrix::<f64>::from_fn([2, n], |[i, j]| (hash(i * n + j) % 100_000) as f64 / 3.0);
        check_pools_ok(
            float_sums::SOURCE,
            "float_sums",
            &[arg(&fs), arg(&fm)],
            || float_sums(&fs, &fm),
            F32_TOL,
        );
        let mins: Vector<i64> = (0..n).map(|i| hash(i) as i64).collect();
        check_pools_ok(min_v::SOURCE, "min_v", &[arg(&mins)], || min_v(&mins), EXACT);
    }
    // Few long rows: each row split between tasks.
    let pm =
        Matrix::<(u32, u32)>::from_fn([2, 50_001], |[i, j]| (hash(i * 7 + j) as u32 | 1, hash(j) as u32));
    check_pools_ok(
        affine_fold_m::SOURCE,
        "affine_fold_m",
        &[arg(&pm)],
        || affine_fold_m(&pm),
        EXACT,
    );
    let pa =
        Array::<(u32, u32), 3>::from_fn([1, 3, 40_000], |[_, j, k]| (hash(j + k) as u32, hash(k) as u32));
    check_pools_ok(
        affine_fold1_3::SOURCE,
        "affine_fold1_3",
        &[arg(&pa)],
        || affine_fold1_3(&pa),
        EXACT,
    );
    check_pools_ok(
        fold_all_affine::SOURCE,
        "fold_all_affine",
        &[arg(&pa)],
        || fold_all_affine(&pa),
        EXACT,
    );
    let m = Matrix::<i16>::from_fn([3, 33_000], |[i, j]| hash(i + 3 * j) as i16);
    check_pools_ok(
        fold1_first_last::SOURCE,
        "fold1_first_last",
        &[arg(&m)],
        || fold1_first_last(&m),
        EXACT,
    );
    // Many short rows.
    let m = Matrix::<i64>::from_fn([20_000, 3], |[i, j]| hash(i * 3 + j) as i64);
    check_pools_ok(fold_m::SOURCE, "fold_m", &[arg(&m)], || fold_m(&m), EXACT);
}

// =============================================================================
// scans
// =============================================================================

#[acc]
fn scans_i32(xs: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Vector<i32>, Vector<i32>) {
    (
        xs.scanl(10, |a, b| a + b),
        xs.scanl1(|a, b| a + b),
        xs.scanr(-4, |a, b| a + b),
        xs.scanr1(|a, b| a + b),
    )
}

/// 8-byte leaves: the staged tile's padding differs (a slot per 16).
#[acc]
fn scans_i64(xs: &Vector<i64>) -> (Vector<i64>, Vector<i64>) {
    (xs.scanl1(|a, b| a + b), xs.scanr(-4, |a, b| a + b))
}

#[acc]
fn scans_total_i32(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>, Vector<i32>, Scalar<i32>) {
    let (l, lt) = xs.scanl_total(7, |a, b| a + b);
    let (r, rt) = xs.scanr_total(-7, |a, b| a + b);
    (l, lt, r, rt)
}

#[acc]
fn scans_affine(
    xs: &Vector<(u32, u32)>,
) -> (
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
) {
    let f = |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2);
    (
        xs.scanl((3, 1), f),
        xs.scanl1(f),
        xs.scanr((5, 2), f),
        xs.scanr1(f),
    )
}

#[acc]
fn scans_total_affine(
    m: &Matrix<(u32, u32)>,
) -> (
    Matrix<(u32, u32)>,
    Vector<(u32, u32)>,
    Matrix<(u32, u32)>,
    Vector<(u32, u32)>,
) {
    let f = |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2);
    let (l, lt) = m.scanl_total((3, 1), f);
    let (r, rt) = m.scanr_total((5, 2), f);
    (l, lt, r, rt)
}

#[acc]
fn scans_m(m: &Matrix<i64>) -> (Matrix<i64>, Matrix<i64>, Matrix<i64>, Matrix<i64>) {
    (
        m.scanl(1, |a, b| a * b),
        m.scanl1(|a, b| a ^ b),
        m.scanr(0, |a, b| a.max(b)),
        m.scanr1(|a, b| a - b + b),
    )
}

#[acc]
fn scans_f32(xs: &Vector<f32>) -> (Vector<f32>, Vector<f32>, Vector<f32>, Scalar<f32>) {
    let (t, total) = xs.scanr_total(0.0, |a, b| a + b);
    (xs.scanl(1.5, |a, b| a + b), xs.scanr1(|a, b| a + b), t, total)
}

#[acc]
fn scan_fused(m: &Matrix<u8>) -> Matrix<u16> {
    m.map(|x| x as u16).scanl1(|a, b| a + b).map(|s| s / 2)
}

#[acc]
fn scan_total_result(xs: &Vector<u64>) -> (Vector<u64>, Scalar<u64>) {
    xs.scanl_total(0, |a, b| a + b)
}

/// Scans and folds over tuples of mixed types (one column per field).
#[acc]
fn tuple_scans(
    ps: &Matrix<(f32, i32, bool)>,
) -> (
    Matrix<(f32, i32, bool)>,
    Matrix<(f32, i32, bool)>,
    Vector<(f32, i32, bool)>,
) {
    let f = |(a, b, c), (x, y, z)| (a + x, b ^ y, c != z);
    (
        ps.scanl1(f),
        ps.scanr((0.5, 0, true), f),
        ps.fold((0.0, 7, false), f),
    )
}

#[acc]
fn scans_3(a: &Array<u16, 3>) -> (Array<u16, 3>, Array<u16, 3>, Matrix<u16>) {
    let (l, t) = a.scanl_total(1, |x, y| x * y);
    (a.scanr1(|x, y| x + y), l, t)
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn scans_rank_1(xs in vector(any::<i32>(), 300), ps in vector(pair_u32(), 300), fs in vector(quarter_f32(), 300), us in vector(any::<u64>(), 300)) {
        check_ok(scans_i32::SOURCE, "scans_i32", &[arg(&xs)], scans_i32(&xs), EXACT);
        check_ok(scans_total_i32::SOURCE, "scans_total_i32", &[arg(&xs)], scans_total_i32(&xs), EXACT);
        check_ok(scans_affine::SOURCE, "scans_affine", &[arg(&ps)], scans_affine(&ps), EXACT);
        check_ok(scans_f32::SOURCE, "scans_f32", &[arg(&fs)], scans_f32(&fs), F32_TOL);
        check_ok(scan_total_result::SOURCE, "scan_total_result", &[arg(&us)], scan_total_result(&us), EXACT);
    }

    #[test]
    fn scans_rank_2(pm in matrix(pair_u32(), 40, 70), m in matrix(-5i64..6, 40, 70), bm in matrix(any::<u8>(), 40, 70)) {
        check_ok(scans_total_affine::SOURCE, "scans_total_affine", &[arg(&pm)], scans_total_affine(&pm), EXACT);
        check_ok(scans_m::SOURCE, "scans_m", &[arg(&m)], scans_m(&m), EXACT);
        check_ok(scan_fused::SOURCE, "scan_fused", &[arg(&bm)], scan_fused(&bm), EXACT);
    }

    #[test]
    fn scans_tuples_and_rank_3(ps in matrix((quarter_f32(), any::<i32>(), any::<bool>()), 40, 70), a in array3(any::<u16>(), 8, 9, 10)) {
        // Multiples of 1/4 below 100: every f32 sum of a row is exact in any
        // order, so the comparison can be exact although folds and scans
        // split rows between threads (the GPU folds a short row by a warp).
        check_ok(tuple_scans::SOURCE, "tuple_scans", &[arg(&ps)], tuple_scans(&ps), EXACT);
        check_ok(scans_3::SOURCE, "scans_3", &[arg(&a)], scans_3(&a), EXACT);
    }
}

#[test]
fn scans_large() {
    for n in [0, 1, 2, 16_383, 16_385, 50_001] {
        let xs: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
        check_pools_ok(
            scans_i32::SOURCE,
            "scans_i32",
            &[arg(&xs)],
            || scans_i32(&xs),
            EXACT,
        );
        check_pools_ok(
            scans_total_i32::SOURCE,
            "scans_total_i32",
            &[arg(&xs)],
            || scans_total_i32(&xs),
            EXACT,
        );
        let ps: Vector<(u32, u32)> = (0..n).map(|i| (hash(i) as u32 | 1, hash(i + 5) as u32)).collect();
        check_pools_ok(
            scans_affine::SOURCE,
            "scans_affine",
            &[arg(&ps)],
            || scans_affine(&ps),
            EXACT,
        );
        let ws: Vector<i64> = (0..n)
            .map(|i| (hash(i) % 1_000_003) as i64 * 7919 - (1 << 32))
            .collect();
        check_pools_ok(
            scans_i64::SOURCE,
            "scans_i64",
            &[arg(&ws)],
            || scans_i64(&ws),
            EXACT,
        );
        let fs: Vector<f32> = (0..n).map(|i| (hash(i) % 2001) as f32 / 1000.0).collect();
        check_pools_ok(
            scans_f32::SOURCE,
            "scans_f32",
            &[arg(&fs)],
            || scans_f32(&fs),
            F32_TOL,
        );
    }
    // Few long rows: the three-phase parallel scan.
    for rows in [1, 2, 3] {
        let pm = Matrix::<(u32, u32)>::from_fn([rows, 40_001], |[i, j]| {
            (hash(i * 40_001 + j) as u32 | 1, hash(j) as u32)
        });
        check_pools_ok(
            scans_total_affine::SOURCE,
            "scans_total_affine",
            &[arg(&pm)],
            || scans_total_affine(&pm),
            EXACT,
        );
    }
    let ps = Matrix::<(f32, i32, bool)>::from_fn([2, 40_000], |[i, j]| {
        ((hash(i + j) % 64) as f32, hash(j) as i32, hash(i * j) % 3 == 0)
    });
    check_pools_ok(
        tuple_scans::SOURCE,
        "tuple_scans",
        &[arg(&ps)],
        || tuple_scans(&ps),
        F32_TOL,
    );
    let bm = Matrix::<u8>::from_fn([2, 50_001], |[i, j]| hash(i + j) as u8);
    check_pools_ok(
        scan_fused::SOURCE,
        "scan_fused",
        &[arg(&bm)],
        || scan_fused(&bm),
        EXACT,
    );
    // Many short rows.
    let pm = Matrix::<(u32, u32)>::from_fn([30_000, 2], |[i, j]| (hash(i) as u32, hash(j + i) as u32));
    check_pools_ok(
        scans_total_affine::SOURCE,
        "scans_total_affine",
        &[arg(&pm)],
        || scans_total_affine(&pm),
        EXACT,
    );
    // Rows of length zero.
    let pm = Matrix::<(u32, u32)>::from_vec([5, 0], vec![]).unwrap();
    check_pools_ok(
        scans_total_affine::SOURCE,
        "scans_total_affine",
        &[arg(&pm)],
        || scans_total_affine(&pm),
        EXACT,
    );
    let m = Matrix::<i64>::from_vec([4, 0], vec![]).unwrap();
    check_pools_ok(scans_m::SOURCE, "scans_m", &[arg(&m)], || scans_m(&m), EXACT);
}

// =============================================================================
// permute
// =============================================================================

/// A histogram: every element not divisible by 3 counts in bin `x % nbins`.
#[acc]
fn histogram(xs: &Vector<u32>, nbins: usize) -> Vector<i32> {
    let zeros = fill([nbins], 0);
    xs.map(|_| 1).permute(
        &zeros,
        |[i]| {
            if xs[[i]] % 3 == 0 {
                None
            } else {
                Some([xs[[i]] as usize % nbins])
            }
        },
        |a, b| a + b,
    )
}

/// Wrapping sums per bin, defaults given.
#[acc]
fn scatter_add(vals: &Vector<u8>, idx: &Vector<usize>, defaults: &Vector<u8>) -> Vector<u8> {
    vals.permute(
        defaults,
        |[i]| if i < idx.len() { Some([idx[[i]]]) } else { None },
        |a, b| a + b,
    )
}

#[acc]
fn scatter_f64(vals: &Vector<f64>, nbins: usize) -> Vector<f64> {
    vals.permute(&fill([nbins], 0.5), |[i]| Some([i % nbins]), |a, b| a + b)
}

/// Unique targets: the combination's operand order is observable.
#[acc]
fn permute_reverse(xs: &Vector<i64>, ds: &Vector<i64>) -> Vector<i64> {
    let n = ds.len();
    xs.permute(
        ds,
        |[i]| if i < n { Some([n - 1 - i]) } else { None },
        |new, old| new * 10 + old,
    )
}

#[acc]
fn permute_rows(m: &Matrix<i32>) -> Vector<i32> {
    let [r, _c] = m.shape();
    m.permute(&fill([r], 0), |[i, _j]| Some([i]), |a, b| a + b)
}

#[acc]
fn permute_2d(xs: &Vector<(u16, u16)>, r: usize, c: usize) -> Matrix<(u16, u16)> {
    xs.permute(
        &fill([r, c], (0u16, 1u16)),
        |[i]| Some([i % r.max(1), (i / 3) % c.max(1)]),
        |(a, b), (x, y)| (a + x, b * y),
    )
}

/// `k > 0` aims past the end.
#[acc]
fn permute_shift(xs: &Vector<i32>, ds: &Vector<i32>, k: usize) -> Vector<i32> {
    xs.permute(ds, |[i]| Some([i + k]), |a, b| a + b)
}

#[acc]
fn permute_then_map(xs: &Vector<u32>, nbins: usize) -> (Vector<u32>, Scalar<u32>) {
    let h = xs.permute(&fill([nbins], 0u32), |[i]| Some([i % nbins]), |a, b| a + b);
    (h.map(|c| c * 2), h.sum())
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn permute_histograms(xs in vector(any::<u32>(), 300), nbins in 1usize..20, vals in vector(any::<u8>(), 300),
                          idx in vector(0usize..30, 300), ds in nonempty(any::<u8>(), 30), fs in vector(small_f64(), 300)) {
        check_ok(histogram::SOURCE, "histogram", &[arg(&xs), arg(nbins)], histogram(&xs, nbins), EXACT);
        let oob = idx.to_vec().iter().take(vals.len()).any(|&t| t >= ds.len());
        check_fails_if(scatter_add::SOURCE, "scatter_add", &[arg(&vals), arg(&idx), arg(&ds)], scatter_add(&vals, &idx, &ds), EXACT, oob, ErrorKind::IndexOutOfBounds).ok();
        check_ok(scatter_f64::SOURCE, "scatter_f64", &[arg(&fs), arg(nbins)], scatter_f64(&fs, nbins), F64_TOL);
        check_ok(permute_then_map::SOURCE, "permute_then_map", &[arg(&xs), arg(nbins)], permute_then_map(&xs, nbins), EXACT);
    }

    #[test]
    fn permute_shapes(xs in vector(-1000i64..1000, 300), ds in vector(-1000i64..1000, 300), m in matrix(any::<i32>(), 40, 70),
                      ps in vector((any::<u16>(), any::<u16>()), 300), r in 1usize..6, c in 1usize..6,
                      is in vector(any::<i32>(), 300), js in nonempty(any::<i32>(), 300), k in 0usize..3) {
        check_ok(permute_reverse::SOURCE, "permute_reverse", &[arg(&xs), arg(&ds)], permute_reverse(&xs, &ds), EXACT);
        check_ok(permute_rows::SOURCE, "permute_rows", &[arg(&m)], permute_rows(&m), EXACT);
        check_ok(permute_2d::SOURCE, "permute_2d", &[arg(&ps), arg(r), arg(c)], permute_2d(&ps, r, c), EXACT);
        let oob = (0..is.len()).any(|i| i + k >= js.len());
        check_fails_if(permute_shift::SOURCE, "permute_shift", &[arg(&is), arg(&js), arg(k)], permute_shift(&is, &js, k), EXACT, oob, ErrorKind::IndexOutOfBounds).ok();
    }
}

#[test]
fn permute_fixed_cases() {
    // Out-of-range target.
    let xs = Vector::from(vec![1i32, 2, 3]);
    let ds = Vector::from(vec![0i32; 3]);
    check_pools_err(
        permute_shift::SOURCE,
        "permute_shift",
        &[arg(&xs), arg(&ds), arg(1usize)],
        || permute_shift(&xs, &ds, 1),
        ErrorKind::IndexOutOfBounds,
    );
    check_pools_ok(
        permute_shift::SOURCE,
        "permute_shift",
        &[arg(&xs), arg(&ds), arg(0usize)],
        || permute_shift(&xs, &ds, 0),
        EXACT,
    );
    // Large: the parallel path with striped locks.
    for n in BIG {
        let xs: Vector<u32> = (0..n).map(|i| hash(i) as u32).collect();
        for nbins in [1, 7, 1000] {
            check_pools_ok(
                histogram::SOURCE,
                "histogram",
                &[arg(&xs), arg(nbins)],
                || histogram(&xs, nbins),
                EXACT,
            );
        }
        let is: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
        let js: Vector<i32> = (0..n).map(|i| i as i32).collect();
        check_pools_ok(
            permute_shift::SOURCE,
            "permute_shift",
            &[arg(&is), arg(&js), arg(0usize)],
            || permute_shift(&is, &js, 0),
            EXACT,
        );
        check_pools_err(
            permute_shift::SOURCE,
            "permute_shift",
            &[arg(&is), arg(&js), arg(2usize)],
            || permute_shift(&is, &js, 2),
            ErrorKind::IndexOutOfBounds,
        );
        let fs: Vector<f64> = (0..n).map(|i| (hash(i) % 1000) as f64 / 8.0).collect();
        check_pools_ok(
            scatter_f64::SOURCE,
            "scatter_f64",
            &[arg(&fs), arg(13usize)],
            || scatter_f64(&fs, 13),
            F64_TOL,
        );
    }
    let xs: Vector<i64> = (0..20_000).map(|i| i as i64).collect();
    let ds: Vector<i64> = (0..20_000).map(|i| -(i as i64)).collect();
    check_pools_ok(
        permute_reverse::SOURCE,
        "permute_reverse",
        &[arg(&xs), arg(&ds)],
        || permute_reverse(&xs, &ds),
        EXACT,
    );
}

/// Every source but those divisible by 3 targets a bin of an empty histogram:
/// the interpreter reports the out-of-range target.
#[test]
fn permute_into_empty_defaults() {
    let xs = Vector::from(vec![1u32, 2, 4]);
    check_err(
        histogram::SOURCE,
        "histogram",
        &[arg(&xs), arg(0usize)],
        histogram(&xs, 0),
        ErrorKind::IndexOutOfBounds,
    );
}

#[test]
fn permute_shift_into_empty_defaults() {
    let xs = Vector::from(vec![5i32]);
    let ds = Vector::<i32>::from(vec![]);
    check_err(
        permute_shift::SOURCE,
        "permute_shift",
        &[arg(&xs), arg(&ds), arg(0usize)],
        permute_shift(&xs, &ds, 0),
        ErrorKind::IndexOutOfBounds,
    );
}

// =============================================================================
// indexing, value(), shape(), len(), tuple results, scalar parameters
// =============================================================================

#[acc]
fn gather(xs: &Vector<f32>, idx: &Vector<usize>) -> Vector<f32> {
    idx.map(|i| xs[[i]])
}

#[acc]
fn gather_2d(m: &Matrix<u64>, idx: &Vector<(usize, usize)>) -> Vector<u64> {
    idx.map(|(i, j)| m[[i, j]])
}

/// Reads a computed (materialised) array by index.
#[acc]
fn gather_computed(xs: &Vector<i32>, idx: &Vector<usize>) -> Vector<i32> {
    let ys = xs.map(|x| x * 2 + 1);
    idx.map(|i| ys[[i]] + ys[[0]])
}

/// The read is guarded by `&&` and `if`, so it is only evaluated in bounds.
#[acc]
fn guarded_read(xs: &Vector<i16>, idx: &Vector<usize>) -> Vector<i16> {
    let n = xs.len();
    idx.map(|i| if i < n && xs[[i]] > 0 { xs[[i]] } else { -1 })
}

#[acc]
fn neighbours(m: &Matrix<f64>) -> Matrix<f64> {
    let [r, c] = m.shape();
    generate([r, c], |[i, j]| {
        let up = if i > 0 { m[[i - 1, j]] } else { 0.0 };
        let left = if j > 0 { m[[i, j - 1]] } else { 0.0 };
        m[[i, j]] * 4.0 - up - left
    })
}

#[acc]
fn value_of_param(s: &Scalar<i32>, xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| x * s.value())
}

#[acc]
fn scalar_map(s: &Scalar<u8>) -> Scalar<u8> {
    s.map(|x| x * 3)
}

#[acc]
fn scalar_zip(s: &Scalar<f32>, t: &Scalar<f32>) -> Scalar<f32> {
    s.zip_with(t, |a, b| a.atan2(b))
}

#[acc]
fn shapes(m: &Matrix<i8>, a: &Array<u8, 3>) -> Vector<usize> {
    let [r, c] = m.shape();
    let sh = a.shape();
    let n2 = m.map(|x| x + 1).len();
    generate([6], |[k]| {
        if k == 0 {
            r
        } else if k == 1 {
            c
        } else if k == 2 {
            m.len()
        } else if k == 3 {
            sh[0] * 100 + sh[1] * 10 + sh[2]
        } else if k == 4 {
            a.len()
        } else {
            n2
        }
    })
}

#[acc]
fn len_of_scalar(s: &Scalar<u8>, xs: &Vector<u8>) -> Vector<usize> {
    xs.map(|_| s.len() + xs.len())
}

#[acc]
fn mean_centered(xs: &Vector<f64>) -> (Scalar<f64>, Vector<f64>) {
    let n = xs.len() as f64;
    let mean = xs.sum().map(|s| s / n);
    (mean, xs.map(|x| x - mean.value()))
}

#[acc]
fn stats(xs: &Vector<i32>) -> (Scalar<i32>, Scalar<i32>, Vector<i64>) {
    (xs.minimum(), xs.maximum(), xs.map(|x| x as i64 * 2))
}

/// A computed array and a parameter returned as they are.
#[acc]
fn computed_and_param(xs: &Vector<u32>) -> (Vector<u32>, Vector<u32>) {
    (xs.map(|x| x + 1), xs)
}

/// The total of an exclusive scan read in a later closure, and returned.
#[acc]
fn scan_total_used(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) {
    let (pre, total) = xs.scanl_total(0, |a, b| a + b);
    (pre.map(|p| total.value() - p), total)
}

#[acc]
fn identity(m: &Matrix<(i8, f32)>) -> Matrix<(i8, f32)> {
    m
}

#[acc]
fn saxpy(alpha: f32, xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
    xs.zip_with(ys, |x, y| alpha * x + y)
}

/// A scalar parameter passed by reference.
#[acc]
fn scale_ref(xs: &Vector<f32>, alpha: &f32, shift: &(i32, u8)) -> Vector<f32> {
    xs.map(|x| x * alpha + shift.0 as f32 - shift.1 as f32)
}

#[acc]
fn scalar_params(a: i8, b: u64, c: bool, d: (i16, f64), xs: &Vector<u64>) -> Vector<(i8, u64, bool, f64)> {
    let (d0, d1) = d;
    xs.map(|x| (a + x as i8, x * b, c && x > 3, d1 + d0 as f64))
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn indexing(xs in vector(wild_f32(), 300), idx in vector(0usize..305, 300), m in matrix(any::<u64>(), 40, 70),
                pidx in vector((0usize..42, 0usize..72), 100), is in vector(any::<i32>(), 300), hs in vector(any::<i16>(), 300)) {
        check_fails_if(gather::SOURCE, "gather", &[arg(&xs), arg(&idx)], gather(&xs, &idx), EXACT, idx.to_vec().iter().any(|&i| i >= xs.len()), ErrorKind::IndexOutOfBounds).ok();
        let [mr, mc] = m.shape();
        let oob = pidx.to_vec().iter().any(|&(i, j)| i >= mr || j >= mc);
        check_fails_if(gather_2d::SOURCE, "gather_2d", &[arg(&m), arg(&pidx)], gather_2d(&m, &pidx), EXACT, oob, ErrorKind::IndexOutOfBounds).ok();
        let oob = idx.to_vec().iter().any(|&i| i >= is.len());
        check_fails_if(gather_computed::SOURCE, "gather_computed", &[arg(&is), arg(&idx)], gather_computed(&is, &idx), EXACT, oob, ErrorKind::IndexOutOfBounds).ok();
        check_ok(guarded_read::SOURCE, "guarded_read", &[arg(&hs), arg(&idx)], guarded_read(&hs, &idx), EXACT);
        let in_bounds: Vector<usize> = idx.to_vec().into_iter().filter(|&i| i < xs.len()).collect();
        check_ok(gather::SOURCE, "gather", &[arg(&xs), arg(&in_bounds)], gather(&xs, &in_bounds), EXACT);
    }

    #[test]
    fn values_and_shapes(s in any::<i32>(), is in vector(any::<i32>(), 300), u in any::<u8>(),
                         f in wild_f32(), g in wild_f32(), m in matrix(any::<i8>(), 40, 70), a in array3(any::<u8>(), 8, 9, 10),
                         fm in matrix(small_f64(), 40, 70)) {
        let sc = Scalar::new(s);
        check_ok(value_of_param::SOURCE, "value_of_param", &[arg(&sc), arg(&is)], value_of_param(&sc, &is), EXACT);
        let su = Scalar::new(u);
        check_ok(scalar_map::SOURCE, "scalar_map", &[arg(&su)], scalar_map(&su), EXACT);
        let (sf, sg) = (Scalar::new(f), Scalar::new(g));
        // `atan2`: within the GPU math library's stated error on a GPU back end.
        check_ok(scalar_zip::SOURCE, "scalar_zip", &[arg(&sf), arg(&sg)], scalar_zip(&sf, &sg), float_tol(false, F32_MATH_TOL));
        check_ok(shapes::SOURCE, "shapes", &[arg(&m), arg(&a)], shapes(&m, &a), EXACT);
        let bytes: Vector<u8> = a.to_vec().into_iter().collect();
        check_ok(len_of_scalar::SOURCE, "len_of_scalar", &[arg(&su), arg(&bytes)], len_of_scalar(&su, &bytes), EXACT);
        check_ok(neighbours::SOURCE, "neighbours", &[arg(&fm)], neighbours(&fm), EXACT);
    }

    #[test]
    fn tuple_and_scalar_results(xs in vector(small_f64(), 300), is in vector(any::<i32>(), 300), ws in vector(any::<u32>(), 300),
                                pm in matrix((any::<i8>(), wild_f32()), 40, 70)) {
        check_ok(computed_and_param::SOURCE, "computed_and_param", &[arg(&ws)], computed_and_param(&ws), EXACT);
        check_ok(scan_total_used::SOURCE, "scan_total_used", &[arg(&is)], scan_total_used(&is), EXACT);
        check_ok(mean_centered::SOURCE, "mean_centered", &[arg(&xs)], mean_centered(&xs), F64_TOL);
        check_fails_if(stats::SOURCE, "stats", &[arg(&is)], stats(&is), EXACT, is.is_empty(), ErrorKind::EmptyReduction).ok();
        check_ok(identity::SOURCE, "identity", &[arg(&pm)], identity(&pm), EXACT);
    }

    #[test]
    fn scalar_parameters(alpha in wild_f32(), xs in vector(small_f32(), 300), ys in vector(small_f32(), 300),
                         a in any::<i8>(), b in any::<u64>(), c in any::<bool>(), d0 in any::<i16>(), d1 in wild_f64(), us in vector(any::<u64>(), 300)) {
        check_ok(saxpy::SOURCE, "saxpy", &[arg(alpha), arg(&xs), arg(&ys)], saxpy(alpha, &xs, &ys), EXACT);
        check_ok(scale_ref::SOURCE, "scale_ref", &[arg(&xs), arg(alpha), arg((b as i32, a as u8))], scale_ref(&xs, &alpha, &(b as i32, a as u8)), EXACT);
        check_ok(scalar_params::SOURCE, "scalar_params", &[arg(a), arg(b), arg(c), arg((d0, d1)), arg(&us)], scalar_params(a, b, c, (d0, d1), &us), EXACT);
    }
}

#[test]
fn index_out_of_bounds_is_an_error() {
    let xs = Vector::from(vec![1.0f32, 2.0]);
    let idx = Vector::from(vec![0usize, 2]);
    check_pools_err(
        gather::SOURCE,
        "gather",
        &[arg(&xs), arg(&idx)],
        || gather(&xs, &idx),
        ErrorKind::IndexOutOfBounds,
    );
    let empty = Vector::<f32>::from(vec![]);
    let zero = Vector::from(vec![0usize]);
    check_pools_err(
        gather::SOURCE,
        "gather",
        &[arg(&empty), arg(&zero)],
        || gather(&empty, &zero),
        ErrorKind::IndexOutOfBounds,
    );
    let m = Matrix::from_vec([2, 3], vec![1u64, 2, 3, 4, 5, 6]).unwrap();
    // Row 0, column 3: the linear offset 3 exists, the index does not.
    let pidx = Vector::from(vec![(0usize, 3usize)]);
    check_pools_err(
        gather_2d::SOURCE,
        "gather_2d",
        &[arg(&m), arg(&pidx)],
        || gather_2d(&m, &pidx),
        ErrorKind::IndexOutOfBounds,
    );
    let big: Vector<usize> = (0..50_001)
        .map(|i| if i == 40_000 { 50_001 } else { i })
        .collect();
    let vals: Vector<f32> = (0..50_001).map(|i| i as f32).collect();
    check_pools_err(
        gather::SOURCE,
        "gather",
        &[arg(&vals), arg(&big)],
        || gather(&vals, &big),
        ErrorKind::IndexOutOfBounds,
    );
    let ok: Vector<usize> = (0..50_001).rev().collect();
    check_pools_ok(
        gather::SOURCE,
        "gather",
        &[arg(&vals), arg(&ok)],
        || gather(&vals, &ok),
        EXACT,
    );
    // `ys[[0]]` of an empty computed array.
    let e = Vector::<i32>::from(vec![]);
    let one = Vector::from(vec![0usize]);
    check_pools_err(
        gather_computed::SOURCE,
        "gather_computed",
        &[arg(&e), arg(&one)],
        || gather_computed(&e, &one),
        ErrorKind::IndexOutOfBounds,
    );
    let none = Vector::<usize>::from(vec![]);
    check_pools_ok(
        gather_computed::SOURCE,
        "gather_computed",
        &[arg(&e), arg(&none)],
        || gather_computed(&e, &none),
        EXACT,
    );
}

#[test]
fn empty_mean_is_nan_on_both_sides() {
    let e = Vector::<f64>::from(vec![]);
    let r = check_ok(
        mean_centered::SOURCE,
        "mean_centered",
        &[arg(&e)],
        mean_centered(&e),
        EXACT,
    );
    let Dyn::Tuple(parts) = r else { panic!("{r:?}") };
    assert!(matches!(&parts[0], Dyn::Array(a) if matches!(a.elems[0], Value::F64(x) if x.is_nan())));
}

// =============================================================================
// the scalar language
// =============================================================================

#[acc]
fn arith_i8(xs: &Vector<i8>, ys: &Vector<i8>) -> Vector<(i8, i8, i8, i8, i8)> {
    xs.zip_with(ys, |a, b| (a + b, a - b, a * b, -a, a.abs()))
}

#[acc]
fn arith_i32(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<(i32, i32, i32, i32, i32)> {
    xs.zip_with(ys, |a, b| {
        (a + b, a - b, a * b, -a, a.abs() + b.min(a) - b.max(a))
    })
}

#[acc]
fn arith_i64(xs: &Vector<i64>, ys: &Vector<i64>) -> Vector<(i64, i64, i64, i64)> {
    xs.zip_with(ys, |a, b| (a + b, a - b, a * b, -a))
}

#[acc]
fn arith_u8(xs: &Vector<u8>, ys: &Vector<u8>) -> Vector<(u8, u8, u8, u8)> {
    xs.zip_with(ys, |a, b| (a + b, a - b, a * b, 0 - a))
}

#[acc]
fn arith_u64(xs: &Vector<u64>, ys: &Vector<u64>) -> Vector<(u64, u64, u64, u64)> {
    xs.zip_with(ys, |a, b| (a + b, a - b, a * b, a.max(b) - a.min(b)))
}

#[acc]
fn arith_u16_i16(xs: &Vector<u16>, ys: &Vector<i16>) -> Vector<(u16, i16, u32)> {
    xs.zip_with(ys, |a, b| (a * 3 + 65535, b * b - 32767, a as u32 * 65537))
}

#[acc]
fn divrem_i32(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<(i32, i32)> {
    xs.zip_with(ys, |a, b| (a / b, a % b))
}

#[acc]
fn divrem_i8(xs: &Vector<i8>, ys: &Vector<i8>) -> Vector<(i8, i8)> {
    xs.zip_with(ys, |a, b| (a / b, a % b))
}

#[acc]
fn divrem_u64(xs: &Vector<u64>, ys: &Vector<u64>) -> Vector<(u64, u64)> {
    xs.zip_with(ys, |a, b| (a / b, a % b))
}

#[acc]
fn divrem_u8(xs: &Vector<u8>, ys: &Vector<u8>) -> Vector<(u8, u8)> {
    xs.zip_with(ys, |a, b| (a / b, a % b))
}

#[acc]
fn divrem_f32(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<(f32, f32)> {
    xs.zip_with(ys, |a, b| (a / b, a % b))
}

#[acc]
fn divrem_literal(xs: &Vector<i64>) -> Vector<(i64, i64, i64)> {
    xs.map(|a| (a / 0, a % 0, a / -1))
}

#[acc]
fn shifts_i32(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<(i32, i32)> {
    xs.zip_with(ys, |a, b| (a << b, a >> b))
}

#[acc]
fn shifts_mixed(xs: &Vector<u64>, ys: &Vector<u8>) -> Vector<(u64, u64, i16, u8)> {
    xs.zip_with(ys, |a, b| (a << b, a >> b, (a as i16) >> (b as u32), b << 9))
}

#[acc]
fn bitops(xs: &Vector<u16>, ys: &Vector<u16>) -> Vector<(u16, u16, u16, u16, bool)> {
    xs.zip_with(ys, |a, b| (a & b, a | b, a ^ b, !a, (a & 1 == 1) ^ (b > 100)))
}

#[acc]
fn bitops_signed(xs: &Vector<i64>, ys: &Vector<i64>) -> Vector<(i64, i64, i64, i64)> {
    xs.zip_with(ys, |a, b| (a & b, a | b, a ^ !b, !a >> 3))
}

#[acc]
fn compare_f32(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<(bool, bool, bool, bool, (bool, bool))> {
    xs.zip_with(ys, |a, b| (a < b, a <= b, a > b, a >= b, (a == b, a != b)))
}

#[acc]
fn compare_ints(xs: &Vector<i16>, ys: &Vector<u32>) -> Vector<(bool, bool, bool)> {
    xs.zip_with(ys, |a, b| (a < 0, (a as u32) == b, b >= 1000 || a == -1))
}

#[acc]
fn logic(xs: &Vector<bool>, ys: &Vector<bool>) -> Vector<(bool, bool, bool, bool, bool)> {
    xs.zip_with(ys, |a, b| (a && b, a || b, !a, !(a && !b) || (b && a), a ^ b))
}

#[acc]
fn bool_ops(xs: &Vector<bool>, ys: &Vector<bool>) -> Vector<(bool, bool, bool, bool)> {
    xs.zip_with(ys, |a, b| (a & b, a | b, a == b, a < b))
}

#[acc]
fn casts_from_f64(xs: &Vector<f64>) -> Vector<((i8, i16, i32, i64, u8), (u16, u32, u64, f32, usize))> {
    xs.map(|x| {
        (
            (x as i8, x as i16, x as i32, x as i64, x as u8),
            (x as u16, x as u32, x as u64, x as f32, x as usize),
        )
    })
}

#[acc]
fn casts_from_f32(xs: &Vector<f32>) -> Vector<((i8, i32, i64, u8, u64), (f64, u16, bool))> {
    xs.map(|x| {
        (
            (x as i8, x as i32, x as i64, x as u8, x as u64),
            (x as f64, x as u16, x > 0.0),
        )
    })
}

#[acc]
fn casts_from_i64(xs: &Vector<i64>) -> Vector<((i8, u8, i16, u16, i32), (u32, u64, f32, f64, usize))> {
    xs.map(|x| {
        (
            (x as i8, x as u8, x as i16, x as u16, x as i32),
            (x as u32, x as u64, x as f32, x as f64, x as usize),
        )
    })
}

#[acc]
fn casts_from_u64(xs: &Vector<u64>) -> Vector<(i8, i64, f32, f64, u16)> {
    xs.map(|x| (x as i8, x as i64, x as f32, x as f64, x as u16))
}

#[acc]
fn casts_small(xs: &Vector<i8>, bs: &Vector<bool>) -> Vector<(u8, u64, f32, i32, (u16, i64, f64, u8, bool))> {
    xs.zip_with(bs, |x, b| {
        (
            x as u8,
            x as u64,
            x as f32,
            b as i32,
            (x as u16, b as i64, b as f64, b as u8 + x as u8, b as bool),
        )
    })
}

#[acc]
fn if_let(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        let y = x / 3;
        let z = if y > 10 {
            y - 10
        } else if y < -10 {
            let w = y * 2;
            w + 1
        } else {
            0
        };
        let (p, q) = (z, y);
        p * 2 + q
    })
}

#[acc]
fn tuple_patterns(ps: &Vector<((i32, u8), f64)>) -> Vector<(f64, (u8, i32))> {
    ps.map(|((a, b), c)| {
        let t = (b, a);
        let (u, _) = t;
        (c * 2.0 + t.1 as f64, (u, t.1 + 1))
    })
}

#[acc]
fn index_patterns(a: &Array<i32, 3>) -> Array<i64, 3> {
    generate(a.shape(), |[i, j, k]| {
        a[[i, j, k]] as i64 * 1000 + (i * 100 + j * 10 + k) as i64
    })
}

#[acc]
fn math_f32(
    xs: &Vector<f32>,
    ys: &Vector<f32>,
) -> Vector<(
    (f32, f32, f32, f32, f32),
    (f32, f32, f32, f32, f32),
    (f32, f32, f32, f32, f32),
    (f32, f32, f32, f32),
)> {
    xs.zip_with(ys, |x, y| {
        (
            (x.sqrt(), x.exp(), x.ln(), x.log2(), x.log10()),
            (x.sin(), x.cos(), x.tan(), x.atan2(y), x.powf(y)),
            (x.powi(3), x.abs(), x.min(y), x.max(y), x.floor()),
            (x.ceil(), x.round(), x.mul_add(y, 1.5), (-x).powi(-2)),
        )
    })
}

#[acc]
fn math_f64(
    xs: &Vector<f64>,
    ys: &Vector<f64>,
) -> Vector<(
    (f64, f64, f64, f64, f64),
    (f64, f64, f64, f64, f64),
    (f64, f64, f64, f64, f64),
    (f64, f64, f64, f64),
)> {
    xs.zip_with(ys, |x, y| {
        (
            (x.sqrt(), x.exp(), x.ln(), x.log2(), x.log10()),
            (x.sin(), x.cos(), x.tan(), x.atan2(y), x.powf(y)),
            (x.powi(5), x.abs(), x.min(y), x.max(y), x.floor()),
            (x.ceil(), x.round(), x.mul_add(y, -0.25), 2.0.powf(x)),
        )
    })
}

#[acc]
fn int_math(xs: &Vector<i16>, ys: &Vector<u32>) -> Vector<(i16, i16, i16, u32, u32)> {
    xs.zip_with(ys, |x, y| (x.abs(), x.min(-3), x.max(7), y.min(1000), y.max(5)))
}

#[acc]
fn float_arith(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<(f32, f32, f32, f32, f32)> {
    xs.zip_with(ys, |a, b| (a + b, a - b, a * b, -a, a * 0.5 - b / 3.0))
}

#[acc]
fn collatz(xs: &Vector<u32>) -> Vector<u32> {
    xs.map(|x| {
        let mut n = (x % 1000) as u64 + 1;
        let mut steps = 0u32;
        while n != 1 {
            if n % 2 == 0 {
                n = n / 2;
            } else {
                n = 3 * n + 1;
            }
            steps += 1;
        }
        steps
    })
}

#[acc]
fn mandelbrot(h: usize, w: usize, iters: u32) -> Matrix<u32> {
    generate([h, w], |[i, j]| {
        let cx = (j as f32) / (w as f32) * 3.0 - 2.0;
        let cy = (i as f32) / (h as f32) * 2.0 - 1.0;
        let mut x = 0.0f32;
        let mut y = 0.0f32;
        let mut k = 0u32;
        while k < iters && x * x + y * y <= 4.0 {
            let t = x * x - y * y + cx;
            y = 2.0 * x * y + cy;
            x = t;
            k += 1;
        }
        k
    })
}

/// A loop whose state includes a tuple and compound assignments.
#[acc]
fn loop_state(xs: &Vector<i64>, n: i64) -> Vector<(i64, i64)> {
    xs.map(|x| {
        let mut i = 0i64;
        let mut acc = (x, 0i64);
        let mut bits = x;
        while i < n {
            acc = (acc.0 * 3 + 1, acc.1 + i);
            bits ^= bits << 1;
            bits >>= 1;
            i += 1;
        }
        (acc.0 ^ bits, acc.1)
    })
}

#[acc]
fn let_closures(
    xs: &Vector<f64>,
    is: &Vector<i32>,
    ls: &Vector<i64>,
) -> (Vector<f64>, Vector<i32>, Vector<i64>) {
    let f = |x: f64| x * x + 1.0;
    let twice = |x| x * 2;
    let k = 3;
    (
        xs.map(|x| f(x) + f(x + 1.0) * f(2.0)),
        is.map(twice).map(|y| twice(y) + k),
        ls.map(twice).map(|y| y - k),
    )
}

accel! {
    fn sq(x: f64) -> f64 {
        x * x
    }
    fn clamp01(x: f32) -> f32 {
        x.max(0.0).min(1.0)
    }
    fn norm2(xs: &Vector<f64>) -> Scalar<f64> {
        xs.map(|x| sq(x)).sum()
    }
    pub fn rms(xs: &Vector<f64>) -> Scalar<f64> {
        let n = xs.len() as f64;
        norm2(xs).map(|s| (s / n).sqrt())
    }
    fn dist(xs: &Vector<f64>, ys: &Vector<f64>) -> Scalar<f64> {
        norm2(&xs.zip_with(ys, |x, y| x - y)).map(|s| s.sqrt() + sq(2.0))
    }
    fn clamp_all(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| clamp01(x) + clamp01(x * 2.0))
    }
    fn both(xs: &Vector<f64>, ys: &Vector<f64>) -> (Scalar<f64>, Scalar<f64>) {
        (norm2(xs), norm2(ys))
    }
}

#[path = "../examples/programs/black_scholes.rs"]
mod black_scholes_program;
use black_scholes_program::black_scholes;

fn divrem_ref_i32(a: i32, b: i32) -> (i32, i32) {
    if b == 0 {
        (0, a)
    } else {
        (a.wrapping_div(b), a.wrapping_rem(b))
    }
}

fn with_zeros_i32() -> impl Strategy<Value = i32> + Clone {
    prop_oneof![Just(0), Just(-1), Just(i32::MIN), Just(i32::MAX), any::<i32>()]
}

fn with_zeros_i8() -> impl Strategy<Value = i8> + Clone {
    prop_oneof![Just(0), Just(-1), Just(i8::MIN), any::<i8>()]
}

fn with_zeros_u64() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![Just(0), Just(1), Just(u64::MAX), any::<u64>()]
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn wrapping_arithmetic(a8 in vector(any::<i8>(), 300), b8 in vector(any::<i8>(), 300),
                           a32 in vector(any::<i32>(), 300), b32 in vector(any::<i32>(), 300),
                           a64 in vector(any::<i64>(), 300), b64 in vector(any::<i64>(), 300),
                           u8a in vector(any::<u8>(), 300), u8b in vector(any::<u8>(), 300),
                           u64a in vector(any::<u64>(), 300), u64b in vector(any::<u64>(), 300),
                           u16a in vector(any::<u16>(), 300), i16b in vector(any::<i16>(), 300),
                           fa in vector(wild_f32(), 300), fb in vector(wild_f32(), 300)) {
        check_ok(arith_i8::SOURCE, "arith_i8", &[arg(&a8), arg(&b8)], arith_i8(&a8, &b8), EXACT);
        check_ok(arith_i32::SOURCE, "arith_i32", &[arg(&a32), arg(&b32)], arith_i32(&a32, &b32), EXACT);
        check_ok(arith_i64::SOURCE, "arith_i64", &[arg(&a64), arg(&b64)], arith_i64(&a64, &b64), EXACT);
        check_ok(arith_u8::SOURCE, "arith_u8", &[arg(&u8a), arg(&u8b)], arith_u8(&u8a, &u8b), EXACT);
        check_ok(arith_u64::SOURCE, "arith_u64", &[arg(&u64a), arg(&u64b)], arith_u64(&u64a, &u64b), EXACT);
        check_ok(arith_u16_i16::SOURCE, "arith_u16_i16", &[arg(&u16a), arg(&i16b)], arith_u16_i16(&u16a, &i16b), EXACT);
        check_ok(float_arith::SOURCE, "float_arith", &[arg(&fa), arg(&fb)], float_arith(&fa, &fb), EXACT);
    }

    #[test]
    fn division_by_zero(a32 in vector(with_zeros_i32(), 300), b32 in vector(with_zeros_i32(), 300),
                        a8 in vector(with_zeros_i8(), 300), b8 in vector(with_zeros_i8(), 300),
                        a64 in vector(with_zeros_u64(), 300), b64 in vector(with_zeros_u64(), 300),
                        u8a in vector(any::<u8>(), 300), u8b in vector(0u8..3, 300),
                        fa in vector(wild_f32(), 300), fb in vector(wild_f32(), 300), la in vector(any::<i64>(), 300)) {
        let got = divrem_i32(&a32, &b32).unwrap();
        check_ok(divrem_i32::SOURCE, "divrem_i32", &[arg(&a32), arg(&b32)], Ok(got.clone()), EXACT);
        let want: Vec<(i32, i32)> = a32.to_vec().into_iter().zip(b32.to_vec()).map(|(a, b)| divrem_ref_i32(a, b)).collect();
        prop_assert_eq!(got.to_vec(), want);
        let got = divrem_i8(&a8, &b8).unwrap();
        check_ok(divrem_i8::SOURCE, "divrem_i8", &[arg(&a8), arg(&b8)], Ok(got.clone()), EXACT);
        let want: Vec<(i8, i8)> = a8.to_vec().into_iter().zip(b8.to_vec()).map(|(a, b)| if b == 0 { (0, a) } else { (a.wrapping_div(b), a.wrapping_rem(b)) }).collect();
        prop_assert_eq!(got.to_vec(), want);
        let got = divrem_u64(&a64, &b64).unwrap();
        check_ok(divrem_u64::SOURCE, "divrem_u64", &[arg(&a64), arg(&b64)], Ok(got.clone()), EXACT);
        let want: Vec<(u64, u64)> = a64.to_vec().into_iter().zip(b64.to_vec()).map(|(a, b)| if b == 0 { (0, a) } else { (a / b, a % b) }).collect();
        prop_assert_eq!(got.to_vec(), want);
        let got = divrem_u8(&u8a, &u8b).unwrap();
        check_ok(divrem_u8::SOURCE, "divrem_u8", &[arg(&u8a), arg(&u8b)], Ok(got.clone()), EXACT);
        let want: Vec<(u8, u8)> = u8a.to_vec().into_iter().zip(u8b.to_vec()).map(|(a, b)| if b == 0 { (0, a) } else { (a / b, a % b) }).collect();
        prop_assert_eq!(got.to_vec(), want);
        check_ok(divrem_f32::SOURCE, "divrem_f32", &[arg(&fa), arg(&fb)], divrem_f32(&fa, &fb), EXACT);
        let got = divrem_literal(&la).unwrap();
        check_ok(divrem_literal::SOURCE, "divrem_literal", &[arg(&la)], Ok(got.clone()), EXACT);
        let want: Vec<(i64, i64, i64)> = la.to_vec().into_iter().map(|a| (0, a, a.wrapping_neg())).collect();
        prop_assert_eq!(got.to_vec(), want);
    }

    #[test]
    fn shifts_and_bits(a32 in vector(any::<i32>(), 300), b32 in vector(-70i32..70, 300), u64a in vector(any::<u64>(), 300), u8b in vector(any::<u8>(), 300),
                       u16a in vector(any::<u16>(), 300), u16b in vector(any::<u16>(), 300), la in vector(any::<i64>(), 300), lb in vector(any::<i64>(), 300),
                       wide in vector(any::<i32>(), 300)) {
        check_ok(shifts_i32::SOURCE, "shifts_i32", &[arg(&a32), arg(&b32)], shifts_i32(&a32, &b32), EXACT);
        check_ok(shifts_i32::SOURCE, "shifts_i32", &[arg(&a32), arg(&wide)], shifts_i32(&a32, &wide), EXACT);
        check_ok(shifts_mixed::SOURCE, "shifts_mixed", &[arg(&u64a), arg(&u8b)], shifts_mixed(&u64a, &u8b), EXACT);
        check_ok(bitops::SOURCE, "bitops", &[arg(&u16a), arg(&u16b)], bitops(&u16a, &u16b), EXACT);
        check_ok(bitops_signed::SOURCE, "bitops_signed", &[arg(&la), arg(&lb)], bitops_signed(&la, &lb), EXACT);
    }

    #[test]
    fn comparisons_and_logic(fa in vector(wild_f32(), 300), fb in vector(wild_f32(), 300), ia in vector(any::<i16>(), 300), ub in vector(any::<u32>(), 300),
                             ba in vector(any::<bool>(), 300), bb in vector(any::<bool>(), 300)) {
        check_ok(compare_f32::SOURCE, "compare_f32", &[arg(&fa), arg(&fb)], compare_f32(&fa, &fb), EXACT);
        check_ok(compare_f32::SOURCE, "compare_f32", &[arg(&fa), arg(&fa)], compare_f32(&fa, &fa), EXACT);
        check_ok(compare_ints::SOURCE, "compare_ints", &[arg(&ia), arg(&ub)], compare_ints(&ia, &ub), EXACT);
        check_ok(logic::SOURCE, "logic", &[arg(&ba), arg(&bb)], logic(&ba, &bb), EXACT);
        check_ok(bool_ops::SOURCE, "bool_ops", &[arg(&ba), arg(&bb)], bool_ops(&ba, &bb), EXACT);
    }

    #[test]
    fn casts(fs in vector(wild_f64(), 300), gs in vector(wild_f32(), 300), ls in vector(any::<i64>(), 300), us in vector(any::<u64>(), 300),
             bs in vector(any::<i8>(), 300), flags in vector(any::<bool>(), 300)) {
        check_ok(casts_from_f64::SOURCE, "casts_from_f64", &[arg(&fs)], casts_from_f64(&fs), EXACT);
        check_ok(casts_from_f32::SOURCE, "casts_from_f32", &[arg(&gs)], casts_from_f32(&gs), EXACT);
        check_ok(casts_from_i64::SOURCE, "casts_from_i64", &[arg(&ls)], casts_from_i64(&ls), EXACT);
        check_ok(casts_from_u64::SOURCE, "casts_from_u64", &[arg(&us)], casts_from_u64(&us), EXACT);
        check_ok(casts_small::SOURCE, "casts_small", &[arg(&bs), arg(&flags)], casts_small(&bs, &flags), EXACT);
    }

    #[test]
    fn control_flow_and_patterns(xs in vector(any::<i32>(), 300), ps in vector(((any::<i32>(), any::<u8>()), small_f64()), 300), a in array3(any::<i32>(), 8, 9, 10),
                                 cs in vector(any::<u32>(), 300), h in 0usize..20, w in 0usize..30, iters in 0u32..60,
                                 ls in vector(any::<i64>(), 100), n in -2i64..40) {
        check_ok(if_let::SOURCE, "if_let", &[arg(&xs)], if_let(&xs), EXACT);
        check_ok(tuple_patterns::SOURCE, "tuple_patterns", &[arg(&ps)], tuple_patterns(&ps), EXACT);
        check_ok(index_patterns::SOURCE, "index_patterns", &[arg(&a)], index_patterns(&a), EXACT);
        check_ok(collatz::SOURCE, "collatz", &[arg(&cs)], collatz(&cs), EXACT);
        check_ok(mandelbrot::SOURCE, "mandelbrot", &[arg(h), arg(w), arg(iters)], mandelbrot(h, w, iters), EXACT);
        check_ok(loop_state::SOURCE, "loop_state", &[arg(&ls), arg(n)], loop_state(&ls, n), EXACT);
    }

    #[test]
    fn math_methods(fa in vector(wild_f32(), 300), fb in vector(wild_f32(), 300), da in vector(wild_f64(), 300), db in vector(wild_f64(), 300),
                    ia in vector(any::<i16>(), 300), ub in vector(any::<u32>(), 300)) {
        // On the CPU both sides call the same Rust float functions in the same
        // order, except where LLVM rewrites a call with a constant argument
        // (`2.0.powf(x)` as `exp2(x)`: one ULP, see `libm_tol`); a GPU back end
        // has its own math library, within a few ULPs (see `float_tol`).
        check_ok(math_f32::SOURCE, "math_f32", &[arg(&fa), arg(&fb)], math_f32(&fa, &fb), float_tol(false, F32_MATH_TOL));
        check_ok(math_f64::SOURCE, "math_f64", &[arg(&da), arg(&db)], math_f64(&da, &db), libm_tol(f64::EPSILON, F64_MATH_TOL));
        check_ok(int_math::SOURCE, "int_math", &[arg(&ia), arg(&ub)], int_math(&ia, &ub), EXACT);
    }

    #[test]
    fn closures_and_calls(xs in vector(small_f64(), 300), ys in vector(small_f64(), 300), is in vector(any::<i32>(), 300), ls in vector(any::<i64>(), 300),
                          fs in vector(wild_f32(), 300),
                          opts in vector((1.0f32..100.0, 1.0f32..100.0, 0.1f32..5.0), 300), r in 0.0f32..0.1, v in 0.05f32..0.5) {
        check_ok(let_closures::SOURCE, "let_closures", &[arg(&xs), arg(&is), arg(&ls)], let_closures(&xs, &is, &ls), EXACT);
        check_ok(rms::SOURCE, "rms", &[arg(&xs)], rms(&xs), F64_TOL);
        check_ok(norm2::SOURCE, "norm2", &[arg(&xs)], norm2(&xs), F64_TOL);
        check_ok(dist::SOURCE, "dist", &[arg(&xs), arg(&ys)], dist(&xs, &ys), F64_TOL);
        check_ok(clamp_all::SOURCE, "clamp_all", &[arg(&fs)], clamp_all(&fs), EXACT);
        check_ok(both::SOURCE, "both", &[arg(&xs), arg(&ys)], both(&xs, &ys), F64_TOL);
        // Each price is a difference of terms as large as the price and the
        // strike (a far out-of-the-money option is ~0 from terms ~100): the
        // GPU's math library rounds at the terms' scale, not the result's.
        let terms = opts.to_vec().iter().map(|&(p, s, _)| p.max(s) as f64).fold(0.0, f64::max);
        check_ok(black_scholes::SOURCE, "black_scholes", &[arg(&opts), arg(r), arg(v)], black_scholes(&opts, r, v), sum_tol(F32_TOL, terms));
    }
}

/// Arguments where `exp2(x)` and glibc's `pow(2.0, x)` round apart: the
/// compiled `2.0.powf(x)` is LLVM's `exp2`, the interpreter's is `pow`. Within
/// one ULP here; `math_methods` met them only now and then (1 in ~1000).
#[test]
fn constant_base_powf_within_one_ulp() {
    let xs = Vector::from(vec![
        17.872847338508578,
        -97.26913656001544,
        44.323144271534545,
        52.52551861626492,
    ]);
    let ys = Vector::from(vec![1.0; 4]);
    check_ok(
        math_f64::SOURCE,
        "math_f64",
        &[arg(&xs), arg(&ys)],
        math_f64(&xs, &ys),
        libm_tol(f64::EPSILON, F64_MATH_TOL),
    );
}

#[test]
fn wrap_around_at_full_range() {
    let a = Vector::from(vec![i8::MAX, i8::MIN, -1, 0, 1]);
    let b = Vector::from(vec![1i8, -1, i8::MIN, i8::MIN, i8::MAX]);
    let r = check_ok(
        arith_i8::SOURCE,
        "arith_i8",
        &[arg(&a), arg(&b)],
        arith_i8(&a, &b),
        EXACT,
    );
    let got = arith_i8(&a, &b).unwrap().to_vec();
    assert_eq!(got[0], (i8::MIN, 126, i8::MAX, -i8::MAX, i8::MAX));
    assert_eq!(got[1].3, i8::MIN, "-i8::MIN wraps: {r:?}");
    assert_eq!(got[1].4, i8::MIN, "i8::MIN.abs() wraps");
    let u = Vector::from(vec![u64::MAX, 0]);
    let v = Vector::from(vec![1u64, 1]);
    let got = arith_u64(&u, &v).unwrap().to_vec();
    check_ok(
        arith_u64::SOURCE,
        "arith_u64",
        &[arg(&u), arg(&v)],
        arith_u64(&u, &v),
        EXACT,
    );
    assert_eq!(got[0].0, 0);
    assert_eq!(got[1].1, u64::MAX);
    let x = Vector::from(vec![i32::MIN, i32::MAX]);
    let y = Vector::from(vec![-1i32, 0]);
    check_ok(
        divrem_i32::SOURCE,
        "divrem_i32",
        &[arg(&x), arg(&y)],
        divrem_i32(&x, &y),
        EXACT,
    );
    assert_eq!(
        divrem_i32(&x, &y).unwrap().to_vec(),
        vec![(i32::MIN, 0), (0, i32::MAX)]
    );
    let x = Vector::from(vec![i64::MIN, 5, -5]);
    check_ok(
        divrem_literal::SOURCE,
        "divrem_literal",
        &[arg(&x)],
        divrem_literal(&x),
        EXACT,
    );
    assert_eq!(
        divrem_literal(&x).unwrap().to_vec(),
        vec![(0, i64::MIN, i64::MIN), (0, 5, -5), (0, -5, 5)]
    );
}

#[test]
fn float_to_int_casts_saturate() {
    let fs = Vector::from(vec![
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e20,
        -1e20,
        300.7,
        -300.7,
        -0.9,
        255.99,
    ]);
    check_ok(
        casts_from_f64::SOURCE,
        "casts_from_f64",
        &[arg(&fs)],
        casts_from_f64(&fs),
        EXACT,
    );
    let got = casts_from_f64(&fs).unwrap().to_vec();
    assert_eq!(got[0].0, (0, 0, 0, 0, 0));
    assert_eq!(got[1].0, (i8::MAX, i16::MAX, i32::MAX, i64::MAX, u8::MAX));
    assert_eq!(got[2].1 .0, 0u16);
    assert_eq!(got[5].0 .4, 255u8);
    assert_eq!(got[6].0 .0, i8::MIN);
    assert_eq!(got[7].0 .4, 0u8);
}

#[test]
fn scalar_language_large() {
    let n = 50_001;
    let xs: Vector<u32> = (0..n).map(|i| hash(i) as u32).collect();
    check_pools_ok(collatz::SOURCE, "collatz", &[arg(&xs)], || collatz(&xs), EXACT);
    check_pools_ok(
        mandelbrot::SOURCE,
        "mandelbrot",
        &[arg(130usize), arg(130usize), arg(50u32)],
        || mandelbrot(130, 130, 50),
        EXACT,
    );
    let a: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
    let b: Vector<i32> = (0..n).map(|i| (hash(i + 1) % 5) as i32 - 2).collect();
    check_pools_ok(
        divrem_i32::SOURCE,
        "divrem_i32",
        &[arg(&a), arg(&b)],
        || divrem_i32(&a, &b),
        EXACT,
    );
}

// =============================================================================
// more programs: rank 0, host code, statements, pipelines
// =============================================================================

/// A Scalar broadcast by backpermute, permuted back into a Scalar, and zipped.
#[acc]
fn rank0_ops(s: &Scalar<i32>, t: &Scalar<i32>, n: usize) -> (Vector<i32>, Scalar<i32>, Scalar<i32>) {
    let b = s.backpermute([n], |_| []);
    let p = b.permute(t, |_| Some([]), |a, c| a + c);
    (b, p, s.zip_with(t, |a, c| a * c))
}

#[acc]
fn reshape_to_scalar(xs: &Vector<i32>) -> Scalar<i32> {
    xs.map(|x| x * 2).reshape([])
}

accel! {
    fn pair(x: f32) -> (f32, f32) {
        (x * 2.0, x - 1.0)
    }
    fn use_pair(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| pair(x).0 + pair(x).1 * pair(x + 1.0).0)
    }
    fn split(xs: &Vector<i32>) -> (Vector<i32>, Vector<i32>) {
        (xs.map(|x| x / 2), xs.map(|x| x % 2))
    }
    fn use_split(xs: &Vector<i32>, k: i32) -> Vector<i32> {
        let (a, b) = split(&xs.map(|x| x + k));
        a.zip_with(&b, |p, q| p * 2 + q)
    }
}

#[acc]
fn literals(
    xs: &Vector<i8>,
    ys: &Vector<i64>,
    zs: &Vector<u64>,
) -> (
    Vector<(bool, i8, i8)>,
    Vector<(i64, bool)>,
    Vector<(u64, bool)>,
    Vector<f64>,
) {
    (
        xs.map(|x| (x == -128, x.max(-128), x.min(127))),
        ys.map(|y| (y.min(-9223372036854775808), y == 9223372036854775807)),
        zs.map(|z| (z ^ 18446744073709551615, z == 18446744073709551615)),
        ys.map(|y| if y > 0 { -0.0 } else { 0.0 }),
    )
}

#[acc]
fn literal_forms(xs: &Vector<u32>) -> Vector<(u32, u32, f32, i64, f64)> {
    xs.map(|x| {
        (
            x & 0xFF,
            x | 0b1010,
            -1.0f32.abs(),
            -(x as i64) - -1,
            1e40 * 0.0 + (x as f64) * 1_000.5,
        )
    })
}

#[acc]
fn cast_if(xs: &Vector<i32>) -> Vector<(u8, f32, i32)> {
    xs.map(|x| {
        (
            (if x > 0 { x } else { -x }) as u8,
            (if x > 0 { 1.5f32 } else { 2.5 }).sqrt(),
            x as u8 as i8 as i32,
        )
    })
}

#[acc]
fn zip3_fold(a: &Array<i64, 3>, b: &Array<i64, 3>) -> (Matrix<i64>, Array<i64, 3>) {
    let z = a.zip_with(b, |x, y| x * 7 + y);
    (z.fold(0, |p, q| p + q), z.scanr(1, |p, q| p + q))
}

#[acc]
fn gather_bp(xs: &Vector<f64>, idx: &Vector<usize>) -> Vector<f64> {
    xs.map(|x| x + 1.0).backpermute(idx.shape(), |[i]| [idx[[i]]])
}

#[acc]
fn while_in_fold(xs: &Vector<u32>) -> Scalar<u32> {
    xs.fold(0, |a, b| {
        let mut r = a;
        let mut k = 0;
        while k < 3 {
            r = r ^ b;
            k += 1;
        }
        r
    })
}

#[acc]
fn nested_closure(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        let g = |y| y * x + 1;
        let x = g(2);
        g(x) + x
    })
}

#[acc]
fn shadowing(xs: &Vector<i32>) -> Vector<i32> {
    let xs = xs.map(|x| x + 1);
    let xs = xs.map(|x| {
        let x = x * 2;
        let x = x - 3;
        x
    });
    xs
}

/// Scalar state computed on the host (a loop and an `if` outside closures).
#[acc]
fn host_loop(xs: &Vector<u8>, k: usize) -> Vector<usize> {
    let mut n = 0usize;
    let mut i = 0usize;
    while i < k {
        n += i;
        i += 1;
    }
    if n > 10 {
        n = 10;
    }
    let m = xs.len();
    generate([n], |[j]| j * m)
}

#[acc]
fn shape_from_value(s: &Scalar<usize>) -> Vector<usize> {
    generate([s.value() % 50], |[i]| i * 2)
}

#[acc]
fn matvec(m: &Matrix<f64>, v: &Vector<f64>) -> Vector<f64> {
    let [r, c] = m.shape();
    v.backpermute([r, c], |[_i, j]| [j])
        .zip_with(m, |a, b| a * b)
        .sum()
}

#[acc]
fn matvec_gen(m: &Matrix<i32>, v: &Vector<i32>) -> Vector<i32> {
    generate(m.shape(), |[i, j]| m[[i, j]] * v[[j]]).sum()
}

#[acc]
fn pipeline(xs: &Vector<i32>, r: usize) -> (Vector<i32>, Matrix<i32>, Vector<i32>) {
    let n = xs.len();
    let c = if r == 0 { 0usize } else { n / r };
    let m = xs.backpermute([r * c], |[i]| [n - 1 - i]).reshape([r, c]);
    let t = m.backpermute([c, r], |[i, j]| [j, i]).map(|x| x % 1000);
    let s = t.scanl1(|a, b| a + b);
    let h = s
        .reshape([r * c])
        .permute(&fill([7], 0), |[i]| Some([i % 7]), |a, b| a + b);
    (h, s, t.fold(0, |a, b| a + b))
}

/// Computed defaults, moved into the permute; the index function reads their shape.
#[acc]
fn defaults_len(xs: &Vector<i32>, n: usize) -> Vector<i32> {
    let d = generate([n], |[i]| i as i32);
    xs.permute(&d, |[i]| if i < d.len() { Some([i]) } else { None }, |a, b| a + b)
}

#[acc]
fn bool_permute(xs: &Vector<bool>, n: usize) -> Vector<bool> {
    xs.permute(&fill([n], false), |[i]| Some([i % n]), |a, b| a || b)
}

#[acc]
fn stmts(xs: &Vector<i32>) -> Vector<(i32, i32, u8)> {
    xs.map(|x| {
        let mut y = 0;
        if x > 0 {
            y = 1;
        }
        let mut z = 0;
        if x > 100 {
            z = 3;
        } else if x < -100 {
            z = -3;
            y += 10;
        } else {
            z = x;
        }
        let (mut a, mut b) = (x, 7);
        let mut i = 0;
        while i < 4 {
            let mut j = 0;
            while j < i {
                a ^= b << j;
                j += 1;
            }
            b = b * 3 + 1;
            i += 1;
        }
        (y + z, a + b, x as u8 as i32 as u8)
    })
}

/// A loop whose condition reads an array (guarded by `&&`).
#[acc]
fn search(xs: &Vector<i32>, targets: &Vector<i32>) -> Vector<usize> {
    let n = xs.len();
    targets.map(|t| {
        let mut i = 0usize;
        while i < n && xs[[i]] != t {
            i += 1;
        }
        i
    })
}

#[acc]
fn tuple_reads(ps: &Vector<(u8, (i16, f32))>, idx: &Vector<usize>) -> Vector<(i16, f32)> {
    idx.map(|i| {
        let p = ps[[i]];
        ((p.1).0 + p.0 as i16, ps[[i]].1 .1)
    })
}

#[acc]
fn unzip_nested(ps: &Vector<(u8, (i16, f32))>) -> (Vector<u8>, Vector<(i16, f32)>) {
    ps.unzip()
}

/// Reads in the combination functions of scans and folds (out of bounds when
/// the combination is applied at all).
#[acc]
fn combine_reads(xs: &Vector<i32>, ys: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Scalar<i32>, Vector<i32>) {
    (
        xs.scanl1(|a, b| a + b + ys[[5]] * 0),
        xs.scanr1(|a, b| a + b + ys[[5]] * 0),
        xs.fold1(|a, b| a + b + ys[[5]] * 0),
        xs.scanl(0, |a, b| a + b + ys[[5]] * 0),
    )
}

/// An array that is both returned and reduced.
#[acc]
fn returned_and_reduced(xs: &Vector<u32>) -> (Vector<u32>, Scalar<u32>, Vector<u32>) {
    let ys = xs.map(|x| x * 3);
    (ys, ys.sum(), ys.scanl1(|a, b| a.max(b)))
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn misc_programs(s in any::<i32>(), t in any::<i32>(), n in 0usize..50, is in vector(-10_000i32..10_000, 300), fs in vector(wild_f32(), 300),
                     bs in vector(any::<i8>(), 300), ls in vector(any::<i64>(), 300), us in vector(any::<u64>(), 300), ws in vector(any::<u32>(), 300),
                     a in array3(-1000i64..1000, 8, 9, 10), b in array3(-1000i64..1000, 8, 9, 10), k in -5i32..5) {
        let (ss, ts) = (Scalar::new(s), Scalar::new(t));
        check_ok(rank0_ops::SOURCE, "rank0_ops", &[arg(&ss), arg(&ts), arg(n)], rank0_ops(&ss, &ts, n), EXACT);
        check_fails_if(reshape_to_scalar::SOURCE, "reshape_to_scalar", &[arg(&is)], reshape_to_scalar(&is), EXACT, is.len() != 1, ErrorKind::ShapeMismatch).ok();
        check_ok(use_pair::SOURCE, "use_pair", &[arg(&fs)], use_pair(&fs), EXACT);
        check_ok(use_split::SOURCE, "use_split", &[arg(&is), arg(k)], use_split(&is, k), EXACT);
        check_ok(literals::SOURCE, "literals", &[arg(&bs), arg(&ls), arg(&us)], literals(&bs, &ls, &us), EXACT);
        check_ok(literal_forms::SOURCE, "literal_forms", &[arg(&ws)], literal_forms(&ws), EXACT);
        check_ok(cast_if::SOURCE, "cast_if", &[arg(&is)], cast_if(&is), EXACT);
        check_ok(zip3_fold::SOURCE, "zip3_fold", &[arg(&a), arg(&b)], zip3_fold(&a, &b), EXACT);
        check_ok(while_in_fold::SOURCE, "while_in_fold", &[arg(&ws)], while_in_fold(&ws), EXACT);
        check_ok(nested_closure::SOURCE, "nested_closure", &[arg(&is)], nested_closure(&is), EXACT);
        check_ok(shadowing::SOURCE, "shadowing", &[arg(&is)], shadowing(&is), EXACT);
        check_ok(stmts::SOURCE, "stmts", &[arg(&is)], stmts(&is), EXACT);
        check_ok(returned_and_reduced::SOURCE, "returned_and_reduced", &[arg(&ws)], returned_and_reduced(&ws), EXACT);
    }

    #[test]
    fn misc_programs_2(xs in vector(small_f64(), 300), idx in vector(0usize..310, 300), m in matrix(small_f64(), 40, 70), im in matrix(-1000i32..1000, 40, 70),
                       v in vector(small_f64(), 80), iv in vector(-1000i32..1000, 80), is in vector(-1000i32..1000, 300), r in 0usize..7, n in 1usize..40,
                       bs in vector(any::<bool>(), 300), ts in vector(-1000i32..1000, 30), ps in vector((any::<u8>(), (any::<i16>(), wild_f32())), 300),
                       sv in any::<usize>(), k in 0usize..30, cs in vector(any::<u8>(), 30), ys in vector(any::<i32>(), 10)) {
        check_fails_if(gather_bp::SOURCE, "gather_bp", &[arg(&xs), arg(&idx)], gather_bp(&xs, &idx), EXACT, idx.to_vec().iter().any(|&i| i >= xs.len()), ErrorKind::IndexOutOfBounds).ok();
        let [mr, mc] = m.shape();
        // Each row sums products of terms below 1e3 or so: tolerance at the terms' scale.
        let mag = m.to_vec().iter().map(|x| x.abs()).fold(0.0, f64::max) * v.to_vec().iter().map(|x| x.abs()).sum::<f64>();
        check_fails_if(matvec::SOURCE, "matvec", &[arg(&m), arg(&v)], matvec(&m, &v), sum_tol(F64_TOL, mag), mr > 0 && mc > v.len(), ErrorKind::IndexOutOfBounds).ok();
        let [ir, ic] = im.shape();
        check_fails_if(matvec_gen::SOURCE, "matvec_gen", &[arg(&im), arg(&iv)], matvec_gen(&im, &iv), EXACT, ir > 0 && ic > iv.len(), ErrorKind::IndexOutOfBounds).ok();
        check_ok(pipeline::SOURCE, "pipeline", &[arg(&is), arg(r)], pipeline(&is, r), EXACT);
        check_ok(defaults_len::SOURCE, "defaults_len", &[arg(&is), arg(n)], defaults_len(&is, n), EXACT);
        check_ok(bool_permute::SOURCE, "bool_permute", &[arg(&bs), arg(n)], bool_permute(&bs, n), EXACT);
        check_ok(search::SOURCE, "search", &[arg(&is), arg(&ts)], search(&is, &ts), EXACT);
        check_fails_if(tuple_reads::SOURCE, "tuple_reads", &[arg(&ps), arg(&idx)], tuple_reads(&ps, &idx), EXACT, idx.to_vec().iter().any(|&i| i >= ps.len()), ErrorKind::IndexOutOfBounds).ok();
        check_ok(unzip_nested::SOURCE, "unzip_nested", &[arg(&ps)], unzip_nested(&ps), EXACT);
        let s = Scalar::new(sv);
        check_ok(shape_from_value::SOURCE, "shape_from_value", &[arg(&s)], shape_from_value(&s), EXACT);
        check_ok(host_loop::SOURCE, "host_loop", &[arg(&cs), arg(k)], host_loop(&cs, k), EXACT);
        // fold1 of no elements fails first; otherwise the combining functions read ys[[5]].
        let r = check(combine_reads::SOURCE, "combine_reads", &[arg(&ts), arg(&ys)], combine_reads(&ts, &ys), EXACT);
        if ts.is_empty() {
            expect_fails_if("combine_reads", r, true, ErrorKind::EmptyReduction).ok();
        } else {
            expect_fails_if("combine_reads", r, ys.len() < 6, ErrorKind::IndexOutOfBounds).ok();
        }
    }
}

#[test]
fn very_large_inputs_many_chunks() {
    let n = 200_003;
    let xs: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
    check_pools_ok(fold_v::SOURCE, "fold_v", &[arg(&xs)], || fold_v(&xs), EXACT);
    check_pools_ok(
        scans_total_i32::SOURCE,
        "scans_total_i32",
        &[arg(&xs)],
        || scans_total_i32(&xs),
        EXACT,
    );
    let pv: Vector<(u32, u32)> = (0..n).map(|i| (hash(i) as u32 | 1, hash(i + 1) as u32)).collect();
    check_pools_ok(
        affine_fold_v::SOURCE,
        "affine_fold_v",
        &[arg(&pv)],
        || affine_fold_v(&pv),
        EXACT,
    );
    let us: Vector<u32> = (0..n).map(|i| hash(i) as u32).collect();
    check_pools_ok(
        histogram::SOURCE,
        "histogram",
        &[arg(&us), arg(64usize)],
        || histogram(&us, 64),
        EXACT,
    );
    let pm = Matrix::<(u32, u32)>::from_fn([2, 100_001], |[i, j]| {
        (hash(i * 100_001 + j) as u32 | 1, hash(j) as u32)
    });
    check_pools_ok(
        scans_total_affine::SOURCE,
        "scans_total_affine",
        &[arg(&pm)],
        || scans_total_affine(&pm),
        EXACT,
    );
    check_pools_ok(
        affine_fold_m::SOURCE,
        "affine_fold_m",
        &[arg(&pm)],
        || affine_fold_m(&pm),
        EXACT,
    );
}

/// Programs called from several threads at once (each call has its own error
/// context).
#[test]
fn concurrent_calls() {
    let xs: Vector<f32> = (0..20_000).map(|i| i as f32).collect();
    let idx_ok: Vector<usize> = (0..20_000).collect();
    let idx_bad: Vector<usize> = (0..20_000).map(|i| i + 1).collect();
    let want_ok = interpret(gather::SOURCE, "gather", &[arg(&xs), arg(&idx_ok)]);
    let want_bad = interpret(gather::SOURCE, "gather", &[arg(&xs), arg(&idx_bad)]);
    std::thread::scope(|scope| {
        for t in 0..6 {
            let (xs, idx_ok, idx_bad, want_ok, want_bad) = (&xs, &idx_ok, &idx_bad, &want_ok, &want_bad);
            scope.spawn(move || {
                for _ in 0..5 {
                    if t % 2 == 0 {
                        compare("gather", &[], want_ok.clone(), gather(xs, idx_ok), EXACT).unwrap();
                    } else {
                        assert_eq!(
                            compare("gather", &[], want_bad.clone(), gather(xs, idx_bad), EXACT),
                            Err(ErrorKind::IndexOutOfBounds)
                        );
                    }
                }
            });
        }
    });
}

#[test]
fn unavailable_backend_is_an_error() {
    let xs = Vector::from(vec![1.0f32, 2.0]);
    check_ok(
        saxpy::SOURCE,
        "saxpy",
        &[arg(2.0f32), arg(&xs), arg(&xs)],
        saxpy::on(&Backend::cpu(), 2.0, &xs, &xs),
        EXACT,
    );
    // Without a GPU, asking for CUDA gives a backend whose every call is an
    // error; with one, the same call runs there.
    let r = saxpy::on(&Backend::from_setting(Some("cuda")), 2.0, &xs, &xs);
    match Backend::cuda(0) {
        Ok(_) => assert_eq!(r.map(|a| a.to_vec()), Ok(vec![3.0, 6.0])),
        Err(_) => assert_eq!(r.unwrap_err().kind(), ErrorKind::BackendUnavailable),
    }
}

/// A shape whose size overflows `usize`: the interpreter reports a shape
/// error; the compiled code must not panic.
#[acc]
fn gen_overflow(n: usize) -> Matrix<u8> {
    generate([n, 2], |[i, j]| (i + j) as u8)
}

#[test]
fn generate_with_overflowing_shape_is_an_error() {
    check_ok(
        gen_overflow::SOURCE,
        "gen_overflow",
        &[arg(3usize)],
        gen_overflow(3),
        EXACT,
    );
    let compiled = std::panic::catch_unwind(|| gen_overflow(usize::MAX))
        .unwrap_or_else(|_| panic!("`gen_overflow(usize::MAX)`: the compiled code panics (the interpreter returns Err(ShapeMismatch))"));
    check_err(
        gen_overflow::SOURCE,
        "gen_overflow",
        &[arg(usize::MAX)],
        compiled,
        ErrorKind::ShapeMismatch,
    );
}

/// A Scalar total read in a later closure, not returned.
#[acc]
fn scan_total_uses(xs: &Vector<i32>) -> Vector<i32> {
    let (pre, total) = xs.scanl_total(0, |a, b| a + b);
    pre.map(|p| total.value() - p)
}

#[acc]
fn use_value(xs: &Vector<f64>) -> Vector<f64> {
    let s = xs.sum();
    let m = xs.maximum();
    xs.map(|x| (m.value() - x) / (s.value().abs() + 1.0))
}

/// A scalar result computed on the host.
#[acc]
fn host_scalar(xs: &Vector<u16>) -> u32 {
    xs.map(|x| x as u32).sum().value() + xs.len() as u32
}

#[acc]
fn host_tuple(xs: &Vector<i8>, k: i8) -> (i8, usize) {
    (xs.sum().value() * k, xs.len())
}

/// The same array twice in the result, and a parameter returned as is.
#[acc]
fn same_twice(xs: &Vector<u32>) -> (Vector<u32>, Vector<u32>, Vector<u32>) {
    let ys = xs.map(|x| x + 1);
    (ys, ys, xs)
}

/// Computed defaults used again after the permute (copied, not moved).
#[acc]
fn defaults_reused(xs: &Vector<i32>, n: usize) -> (Vector<i32>, Vector<i32>) {
    let d = generate([n], |[i]| i as i32);
    let h = xs.permute(&d, |[i]| Some([i % n.max(1)]), |a, b| a + b);
    (h, d)
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn scalar_values_and_shared_results(is in vector(any::<i32>(), 300), xs in vector(small_f64(), 300), us in vector(any::<u16>(), 300),
                                        bs in vector(any::<i8>(), 300), k in any::<i8>(), ws in vector(any::<u32>(), 300), n in 1usize..40) {
        check_ok(scan_total_uses::SOURCE, "scan_total_uses", &[arg(&is)], scan_total_uses(&is), EXACT);
        check_fails_if(use_value::SOURCE, "use_value", &[arg(&xs)], use_value(&xs), F64_TOL, xs.is_empty(), ErrorKind::EmptyReduction).ok();
        check_ok(host_scalar::SOURCE, "host_scalar", &[arg(&us)], host_scalar(&us), EXACT);
        check_ok(host_tuple::SOURCE, "host_tuple", &[arg(&bs), arg(k)], host_tuple(&bs, k), EXACT);
        check_ok(same_twice::SOURCE, "same_twice", &[arg(&ws)], same_twice(&ws), EXACT);
        check_ok(defaults_reused::SOURCE, "defaults_reused", &[arg(&is), arg(n)], defaults_reused(&is, n), EXACT);
    }
}

// =============================================================================
// errors that happen in parts of the program the result does not need
// =============================================================================

/// The interpreter evaluates every element of the backpermuted array (and
/// fails on the last one); the fused code only computes the elements the
/// zip reads.
#[acc]
fn unused_out_of_bounds(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<i32> {
    let shifted = xs.backpermute([xs.len() + 1], |[i]| [i]);
    shifted.zip_with(ys, |a, b| a + b)
}

/// A read whose value is bound but not used.
#[acc]
fn unused_read(xs: &Vector<i32>, k: usize) -> Vector<i32> {
    xs.map(|x| {
        let _unused = xs[[k]];
        x + 1
    })
}

/// A top-level read whose value is never used.
#[acc]
fn top_unused_read(xs: &Vector<i32>, k: usize) -> Vector<i32> {
    let _v = xs[[k]];
    xs.map(|x| x + 1)
}

/// A top-level reduction whose value is never used (an empty one fails).
#[acc]
fn top_unused_minimum(xs: &Vector<i32>) -> Vector<i32> {
    let _m = xs.minimum();
    xs.map(|x| x + 1)
}

// A `let` whose variable is never used is never evaluated (documented in
// docs/language.md), by the interpreter and the compiled code alike.

#[test]
fn errors_in_unused_top_level_lets() {
    let xs = Vector::from(vec![1i32, 2, 3]);
    check_ok(
        top_unused_read::SOURCE,
        "top_unused_read",
        &[arg(&xs), arg(0usize)],
        top_unused_read(&xs, 0),
        EXACT,
    );
    check_ok(
        top_unused_read::SOURCE,
        "top_unused_read",
        &[arg(&xs), arg(5usize)],
        top_unused_read(&xs, 5),
        EXACT,
    );
}

#[test]
fn errors_in_unused_top_level_reductions() {
    let e = Vector::<i32>::from(vec![]);
    check_ok(
        top_unused_minimum::SOURCE,
        "top_unused_minimum",
        &[arg(&e)],
        top_unused_minimum(&e),
        EXACT,
    );
}

/// A generate over rows whose value the map after it ignores: the map still
/// computes each element it maps, so every read out of bounds fails, not
/// only one in the first element of a row (the CPU's values the same along
/// a row, `cpu/rows.rs`, once computed this element from its row's first).
#[acc]
fn ignored_rows(a: &Array<i32, 3>) -> Array<u8, 3> {
    generate([3, 1, 5], |[i, j, k]| a[[i, j + 1, k]]).map(|_x| 2u8)
}

#[test]
fn errors_in_a_value_a_map_ignores() {
    let a = Array::<i32, 3>::from_vec([5, 3, 4], (0..60).collect()).unwrap();
    let src = ignored_rows::SOURCE;
    check_err(
        src,
        "ignored_rows",
        &[arg(&a)],
        ignored_rows(&a),
        ErrorKind::IndexOutOfBounds,
    );
    let b = Array::<i32, 3>::from_vec([5, 3, 5], (0..75).collect()).unwrap();
    check_ok(src, "ignored_rows", &[arg(&b)], ignored_rows(&b), EXACT);
}

/// Fusion computes only the elements the result needs: the fused zip never
/// reads the out-of-bounds element that the interpreter, which materialises
/// every intermediate array, does. Documented in docs/language.md.
#[test]
fn errors_in_unused_elements() {
    let xs = Vector::from(vec![1i32, 2, 3]);
    let ys = Vector::from(vec![10i32, 20]);
    let compiled = unused_out_of_bounds(&xs, &ys).expect("the fused program reads only elements 0 and 1");
    assert_eq!(compiled.to_vec(), vec![11, 22]);
    let interp = accel_core::interpret_source(
        unused_out_of_bounds::SOURCE,
        "unused_out_of_bounds",
        &[arg(&xs), arg(&ys)],
    );
    assert_eq!(
        interp
            .expect_err("the interpreter builds the whole backpermuted array")
            .kind(),
        ErrorKind::IndexOutOfBounds
    );
}

#[test]
fn errors_in_unused_lets() {
    let xs = Vector::from(vec![1i32, 2, 3]);
    check_ok(
        unused_read::SOURCE,
        "unused_read",
        &[arg(&xs), arg(3usize)],
        unused_read(&xs, 3),
        EXACT,
    );
    check_ok(
        unused_read::SOURCE,
        "unused_read",
        &[arg(&xs), arg(2usize)],
        unused_read(&xs, 2),
        EXACT,
    );
}

// =============================================================================
// Programs that once did not compile.
// =============================================================================

mod once_rejected {
    use super::*;

    // Rank-0 `generate` / `fill` once emitted an untyped `let __vN = [];`.
    #[acc]
    fn rank0_generate(k: i32) -> (Scalar<i32>, Scalar<i32>) {
        (generate([], |_| k + 5), fill([], k))
    }

    // The literal `0` in the first branch takes the type of the other branch.
    #[acc]
    fn if_literal_branch(xs: &Vector<i32>, r: usize) -> Vector<i32> {
        let n = xs.len();
        let c = if r == 0 { 0 } else { n / r };
        xs.map(|x| x + c as i32)
    }

    #[test]
    fn known_compile_failures() {
        check_ok(
            rank0_generate::SOURCE,
            "rank0_generate",
            &[arg(4i32)],
            rank0_generate(4),
            EXACT,
        );
        let xs = Vector::from(vec![1i32, 2]);
        check_ok(
            if_literal_branch::SOURCE,
            "if_literal_branch",
            &[arg(&xs), arg(2usize)],
            if_literal_branch(&xs, 2),
            EXACT,
        );
    }
}

// =============================================================================
// Indexed neighbourhood reads under an `if` that bounds the index (the CPU
// code splits the index space at the box where the bounds hold), and loops
// whose state is rebuilt every step (the dead state's memory is reused).
// =============================================================================

mod guarded {
    use super::*;

    // Every comparison form, on both sides; `lo` may be 0, where `i - 1`
    // wraps and the read fails in both.
    #[acc]
    fn cross(a: &Matrix<i32>, lo: usize, up: usize) -> Matrix<i32> {
        let [n, m] = a.shape();
        generate([n, m], |[i, j]| {
            if i >= lo && i + 1 < n && 1 <= j && m > j + 1 && j <= up {
                a[[i - 1, j]] + 2 * a[[i + 1, j]] + 3 * a[[i, j - 1]] - a[[i, j + 1]]
            } else {
                a[[i, j]] * 5
            }
        })
    }

    // Conjuncts that bound nothing (a read, an equality) stay in the test,
    // in their order.
    #[acc]
    fn mixed(a: &Matrix<i32>, k: usize) -> Matrix<i32> {
        let [n, m] = a.shape();
        generate([n, m], |[i, j]| {
            let x = a[[i, j]];
            if j > 0 && x % 3 != 0 && i < k && a[[i, j - 1]] > x && i + 2 < n {
                a[[i + 2, j - 1]] - x
            } else if i == 0 {
                x
            } else {
                -x
            }
        })
    }

    // Rodinia's border cases: an `else if` chain of equalities, an `||`, a
    // `!`, and the interior last.
    #[acc]
    fn chain(a: &Matrix<f32>) -> Matrix<f32> {
        let [n, m] = a.shape();
        generate([n, m], |[i, j]| {
            let x = a[[i, j]];
            let d = if i == 0 && j == 0 {
                x
            } else if i == n - 1 || j == m - 1 {
                x * 2.0
            } else if i == 0 {
                a[[i + 1, j]] - x
            } else if j == 0 {
                a[[i, j + 1]] + x
            } else if !(i < 2) {
                a[[i - 1, j]] + a[[i + 1, j]] - a[[i, j - 1]] + a[[i, j + 1]] - a[[i - 2, j]]
            } else {
                0.5 * x
            };
            x + d
        })
    }

    // The interior in the else-branch of the edge tests, over a space that
    // may be longer than the array: its reads are proved where the host
    // finds `n` no longer than `a` (`plan::bounds`), checked elsewhere.
    #[acc]
    fn edges(a: &Vector<f32>, n: usize) -> Vector<f32> {
        generate([n], |[i]| {
            if i == 0 || i + 1 == n {
                1.0
            } else if i == n - 1 {
                2.0
            } else {
                a[[i - 1]] + a[[i + 1]]
            }
        })
    }

    // An equality with a host value, on either side of the slice, and an
    // `if` that runs after another.
    #[acc]
    fn slice(a: &Matrix<i32>, k: usize) -> Matrix<i32> {
        let [n, m] = a.shape();
        generate([n, m], |[i, j]| {
            let y = if j == k { 0 } else { a[[i, j]] };
            let z = if k + 1 != j && i + 1 < n { a[[i + 1, j]] } else { 7 };
            y - z
        })
    }

    // Rodinia's LU decomposition: each step changes one row, then one
    // column (updated in place: the state dies at each step).
    #[acc]
    fn lud(a0: &Matrix<f32>) -> Matrix<f32> {
        let [n, _] = a0.shape();
        let mut a = a0.map(|x| x);
        for i in 0..n {
            a = generate([n, n], |[r, c]| {
                if r == i && c >= i {
                    let mut sum = a[[i, c]];
                    for k in 0..i {
                        sum -= a[[i, k]] * a[[k, c]];
                    }
                    sum
                } else {
                    a[[r, c]]
                }
            });
            a = generate([n, n], |[r, c]| {
                if c == i && r > i {
                    let mut sum = a[[r, i]];
                    for k in 0..i {
                        sum -= a[[r, k]] * a[[k, i]];
                    }
                    sum / a[[i, i]]
                } else {
                    a[[r, c]]
                }
            });
        }
        a
    }

    // The changed row reads its own old elements: an update in place must
    // not see its own writes.
    #[acc]
    fn shift_row(a0: &Matrix<i32>, steps: usize) -> Matrix<i32> {
        let [n, m] = a0.shape();
        let mut a = a0.map(|x| x);
        for s in 0..steps {
            let k = s % n;
            a = generate([n, m], |[r, c]| {
                if r == k && c + 1 < m {
                    a[[r, c + 1]] + a[[(r + 1) % n, c]]
                } else {
                    a[[r, c]]
                }
            });
        }
        a
    }

    // A column band under a `!`, the changing branch second; then a shape
    // that differs from the state's on the first step (odd rows).
    #[acc]
    fn band(a0: &Matrix<i64>, lo: usize, hi: usize, steps: usize) -> Matrix<i64> {
        let mut a = a0.map(|x| x);
        for t in 0..steps {
            let [p, m] = a.shape();
            a = generate([p - p % 2, m], |[i, j]| {
                if !(j >= lo && j < hi) {
                    a[[i, j]]
                } else {
                    a[[i, j]] * 3 + (t as i64) - a[[i, m - 1 - j]]
                }
            });
        }
        a
    }

    // Rank 1, long enough to be split between threads inside its one row.
    #[acc]
    fn diff1(xs: &Vector<f32>, k: usize) -> Vector<f32> {
        let n = xs.len();
        generate([n], |[i]| {
            if i > 0 && i + 1 < k {
                xs[[i]] - xs[[i - 1]] + xs[[i + 1]]
            } else {
                0.0
            }
        })
    }

    #[acc]
    fn box3(a: &Array<i64, 3>) -> Array<i64, 3> {
        let [p, q, r] = a.shape();
        generate([p, q, r], |[i, j, k]| {
            if i >= 1 && j >= 1 && k >= 1 && i + 1 < p && j + 1 < q && k + 1 < r {
                a[[i - 1, j, k]]
                    + a[[i + 1, j, k]]
                    + a[[i, j - 1, k]]
                    + a[[i, j + 1, k]]
                    + a[[i, j, k - 1]]
                    + a[[i, j, k + 1]]
            } else {
                a[[i, j, k]]
            }
        })
    }

    // Two states rebuilt from each other every step, swapped, one returned
    // with a copy of the other.
    #[acc]
    fn relax(steps: usize, a0: &Matrix<f32>) -> (Matrix<f32>, Matrix<f32>) {
        let [n, m] = a0.shape();
        let mut a = a0.map(|x| x);
        let mut b = a0.map(|x| x * 0.5);
        for _ in 0..steps {
            let c = generate([n, m], |[i, j]| {
                if i >= 1 && i + 1 < n && j >= 1 && j + 1 < m {
                    0.25 * (a[[i - 1, j]] + a[[i + 1, j]] + b[[i, j - 1]] + b[[i, j + 1]])
                } else {
                    b[[i, j]]
                }
            });
            b = a;
            a = c;
        }
        (a, b.map(|x| x + 1.0))
    }

    // PolyBench's jacobi-1d: each sweep changes the interior of a state
    // from the other state alone, so the CPU writes it straight into the
    // dying state's storage (`update_box`), the ends untouched.
    #[acc]
    fn sweeps(steps: usize, a0: &Vector<f32>, b0: &Vector<f32>) -> (Vector<f32>, Vector<f32>) {
        let n = a0.len();
        let mut a = a0.map(|x| x);
        let mut b = b0.map(|x| x);
        for _ in 0..steps {
            b = generate([n], |[i]| {
                if i >= 1 && i + 1 < n {
                    a[[i - 1]] + a[[i]] - a[[i + 1]]
                } else {
                    b[[i]]
                }
            });
            a = generate([n], |[i]| {
                if i >= 1 && i + 1 < n {
                    b[[i - 1]] * 0.5 + b[[i + 1]]
                } else {
                    a[[i]]
                }
            });
        }
        (a, b)
    }

    // Field updates that read their own old element (PolyBench's fdtd-2d):
    // the changing branch reads the dying state at its own index alone, so
    // the CPU writes it in place, element by element
    // (`update_box_reading`); `g` shares the first state's storage, so the
    // first step must not, and `h`'s update reads `e` elsewhere.
    #[acc]
    fn fields(steps: usize, a0: &Matrix<i32>) -> (Matrix<i32>, Matrix<i32>, Matrix<i32>) {
        let [n, m] = a0.shape();
        let mut e = a0.map(|x| x);
        let g = e;
        let mut h = a0.map(|x| x / 2);
        for t in 0..steps {
            e = generate([n, m], |[i, j]| {
                if j >= 1 {
                    e[[i, j]] - (h[[i, j]] - h[[i, j - 1]]) / 2 + (t as i32)
                } else {
                    e[[i, j]]
                }
            });
            h = generate([n, m], |[i, j]| {
                if i + 1 < n && j + 1 < m {
                    h[[i, j]] * 2 - (e[[i, j + 1]] - e[[i, j]] + e[[i + 1, j]]) / 3 - h[[i, j]]
                } else {
                    h[[i, j]]
                }
            });
        }
        (e, g, h)
    }

    // The same with the states sharing storage at first (`b = a`), and the
    // state that is written also read by a later one (`c` keeps the old
    // `b`): the update must never be seen through another name.
    #[acc]
    fn sweeps_shared(steps: usize, a0: &Matrix<i32>) -> (Matrix<i32>, Matrix<i32>, Matrix<i32>) {
        let [n, m] = a0.shape();
        let mut a = a0.map(|x| x + 1);
        let mut b = a;
        let mut c = a0.map(|x| x);
        for t in 0..steps {
            c = b;
            b = generate([n, m], |[i, j]| {
                if i >= 1 && j + 1 < m {
                    a[[i - 1, j]] - a[[i, j + 1]] + (t as i32)
                } else {
                    b[[i, j]]
                }
            });
            a = generate([n, m], |[i, j]| {
                if i + 1 < n && j >= 1 {
                    b[[i + 1, j - 1]] * 2
                } else {
                    a[[i, j]]
                }
            });
        }
        (a, b, c)
    }

    // Prefixes of arrays that die there: the CPU cuts the array's own
    // storage to length when the prefix's shape leads the array's (its
    // first rows), and must still copy when another name keeps the array,
    // copy when the rows differ (a matrix's `take`), and fail past its end.
    #[acc]
    fn prefixes(xs: &Vector<i64>, k: usize, steps: usize) -> (Vector<i64>, Vector<i64>) {
        let mut v = xs.map(|x| x * 3);
        let mut kept = xs.map(|x| x);
        for t in 0..steps {
            if t % 2 == 0 {
                kept = v;
            }
            v = v.take(k + steps - t);
        }
        (v, kept)
    }

    #[acc]
    fn prefix_past(xs: &Vector<i64>, k: usize) -> Vector<i64> {
        let v = xs.scanl1(|a, b| a + b);
        generate([k], |[i]| v[[i]])
    }

    #[acc]
    fn row_prefixes(a: &Matrix<i64>, r: usize, c: usize) -> (Matrix<i64>, Matrix<i64>) {
        let [n, m] = a.shape();
        let b = a.scanl1(|x, y| x + y);
        let d = a.scanr1(|x, y| x ^ y);
        (generate([r.min(n), m], |[i, j]| b[[i, j]]), d.take(c))
    }

    proptest! {
        #![proptest_config(cfg())]

        #[test]
        fn guarded_reads(a in matrix(-1000i32..1000, 12, 12), lo in 0usize..3, up in 0usize..14, k in 0usize..14,
                         xs in vector(small_f32(), 300), kx in 0usize..320, c in array3(any::<i64>(), 6, 6, 6),
                         f in matrix(small_f32(), 9, 9), steps in 0usize..5) {
            let [n, m] = a.shape();
            // `lo` = 0 reads row `0 - 1` when the box is not empty.
            let wraps = lo == 0 && n >= 2 && m >= 3 && up >= 1;
            check_fails_if(cross::SOURCE, "cross", &[arg(&a), arg(lo), arg(up)], cross(&a, lo, up), EXACT, wraps, ErrorKind::IndexOutOfBounds).ok();
            check_ok(mixed::SOURCE, "mixed", &[arg(&a), arg(k)], mixed(&a, k), EXACT);
            // `k` past the end reads element `n`.
            let past = xs.len() >= 2 && kx > xs.len();
            check_fails_if(diff1::SOURCE, "diff1", &[arg(&xs), arg(kx)], diff1(&xs, kx), EXACT, past, ErrorKind::IndexOutOfBounds).ok();
            let past = kx >= 3 && kx > xs.len();
            check_fails_if(edges::SOURCE, "edges", &[arg(&xs), arg(kx)], edges(&xs, kx), EXACT, past, ErrorKind::IndexOutOfBounds).ok();
            check_ok(box3::SOURCE, "box3", &[arg(&c)], box3(&c), EXACT);
            check_ok(chain::SOURCE, "chain", &[arg(&f)], chain(&f), EXACT);
            check_ok(slice::SOURCE, "slice", &[arg(&a), arg(k)], slice(&a, k), EXACT);
            let sq = Matrix::from_fn([f.shape()[0], f.shape()[0]], |[i, j]| f.to_vec().get(i * 3 + j).copied().unwrap_or(1.0) + (i == j) as u8 as f32 * 50.0);
            check_ok(lud::SOURCE, "lud", &[arg(&sq)], lud(&sq), float_tol(false, F32_TOL));
            check_ok(shift_row::SOURCE, "shift_row", &[arg(&a), arg(steps * 3)], shift_row(&a, steps * 3), EXACT);
            let wide = Matrix::from_vec(a.shape(), a.to_vec().iter().map(|&x| x as i64).collect()).unwrap();
            check_ok(band::SOURCE, "band", &[arg(&wide), arg(lo * 2), arg(up), arg(steps)], band(&wide, lo * 2, up, steps), EXACT);
            check_ok(relax::SOURCE, "relax", &[arg(steps), arg(&f)], relax(steps, &f), EXACT);
            let ys = Vector::from(xs.to_vec().into_iter().rev().collect::<Vec<_>>());
            check_ok(sweeps::SOURCE, "sweeps", &[arg(steps * 2), arg(&xs), arg(&ys)], sweeps(steps * 2, &xs, &ys), EXACT);
            check_ok(sweeps_shared::SOURCE, "sweeps_shared", &[arg(steps), arg(&a)], sweeps_shared(steps, &a), EXACT);
            check_ok(fields::SOURCE, "fields", &[arg(steps), arg(&a)], fields(steps, &a), EXACT);
            let flat = Vector::from(wide.to_vec());
            check_ok(prefixes::SOURCE, "prefixes", &[arg(&flat), arg(k), arg(steps)], prefixes(&flat, k, steps), EXACT);
            let past = kx > flat.len();
            check_fails_if(prefix_past::SOURCE, "prefix_past", &[arg(&flat), arg(kx)], prefix_past(&flat, kx), EXACT, past, ErrorKind::IndexOutOfBounds).ok();
            check_ok(row_prefixes::SOURCE, "row_prefixes", &[arg(&wide), arg(lo), arg(k)], row_prefixes(&wide, lo, k), EXACT);
        }
    }

    /// Sizes past the parallel chunk size, and loops long enough to reuse
    /// every state buffer several times.
    #[test]
    fn guarded_reads_large() {
        let n = 150;
        let sq = Matrix::from_fn([n, n], |[i, j]| {
            (hash(i * n + j) % 100) as f32 / 10.0 + (i == j) as u8 as f32 * 500.0
        });
        // A GPU may round `sum -= a * b` once (a fused multiply-add).
        check_ok(
            lud::SOURCE,
            "lud",
            &[arg(&sq)],
            lud(&sq),
            float_tol(false, F32_TOL),
        );
        for n in BIG {
            let xs = Vector::from((0..n).map(|i| (hash(i) % 1000) as f32).collect::<Vec<_>>());
            for k in [0, 1, n / 2, n, n + 7] {
                let past = n >= 2 && k > n;
                check_fails_if(
                    diff1::SOURCE,
                    "diff1",
                    &[arg(&xs), arg(k)],
                    diff1(&xs, k),
                    EXACT,
                    past,
                    ErrorKind::IndexOutOfBounds,
                )
                .ok();
            }
        }
        for n in BIG {
            let xs = Vector::from((0..n).map(|i| (hash(i) % 1000) as f32).collect::<Vec<_>>());
            let ys = Vector::from((0..n).map(|i| (hash(i + n) % 1000) as f32).collect::<Vec<_>>());
            check_ok(
                sweeps::SOURCE,
                "sweeps",
                &[arg(5usize), arg(&xs), arg(&ys)],
                sweeps(5, &xs, &ys),
                EXACT,
            );
        }
        for (r, c) in [(3, 40_000), (300, 301), (1, 70_000)] {
            let f = Matrix::from_fn([r, c], |[i, j]| (hash(i * c + j) % 100) as f32);
            let a = Matrix::from_fn([r, c], |[i, j]| (hash(i * c + j) % 100) as i32);
            check_ok(
                sweeps_shared::SOURCE,
                "sweeps_shared",
                &[arg(4usize), arg(&a)],
                sweeps_shared(4, &a),
                EXACT,
            );
            check_ok(
                fields::SOURCE,
                "fields",
                &[arg(5usize), arg(&a)],
                fields(5, &a),
                EXACT,
            );
            check_ok(
                relax::SOURCE,
                "relax",
                &[arg(7usize), arg(&f)],
                relax(7, &f),
                EXACT,
            );
            let a = Matrix::from_fn([r, c], |[i, j]| (hash(i * c + j) % 100) as i32);
            check_ok(
                cross::SOURCE,
                "cross",
                &[arg(&a), arg(1usize), arg(c)],
                cross(&a, 1, c),
                EXACT,
            );
            check_ok(chain::SOURCE, "chain", &[arg(&f)], chain(&f), EXACT);
            check_ok(
                shift_row::SOURCE,
                "shift_row",
                &[arg(&a), arg(5usize)],
                shift_row(&a, 5),
                EXACT,
            );
            let wide = Matrix::from_vec(a.shape(), a.to_vec().iter().map(|&x| x as i64).collect()).unwrap();
            check_ok(
                band::SOURCE,
                "band",
                &[arg(&wide), arg(3usize), arg(c - 2), arg(3usize)],
                band(&wide, 3, c - 2, 3),
                EXACT,
            );
            for k in [0, 1, c / 3, c - 1, c] {
                check_ok(slice::SOURCE, "slice", &[arg(&a), arg(k)], slice(&a, k), EXACT);
            }
            let flat = Vector::from(wide.to_vec());
            for k in [0, 1, r * c / 2, r * c, r * c + 1] {
                check_ok(
                    prefixes::SOURCE,
                    "prefixes",
                    &[arg(&flat), arg(k), arg(3usize)],
                    prefixes(&flat, k, 3),
                    EXACT,
                );
                let past = k > r * c;
                check_fails_if(
                    prefix_past::SOURCE,
                    "prefix_past",
                    &[arg(&flat), arg(k)],
                    prefix_past(&flat, k),
                    EXACT,
                    past,
                    ErrorKind::IndexOutOfBounds,
                )
                .ok();
            }
            for (k, j) in [(0, c), (r / 2, c / 2), (r + 1, c + 1)] {
                check_ok(
                    row_prefixes::SOURCE,
                    "row_prefixes",
                    &[arg(&wide), arg(k), arg(j)],
                    row_prefixes(&wide, k, j),
                    EXACT,
                );
            }
        }
    }
}

/// Folds whose reads are contiguous across neighbouring rows (a matrix
/// product's `b[[l, j]]`) run with their loops interchanged on the CPU, a tile
/// of columns and a few outer rows at a time. Every result must still combine
/// its elements in index order, and reads past an array must still fail.
mod interchanged {
    use super::*;

    #[acc]
    fn matmul(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> {
        let [n, k] = a.shape();
        let m = b.shape()[1];
        generate([n, m, k], |[i, j, l]| a[[i, l]] * b[[l, j]]).sum()
    }

    // `fold1` with "the last element not a multiple of 7": associative but
    // not commutative, so any element combined out of order shows. A map
    // after the fold is fused into it.
    #[acc]
    fn differences(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> {
        let [n, k] = a.shape();
        let m = b.shape()[1];
        generate([n, m, k], |[i, j, l]| a[[i, l]] - 3 * b[[l, j]])
            .fold1(|x, y| if y % 7 == 0 { x } else { y })
            .map(|x| x * 2 + 1)
    }

    // Rank 4 (PolyBench's doitgen): the outer rows span two axes.
    #[acc]
    fn doitgen(a: &Array<i64, 3>, c4: &Matrix<i64>) -> Array<i64, 3> {
        let [nr, nq, np] = a.shape();
        generate([nr, nq, np, np], |[r, q, p, s]| a[[r, q, s]] * c4[[s, p]]).sum()
    }

    // Floats, a branch on the indices (PolyBench's symm) and a seed.
    #[acc]
    fn symm(a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> {
        let [m, n] = b.shape();
        generate([m, n, m], |[i, j, k]| {
            let aik = if k <= i { a[[i, k]] } else { a[[k, i]] };
            aik * b[[k, j]]
        })
        .fold(0.5, |x, y| x + y)
    }

    // Rank 2 (PolyBench's atax): one outer row, the columns in tiles.
    #[acc]
    fn transposed_matvec(a: &Matrix<i32>, x: &Vector<i32>) -> Vector<i32> {
        let [n, m] = a.shape();
        generate([m, n], |[j, i]| a[[i, j]] * x[[i]]).sum()
    }

    // The library's `matmul`, at every pair of ranks.
    #[acc]
    fn matmul_op(
        a: &Matrix<i64>,
        b: &Matrix<i64>,
        v: &Vector<i64>,
    ) -> (Matrix<i64>, Vector<i64>, Vector<i64>) {
        (a.matmul(b), a.matmul(v), v.matmul(b))
    }

    #[acc]
    fn dot_op(u: &Vector<f32>, v: &Vector<f32>) -> Scalar<f32> {
        u.matmul(v)
    }

    fn check_matmul(a: &Matrix<i64>, b: &Matrix<i64>, v: &Vector<i64>) {
        let ([_, k], [kb, _], n) = (a.shape(), b.shape(), v.len());
        let differ = k != kb || k != n;
        check_fails_if(
            matmul_op::SOURCE,
            "matmul_op",
            &[arg(a), arg(b), arg(v)],
            matmul_op(a, b, v),
            EXACT,
            differ,
            ErrorKind::InvalidArgument,
        )
        .ok();
        let (u, w) = (
            Vector::from_fn([n], |[i]| v.to_vec()[i] as f32 / 7.0),
            Vector::from_fn([k], |[i]| i as f32 - 2.5),
        );
        check_fails_if(
            dot_op::SOURCE,
            "dot_op",
            &[arg(&u), arg(&w)],
            dot_op(&u, &w),
            sum_tol(F32_TOL, 1e3 * (1 + n) as f64),
            n != k,
            ErrorKind::InvalidArgument,
        )
        .ok();
    }

    fn product_fails(a: &Matrix<i32>, b: &Matrix<i32>) -> bool {
        let ([n, k], [kb, m]) = (a.shape(), b.shape());
        n > 0 && m > 0 && k > kb
    }

    fn check_all(
        a: &Matrix<i32>,
        b: &Matrix<i32>,
        c: &Array<i64, 3>,
        c4: &Matrix<i64>,
        f: &Matrix<f32>,
        g: &Matrix<f32>,
    ) {
        let fails = product_fails(a, b);
        check_fails_if(
            matmul::SOURCE,
            "matmul",
            &[arg(a), arg(b)],
            matmul(a, b),
            EXACT,
            fails,
            ErrorKind::IndexOutOfBounds,
        )
        .ok();
        let ([n, k], m) = (a.shape(), b.shape()[1]);
        let x = Vector::from_fn([b.shape()[0]], |[i]| b.to_vec().get(i).copied().unwrap_or(3));
        let short = n > 0 && k > 0 && x.len() < n;
        check_fails_if(
            transposed_matvec::SOURCE,
            "transposed_matvec",
            &[arg(a), arg(&x)],
            transposed_matvec(a, &x),
            EXACT,
            short,
            ErrorKind::IndexOutOfBounds,
        )
        .ok();
        let empty = n > 0 && m > 0 && k == 0;
        let kind = if empty {
            ErrorKind::EmptyReduction
        } else {
            ErrorKind::IndexOutOfBounds
        };
        check_fails_if(
            differences::SOURCE,
            "differences",
            &[arg(a), arg(b)],
            differences(a, b),
            EXACT,
            fails || empty,
            kind,
        )
        .ok();
        let [nr, nq, np] = c.shape();
        let c4_fails = nr * nq * np > 0 && (c4.shape()[0] < np || c4.shape()[1] < np);
        check_fails_if(
            doitgen::SOURCE,
            "doitgen",
            &[arg(c), arg(c4)],
            doitgen(c, c4),
            EXACT,
            c4_fails,
            ErrorKind::IndexOutOfBounds,
        )
        .ok();
        let ([fm, fk], [gm, gn]) = (f.shape(), g.shape());
        let symm_fails = gm > 0 && gn > 0 && (fm < gm || fk < gm);
        let mag = 1.0 + gm as f64 * 1e6;
        check_fails_if(
            symm::SOURCE,
            "symm",
            &[arg(f), arg(g)],
            symm(f, g),
            sum_tol(F32_TOL, mag),
            symm_fails,
            ErrorKind::IndexOutOfBounds,
        )
        .ok();
    }

    proptest! {
        #![proptest_config(cfg())]

        #[test]
        fn interchanged_folds(a in matrix(-1000i32..1000, 11, 9), b in matrix(-1000i32..1000, 9, 13),
                              c in array3(-1000i64..1000, 5, 4, 7), c4 in matrix(-1000i64..1000, 8, 8),
                              f in matrix(small_f32(), 9, 9), g in matrix(small_f32(), 9, 12), k in 0usize..10) {
            check_all(&a, &b, &c, &c4, &f, &g);
            let wide = |m: &Matrix<i32>| Matrix::from_vec(m.shape(), m.to_vec().iter().map(|&x| x as i64).collect()).unwrap();
            let v = Vector::from_fn([k], |[i]| i as i64 * 3 - 7);
            check_matmul(&wide(&a), &wide(&b), &v);
        }
    }

    /// Past a tile of columns (64), with a remainder of outer rows (4 at a
    /// time), and long enough folds to run in parallel.
    #[test]
    fn interchanged_folds_large() {
        let int = |r: usize, c: usize, s: usize| {
            Matrix::from_fn([r, c], |[i, j]| (hash(s + i * c + j) % 2001) as i32 - 1000)
        };
        let (a, b) = (int(67, 150, 1), int(150, 131, 2));
        let c = Array::<i64, 3>::from_fn([3, 5, 70], |[i, j, k]| {
            (hash(i * 350 + j * 70 + k) % 200) as i64 - 100
        });
        let c4 = Matrix::from_fn([70, 70], |[i, j]| (hash(9 + i * 70 + j) % 200) as i64 - 100);
        let fl = |r: usize, c: usize, s: usize| {
            Matrix::from_fn([r, c], |[i, j]| (hash(s + i * c + j) % 1000) as f32 / 100.0 - 5.0)
        };
        let (f, g) = (fl(131, 131, 3), fl(131, 66, 4));
        check_all(&a, &b, &c, &c4, &f, &g);
        // The inner extent too short for the product: every executor fails.
        check_all(
            &int(9, 151, 5),
            &b,
            &c,
            &Matrix::from_fn([69, 70], |_| 1),
            &f,
            &fl(132, 70, 6),
        );
        let wide = |r: usize, c: usize, s: usize| {
            Matrix::from_fn([r, c], |[i, j]| (hash(s + i * c + j) % 2001) as i64 - 1000)
        };
        let v = Vector::from_fn([150], |[i]| i as i64 - 75);
        check_matmul(&wide(67, 150, 7), &wide(150, 131, 8), &v);
        check_matmul(&wide(67, 150, 7), &wide(151, 131, 8), &v);
    }
}

// Permutes that move whole rows (k-means' sums of the points of each
// centre): the CPU finds each source row's target once and adds the row
// along; index functions that only look like it take the element path.
mod row_permutes {
    use super::*;

    // Each point's features added to its centre's row.
    #[acc]
    fn centre_sums(feats: &Matrix<i64>, member: &Vector<usize>, k: usize) -> Matrix<i64> {
        let [_, f] = feats.shape();
        feats.permute(
            &fill([k, f], 0i64),
            |[i, j]| Some([member[[i]] % k, j]),
            |new, old| new + old,
        )
    }

    // Rows dropped by a test of the row, a maximum, and a target of rank 3.
    #[acc]
    fn row_max3(m: &Matrix<i32>, k: usize) -> Array<i32, 3> {
        let [_, c] = m.shape();
        m.permute(
            &fill([2, k, c], -7i32),
            |[i, j]| {
                if m[[i, 0]] % 3 == 0 {
                    None
                } else {
                    Some([i % 2, (i / 2) % k, j])
                }
            },
            |new, old| new.max(old),
        )
    }

    // Not rows: the row's target depends on `j` (a reversal of the row, and
    // a choice by `j`).
    #[acc]
    fn not_rows(m: &Matrix<i64>) -> (Matrix<i64>, Matrix<i64>) {
        let [r, c] = m.shape();
        let rev = m.permute(
            &fill([r, c], 0i64),
            |[i, j]| Some([i / 2, c - 1 - j]),
            |new, old| new + old,
        );
        let odd = m.permute(
            &fill([r, c], 0i64),
            |[i, j]| if j % 2 == 1 { Some([i / 2, j]) } else { None },
            |new, old| new + old,
        );
        (rev, odd)
    }

    // The target's rows shorter than the source's: elements past their end
    // are reported.
    #[acc]
    fn narrow(m: &Matrix<i64>, w: usize) -> Matrix<i64> {
        let [r, _] = m.shape();
        m.permute(&fill([r, w], 0i64), |[i, j]| Some([i, j]), |new, old| new + old)
    }

    proptest! {
        #![proptest_config(cfg())]

        #[test]
        fn row_permutes(m in matrix(-1000i64..1000, 12, 12), k in 1usize..5, w in 0usize..14) {
            let [r, c] = m.shape();
            let member = Vector::from((0..r).map(|i| (i * 7 + 3) % 5).collect::<Vec<usize>>());
            check_ok(centre_sums::SOURCE, "centre_sums", &[arg(&m), arg(&member), arg(k)], centre_sums(&m, &member, k), EXACT);
            let mi = Matrix::from_vec(m.shape(), m.to_vec().iter().map(|&x| x as i32).collect()).unwrap();
            // Column 0 is read for every row that has elements (none without columns).
            check_ok(row_max3::SOURCE, "row_max3", &[arg(&mi), arg(k)], row_max3(&mi, k), EXACT);
            check_ok(not_rows::SOURCE, "not_rows", &[arg(&m)], not_rows(&m), EXACT);
            let past = r > 0 && w < c;
            check_fails_if(narrow::SOURCE, "narrow", &[arg(&m), arg(w)], narrow(&m, w), EXACT, past, ErrorKind::IndexOutOfBounds).ok();
        }
    }

    /// Past the parallel sizes: private tables per part of the rows, and the
    /// element path when the tables would be as large as the sources.
    #[test]
    fn row_permutes_large() {
        for (r, c, k) in [(40_000, 34, 5), (3000, 7, 2500), (50, 3000, 3)] {
            let m = Matrix::from_fn([r, c], |[i, j]| (hash(i * c + j) % 200) as i64 - 100);
            let member = Vector::from((0..r).map(|i| hash(i) as usize % k).collect::<Vec<usize>>());
            check_ok(
                centre_sums::SOURCE,
                "centre_sums",
                &[arg(&m), arg(&member), arg(k)],
                centre_sums(&m, &member, k),
                EXACT,
            );
        }
    }
}
