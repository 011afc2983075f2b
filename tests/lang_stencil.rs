//! Stencils: `stencil` and `stencil2` with every boundary, ranks 1 to 3,
//! patterns of every size, compared on random inputs (empty arrays and arrays
//! smaller than the pattern included) with a plain sequential reference written
//! here, both as compiled CPU code and in the reference interpreter. Floats
//! agree within 5e-5 absolute or 5e-3 relative; integers exactly (wrapping).

mod common;

use accel::dynamic::{Dyn, ToDyn};
use accel::prelude::*;
use accel::Elem;
use common::*;
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(24),
        max_shrink_iters: 100,
        ..ProptestConfig::default()
    }
}

// ---- the reference -------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum B<T> {
    Clamp,
    Mirror,
    Wrap,
    Const(T),
}

/// Element `ix` of `a` (of shape `shape`), by the boundary rule applied per
/// coordinate until it lies inside (Accelerate's rule, repeated).
fn fetch<T: Copy>(a: &[T], shape: &[usize], ix: &[isize], b: B<T>) -> T {
    let mut lin = 0;
    for (d, &i0) in ix.iter().enumerate() {
        let n = shape[d] as isize;
        let mut i = i0;
        while i < 0 || i >= n {
            i = match b {
                B::Const(v) => return v,
                B::Clamp => {
                    if i < 0 {
                        0
                    } else {
                        n - 1
                    }
                }
                B::Mirror if n == 1 => 0,
                B::Mirror if i < 0 => -i,
                B::Mirror => n - (i - n + 2),
                B::Wrap if i < 0 => n + i,
                B::Wrap => i - n,
            };
        }
        lin = lin * shape[d] + i as usize;
    }
    a[lin]
}

/// The neighbourhood of `ix` of extents `ext`, row-major.
fn points<T: Copy>(a: &[T], shape: &[usize], ext: &[usize], ix: &[usize], b: B<T>) -> Vec<T> {
    let mut offs: Vec<Vec<isize>> = vec![vec![]];
    for &n in ext {
        let r = (n / 2) as isize;
        offs = offs
            .into_iter()
            .flat_map(|o| {
                (-r..=r).map(move |k| {
                    let mut o = o.clone();
                    o.push(k);
                    o
                })
            })
            .collect();
    }
    offs.iter()
        .map(|o| {
            let at: Vec<isize> = ix.iter().zip(o).map(|(&i, &k)| i as isize + k).collect();
            fetch(a, shape, &at, b)
        })
        .collect()
}

fn index_of(shape: &[usize], mut l: usize) -> Vec<usize> {
    let mut ix = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        ix[d] = l % shape[d];
        l /= shape[d];
    }
    ix
}

/// `stencil` computed sequentially.
fn stencil_ref<T: Copy, U>(
    a: &[T],
    shape: &[usize],
    ext: &[usize],
    b: B<T>,
    f: impl Fn(&[T]) -> U,
) -> Vec<U> {
    let n: usize = shape.iter().product();
    (0..n)
        .map(|l| f(&points(a, shape, ext, &index_of(shape, l), b)))
        .collect()
}

/// `stencil2` computed sequentially: the result has the intersection's shape.
#[allow(clippy::too_many_arguments)]
fn stencil2_ref<T: Copy, U>(
    (a, sa, ea, ba): (&[T], &[usize], &[usize], B<T>),
    (b, sb, eb, bb): (&[T], &[usize], &[usize], B<T>),
    f: impl Fn(&[T], &[T]) -> U,
) -> (Vec<usize>, Vec<U>) {
    let shape: Vec<usize> = sa.iter().zip(sb).map(|(x, y)| *x.min(y)).collect();
    let n: usize = shape.iter().product();
    let out = (0..n)
        .map(|l| {
            let ix = index_of(&shape, l);
            f(&points(a, sa, ea, &ix, ba), &points(b, sb, eb, &ix, bb))
        })
        .collect();
    (shape, out)
}

// ---- comparison -----------------------------------------------------------------

trait Close: Copy + std::fmt::Debug {
    fn close(self, other: Self) -> bool;
}

impl Close for f32 {
    fn close(self, o: f32) -> bool {
        if self.is_nan() || o.is_nan() {
            return self.is_nan() && o.is_nan();
        }
        let d = (self - o).abs();
        self == o || d <= 5e-5 || d <= 5e-3 * self.abs().max(o.abs())
    }
}

macro_rules! exact {
    ($($t:ty),*) => {$(impl Close for $t { fn close(self, o: $t) -> bool { self == o } })*};
}
exact!(i32, i64, u8);

fn same<T: Close>(what: &str, shape: &[usize], got: &[T], want: &[T]) {
    assert_eq!(got.len(), want.len(), "{what}: length (shape {shape:?})");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            g.close(*w),
            "{what}: element {i} (index {:?} of shape {shape:?}): got {g:?}, want {w:?}",
            index_of(shape, i)
        );
    }
}

