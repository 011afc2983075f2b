//! Targeted guards for two rules that generic tests only met by chance:
//!
//! * merging alpha-equivalent closures (sharing recovery, `alpha.rs`) must
//!   keep closures apart that differ only in which parameter they use
//!   (`|x, y| x - y` against `|x, y| y - x`, rotations of three parameters,
//!   stencil points, index components), in maps, zip_withs, folds, scans,
//!   permute combinations and index functions;
//! * the fused stencil boundary rule (`stencil_tap` in
//!   crates/accel-core/src/plan/fuse.rs, used where a stencil reads a cheap
//!   producer: a stencil of a map) for every boundary, on extents 0 to 3
//!   (smaller than the stencil: the rule applies repeatedly), 101 and past the
//!   CPU chunk (16,384), with a consumer fused after it.
//!
//! Each program computes the variants side by side in one program (so that a
//! wrong merge can join them), is compared with the interpreter and with
//! plain Rust, and the variants are checked to differ on these inputs.

mod common;

use accel::dynamic::Dyn;
use accel::prelude::*;
use common::*;

// ---- closures that differ only in the parameters they use -----------------

accel! {
    fn f3(a: i32, b: i32, c: i32) -> i32 {
        a * 100 + b * 10 + c
    }

    fn sub_both(xs: &Vector<i32>, ys: &Vector<i32>) -> (Vector<i32>, Vector<i32>) {
        (xs.zip_with(ys, |x, y| x - y), xs.zip_with(ys, |x, y| y - x))
    }

    /// Both differences fused into one consumer: 3 (x - y) + (y - x).
    fn sub_fused(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<i32> {
        let a = xs.zip_with(ys, |x, y| x - y);
        let b = xs.zip_with(ys, |x, y| y - x);
        a.zip_with(&b, |u, v| u * 3 + v)
    }

    /// The three rotations of three parameters: a tuple pattern and a scalar.
    fn rotations(xs: &Vector<i32>, ys: &Vector<i32>, zs: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Vector<i32>) {
        let p = xs.zip(ys);
        (
            p.zip_with(zs, |(x, y), z| x * 100 + y * 10 + z),
            p.zip_with(zs, |(x, y), z| z * 100 + x * 10 + y),
            p.zip_with(zs, |(x, y), z| y * 100 + z * 10 + x),
        )
    }

    /// The same through a called function (inlined: its parameters become
    /// `let`s).
    fn rotations_call(xs: &Vector<i32>, ys: &Vector<i32>, zs: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Vector<i32>) {
        let p = xs.zip(ys);
        (
            p.zip_with(zs, |q, z| f3(q.0, q.1, z)),
            p.zip_with(zs, |q, z| f3(z, q.0, q.1)),
            p.zip_with(zs, |q, z| f3(q.1, z, q.0)),
        )
    }

    /// Stencil points are parameters too.
    fn stencil_points(xs: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Vector<i32>) {
        (
            xs.stencil(Boundary::Clamp, |[a, b, c]| a * 100 + b * 10 + c),
            xs.stencil(Boundary::Clamp, |[a, b, c]| c * 100 + a * 10 + b),
            xs.stencil(Boundary::Clamp, |[a, b, c]| b * 100 + c * 10 + a),
        )
    }

    /// Folds and scans whose operators are the same up to their parameters:
    /// first against last, composition in one order against the other.
    fn folds(m: &Matrix<(u32, u32)>) -> (Vector<(u32, u32)>, Vector<(u32, u32)>, Vector<(u32, u32)>, Vector<(u32, u32)>) {
        (
            m.fold1(|a, _b| a),
            m.fold1(|_a, b| b),
            m.fold((1, 0), |(m1, c1), (m2, c2)| (m1 * m2, c1 * m2 + c2)),
            m.fold((1, 0), |(m1, c1), (m2, c2)| (m2 * m1, c2 * m1 + c1)),
        )
    }

    fn scans(xs: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Vector<i32>, Vector<i32>) {
        (
            xs.scanl1(|a, _b| a),
            xs.scanl1(|_a, b| b),
            xs.scanr(5, |a, _b| a),
            xs.scanr(5, |_a, b| b),
        )
    }

    /// Permute combinations (one value per target, so each meets the default
    /// once) and index functions that differ in the order of their components.
    fn permutes(xs: &Vector<i32>, ds: &Vector<i32>, m: &Matrix<i32>, dm: &Matrix<i32>) -> (Vector<i32>, Vector<i32>, Matrix<i32>, Matrix<i32>) {
        (
            xs.permute(ds, |[i]| Some([i]), |a, b| a - b),
            xs.permute(ds, |[i]| Some([i]), |a, b| b - a),
            m.permute(dm, |[i, j]| Some([i, j]), |a, b| a + b),
            m.permute(dm, |[i, j]| Some([j, i]), |a, b| a + b),
        )
    }

    /// Index functions of generate and backpermute.
    fn indices(m: &Matrix<i32>) -> (Matrix<i32>, Matrix<i32>, Matrix<i32>, Matrix<i32>) {
        let [r, c] = m.shape();
        (
            generate([r, c], |[i, j]| (i * 10 + j) as i32),
            generate([r, c], |[i, j]| (j * 10 + i) as i32),
            m.backpermute([r, c], |[i, j]| [i, j]),
            m.backpermute([r, c], |[i, j]| [j, i]),
        )
    }
}

fn v(xs: &[i32]) -> Vector<i32> {
    Vector::from(xs.to_vec())
}

/// Components `i` and `j` of a tuple result.
fn parts(d: &Dyn) -> &[Dyn] {
    match d {
        Dyn::Tuple(xs) => xs,
        _ => panic!("not a tuple: {d:?}"),
    }
}

#[track_caller]
fn differ(name: &str, d: &Dyn, i: usize, j: usize) {
    let p = parts(d);
    assert_ne!(p[i], p[j], "`{name}`: results {i} and {j} should differ");
}

fn inputs(n: usize, seed: usize) -> Vec<i32> {
    (0..n).map(|i| (hash(i * 7 + seed) % 1000) as i32 - 500).collect()
}

#[test]
fn swapped_parameters_in_zips() {
    for n in [1usize, 2, 5, 100] {
        let (xs, ys, zs) = (inputs(n, 1), inputs(n, 2), inputs(n, 3));
        // Distinct somewhere, so that x - y != y - x.
        let (xs, ys) = (v(&xs), v(&ys.iter().map(|y| y | 1).collect::<Vec<_>>()));
        let xs = v(&xs.to_vec().iter().map(|x| x & !1).collect::<Vec<_>>());
        let zs = v(&zs);
        let r = check_ok(
            sub_both::SOURCE,
            "sub_both",
            &[arg(&xs), arg(&ys)],
            sub_both(&xs, &ys),
            EXACT,
        );
        differ("sub_both", &r, 0, 1);
        let (a, b) = sub_both(&xs, &ys).unwrap();
        let want: Vec<i32> = xs.to_vec().iter().zip(ys.to_vec()).map(|(x, y)| x - y).collect();
        assert_eq!(a.to_vec(), want);
        assert_eq!(b.to_vec(), want.iter().map(|d| -d).collect::<Vec<_>>());
        check_ok(
            sub_fused::SOURCE,
            "sub_fused",
            &[arg(&xs), arg(&ys)],
            sub_fused(&xs, &ys),
            EXACT,
        );
        assert_eq!(
            sub_fused(&xs, &ys).unwrap().to_vec(),
            want.iter().map(|d| 2 * d).collect::<Vec<_>>()
        );
        let args = [arg(&xs), arg(&ys), arg(&zs)];
        let want = |rot: usize| -> Vec<i32> {
            (0..n)
                .map(|i| {
                    let t = [xs.to_vec()[i], ys.to_vec()[i], zs.to_vec()[i]];
                    let [a, b, c] = [t[(3 - rot) % 3], t[(4 - rot) % 3], t[(5 - rot) % 3]];
                    a * 100 + b * 10 + c
                })
                .collect()
        };
        let r = check_ok(
            rotations::SOURCE,
            "rotations",
            &args,
            rotations(&xs, &ys, &zs),
            EXACT,
        );
        let (a, b, c) = rotations(&xs, &ys, &zs).unwrap();
        assert_eq!((a.to_vec(), b.to_vec(), c.to_vec()), (want(0), want(1), want(2)));
        let s = check_ok(
            rotations_call::SOURCE,
            "rotations_call",
            &args,
            rotations_call(&xs, &ys, &zs),
            EXACT,
        );
        assert_eq!(r, s);
        if n > 1 {
            for (i, j) in [(0, 1), (1, 2), (0, 2)] {
                differ("rotations", &r, i, j);
            }
        }
    }
}

#[test]
fn swapped_stencil_points() {
    for n in [3usize, 10, 100] {
        let xs = v(&inputs(n, 4));
        let r = check_ok(
            stencil_points::SOURCE,
            "stencil_points",
            &[arg(&xs)],
            stencil_points(&xs),
            EXACT,
        );
        for (i, j) in [(0, 1), (1, 2), (0, 2)] {
            differ("stencil_points", &r, i, j);
        }
        let (a, _, _) = stencil_points(&xs).unwrap();
        let x = xs.to_vec();
        let at = |i: isize| x[i.clamp(0, n as isize - 1) as usize];
        let want: Vec<i32> = (0..n as isize)
            .map(|i| at(i - 1) * 100 + at(i) * 10 + at(i + 1))
            .collect();
        assert_eq!(a.to_vec(), want);
    }
}

#[test]
fn swapped_parameters_in_folds_and_scans() {
    for (r, c) in [(1usize, 2usize), (3, 5), (4, 40), (2, 3000)] {
        let m = Matrix::from_fn([r, c], |[i, j]| {
            (hash(i * c + j) as u32 | 1, (hash(i * c + j + 1) % 1000) as u32)
        });
        let d = check_ok(folds::SOURCE, "folds", &[arg(&m)], folds(&m), EXACT);
        differ("folds", &d, 0, 1);
        differ("folds", &d, 2, 3);
        let (first, last, _, _) = folds(&m).unwrap();
        let rows: Vec<Vec<(u32, u32)>> = (0..r).map(|i| m.to_vec()[i * c..(i + 1) * c].to_vec()).collect();
        assert_eq!(first.to_vec(), rows.iter().map(|row| row[0]).collect::<Vec<_>>());
        assert_eq!(
            last.to_vec(),
            rows.iter().map(|row| row[c - 1]).collect::<Vec<_>>()
        );
    }
    for n in [2usize, 7, 100, 5000] {
        let xs = v(&inputs(n, 5));
        let d = check_ok(scans::SOURCE, "scans", &[arg(&xs)], scans(&xs), EXACT);
        differ("scans", &d, 0, 1);
        differ("scans", &d, 2, 3);
        let (firsts, lasts, own, z) = scans(&xs).unwrap();
        assert_eq!(firsts.to_vec(), vec![xs.to_vec()[0]; n]);
        assert_eq!(lasts.to_vec(), xs.to_vec());
        // scanr: element i is f(x_i, f(.., f(x_(n-1), 5))).
        assert_eq!(own.to_vec(), [xs.to_vec(), vec![5]].concat());
        assert_eq!(z.to_vec(), vec![5; n + 1]);
    }
}

#[test]
fn swapped_parameters_in_permutes_and_indices() {
    for n in [2usize, 5, 60] {
        let xs = v(&inputs(n, 6));
        let ds = v(&inputs(n, 7).iter().map(|d| d * 3 + 1).collect::<Vec<_>>());
        let m = Matrix::from_fn([n, n], |[i, j]| (i * 1000 + j) as i32);
        let dm = Matrix::from_fn([n, n], |[i, j]| (i + j) as i32);
        let args = [arg(&xs), arg(&ds), arg(&m), arg(&dm)];
        let d = check_ok(
            permutes::SOURCE,
            "permutes",
            &args,
            permutes(&xs, &ds, &m, &dm),
            EXACT,
        );
        differ("permutes", &d, 0, 1);
        differ("permutes", &d, 2, 3);
        let (a, b, _, _) = permutes(&xs, &ds, &m, &dm).unwrap();
        // Each target meets its default once, in some order: a - b or b - a,
        // the two programs opposite.
        for i in 0..n {
            let (x, dflt) = (xs.to_vec()[i], ds.to_vec()[i]);
            assert!(a.to_vec()[i] == x - dflt || a.to_vec()[i] == dflt - x);
            assert_eq!(a.to_vec()[i], -b.to_vec()[i]);
        }
        let d = check_ok(indices::SOURCE, "indices", &[arg(&m)], indices(&m), EXACT);
        differ("indices", &d, 0, 1);
        differ("indices", &d, 2, 3);
    }
}

// ---- the fused stencil boundary rule --------------------------------------

accel! {
    /// Stencils of a map (the map is tapped by `stencil_tap`), with a map
    /// after them: one kernel each. Weights are powers of two so that a wrong
    /// neighbour shows.
    fn tap_clamp(xs: &Vector<i64>) -> Vector<i64> {
        xs.map(|x| x * 3 + 1).stencil(Boundary::Clamp, |[a, b, c, d, e]| a + 2 * b + 4 * c + 8 * d + 16 * e).map(|y| y * 5 - 2)
    }
    fn tap_mirror(xs: &Vector<i64>) -> Vector<i64> {
        xs.map(|x| x * 3 + 1).stencil(Boundary::Mirror, |[a, b, c, d, e]| a + 2 * b + 4 * c + 8 * d + 16 * e).map(|y| y * 5 - 2)
    }
    fn tap_wrap(xs: &Vector<i64>) -> Vector<i64> {
        xs.map(|x| x * 3 + 1).stencil(Boundary::Wrap, |[a, b, c, d, e]| a + 2 * b + 4 * c + 8 * d + 16 * e).map(|y| y * 5 - 2)
    }
    fn tap_const(xs: &Vector<i64>) -> Vector<i64> {
        xs.map(|x| x * 3 + 1).stencil(Boundary::Constant(-7), |[a, b, c, d, e]| a + 2 * b + 4 * c + 8 * d + 16 * e).map(|y| y * 5 - 2)
    }
    /// Rank 2: a 3 x 3 stencil of a map, then a map.
    fn tap2_clamp(m: &Matrix<i64>) -> Matrix<i64> {
        m.map(|x| x - 4).stencil(Boundary::Clamp, |[[a, b, c], [d, e, f], [g, h, i]]| a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h + 256 * i).map(|y| y * 3)
    }
    fn tap2_mirror(m: &Matrix<i64>) -> Matrix<i64> {
        m.map(|x| x - 4).stencil(Boundary::Mirror, |[[a, b, c], [d, e, f], [g, h, i]]| a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h + 256 * i).map(|y| y * 3)
    }
    fn tap2_wrap(m: &Matrix<i64>) -> Matrix<i64> {
        m.map(|x| x - 4).stencil(Boundary::Wrap, |[[a, b, c], [d, e, f], [g, h, i]]| a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h + 256 * i).map(|y| y * 3)
    }
    fn tap2_const(m: &Matrix<i64>) -> Matrix<i64> {
        m.map(|x| x - 4).stencil(Boundary::Constant(11), |[[a, b, c], [d, e, f], [g, h, i]]| a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h + 256 * i).map(|y| y * 3)
    }
}

#[derive(Clone, Copy, Debug)]
enum B {
    Clamp,
    Mirror,
    Wrap,
    Const(i64),
}

/// The boundary rule of docs/language.md, applied until the coordinate is
/// inside (`None`: the constant).
fn coord(b: B, i: isize, n: isize) -> Option<usize> {
    let mut i = i;
    loop {
        if (0..n).contains(&i) {
            return Some(i as usize);
        }
        i = match b {
            B::Clamp => i.clamp(0, n - 1),
            B::Mirror if n == 1 => 0,
            B::Mirror if i < 0 => -i,
            B::Mirror => n - (i - n + 2),
            B::Wrap if i < 0 => n + i,
            B::Wrap => i - n,
            B::Const(_) => return None,
        };
    }
}

/// Plain-Rust reference of the rank-`dims.len()` tap programs.
fn tap_ref(
    xs: &[i64],
    dims: &[usize],
    b: B,
    pre: impl Fn(i64) -> i64,
    post: impl Fn(i64) -> i64,
) -> Vec<i64> {
    let total: usize = dims.iter().product();
    let rank = dims.len();
    (0..total)
        .map(|flat| {
            let mut ix = vec![0isize; rank];
            let mut rest = flat;
            for k in (0..rank).rev() {
                ix[k] = (rest % dims[k]) as isize;
                rest /= dims[k];
            }
            let radius: isize = if rank == 1 { 2 } else { 1 };
            let width = (2 * radius + 1) as usize;
            let mut acc = 0i64;
            for p in 0..width.pow(rank as u32) {
                // Offsets in row-major order of the pattern.
                let mut off = vec![0isize; rank];
                let mut q = p;
                for k in (0..rank).rev() {
                    off[k] = (q % width) as isize - radius;
                    q /= width;
                }
                let mut at = 0usize;
                let mut outside = false;
                for k in 0..rank {
                    match coord(b, ix[k] + off[k], dims[k] as isize) {
                        Some(c) => at = at * dims[k] + c,
                        None => outside = true,
                    }
                }
                let value = match (outside, b) {
                    (true, B::Const(c)) => c,
                    _ => pre(xs[at]),
                };
                acc += value << p;
            }
            post(acc)
        })
        .collect()
}

fn fused_to_one_kernel(source: &str, name: &str) {
    let (_, plan) = accel_core::compile_source(source, name).expect("compiles");
    assert_eq!(
        plan.kernels().count(),
        1,
        "`{name}`: the map should be tapped by the stencil, the map after it fused:\n{}",
        plan.explain()
    );
}

type Tap1 = fn(&Vector<i64>) -> accel::Result<Vector<i64>>;
type Tap2 = fn(&Matrix<i64>) -> accel::Result<Matrix<i64>>;

#[test]
fn fused_stencil_boundaries_1d() {
    let progs: [(&str, &str, Tap1, B); 4] = [
        (tap_clamp::SOURCE, "tap_clamp", tap_clamp, B::Clamp),
        (tap_mirror::SOURCE, "tap_mirror", tap_mirror, B::Mirror),
        (tap_wrap::SOURCE, "tap_wrap", tap_wrap, B::Wrap),
        (tap_const::SOURCE, "tap_const", tap_const, B::Const(-7)),
    ];
    for (src, name, f, b) in progs {
        fused_to_one_kernel(src, name);
        for n in [0usize, 1, 2, 3, 4, 5, 101, 16_385, 40_000] {
            let x: Vec<i64> = (0..n).map(|i| (hash(i + 31) % 1000) as i64 - 500).collect();
            let xs = Vector::from(x.clone());
            check_pools_ok(src, name, &[arg(&xs)], || f(&xs), EXACT);
            let want = tap_ref(&x, &[n], b, |x| x * 3 + 1, |y| y * 5 - 2);
            assert_eq!(f(&xs).unwrap().to_vec(), want, "`{name}`, n = {n}");
        }
    }
}

#[test]
fn fused_stencil_boundaries_2d() {
    let progs: [(&str, &str, Tap2, B); 4] = [
        (tap2_clamp::SOURCE, "tap2_clamp", tap2_clamp, B::Clamp),
        (tap2_mirror::SOURCE, "tap2_mirror", tap2_mirror, B::Mirror),
        (tap2_wrap::SOURCE, "tap2_wrap", tap2_wrap, B::Wrap),
        (tap2_const::SOURCE, "tap2_const", tap2_const, B::Const(11)),
    ];
    let shapes = [
        (0usize, 0usize),
        (0, 3),
        (3, 0),
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 3),
        (3, 3),
        (1, 101),
        (101, 2),
        (2, 16_385),
        (130, 130),
    ];
    for (src, name, f, b) in progs {
        fused_to_one_kernel(src, name);
        for (r, c) in shapes {
            let x: Vec<i64> = (0..r * c).map(|i| (hash(i + 77) % 1000) as i64 - 500).collect();
            let m = Matrix::from_vec([r, c], x.clone()).unwrap();
            check_pools_ok(src, name, &[arg(&m)], || f(&m), EXACT);
            let want = tap_ref(&x, &[r, c], b, |x| x - 4, |y| y * 3);
            assert_eq!(f(&m).unwrap().to_vec(), want, "`{name}`, shape {r} x {c}");
        }
    }
}
