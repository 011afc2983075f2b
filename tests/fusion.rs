//! Sharing recovery and fusion on the Accelerate paper's programs: how many
//! kernels and arrays each plan has, that shared scalar work is evaluated once,
//! and that the builds without fusion and without sharing compute the same
//! results as the fused one (all three against the interpreter, on random
//! inputs of awkward sizes).

mod common;

use accel::prelude::*;
use accel::ErrorKind;
use accel_core::ir::{Expr, MathFn, Scalar};
use accel_core::plan::horizontal::Clustering;
use accel_core::{Options, Plan};
use common::*;

const NO_FUSION: Options = Options {
    fusion: false,
    sharing: true,
    maps_after_consumers: true,
    expand_fusion: true,
    clustering: Clustering::Optimal,
};
const NO_SHARING: Options = Options {
    fusion: true,
    sharing: false,
    maps_after_consumers: true,
    expand_fusion: true,
    clustering: Clustering::Optimal,
};

fn plan(source: &str, name: &str, opts: Options) -> Plan {
    match accel_core::compile_source_with(source, name, opts) {
        Ok((_, p)) => p,
        Err(e) => panic!("`{name}` does not compile: {}", e.message),
    }
}

/// (kernels, materialised arrays) of the plan.
fn shape_of(p: &Plan) -> (usize, usize) {
    (p.kernels().count(), p.materialised().count())
}

fn math(f: MathFn) -> impl Fn(&Expr) -> bool {
    move |e| matches!(e, Expr::Scalar(Scalar::Math(g, _)) if *g == f)
}

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

const SIZES: [usize; 6] = [0, 1, 2, 31, 1000, 16_385];

fn floats(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (hash(i * 7 + seed) % 2000) as f32 / 100.0 - 10.0)
        .collect()
}

mod dot {
    use super::*;
    variants! {
        pub fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
            xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
        }
    }
}

#[test]
fn dot_product() {
    use dot::*;
    let src = fused::dotp::SOURCE;
    assert_eq!(
        shape_of(&plan(src, "dotp", Options::default())),
        (1, 1),
        "{}",
        fused::dotp::explain()
    );
    assert_eq!(
        shape_of(&plan(src, "dotp", NO_FUSION)),
        (2, 2),
        "{}",
        no_fusion::dotp::explain()
    );
    for n in SIZES {
        let xs = Vector::from(floats(n, 1));
        let ys = Vector::from(floats(n, 2));
        let args = [arg(&xs), arg(&ys)];
        let f = fused::dotp(&xs, &ys);
        let a = no_fusion::dotp(&xs, &ys);
        let b = no_sharing::dotp(&xs, &ys);
        check(src, "dotp", &args, f, F32_TOL).unwrap();
        check(src, "dotp", &args, a, F32_TOL).unwrap();
        check(src, "dotp", &args, b, F32_TOL).unwrap();
    }
}

mod bs {
    use super::*;
    variants! {
        fn cnd(d: f32) -> f32 {
            let k = 1.0 / (1.0 + 0.2316419 * d.abs());
            let poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
            let w = 0.3989422804 * (-0.5 * d * d).exp() * poly;
            if d > 0.0 { 1.0 - w } else { w }
        }
        pub fn black_scholes(opts: &Vector<(f32, f32, f32)>, r: f32, v: f32) -> Vector<(f32, f32)> {
            opts.map(|(price, strike, years)| {
                let v_sqrt_t = v * years.sqrt();
                let d1 = ((price / strike).ln() + (r + 0.5 * v * v) * years) / v_sqrt_t;
                let d2 = d1 - v_sqrt_t;
                let cnd_d1 = cnd(d1);
                let cnd_d2 = cnd(d2);
                let x_exp_rt = strike * (-r * years).exp();
                (price * cnd_d1 - x_exp_rt * cnd_d2, x_exp_rt * (1.0 - cnd_d2) - price * (1.0 - cnd_d1))
            })
        }
    }
}

/// Black-Scholes with its shared `let`s: one kernel, and each `exp`, `ln` and
/// `sqrt` of the source evaluated once per option; without sharing recovery
/// the `let`s are written out at their uses and the work is repeated.
#[test]
fn black_scholes() {
    use bs::*;
    let src = fused::black_scholes::SOURCE;
    let shared = plan(src, "black_scholes", Options::default());
    assert_eq!(shape_of(&shared), (1, 1), "{}", fused::black_scholes::explain());
    assert_eq!(shared.evaluations(math(MathFn::Exp)), 3);
    assert_eq!(shared.evaluations(math(MathFn::Ln)), 1);
    assert_eq!(shared.evaluations(math(MathFn::Sqrt)), 1);
    let unshared = plan(src, "black_scholes", NO_SHARING);
    assert_eq!(shape_of(&unshared), (1, 1));
    let (exp, ln) = (
        unshared.evaluations(math(MathFn::Exp)),
        unshared.evaluations(math(MathFn::Ln)),
    );
    assert!(
        exp >= 6 && ln >= 4,
        "without sharing: {exp} exp, {ln} ln per option"
    );
    for n in SIZES {
        let opts: Vector<(f32, f32, f32)> = (0..n)
            .map(|i| {
                let h = hash(i);
                (
                    5.0 + (h % 2500) as f32 / 100.0,
                    1.0 + (h >> 16) as f32 % 100.0,
                    0.25 + ((h >> 32) % 1000) as f32 / 100.0,
                )
            })
            .collect();
        let args = [arg(&opts), arg(0.02f32), arg(0.30f32)];
        check(
            src,
            "black_scholes",
            &args,
            fused::black_scholes(&opts, 0.02, 0.30),
            F32_TOL,
        )
        .unwrap();
        check(
            src,
            "black_scholes",
            &args,
            no_fusion::black_scholes(&opts, 0.02, 0.30),
            F32_TOL,
        )
        .unwrap();
        check(
            src,
            "black_scholes",
            &args,
            no_sharing::black_scholes(&opts, 0.02, 0.30),
            F32_TOL,
        )
        .unwrap();
    }
}

mod small {
    use super::*;
    variants! {
        /// The paper's reverseMap: the shape-only uses of `a` do not stop fusion.
        pub fn reverse_map(a: &Vector<f32>) -> Vector<f32> {
            a.backpermute(a.shape(), |[i]| [a.len() - 1 - i]).map(|x| x * 2.0 + 1.0)
        }
        /// `map g (let xs = use .. in zip_with f xs xs)`.
        pub fn zip_self(xs: &Vector<f32>) -> Vector<f32> {
            let ys = xs;
            ys.zip_with(ys, |a, b| a * b).map(|x| x - 1.0)
        }
        /// `map f (let a0 = xs in zip_with g a0 (map h a0))` (the paper's let-floating).
        pub fn let_float(xs: &Vector<f32>) -> Vector<f32> {
            let a0 = xs;
            a0.zip_with(&a0.map(|x| x * 3.0), |a, b| a + b).map(|x| x / 2.0)
        }
        /// Figure 3: p1 is used by a consumer (the sum) and by a producer (the
        /// zip): it is computed once, everything else is fused.
        pub fn figure3(xs: &Vector<f32>, ys: &Vector<f32>) -> (Scalar<f32>, Vector<f32>) {
            let p1 = xs.map(|x| x.sin());
            let c1 = p1.sum();
            let p2 = p1.zip_with(ys, |a, b| a * b);
            (c1, p2.map(|x| x + 1.0))
        }
        /// The same operation written twice (and a helper inlined twice) is one.
        pub fn twice(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>) {
            (xs.map(|x| x.cos() + 1.0).sum(), xs.map(|y| y.cos() + 1.0).sum())
        }
        fn helper(xs: &Vector<f32>) -> Vector<f32> {
            xs.map(|x| x.cos() * 2.0)
        }
        pub fn helper_twice(xs: &Vector<f32>) -> Vector<f32> {
            helper(xs).zip_with(&helper(xs), |a, b| a - b)
        }
        /// A reversal used twice is recomputed (index arithmetic), not stored.
        pub fn reversed_twice(xs: &Vector<f32>) -> Vector<f32> {
            let r = xs.reverse();
            r.zip_with(&r.map(|x| x * 2.0), |a, b| a + b)
        }
    }
}

#[test]
fn small_programs() {
    use small::*;
    let cases: [(&str, &str, (usize, usize)); 7] = [
        (fused::reverse_map::SOURCE, "reverse_map", (1, 1)),
        (fused::zip_self::SOURCE, "zip_self", (1, 1)),
        (fused::let_float::SOURCE, "let_float", (1, 1)),
        // p1 with the sum in its pass (`pass_folds`), and the result.
        (fused::figure3::SOURCE, "figure3", (2, 3)),
        (fused::twice::SOURCE, "twice", (1, 1)),
        // The two helper calls are one array, used twice by one kernel at
        // its own element: computed there once per element, not stored.
        (fused::helper_twice::SOURCE, "helper_twice", (1, 1)),
        (fused::reversed_twice::SOURCE, "reversed_twice", (1, 1)),
    ];
    for (src, name, want) in cases {
        let p = plan(src, name, Options::default());
        assert_eq!(shape_of(&p), want, "`{name}`:\n{}", p.explain());
    }
    let f3 = plan(fused::figure3::SOURCE, "figure3", Options::default());
    assert_eq!(
        f3.evaluations(math(MathFn::Sin)),
        1,
        "p1 is computed once per element"
    );
    let tw = plan(fused::twice::SOURCE, "twice", Options::default());
    assert_eq!(tw.evaluations(math(MathFn::Cos)), 1, "the two sums are one");
    let ht = plan(fused::helper_twice::SOURCE, "helper_twice", Options::default());
    assert_eq!(
        ht.evaluations(math(MathFn::Cos)),
        1,
        "the helper's array is computed once per element"
    );
    let tw = plan(fused::twice::SOURCE, "twice", NO_SHARING);
    assert_eq!(
        tw.evaluations(math(MathFn::Cos)),
        2,
        "without sharing both are computed"
    );
    // Without fusion, every operation is a kernel.
    assert_eq!(
        shape_of(&plan(fused::reverse_map::SOURCE, "reverse_map", NO_FUSION)),
        (2, 2)
    );

    for n in SIZES {
        let xs = Vector::from(floats(n, 3));
        let ys = Vector::from(floats(n, 4));
        let a1 = [arg(&xs)];
        let a2 = [arg(&xs), arg(&ys)];
        macro_rules! all3 {
            ($name:ident, $args:expr, $($x:expr),*) => {
                let src = fused::$name::SOURCE;
                let name = stringify!($name);
                check(src, name, $args, fused::$name($($x),*), F32_TOL).unwrap();
                check(src, name, $args, no_fusion::$name($($x),*), F32_TOL).unwrap();
                check(src, name, $args, no_sharing::$name($($x),*), F32_TOL).unwrap();
            };
        }
        if n > 0 {
            all3!(reverse_map, &a1, &xs);
        }
        all3!(zip_self, &a1, &xs);
        all3!(let_float, &a1, &xs);
        all3!(figure3, &a2, &xs, &ys);
        all3!(twice, &a1, &xs);
        all3!(helper_twice, &a1, &xs);
        all3!(reversed_twice, &a1, &xs);
    }
}