/// Compares the compiled result and the interpreter's with the reference.
#[track_caller]
fn check_ref<T: Elem + Close, const R: usize>(
    source: &str,
    name: &str,
    args: &[Dyn],
    compiled: accel::Result<Array<T, R>>,
    shape: &[usize],
    want: &[T],
) {
    let got = compiled.unwrap_or_else(|e| panic!("`{name}` failed: {e}"));
    assert_eq!(got.shape().as_slice(), shape, "`{name}`: shape");
    same(&format!("`{name}` compiled"), shape, &got.to_vec(), want);
    let interp = interpret(source, name, args).unwrap_or_else(|e| panic!("`{name}` interpreter: {e}"));
    let Dyn::Array(a) = interp else {
        panic!("`{name}`: the interpreter returned {interp:?}")
    };
    assert_eq!(a.shape, shape, "`{name}` interpreter: shape");
    let elems: Vec<T> = a
        .elems
        .iter()
        .map(|v| T::from_value(v).expect("element type"))
        .collect();
    same(&format!("`{name}` interpreter"), shape, &elems, want);
}

fn arg_of<T: ToDyn>(x: T) -> Dyn {
    arg(x)
}

// ---- strategies -----------------------------------------------------------------

/// An extent: often tiny (0 to 4, smaller than most patterns), otherwise up to `max`.
fn extent(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![2 => 0..5usize, 3 => 0..max]
}

fn f32s() -> impl Strategy<Value = f32> + Clone {
    -100.0f32..100.0
}

fn vec_of<S: Strategy + Clone>(elem: S, max: usize) -> impl Strategy<Value = Vector<S::Value>>
where
    S::Value: Elem,
{
    extent(max).prop_flat_map(move |n| prop::collection::vec(elem.clone(), n).prop_map(Vector::from))
}

fn mat_of<S: Strategy + Clone>(elem: S, r: usize, c: usize) -> impl Strategy<Value = Matrix<S::Value>>
where
    S::Value: Elem,
{
    (extent(r), extent(c)).prop_flat_map(move |(n, m)| {
        prop::collection::vec(elem.clone(), n * m)
            .prop_map(move |v| Matrix::from_vec([n, m], v).expect("shape"))
    })
}

fn arr3_of<S: Strategy + Clone>(
    elem: S,
    a: usize,
    b: usize,
    c: usize,
) -> impl Strategy<Value = Array<S::Value, 3>>
where
    S::Value: Elem,
{
    (extent(a), extent(b), extent(c)).prop_flat_map(move |(x, y, z)| {
        prop::collection::vec(elem.clone(), x * y * z)
            .prop_map(move |v| Array::from_vec([x, y, z], v).expect("shape"))
    })
}

// ---- 1-D ------------------------------------------------------------------------

#[acc]
fn v3_clamp(xs: &Vector<f32>) -> Vector<f32> {
    xs.stencil(Boundary::Clamp, |[l, c, r]| l + 2.0 * c - 0.5 * r)
}

#[acc]
fn v3_mirror(xs: &Vector<f32>) -> Vector<f32> {
    xs.stencil(Boundary::Mirror, |[l, c, r]| l + 2.0 * c - 0.5 * r)
}

#[acc]
fn v3_wrap(xs: &Vector<f32>) -> Vector<f32> {
    xs.stencil(Boundary::Wrap, |[l, c, r]| l + 2.0 * c - 0.5 * r)
}

#[acc]
fn v3_const(xs: &Vector<f32>, k: f32) -> Vector<f32> {
    xs.stencil(Boundary::Constant(k * 2.0), |[l, c, r]| l + 2.0 * c - 0.5 * r)
}

fn f3(p: &[f32]) -> f32 {
    p[0] + 2.0 * p[1] - 0.5 * p[2]
}

#[acc]
fn v5_mirror(xs: &Vector<i32>) -> Vector<i32> {
    xs.stencil(Boundary::Mirror, |[a, b, c, d, e]| {
        a * 3 + b * 5 - c * 7 + d * 11 + e * 13
    })
}

fn f5(p: &[i32]) -> i32 {
    p[0].wrapping_mul(3)
        .wrapping_add(p[1].wrapping_mul(5))
        .wrapping_sub(p[2].wrapping_mul(7))
        .wrapping_add(p[3].wrapping_mul(11))
        .wrapping_add(p[4].wrapping_mul(13))
}

#[acc]
fn v7_wrap(xs: &Vector<i32>) -> Vector<i32> {
    xs.stencil(Boundary::Wrap, |[a, _, c, d, _, f, g]| {
        a - c * 2 + d * 3 + f * 5 - g * 9
    })
}

fn f7(p: &[i32]) -> i32 {
    p[0].wrapping_sub(p[2].wrapping_mul(2))
        .wrapping_add(p[3].wrapping_mul(3))
        .wrapping_add(p[5].wrapping_mul(5))
        .wrapping_sub(p[6].wrapping_mul(9))
}

