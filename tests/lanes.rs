//! Element functions that run `while` loops, which the CPU back end runs in
//! lockstep over groups of four neighbouring elements (`generate_lanes`): each
//! program is compared with the interpreter on random inputs of every length
//! (the groups' leftover elements too), in pools of 1, 3 and 8 threads, and
//! with a plain Rust reference. The branch cases check that a lane runs only
//! what the scalar code would: a loop that never ends, or a read out of
//! bounds, in a lane that takes the other branch.
//!
//! Loops whose trips are the same along a row run once for groups of eight
//! neighbouring elements of a row (`generate_row_lanes`): the `row_lanes`
//! cases, with rows of every length and reads out of bounds in some lanes.

mod common;

use accel::prelude::*;
use common::*;
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(32),
        max_shrink_iters: 100,
        ..ProptestConfig::default()
    }
}

fn escape_ref(w: usize, h: usize, limit: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for i in 0..h {
        for j in 0..w {
            let cr = -2.0f32 + j as f32 * (3.0 / w as f32);
            let ci = -1.0f32 + i as f32 * (2.0 / h as f32);
            let (mut zr, mut zi, mut k) = (0.0f32, 0.0f32, 0u32);
            while k < limit && zr * zr + zi * zi <= 4.0 {
                let t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                k += 1;
            }
            out.push(k);
        }
    }
    out
}

/// Newton's square root per element of an input (read outside the loop),
/// with a tuple result and an `||` in the condition.
#[acc]
fn newton(xs: &Vector<f64>) -> Vector<(f64, u32)> {
    xs.map(|x| {
        let a = x.abs() + 1.0;
        let mut y = a;
        let mut n = 0u32;
        let mut moved = true;
        while moved || n < 2 {
            let next = 0.5 * (y + a / y);
            moved = (next - y).abs() > 1e-12 * a && n < 100;
            y = next;
            n += 1;
        }
        (y, n)
    })
}

fn newton_ref(x: f64) -> (f64, u32) {
    let a = x.abs() + 1.0;
    let (mut y, mut n, mut moved) = (a, 0u32, true);
    while moved || n < 2 {
        let next = 0.5 * (y + a / y);
        moved = (next - y).abs() > 1e-12 * a && n < 100;
        y = next;
        n += 1;
    }
    (y, n)
}

/// Loops only in one branch; the loop never ends for odd `x`, so a lane with
/// an odd `x` must not enter it. The other branch reads `ys` at an index that
/// is inside only where that branch is taken.
#[acc]
fn branches(xs: &Vector<u32>, ys: &Vector<u32>) -> Vector<u32> {
    let m = ys.len();
    generate(xs.shape(), |[i]| {
        let x = xs[[i]] % 1000;
        if x % 2 == 0 {
            let mut k = 0u32;
            let mut steps = 0u32;
            while k != x {
                k += 2;
                steps += 1;
            }
            steps
        } else if i < m {
            let mut acc = ys[[i]] % 50;
            let mut s = 0u32;
            while acc > 0 {
                s += acc;
                acc -= 1;
            }
            s
        } else {
            7
        }
    })
}

fn branches_ref(xs: &[u32], ys: &[u32]) -> Vec<u32> {
    xs.iter()
        .enumerate()
        .map(|(i, x)| {
            let x = x % 1000;
            if x % 2 == 0 {
                x / 2
            } else if i < ys.len() {
                let a = ys[i] % 50;
                a * (a + 1) / 2
            } else {
                7
            }
        })
        .collect()
}

/// A loop in a loop's step, whose trip count depends on the outer state, and a
/// loop in a `let` after it.
#[acc]
fn nested(xs: &Vector<i32>) -> Vector<i64> {
    xs.map(|x| {
        let n = (x % 20).abs();
        let mut i = 0i32;
        let mut total = 0i64;
        while i < n {
            let mut j = 0i32;
            while j < i {
                total += (i * j) as i64;
                j += 1;
            }
            i += 1;
        }
        let mut back = n;
        while back > 0 {
            total -= 1;
            back -= 3;
        }
        total
    })
}

