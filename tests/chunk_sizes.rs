//! Sizes across the CPU skeletons' parallel split: folds, scans (both
//! directions, segmented too), permutes with a combining function and
//! stencils at the chunk size `MIN_CHUNK` (16,384, in
//! crates/accel-runtime/src/cpu/mod.rs) minus one, exactly, plus one, twice
//! plus one and above twice, each run in the global pool and in pools of 1, 3
//! and 8 threads (the skeletons size their chunks from the pool), against the
//! interpreter. The property tests draw a few hundred elements at most, so
//! they never reach a second chunk.
//!
//! Integers are compared exactly; the operators that are not commutative
//! (affine maps, `(m1, c1) . (m2, c2) = (m1 m2, c1 m2 + c2)` with odd `m` so
//! that products never vanish) find a chunk combined out of order, one
//! dropped or one counted twice. One float sum is compared within a tolerance
//! relative to the sum of the absolute values of its terms.
//!
//! Not in the PTX simulator's list (README, .ci/run): the simulator
//! interprets every GPU thread and these sizes are too slow there; the GPU
//! skeletons' own sizes are in tests/gpu_skeletons.rs.

mod common;

use accel::prelude::*;
use accel::ErrorKind;
use common::*;

/// `MIN_CHUNK` of the CPU skeletons.
const CHUNK: usize = 1 << 14;

/// Sizes across the chunk boundaries.
const SIZES: [usize; 5] = [CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1, 3 * CHUNK + 5];

type Affine = (u32, u32);

fn affines(n: usize, seed: usize) -> Vector<Affine> {
    (0..n)
        .map(|i| {
            (
                hash(i * 3 + seed) as u32 | 1,
                (hash(i * 5 + seed + 1) >> 32) as u32,
            )
        })
        .collect()
}

fn ints(n: usize, seed: usize) -> Vector<i64> {
    (0..n)
        .map(|i| (hash(i + seed) % 2_000_001) as i64 - 1_000_000)
        .collect()
}

/// Segment lengths adding up to `n`: empty, short and long segments, some
/// crossing the chunk boundaries.
fn segments(n: usize, seed: usize) -> Vector<u32> {
    let mut lens = Vec::new();
    let mut left = n;
    let mut i = 0;
    while left > 0 {
        let want = match hash(i + seed) % 6 {
            0 => 0,
            1 => 1,
            2 => 7,
            3 => 300,
            4 => CHUNK - 2,
            _ => CHUNK + 3,
        };
        let len = want.min(left);
        lens.push(len as u32);
        left -= len;
        i += 1;
    }
    lens.push(0);
    Vector::from(lens)
}

#[acc]
fn sum_i64(xs: &Vector<i64>) -> Scalar<i64> {
    xs.fold(0, |a, b| a + b)
}

#[acc]
fn affine_fold(xs: &Vector<(u32, u32)>) -> Scalar<(u32, u32)> {
    xs.fold((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2))
}

#[acc]
fn affine_fold1(xs: &Vector<(u32, u32)>) -> Scalar<(u32, u32)> {
    xs.fold1(|(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2))
}

/// Rows folded: few long rows are split between tasks.
#[acc]
fn affine_rows(m: &Matrix<(u32, u32)>) -> Vector<(u32, u32)> {
    m.fold((3, 5), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2))
}

#[acc]
fn max_i64(xs: &Vector<i64>) -> Scalar<i64> {
    xs.maximum()
}

#[acc]
fn sum_f32(xs: &Vector<f32>) -> Scalar<f32> {
    xs.sum()
}