mod spmv {
    use super::*;
    variants! {
        /// Sparse matrix × dense vector, CSR: row `r` holds `vals[k]` at column
        /// `cols[k]` for `k` in `offsets[r]..offsets[r + 1]`.
        pub fn spmv(vals: &Vector<f32>, cols: &Vector<usize>, offsets: &Vector<usize>, x: &Vector<f32>) -> Vector<f32> {
            vals.zip_with(cols, |v, c| v * x[[c]]).fold_seg_offsets(offsets, 0.0, |a, b| a + b)
        }
    }
}

/// CSR sparse matrix-vector product: one segmented reduction, the products
/// computed where the reduction reads them.
#[test]
fn sparse_matrix_vector() {
    use spmv::*;
    let src = fused::spmv::SOURCE;
    let p = plan(src, "spmv", Options::default());
    assert_eq!(shape_of(&p), (1, 1), "{}", p.explain());
    for (rows, cols_n) in [(0usize, 0usize), (1, 1), (5, 3), (300, 200), (2000, 5000)] {
        let mut offsets = vec![0usize];
        let mut cols = Vec::new();
        for r in 0..rows {
            // Power-law-ish rows, some empty.
            let len = if cols_n == 0 {
                0
            } else {
                (hash(r) % 8) as usize * (1 + (r % 5 == 0) as usize * 6)
            };
            for k in 0..len {
                cols.push((hash(r * 31 + k) % cols_n as u64) as usize);
            }
            offsets.push(cols.len());
        }
        let vals = Vector::from(floats(cols.len(), 5));
        let x = Vector::from(floats(cols_n, 6));
        let (cols, offsets) = (Vector::from(cols), Vector::from(offsets));
        let args = [arg(&vals), arg(&cols), arg(&offsets), arg(&x)];
        check(
            src,
            "spmv",
            &args,
            fused::spmv(&vals, &cols, &offsets, &x),
            F32_TOL,
        )
        .unwrap();
        check(
            src,
            "spmv",
            &args,
            no_fusion::spmv(&vals, &cols, &offsets, &x),
            F32_TOL,
        )
        .unwrap();
        check(
            src,
            "spmv",
            &args,
            no_sharing::spmv(&vals, &cols, &offsets, &x),
            F32_TOL,
        )
        .unwrap();
    }
}

mod nbody {
    use super::*;
    variants! {
        /// The acceleration on each body from all the others: an n × n delayed
        /// array of pair forces, reduced along its rows.
        pub fn accelerations(xs: &Vector<f32>, ys: &Vector<f32>, ms: &Vector<f32>) -> Vector<(f32, f32)> {
            let n = xs.len();
            let pair = generate([n, n], |[i, j]| {
                let dx = xs[[j]] - xs[[i]];
                let dy = ys[[j]] - ys[[i]];
                let d2 = dx * dx + dy * dy + 0.01;
                let s = ms[[j]] / (d2 * d2.sqrt());
                (dx * s, dy * s)
            });
            pair.fold((0.0, 0.0), |(ax, ay), (bx, by)| (ax + bx, ay + by))
        }
    }
}

/// n-body: no n × n array is ever materialised (every buffer is a vector),
/// and the forces are computed and reduced in one kernel.
#[test]
fn n_body_stays_linear() {
    use nbody::*;
    let src = fused::accelerations::SOURCE;
    assert_eq!(shape_of(&plan(src, "accelerations", Options::default())), (1, 1));
    for opts in [Options::default(), NO_SHARING] {
        let p = plan(src, "accelerations", opts);
        for (b, buf) in p.materialised() {
            assert!(buf.rank <= 1, "b{} has rank {}:\n{}", b.0, buf.rank, p.explain());
        }
    }
    for n in [0usize, 1, 2, 33, 300] {
        let xs = Vector::from(floats(n, 7));
        let ys = Vector::from(floats(n, 8));
        let ms: Vector<f32> = (0..n).map(|i| 1.0 + (hash(i) % 10) as f32).collect();
        let args = [arg(&xs), arg(&ys), arg(&ms)];
        check(
            src,
            "accelerations",
            &args,
            fused::accelerations(&xs, &ys, &ms),
            1e-3,
        )
        .unwrap();
        check(
            src,
            "accelerations",
            &args,
            no_sharing::accelerations(&xs, &ys, &ms),
            1e-3,
        )
        .unwrap();
    }
}

mod mandel {
    use super::*;
    variants! {
        fn step(z: (f32, f32), c: (f32, f32)) -> (f32, f32) {
            let (x, y) = z;
            if x * x + y * y > 4.0 { z } else { (x * x - y * y + c.0, 2.0 * x * y + c.1) }
        }
        /// Mandelbrot with its iteration unrolled 8 times in the array program.
        pub fn mandelbrot8(cs: &Vector<(f32, f32)>) -> Vector<f32> {
            let z1 = cs.zip_with(cs, |z, c| step(z, c));
            let z2 = z1.zip_with(cs, |z, c| step(z, c));
            let z3 = z2.zip_with(cs, |z, c| step(z, c));
            let z4 = z3.zip_with(cs, |z, c| step(z, c));
            let z5 = z4.zip_with(cs, |z, c| step(z, c));
            let z6 = z5.zip_with(cs, |z, c| step(z, c));
            let z7 = z6.zip_with(cs, |z, c| step(z, c));
            let z8 = z7.zip_with(cs, |z, c| step(z, c));
            z8.map(|(x, y)| x * x + y * y)
        }
    }
}

#[test]
fn mandelbrot_unrolled_is_one_kernel() {
    use mandel::*;
    let src = fused::mandelbrot8::SOURCE;
    let p = plan(src, "mandelbrot8", Options::default());
    assert_eq!(shape_of(&p), (1, 1), "{}", p.explain());
    assert_eq!(shape_of(&plan(src, "mandelbrot8", NO_FUSION)), (9, 9));
    for n in SIZES {
        let cs: Vector<(f32, f32)> = (0..n)
            .map(|i| {
                (
                    (hash(i) % 300) as f32 / 100.0 - 2.0,
                    (hash(i + 9) % 300) as f32 / 100.0 - 1.5,
                )
            })
            .collect();
        let args = [arg(&cs)];
        check(src, "mandelbrot8", &args, fused::mandelbrot8(&cs), F32_TOL).unwrap();
        check(src, "mandelbrot8", &args, no_fusion::mandelbrot8(&cs), F32_TOL).unwrap();
        check(src, "mandelbrot8", &args, no_sharing::mandelbrot8(&cs), F32_TOL).unwrap();
    }
}

mod after_fold {
    use super::*;
    variants! {
        /// Row sums, then two maps (one changing the type): one kernel.
        pub fn row_norms(m: &Matrix<f32>) -> Vector<bool> {
            m.map(|x| x * x).fold(0.0, |a, b| a + b).map(|s| s.sqrt()).map(|r| r > 10.0)
        }
        pub fn row_max(m: &Matrix<i32>) -> Vector<i64> {
            m.fold1(|a, b| a.max(b)).map(|x| x as i64 * 2)
        }
        pub fn total(xs: &Vector<f32>) -> Scalar<f32> {
            xs.sum().map(|s| s / 2.0)
        }
        /// Scans followed by maps (the type changes): one kernel each.
        pub fn scan_map(xs: &Vector<i32>) -> Vector<f64> {
            xs.scanl(0, |a, b| a.wrapping_add(b)).map(|s| s as f64 * 0.5)
        }
        pub fn scanr1_map(m: &Matrix<f32>) -> Matrix<bool> {
            m.scanr1(|a, b| a.max(b)).map(|x| x > 0.0)
        }
        /// The fold's result is used twice: it is stored, and the maps are not fused.
        pub fn used_twice(m: &Matrix<f32>) -> Vector<f32> {
            let s = m.fold(0.0, |a, b| a + b);
            s.zip_with(&s.map(|x| x + 1.0), |a, b| a * b)
        }
    }
}

/// A consumer fused into the producers that follow it (beyond the paper): maps
/// after folds and after scans.
#[test]
fn maps_after_a_fold() {
    use after_fold::*;
    for (src, name, want) in [
        (fused::row_norms::SOURCE, "row_norms", (1, 1)),
        (fused::row_max::SOURCE, "row_max", (1, 1)),
        (fused::total::SOURCE, "total", (1, 1)),
        (fused::used_twice::SOURCE, "used_twice", (2, 2)),
        (fused::scan_map::SOURCE, "scan_map", (1, 1)),
        (fused::scanr1_map::SOURCE, "scanr1_map", (1, 1)),
    ] {
        let p = plan(src, name, Options::default());
        assert_eq!(shape_of(&p), want, "`{name}`:\n{}", p.explain());
    }
    for (r, c) in [
        (0usize, 0usize),
        (0, 3),
        (3, 0),
        (1, 1),
        (7, 33),
        (300, 70),
        (2, 20_000),
    ] {
        let m = Matrix::from_vec([r, c], floats(r * c, 9)).unwrap();
        let mi = Matrix::from_vec([r, c], (0..r * c).map(|i| hash(i) as i32).collect()).unwrap();
        let a = [arg(&m)];
        let ai = [arg(&mi)];
        check(
            fused::row_norms::SOURCE,
            "row_norms",
            &a,
            fused::row_norms(&m),
            F32_TOL,
        )
        .unwrap();
        check(
            fused::row_norms::SOURCE,
            "row_norms",
            &a,
            no_fusion::row_norms(&m),
            F32_TOL,
        )
        .unwrap();
        // fold1 over rows of no columns has no neutral element.
        if r > 0 && c == 0 {
            let e = ErrorKind::EmptyReduction;
            check_err(
                fused::row_max::SOURCE,
                "row_max",
                &ai,
                fused::row_max(&mi),
                e.clone(),
            );
            check_err(fused::row_max::SOURCE, "row_max", &ai, no_fusion::row_max(&mi), e);
        } else {
            check_ok(fused::row_max::SOURCE, "row_max", &ai, fused::row_max(&mi), EXACT);
            check_ok(
                fused::row_max::SOURCE,
                "row_max",
                &ai,
                no_fusion::row_max(&mi),
                EXACT,
            );
        }
        check(
            fused::used_twice::SOURCE,
            "used_twice",
            &a,
            fused::used_twice(&m),
            F32_TOL,
        )
        .unwrap();
        check(
            fused::scanr1_map::SOURCE,
            "scanr1_map",
            &a,
            fused::scanr1_map(&m),
            EXACT,
        )
        .unwrap();
        check(
            fused::scanr1_map::SOURCE,
            "scanr1_map",
            &a,
            no_fusion::scanr1_map(&m),
            EXACT,
        )
        .unwrap();
    }
    for n in SIZES {
        let xs = Vector::from(floats(n, 10));
        let a = [arg(&xs)];
        check(fused::total::SOURCE, "total", &a, fused::total(&xs), F32_TOL).unwrap();
        check(fused::total::SOURCE, "total", &a, no_sharing::total(&xs), F32_TOL).unwrap();
        let xi: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
        let ai = [arg(&xi)];
        check(
            fused::scan_map::SOURCE,
            "scan_map",
            &ai,
            fused::scan_map(&xi),
            EXACT,
        )
        .unwrap();
        check(
            fused::scan_map::SOURCE,
            "scan_map",
            &ai,
            no_fusion::scan_map(&xi),
            EXACT,
        )
        .unwrap();
    }
}