#[acc]
fn v9_clamp(xs: &Vector<f32>) -> Vector<f32> {
    xs.stencil(Boundary::Clamp, |[a, b, c, d, e, f, g, h, i]| {
        a * 0.1 + b * 0.2 + c * 0.3 + d * 0.4 - e + f * 0.6 + g * 0.7 + h * 0.8 + i * 0.9
    })
}

fn f9(p: &[f32]) -> f32 {
    p[0] * 0.1 + p[1] * 0.2 + p[2] * 0.3 + p[3] * 0.4 - p[4]
        + p[5] * 0.6
        + p[6] * 0.7
        + p[7] * 0.8
        + p[8] * 0.9
}

#[acc]
fn v9_const(xs: &Vector<i64>) -> Vector<i64> {
    xs.stencil(Boundary::Constant(-1), |[a, b, c, d, e, f, g, h, i]| {
        a * 2 - b + c * 3 - d + e * 4 - f + g * 5 - h + i * 6
    })
}

fn f9i(p: &[i64]) -> i64 {
    let w = [2i64, -1, 3, -1, 4, -1, 5, -1, 6];
    p.iter()
        .zip(w)
        .fold(0i64, |s, (x, w)| s.wrapping_add(x.wrapping_mul(w)))
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn vectors_f32(xs in vec_of(f32s(), 1024), k in f32s()) {
        let a = xs.to_vec();
        let sh = [a.len()];
        let ax = [arg_of(&xs)];
        check_ref(v3_clamp::SOURCE, "v3_clamp", &ax, v3_clamp(&xs), &sh, &stencil_ref(&a, &sh, &[3], B::Clamp, f3));
        check_ref(v3_mirror::SOURCE, "v3_mirror", &ax, v3_mirror(&xs), &sh, &stencil_ref(&a, &sh, &[3], B::Mirror, f3));
        check_ref(v3_wrap::SOURCE, "v3_wrap", &ax, v3_wrap(&xs), &sh, &stencil_ref(&a, &sh, &[3], B::Wrap, f3));
        check_ref(
            v3_const::SOURCE, "v3_const", &[arg_of(&xs), arg_of(k)], v3_const(&xs, k), &sh,
            &stencil_ref(&a, &sh, &[3], B::Const(k * 2.0), f3),
        );
        check_ref(v9_clamp::SOURCE, "v9_clamp", &ax, v9_clamp(&xs), &sh, &stencil_ref(&a, &sh, &[9], B::Clamp, f9));
    }

    #[test]
    fn vectors_int(xs in vec_of(any::<i32>(), 1024), ys in vec_of(any::<i64>(), 1024)) {
        let a = xs.to_vec();
        let sh = [a.len()];
        let ax = [arg_of(&xs)];
        check_ref(v5_mirror::SOURCE, "v5_mirror", &ax, v5_mirror(&xs), &sh, &stencil_ref(&a, &sh, &[5], B::Mirror, f5));
        check_ref(v7_wrap::SOURCE, "v7_wrap", &ax, v7_wrap(&xs), &sh, &stencil_ref(&a, &sh, &[7], B::Wrap, f7));
        let b = ys.to_vec();
        let sh = [b.len()];
        check_ref(v9_const::SOURCE, "v9_const", &[arg_of(&ys)], v9_const(&ys), &sh, &stencil_ref(&b, &sh, &[9], B::Const(-1), f9i));
    }
}

/// Large vectors cross the parallel chunk size; every boundary at every size.
#[test]
fn vectors_large_and_tiny() {
    for n in [0, 1, 2, 3, 4, 5, 8, 9, 10, 16_383, 16_385, 50_001] {
        let a: Vec<f32> = (0..n).map(|i| (hash(i) % 2000) as f32 / 10.0 - 100.0).collect();
        let xs = Vector::from(a.clone());
        let sh = [n];
        let ax = [arg_of(&xs)];
        check_ref(
            v3_wrap::SOURCE,
            "v3_wrap",
            &ax,
            v3_wrap(&xs),
            &sh,
            &stencil_ref(&a, &sh, &[3], B::Wrap, f3),
        );
        check_ref(
            v9_clamp::SOURCE,
            "v9_clamp",
            &ax,
            v9_clamp(&xs),
            &sh,
            &stencil_ref(&a, &sh, &[9], B::Clamp, f9),
        );
        let ai: Vec<i32> = (0..n).map(|i| hash(i) as i32).collect();
        let xi = Vector::from(ai.clone());
        let ax = [arg_of(&xi)];
        for pool in pools() {
            let got = pool.install(|| v5_mirror(&xi));
            check_ref(
                v5_mirror::SOURCE,
                "v5_mirror",
                &ax,
                got,
                &sh,
                &stencil_ref(&ai, &sh, &[5], B::Mirror, f5),
            );
        }
        check_ref(
            v7_wrap::SOURCE,
            "v7_wrap",
            &ax,
            v7_wrap(&xi),
            &sh,
            &stencil_ref(&ai, &sh, &[7], B::Wrap, f7),
        );
    }
}