#[acc]
fn scans_left(
    xs: &Vector<(u32, u32)>,
) -> (
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Scalar<(u32, u32)>,
) {
    let (pre, total) = xs.scanl_total((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2));
    (
        xs.scanl((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
        xs.scanl1(|(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
        pre,
        total,
    )
}

#[acc]
fn scans_right(
    xs: &Vector<(u32, u32)>,
) -> (
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Scalar<(u32, u32)>,
) {
    let (pre, total) = xs.scanr_total((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2));
    (
        xs.scanr((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
        xs.scanr1(|(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
        pre,
        total,
    )
}

#[acc]
fn scans_i64(xs: &Vector<i64>) -> (Vector<i64>, Vector<i64>) {
    (xs.postscanl(7, |a, b| a + b), xs.prescanr(-3, |a, b| a + b))
}

#[acc]
fn seg_scans(
    xs: &Vector<(u32, u32)>,
    lens: &Vector<u32>,
) -> (
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
    Vector<(u32, u32)>,
) {
    (
        xs.scanl_seg(lens, (1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
        xs.scanr_seg(lens, (1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
        xs.scanl1_seg(lens, |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
        xs.scanr1_seg(lens, |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
    )
}

#[acc]
fn seg_folds(xs: &Vector<i64>, lens: &Vector<u32>) -> (Vector<i64>, Vector<i64>) {
    let (_, totals) = xs.scanl_seg_total(lens, 0, |a, b| a + b);
    (xs.fold_seg(lens, 0, |a, b| a * 3 + b), totals)
}

/// Every element to one of `bins` targets (some to none), combined with `+`.
#[acc]
fn histogram(xs: &Vector<i64>, defaults: &Vector<i64>, bins: usize) -> Vector<i64> {
    xs.permute(
        defaults,
        |[i]| {
            if xs[[i]] % 11 == 0 {
                None
            } else {
                Some([xs[[i]].rem_euclid(bins as i64) as usize])
            }
        },
        |a, b| a + b,
    )
}

/// A histogram of pairs: the combining function is not one of the
/// primitive operations, so it runs through the generic permute (private
/// tables for few bins, buckets by target range for many).
#[acc]
fn histogram_pairs(xs: &Vector<i64>, defaults: &Vector<(i64, i64)>, bins: usize) -> Vector<(i64, i64)> {
    xs.map(|x| (x, x.rem_euclid(1000))).permute(
        defaults,
        |[i]| Some([xs[[i]].rem_euclid(bins as i64) as usize]),
        |a, b| (a.0 + b.0, a.1.max(b.1)),
    )
}

/// Each element to its own target, reversed, combined with `+` (no two meet).
#[acc]
fn permute_reverse(xs: &Vector<i64>, defaults: &Vector<i64>) -> Vector<i64> {
    let n = xs.len();
    xs.permute(defaults, |[i]| Some([n - 1 - i]), |a, b| a + b)
}

/// Rows of a matrix to rows of a smaller one, combined with `+`.
#[acc]
fn permute_rows(m: &Matrix<i64>, defaults: &Matrix<i64>) -> Matrix<i64> {
    m.permute(defaults, |[i, j]| Some([i % 2, j]), |a, b| a + b)
}

/// An index past the end: `IndexOutOfBounds` at the last element only.
#[acc]
fn permute_last_out(xs: &Vector<i64>, defaults: &Vector<i64>) -> Vector<i64> {
    xs.permute(defaults, |[i]| Some([i]), |a, b| a + b)
}

/// The pairs `j > i` of a triangle into `bins` targets, combined with `+`:
/// walked row by row, each row from `i + 1` only, `x[[i]]` read once per
/// row (`permute_atomic_by_rows`).
#[acc]
fn pair_histogram(x: &Vector<i64>, bins: usize) -> Vector<i64> {
    let n = x.len();
    fill([n, n], 1i64).permute(
        &fill([bins], 0i64),
        |[i, j]| {
            if j > i {
                Some([(x[[i]] * 31 + x[[j]]).rem_euclid(bins as i64) as usize])
            } else {
                None
            }
        },
        |new, old| new + old,
    )
}

/// Bounds on both sides, written either way round, from a literal, another
/// component and a parameter, and a row value read past the end of `y`
/// (which fails only where a row's span is not empty); the minimum.
#[acc]
fn pair_minimum(x: &Vector<i64>, y: &Vector<i64>, m: usize) -> Vector<i64> {
    let n = x.len();
    generate([n, n], |[i, j]| x[[j]] - x[[i]]).permute(
        &fill([7], i64::MAX),
        |[i, j]| {
            if 2 <= j && j <= i && j < m {
                Some([(y[[i]] + x[[j]]).rem_euclid(7) as usize])
            } else {
                None
            }
        },
        |new, old| new.min(old),
    )
}

/// Rank 3, guarded by the last two components; and a guard after a `let`
/// that is not a component (no span: every position visited).
#[acc]
fn triples(x: &Vector<i64>, bins: usize) -> (Vector<i64>, Vector<i64>) {
    let n = x.len();
    let t = fill([3, n, n], 1i64).permute(
        &fill([bins], 0i64),
        |[k, i, j]| {
            if i < j {
                Some([(x[[i]] + x[[j]] * (k as i64 + 1)).rem_euclid(bins as i64) as usize])
            } else {
                None
            }
        },
        |new, old| new + old,
    );
    let u = fill([n, n], 1i64).permute(
        &fill([bins], 0i64),
        |[i, j]| {
            let s = x[[i]] + x[[j]];
            if s % 3 != 0 {
                Some([s.rem_euclid(bins as i64) as usize])
            } else {
                None
            }
        },
        |new, old| new + old,
    );
    (t, u)
}

/// Sums of rows read only under a guard (PolyBench's syr2k): the fold
/// computes only the rows the guard lets through. `tri_lower` reads the sums
/// where `j <= i`; `tri_band` in a band from a parameter, through `!` and
/// `||`; `tri_kept` updates the sums in place (the guard's rows keep them).
/// `tri_both` also returns the sums, and `tri_other` reads them in the other
/// branch too: every row is read.
#[acc]
fn tri_lower(a: &Matrix<i64>, c: &Matrix<i64>) -> Matrix<i64> {
    let [n, m] = a.shape();
    let s = generate([n, n, m], |[i, j, k]| a[[i, k]] * 3 + a[[j, k]]).sum();
    generate([n, n], |[i, j]| {
        if j <= i {
            2 * c[[i, j]] + s[[i, j]]
        } else {
            c[[i, j]]
        }
    })
}

#[acc]
fn tri_band(a: &Matrix<i64>, w: usize) -> Matrix<i64> {
    let [n, m] = a.shape();
    let s = generate([n, n, m], |[i, j, k]| a[[i, k]] - 5 * a[[j, k]]).sum();
    generate([n, n], |[i, j]| {
        let (r, q) = (i, j);
        let wide = r * 2;
        if !(q + w < r || r + w < q) && wide >= q {
            s[[i, j]] - 1
        } else {
            7
        }
    })
}

#[acc]
fn tri_kept(a: &Matrix<i64>) -> Matrix<i64> {
    let [n, m] = a.shape();
    let s = generate([n, n, m], |[i, j, k]| a[[i, k]] ^ a[[j, k]]).sum();
    generate([n, n], |[i, j]| if i < j { s[[i, j]] } else { -1 })
}

#[acc]
fn tri_both(a: &Matrix<i64>) -> (Matrix<i64>, Matrix<i64>) {
    let [n, m] = a.shape();
    let s = generate([n, n, m], |[i, j, k]| a[[i, k]] * a[[j, k]]).sum();
    (generate([n, n], |[i, j]| if j <= i { s[[i, j]] } else { 0 }), s)
}

#[acc]
fn tri_other(a: &Matrix<i64>) -> Matrix<i64> {
    let [n, m] = a.shape();
    let s = generate([n, n, m], |[i, j, k]| a[[i, k]] + a[[j, k]]).sum();
    generate([n, n], |[i, j]| if j <= i { s[[i, j]] } else { s[[j, i]] })
}

#[acc]
fn stencils_1d(xs: &Vector<i64>) -> (Vector<i64>, Vector<i64>, Vector<i64>, Vector<i64>) {
    (
        xs.stencil(Boundary::Clamp, |[a, b, c, d, e]| {
            a - 2 * b + 3 * c - 5 * d + 7 * e
        }),
        xs.stencil(Boundary::Mirror, |[a, b, c]| a * 3 + b - c),
        xs.stencil(Boundary::Wrap, |[a, _, c, _, e]| a - c * 2 + e * 5),
        xs.stencil(Boundary::Constant(-9), |[a, b, c]| a + b * 10 - c * 100),
    )
}

#[acc]
fn stencil_2d(m: &Matrix<i64>) -> (Matrix<i64>, Matrix<i64>) {
    (
        m.stencil(Boundary::Wrap, |[[a, b, c], [d, e, f], [g, h, i]]| {
            a - b + 2 * c - d + 3 * e - f + g + 4 * h - i
        }),
        m.stencil(Boundary::Constant(1), |[[_, n, _], [w, c, e], [_, s, _]]| {
            n * 2 + s * 3 - w * 5 + e * 7 - c
        }),
    )
}

/// A stencil fused into a fold (one kernel).
#[acc]
fn stencil_sum(xs: &Vector<i64>) -> Scalar<i64> {
    xs.stencil(Boundary::Mirror, |[a, b, c]| a - 2 * b + c * 3)
        .fold(0, |x, y| x + y)
}

#[test]
fn folds_across_chunks() {
    for n in SIZES {
        let xs = ints(n, 1);
        check_pools_ok(sum_i64::SOURCE, "sum_i64", &[arg(&xs)], || sum_i64(&xs), EXACT);
        check_pools_ok(max_i64::SOURCE, "max_i64", &[arg(&xs)], || max_i64(&xs), EXACT);
        let ps = affines(n, 2);
        check_pools_ok(
            affine_fold::SOURCE,
            "affine_fold",
            &[arg(&ps)],
            || affine_fold(&ps),
            EXACT,
        );
        check_pools_ok(
            affine_fold1::SOURCE,
            "affine_fold1",
            &[arg(&ps)],
            || affine_fold1(&ps),
            EXACT,
        );
        let m = Matrix::from_fn([2, n], |[i, j]| (hash(i * n + j) as u32 | 1, hash(j + 9) as u32));
        check_pools_ok(
            affine_rows::SOURCE,
            "affine_rows",
            &[arg(&m)],
            || affine_rows(&m),
            EXACT,
        );
        // Floats whose partial sums round: the parallel sum reorders them.
        let fs: Vector<f32> = (0..n)
            .map(|i| (hash(i + 3) % 20_001) as f32 / 997.0 - 10.0)
            .collect();
        let tol = sum_tol(F32_TOL, abs_sum(&fs.to_vec()));
        check_pools_ok(sum_f32::SOURCE, "sum_f32", &[arg(&fs)], || sum_f32(&fs), tol);
    }
}

#[test]
fn scans_across_chunks() {
    for n in SIZES {
        let ps = affines(n, 4);
        check_pools_ok(
            scans_left::SOURCE,
            "scans_left",
            &[arg(&ps)],
            || scans_left(&ps),
            EXACT,
        );
        check_pools_ok(
            scans_right::SOURCE,
            "scans_right",
            &[arg(&ps)],
            || scans_right(&ps),
            EXACT,
        );
        let xs = ints(n, 5);
        check_pools_ok(
            scans_i64::SOURCE,
            "scans_i64",
            &[arg(&xs)],
            || scans_i64(&xs),
            EXACT,
        );
    }
}

fn compose(a: (u32, u32), b: (u32, u32)) -> (u32, u32) {
    (a.0.wrapping_mul(b.0), a.1.wrapping_mul(b.0).wrapping_add(b.1))
}

type Pairs = Vec<(u32, u32)>;

/// Plain-Rust `seg_scans`.
fn seg_scans_ref(xs: &[(u32, u32)], lens: &[u32]) -> (Pairs, Pairs, Pairs, Pairs) {
    let (mut l, mut r, mut l1, mut r1) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut start = 0;
    for &len in lens {
        let seg = &xs[start..start + len as usize];
        start += len as usize;
        let mut acc = (1, 0);
        l.push(acc);
        for (k, &x) in seg.iter().enumerate() {
            acc = compose(acc, x);
            l.push(acc);
            l1.push(if k == 0 { x } else { acc });
        }
        let mut right = vec![(1, 0)];
        let mut right1 = Vec::new();
        let mut acc1: Option<(u32, u32)> = None;
        for &x in seg.iter().rev() {
            right.push(compose(x, *right.last().unwrap()));
            acc1 = Some(match acc1 {
                None => x,
                Some(a) => compose(x, a),
            });
            right1.push(acc1.unwrap());
        }
        r.extend(right.into_iter().rev());
        r1.extend(right1.into_iter().rev());
    }
    (l, r, l1, r1)
}

/// Plain-Rust `seg_folds`.
fn seg_folds_ref(xs: &[i64], lens: &[u32]) -> (Vec<i64>, Vec<i64>) {
    let mut start = 0;
    let (mut folds, mut totals) = (Vec::new(), Vec::new());
    for &len in lens {
        let seg = &xs[start..start + len as usize];
        start += len as usize;
        folds.push(seg.iter().fold(0i64, |a, &b| a.wrapping_mul(3).wrapping_add(b)));
        totals.push(seg.iter().fold(0i64, |a, &b| a.wrapping_add(b)));
    }
    (folds, totals)
}

/// The segmented operations: the interpreter evaluates them in time
/// quadratic in the length (minutes at these sizes), so they are compared
/// with plain Rust here, and with the interpreter at a small size.
#[test]
fn segmented_across_chunks() {
    for (k, n) in [300].into_iter().chain(SIZES).enumerate() {
        let ps = affines(n, 6);
        let xs = ints(n, 7);
        for lens in [
            segments(n, k),
            Vector::from(vec![n as u32]),
            Vector::from(vec![0, n as u32 - 1, 1]),
        ] {
            if n <= 300 {
                let args = [arg(&ps), arg(&lens)];
                check_pools_ok(
                    seg_scans::SOURCE,
                    "seg_scans",
                    &args,
                    || seg_scans(&ps, &lens),
                    EXACT,
                );
                let args = [arg(&xs), arg(&lens)];
                check_pools_ok(
                    seg_folds::SOURCE,
                    "seg_folds",
                    &args,
                    || seg_folds(&xs, &lens),
                    EXACT,
                );
            }
            let want = seg_scans_ref(&ps.to_vec(), &lens.to_vec());
            let want_folds = seg_folds_ref(&xs.to_vec(), &lens.to_vec());
            let run = || {
                let (a, b, c, d) = seg_scans(&ps, &lens).unwrap();
                assert_eq!(
                    (a.to_vec(), b.to_vec(), c.to_vec(), d.to_vec()),
                    want,
                    "seg_scans, n = {n}"
                );
                let (f, t) = seg_folds(&xs, &lens).unwrap();
                assert_eq!((f.to_vec(), t.to_vec()), want_folds, "seg_folds, n = {n}");
            };
            run();
            for pool in pools() {
                pool.install(run);
            }
        }
    }
}

#[test]
fn permutes_across_chunks() {
    for n in SIZES {
        let xs = ints(n, 8);
        // Few bins (private tables) and more bins than elements (buckets).
        for bins in [1usize, 7, n / 3, 3 * n] {
            let ds = ints(bins, 9);
            let args = [arg(&xs), arg(&ds), arg(bins)];
            check_pools_ok(
                histogram::SOURCE,
                "histogram",
                &args,
                || histogram(&xs, &ds, bins),
                EXACT,
            );
            let dp: Vector<(i64, i64)> = ds.to_vec().into_iter().map(|d| (d, d)).collect();
            let args = [arg(&xs), arg(&dp), arg(bins)];
            check_pools_ok(
                histogram_pairs::SOURCE,
                "histogram_pairs",
                &args,
                || histogram_pairs(&xs, &dp, bins),
                EXACT,
            );
        }
        let ds = ints(n, 10);
        let args = [arg(&xs), arg(&ds)];
        check_pools_ok(
            permute_reverse::SOURCE,
            "permute_reverse",
            &args,
            || permute_reverse(&xs, &ds),
            EXACT,
        );
        let m = Matrix::from_fn([5, n / 4], |[i, j]| (hash(i * n + j) % 1000) as i64);
        let dm = Matrix::from_fn([2, n / 4], |[i, j]| (i + j) as i64);
        let args = [arg(&m), arg(&dm)];
        check_pools_ok(
            permute_rows::SOURCE,
            "permute_rows",
            &args,
            || permute_rows(&m, &dm),
            EXACT,
        );
        let short = ints(n - 1, 11);
        let args = [arg(&xs), arg(&short)];
        check_pools_err(
            permute_last_out::SOURCE,
            "permute_last_out",
            &args,
            || permute_last_out(&xs, &short),
            ErrorKind::IndexOutOfBounds,
        );
    }
}

/// Triangles of pairs whose rows straddle the chunk size (`n * n` from
/// below one chunk to above three), into few targets (private tables) and
/// more than the pairs (buckets).
#[test]
fn pairs_across_chunks() {
    for n in [0usize, 1, 2, 3, 127, 128, 129, 300] {
        let x = ints(n, 12);
        for bins in [1usize, 5, 4 * n * n + 1] {
            let args = [arg(&x), arg(bins)];
            check_pools_ok(
                pair_histogram::SOURCE,
                "pair_histogram",
                &args,
                || pair_histogram(&x, bins),
                EXACT,
            );
            check_pools_ok(triples::SOURCE, "triples", &args, || triples(&x, bins), EXACT);
        }
        // `y` long enough, or short, so that the last rows read past it
        // where their spans are not empty (`m > 2`, rows from 2 on), and
        // not at all where every span is empty (`m = 2`).
        for (short, m) in [(0, n), (1, n / 2), (2, n), (2, 2)] {
            let y = ints(n.saturating_sub(short), 13);
            let args = [arg(&x), arg(&y), arg(m)];
            let fails = short > 0 && n >= 3 && m > 2;
            let run = || pair_minimum(&x, &y, m);
            if fails {
                check_pools_err(
                    pair_minimum::SOURCE,
                    "pair_minimum",
                    &args,
                    run,
                    ErrorKind::IndexOutOfBounds,
                );
            } else {
                check_pools_ok(pair_minimum::SOURCE, "pair_minimum", &args, run, EXACT);
            }
        }
    }
}

/// The sums of a triangle, with rows from none to past the chunk (`n * n`
/// rows of `m`), and few rows of many elements (each row split between
/// tasks).
#[test]
fn triangle_folds_across_chunks() {
    for (plan, demand) in [
        (tri_lower::explain(), true),
        (tri_band::explain(), true),
        (tri_kept::explain(), true),
        (tri_both::explain(), false),
        (tri_other::explain(), false),
    ] {
        assert_eq!(
            plan.contains("folds only the rows its reader reads"),
            demand,
            "{plan}"
        );
    }
    for (n, m) in [(0, 3), (1, 1), (3, 0), (5, 7), (130, 2), (2, 3 * CHUNK + 5)] {
        let a = Matrix::from_fn([n, m], |[i, k]| (hash(i * m + k) % 1000) as i64 - 500);
        let c = Matrix::from_fn([n, n], |[i, j]| (hash(i * n + j + 77) % 100) as i64);
        let args = [arg(&a), arg(&c)];
        check_pools_ok(tri_lower::SOURCE, "tri_lower", &args, || tri_lower(&a, &c), EXACT);
        for w in [0usize, 2] {
            let args = [arg(&a), arg(w)];
            check_pools_ok(tri_band::SOURCE, "tri_band", &args, || tri_band(&a, w), EXACT);
        }
        let args = [arg(&a)];
        check_pools_ok(tri_kept::SOURCE, "tri_kept", &args, || tri_kept(&a), EXACT);
        check_pools_ok(tri_both::SOURCE, "tri_both", &args, || tri_both(&a), EXACT);
        check_pools_ok(tri_other::SOURCE, "tri_other", &args, || tri_other(&a), EXACT);
    }
}

#[test]
fn stencils_across_chunks() {
    for n in SIZES {
        let xs = ints(n, 12);
        check_pools_ok(
            stencils_1d::SOURCE,
            "stencils_1d",
            &[arg(&xs)],
            || stencils_1d(&xs),
            EXACT,
        );
        check_pools_ok(
            stencil_sum::SOURCE,
            "stencil_sum",
            &[arg(&xs)],
            || stencil_sum(&xs),
            EXACT,
        );
        for rows in [1usize, 3] {
            let m = Matrix::from_fn([rows, n], |[i, j]| (hash(i * n + j + 13) % 1000) as i64 - 500);
            check_pools_ok(
                stencil_2d::SOURCE,
                "stencil_2d",
                &[arg(&m)],
                || stencil_2d(&m),
                EXACT,
            );
        }
    }
}