mod stencils {
    use super::*;
    variants! {
        /// Index arithmetic (a reversal, a transpose) before a stencil is computed
        /// at each tap; floating-point work before one is stored once.
        pub fn rev_clamp(xs: &Vector<i32>) -> Vector<i32> {
            xs.reverse().stencil(Boundary::Clamp, |[a, b, c]| a * 100 + b * 10 + c)
        }
        pub fn rev_mirror(xs: &Vector<i32>) -> Vector<i32> {
            xs.reverse().stencil(Boundary::Mirror, |[a, b, c, d, e]| a * 10000 + b * 1000 + c * 100 + d * 10 + e)
        }
        pub fn rev_wrap(xs: &Vector<i32>) -> Vector<i32> {
            xs.reverse().stencil(Boundary::Wrap, |[a, b, c, d, e]| a * 10000 + b * 1000 + c * 100 + d * 10 + e)
        }
        pub fn t_constant(m: &Matrix<i32>) -> Matrix<i32> {
            m.transpose().stencil(Boundary::Constant(-1), |[[a, _, c], [_, e, _], [g, _, i]]| a + 3 * c + 5 * e + 7 * g + 11 * i)
        }
        pub fn t_mirror2(m: &Matrix<i32>, n: &Matrix<i32>) -> Matrix<i32> {
            m.transpose().stencil2(Boundary::Mirror, n, Boundary::Wrap, |[[_, b, _], [d, e, f], [_, h, _]], [[_, x, _], [_, y, _], [_, z, _]]| b + 2 * d + 3 * e + 4 * f + 5 * h + 7 * x + 11 * y + 13 * z)
        }
        pub fn scaled(xs: &Vector<f32>) -> Vector<f32> {
            xs.map(|x| x * 2.0).stencil(Boundary::Clamp, |[a, b, c]| a + b + c)
        }
    }
}

#[test]
fn stencil_inputs() {
    use stencils::*;
    for (src, name, want) in [
        (fused::rev_clamp::SOURCE, "rev_clamp", (1, 1)),
        (fused::rev_mirror::SOURCE, "rev_mirror", (1, 1)),
        (fused::t_constant::SOURCE, "t_constant", (1, 1)),
        (fused::t_mirror2::SOURCE, "t_mirror2", (1, 1)),
        // The doubled values are stored: three taps would compute them thrice.
        (fused::scaled::SOURCE, "scaled", (2, 2)),
    ] {
        let p = plan(src, name, Options::default());
        assert_eq!(shape_of(&p), want, "`{name}`:\n{}", p.explain());
    }
    for n in [0usize, 1, 2, 3, 4, 7, 100] {
        let xs: Vector<i32> = (0..n).map(|i| (hash(i) % 10) as i32).collect();
        let a = [arg(&xs)];
        macro_rules! all3 {
            ($name:ident, $args:expr, $($x:expr),*) => {
                let src = fused::$name::SOURCE;
                let name = stringify!($name);
                check(src, name, $args, fused::$name($($x),*), EXACT).unwrap();
                check(src, name, $args, no_fusion::$name($($x),*), EXACT).unwrap();
                check(src, name, $args, no_sharing::$name($($x),*), EXACT).unwrap();
            };
        }
        all3!(rev_clamp, &a, &xs);
        all3!(rev_mirror, &a, &xs);
        all3!(rev_wrap, &a, &xs);
        let fs = Vector::from(floats(n, 11));
        check(
            fused::scaled::SOURCE,
            "scaled",
            &[arg(&fs)],
            fused::scaled(&fs),
            F32_TOL,
        )
        .unwrap();
        for c in [1usize, 2, 5] {
            let m = Matrix::from_vec(
                [n.min(9), c],
                (0..n.min(9) * c).map(|i| (hash(i) % 10) as i32).collect(),
            )
            .unwrap();
            let k = Matrix::from_vec(
                [c, n.min(9)],
                (0..n.min(9) * c).map(|i| (hash(i + 5) % 10) as i32).collect(),
            )
            .unwrap();
            let am = [arg(&m)];
            let amk = [arg(&m), arg(&k)];
            all3!(t_constant, &am, &m);
            all3!(t_mirror2, &amk, &m, &k);
        }
    }
}

/// Horizontal fusion (`accel_core::plan::horizontal`): siblings that read an
/// input in common over the same space become one kernel with an output each.
mod siblings {
    use super::*;
    variants! {
        pub fn stats(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>, Scalar<f32>) {
            (xs.sum(), xs.minimum(), xs.maximum())
        }
        pub fn standardise(xs: &Vector<f64>) -> Vector<f64> {
            let n = xs.len() as f64;
            let mean = xs.sum().value() / n;
            let var = xs.map(|x| x * x).sum().value() / n - mean * mean;
            let sd = var.sqrt();
            xs.map(|x| (x - mean) / sd)
        }
        // The thesis's example: `{ys1, ys2}` one kernel, and the fold of
        // `xs` beside the scan.
        pub fn normalise2(xs: &Vector<i64>) -> (Vector<i64>, Vector<i64>) {
            let sum1 = xs.sum();
            let scn = xs.scanl(0, |a, b| a + b);
            let sum2 = scn.sum();
            let ys1 = xs.map(|x| x / sum1.value());
            let ys2 = xs.map(|x| x / sum2.value());
            (ys1, ys2)
        }
        // Rows: an initial value that is not neutral beside a `fold1`, and a
        // tuple fold (argmin) beside a plain one.
        pub fn row_stats(m: &Matrix<i32>) -> (Vector<i32>, Vector<i32>, Vector<(i32, usize)>) {
            let s = m.fold(10, |a, b| a + b);
            let mx = m.maximum();
            let am = m.indexed().map(|((_, j), x)| (x, j)).fold1(|a, b| if b.0 < a.0 { b } else { a });
            (s, mx, am)
        }
        // One map by offset, one generate by index, over the same shape.
        pub fn mixed(m: &Matrix<f32>) -> (Matrix<f32>, Matrix<f32>) {
            let a = m.map(|x| x * 2.0);
            let b = generate(m.shape(), |[i, j]| m[[i, j]] + (i + j) as f32);
            (a, b)
        }
        // An expensive producer read by both siblings: computed in their
        // kernel, once per element, never stored.
        pub fn expensive(xs: &Vector<f64>) -> (Scalar<f64>, Scalar<f64>) {
            let ys = xs.map(|x| x.sin().exp().ln_1p().sqrt());
            (ys.sum(), ys.maximum())
        }
        // Read at another element too: stored.
        pub fn reversed(xs: &Vector<f64>) -> Vector<f64> {
            let ys = xs.map(|x| x.sin().exp());
            ys.zip_with(&ys.reverse(), |a, b| a - b)
        }
        // Read by the fold and by the scalar result: stored.
        pub fn read_after(xs: &Vector<f64>) -> f64 {
            let ys = xs.map(|x| x.sin().exp());
            ys.sum().value() + ys[[0]]
        }
        // Inside a loop body: both folds of the state in one kernel.
        pub fn loop_stats(xs: &Vector<f32>, n: usize) -> Vector<f32> {
            let mut v = xs.map(|x| x);
            let mut i = 0usize;
            while i < n {
                let lo = v.minimum().value();
                let hi = v.maximum().value();
                v = v.map(|x| (x - lo) / (hi - lo + 1.0));
                i += 1;
            }
            v
        }
    }
    pub mod separate {
        use super::*;
        accel! {
            #![acc(horizontal_fusion = false)]
            pub fn stats(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>, Scalar<f32>) {
                (xs.sum(), xs.minimum(), xs.maximum())
            }
        }
    }
}

#[test]
fn siblings_share_one_traversal() {
    use siblings::*;
    let kernels = |src: &str, name: &str| plan(src, name, Options::default()).kernels().count();
    assert_eq!(
        kernels(fused::stats::SOURCE, "stats"),
        1,
        "{}",
        fused::stats::explain()
    );
    assert_eq!(
        kernels(separate::stats::SOURCE, "stats"),
        1,
        "the source of the unfused variant holds the option"
    );
    assert_eq!(
        plan(
            fused::stats::SOURCE,
            "stats",
            Options {
                clustering: Clustering::Off,
                ..Options::default()
            }
        )
        .kernels()
        .count(),
        3
    );
    assert!(
        separate::stats::explain().contains("3 kernels"),
        "{}",
        separate::stats::explain()
    );
    // sum and sum of squares in one pass; then the map.
    assert_eq!(
        kernels(fused::standardise::SOURCE, "standardise"),
        2,
        "{}",
        fused::standardise::explain()
    );
    // The thesis's optimal clustering: `{sum1, scan, sum2}` (both folds in
    // the scan's pass, the scanned array not stored) and `{ys1, ys2}`.
    let n2 = plan(fused::normalise2::SOURCE, "normalise2", Options::default());
    assert_eq!(n2.kernels().count(), 2, "{}", n2.explain());
    assert!(
        n2.explain().contains("fuses: scan & fold & fold"),
        "{}",
        n2.explain()
    );
    assert!(n2.explain().contains("fuses: map & map"), "{}", n2.explain());
    // The thesis's traffic table (Figure 12), in elements: the optimum
    // reads `2n + 2` and writes `2n + 2`; unfused, `5n + 3` reads and
    // `3n + 3` writes here (its `+ 2`, with a scan one element longer).
    let t = n2.traffic();
    assert_eq!(
        (t.reads.to_string(), t.writes.to_string()),
        ("2xs + 2".into(), "2xs + 2".into())
    );
    // Greedy clustering finds the same (the scan's folds join before it).
    let greedy = plan(
        fused::normalise2::SOURCE,
        "normalise2",
        Options {
            clustering: Clustering::Greedy,
            ..Options::default()
        },
    );
    assert_eq!(greedy.traffic(), n2.traffic(), "{}", greedy.explain());
    let t = plan(fused::normalise2::SOURCE, "normalise2", NO_FUSION).traffic();
    assert_eq!(
        (t.reads.to_string(), t.writes.to_string()),
        ("5xs + 3".into(), "3xs + 3".into())
    );
    assert_eq!(
        kernels(fused::row_stats::SOURCE, "row_stats"),
        1,
        "{}",
        fused::row_stats::explain()
    );
    assert_eq!(
        kernels(fused::mixed::SOURCE, "mixed"),
        1,
        "{}",
        fused::mixed::explain()
    );
    let e = plan(fused::expensive::SOURCE, "expensive", Options::default());
    assert_eq!(shape_of(&e), (1, 2), "{}", e.explain());
    assert_eq!(e.evaluations(math(MathFn::Sin)), 1, "{}", e.explain());
    assert_eq!(e.traffic().reads.to_string(), "xs", "{}", e.explain());
    let r = plan(fused::reversed::SOURCE, "reversed", Options::default());
    assert_eq!(shape_of(&r), (2, 2), "{}", r.explain());
    // Stored, and summed in the same pass (`pass_folds`).
    let r = plan(fused::read_after::SOURCE, "read_after", Options::default());
    assert_eq!(shape_of(&r), (1, 2), "{}", r.explain());
    assert_eq!(r.traffic().reads.to_string(), "xs", "{}", r.explain());
    // The first state, then per iteration one kernel for both folds and one
    // for the map.
    assert_eq!(
        kernels(fused::loop_stats::SOURCE, "loop_stats"),
        3,
        "{}",
        fused::loop_stats::explain()
    );
    assert!(
        fused::loop_stats::explain().contains("fuses: fold1 & fold1"),
        "{}",
        fused::loop_stats::explain()
    );
}