// ---- 2-D ------------------------------------------------------------------------

#[acc]
fn m33_clamp(a: &Matrix<f32>) -> Matrix<f32> {
    a.stencil(Boundary::Clamp, |[[a, b, c], [d, e, f], [g, h, i]]| {
        a + 2.0 * b + 3.0 * c + 4.0 * d - 5.0 * e + 6.0 * f + 7.0 * g + 8.0 * h + 9.0 * i
    })
}

#[acc]
fn m33_mirror(a: &Matrix<f32>) -> Matrix<f32> {
    a.stencil(Boundary::Mirror, |[[a, b, c], [d, e, f], [g, h, i]]| {
        a + 2.0 * b + 3.0 * c + 4.0 * d - 5.0 * e + 6.0 * f + 7.0 * g + 8.0 * h + 9.0 * i
    })
}

#[acc]
fn m33_wrap(a: &Matrix<f32>) -> Matrix<f32> {
    a.stencil(Boundary::Wrap, |[[a, b, c], [d, e, f], [g, h, i]]| {
        a + 2.0 * b + 3.0 * c + 4.0 * d - 5.0 * e + 6.0 * f + 7.0 * g + 8.0 * h + 9.0 * i
    })
}

#[acc]
fn m33_const(a: &Matrix<f32>) -> Matrix<f32> {
    a.stencil(Boundary::Constant(0.25), |[[a, b, c], [d, e, f], [g, h, i]]| {
        a + 2.0 * b + 3.0 * c + 4.0 * d - 5.0 * e + 6.0 * f + 7.0 * g + 8.0 * h + 9.0 * i
    })
}

fn f33(p: &[f32]) -> f32 {
    p[0] + 2.0 * p[1] + 3.0 * p[2] + 4.0 * p[3] - 5.0 * p[4]
        + 6.0 * p[5]
        + 7.0 * p[6]
        + 8.0 * p[7]
        + 9.0 * p[8]
}

#[acc]
fn m55_mirror(m: &Matrix<i32>) -> Matrix<i32> {
    m.stencil(
        Boundary::Mirror,
        |[[a0, _, a2, _, a4], [_, b1, _, _, _], [c0, _, c2, _, c4], [_, _, _, d3, _], [e0, _, e2, _, e4]]| {
            a0 + a4 * 2 + e0 * 3 + e4 * 5 + c2 * 7 + b1 - d3 + a2 * 11 - e2 * 13 + c0 * 17 - c4 * 19
        },
    )
}

fn f55(p: &[i32]) -> i32 {
    let at = |r: usize, c: usize| p[r * 5 + c];
    let terms = [
        (at(0, 0), 1),
        (at(0, 4), 2),
        (at(4, 0), 3),
        (at(4, 4), 5),
        (at(2, 2), 7),
        (at(1, 1), 1),
        (at(3, 3), -1),
        (at(0, 2), 11),
        (at(4, 2), -13),
        (at(2, 0), 17),
        (at(2, 4), -19),
    ];
    terms
        .iter()
        .fold(0i32, |s, (x, w)| s.wrapping_add(x.wrapping_mul(*w)))
}

#[acc]
fn m35_wrap(m: &Matrix<f32>) -> Matrix<f32> {
    m.stencil(
        Boundary::Wrap,
        |[[a, b, c, d, e], [f, g, h, i, j], [k, l, n, o, p]]| {
            a - 2.0 * e + 3.0 * f + 0.5 * h - 4.0 * j + k * 1.5 + l - n * 2.5 + o + 6.0 * p + b * 0.25 - c
                + d * 0.75
                + g
                - i
        },
    )
}

fn f35(p: &[f32]) -> f32 {
    p[0] - 2.0 * p[4] + 3.0 * p[5] + 0.5 * p[7] - 4.0 * p[9] + p[10] * 1.5 + p[11] - p[12] * 2.5
        + p[13]
        + 6.0 * p[14]
        + p[1] * 0.25
        - p[2]
        + p[3] * 0.75
        + p[6]
        - p[8]
}

#[acc]
fn m53_clamp(m: &Matrix<i32>, k: i32) -> Matrix<i32> {
    m.stencil(
        Boundary::Clamp,
        |[[a, b, c], [d, _, f], [g, h, i], [j, _, l], [n, o, p]]| {
            a * k + b * 2 - c * 3 + d * 5 - f + g * 7 + h - i * 11 + j * 13 - l + n * 17 - o + p * 19
        },
    )
}

