//! Adversarial programs for alpha-equivalent merging, fusion at indexed reads,
//! the cost model, maps fused after folds and scans, and the fusion/sharing
//! switches: every build against the interpreter.

mod common;

use accel::prelude::*;
use accel::ErrorKind;
use common::*;

/// The same program three times: fused, without fusion, without sharing.
macro_rules! variants {
    ($($body:tt)*) => {
        pub mod fused {
            use super::*;
            accel! { $($body)* }
        }
        pub mod no_fusion {
            use super::*;
            accel! { #![acc(fusion = false)] $($body)* }
        }
        pub mod no_sharing {
            use super::*;
            accel! { #![acc(sharing = false)] $($body)* }
        }
    };
}

/// Checks `name` of all three builds against the interpreter: the same
/// result, and all must succeed.
macro_rules! all3 {
    ($m:ident, $name:ident, $args:expr, $tol:expr, $($x:expr),*) => {{
        let src = $m::fused::$name::SOURCE;
        let name = stringify!($name);
        check_ok(src, name, $args, $m::fused::$name($($x),*), $tol);
        check_ok(src, name, $args, $m::no_fusion::$name($($x),*), $tol);
        check_ok(src, name, $args, $m::no_sharing::$name($($x),*), $tol);
    }};
}

/// `all3!` where the program may fail: `$err` is `None` where it must succeed
/// and `Some(kind)` where every build and the interpreter must fail with `kind`.
macro_rules! all3_or {
    ($m:ident, $name:ident, $args:expr, $tol:expr, $err:expr, $($x:expr),*) => {{
        let src = $m::fused::$name::SOURCE;
        let name = stringify!($name);
        let err: Option<ErrorKind> = $err;
        match err {
            None => all3!($m, $name, $args, $tol, $($x),*),
            Some(kind) => {
                check_err(src, name, $args, $m::fused::$name($($x),*), kind.clone());
                check_err(src, name, $args, $m::no_fusion::$name($($x),*), kind.clone());
                check_err(src, name, $args, $m::no_sharing::$name($($x),*), kind);
            }
        }
    }};
}

const SIZES: [usize; 5] = [0, 1, 2, 31, 1000];

fn floats(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (hash(i * 7 + seed) % 2000) as f32 / 100.0 - 10.0)
        .collect()
}

fn ints(n: usize, seed: usize) -> Vec<i32> {
    (0..n).map(|i| (hash(i * 13 + seed) % 200) as i32 - 100).collect()
}

mod alpha {
    use super::*;
    variants! {
        /// Alpha-equal up to the scalar parameter they capture: not one.
        pub fn two_params(xs: &Vector<f32>, p: f32, q: f32) -> Vector<f32> {
            let a = xs.map(|x| x + p);
            let b = xs.map(|y| y + q);
            a.zip_with(&b, |u, v| u * v)
        }
        /// Shadowed `let`s: the same name, different values.
        pub fn shadowed(xs: &Vector<i32>, k: i32) -> Vector<i32> {
            let c = k + 1;
            let a = xs.map(|x| x * c);
            let c = k + 2;
            let b = xs.map(|x| x * c);
            a.zip_with(&b, |u, v| u - v)
        }
        /// Alpha-equal bodies with different literal types.
        pub fn literal_types(xs: &Vector<i32>) -> (Scalar<i64>, Scalar<i32>) {
            let a = xs.map(|x| x as i64 * 3).fold(0, |s, t| s + t);
            let b = xs.map(|x| x * 3).fold(0, |s, t| s + t);
            (a, b)
        }
        /// Loop state captured inside an array-level `while`, next to an
        /// alpha-equal operation outside the loop.
        pub fn in_loop(xs: &Vector<f32>, n: i32) -> Vector<f32> {
            let mut acc = xs.map(|x| x * 2.0);
            let mut i = 0;
            while i < n {
                acc = acc.zip_with(&xs.map(|y| y * 2.0), |a, b| a + b);
                acc = acc.map(|y| y * 2.0);
                i += 1;
            }
            acc.zip_with(&xs.map(|z| z * 2.0), |a, b| a - b)
        }
        /// Two loops whose bodies are alpha-equal but read different state.
        pub fn two_loops(xs: &Vector<i32>, n: i32) -> Vector<i32> {
            let mut a = xs.map(|x| x + 1);
            let mut i = 0;
            while i < n {
                a = a.map(|x| x * 3 + 1);
                i += 1;
            }
            let mut b = xs.map(|x| x + 2);
            let mut j = 0;
            while j < n + 1 {
                b = b.map(|x| x * 3 + 1);
                j += 1;
            }
            a.zip_with(&b, |u, v| u - v)
        }
        /// A loop whose state is scalar and array, the step alpha-equal to the
        /// init.
        pub fn scalar_state(xs: &Vector<i32>, n: i32) -> Vector<i32> {
            let mut k = 1;
            let mut a = xs.map(|x| x + k);
            while k < n {
                k += 1;
                a = a.map(|x| x + k);
            }
            a
        }
        /// Alpha-equal operations in the two branches of an `if`, and outside.
        pub fn branches(xs: &Vector<f32>, flag: bool) -> Vector<f32> {
            let r = if flag {
                xs.map(|x| x * 3.0).map(|x| x + 1.0)
            } else {
                xs.map(|y| y * 3.0).map(|y| y - 1.0)
            };
            r.zip_with(&xs.map(|z| z * 3.0), |a, b| a + b)
        }
        /// Permutes with the same closures but different defaults.
        pub fn permutes(xs: &Vector<i32>) -> Vector<i32> {
            let n = xs.len();
            let d1 = fill([4], 0);
            let d2 = fill([4], 100);
            let p1 = xs.permute(&d1, |[i]| Some([i % 4]), |a, b| a + b);
            let p2 = xs.permute(&d2, |[j]| Some([j % 4]), |c, d| c + d);
            let _ = n;
            p1.zip_with(&p2, |a, b| a * 1000 + b)
        }
        /// Stencils with the same function but different boundaries.
        pub fn stencils(xs: &Vector<f32>) -> Vector<f32> {
            let a = xs.stencil(Boundary::Clamp, |[l, c, r]| l + c + r);
            let b = xs.stencil(Boundary::Constant(0.0), |[x, y, z]| x + y + z);
            a.zip_with(&b, |u, v| u - v)
        }
        /// A closure's `let`s alpha-equal in two maps over different arrays.
        pub fn lets_in_closures(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
            let a = xs.map(|x| { let t = x * x; t + t });
            let b = ys.map(|y| { let s = y * y; s + s });
            a.zip_with(&b, |u, v| u - v)
        }
    }
}

#[test]
fn alpha_merging() {
    for n in SIZES {
        let xs = Vector::from(floats(n, 1));
        let ys = Vector::from(floats(n, 2));
        let xi = Vector::from(ints(n, 3));
        all3!(
            alpha,
            two_params,
            &[arg(&xs), arg(1.5f32), arg(-2.0f32)],
            F32_TOL,
            &xs,
            1.5,
            -2.0
        );
        all3!(alpha, shadowed, &[arg(&xi), arg(5i32)], EXACT, &xi, 5);
        all3!(alpha, literal_types, &[arg(&xi)], EXACT, &xi);
        for k in [0, 1, 3] {
            all3!(alpha, in_loop, &[arg(&xs), arg(k)], F32_TOL, &xs, k);
            all3!(alpha, two_loops, &[arg(&xi), arg(k)], EXACT, &xi, k);
            all3!(alpha, scalar_state, &[arg(&xi), arg(k)], EXACT, &xi, k);
        }
        for f in [true, false] {
            all3!(alpha, branches, &[arg(&xs), arg(f)], F32_TOL, &xs, f);
        }
        all3!(alpha, permutes, &[arg(&xi)], EXACT, &xi);
        all3!(alpha, stencils, &[arg(&xs)], F32_TOL, &xs);
        all3!(alpha, lets_in_closures, &[arg(&xs), arg(&ys)], F32_TOL, &xs, &ys);
    }
}

mod scans {
    use super::*;
    variants! {
        /// `postscanl` applies the user's closure twice (in a map and as the
        /// scan's combination), here an associative, non-commutative one.
        pub fn postscan(xs: &Vector<i32>) -> Vector<i32> {
            xs.postscanl(10, |a, b| if b % 3 != 0 { b } else { a })
        }
        pub fn postscan_r(m: &Matrix<i32>) -> Matrix<i32> {
            m.postscanr(1, |a, b| if a % 3 != 0 { a } else { b })
        }
        pub fn total_then_map(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) {
            let (s, t) = xs.scanl_total(0, |a, b| a + b);
            (s.map(|x| x * 2), t.map(|x| x + 1))
        }
        pub fn scan_map_shape(m: &Matrix<f32>) -> (Matrix<f32>, Scalar<usize>) {
            let s = m.scanl(0.0, |a, b| a + b);
            let t = s.map(|x| x * 0.5);
            (t, fill([], s.len()))
        }
    }
}

#[test]
fn scans_and_maps() {
    for n in SIZES {
        let xi = Vector::from(ints(n, 4));
        all3!(scans, postscan, &[arg(&xi)], EXACT, &xi);
        all3!(scans, total_then_map, &[arg(&xi)], EXACT, &xi);
    }
    for (r, c) in [(0usize, 0usize), (0, 3), (3, 0), (1, 1), (5, 7), (3, 3000)] {
        let mi = Matrix::from_vec([r, c], ints(r * c, 5)).unwrap();
        let mf = Matrix::from_vec([r, c], floats(r * c, 6)).unwrap();
        all3!(scans, postscan_r, &[arg(&mi)], EXACT, &mi);
        // A float sum, split between threads on the GPU: compared at the
        // scale of its terms (a running sum may cancel to near zero).
        all3!(
            scans,
            scan_map_shape,
            &[arg(&mf)],
            sum_tol(F32_TOL, abs_sum(mf.as_slice())),
            &mf
        );
    }
}

mod reads {
    use super::*;
    variants! {
        /// A cheap producer read by index, with indices out of its bounds.
        pub fn read_oob(xs: &Vector<i32>, k: usize) -> Vector<i32> {
            let ys = xs.map(|x| x * 2);
            xs.map(|x| x + ys[[k]])
        }
        /// A cheap producer read inside a scalar `while` of a kernel.
        pub fn read_in_while(xs: &Vector<i32>, n: usize) -> Vector<i32> {
            let ys = xs.map(|x| x + 1);
            generate([n], |[i]| {
                let mut s = 0;
                let mut j = 0;
                while j <= i as i32 && (j as usize) < ys.len() {
                    s += ys[[j as usize]];
                    j += 1;
                }
                s
            })
        }
        /// A zip of different lengths read past the shorter one.
        pub fn read_zip(xs: &Vector<f32>, ys: &Vector<f32>, k: usize) -> Vector<f32> {
            let z = xs.zip_with(ys, |a, b| a - b);
            xs.map(|x| x * z[[k]])
        }
        /// A backpermute read by index. (One with a source index out of
        /// bounds would differ from the interpreter by design: fused, only
        /// the elements read are computed, see "Only computed work reports
        /// errors" in docs/language.md.)
        pub fn read_backpermute(xs: &Vector<i32>, k: usize) -> Vector<i32> {
            let r = xs.backpermute([xs.len()], |[i]| [xs.len() - 1 - i]);
            xs.map(|x| x + r[[k]])
        }
        /// A cheap generate of rank 0, 2 and 3 read by index.
        pub fn read_ranks(m: &Matrix<i32>, k: usize) -> Matrix<i32> {
            let s = fill([], 7);
            let [r, c] = m.shape();
            let g = generate([r, c], |[i, j]| (i * 3 + j) as i32);
            let g3 = generate([2, r, c], |[a, i, j]| (a + i + j) as i32);
            m.map(|x| x + s.value() + g[[k, 0]] + g3[[1, k, 0]])
        }
        /// The same cheap producer read twice and used as a whole.
        pub fn read_and_whole(xs: &Vector<i32>) -> Vector<i32> {
            let ys = xs.reverse();
            let n = xs.len();
            ys.map(|y| y + ys[[0]] + ys[[n - 1]])
        }
        /// Reads inside a permute's index function and combination.
        pub fn read_in_permute(xs: &Vector<i32>) -> Vector<i32> {
            let t = xs.map(|x| x.rem_euclid(5));
            let zeros = fill([5], 0);
            xs.permute(&zeros, |[i]| Some([t[[i]] as usize]), |a, b| a + b + t[[0]])
        }
    }
}

#[test]
fn reads_of_cheap_producers() {
    for n in SIZES {
        let xi = Vector::from(ints(n, 7));
        let xs = Vector::from(floats(n, 8));
        let ys = Vector::from(floats(n / 2, 9));
        for k in [0usize, 1, n / 2, n.saturating_sub(1), n, n + 5] {
            let oob = (n > 0 && k >= n).then_some(ErrorKind::IndexOutOfBounds);
            all3_or!(reads, read_oob, &[arg(&xi), arg(k)], EXACT, oob.clone(), &xi, k);
            // The zip has n / 2 elements.
            all3_or!(
                reads,
                read_zip,
                &[arg(&xs), arg(&ys), arg(k)],
                F32_TOL,
                (n > 0 && k >= n / 2).then_some(ErrorKind::IndexOutOfBounds),
                &xs,
                &ys,
                k
            );
            all3_or!(reads, read_backpermute, &[arg(&xi), arg(k)], EXACT, oob, &xi, k);
        }
        for m in [0usize, 1, 5, 40] {
            all3!(reads, read_in_while, &[arg(&xi), arg(m)], EXACT, &xi, m);
        }
        if n > 0 {
            all3!(reads, read_and_whole, &[arg(&xi)], EXACT, &xi);
            all3!(reads, read_in_permute, &[arg(&xi)], EXACT, &xi);
        }
    }
    for (r, c) in [(0usize, 0usize), (0, 3), (3, 0), (1, 1), (5, 7)] {
        let mi = Matrix::from_vec([r, c], ints(r * c, 10)).unwrap();
        for k in [0usize, 1, 4, 5] {
            let oob = (r * c > 0 && k >= r).then_some(ErrorKind::IndexOutOfBounds);
            all3_or!(reads, read_ranks, &[arg(&mi), arg(k)], EXACT, oob, &mi, k);
        }
    }
}

mod folds {
    use super::*;
    variants! {
        /// fold1 on empty rows, then a map: still `EmptyReduction`.
        pub fn fold1_map(m: &Matrix<i32>) -> Vector<i32> {
            m.fold1(|a, b| a.max(b)).map(|x| x * 2)
        }
        pub fn fold1_all_map(xs: &Vector<f32>) -> Scalar<f32> {
            xs.fold1(|a, b| a.min(b)).map(|x| x + 1.0)
        }
        /// The fold's result used by shape only besides the map.
        pub fn fold_shape(m: &Matrix<f32>) -> Vector<f32> {
            let s = m.fold(0.0, |a, b| a + b);
            let n = s.len();
            s.map(|x| x / (n as f32 + 1.0))
        }
        /// A map after a fold that reads the fold's input by index.
        pub fn fold_map_reads(m: &Matrix<f32>) -> Vector<f32> {
            let [r, c] = m.shape();
            let s = m.fold(0.0, |a, b| a + b);
            s.map(|x| if c > 0 { x - m[[0, 0]] } else { x + r as f32 })
        }
        /// Maps after folds inside a loop.
        pub fn fold_in_loop(m: &Matrix<i32>, n: i32) -> Vector<i32> {
            let [r, c] = m.shape();
            let mut v = m.fold(0, |a, b| a + b).map(|x| x / 2);
            let mut i = 0;
            while i < n {
                let mm = generate([r, c], |[a, b]| m[[a, b]] + v[[a]]);
                v = mm.fold(0, |a, b| a.max(b)).map(|x| x - 1);
                i += 1;
            }
            v
        }
        /// A tuple fold followed by a map changing the type.
        pub fn tuple_fold_map(m: &Matrix<f32>) -> Vector<f64> {
            m.map(|x| (x, 1)).fold((0.0, 0), |(a, n), (b, k)| (a + b, n + k)).map(|(s, n)| s as f64 / (n as f64 + 1.0))
        }
        /// A fold of rank 3, then two maps.
        pub fn fold3(a: &Array<i32, 3>) -> Matrix<i64> {
            a.fold(0, |x, y| x + y).map(|x| x as i64).map(|x| x * x)
        }
        /// A fold whose result is read by index inside the map after it.
        pub fn fold_map_self(m: &Matrix<i32>) -> Vector<i32> {
            let s = m.fold(0, |a, b| a + b);
            let t = s.map(|x| x + 1);
            t.map(|x| x * 2)
        }
    }
}

#[test]
fn folds_then_maps() {
    for (r, c) in [(0usize, 0usize), (0, 3), (3, 0), (1, 1), (5, 7), (2, 3000)] {
        let mi = Matrix::from_vec([r, c], ints(r * c, 11)).unwrap();
        let mf = Matrix::from_vec([r, c], floats(r * c, 12)).unwrap();
        let empty_rows = (r > 0 && c == 0).then_some(ErrorKind::EmptyReduction);
        all3_or!(folds, fold1_map, &[arg(&mi)], EXACT, empty_rows, &mi);
        all3!(folds, fold_shape, &[arg(&mf)], F32_TOL, &mf);
        all3!(folds, fold_map_reads, &[arg(&mf)], F32_TOL, &mf);
        all3!(folds, tuple_fold_map, &[arg(&mf)], 1e-5, &mf);
        all3!(folds, fold_map_self, &[arg(&mi)], EXACT, &mi);
        for k in [0, 1, 3] {
            all3!(folds, fold_in_loop, &[arg(&mi), arg(k)], EXACT, &mi, k);
        }
        let a3 = Array::from_vec([2, r, c], ints(2 * r * c, 13)).unwrap();
        all3!(folds, fold3, &[arg(&a3)], EXACT, &a3);
    }
    for n in SIZES {
        let xs = Vector::from(floats(n, 14));
        let empty = (n == 0).then_some(ErrorKind::EmptyReduction);
        all3_or!(folds, fold1_all_map, &[arg(&xs)], F32_TOL, empty, &xs);
    }
}

mod switches {
    use super::*;
    variants! {
        /// Scalar `let`s whose values run `while` loops, read in closures.
        pub fn while_lets(xs: &Vector<i32>, n: i32) -> Vector<i32> {
            let k = {
                let mut j = 0;
                let mut s = 0;
                while j < n { s += j; j += 1; }
                s
            };
            xs.map(|x| {
                let mut t = x;
                let u = { let mut c = 0; while c < 3 { t += k; c += 1; } t };
                u + u + k
            })
        }
        /// Array-level control flow with a producer used on both sides.
        pub fn control(xs: &Vector<f32>, flag: bool, n: i32) -> Vector<f32> {
            let ys = xs.map(|x| x * 2.0 + 1.0);
            let mut a = ys.map(|y| y + 1.0);
            let mut i = 0;
            while i < n {
                a = if flag { a.zip_with(&ys, |p, q| p + q) } else { a.map(|p| p * 0.5) };
                i += 1;
            }
            a.zip_with(&ys, |p, q| p - q)
        }
        /// A chain of producers each read twice (exponential if recomputed
        /// blindly).
        pub fn chain(xs: &Vector<i32>) -> Vector<i32> {
            let n = xs.len();
            let a = generate([n], |[i]| xs[[i]] + xs[[(i + 1) % n]]);
            let b = generate([n], |[i]| a[[i]] + a[[(i + 1) % n]]);
            let c = generate([n], |[i]| b[[i]] + b[[(i + 1) % n]]);
            let d = generate([n], |[i]| c[[i]] + c[[(i + 1) % n]]);
            let e = generate([n], |[i]| d[[i]] + d[[(i + 1) % n]]);
            let f = generate([n], |[i]| e[[i]] + e[[(i + 1) % n]]);
            let g = generate([n], |[i]| f[[i]] + f[[(i + 1) % n]]);
            generate([n], |[i]| g[[i]] + g[[(i + 1) % n]])
        }
        /// Scans with an initial value inside a loop, mapped.
        pub fn scan_loop(xs: &Vector<i32>, n: i32) -> Vector<i32> {
            let mut a = xs.scanl(0, |p, q| p + q).map(|x| x - 1);
            let mut i = 0;
            while i < n {
                a = a.scanl1(|p, q| p.max(q)).map(|x| x + 1);
                i += 1;
            }
            a
        }
    }
}

#[test]
fn switches_and_control_flow() {
    for n in SIZES {
        let xi = Vector::from(ints(n, 15));
        let xs = Vector::from(floats(n, 16));
        for k in [0, 1, 4] {
            all3!(switches, while_lets, &[arg(&xi), arg(k)], EXACT, &xi, k);
            all3!(switches, scan_loop, &[arg(&xi), arg(k)], EXACT, &xi, k);
            for f in [true, false] {
                all3!(switches, control, &[arg(&xs), arg(f), arg(k)], F32_TOL, &xs, f, k);
            }
        }
        if n > 0 {
            all3!(switches, chain, &[arg(&xi)], EXACT, &xi);
        }
    }
}

mod more {
    use super::*;
    variants! {
        /// Scalar `while`s in closures, alpha-equal but for the bound they capture.
        pub fn closure_whiles(xs: &Vector<i32>, k1: i32, k2: i32) -> Vector<i32> {
            let a = xs.map(|x| { let mut i = 0; let mut s = x; while i < k1 { s = s * 3 + i; i += 1; } s });
            let b = xs.map(|y| { let mut j = 0; let mut t = y; while j < k2 { t = t * 3 + j; j += 1; } t });
            a.zip_with(&b, |u, v| u - v)
        }
        /// A `let` shadowing the closure's parameter, next to one that does not.
        pub fn shadow_param(xs: &Vector<i32>) -> Vector<i32> {
            let a = xs.map(|x| { let x = x + 1; x * 2 });
            let b = xs.map(|y| { let z = y + 1; y * 2 + z - z });
            a.zip_with(&b, |u, v| u * 100 + v)
        }
        /// `for` loops with alpha-equal bodies over different ranges.
        pub fn for_loops(xs: &Vector<i32>, n: i32) -> Vector<i32> {
            let mut a = xs.map(|x| x);
            for i in 0..n {
                a = a.map(|x| x * 2 + i);
            }
            let mut b = xs.map(|x| x);
            for j in 1..n {
                b = b.map(|x| x * 2 + j);
            }
            a.zip_with(&b, |u, v| u - v)
        }
        /// A producer used twice, once as a permute's defaults.
        pub fn defaults_twice(xs: &Vector<i32>) -> Vector<i32> {
            let d = xs.map(|x| x + 1);
            let p = xs.permute(&d, |[i]| Some([i / 2]), |a, b| a + b);
            p.zip_with(&d, |u, v| u * 1000 + v)
        }
        /// A cheap reshape used twice.
        pub fn reshape_twice(m: &Matrix<i32>) -> Matrix<i32> {
            let [r, c] = m.shape();
            let v = m.reshape([c, r]);
            v.zip_with(&v.map(|x| x + 1), |a, b| a * b)
        }
        /// A tuple scan followed by a map to a primitive.
        pub fn tuple_scan(xs: &Vector<i32>) -> Vector<i64> {
            xs.map(|x| (x, 1)).scanl1(|(a, n), (b, k)| (a.max(b), n + k)).map(|(m, n)| m as i64 * 10 + n as i64)
        }
        /// Maps after a fold in both branches of an `if`, the result's length
        /// in the loop's condition.
        pub fn fold_branches(m: &Matrix<i32>, flag: bool) -> Vector<i32> {
            let s = if flag { m.fold(0, |a, b| a + b).map(|x| x * 2) } else { m.fold(1, |a, b| a * b).map(|x| x - 1) };
            let mut t = s;
            let mut i = 0;
            while (i as usize) < t.len() && i < 3 {
                t = t.map(|x| x + 1);
                i += 1;
            }
            t
        }
        /// The sum mapped, then read as a scalar inside another kernel.
        pub fn sum_read(xs: &Vector<f32>) -> Vector<f32> {
            let t = xs.sum().map(|s| s / 2.0);
            xs.map(|y| y * t.value())
        }
        /// A cheap producer of loop state read by index inside the loop.
        pub fn loop_read(xs: &Vector<i32>, n: i32) -> Vector<i32> {
            let mut a = xs.map(|x| x);
            let mut i = 0;
            while i < n {
                let r = a.reverse();
                a = a.map(|x| x + r[[0]]);
                i += 1;
            }
            a
        }
    }
}

#[test]
fn more_programs() {
    for n in SIZES {
        let xi = Vector::from(ints(n, 17));
        let xs = Vector::from(floats(n, 18));
        all3!(
            more,
            closure_whiles,
            &[arg(&xi), arg(2i32), arg(3i32)],
            EXACT,
            &xi,
            2,
            3
        );
        all3!(
            more,
            closure_whiles,
            &[arg(&xi), arg(2i32), arg(2i32)],
            EXACT,
            &xi,
            2,
            2
        );
        all3!(more, shadow_param, &[arg(&xi)], EXACT, &xi);
        all3!(more, defaults_twice, &[arg(&xi)], EXACT, &xi);
        all3!(more, tuple_scan, &[arg(&xi)], EXACT, &xi);
        all3!(more, sum_read, &[arg(&xs)], F32_TOL, &xs);
        for k in [0, 1, 3] {
            all3!(more, for_loops, &[arg(&xi), arg(k)], EXACT, &xi, k);
            all3!(more, loop_read, &[arg(&xi), arg(k)], EXACT, &xi, k);
        }
    }
    for (r, c) in [(0usize, 0usize), (0, 3), (3, 0), (1, 1), (5, 7)] {
        let mi = Matrix::from_vec([r, c], ints(r * c, 19)).unwrap();
        all3!(more, reshape_twice, &[arg(&mi)], EXACT, &mi);
        for f in [true, false] {
            all3!(more, fold_branches, &[arg(&mi), arg(f)], EXACT, &mi, f);
        }
    }
}

#[acc(fusion = false, sharing = false)]
fn attr_both_off(xs: &Vector<i32>) -> Scalar<i32> {
    xs.postscanl(0, |a, b| a + b).map(|x| x * 2).fold(0, |a, b| a + b)
}

#[test]
fn attribute_options() {
    for n in SIZES {
        let xi = Vector::from(ints(n, 20));
        check_ok(
            attr_both_off::SOURCE,
            "attr_both_off",
            &[arg(&xi)],
            attr_both_off(&xi),
            EXACT,
        );
    }
}

mod edge {
    use super::*;
    variants! {
        /// A producer of rank 2 read by index.
        pub fn big_read(k: usize) -> Vector<i32> {
            let g = generate([k, 2], |[i, j]| (i + j) as i32);
            generate([3], |[i]| g[[i, 1]])
        }
        /// The same producer backpermuted.
        pub fn big_bp(k: usize) -> Vector<i32> {
            let g = generate([k, 2], |[i, j]| (i + j) as i32);
            g.backpermute([3], |[i]| [i, 1])
        }
        /// fold1 over all elements of a matrix, then a map.
        pub fn fold1_all_m(m: &Matrix<i32>) -> Scalar<i64> {
            m.fold1_all(|a, b| a.min(b)).map(|x| x as i64 - 1)
        }
        /// A scan of rank 3 with an initial tuple, then a map.
        pub fn scan3(a: &Array<i32, 3>) -> Array<i32, 3> {
            a.map(|x| (x, 1)).scanr((0, 0), |(p, q), (r, s)| (p + r, q + s)).map(|(p, q)| p * q)
        }
    }
}

#[test]
fn edges() {
    // Not `usize::MAX`: a fused producer whose shape overflows is never
    // allocated, so only the interpreter reports `ShapeMismatch` (as for a
    // backpermute before this change; see "Only computed work reports errors").
    for k in [0usize, 3, 5] {
        // Both read rows 0..3 of a k x 2 producer.
        let oob = (k < 3).then_some(ErrorKind::IndexOutOfBounds);
        all3_or!(edge, big_read, &[arg(k)], EXACT, oob.clone(), k);
        all3_or!(edge, big_bp, &[arg(k)], EXACT, oob, k);
    }
    for (r, c) in [(0usize, 0usize), (0, 3), (3, 0), (1, 1), (5, 7)] {
        let mi = Matrix::from_vec([r, c], ints(r * c, 21)).unwrap();
        let empty = (r * c == 0).then_some(ErrorKind::EmptyReduction);
        all3_or!(edge, fold1_all_m, &[arg(&mi)], EXACT, empty, &mi);
        let a3 = Array::from_vec([r, 2, c], ints(r * c * 2, 22)).unwrap();
        all3!(edge, scan3, &[arg(&a3)], EXACT, &a3);
    }
}

/// The build without sharing recomputes a producer used twice in each
/// consumer, but not without bound: a chain of producers each read twice
/// would otherwise be a tree of 2^levels reads (2 million nodes and seconds of
/// planning for 16 levels, and Rust code that size).
#[test]
fn no_sharing_recomputation_is_bounded() {
    let levels = 24;
    let mut src = String::from(
        "fn chain(xs: &Vector<i32>) -> Vector<i32> {\n let n = xs.len();\n let a0 = xs.map(|x| x);\n",
    );
    for l in 1..=levels {
        src += &format!(
            " let a{l} = generate([n], |[i]| a{p}[[i]] + a{p}[[(i + 1) % n]]);\n",
            p = l - 1
        );
    }
    src += &format!(" a{levels}.zip_with(&a{levels}, |u, v| u + v)\n}}\n");
    let opts = accel_core::Options {
        sharing: false,
        ..accel_core::Options::default()
    };
    let (_, p) = accel_core::compile_source_with(&src, "chain", opts).expect("compiles");
    let nodes = p.evaluations(|_| true);
    assert!(
        nodes < 1_000_000,
        "{nodes} nodes evaluated per element:\n{}",
        p.explain()
    );
}

mod post_errors {
    use super::*;
    variants! {
        /// A map after a fold whose closure reads out of bounds.
        pub fn fold_post_oob(m: &Matrix<i32>, k: usize) -> Vector<i32> {
            m.fold(0, |a, b| a + b).map(|x| x + m[[k, 0]])
        }
        pub fn sum_post_oob(xs: &Vector<i32>, k: usize) -> Scalar<i32> {
            xs.fold(0, |a, b| a + b).map(|x| x + xs[[k]])
        }
        pub fn scan_post_oob(xs: &Vector<i32>, k: usize) -> Vector<i32> {
            let ys = xs.map(|x| x * 3);
            xs.scanl(0, |a, b| a + b).map(|x| x + ys[[k]])
        }
        /// fold1 on empty rows, then a map that ignores its argument.
        pub fn fold1_const(m: &Matrix<i32>) -> Vector<i32> {
            m.fold1(|a, b| a + b).map(|_| 7)
        }
    }
}

#[test]
fn errors_after_folds() {
    for (r, c) in [(0usize, 0usize), (0, 3), (3, 0), (1, 1), (5, 7)] {
        let mi = Matrix::from_vec([r, c], ints(r * c, 23)).unwrap();
        let empty_rows = (r > 0 && c == 0).then_some(ErrorKind::EmptyReduction);
        all3_or!(post_errors, fold1_const, &[arg(&mi)], EXACT, empty_rows, &mi);
        for k in [0usize, 1, 4, 5, 9] {
            // Each of the r sums reads m[[k, 0]].
            let oob = (r > 0 && (k >= r || c == 0)).then_some(ErrorKind::IndexOutOfBounds);
            all3_or!(
                post_errors,
                fold_post_oob,
                &[arg(&mi), arg(k)],
                EXACT,
                oob,
                &mi,
                k
            );
        }
    }
    for n in SIZES {
        let xi = Vector::from(ints(n, 24));
        for k in [0usize, 1, n, n + 3] {
            // The sum (one element) and the scan (n + 1) read element k.
            let oob = (k >= n).then_some(ErrorKind::IndexOutOfBounds);
            all3_or!(
                post_errors,
                sum_post_oob,
                &[arg(&xi), arg(k)],
                EXACT,
                oob.clone(),
                &xi,
                k
            );
            all3_or!(
                post_errors,
                scan_post_oob,
                &[arg(&xi), arg(k)],
                EXACT,
                oob,
                &xi,
                k
            );
        }
    }
}

mod post_shapes {
    use super::*;
    variants! {
        /// The fold's own shape read inside the map fused after it.
        pub fn mean_rows(m: &Matrix<f32>) -> Vector<f32> {
            let s = m.fold(0.0, |a, b| a + b);
            s.map(|x| x / (s.len() as f32 + 1.0) + m.shape()[1] as f32)
        }
        /// The scan's shape read inside the map fused after it, and a cheap
        /// producer used twice inside it.
        pub fn scan_shape(xs: &Vector<i32>) -> Vector<i32> {
            let s = xs.scanl1(|a, b| a.max(b));
            let r = xs.reverse();
            s.map(|x| x + s.len() as i32 + r[[0]] * r[[0]])
        }
    }
}

#[test]
fn shapes_after_folds() {
    for (r, c) in [(0usize, 0usize), (0, 3), (3, 0), (1, 1), (5, 7)] {
        let mf = Matrix::from_vec([r, c], floats(r * c, 25)).unwrap();
        all3!(post_shapes, mean_rows, &[arg(&mf)], F32_TOL, &mf);
    }
    for n in SIZES {
        let xi = Vector::from(ints(n, 26));
        if n > 0 {
            all3!(post_shapes, scan_shape, &[arg(&xi)], EXACT, &xi);
        }
    }
}