#[test]
fn siblings_compute_what_the_interpreter_does() {
    use siblings::*;
    for n in SIZES {
        let xs = Vector::from(floats(n, 3));
        let args = [arg(&xs)];
        let src = fused::stats::SOURCE;
        let tol = sum_tol(F32_TOL, abs_sum(&xs.to_vec()));
        for got in [fused::stats(&xs), no_fusion::stats(&xs), separate::stats(&xs)] {
            let _ = check(src, "stats", &args, got, tol);
        }
        if n == 0 {
            check_err(src, "stats", &args, fused::stats(&xs), ErrorKind::EmptyReduction);
        }

        let xd = Vector::from(floats(n, 4).into_iter().map(f64::from).collect::<Vec<_>>());
        let args = [arg(&xd)];
        let src = fused::standardise::SOURCE;
        let _ = check(src, "standardise", &args, fused::standardise(&xd), 1e-6);

        let xi = Vector::from((0..n).map(|i| (hash(i) % 200) as i64 - 90).collect::<Vec<_>>());
        let args = [arg(&xi)];
        let src = fused::normalise2::SOURCE;
        check_ok(src, "normalise2", &args, fused::normalise2(&xi), EXACT);
        check_ok(src, "normalise2", &args, no_sharing::normalise2(&xi), EXACT);

        let sq = ((n as f64).sqrt() as usize).max(1);
        for (r, c) in [(n / sq, sq), (sq, 0), (0, sq)] {
            let m = Matrix::from_vec(
                [r, c],
                (0..r * c).map(|i| (hash(i + 5) % 100) as i32 - 50).collect(),
            )
            .unwrap();
            let args = [arg(&m)];
            let src = fused::row_stats::SOURCE;
            let want = check(src, "row_stats", &args, fused::row_stats(&m), EXACT);
            if c == 0 && r > 0 {
                assert_eq!(want.unwrap_err(), ErrorKind::EmptyReduction);
            }
            let mf = Matrix::from_vec([r, c], floats(r * c, 6)).unwrap();
            let args = [arg(&mf)];
            check_ok(fused::mixed::SOURCE, "mixed", &args, fused::mixed(&mf), EXACT);
        }

        let args = [arg(&xd)];
        let _ = check(
            fused::expensive::SOURCE,
            "expensive",
            &args,
            fused::expensive(&xd),
            1e-9,
        );
        let _ = check(
            fused::reversed::SOURCE,
            "reversed",
            &args,
            fused::reversed(&xd),
            // Differences of values up to e: a GPU's `sin` and `exp` are
            // within a few ULPs of the interpreter's, at that scale.
            if on_gpu() {
                sum_tol(F64_MATH_TOL, 10.0)
            } else {
                EXACT.into()
            },
        );
        let _ = check(
            fused::read_after::SOURCE,
            "read_after",
            &args,
            fused::read_after(&xd),
            1e-9,
        );

        let args = [arg(&xs), arg(3usize)];
        let src = fused::loop_stats::SOURCE;
        let _ = check(src, "loop_stats", &args, fused::loop_stats(&xs, 3), F32_TOL);
    }
}

/// Clustering chosen by the ILP against the greedy one, and the thesis's
/// checklist of what may share a kernel (notes/004.md §5.5).
mod clusters {
    use super::*;
    variants! {
        // A map read by two folds, and a sibling map of the same input:
        // greedy merges the two maps first (program order) and must then
        // store `g`; the optimum computes `g` inside the folds' kernel.
        pub fn conflict(xs: &Vector<f64>) -> (Vector<f64>, Scalar<f64>, Scalar<f64>) {
            let g = xs.map(|v| v * 2.0 - 1.0);
            let s = xs.map(|v| v + 1.0);
            (s, g.sum(), g.maximum())
        }
        // An intermediate that is also a result (diagonal fusion): written
        // once, and its consumer takes it from the same kernel.
        pub fn diagonal(xs: &Vector<f64>) -> (Vector<f64>, Vector<f64>) {
            let ys = xs.map(|x| x.sin());
            let zs = ys.map(|y| y * 2.0 + 1.0);
            (ys, zs)
        }
        // The same over a matrix, by index, with a failing read beside.
        pub fn diagonal_rows(m: &Matrix<f32>, v: &Vector<f32>) -> (Matrix<f32>, Matrix<f32>) {
            let a = m.map(|x| x * 0.5 - 1.0);
            let b = a.indexed().map(|((_, j), x)| x * v[[j]]);
            (a, b)
        }
        // Nothing in common: never one kernel.
        pub fn disconnected(xs: &Vector<f32>) -> (Vector<f32>, Vector<f32>) {
            let n = xs.len();
            (xs.map(|x| x + 1.0), generate([n], |[i]| i as f32))
        }
        // scanr after scanl: opposite directions, two kernels.
        pub fn scans(xs: &Vector<i32>) -> Vector<i32> {
            xs.scanl(0, |a, b| a + b).scanr(0, |a, b| a + b)
        }
        // permute after backpermute: the gather is computed in the scatter.
        pub fn scatter_of_gather(xs: &Vector<i32>) -> Vector<i32> {
            let n = xs.len();
            let r = xs.backpermute([n], |[i]| [n - 1 - i]);
            r.permute(&fill([n], 0), |[i]| Some([i / 2]), |a, b| a + b)
        }
        // backpermute after permute: the scatter is finished first.
        pub fn gather_of_scatter(xs: &Vector<i32>) -> Vector<i32> {
            let n = xs.len();
            let p = xs.permute(&fill([n], 0), |[i]| Some([i / 2]), |a, b| a + b);
            p.backpermute([n], |[i]| [n - 1 - i])
        }
        // backpermute after map: the map computed at the gathered element.
        pub fn gather_of_map(xs: &Vector<f32>) -> Vector<f32> {
            let n = xs.len();
            xs.map(|x| x * 3.0).backpermute([n], |[i]| [n - 1 - i])
        }
    }
    pub mod greedy {
        use super::*;
        accel! {
            #![acc(fusion = "greedy")]
            pub fn conflict(xs: &Vector<f64>) -> (Vector<f64>, Scalar<f64>, Scalar<f64>) {
                let g = xs.map(|v| v * 2.0 - 1.0);
                let s = xs.map(|v| v + 1.0);
                (s, g.sum(), g.maximum())
            }
        }
    }
}

#[test]
fn optimal_clustering_beats_greedy_where_greedy_locks_in() {
    use clusters::*;
    let optimal = plan(fused::conflict::SOURCE, "conflict", Options::default());
    let greedy = plan(
        fused::conflict::SOURCE,
        "conflict",
        Options {
            clustering: Clustering::Greedy,
            ..Options::default()
        },
    );
    let t = optimal.traffic();
    assert_eq!(
        (t.reads.to_string(), t.writes.to_string(), t.kernels),
        ("2xs".into(), "xs + 2".into(), 2),
        "{}",
        optimal.explain()
    );
    let t = greedy.traffic();
    assert_eq!(
        (t.reads.to_string(), t.writes.to_string(), t.kernels),
        ("2xs".into(), "2xs + 2".into(), 2),
        "{}",
        greedy.explain()
    );
    assert!(
        optimal
            .explain()
            .contains("clustering: optimal (ILP over 1 step list: 1 proven optimal"),
        "{}",
        optimal.explain()
    );
    // The option reaches the macro: the greedy variant's explain says so.
    assert!(
        greedy::conflict::explain().contains("clustering: greedy"),
        "{}",
        greedy::conflict::explain()
    );
    assert!(
        no_fusion::conflict::explain().contains("clustering: none"),
        "{}",
        no_fusion::conflict::explain()
    );
}

#[test]
fn diagonal_fusion_writes_once_and_reads_nothing_back() {
    use clusters::*;
    let d = plan(fused::diagonal::SOURCE, "diagonal", Options::default());
    let t = d.traffic();
    assert_eq!(
        (t.reads.to_string(), t.writes.to_string(), t.kernels),
        ("xs".into(), "2xs".into(), 1),
        "{}",
        d.explain()
    );
    let greedy = Options {
        clustering: Clustering::Greedy,
        ..Options::default()
    };
    let t = plan(fused::diagonal::SOURCE, "diagonal", greedy).traffic();
    assert_eq!((t.reads.to_string(), t.kernels), ("2xs".into(), 2));
    let r = plan(fused::diagonal_rows::SOURCE, "diagonal_rows", Options::default());
    assert_eq!(shape_of(&r), (1, 2), "{}", r.explain());
}

mod after_scan {
    use super::*;
    variants! {
        // A generate reading a scan of rows at its own element, and another
        // array by index (which may fail): one kernel, the scan's array
        // never stored.
        pub fn rows_then(m: &Matrix<i32>, v: &Vector<i32>) -> Matrix<i32> {
            let [r, c] = m.shape();
            let s = m.scanl1(|a, b| a + b);
            generate([r, c], |[i, j]| s[[i, j]] * 2 - v[[j]])
        }
        // A scan of tuples, right to left, then one field per element.
        pub fn tuples_right(xs: &Vector<i32>) -> Vector<i32> {
            let n = xs.len();
            let s = xs.map(|x| (x, 1)).scanr1(|a, b| (a.0 + b.0, a.1 + b.1));
            generate([n], |[i]| s[[i]].0 - s[[i]].1 * (i as i32))
        }
        // Rank 3: the outer dimensions of the index come from the row.
        pub fn cube_then(a: &Array<i32, 3>) -> Array<i32, 3> {
            let [p, q, r] = a.shape();
            let s = a.scanl1(|x, y| x + y);
            generate([p, q, r], |[i, j, k]| s[[i, j, k]] + (i * 100 + j * 10 + k) as i32)
        }
        // A scan with its initial value (rows one longer), then the position.
        pub fn prefix_then(m: &Matrix<i32>) -> Matrix<i32> {
            let [r, c] = m.shape();
            let s = m.scanl(0, |a, b| a + b);
            generate([r, c + 1], |[i, j]| s[[i, j]] * 3 + j as i32 - i as i32)
        }
        // Reads the scan's input at the element: out of its bounds in the
        // last column, which the scan's output has and its input has not.
        pub fn prefix_reads_input(m: &Matrix<i32>) -> Matrix<i32> {
            let [r, c] = m.shape();
            let s = m.scanl(0, |a, b| a + b);
            generate([r, c + 1], |[i, j]| s[[i, j]] + m[[i, j]])
        }
        // The same from the right, rank 3.
        pub fn cube_prefix_right(a: &Array<i32, 3>) -> Array<i32, 3> {
            let [p, q, r] = a.shape();
            let s = a.scanr(1, |x, y| x + y);
            generate([p, q, r + 1], |[i, j, k]| s[[i, j, k]] - (i * 100 + j * 10 + k) as i32)
        }
        // A segmented scan, whose length is asserted (the segment lengths
        // add up to it), then a generate over the input's length: the
        // shapes agree through the assertion.
        pub fn segmented_then(xs: &Vector<i32>, lens: &Vector<u32>) -> Vector<i32> {
            let n = xs.len();
            let s = xs.scanl1_seg(lens, |a, b| a + b);
            generate([n], |[i]| s[[i]] * 2 - xs[[i]])
        }
        // Read at a neighbour: the scan's array is stored.
        pub fn neighbour(xs: &Vector<i32>) -> Vector<i32> {
            let n = xs.len();
            let s = xs.scanl1(|a, b| a + b);
            generate([n], |[i]| if i + 1 < n { s[[i + 1]] - s[[i]] } else { 0 })
        }
    }
}