fn f53(k: i32) -> impl Fn(&[i32]) -> i32 {
    move |p| {
        let w = [k, 2, -3, 5, 0, -1, 7, 1, -11, 13, 0, -1, 17, -1, 19];
        p.iter()
            .zip(w)
            .fold(0i32, |s, (x, w)| s.wrapping_add(x.wrapping_mul(w)))
    }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn matrices_3x3(m in mat_of(f32s(), 48, 128)) {
        let a = m.to_vec();
        let sh = m.shape();
        let ax = [arg_of(&m)];
        check_ref(m33_clamp::SOURCE, "m33_clamp", &ax, m33_clamp(&m), &sh, &stencil_ref(&a, &sh, &[3, 3], B::Clamp, f33));
        check_ref(m33_mirror::SOURCE, "m33_mirror", &ax, m33_mirror(&m), &sh, &stencil_ref(&a, &sh, &[3, 3], B::Mirror, f33));
        check_ref(m33_wrap::SOURCE, "m33_wrap", &ax, m33_wrap(&m), &sh, &stencil_ref(&a, &sh, &[3, 3], B::Wrap, f33));
        check_ref(m33_const::SOURCE, "m33_const", &ax, m33_const(&m), &sh, &stencil_ref(&a, &sh, &[3, 3], B::Const(0.25), f33));
        check_ref(m35_wrap::SOURCE, "m35_wrap", &ax, m35_wrap(&m), &sh, &stencil_ref(&a, &sh, &[3, 5], B::Wrap, f35));
    }

    #[test]
    fn matrices_int(m in mat_of(any::<i32>(), 48, 128), k in any::<i32>()) {
        let a = m.to_vec();
        let sh = m.shape();
        check_ref(m55_mirror::SOURCE, "m55_mirror", &[arg_of(&m)], m55_mirror(&m), &sh, &stencil_ref(&a, &sh, &[5, 5], B::Mirror, f55));
        check_ref(
            m53_clamp::SOURCE, "m53_clamp", &[arg_of(&m), arg_of(k)], m53_clamp(&m, k), &sh,
            &stencil_ref(&a, &sh, &[5, 3], B::Clamp, f53(k)),
        );
    }
}

/// A matrix large enough for several parallel chunks, in pools of 1, 3 and 8 threads.
#[test]
fn matrices_large() {
    for sh in [[300usize, 301], [1, 40_000], [40_000, 1], [2, 2]] {
        let a: Vec<f32> = (0..sh[0] * sh[1])
            .map(|i| (hash(i) % 2000) as f32 / 10.0 - 100.0)
            .collect();
        let m = Matrix::from_vec(sh, a.clone()).expect("shape");
        let ax = [arg_of(&m)];
        for pool in pools() {
            let got = pool.install(|| m33_mirror(&m));
            check_ref(
                m33_mirror::SOURCE,
                "m33_mirror",
                &ax,
                got,
                &sh,
                &stencil_ref(&a, &sh, &[3, 3], B::Mirror, f33),
            );
            let got = pool.install(|| m35_wrap(&m));
            check_ref(
                m35_wrap::SOURCE,
                "m35_wrap",
                &ax,
                got,
                &sh,
                &stencil_ref(&a, &sh, &[3, 5], B::Wrap, f35),
            );
        }
    }
}

// ---- 3-D ------------------------------------------------------------------------

macro_rules! cube {
    ($name:ident, $t:ty, $b:expr) => {
        #[acc]
        fn $name(x: &Array<$t, 3>) -> Array<$t, 3> {
            x.stencil(
                $b,
                |[[[a, b, c], [d, e, f], [g, h, i]], [[j, k, l], [m, n, o], [p, q, r]], [[s, t, u], [v, w, y], [z, aa, ab]]]| {
                    a + b * 2 - c * 3 + d * 4 + e * 5 - f * 6 + g * 7 + h * 8 - i * 9 + j * 10 - k + l * 12
                        + m * 13
                        - n * 14
                        + o * 15
                        + p * 16
                        - q * 17
                        + r * 18
                        + s * 19
                        - t * 20
                        + u * 21
                        + v * 22
                        - w * 23
                        + y * 24
                        + z * 25
                        - aa * 26
                        + ab * 27
                },
            )
        }
    };
}

cube!(a333_clamp, i32, Boundary::Clamp);
cube!(a333_mirror, i32, Boundary::Mirror);
cube!(a333_wrap, i32, Boundary::Wrap);
cube!(a333_const, i32, Boundary::Constant(7));

fn f333(p: &[i32]) -> i32 {
    let w = [
        1i32, 2, -3, 4, 5, -6, 7, 8, -9, 10, -1, 12, 13, -14, 15, 16, -17, 18, 19, -20, 21, 22, -23, 24, 25,
        -26, 27,
    ];
    p.iter()
        .zip(w)
        .fold(0i32, |s, (x, w)| s.wrapping_add(x.wrapping_mul(w)))
}

#[acc]
fn a333_f32(x: &Array<f32, 3>) -> Array<f32, 3> {
    x.stencil(Boundary::Mirror, |[[[_, _, _], [_, a, _], [_, _, _]], [[_, b, _], [c, d, e], [_, f, _]], [[_, _, _], [_, g, _], [_, _, _]]]| {
        a + b + c - 6.0 * d + e + f + g * 0.5
    })
}