fn nested_ref(x: i32) -> i64 {
    let n = (x % 20).abs();
    let mut total = 0i64;
    for i in 0..n {
        for j in 0..i {
            total += (i * j) as i64;
        }
    }
    let mut back = n;
    while back > 0 {
        total -= 1;
        back -= 3;
    }
    total
}

/// A loop whose condition and step read memory stays a scalar loop per
/// element; it is here for the comparison with the lane programs.
#[acc]
fn reading(xs: &Vector<u32>) -> Vector<u32> {
    let n = xs.len();
    xs.map(|x| {
        let mut i = 0usize;
        let mut s = 0u32;
        while i < n && i < (x % 8) as usize {
            s += xs[[i]];
            i += 1;
        }
        s
    })
}

/// PolyBench's trmm: a loop whose trips depend on the row alone
/// (`generate_row_lanes`), reading `a` down a column; `a` may be too small
/// for the loop, an error in some lanes only.
#[acc]
fn tri(alpha: f32, a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> {
    let [m, n] = b.shape();
    generate([m, n], |[i, j]| {
        let mut s = b[[i, j]];
        for k in i + 1..m {
            s += a[[k, i]] * b[[k, j]];
        }
        alpha * s
    })
}

fn tri_ref(alpha: f32, a: &Matrix<f32>, b: &Matrix<f32>) -> Vec<f32> {
    let ([m, n], [_, am]) = (b.shape(), a.shape());
    let (a, b) = (a.to_vec(), b.to_vec());
    let mut out = Vec::new();
    for i in 0..m {
        for j in 0..n {
            let mut s = b[i * n + j];
            for k in i + 1..m {
                s += a[k * am + i] * b[k * n + j];
            }
            out.push(alpha * s);
        }
    }
    out
}

/// Rank 3: loop state the same along a row (`f`, read from `xs`, which may
/// be too short) beside state that varies (`v`), the fixed part feeding the
/// varying one.
#[acc]
fn mixed(t: usize, xs: &Vector<i64>, m: &Matrix<i64>) -> Array<i64, 3> {
    let [r, c] = m.shape();
    generate([2, r, c], |[p, i, j]| {
        let mut k = 0usize;
        let mut f = p as i64;
        let mut v = m[[i, j]];
        while k < t {
            f = f * 2 + xs[[k]];
            v = v * 2 + f - m[[i, (j + k) % c]];
            k += 1;
        }
        v + f
    })
}

fn mixed_ref(t: usize, xs: &[i64], m: &Matrix<i64>) -> Vec<i64> {
    let [r, c] = m.shape();
    let m = m.to_vec();
    let mut out = Vec::new();
    for p in 0..2 {
        for i in 0..r {
            for j in 0..c {
                let (mut f, mut v) = (p as i64, m[i * c + j]);
                for k in 0..t {
                    f = f * 2 + xs[k];
                    v = v * 2 + f - m[i * c + (j + k) % c];
                }
                out.push(v + f);
            }
        }
    }
    out
}

/// A circular convolution: rank 1, the loop over the weights, `w[[t]]` the
/// same in every lane.
#[acc]
fn conv(w: &Vector<f32>, xs: &Vector<f32>) -> Vector<f32> {
    let (n, k) = (xs.len(), w.len());
    generate([n], |[j]| {
        let mut s = 0.0f32;
        for t in 0..k {
            s += w[[t]] * xs[[(j + t) % n]];
        }
        s
    })
}

/// A loop inside an operation (`+`): its operands run in lanes, then the
/// operation.
#[acc]
fn inside(m: &Matrix<i32>) -> Matrix<i32> {
    let [r, c] = m.shape();
    generate([r, c], |[i, j]| {
        m[[i, j]] * 3 + {
            let mut s = 0i32;
            for k in 0..r {
                s += m[[k, j]] - m[[k, i % c]];
            }
            s
        }
    })
}

fn inside_ref(m: &Matrix<i32>) -> Vec<i32> {
    let [r, c] = m.shape();
    let v = m.to_vec();
    let mut out = Vec::new();
    for i in 0..r {
        for j in 0..c {
            let s: i32 = (0..r).map(|k| v[k * c + j] - v[k * c + i % c]).sum();
            out.push(v[i * c + j] * 3 + s);
        }
    }
    out
}

/// The same expressions twice: a read squared in a loop's step, and two
/// equal loops as the operands of `-`.
#[acc]
fn twice(m: &Matrix<i32>) -> Matrix<i32> {
    let [r, c] = m.shape();
    generate([r, c], |[i, j]| {
        let mut s = 0i32;
        for k in 0..r {
            s += m[[k, i % c]] * m[[k, i % c]] + m[[k, j]];
        }
        s * 2
            + ({
                let mut t = 0i32;
                for k in 0..r {
                    t += m[[k, j]];
                }
                t
            } - {
                let mut t = 0i32;
                for k in 0..r {
                    t += m[[k, j]];
                }
                t
            })
    })
}

fn twice_ref(m: &Matrix<i32>) -> Vec<i32> {
    let [r, c] = m.shape();
    let v = m.to_vec();
    let mut out = Vec::new();
    for i in 0..r {
        for j in 0..c {
            let s: i32 = (0..r)
                .map(|k| v[k * c + i % c] * v[k * c + i % c] + v[k * c + j])
                .sum();
            out.push(s * 2);
        }
    }
    out
}

/// Rodinia's lud (unblocked): each step updates one row of the matrix in
/// place (`update_box_lanes`), its loop the same along the row, then one
/// column (rows of one element: no group).
#[acc]
fn lu(a0: &Matrix<f64>) -> Matrix<f64> {
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

fn lu_ref(a: &[f64], n: usize) -> Vec<f64> {
    let mut a = a.to_vec();
    for i in 0..n {
        for j in i..n {
            let mut sum = a[i * n + j];
            for k in 0..i {
                sum -= a[i * n + k] * a[k * n + j];
            }
            a[i * n + j] = sum;
        }
        for j in i + 1..n {
            let mut sum = a[j * n + i];
            for k in 0..i {
                sum -= a[j * n + k] * a[k * n + i];
            }
            a[j * n + i] = sum / a[i * n + i];
        }
    }
    a
}

/// An in-place update whose new row reads another array only: computed
/// straight into the dead array's storage (`update_box_lanes`).
#[acc]
fn rows_from(a: &Matrix<i64>, steps: usize) -> Matrix<i64> {
    let [n, m] = a.shape();
    let mut b = a.map(|x| x + 1);
    for i in 0..steps {
        b = generate([n, m], |[r, c]| {
            if r == i {
                let mut s = 0i64;
                for k in 0..n {
                    s += a[[k, c]] * (k as i64 + 1);
                }
                s
            } else {
                b[[r, c]]
            }
        });
    }
    b
}

fn rows_from_ref(a: &Matrix<i64>, steps: usize) -> Vec<i64> {
    let [n, m] = a.shape();
    let v = a.to_vec();
    let mut b: Vec<i64> = v.iter().map(|x| x + 1).collect();
    for i in 0..steps.min(n) {
        for c in 0..m {
            b[i * m + c] = (0..n).map(|k| v[k * m + c] * (k as i64 + 1)).sum();
        }
    }
    b
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn row_lanes_in_place_straight(a in matrix(-1000i64..1000, 9, 30), steps in 0usize..10) {
        check_pools_ok(rows_from::SOURCE, "rows_from", &[arg(&a), arg(steps)], || rows_from(&a, steps), EXACT);
        prop_assert_eq!(rows_from(&a, steps).unwrap().to_vec(), rows_from_ref(&a, steps));
    }

    #[test]
    fn row_lanes_in_place(n in 0usize..20, seed in any::<u64>()) {
        // Diagonally dominant, so that no pivot is small.
        let v: Vec<f64> = (0..n * n)
            .map(|x| if x / n.max(1) == x % n.max(1) { 4.0 * n as f64 + 1.0 } else { (hash(x ^ seed as usize) % 9) as f64 - 4.0 })
            .collect();
        let a = Matrix::from_vec([n, n], v.clone()).unwrap();
        check_pools_ok(lu::SOURCE, "lu", &[arg(&a)], || lu(&a), EXACT);
        prop_assert_eq!(lu(&a).unwrap().to_vec(), lu_ref(&v, n));
    }

    #[test]
    fn row_lanes_repeated_expressions(m in matrix(-1000i32..1000, 13, 21)) {
        check_pools_ok(twice::SOURCE, "twice", &[arg(&m)], || twice(&m), EXACT);
        prop_assert_eq!(twice(&m).unwrap().to_vec(), twice_ref(&m));
    }

    #[test]
    fn row_lanes_inside_an_operation(m in matrix(-1000i32..1000, 13, 21)) {
        check_pools_ok(inside::SOURCE, "inside", &[arg(&m)], || inside(&m), EXACT);
        prop_assert_eq!(inside(&m).unwrap().to_vec(), inside_ref(&m));
    }

    #[test]
    fn row_lanes_trmm(
        m in 0usize..12,
        n in 0usize..21,
        short in 0usize..3,
        seed in any::<u64>(),
    ) {
        // `a` is m x m, or shorter by `short` rows (then the loop reads past it).
        let ma = m.saturating_sub(short);
        let val = |i: usize, s: u64| ((hash(i ^ s as usize) % 17) as f32 - 8.0) / 4.0;
        let a = Matrix::from_vec([ma, m], (0..ma * m).map(|i| val(i, seed)).collect()).unwrap();
        let b = Matrix::from_vec([m, n], (0..m * n).map(|i| val(i, !seed)).collect()).unwrap();
        let alpha = 1.5f32;
        let got = check_pools(tri::SOURCE, "tri", &[arg(alpha), arg(&a), arg(&b)], || tri(alpha, &a, &b), EXACT);
        if ma == m || n == 0 || m < 2 {
            prop_assert!(got.is_ok());
            prop_assert_eq!(tri(alpha, &a, &b).unwrap().to_vec(), tri_ref(alpha, &a, &b));
        } else {
            prop_assert!(got.is_err());
        }
    }

    #[test]
    fn row_lanes_mixed_state(
        t in 0usize..9,
        xs in vector(-50i64..50, 8),
        m in matrix(-50i64..50, 4, 19),
    ) {
        let got = check_pools(mixed::SOURCE, "mixed", &[arg(t), arg(&xs), arg(&m)], || mixed(t, &xs, &m), EXACT);
        if t <= xs.len() || m.to_vec().is_empty() {
            prop_assert!(got.is_ok());
            prop_assert_eq!(mixed(t, &xs, &m).unwrap().to_vec(), mixed_ref(t, &xs.to_vec(), &m));
        } else {
            prop_assert!(got.is_err());
        }
    }

    #[test]
    fn row_lanes_rank_one(w in vector(-4.0f32..4.0, 12), xs in vector(-4.0f32..4.0, 40)) {
        check_pools_ok(conv::SOURCE, "conv", &[arg(&w), arg(&xs)], || conv(&w, &xs), EXACT);
    }

    #[test]
    fn escape_times(w in 0usize..23, h in 0usize..6, limit in 0u32..80) {
        let got = check_pools_ok(escape::SOURCE, "escape", &[arg(w), arg(h), arg(limit)], || escape(w, h, limit), EXACT);
        let _ = got;
        prop_assert_eq!(escape(w, h, limit).unwrap().to_vec(), escape_ref(w, h, limit));
    }

    #[test]
    fn newton_steps(xs in vector(-1e6f64..1e6, 30)) {
        check_pools_ok(newton::SOURCE, "newton", &[arg(&xs)], || newton(&xs), EXACT);
        let want: Vec<(f64, u32)> = xs.to_vec().into_iter().map(newton_ref).collect();
        prop_assert_eq!(newton(&xs).unwrap().to_vec(), want);
    }

    #[test]
    fn loops_under_branches(xs in vector(any::<u32>(), 30), ys in vector(any::<u32>(), 30)) {
        check_pools_ok(branches::SOURCE, "branches", &[arg(&xs), arg(&ys)], || branches(&xs, &ys), EXACT);
        prop_assert_eq!(branches(&xs, &ys).unwrap().to_vec(), branches_ref(&xs.to_vec(), &ys.to_vec()));
    }

    #[test]
    fn nested_loops(xs in vector(any::<i32>(), 30)) {
        check_pools_ok(nested::SOURCE, "nested", &[arg(&xs)], || nested(&xs), EXACT);
        let want: Vec<i64> = xs.to_vec().into_iter().map(nested_ref).collect();
        prop_assert_eq!(nested(&xs).unwrap().to_vec(), want);
    }

    #[test]
    fn loops_reading_memory(xs in vector(any::<u32>(), 30)) {
        check_pools_ok(reading::SOURCE, "reading", &[arg(&xs)], || reading(&xs), EXACT);
    }
}

/// An in-place update of long rows, reading the array it updates
/// (`generate_box_lanes`): ranges of several groups each.
#[acc]
fn long_rows(a: &Matrix<i64>) -> Matrix<i64> {
    let [n, m] = a.shape();
    let mut b = a.map(|x| x);
    for i in 0..n {
        b = generate([n, m], |[r, c]| {
            if r == i {
                let mut s = b[[r, c]];
                for k in 0..n {
                    s += b[[k, c]] * (k as i64 + 2) + b[[k, (c + k) % m]];
                }
                s
            } else {
                b[[r, c]]
            }
        });
    }
    b
}

#[test]
fn row_lanes_in_place_long_rows() {
    for (n, m) in [(3, 3001), (2, 1500), (4, 77)] {
        let v: Vec<i64> = (0..n * m).map(|x| (hash(x) % 201) as i64 - 100).collect();
        let a = Matrix::from_vec([n, m], v.clone()).unwrap();
        check_pools_ok(
            long_rows::SOURCE,
            "long_rows",
            &[arg(&a)],
            || long_rows(&a),
            EXACT,
        );
        let mut b = v;
        for i in 0..n {
            let old = b.clone();
            for c in 0..m {
                b[i * m + c] = old[i * m + c]
                    + (0..n)
                        .map(|k| old[k * m + c] * (k as i64 + 2) + old[k * m + (c + k) % m])
                        .sum::<i64>();
            }
        }
        assert_eq!(long_rows(&a).unwrap().to_vec(), b, "{n} x {m}");
    }
}

/// The nearest centre with sharing off (`examples/programs/kmeans.rs`'s
/// no-sharing build): the result is a tuple of two projections of one loop,
/// which the tuple computes once; that loop is the tuple's operand.
#[acc(sharing = false)]
fn nearest(points: &Vector<(f32, f32)>, centroids: &Vector<(f32, f32)>) -> Vector<usize> {
    let k = centroids.len();
    points.map(|p| {
        let mut best: usize = 0;
        let mut best_d = f32::INFINITY;
        for c in 0..k {
            let (cx, cy) = centroids[[c]];
            let d = (p.0 - cx) * (p.0 - cx) + (p.1 - cy) * (p.1 - cy);
            if d < best_d {
                best_d = d;
                best = c;
            }
        }
        best
    })
}

#[test]
fn row_lanes_tuple_of_one_loop() {
    for (n, k) in [(0, 3), (7, 0), (19, 5), (64, 1)] {
        let pt = |i: usize| ((hash(i) % 97) as f32 / 8.0, (hash(i + 1000) % 89) as f32 / 8.0);
        let points = Vector::from((0..n).map(pt).collect::<Vec<_>>());
        let centroids = Vector::from((0..k).map(|c| pt(c * 31 + 7)).collect::<Vec<_>>());
        check_pools_ok(
            nearest::SOURCE,
            "nearest",
            &[arg(&points), arg(&centroids)],
            || nearest(&points, &centroids),
            EXACT,
        );
    }
}

/// A whole image: many groups per chunk, and chunks that end inside a group.
#[test]
fn large_image() {
    for (w, h) in [(1001, 37), (64, 64), (3, 1)] {
        let got = escape(w, h, 100).unwrap().to_vec();
        assert_eq!(got, escape_ref(w, h, 100), "{w} x {h}");
    }
}

accel! {
    /// Escape time of `z <- z^2 + c` per pixel, rank 2 (the index parameter).
    pub fn escape(w: usize, h: usize, limit: u32) -> Matrix<u32> {
        generate([h, w], |[i, j]| {
            let cr = -2.0f32 + j as f32 * (3.0 / w as f32);
            let ci = -1.0f32 + i as f32 * (2.0 / h as f32);
            let mut zr = 0.0f32;
            let mut zi = 0.0f32;
            let mut k = 0u32;
            while k < limit && zr * zr + zi * zi <= 4.0 {
                let t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                k += 1;
            }
            k
        })
    }

    /// The escape times as a vector.
    fn counts(w: usize, h: usize, limit: u32) -> Vector<u32> {
        escape(w, h, limit).flatten()
    }

    /// Folds of looping elements (each fused with its own image): the
    /// elements are computed in lanes, by blocks, and combined in index order
    /// (the third combination does not commute).
    pub fn escape_folds(w: usize, h: usize, limit: u32) -> (Scalar<u64>, Scalar<u32>, Scalar<u32>) {
        (
            counts(w, h, limit).map(|k| k as u64).sum(),
            counts(w, h, limit + 1).fold1_all(|a, b| a.max(b)),
            counts(w, h, limit + 2).fold_all(0, |a, b| if b < limit { b } else { a }),
        )
    }
}

#[test]
fn folds_of_looping_elements() {
    for (w, h, limit) in [(1, 1, 5), (3, 2, 7), (37, 11, 60), (300, 40, 100)] {
        let ks = |l| escape_ref(w, h, l);
        let want = (
            ks(limit).iter().map(|k| *k as u64).sum::<u64>(),
            ks(limit + 1).iter().copied().max().unwrap(),
            ks(limit + 2)
                .iter()
                .fold(0, |a, b| if *b < limit { *b } else { a }),
        );
        let args = [arg(w), arg(h), arg(limit)];
        check_pools_ok(
            escape_folds::SOURCE,
            "escape_folds",
            &args,
            || escape_folds(w, h, limit),
            EXACT,
        );
        let (s, m, l) = escape_folds(w, h, limit).unwrap();
        assert_eq!((s.value(), m.value(), l.value()), want, "{w} x {h}");
    }
}

/// A value bound and never used beside a loop run in lockstep (found by
/// `random_programs`, seed 11): the unused value varies along the row, so it
/// is computed per lane, not once (as scalar code, it named the lanes' array
/// where it wanted one lane's value, and did not compile).
#[acc]
fn unused_lane_value(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| {
        let mut s = x;
        let t = {
            let mut u = x;
            for _ in 0..0u32 {
                u = -u;
            }
            0.5f32
        };
        for _ in 0..2u32 {
            s = t.mul_add(s, 1.0);
        }
        s
    })
}

#[test]
fn unused_values_that_vary_run_per_lane() {
    for n in [0usize, 1, 7, 8, 9, 17, 40] {
        let xs = Vector::from((0..n).map(|i| i as f32 * 0.25 - 3.0).collect::<Vec<_>>());
        let want: Vec<f32> = xs
            .to_vec()
            .iter()
            .map(|&x| 0.5f32.mul_add(0.5f32.mul_add(x, 1.0), 1.0))
            .collect();
        check_pools_ok(
            unused_lane_value::SOURCE,
            "unused_lane_value",
            &[arg(&xs)],
            || unused_lane_value(&xs),
            EXACT,
        );
        assert_eq!(unused_lane_value(&xs).unwrap().to_vec(), want, "{n}");
    }
}