#[test]
fn a_generate_after_a_scan_is_computed_as_the_scan_stores() {
    use after_scan::*;
    let p = |src: &str, name: &str| plan(src, name, Options::default());
    for (src, name) in [
        (fused::rows_then::SOURCE, "rows_then"),
        (fused::tuples_right::SOURCE, "tuples_right"),
        (fused::cube_then::SOURCE, "cube_then"),
        (fused::prefix_then::SOURCE, "prefix_then"),
        (fused::cube_prefix_right::SOURCE, "cube_prefix_right"),
    ] {
        let pl = p(src, name);
        assert_eq!(shape_of(&pl), (1, 1), "{}", pl.explain());
        assert!(pl.explain().contains("scan -> generate"), "{}", pl.explain());
    }
    let nb = p(fused::neighbour::SOURCE, "neighbour");
    assert_eq!(shape_of(&nb), (2, 2), "{}", nb.explain());
    let seg = p(fused::segmented_then::SOURCE, "segmented_then").explain();
    assert!(seg.contains("scan -> map -> generate"), "{seg}");
    for n in SIZES {
        let ints = |k: usize, seed: usize| {
            (0..k)
                .map(|i| (hash(i * 3 + seed) % 101) as i32 - 50)
                .collect::<Vec<_>>()
        };
        let xs = Vector::from(ints(n, 1));
        let args = [arg(&xs)];
        for got in [fused::tuples_right(&xs), no_fusion::tuples_right(&xs)] {
            check_ok(fused::tuples_right::SOURCE, "tuples_right", &args, got, EXACT);
        }
        check_ok(
            fused::neighbour::SOURCE,
            "neighbour",
            &args,
            fused::neighbour(&xs),
            EXACT,
        );
        // Segments of 0 to 6 elements, adding up to `n`, and lengths that
        // do not add up (an error, the same with and without fusion).
        let mut lens = Vec::new();
        let mut left = n;
        while left > 0 {
            let k = ((hash(lens.len() + 7) % 7) as usize).min(left);
            lens.push(k as u32);
            left -= k;
        }
        let mut short = lens.clone();
        short.push(1);
        for lens in [lens, short] {
            let lv = Vector::from(lens);
            let args = [arg(&xs), arg(&lv)];
            for got in [
                fused::segmented_then(&xs, &lv),
                no_fusion::segmented_then(&xs, &lv),
            ] {
                let _ = check(fused::segmented_then::SOURCE, "segmented_then", &args, got, EXACT);
            }
        }
        let sq = ((n as f64).sqrt() as usize).max(1);
        for (r, c) in [(n / sq, sq), (sq, 0), (0, sq), (sq, sq + 1), (3, n)] {
            let m = Matrix::from_vec([r, c], ints(r * c, 2)).unwrap();
            let v = Vector::from(ints(sq, 3));
            let args = [arg(&m), arg(&v)];
            // Fails where a row is longer than `v`, the same way.
            for got in [fused::rows_then(&m, &v), no_fusion::rows_then(&m, &v)] {
                let _ = check(fused::rows_then::SOURCE, "rows_then", &args, got, EXACT);
            }
            let args = [arg(&m)];
            check_ok(
                fused::prefix_then::SOURCE,
                "prefix_then",
                &args,
                fused::prefix_then(&m),
                EXACT,
            );
            let got = fused::prefix_reads_input(&m);
            assert_eq!(got.is_err(), r > 0, "{got:?}");
            let _ = check(
                fused::prefix_reads_input::SOURCE,
                "prefix_reads_input",
                &args,
                got,
                EXACT,
            );
        }
        let d = (n as f64).cbrt() as usize + 1;
        let a = Array::<i32, 3>::from_vec(
            [d, d + 1, n / (d * d) + 2],
            ints(d * (d + 1) * (n / (d * d) + 2), 4),
        )
        .unwrap();
        check_ok(
            fused::cube_then::SOURCE,
            "cube_then",
            &[arg(&a)],
            fused::cube_then(&a),
            EXACT,
        );
        check_ok(
            fused::cube_prefix_right::SOURCE,
            "cube_prefix_right",
            &[arg(&a)],
            fused::cube_prefix_right(&a),
            EXACT,
        );
    }
}

#[test]
fn what_may_share_a_kernel() {
    use clusters::*;
    let p = |src: &str, name: &str| plan(src, name, Options::default());
    let d = p(fused::disconnected::SOURCE, "disconnected");
    assert_eq!(d.kernels().count(), 2, "{}", d.explain());
    let s = p(fused::scans::SOURCE, "scans");
    assert_eq!(s.kernels().count(), 2, "{}", s.explain());
    // (The defaults of a permute are an array of their own.)
    let sg = p(fused::scatter_of_gather::SOURCE, "scatter_of_gather");
    assert!(
        sg.explain().contains("fuses: backpermute -> permute"),
        "{}",
        sg.explain()
    );
    assert_eq!(shape_of(&sg), (2, 2), "{}", sg.explain());
    let gs = p(fused::gather_of_scatter::SOURCE, "gather_of_scatter");
    assert!(gs.explain().contains("fuses: permute\n"), "{}", gs.explain());
    assert_eq!(shape_of(&gs), (3, 3), "{}", gs.explain());
    let gm = p(fused::gather_of_map::SOURCE, "gather_of_map");
    assert_eq!(shape_of(&gm), (1, 1), "{}", gm.explain());
}

#[test]
fn clusters_compute_what_the_interpreter_does() {
    use clusters::*;
    for n in SIZES {
        let xd = Vector::from(floats(n, 9).into_iter().map(f64::from).collect::<Vec<_>>());
        let args = [arg(&xd)];
        let src = fused::conflict::SOURCE;
        for got in [
            fused::conflict(&xd),
            greedy::conflict(&xd),
            no_fusion::conflict(&xd),
        ] {
            let r = check(
                src,
                "conflict",
                &args,
                got,
                sum_tol(F64_TOL, abs_sum(&xd.to_vec()) * 2.0 + n as f64),
            );
            assert_eq!(r.is_err(), n == 0);
        }
        let _ = check(
            fused::diagonal::SOURCE,
            "diagonal",
            &args,
            fused::diagonal(&xd),
            if on_gpu() { F64_MATH_TOL } else { EXACT },
        );
        let sq = ((n as f64).sqrt() as usize).max(1);
        for (r, c) in [(n / sq, sq), (sq, 0), (0, sq), (sq, sq + 1)] {
            let m = Matrix::from_vec([r, c], floats(r * c, 11)).unwrap();
            let v = Vector::from(floats(sq, 12));
            let args = [arg(&m), arg(&v)];
            // Fails where a row is longer than `v`, the same way.
            let _ = check(
                fused::diagonal_rows::SOURCE,
                "diagonal_rows",
                &args,
                fused::diagonal_rows(&m, &v),
                EXACT,
            );
        }
        let xs = Vector::from(floats(n, 10));
        let args = [arg(&xs)];
        check_ok(
            fused::disconnected::SOURCE,
            "disconnected",
            &args,
            fused::disconnected(&xs),
            EXACT,
        );
        check_ok(
            fused::gather_of_map::SOURCE,
            "gather_of_map",
            &args,
            fused::gather_of_map(&xs),
            EXACT,
        );
        let xi = Vector::from((0..n).map(|i| (hash(i) % 200) as i32 - 90).collect::<Vec<_>>());
        let args = [arg(&xi)];
        check_ok(fused::scans::SOURCE, "scans", &args, fused::scans(&xi), EXACT);
        check_ok(
            fused::scatter_of_gather::SOURCE,
            "scatter_of_gather",
            &args,
            fused::scatter_of_gather(&xi),
            EXACT,
        );
        check_ok(
            fused::gather_of_scatter::SOURCE,
            "gather_of_scatter",
            &args,
            fused::gather_of_scatter(&xi),
            EXACT,
        );
    }
}

mod loop_shapes {
    use super::*;
    variants! {
        // A split by one bit per round (a radix sort's step): the state keeps
        // the shape of `xs`, so the places, a generate over `[n]` reading the
        // state, are proved in bounds and computed in the scatter.
        pub fn split_rounds(xs: &Vector<u32>, rounds: u32) -> Vector<u32> {
            let n = xs.len();
            let mut ys = xs.map(|x| x);
            for b in 0..rounds {
                let bits = ys.map(|x| (x >> b) & 1);
                let (before, zeros) = bits.map(|f| 1 - f).scanl_total(0u32, |a, c| a + c);
                let nz = zeros.value();
                let idx = generate([n], |[i]| {
                    if bits[[i]] == 0 {
                        before[[i]] as usize
                    } else {
                        nz as usize + i - before[[i]] as usize
                    }
                });
                ys = ys.scatter(&idx, &fill([n], 0u32));
            }
            ys
        }
        // A state that shrinks each round: nothing may assume its shape, and
        // the read after the loop fails when it shrank.
        pub fn shrinking(xs: &Vector<i32>, k: usize) -> Vector<i32> {
            let n = xs.len();
            let mut ys = xs.map(|x| x);
            for _ in 0..k {
                let m = ys.len();
                ys = generate([if m > 0 { m - 1 } else { 0 }], |[i]| ys[[i]] + 1);
            }
            generate([n], |[i]| ys[[i]] * 2)
        }
        // Two states: one keeps its shape through a zip with the other, which
        // grows; the reads of the first by `[n]` stay proved, the second's not.
        pub fn one_keeps(xs: &Vector<i32>, k: usize) -> (Vector<i32>, Vector<i32>) {
            let n = xs.len();
            let mut a = xs.map(|x| x);
            let mut g = xs.map(|x| x);
            for _ in 0..k {
                let m = g.len();
                g = generate([m + 1], |[i]| if i < m { g[[i]] } else { 7 });
                a = generate([n], |[i]| a[[i]] + g[[i]]);
            }
            (a, g)
        }
    }
}