fn f333f(p: &[f32]) -> f32 {
    p[4] + p[10] + p[12] - 6.0 * p[13] + p[14] + p[16] + p[22] * 0.5
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn cubes(x in arr3_of(any::<i32>(), 16, 32, 64), y in arr3_of(f32s(), 16, 32, 64)) {
        let a = x.to_vec();
        let sh = x.shape();
        let ax = [arg_of(&x)];
        check_ref(a333_clamp::SOURCE, "a333_clamp", &ax, a333_clamp(&x), &sh, &stencil_ref(&a, &sh, &[3, 3, 3], B::Clamp, f333));
        check_ref(a333_mirror::SOURCE, "a333_mirror", &ax, a333_mirror(&x), &sh, &stencil_ref(&a, &sh, &[3, 3, 3], B::Mirror, f333));
        check_ref(a333_wrap::SOURCE, "a333_wrap", &ax, a333_wrap(&x), &sh, &stencil_ref(&a, &sh, &[3, 3, 3], B::Wrap, f333));
        check_ref(a333_const::SOURCE, "a333_const", &ax, a333_const(&x), &sh, &stencil_ref(&a, &sh, &[3, 3, 3], B::Const(7), f333));
        let b = y.to_vec();
        let sh = y.shape();
        check_ref(a333_f32::SOURCE, "a333_f32", &[arg_of(&y)], a333_f32(&y), &sh, &stencil_ref(&b, &sh, &[3, 3, 3], B::Mirror, f333f));
    }
}

// ---- stencil2 -------------------------------------------------------------------

#[acc]
fn st2_v(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
    xs.stencil2(
        Boundary::Clamp,
        &ys,
        Boundary::Wrap,
        |[a, b, c], [d, e, f, g, h]| a * b - c + d * 2.0 - e + f * 0.5 + g - h * 3.0,
    )
}

fn f2v(p: &[f32], q: &[f32]) -> f32 {
    p[0] * p[1] - p[2] + q[0] * 2.0 - q[1] + q[2] * 0.5 + q[3] - q[4] * 3.0
}

#[acc]
fn st2_m(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> {
    a.stencil2(
        Boundary::Mirror,
        b,
        Boundary::Constant(-5),
        |[[p, q, r], [s, t, u], [v, w, x]], [[y], [z], [zz]]| {
            p - q * 2 + r * 3 + s * 4 - t * 5 + u * 6 + v * 7 - w * 8 + x * 9 + y * 10 - z * 11 + zz * 12
        },
    )
}

fn f2m(p: &[i32], q: &[i32]) -> i32 {
    let wp = [1i32, -2, 3, 4, -5, 6, 7, -8, 9];
    let wq = [10i32, -11, 12];
    let s = p
        .iter()
        .zip(wp)
        .fold(0i32, |s, (x, w)| s.wrapping_add(x.wrapping_mul(w)));
    q.iter()
        .zip(wq)
        .fold(s, |s, (x, w)| s.wrapping_add(x.wrapping_mul(w)))
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn stencil2(xs in vec_of(f32s(), 1024), ys in vec_of(f32s(), 1024),
                a in mat_of(any::<i32>(), 48, 128), b in mat_of(any::<i32>(), 48, 128)) {
        let (sh, want) = stencil2_ref(
            (&xs.to_vec(), &[xs.len()], &[3], B::Clamp),
            (&ys.to_vec(), &[ys.len()], &[5], B::Wrap),
            f2v,
        );
        check_ref(st2_v::SOURCE, "st2_v", &[arg_of(&xs), arg_of(&ys)], st2_v(&xs, &ys), &sh, &want);
        let (sh, want) = stencil2_ref(
            (&a.to_vec(), &a.shape(), &[3, 3], B::Mirror),
            (&b.to_vec(), &b.shape(), &[3, 1], B::Const(-5)),
            f2m,
        );
        check_ref(st2_m::SOURCE, "st2_m", &[arg_of(&a), arg_of(&b)], st2_m(&a, &b), &sh, &want);
    }
}

// ---- fusion with producers and consumers --------------------------------------

/// A stencil fused into a map and a sum: one kernel.
#[acc]
fn smooth_sum(xs: &Vector<f32>) -> Scalar<f32> {
    xs.stencil(Boundary::Clamp, |[l, c, r]| l + c + r)
        .map(|x| x * 0.5)
        .sum()
}

/// Its input is a producer (materialised first), its result is consumed by a
/// zip_with with another array.
#[acc]
fn of_map(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| x * 2.0)
        .stencil(Boundary::Wrap, |[l, _, r]| l - r)
        .zip_with(ys, |a, b| a * b)
}

/// Row sums of a stencil (a fold consumer) and a reversed stencil (a
/// backpermute consumer: neighbours of another index than the kernel's).
#[acc]
fn rows_and_reverse(m: &Matrix<f32>, xs: &Vector<i32>) -> (Vector<f32>, Vector<i32>) {
    let rows = m
        .stencil(Boundary::Mirror, |[[a, _, c], [_, e, _], [g, _, i]]| {
            a + c - e + g * 2.0 - i
        })
        .sum();
    let n = xs.len();
    let rev = xs
        .stencil(Boundary::Constant(100), |[l, c, r]| l * 3 - c + r)
        .backpermute([n], |[i]| [n - 1 - i]);
    (rows, rev)
}

/// Scan of a stencil, and a stencil in both operands of a zip_with.
#[acc]
fn scan_of(xs: &Vector<i64>) -> (Vector<i64>, Vector<i64>) {
    let s = xs
        .stencil(Boundary::Mirror, |[a, b, c, d, e]| {
            a - b * 2 + c * 3 - d * 4 + e * 5
        })
        .scanl1(|a, b| a + b);
    let t = xs
        .stencil(Boundary::Clamp, |[a, b, c]| a * b - c)
        .zip_with(&xs.stencil(Boundary::Wrap, |[a, _, c]| a - c), |p, q| p * 7 + q);
    (s, t)
}

#[test]
fn stencil_map_sum_is_one_kernel() {
    let explain = smooth_sum::explain();
    assert!(explain.contains("program `smooth_sum`: 1 kernel"), "{explain}");
    assert!(explain.contains("fuses: stencil -> map -> fold"), "{explain}");
    let (_, plan) = accel_core::compile_source(smooth_sum::SOURCE, "smooth_sum").expect("compiles");
    assert_eq!(plan.kernels().count(), 1);
    assert_eq!(plan.materialised().count(), 1);
    // The input is manifest and the map fuses: two kernels, the stencil's
    // input and the stencil + zip_with.
    let explain = of_map::explain();
    assert!(explain.contains("program `of_map`: 2 kernels"), "{explain}");
    assert!(explain.contains("fuses: stencil -> zip_with"), "{explain}");
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn fused(xs in vec_of(f32s(), 1024), ys in vec_of(f32s(), 1024), m in mat_of(f32s(), 48, 128),
             is in vec_of(any::<i32>(), 1024), ls in vec_of(any::<i64>(), 1024)) {
        let a = xs.to_vec();
        let sh = [a.len()];
        // smooth_sum: a parallel sum, compared with a tolerance.
        let want: f32 = stencil_ref(&a, &sh, &[3], B::Clamp, |p| (p[0] + p[1] + p[2]) * 0.5).iter().sum();
        let got = smooth_sum(&xs).expect("runs").value();
        prop_assert!(got.close(want) || (got - want).abs() <= 1e-4 * a.len() as f32, "{got} vs {want}");
        let interp = interpret(smooth_sum::SOURCE, "smooth_sum", &[arg_of(&xs)]).expect("interpreter");
        let v = match interp {
            Dyn::Scalar(v) => v,
            Dyn::Array(a) if a.elems.len() == 1 => a.elems[0].clone(),
            other => panic!("smooth_sum interpreter: {other:?}"),
        };
        let iv = f32::from_value(&v).expect("f32");
        prop_assert!(iv.close(want) || (iv - want).abs() <= 1e-4 * a.len() as f32, "{iv} vs {want}");

        let doubled: Vec<f32> = a.iter().map(|x| x * 2.0).collect();
        let st = stencil_ref(&doubled, &sh, &[3], B::Wrap, |p| p[0] - p[2]);
        let b = ys.to_vec();
        let n = a.len().min(b.len());
        let want: Vec<f32> = (0..n).map(|i| st[i] * b[i]).collect();
        check_ref(of_map::SOURCE, "of_map", &[arg_of(&xs), arg_of(&ys)], of_map(&xs, &ys), &[n], &want);

        // rows_and_reverse, on multiples of 1/4: row sums of floats are exact
        // then in any order (the CPU folds `+` with interleaved accumulators).
        let m = Matrix::from_vec(m.shape(), m.to_vec().iter().map(|x| (x * 4.0).round() / 4.0).collect())
            .expect("same shape");
        let (rows, rev) = rows_and_reverse(&m, &is).expect("runs");
        let ma = m.to_vec();
        let msh = m.shape();
        let st = stencil_ref(&ma, &msh, &[3, 3], B::Mirror, |p| p[0] + p[2] - p[4] + p[6] * 2.0 - p[8]);
        let want_rows: Vec<f32> = (0..msh[0]).map(|r| st[r * msh[1]..(r + 1) * msh[1]].iter().sum()).collect();
        same("rows", &[msh[0]], &rows.to_vec(), &want_rows);
        let ia = is.to_vec();
        let st = stencil_ref(&ia, &[ia.len()], &[3], B::Const(100), |p| {
            p[0].wrapping_mul(3).wrapping_sub(p[1]).wrapping_add(p[2])
        });
        let want_rev: Vec<i32> = st.iter().rev().copied().collect();
        same("reverse", &[ia.len()], &rev.to_vec(), &want_rev);
        check_ok(
            rows_and_reverse::SOURCE, "rows_and_reverse", &[arg_of(&m), arg_of(&is)],
            rows_and_reverse(&m, &is), F32_TOL,
        );

        // scan_of
        let la = ls.to_vec();
        let lsh = [la.len()];
        let st = stencil_ref(&la, &lsh, &[5], B::Mirror, |p| {
            p[0].wrapping_sub(p[1].wrapping_mul(2)).wrapping_add(p[2].wrapping_mul(3))
                .wrapping_sub(p[3].wrapping_mul(4)).wrapping_add(p[4].wrapping_mul(5))
        });
        let mut acc = 0i64;
        let want_s: Vec<i64> = st.iter().map(|x| { acc = acc.wrapping_add(*x); acc }).collect();
        let p = stencil_ref(&la, &lsh, &[3], B::Clamp, |p| p[0].wrapping_mul(p[1]).wrapping_sub(p[2]));
        let q = stencil_ref(&la, &lsh, &[3], B::Wrap, |p| p[0].wrapping_sub(p[2]));
        let want_t: Vec<i64> = p.iter().zip(&q).map(|(p, q)| p.wrapping_mul(7).wrapping_add(*q)).collect();
        let (s, t) = scan_of(&ls).expect("runs");
        same("scan_of.0", &lsh, &s.to_vec(), &want_s);
        same("scan_of.1", &lsh, &t.to_vec(), &want_t);
        check_ok(scan_of::SOURCE, "scan_of", &[arg_of(&ls)], scan_of(&ls), EXACT);
    }
}