#[test]
fn loop_states_that_keep_their_shape() {
    use loop_shapes::*;
    let p = plan(fused::split_rounds::SOURCE, "split_rounds", Options::default());
    // The places are computed in the scatter, not stored.
    assert!(p.explain().contains("generate -> permute"), "{}", p.explain());
    assert_eq!(
        p.materialised()
            .filter(|(_, b)| b.elem == accel_core::ir::Ty::Prim(accel_core::ir::Prim::Usize))
            .count(),
        0,
        "{}",
        p.explain()
    );
    for n in SIZES {
        let ints = |seed: usize| {
            (0..n)
                .map(|i| (hash(i * 7 + seed) % 1000) as i32 - 500)
                .collect::<Vec<_>>()
        };
        let keys = Vector::from((0..n).map(|i| (hash(i) % 5000) as u32).collect::<Vec<_>>());
        for rounds in [0, 1, 13] {
            let args = [arg(&keys), arg(rounds)];
            for got in [
                fused::split_rounds(&keys, rounds),
                no_fusion::split_rounds(&keys, rounds),
            ] {
                check_ok(fused::split_rounds::SOURCE, "split_rounds", &args, got, EXACT);
            }
        }
        let xs = Vector::from(ints(1));
        for k in [0usize, 1, 3] {
            let args = [arg(&xs), arg(k)];
            for got in [fused::shrinking(&xs, k), no_fusion::shrinking(&xs, k)] {
                let fails = k > 0 && n > 0;
                let _ = check_fails_if(
                    fused::shrinking::SOURCE,
                    "shrinking",
                    &args,
                    got,
                    EXACT,
                    fails,
                    ErrorKind::IndexOutOfBounds,
                );
            }
            for got in [fused::one_keeps(&xs, k), no_fusion::one_keeps(&xs, k)] {
                check_ok(fused::one_keeps::SOURCE, "one_keeps", &args, got, EXACT);
            }
        }
    }
}

/// A permute onto a constant fill starts from a fill of its own, moved into
/// its output, never a copy of a shared one: the fill merged (by sharing)
/// with a loop's initial state or with another permute's defaults is still
/// there, unchanged, for its other readers.
mod fill_defaults {
    use super::*;
    variants! {
        // The loop's state starts as the fill each step scatters onto, and
        // the fill is a result too; two permutes onto one fill per step.
        pub fn rotate_rounds(xs: &Vector<i32>, k: i32, rounds: usize) -> (Vector<i32>, Vector<i32>, Vector<i32>) {
            let n = xs.len();
            let zero = fill([n], k * 2);
            let mut a = fill([n], k * 2);
            let mut b = xs.map(|x| x);
            for _ in 0..rounds {
                a = b.permute(&fill([n], k * 2), |[i]| Some([(i + 1) % n]), |x, _| x);
                b = a.map(|x| x + 1).permute(&fill([n], k * 2), |[i]| if i % 3 == 0 { None } else { Some([i]) }, |x, y| x + y);
            }
            (a, b, zero)
        }
        // A fill bound before the loop, and a result too.
        pub fn outer_fill(xs: &Vector<usize>, rounds: usize) -> (Vector<i32>, Vector<i32>) {
            let zero = fill([5], 1);
            let mut h = xs.map(|x| x as i32).take(5);
            for k in 0..rounds {
                let hk = xs.map(|_| 1).permute(&zero, |[i]| Some([(xs[[i]] + k) % 5]), |a, b| a + b);
                h = h.zip_with(&hk, |a, b| a * 2 + b);
            }
            (h, zero)
        }
        // Defaults read by index (not a fill): still copied, not moved.
        pub fn indexed_defaults(xs: &Vector<i32>, rounds: usize) -> Vector<i32> {
            let n = xs.len();
            let d = generate([n], |[i]| i as i32);
            let mut a = xs.map(|x| x);
            for _ in 0..rounds {
                a = a.permute(&d, |[i]| Some([(i + 2) % n]), |x, y| x + y);
            }
            a
        }
    }
}

#[test]
fn permutes_onto_a_fill_write_their_own() {
    use fill_defaults::*;
    let permutes = |p: &Plan| -> Vec<bool> {
        p.kernels()
            .filter_map(|k| match k.op {
                accel_core::plan::KernelOp::Permute { move_defaults, .. } => Some(move_defaults),
                _ => None,
            })
            .collect()
    };
    let p = plan(fused::rotate_rounds::SOURCE, "rotate_rounds", Options::default());
    assert_eq!(permutes(&p), vec![true, true], "{}", p.explain());
    let p = plan(fused::outer_fill::SOURCE, "outer_fill", Options::default());
    assert_eq!(permutes(&p), vec![true], "{}", p.explain());
    let p = plan(
        fused::indexed_defaults::SOURCE,
        "indexed_defaults",
        Options::default(),
    );
    assert_eq!(permutes(&p), vec![false], "{}", p.explain());
    for n in SIZES {
        let xs = Vector::from((0..n).map(|i| (hash(i) % 1000) as i32 - 500).collect::<Vec<_>>());
        for rounds in [0usize, 1, 4] {
            for k in [0, -3] {
                let args = [arg(&xs), arg(k), arg(rounds)];
                let src = fused::rotate_rounds::SOURCE;
                for got in [
                    fused::rotate_rounds(&xs, k, rounds),
                    no_fusion::rotate_rounds(&xs, k, rounds),
                    no_sharing::rotate_rounds(&xs, k, rounds),
                ] {
                    check_ok(src, "rotate_rounds", &args, got, EXACT);
                }
            }
            let us = Vector::from((0..n).map(|i| (hash(i) % 100) as usize).collect::<Vec<_>>());
            let args = [arg(&us), arg(rounds)];
            let src = fused::outer_fill::SOURCE;
            for got in [fused::outer_fill(&us, rounds), no_fusion::outer_fill(&us, rounds)] {
                check_ok(src, "outer_fill", &args, got, EXACT);
            }
            let args = [arg(&xs), arg(rounds)];
            let src = fused::indexed_defaults::SOURCE;
            for got in [
                fused::indexed_defaults(&xs, rounds),
                no_fusion::indexed_defaults(&xs, rounds),
            ] {
                check_ok(src, "indexed_defaults", &args, got, EXACT);
            }
        }
    }
}

mod total_order {
    use super::*;
    variants! {
        pub fn argmin_pairs(xs: &Vector<f32>) -> Scalar<(f32, usize)> {
            generate(xs.shape(), |[i]| (xs[[i]], i)).fold1_all(|a, b| a.min(b))
        }
        pub fn argmax_pairs(xs: &Vector<i32>) -> Scalar<(i32, usize)> {
            generate(xs.shape(), |[i]| (xs[[i]], i)).fold1_all(|a, b| a.max(b))
        }
        pub fn argmin_lib(xs: &Vector<f32>) -> (Scalar<usize>, Scalar<usize>) {
            (xs.argmin(), xs.argmax())
        }
        // The greatest value, the first of equals, written out; the second
        // field by `<=`.
        pub fn by_hand(xs: &Vector<i32>) -> Scalar<(i32, usize)> {
            generate(xs.shape(), |[i]| (xs[[i]], i))
                .fold1_all(|a, b| if a.0 > b.0 || (a.0 == b.0 && a.1 <= b.1) { a } else { b })
        }
        // Ties go to the first in order: the index is not compared.
        pub fn first_least(xs: &Vector<i32>) -> Scalar<(i32, usize)> {
            generate(xs.shape(), |[i]| (xs[[i]], i)).fold1_all(|a, b| if b.0 < a.0 { b } else { a })
        }
    }
}