// ---- tuples, and constants read from arrays --------------------------------------

/// Points of a tuple array are patterns too.
#[acc]
fn pairs(ps: &Vector<(f32, i32)>) -> Vector<f32> {
    ps.stencil(Boundary::Constant((0.5, 3)), |[(a, i), _, (c, k)]| {
        a * (i as f32) - c * (k as f32)
    })
}

/// The constant is read from an array: an index out of bounds is an error
/// exactly when some neighbour lies outside (on both sides).
#[acc]
fn const_from_array(xs: &Vector<f32>, ks: &Vector<f32>) -> Vector<f32> {
    xs.stencil(Boundary::Constant(ks[[2]]), |[l, c, r]| l + c * 2.0 + r)
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn tuples_and_constants(ps in vec_of((f32s(), -50i32..50), 300), xs in vec_of(f32s(), 300), ks in vec_of(f32s(), 5)) {
        let a = ps.to_vec();
        let sh = [a.len()];
        let want = stencil_ref(&a, &sh, &[3], B::Const((0.5, 3)), |p| p[0].0 * (p[0].1 as f32) - p[2].0 * (p[2].1 as f32));
        check_ref(pairs::SOURCE, "pairs", &[arg_of(&ps)], pairs(&ps), &sh, &want);
        let r = check(const_from_array::SOURCE, "const_from_array", &[arg_of(&xs), arg_of(&ks)], const_from_array(&xs, &ks), EXACT);
        let r = expect_fails_if("const_from_array", r, !(xs.is_empty() || ks.len() >= 3), accel::ErrorKind::IndexOutOfBounds);
        if let Ok(got) = r {
            let k = ks.to_vec().get(2).copied().unwrap_or(0.0);
            let want = stencil_ref(&xs.to_vec(), &[xs.len()], &[3], B::Const(k), |p| p[0] + p[1] * 2.0 + p[2]);
            prop_assert!(got.approx_eq(&arg_of(Vector::from(want)), 0.0));
        }
    }
}

// ---- a stencil of a stencil ------------------------------------------------------

/// The inner stencil is materialised (a stencil's inputs are manifest): two kernels.
#[acc]
fn twice(m: &Matrix<i32>) -> Matrix<i32> {
    m.stencil(Boundary::Wrap, |[[_, n, _], [w, c, e], [_, s, _]]| {
        n + s + w + e - c * 4
    })
    .stencil(Boundary::Mirror, |[[a, _, b], [_, _, _], [c, _, d]]| {
        a - b * 2 + c * 3 - d
    })
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn stencil_of_stencil(m in mat_of(any::<i32>(), 48, 128)) {
        let sh = m.shape();
        let inner = stencil_ref(&m.to_vec(), &sh, &[3, 3], B::Wrap, |p| {
            p[1].wrapping_add(p[7]).wrapping_add(p[3]).wrapping_add(p[5]).wrapping_sub(p[4].wrapping_mul(4))
        });
        let want = stencil_ref(&inner, &sh, &[3, 3], B::Mirror, |p| {
            p[0].wrapping_sub(p[2].wrapping_mul(2)).wrapping_add(p[6].wrapping_mul(3)).wrapping_sub(p[8])
        });
        check_ref(twice::SOURCE, "twice", &[arg_of(&m)], twice(&m), &sh, &want);
        prop_assert!(twice::explain().contains("2 kernels"), "{}", twice::explain());
    }
}