/// A fold that picks one of its operands by an order on all their fields
/// (argmin and argmax over (value, index), NaN last in `argmin`) may
/// combine in any order, so the CPU interleaves its accumulators; one that
/// leaves ties to the order of elements may not. Results (with many ties,
/// and NaNs for `argmin`) are the interpreter's.
#[test]
fn folds_choosing_by_a_total_order_are_commutative() {
    use total_order::*;
    let commutative = |src: &str, name: &str| -> Vec<bool> {
        let p = plan(src, name, Options::default());
        p.kernels()
            .filter_map(|k| match &k.op {
                accel_core::plan::KernelOp::Fold { f, .. } => {
                    Some(accel_core::plan::commutative(&p.arena, f))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(commutative(fused::argmin_pairs::SOURCE, "argmin_pairs"), [true]);
    assert_eq!(commutative(fused::argmax_pairs::SOURCE, "argmax_pairs"), [true]);
    // The two folds are one kernel, choosing field by field.
    assert_eq!(commutative(fused::argmin_lib::SOURCE, "argmin_lib"), [true]);
    assert_eq!(commutative(fused::by_hand::SOURCE, "by_hand"), [true]);
    assert_eq!(commutative(fused::first_least::SOURCE, "first_least"), [false]);
    // Every form against the interpreter: empty input fails, as `fold1` does.
    use accel::dynamic::{Dyn, ToDyn};
    fn check_all<T: ToDyn>(src: &str, name: &str, args: &[Dyn], empty: bool, got: Vec<accel::Result<T>>) {
        for got in got {
            if empty {
                check_err(src, name, args, got, ErrorKind::EmptyReduction);
            } else {
                check_ok(src, name, args, got, EXACT);
            }
        }
    }
    for n in SIZES {
        // Many ties, the first least not in the first lane of accumulators.
        let ints = Vector::from((0..n).map(|i| ((i * 7919 + 13) % 5) as i32).collect::<Vec<_>>());
        let floats = Vector::from(
            (0..n)
                .map(|i| ((i * 7919 + 13) % 5) as f32 - 2.0)
                .collect::<Vec<_>>(),
        );
        let nans = Vector::from(
            (0..n)
                .map(|i| {
                    if i % 7 == 3 {
                        f32::NAN
                    } else {
                        (hash(i) % 5) as f32
                    }
                })
                .collect::<Vec<_>>(),
        );
        let (src, args) = (fused::argmin_pairs::SOURCE, [arg(&floats)]);
        let got = vec![fused::argmin_pairs(&floats), no_fusion::argmin_pairs(&floats)];
        check_all(src, "argmin_pairs", &args, n == 0, got);
        let args = [arg(&ints)];
        let got = vec![fused::argmax_pairs(&ints), no_sharing::argmax_pairs(&ints)];
        check_all(fused::argmax_pairs::SOURCE, "argmax_pairs", &args, n == 0, got);
        let got = vec![fused::by_hand(&ints), no_fusion::by_hand(&ints)];
        check_all(fused::by_hand::SOURCE, "by_hand", &args, n == 0, got);
        let got = vec![fused::first_least(&ints)];
        check_all(fused::first_least::SOURCE, "first_least", &args, n == 0, got);
        for xs in [&floats, &nans] {
            let got = vec![fused::argmin_lib(xs), no_fusion::argmin_lib(xs)];
            check_all(fused::argmin_lib::SOURCE, "argmin_lib", &[arg(xs)], n == 0, got);
        }
    }
}

mod row_values {
    use super::*;
    variants! {
        // A quotient of two reads of the row: once per row.
        pub fn scaled(x: &Matrix<f32>, y: &Matrix<f32>) -> Matrix<f32> {
            let [m, n] = x.shape();
            generate([m, n], |[r, c]| x[[r, c]] * (y[[r, 0]] / y[[r, n - 1]]).sqrt())
        }
        // Bound by a `let`, read through `let`s of the index; a tuple; a
        // read past the end when `k` is too large (every row with elements
        // fails, as each element would).
        pub fn with_lets(x: &Matrix<i32>, d: &Vector<i32>, k: usize) -> Matrix<(i32, i32)> {
            let [m, n] = x.shape();
            generate([m, n], |ix| {
                let row = ix[0];
                let s = (d[[row]] * 3, x[[row, k]] + 1);
                let c = ix[1];
                (x[[row, c]] / s.0.max(1), s.1 - c as i32)
            })
        }
        // Only in one branch, taken by some elements: not computed for
        // rows that never take it, so `k` out of bounds fails only where the
        // branch runs.
        pub fn in_branch(x: &Matrix<f32>, k: usize) -> Matrix<f32> {
            let [m, n] = x.shape();
            generate([m, n], |[r, c]| if x[[r, c]] > 15.0 { x[[r, c]] / x[[r, k]] } else { x[[r, c]] })
        }
        // Read through a fused `reverse` (a checked read proved in bounds,
        // whose index holds the row).
        pub fn reversed(x: &Matrix<f32>, y: &Matrix<f32>) -> Matrix<f32> {
            let [m, n] = x.shape();
            generate([m, n], |[r, c]| x[[r, c]] * (y[[r, 0]] / y[[r, n - 1]]).sqrt()).reverse()
        }
        // Rank 3: the row is the first two components; an integer division
        // of the row by a row value that may be zero.
        pub fn cube(x: &Array<i32, 3>, d: &Matrix<i32>) -> Array<i32, 3> {
            let [a, b, c] = x.shape();
            generate([a, b, c], |[i, j, l]| x[[i, j, l]] + (1000 / d[[i, j]]) * (l as i32))
        }
    }
}

/// Parts of a generate's element function that are the same along a row
/// are computed once per row on the CPU (`generate_rows_with`), only where
/// every element computes them, with the same results and the same failures
/// as the interpreter: empty rows, few rows and many, a read past the end,
/// a division by zero in some row.
#[test]
fn row_values_are_computed_once_per_row() {
    use row_values::*;
    let rt = quote::quote!(::accel::__rt);
    let code = |src: &str, name: &str| {
        accel_kernels::cpu::program_body(&plan(src, name, Options::default()), &rt).to_string()
    };
    assert!(code(fused::scaled::SOURCE, "scaled").contains("generate_rows_with"));
    assert!(code(fused::with_lets::SOURCE, "with_lets").contains("generate_rows_with"));
    assert!(code(fused::cube::SOURCE, "cube").contains("generate_rows_with"));
    assert!(code(fused::reversed::SOURCE, "reversed").contains("generate_rows_with"));
    assert!(!code(fused::in_branch::SOURCE, "in_branch").contains("generate_rows_with"));
    for (m, n) in [(0, 3), (3, 0), (1, 1), (2, 7), (5, 33), (40, 3), (130, 17)] {
        let f = |seed: usize| {
            Matrix::from_vec(
                [m, n],
                (0..m * n)
                    .map(|i| (hash(i * 3 + seed) % 19) as f32 + 1.0)
                    .collect(),
            )
            .unwrap()
        };
        let (x, y) = (f(1), f(2));
        let args = [arg(&x), arg(&y)];
        for got in [fused::scaled(&x, &y), no_fusion::scaled(&x, &y)] {
            check_ok(fused::scaled::SOURCE, "scaled", &args, got, 1e-6);
        }
        for got in [fused::reversed(&x, &y), no_fusion::reversed(&x, &y)] {
            check_ok(fused::reversed::SOURCE, "reversed", &args, got, 1e-6);
        }
        let xi = Matrix::from_vec([m, n], (0..m * n).map(|i| (hash(i) % 100) as i32 - 50).collect()).unwrap();
        let d = Vector::from((0..m).map(|i| (hash(i + 7) % 5) as i32 - 2).collect::<Vec<_>>());
        for k in [0, n.saturating_sub(1), n] {
            let args = [arg(&xi), arg(&d), arg(k)];
            let src = fused::with_lets::SOURCE;
            check(src, "with_lets", &args, fused::with_lets(&xi, &d, k), EXACT).ok();
            check(src, "with_lets", &args, no_sharing::with_lets(&xi, &d, k), EXACT).ok();
            let args = [arg(&x), arg(k)];
            check(
                fused::in_branch::SOURCE,
                "in_branch",
                &args,
                fused::in_branch(&x, k),
                1e-6,
            )
            .ok();
        }
        let c3 =
            Array::<i32, 3>::from_vec([m, n, 3], (0..m * n * 3).map(|i| (hash(i) % 10) as i32).collect())
                .unwrap();
        // Zero divisors in some rows (when any row has elements).
        let dm = Matrix::from_vec([m, n], (0..m * n).map(|i| (hash(i + 1) % 4) as i32).collect()).unwrap();
        let nz =
            Matrix::from_vec([m, n], (0..m * n).map(|i| (hash(i + 1) % 4) as i32 + 1).collect()).unwrap();
        for dd in [&dm, &nz] {
            let args = [arg(&c3), arg(dd)];
            for got in [fused::cube(&c3, dd), no_fusion::cube(&c3, dd)] {
                check(fused::cube::SOURCE, "cube", &args, got, EXACT).ok();
            }
        }
    }
}

mod reversals {
    use super::*;
    variants! {
        // The reversed index of a row of the iteration space: proved.
        pub fn flipped(x: &Matrix<i32>) -> Matrix<i32> {
            let [m, n] = x.shape();
            generate([m, n], |[r, c]| x[[r, n - c - 1]] * 2)
        }
        // Not reversals within bounds: one past the end at `c = 0`, and a
        // reversal over another array's extent.
        pub fn past_the_end(x: &Matrix<i32>) -> Matrix<i32> {
            let [m, n] = x.shape();
            generate([m, n], |[r, c]| x[[r, n - c]])
        }
        pub fn other_extent(x: &Matrix<i32>, y: &Matrix<i32>) -> Matrix<i32> {
            let [m, n] = x.shape();
            let [_, k] = y.shape();
            generate([m, n], |[r, c]| x[[r, c]] + y[[r, k - 1 - c]])
        }
    }
}

/// A reversed index (`n - 1 - c`) is in bounds only over the extent it
/// reverses: elsewhere the read is tested, and fails as the interpreter's
/// does (the test suite's builds also verify each read proved in bounds).
#[test]
fn reversed_reads_are_tested_unless_proved() {
    use reversals::*;
    for (m, n, k) in [(0, 3, 3), (3, 0, 0), (2, 5, 5), (4, 7, 3), (3, 2, 9), (1, 1, 0)] {
        let x = Matrix::from_vec([m, n], (0..m * n).map(|i| (hash(i) % 100) as i32).collect()).unwrap();
        let y = Matrix::from_vec([m, k], (0..m * k).map(|i| (hash(i + 5) % 100) as i32).collect()).unwrap();
        let args = [arg(&x)];
        for got in [fused::flipped(&x), no_fusion::flipped(&x)] {
            check_ok(fused::flipped::SOURCE, "flipped", &args, got, EXACT);
        }
        for got in [fused::past_the_end(&x), no_fusion::past_the_end(&x)] {
            let r = check(fused::past_the_end::SOURCE, "past_the_end", &args, got, EXACT);
            assert_eq!(r.is_err(), m * n > 0, "past_the_end {m}x{n}");
        }
        let args = [arg(&x), arg(&y)];
        for got in [fused::other_extent(&x, &y), no_fusion::other_extent(&x, &y)] {
            let r = check(fused::other_extent::SOURCE, "other_extent", &args, got, EXACT);
            assert_eq!(r.is_err(), m > 0 && n > k, "other_extent {m}x{n}, k = {k}");
        }
    }
}

/// Folds in a scan's traversal (`plan::horizontal::pass_folds`): of the
/// scan's outputs, and over its input space beside it; on the PTX path they
/// stay in the scan's kernel when all are commutative, else they run as
/// kernels after the scan (`ptx::gpu_plan`, `Plan::folds_apart`).
mod scan_folds {
    use super::*;
    variants! {
        // Right scans, an order-sensitive fold (the last output) and a
        // commutative one of the outputs, a fold of the input beside them.
        pub fn ends(xs: &Vector<i32>) -> (Scalar<i32>, Scalar<i32>, Scalar<i32>, Scalar<i32>) {
            let s = xs.scanr1(|a, b| a.wrapping_add(b));
            let first = s.fold1_all(|a, _b| a);
            let last = s.fold1_all(|_a, b| b);
            (first, last, s.fold(0, |a, b| a.wrapping_add(b)), xs.maximum())
        }
        // Rows: a matrix's rows scanned from an initial value, each row's
        // maximum of the outputs, and the sum of each input row.
        pub fn rows(m: &Matrix<i64>) -> (Vector<i64>, Vector<i64>) {
            let s = m.scanl(5, |a, b| a + b);
            (s.maximum(), m.sum())
        }
        // The scanned array is a result too: stored, and folded as stored.
        pub fn kept(xs: &Vector<f64>) -> (Vector<f64>, Scalar<f64>) {
            let s = xs.scanl(0.0, |a, b| a + b).map(|x| x * 0.5);
            (s, s.map(|x| x * x).sum())
        }
        // Read elsewhere than at its own element: stored.
        pub fn read_back(xs: &Vector<i64>) -> (Scalar<i64>, Vector<i64>) {
            let s = xs.scanl1(|a, b| a.max(b));
            (s.sum(), s.reverse())
        }
    }
}

#[test]
fn scan_folds_share_the_scans_pass() {
    use scan_folds::*;
    let e = plan(fused::ends::SOURCE, "ends", Options::default());
    assert_eq!(e.kernels().count(), 1, "{}", e.explain());
    assert_eq!(e.traffic().reads.to_string(), "xs", "{}", e.explain());
    assert_eq!(e.traffic().writes.to_string(), "4", "{}", e.explain());
    let r = plan(fused::rows::SOURCE, "rows", Options::default());
    assert_eq!(r.kernels().count(), 1, "{}", r.explain());
    assert_eq!(r.traffic().reads.to_string(), "m.0*m.1", "{}", r.explain());
    assert_eq!(r.traffic().writes.to_string(), "2m.0", "{}", r.explain());
    // Stored once, its fold not reading it back.
    let k = plan(fused::kept::SOURCE, "kept", Options::default());
    assert_eq!(k.kernels().count(), 1, "{}", k.explain());
    assert_eq!(k.traffic().reads.to_string(), "xs", "{}", k.explain());
    assert_eq!(k.traffic().writes.to_string(), "xs + 2", "{}", k.explain());
    let b = plan(fused::read_back::SOURCE, "read_back", Options::default());
    assert_eq!(b.kernels().count(), 2, "{}", b.explain());
    // Apart: the scan, then the folds.
    let apart = e.folds_apart();
    assert_eq!(apart.kernels().count(), 5, "{apart:?}");
    assert!(accel_core::valid::plan(&apart).is_ok(), "{apart:?}");
    let apart = r.folds_apart();
    assert_eq!(apart.kernels().count(), 3, "{apart:?}");
    assert!(accel_core::valid::plan(&apart).is_ok(), "{apart:?}");
    // The PTX path: `ends` has order-sensitive folds (apart); the others'
    // are commutative, in the scan's kernel.
    let gpu = |p| accel_kernels::ptx::gpu_plan(p).kernels().count();
    assert_eq!(gpu(&e), 5);
    assert_eq!(gpu(&r), 1);
    assert_eq!(gpu(&k), 1);
    assert_eq!(gpu(&b), 2);
}

#[test]
fn scan_folds_compute_what_the_interpreter_does() {
    use scan_folds::*;
    for n in SIZES {
        let xs = Vector::from((0..n).map(|i| (hash(i) % 2001) as i32 - 1000).collect::<Vec<_>>());
        let args = [arg(&xs)];
        let src = fused::ends::SOURCE;
        if n == 0 {
            check_err(src, "ends", &args, fused::ends(&xs), ErrorKind::EmptyReduction);
        } else {
            check_ok(src, "ends", &args, fused::ends(&xs), EXACT);
            check_ok(src, "ends", &args, no_fusion::ends(&xs), EXACT);
        }
        // Multiples of 1/4: sums exact in any order.
        let xd = Vector::from(
            (0..n)
                .map(|i| (hash(i + 5) % 400) as f64 / 4.0 - 50.0)
                .collect::<Vec<_>>(),
        );
        let args = [arg(&xd)];
        check_ok(fused::kept::SOURCE, "kept", &args, fused::kept(&xd), EXACT);
        let xi = Vector::from(
            (0..n)
                .map(|i| (hash(i + 9) % 300) as i64 - 150)
                .collect::<Vec<_>>(),
        );
        let args = [arg(&xi)];
        check_ok(
            fused::read_back::SOURCE,
            "read_back",
            &args,
            fused::read_back(&xi),
            EXACT,
        );
    }
    // Few long rows (split between tasks), many short ones, empty ones.
    for (rows, cols) in [(0, 3), (3, 0), (1, 20_000), (3, 9_000), (257, 5), (40, 1)] {
        let m = Matrix::from_vec(
            [rows, cols],
            (0..rows * cols).map(|i| (hash(i) % 1000) as i64 - 500).collect(),
        )
        .unwrap();
        let args = [arg(&m)];
        check_ok(
            scan_folds::fused::rows::SOURCE,
            "rows",
            &args,
            scan_folds::fused::rows(&m),
            EXACT,
        );
    }
}

/// Folds in a generate's pass (`plan::horizontal::pass_folds`): a map and
/// a fold of its array, of different ranks, in one kernel, when the array is
/// stored anyway; on the PTX path the folds run as kernels after it.
mod generate_folds {
    use super::*;
    variants! {
        // Softmax of rows: `e` is folded by rows and read by the division.
        pub fn softmax(m: &Matrix<f32>) -> Matrix<f32> {
            let mx = m.maximum();
            let e = generate(m.shape(), |[i, j]| (m[[i, j]] - mx[[i]]).exp());
            let s = e.sum();
            generate(m.shape(), |[i, j]| e[[i, j]] / s[[i]])
        }
        // A result folded twice over everything: an order-sensitive fold
        // (the first element) and a commutative one; a fold without an
        // initial value fails on an empty input.
        pub fn kept(xs: &Vector<i64>) -> (Vector<i64>, Scalar<i64>, Scalar<i64>) {
            let ys = xs.map(|x| x * 3 - 1);
            (ys, ys.fold1_all(|a, _b| a), ys.map(|y| y * y).sum())
        }
        // Folded rows of a matrix that is also read elsewhere (its
        // elements dear enough to be stored, not recomputed).
        pub fn rows(m: &Matrix<f64>) -> (Vector<f64>, Matrix<f64>) {
            let t = m.map(|x| (x * 0.01).exp());
            (t.maximum(), t.transpose())
        }
        // In a loop body: each step's state summed as it is made, the sum
        // going into the next step.
        pub fn damped(xs: &Vector<f64>, ws: &Vector<f64>, steps: usize) -> (Vector<f64>, Scalar<f64>) {
            let mut v = xs.map(|x| x);
            let mut total = 0.0;
            let mut k = 0usize;
            while k < steps {
                let next = v.zip_with(ws, |x, w| (x * 0.5 + total * w).exp() - 1.0);
                total = next.map(|a| a * a).sum().value() * 0.001;
                v = next;
                k += 1;
            }
            (v, fill([], total))
        }
        // Twin maps of two inputs, one of them summed: the maps share the
        // reads of `xs` and `ys` (3 passes over memory with the sum apart)
        // rather than the first taking the sum into its pass (4). (Once an
        // internal error: the sibling merge took the map with its fold.)
        pub fn twins(xs: &Vector<f32>, ys: &Vector<f32>) -> (Vector<f32>, Vector<f32>, Scalar<f32>) {
            let a = xs.zip_with(ys, |x, y| x * y);
            let b = xs.zip_with(ys, |x, y| x + y);
            (a, b, a.sum())
        }
        // Only folds read the array: the solver computes it inside their
        // kernel, unstored, rather than storing it beside them.
        pub fn only_folds(xs: &Vector<f64>) -> (Scalar<f64>, Scalar<f64>) {
            let g = xs.map(|v| v * 2.0 - 1.0);
            (g.sum(), g.maximum())
        }
    }
}

#[test]
fn generate_folds_share_the_generates_pass() {
    use generate_folds::*;
    let s = plan(fused::softmax::SOURCE, "softmax", Options::default());
    assert_eq!(s.kernels().count(), 3, "{}", s.explain());
    assert_eq!(
        s.traffic().reads.to_string(),
        "3m.0*m.1 + 2m.0",
        "{}",
        s.explain()
    );
    let k = plan(fused::kept::SOURCE, "kept", Options::default());
    assert_eq!(k.kernels().count(), 1, "{}", k.explain());
    assert_eq!(k.traffic().reads.to_string(), "xs", "{}", k.explain());
    assert_eq!(k.traffic().writes.to_string(), "xs + 2", "{}", k.explain());
    let r = plan(fused::rows::SOURCE, "rows", Options::default());
    assert_eq!(r.kernels().count(), 2, "{}", r.explain());
    assert_eq!(r.traffic().reads.to_string(), "2m.0*m.1", "{}", r.explain());
    // The loop body is one kernel, the map with the sum in its pass (the
    // others: the first state's copy, the result's `fill`).
    let d = plan(fused::damped::SOURCE, "damped", Options::default());
    assert_eq!(d.kernels().count(), 3, "{}", d.explain());
    assert!(d.explain().contains("zip_with & map -> fold"), "{}", d.explain());
    let t = plan(fused::twins::SOURCE, "twins", Options::default());
    assert_eq!(t.kernels().count(), 2, "{}", t.explain());
    assert!(t.explain().contains("zip_with & zip_with"), "{}", t.explain());
    let n = "|[min(shape(b0).0, shape(b1).0)]|";
    assert_eq!(
        t.traffic().reads.to_string(),
        format!("xs + ys + {n}"),
        "{}",
        t.explain()
    );
    let o = plan(fused::only_folds::SOURCE, "only_folds", Options::default());
    assert_eq!(o.kernels().count(), 1, "{}", o.explain());
    assert_eq!(o.traffic().writes.to_string(), "2", "{}", o.explain());
    // Apart: the generate, then the folds.
    for (p, n) in [(&s, 4), (&k, 3), (&r, 3)] {
        let apart = p.folds_apart();
        assert_eq!(apart.kernels().count(), n, "{apart:?}");
        assert!(accel_core::valid::plan(&apart).is_ok(), "{apart:?}");
    }
    // The PTX path keeps the first fold in the generate's pass (the fold's
    // skeleton, storing each element as it makes it), merged with the
    // others of its kind: `kept`'s two folds over everything are one fold
    // of a pair there.
    for (p, n) in [(&s, 3), (&k, 1), (&r, 2), (&d, 3)] {
        let gpu = accel_kernels::ptx::gpu_plan(p);
        assert_eq!(gpu.kernels().count(), n, "{gpu:?}");
        assert!(accel_core::valid::plan(&gpu).is_ok(), "{gpu:?}");
        let ptx = accel_kernels::ptx::program(p);
        assert!(ptx.unsupported.is_none(), "{:?}", ptx.unsupported);
        assert!(ptx.text.contains("_fold_"), "{}", ptx.text);
    }
}

#[test]
fn generate_folds_compute_what_the_interpreter_does() {
    use generate_folds::*;
    for n in SIZES {
        let xs = Vector::from((0..n).map(|i| (hash(i) % 2001) as i64 - 1000).collect::<Vec<_>>());
        let args = [arg(&xs)];
        let src = fused::kept::SOURCE;
        if n == 0 {
            check_err(src, "kept", &args, fused::kept(&xs), ErrorKind::EmptyReduction);
        } else {
            check_ok(src, "kept", &args, fused::kept(&xs), EXACT);
            check_ok(src, "kept", &args, no_fusion::kept(&xs), EXACT);
        }
        // Multiples of 1/4: sums exact in any order.
        let xd = Vector::from(
            (0..n)
                .map(|i| (hash(i + 5) % 400) as f64 / 4.0 - 50.0)
                .collect::<Vec<_>>(),
        );
        let ws = Vector::from((0..n).map(|i| (hash(i + 3) % 8) as f64 / 8.0).collect::<Vec<_>>());
        let xs_small = Vector::from(xd.to_vec().iter().map(|x| x / 256.0).collect::<Vec<_>>());
        let args = [arg(&xs_small), arg(&ws), arg(3usize)];
        let tol = sum_tol(1e-12, n as f64 * 4.0);
        check_ok(
            fused::damped::SOURCE,
            "damped",
            &args,
            fused::damped(&xs_small, &ws, 3),
            tol,
        );
        check_ok(
            fused::damped::SOURCE,
            "damped",
            &args,
            no_fusion::damped(&xs_small, &ws, 3),
            tol,
        );
        // Products and sums of multiples of 1/4 below 16: exact in f32.
        let (xq, yq) = (floats(n, 1), floats(n, 2));
        let quarter = |v: Vector<f32>| {
            Vector::from(
                v.to_vec()
                    .iter()
                    .map(|x| (x * 0.2).round() / 4.0)
                    .collect::<Vec<_>>(),
            )
        };
        let (xq, yq) = (quarter(Vector::from(xq)), quarter(Vector::from(yq)));
        let args = [arg(&xq), arg(&yq)];
        check_ok(
            fused::twins::SOURCE,
            "twins",
            &args,
            fused::twins(&xq, &yq),
            EXACT,
        );
        let args = [arg(&xd)];
        let src = fused::only_folds::SOURCE;
        if n == 0 {
            check_err(
                src,
                "only_folds",
                &args,
                fused::only_folds(&xd),
                ErrorKind::EmptyReduction,
            );
        } else {
            check_ok(src, "only_folds", &args, fused::only_folds(&xd), EXACT);
        }
    }
    // Few long rows (split between tasks), many short ones, empty ones.
    for (rows, cols) in [(0, 3), (3, 0), (1, 40_000), (3, 9_000), (257, 5), (40, 1)] {
        let m = Matrix::from_vec(
            [rows, cols],
            (0..rows * cols)
                .map(|i| (hash(i) % 1000) as f64 - 500.0)
                .collect(),
        )
        .unwrap();
        let args = [arg(&m)];
        let src = fused::rows::SOURCE;
        if rows > 0 && cols == 0 {
            check_err(src, "rows", &args, fused::rows(&m), ErrorKind::EmptyReduction);
        } else {
            check_ok(src, "rows", &args, fused::rows(&m), F64_TOL);
        }
        let mf = Matrix::from_vec([rows, cols], floats(rows * cols, 3)).unwrap();
        let args = [arg(&mf)];
        let src = fused::softmax::SOURCE;
        if rows > 0 && cols == 0 {
            check_err(
                src,
                "softmax",
                &args,
                fused::softmax(&mf),
                ErrorKind::EmptyReduction,
            );
        } else {
            check_ok(src, "softmax", &args, fused::softmax(&mf), F32_TOL);
            check_ok(src, "softmax", &args, no_fusion::softmax(&mf), F32_TOL);
        }
    }
}
