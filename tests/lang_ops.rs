//! The library operations (layout, reductions, scans, segmented operations,
//! scatter, irregular operations, sorting). Each program runs compiled and on
//! the interpreter (which must agree), and the compiled result is compared
//! with a plain sequential Rust reference written here, on random inputs
//! including empty arrays and empty segments.

mod common;

use accel::dynamic::{Dyn, Value};
use accel::prelude::*;
use accel::ErrorKind;
use common::*;
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(24),
        max_shrink_iters: 100,
        ..ProptestConfig::default()
    }
}

/// Row-major rows of a matrix.
fn rows<T: accel::Elem>(m: &Matrix<T>) -> Vec<Vec<T>> {
    let [_, c] = m.shape();
    let v = m.to_vec();
    if c == 0 {
        return vec![vec![]; m.shape()[0]];
    }
    v.chunks(c).map(|r| r.to_vec()).collect()
}

// ---- shape and layout ------------------------------------------------------------

#[acc]
fn rev_v(xs: &Vector<i32>) -> Vector<i32> {
    xs.reverse()
}

#[acc]
fn rev_m(m: &Matrix<u8>) -> Matrix<u8> {
    m.reverse().map(|x| x ^ 1)
}

#[acc]
fn transpose_m(m: &Matrix<(i16, bool)>) -> Matrix<(i16, bool)> {
    m.transpose()
}

#[acc]
fn take_drop(xs: &Vector<i64>, n: usize) -> (Vector<i64>, Vector<i64>) {
    (xs.take(n), xs.drop(n))
}

#[acc]
fn init_tail_m(m: &Matrix<u16>) -> (Matrix<u16>, Matrix<u16>) {
    (m.init(), m.tail())
}

#[acc]
fn concat_v(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
    xs.concat(ys)
}

#[acc]
fn concat_m(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> {
    a.concat(b)
}

#[acc]
fn flatten3(a: &Array<u32, 3>) -> Vector<u32> {
    a.flatten()
}

#[acc]
fn gather_v(xs: &Vector<i16>, ix: &Vector<i32>) -> Vector<i16> {
    xs.gather(ix)
}

#[acc]
fn enumerate_m(m: &Matrix<i8>) -> (Matrix<(usize, i8)>, Matrix<((usize, usize), i8)>) {
    (m.enumerate(), m.indexed())
}

#[acc]
fn iota_f(n: usize) -> (Vector<usize>, Vector<f64>) {
    let a = iota(n);
    let b: Vector<f64> = iota(n);
    (a, b)
}

#[acc]
fn replicate_rows(xs: &Vector<i32>, n: usize) -> Matrix<i32> {
    xs.replicate([n, All])
}

#[acc]
fn replicate_cols(xs: &Vector<i32>, n: usize) -> Matrix<i32> {
    xs.replicate([Any, n])
}

#[acc]
fn replicate_3(m: &Matrix<u8>, n: usize) -> Array<u8, 3> {
    m.replicate([All, n, All])
}

#[acc]
fn slice_row(m: &Matrix<i64>, i: usize) -> Vector<i64> {
    m.slice([i, All])
}

#[acc]
fn slice_3(a: &Array<u16, 3>, j: usize) -> Matrix<u16> {
    a.slice([All, j, All])
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn reverse_transpose(xs in vector(any::<i32>(), 1024), m in matrix(any::<u8>(), 48, 128),
                         t in matrix((any::<i16>(), any::<bool>()), 48, 128)) {
        let got = check_ok(rev_v::SOURCE, "rev_v", &[arg(&xs)], rev_v(&xs), EXACT);
        let mut want = xs.to_vec();
        want.reverse();
        prop_assert_eq!(got, arg(Vector::from(want)));

        let r = rev_m(&m).unwrap();
        check_ok(rev_m::SOURCE, "rev_m", &[arg(&m)], rev_m(&m), EXACT);
        let want: Vec<u8> = rows(&m).into_iter().flat_map(|mut r| { r.reverse(); r }).map(|x| x ^ 1).collect();
        prop_assert_eq!(r.to_vec(), want);
        prop_assert_eq!(r.shape(), m.shape());

        let tt = transpose_m(&t).unwrap();
        check_ok(transpose_m::SOURCE, "transpose_m", &[arg(&t)], transpose_m(&t), EXACT);
        let [rr, cc] = t.shape();
        prop_assert_eq!(tt.shape(), [cc, rr]);
        for i in 0..rr { for j in 0..cc { prop_assert_eq!(tt.get([j, i]), t.get([i, j])); } }
    }

    #[test]
    fn take_drop_init_tail(xs in vector(any::<i64>(), 1024), n in 0usize..1100, m in matrix(any::<u16>(), 48, 128)) {
        let (t, d) = take_drop(&xs, n).unwrap();
        check_ok(take_drop::SOURCE, "take_drop", &[arg(&xs), arg(n)], take_drop(&xs, n), EXACT);
        let v = xs.to_vec();
        let k = n.min(v.len());
        prop_assert_eq!(t.to_vec(), v[..k].to_vec());
        prop_assert_eq!(d.to_vec(), v[k..].to_vec());

        let (i, tl) = init_tail_m(&m).unwrap();
        check_ok(init_tail_m::SOURCE, "init_tail_m", &[arg(&m)], init_tail_m(&m), EXACT);
        let want_i: Vec<u16> = rows(&m).into_iter().flat_map(|r| r[..r.len().saturating_sub(1)].to_vec()).collect();
        let want_t: Vec<u16> = rows(&m).into_iter().flat_map(|r| r[r.len().min(1)..].to_vec()).collect();
        prop_assert_eq!(i.to_vec(), want_i);
        prop_assert_eq!(tl.to_vec(), want_t);
        prop_assert_eq!(i.shape()[1], m.shape()[1].saturating_sub(1));
    }

    #[test]
    fn concat_flatten(xs in vector(-1e3f32..1e3, 1024), ys in vector(-1e3f32..1e3, 1024),
                      a in matrix(any::<i32>(), 48, 64), b in matrix(any::<i32>(), 48, 64),
                      c in array3(any::<u32>(), 16, 32, 64)) {
        let got = concat_v(&xs, &ys).unwrap();
        check_ok(concat_v::SOURCE, "concat_v", &[arg(&xs), arg(&ys)], concat_v(&xs, &ys), EXACT);
        let mut want = xs.to_vec();
        want.extend(ys.to_vec());
        prop_assert_eq!(got.to_vec(), want);

        let got = concat_m(&a, &b).unwrap();
        check_ok(concat_m::SOURCE, "concat_m", &[arg(&a), arg(&b)], concat_m(&a, &b), EXACT);
        let r = a.shape()[0].min(b.shape()[0]);
        let want: Vec<i32> = rows(&a).into_iter().zip(rows(&b)).take(r).flat_map(|(x, y)| x.into_iter().chain(y)).collect();
        prop_assert_eq!(got.shape(), [r, a.shape()[1] + b.shape()[1]]);
        prop_assert_eq!(got.to_vec(), want);

        let got = check_ok(flatten3::SOURCE, "flatten3", &[arg(&c)], flatten3(&c), EXACT);
        prop_assert_eq!(got, arg(Vector::from(c.to_vec())));
    }

    #[test]
    fn gather_enumerate_iota(xs in vector(any::<i16>(), 1024), seed in any::<u64>(), m in matrix(any::<i8>(), 48, 128), n in 0usize..1024) {
        let len = xs.len();
        let ix: Vector<i32> = Vector::from_fn([(seed % 300) as usize], |[i]| if len == 0 { 0 } else { (hash(i + seed as usize) % len as u64) as i32 });
        let got = gather_v(&xs, &ix);
        if len == 0 && !ix.is_empty() {
            check_err(gather_v::SOURCE, "gather_v", &[arg(&xs), arg(&ix)], got, ErrorKind::IndexOutOfBounds);
        } else {
            let got = got.unwrap();
            check_ok(gather_v::SOURCE, "gather_v", &[arg(&xs), arg(&ix)], gather_v(&xs, &ix), EXACT);
            let want: Vec<i16> = ix.to_vec().iter().map(|&i| xs.to_vec()[i as usize]).collect();
            prop_assert_eq!(got.to_vec(), want);
        }

        let (e, x) = enumerate_m(&m).unwrap();
        check_ok(enumerate_m::SOURCE, "enumerate_m", &[arg(&m)], enumerate_m(&m), EXACT);
        let [_, c] = m.shape();
        let want_e: Vec<(usize, i8)> = m.to_vec().into_iter().enumerate().collect();
        let want_x: Vec<((usize, usize), i8)> = m.to_vec().into_iter().enumerate().map(|(l, v)| ((l / c, l % c), v)).collect();
        prop_assert_eq!(e.to_vec(), want_e);
        prop_assert_eq!(x.to_vec(), want_x);

        let (a, b) = iota_f(n).unwrap();
        check_ok(iota_f::SOURCE, "iota_f", &[arg(n)], iota_f(n), EXACT);
        prop_assert_eq!(a.to_vec(), (0..n).collect::<Vec<_>>());
        prop_assert_eq!(b.to_vec(), (0..n).map(|i| i as f64).collect::<Vec<_>>());
    }

    #[test]
    fn replicate_slice(xs in vector(any::<i32>(), 128), n in 0usize..40, m in matrix(any::<u8>(), 16, 32),
                       big in matrix(any::<i64>(), 48, 128), i in 0usize..50, a in array3(any::<u16>(), 16, 32, 64), j in 0usize..34) {
        let got = replicate_rows(&xs, n).unwrap();
        check_ok(replicate_rows::SOURCE, "replicate_rows", &[arg(&xs), arg(n)], replicate_rows(&xs, n), EXACT);
        prop_assert_eq!(got.shape(), [n, xs.len()]);
        prop_assert_eq!(got.to_vec(), (0..n).flat_map(|_| xs.to_vec()).collect::<Vec<_>>());

        let got = replicate_cols(&xs, n).unwrap();
        check_ok(replicate_cols::SOURCE, "replicate_cols", &[arg(&xs), arg(n)], replicate_cols(&xs, n), EXACT);
        prop_assert_eq!(got.shape(), [xs.len(), n]);
        prop_assert_eq!(got.to_vec(), xs.to_vec().into_iter().flat_map(|x| vec![x; n]).collect::<Vec<_>>());

        let got = replicate_3(&m, n % 5).unwrap();
        check_ok(replicate_3::SOURCE, "replicate_3", &[arg(&m), arg(n % 5)], replicate_3(&m, n % 5), EXACT);
        let [r, c] = m.shape();
        prop_assert_eq!(got.shape(), [r, n % 5, c]);
        for p in 0..r { for q in 0..n % 5 { for s in 0..c { prop_assert_eq!(got.get([p, q, s]), m.get([p, s])); } } }

        let got = slice_row(&big, i);
        if i < big.shape()[0] {
            check_ok(slice_row::SOURCE, "slice_row", &[arg(&big), arg(i)], slice_row(&big, i), EXACT);
            prop_assert_eq!(got.unwrap().to_vec(), rows(&big)[i].clone());
        } else if big.shape()[1] > 0 {
            check_err(slice_row::SOURCE, "slice_row", &[arg(&big), arg(i)], got, ErrorKind::IndexOutOfBounds);
        }

        let [p, q, s] = a.shape();
        if j < q {
            let got = slice_3(&a, j).unwrap();
            check_ok(slice_3::SOURCE, "slice_3", &[arg(&a), arg(j)], slice_3(&a, j), EXACT);
            prop_assert_eq!(got.shape(), [p, s]);
            for x in 0..p { for z in 0..s { prop_assert_eq!(got.get([x, z]), a.get([x, j, z])); } }
        }
    }
}

// ---- reductions --------------------------------------------------------------------

#[acc]
fn fold1_all_max(a: &Matrix<i32>) -> Scalar<i32> {
    a.fold1_all(|x, y| x.max(y))
}

#[acc]
fn axes3(a: &Array<i32, 3>) -> (Matrix<i32>, Matrix<i32>, Matrix<i32>, Matrix<i32>, Matrix<i32>) {
    (
        a.sum_axis(0),
        a.sum_axis(1),
        a.maximum_axis(0),
        a.product_axis(2),
        // Associative, not commutative: the first nonzero element in index order.
        a.fold_axis(1, 0, |x, y| if x != 0 { x } else { y }),
    )
}

/// docs/language.md's example.
#[acc]
fn column_stats(m: &Matrix<f64>) -> (Vector<f64>, Vector<f64>, Vector<f64>) {
    let t = m.transpose();
    (m.sum_axis(0), t.mean(), t.variance())
}

#[acc]
fn moments_m(m: &Matrix<f64>) -> (Vector<f64>, Vector<f64>, Scalar<f64>, Vector<f64>) {
    (m.mean(), m.variance(), m.sum_all(), m.transpose().mean())
}

#[acc]
fn randoms(n: usize, m: usize, seed: u64) -> (Matrix<u32>, Matrix<f32>, Matrix<f64>) {
    let wide: Matrix<f64> = uniform([n, m], seed);
    (random_bits([n, m], seed), uniform([n, m], seed), wide)
}

/// Uniform numbers used by a consumer (the generator fuses into it).
#[acc]
fn noisy_sum(xs: &Vector<f32>, seed: u64) -> Scalar<f32> {
    uniform([xs.len()], seed).zip_with(xs, |u, x| x + u).sum()
}

#[acc]
fn zip_exact(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> {
    a.zip_with_exact(b, |x, y| x.wrapping_sub(y))
}

#[acc]
fn zip_bcast(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> {
    a.zip_with_broadcast(b, |x, y| x.wrapping_mul(3).wrapping_add(y))
}

/// NumPy's broadcast of two shapes of one rank, or `None`.
fn broadcast_shape(a: [usize; 2], b: [usize; 2]) -> Option<[usize; 2]> {
    let axis = |x: usize, y: usize| match (x, y) {
        _ if x == y => Some(x),
        (1, y) => Some(y),
        (x, 1) => Some(x),
        _ => None,
    };
    Some([axis(a[0], b[0])?, axis(a[1], b[1])?])
}

/// docs/language.md's example.
#[acc]
fn jitter(xs: &Vector<f32>, seed: u64) -> Vector<f32> {
    uniform([xs.len()], seed).zip_with(xs, |u, x| x + 0.01 * (u - 0.5))
}

/// Philox4x32-10 (Random123's `philox4x32`), written here from the paper.
fn philox(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let (mut c, mut k) = (ctr, key);
    for round in 0..10 {
        if round > 0 {
            k = [k[0].wrapping_add(0x9E37_79B9), k[1].wrapping_add(0xBB67_AE85)];
        }
        let p0 = 0xD251_1F53u64 * c[0] as u64;
        let p1 = 0xCD9E_8D57u64 * c[2] as u64;
        c = [
            (p1 >> 32) as u32 ^ c[1] ^ k[0],
            p1 as u32,
            (p0 >> 32) as u32 ^ c[3] ^ k[1],
            p0 as u32,
        ];
    }
    c
}

#[acc]
fn fold_all_sum(a: &Array<i64, 3>) -> Scalar<i64> {
    a.fold_all(0, |x, y| x + y)
}

#[acc]
fn all_any_m(m: &Matrix<i16>) -> (Vector<bool>, Vector<bool>) {
    (m.all(|x| x > -20000), m.any(|x| x % 7 == 0))
}

#[acc]
fn arg_i(m: &Matrix<u8>) -> (Vector<usize>, Vector<usize>) {
    (m.argmin(), m.argmax())
}

#[acc]
fn arg_f(xs: &Vector<f32>) -> (Scalar<usize>, Scalar<usize>) {
    (xs.argmin(), xs.argmax())
}

#[acc]
fn fold_seg_v(xs: &Vector<i32>, lens: &Vector<i32>) -> Vector<i32> {
    xs.fold_seg(lens, 5, |a, x| a * 3 + x)
}

#[acc]
fn fold_seg_m(m: &Matrix<f64>, lens: &Vector<usize>) -> Matrix<f64> {
    m.fold_seg(lens, 0.0, |a, x| a + x)
}

#[acc]
fn fold_seg_off(xs: &Vector<i64>, offs: &Vector<u32>) -> Vector<i64> {
    xs.fold_seg_offsets(offs, 1, |a, x| a.max(x))
}

/// Random segment lengths adding up to `n` (with empty segments).
fn segments(n: usize, seed: u64) -> Vec<i32> {
    let mut out = Vec::new();
    let mut left = n;
    let mut k = 0;
    while left > 0 || (k < 3 && seed % 2 == 0) {
        let h = hash(seed as usize + k) as usize;
        let len = if h % 4 == 0 {
            0
        } else {
            (h / 4) % (left.min(40) + 1)
        };
        out.push(len as i32);
        left -= len;
        k += 1;
    }
    if seed % 3 == 0 {
        out.push(0);
    }
    out
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn folds(m in matrix(any::<i32>(), 48, 128), a in array3(any::<i64>(), 16, 32, 64), s in matrix(any::<i16>(), 48, 128)) {
        let got = fold1_all_max(&m);
        if m.is_empty() {
            check_err(fold1_all_max::SOURCE, "fold1_all_max", &[arg(&m)], got, ErrorKind::EmptyReduction);
        } else {
            check_ok(fold1_all_max::SOURCE, "fold1_all_max", &[arg(&m)], fold1_all_max(&m), EXACT);
            prop_assert_eq!(got.unwrap().value(), m.to_vec().into_iter().max().unwrap());
        }
        let got = fold_all_sum(&a).unwrap();
        check_ok(fold_all_sum::SOURCE, "fold_all_sum", &[arg(&a)], fold_all_sum(&a), EXACT);
        prop_assert_eq!(got.value(), a.to_vec().into_iter().fold(0i64, |x, y| x.wrapping_add(y)));

        let (al, an) = all_any_m(&s).unwrap();
        check_ok(all_any_m::SOURCE, "all_any_m", &[arg(&s)], all_any_m(&s), EXACT);
        prop_assert_eq!(al.to_vec(), rows(&s).iter().map(|r| r.iter().all(|&x| x > -20000)).collect::<Vec<_>>());
        prop_assert_eq!(an.to_vec(), rows(&s).iter().map(|r| r.iter().any(|&x| x % 7 == 0)).collect::<Vec<_>>());
    }

    #[test]
    fn axis_reductions(a in array3(-50i32..50, 6, 7, 8)) {
        let [p, q, r] = a.shape();
        if p == 0 && q * r > 0 {
            // `maximum_axis(0)` of columns of no elements.
            check_err(axes3::SOURCE, "axes3", &[arg(&a)], axes3(&a), ErrorKind::EmptyReduction);
            return Ok(());
        }
        let got = axes3(&a).unwrap();
        check_ok(axes3::SOURCE, "axes3", &[arg(&a)], axes3(&a), EXACT);
        let v = a.to_vec();
        let at = |i: usize, j: usize, k: usize| v[(i * q + j) * r + k];
        let along = |n: usize, x: &dyn Fn(usize) -> i32, z: i32, f: &dyn Fn(i32, i32) -> i32| (0..n).map(x).fold(z, f);
        let add = |x: i32, y: i32| x.wrapping_add(y);
        for j in 0..q {
            for k in 0..r {
                prop_assert_eq!(got.0.get([j, k]), Some(along(p, &|i| at(i, j, k), 0, &add)));
                let mx = (0..p).map(|i| at(i, j, k)).max();
                prop_assert_eq!(got.2.get([j, k]), mx);
            }
        }
        for i in 0..p {
            for k in 0..r {
                prop_assert_eq!(got.1.get([i, k]), Some(along(q, &|j| at(i, j, k), 0, &add)));
                let first = (0..q).map(|j| at(i, j, k)).find(|&x| x != 0).unwrap_or(0);
                prop_assert_eq!(got.4.get([i, k]), Some(first));
            }
            for j in 0..q {
                let prod = (0..r).map(|k| at(i, j, k)).fold(1i32, i32::wrapping_mul);
                prop_assert_eq!(got.3.get([i, j]), Some(prod));
            }
        }
        prop_assert_eq!((got.0.shape(), got.1.shape(), got.3.shape()), ([q, r], [p, r], [p, q]));
    }

    #[test]
    fn mean_and_variance(m in matrix(-1e3f64..1e3, 12, 40)) {
        let (mean, var, total, col_mean) = moments_m(&m).unwrap();
        // The compiled sums may combine in another order than the
        // interpreter's: equal up to rounding.
        let _ = check(moments_m::SOURCE, "moments_m", &[arg(&m)], moments_m(&m), 1e-9);
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * (1.0 + y.abs()) || (x.is_nan() && y.is_nan());
        let [_, c] = m.shape();
        for (i, row) in rows(&m).iter().enumerate() {
            let mu = row.iter().sum::<f64>() / c as f64;
            let var_want = row.iter().map(|x| (x - mu) * (x - mu)).sum::<f64>() / c as f64;
            prop_assert!(close(mean.get([i]).unwrap(), mu), "mean of row {}", i);
            prop_assert!(close(var.get([i]).unwrap(), var_want), "variance of row {}", i);
        }
        prop_assert!(close(total.value(), m.to_vec().iter().sum()));
        let rs = rows(&m);
        let (sums, means, vars) = column_stats(&m).unwrap();
        let _ = check(column_stats::SOURCE, "column_stats", &[arg(&m)], column_stats(&m), 1e-9);
        for j in 0..c {
            let sum = rs.iter().map(|r| r[j]).sum::<f64>();
            let mu = sum / rs.len() as f64;
            let var = rs.iter().map(|r| (r[j] - mu) * (r[j] - mu)).sum::<f64>() / rs.len() as f64;
            prop_assert!(close(col_mean.get([j]).unwrap(), mu), "mean of column {}", j);
            prop_assert!(close(sums.get([j]).unwrap(), sum), "sum of column {}", j);
            prop_assert!(close(means.get([j]).unwrap(), mu), "mean of column {}", j);
            prop_assert!(close(vars.get([j]).unwrap(), var), "variance of column {}", j);
        }
    }

    #[test]
    fn counter_based_random_numbers(n in 0usize..9, m in 0usize..40, seed in any::<u64>()) {
        let (bits, u32s, u64s) = randoms(n, m, seed).unwrap();
        let args = [arg(n), arg(m), arg(seed)];
        check_ok(randoms::SOURCE, "randoms", &args, randoms(n, m, seed), EXACT);
        let key = [seed as u32, (seed >> 32) as u32];
        for p in 0..n * m {
            let w = philox([p as u32, (p >> 32) as u32, 0, 0], key);
            let ix = [p / m, p % m];
            prop_assert_eq!(bits.get(ix), Some(w[0]));
            prop_assert_eq!(u32s.get(ix), Some((w[0] >> 8) as f32 / (1u32 << 24) as f32));
            let b53 = ((w[0] as u64) << 21) | (w[1] as u64 >> 11);
            prop_assert_eq!(u64s.get(ix), Some(b53 as f64 / (1u64 << 53) as f64));
        }
    }

    #[test]
    fn zip_with_exact_checks_shapes(a in matrix(any::<i32>(), 6, 6), b in matrix(any::<i32>(), 6, 6), k in any::<i32>()) {
        // The same shape as `a`: the elementwise result.
        let same = Matrix::from_fn(a.shape(), |[i, j]| k ^ (i * 7 + j) as i32);
        let got = zip_exact(&a, &same).unwrap();
        check_ok(zip_exact::SOURCE, "zip_exact", &[arg(&a), arg(&same)], zip_exact(&a, &same), EXACT);
        let want: Vec<i32> = a.to_vec().iter().zip(same.to_vec()).map(|(x, y)| x.wrapping_sub(y)).collect();
        prop_assert_eq!((got.shape(), got.to_vec()), (a.shape(), want));
        // Another shape: `ShapeMismatch`, where `zip_with` would intersect.
        if b.shape() != a.shape() {
            check_err(zip_exact::SOURCE, "zip_exact", &[arg(&a), arg(&b)], zip_exact(&a, &b), ErrorKind::ShapeMismatch);
        }
    }

    #[test]
    fn zip_with_broadcast_follows_numpy(a in matrix(any::<i32>(), 6, 6), b in matrix(any::<i32>(), 6, 6), pick in 0usize..5) {
        // `b`, or a row, a column or a single entry of the same values: the
        // shapes that broadcast against `a`, and `b` itself, which may not.
        let [r, c] = a.shape();
        let shape = match pick {
            0 => [1, c],
            1 => [r, 1],
            2 => [1, 1],
            3 => [r, c],
            _ => b.shape(),
        };
        let vals = b.to_vec();
        let other = Matrix::from_fn(shape, |[i, j]| vals.get(i * shape[1] + j).copied().unwrap_or(7));
        let got = zip_bcast(&a, &other);
        match broadcast_shape(a.shape(), other.shape()) {
            Some(out) => {
                check_ok(zip_bcast::SOURCE, "zip_bcast", &[arg(&a), arg(&other)], zip_bcast(&a, &other), EXACT);
                let at = |m: &Matrix<i32>, i: usize, j: usize| {
                    let [mr, mc] = m.shape();
                    m.get([if mr == 1 { 0 } else { i }, if mc == 1 { 0 } else { j }]).unwrap()
                };
                let want = Matrix::from_fn(out, |[i, j]| at(&a, i, j).wrapping_mul(3).wrapping_add(at(&other, i, j)));
                let got = got.unwrap();
                prop_assert_eq!((got.shape(), got.to_vec()), (want.shape(), want.to_vec()));
            }
            None => check_err(zip_bcast::SOURCE, "zip_bcast", &[arg(&a), arg(&other)], got, ErrorKind::ShapeMismatch),
        }
    }

    #[test]
    fn argmin_argmax(m in matrix(0u8..8, 48, 128), xs in vector(prop_oneof![Just(f32::NAN), -3.0f32..3.0, Just(1.0f32)], 1024)) {
        let got = arg_i(&m);
        if m.shape()[1] == 0 && m.shape()[0] > 0 {
            check_err(arg_i::SOURCE, "arg_i", &[arg(&m)], got, ErrorKind::EmptyReduction);
        } else {
            let (lo, hi) = got.unwrap();
            check_ok(arg_i::SOURCE, "arg_i", &[arg(&m)], arg_i(&m), EXACT);
            for (k, r) in rows(&m).iter().enumerate() {
                let mn = *r.iter().min().unwrap();
                let mx = *r.iter().max().unwrap();
                prop_assert_eq!(lo.get([k]), r.iter().position(|&x| x == mn));
                prop_assert_eq!(hi.get([k]), r.iter().position(|&x| x == mx));
            }
        }
        let v = xs.to_vec();
        let got = arg_f(&xs);
        if v.is_empty() {
            check_err(arg_f::SOURCE, "arg_f", &[arg(&xs)], got, ErrorKind::EmptyReduction);
        } else {
            let (lo, hi) = got.unwrap();
            check_ok(arg_f::SOURCE, "arg_f", &[arg(&xs)], arg_f(&xs), EXACT);
            let nums: Vec<f32> = v.iter().copied().filter(|x| !x.is_nan()).collect();
            if nums.is_empty() {
                prop_assert_eq!((lo.value(), hi.value()), (0, 0));
            } else {
                let mn = nums.iter().copied().fold(f32::INFINITY, f32::min);
                let mx = nums.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                prop_assert_eq!(lo.value(), v.iter().position(|&x| x == mn).unwrap());
                prop_assert_eq!(hi.value(), v.iter().position(|&x| x == mx).unwrap());
            }
        }
    }

    #[test]
    fn segmented_folds(xs in vector(any::<i32>(), 1024), seed in any::<u64>(), m in matrix(-1e3f64..1e3, 48, 128)) {
        let lens = segments(xs.len(), seed);
        let lv = Vector::from(lens.clone());
        let got = fold_seg_v(&xs, &lv).unwrap();
        check_ok(fold_seg_v::SOURCE, "fold_seg_v", &[arg(&xs), arg(&lv)], fold_seg_v(&xs, &lv), EXACT);
        let v = xs.to_vec();
        let mut o = 0;
        let want: Vec<i32> = lens.iter().map(|&l| {
            let r = v[o..o + l as usize].iter().fold(5i32, |a, &x| a.wrapping_mul(3).wrapping_add(x));
            o += l as usize;
            r
        }).collect();
        prop_assert_eq!(got.to_vec(), want);

        let [r, c] = m.shape();
        let ml: Vec<usize> = segments(c, seed ^ 7).into_iter().map(|l| l as usize).collect();
        let mlv = Vector::from(ml.clone());
        // A sum is associative and commutative: on a GPU a warp shares each
        // long segment, which adds in another order (`ptx::segments`).
        let tol = float_tol(false, F64_TOL);
        let got = fold_seg_m(&m, &mlv).unwrap();
        check_ok(fold_seg_m::SOURCE, "fold_seg_m", &[arg(&m), arg(&mlv)], fold_seg_m(&m, &mlv), tol);
        prop_assert_eq!(got.shape(), [r, ml.len()]);
        for (i, row) in rows(&m).iter().enumerate() {
            let mut o = 0;
            for (s, &l) in ml.iter().enumerate() {
                let want: f64 = row[o..o + l].iter().fold(0.0, |a, x| a + x);
                o += l;
                let g = got.get([i, s]).unwrap();
                prop_assert!((g - want).abs() <= tol * (1.0 + want.abs()), "{} against {}", g, want);
            }
        }

        let mut offs = vec![0u32];
        for &l in &lens { offs.push(offs.last().unwrap() + l as u32); }
        let ov = Vector::from(offs.clone());
        let xl: Vector<i64> = Vector::from(v.iter().map(|&x| x as i64).collect::<Vec<_>>());
        let got = fold_seg_off(&xl, &ov).unwrap();
        check_ok(fold_seg_off::SOURCE, "fold_seg_off", &[arg(&xl), arg(&ov)], fold_seg_off(&xl, &ov), EXACT);
        let want: Vec<i64> = offs.windows(2).map(|w| v[w[0] as usize..w[1] as usize].iter().fold(1i64, |a, &x| a.max(x as i64))).collect();
        prop_assert_eq!(got.to_vec(), want);
    }
}

#[test]
fn segmented_fold_errors() {
    let xs = Vector::from(vec![1, 2, 3]);
    let bad = Vector::from(vec![2, -1, 2]);
    check_err(
        fold_seg_v::SOURCE,
        "fold_seg_v",
        &[arg(&xs), arg(&bad)],
        fold_seg_v(&xs, &bad),
        ErrorKind::InvalidArgument,
    );
    let long = Vector::from(vec![2, 5]);
    check_err(
        fold_seg_v::SOURCE,
        "fold_seg_v",
        &[arg(&xs), arg(&long)],
        fold_seg_v(&xs, &long),
        ErrorKind::IndexOutOfBounds,
    );
    let xl = Vector::from(vec![1i64, 2, 3]);
    let down = Vector::from(vec![0u32, 2, 1]);
    check_err(
        fold_seg_off::SOURCE,
        "fold_seg_off",
        &[arg(&xl), arg(&down)],
        fold_seg_off(&xl, &down),
        ErrorKind::InvalidArgument,
    );
}

// ---- scans -------------------------------------------------------------------------

// A scan's operator must be associative (rows are split between threads):
// "the last element not divisible by 3" is, and it is not commutative, so
// the results show which operand holds the lower indices.
#[acc]
fn pre_post(xs: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Vector<i32>, Vector<i32>) {
    (
        xs.prescanl(10, |a, b| if b % 3 != 0 { b } else { a }),
        xs.postscanl(10, |a, b| if b % 3 != 0 { b } else { a }),
        xs.prescanr(10, |a, b| if b % 3 != 0 { b } else { a }),
        xs.postscanr(10, |a, b| if b % 3 != 0 { b } else { a }),
    )
}

#[acc]
fn post_m(m: &Matrix<i64>) -> Matrix<i64> {
    m.postscanl(3, |a, b| if a % 3 != 0 { a } else { b })
}

#[acc]
fn seg_scans(xs: &Vector<i32>, lens: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Vector<i32>, Vector<i32>) {
    (
        xs.scanl_seg(lens, 7, |a, b| a + b),
        xs.scanl1_seg(lens, |a, b| a + b),
        xs.scanr_seg(lens, 7, |a, b| a + b),
        xs.scanr1_seg(lens, |a, b| a + b),
    )
}

#[acc]
fn seg_totals(
    xs: &Vector<i64>,
    lens: &Vector<usize>,
) -> (Vector<i64>, Vector<i64>, Vector<i64>, Vector<i64>) {
    let (a, b) = xs.scanl_seg_total(lens, 1, |x, y| x.max(y));
    let (c, d) = xs.scanr_seg_total(lens, 1, |x, y| x.max(y));
    (a, b, c, d)
}

/// Sequential references: `f` is applied as `scanl`/`scanr` would.
fn scanl<T: Copy>(xs: &[T], z: T, f: impl Fn(T, T) -> T) -> Vec<T> {
    let mut out = vec![z];
    for &x in xs {
        let a = *out.last().unwrap();
        out.push(f(a, x));
    }
    out
}

fn scanr<T: Copy>(xs: &[T], z: T, f: impl Fn(T, T) -> T) -> Vec<T> {
    let mut out = vec![z];
    for &x in xs.iter().rev() {
        let a = *out.last().unwrap();
        out.push(f(x, a));
    }
    out.reverse();
    out
}

fn split<T: Copy>(xs: &[T], lens: &[usize]) -> Vec<Vec<T>> {
    let mut o = 0;
    lens.iter()
        .map(|&l| {
            o += l;
            xs[o - l..o].to_vec()
        })
        .collect()
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn prescans_postscans(xs in vector(any::<i32>(), 1024), m in matrix(any::<i64>(), 48, 128)) {
        let (a, b, c, d) = pre_post(&xs).unwrap();
        check_ok(pre_post::SOURCE, "pre_post", &[arg(&xs)], pre_post(&xs), EXACT);
        let v = xs.to_vec();
        let f = |a: i32, b: i32| if b % 3 != 0 { b } else { a };
        let l = scanl(&v, 10, f);
        let r = scanr(&v, 10, f);
        prop_assert_eq!(a.to_vec(), l[..v.len()].to_vec());
        prop_assert_eq!(b.to_vec(), l[1..].to_vec());
        prop_assert_eq!(c.to_vec(), r[1..].to_vec());
        prop_assert_eq!(d.to_vec(), r[..v.len()].to_vec());

        let got = post_m(&m).unwrap();
        check_ok(post_m::SOURCE, "post_m", &[arg(&m)], post_m(&m), EXACT);
        let want: Vec<i64> = rows(&m).iter().flat_map(|r| scanl(r, 3, |a, b| if a % 3 != 0 { a } else { b })[1..].to_vec()).collect();
        prop_assert_eq!(got.to_vec(), want);
    }

    #[test]
    fn segmented_scans(xs in vector(any::<i32>(), 1024), seed in any::<u64>()) {
        let lens = segments(xs.len(), seed);
        let lu: Vec<usize> = lens.iter().map(|&l| l as usize).collect();
        let lv = Vector::from(lens.clone());
        let (a, b, c, d) = seg_scans(&xs, &lv).unwrap();
        check_ok(seg_scans::SOURCE, "seg_scans", &[arg(&xs), arg(&lv)], seg_scans(&xs, &lv), EXACT);
        let f = |a: i32, b: i32| a.wrapping_add(b); // segmented scans need an associative operator
        let segs = split(&xs.to_vec(), &lu);
        prop_assert_eq!(a.to_vec(), segs.iter().flat_map(|s| scanl(s, 7, f)).collect::<Vec<_>>());
        prop_assert_eq!(b.to_vec(), segs.iter().flat_map(|s| if s.is_empty() { vec![] } else { scanl(&s[1..], s[0], f) }).collect::<Vec<_>>());
        prop_assert_eq!(c.to_vec(), segs.iter().flat_map(|s| scanr(s, 7, f)).collect::<Vec<_>>());
        prop_assert_eq!(d.to_vec(), segs.iter().flat_map(|s| if s.is_empty() { vec![] } else { scanr(&s[..s.len() - 1], s[s.len() - 1], f) }).collect::<Vec<_>>());

        let xl: Vector<i64> = Vector::from(xs.to_vec().iter().map(|&x| x as i64).collect::<Vec<_>>());
        let luv = Vector::from(lu.clone());
        let (e, t, er, tr) = seg_totals(&xl, &luv).unwrap();
        check_ok(seg_totals::SOURCE, "seg_totals", &[arg(&xl), arg(&luv)], seg_totals(&xl, &luv), EXACT);
        let g = |a: i64, b: i64| a.max(b);
        let segs = split(&xl.to_vec(), &lu);
        prop_assert_eq!(e.to_vec(), segs.iter().flat_map(|s| { let l = scanl(s, 1, g); l[..s.len()].to_vec() }).collect::<Vec<_>>());
        prop_assert_eq!(t.to_vec(), segs.iter().map(|s| *scanl(s, 1, g).last().unwrap()).collect::<Vec<_>>());
        prop_assert_eq!(er.to_vec(), segs.iter().flat_map(|s| scanr(s, 1, g)[1..].to_vec()).collect::<Vec<_>>());
        prop_assert_eq!(tr.to_vec(), segs.iter().map(|s| scanr(s, 1, g)[0]).collect::<Vec<_>>());
    }
}

#[test]
fn segmented_scan_errors() {
    let xs = Vector::from(vec![1, 2, 3]);
    for bad in [vec![1, 1], vec![2, 2], vec![4, -1]] {
        let lv = Vector::from(bad);
        check_err(
            seg_scans::SOURCE,
            "seg_scans",
            &[arg(&xs), arg(&lv)],
            seg_scans(&xs, &lv),
            ErrorKind::InvalidArgument,
        );
    }
}

// ---- scatter, filter, compact, expand ------------------------------------------------

#[acc]
fn scatter_v(xs: &Vector<u16>, ix: &Vector<usize>, d: &Vector<u16>) -> Vector<u16> {
    xs.scatter(ix, d)
}

#[acc]
fn scatter_if_v(xs: &Vector<u16>, ix: &Vector<i64>, mask: &Vector<i32>, d: &Vector<u16>) -> Vector<u16> {
    xs.scatter_if(ix, mask, |m| m > 0, d)
}

#[acc]
fn histogram(xs: &Vector<u8>, bins: usize) -> Vector<u32> {
    let zeros = fill([bins], 0u32);
    xs.map(|_| 1u32)
        .permute(&zeros, |[i]| Some([xs[[i]] as usize % bins]), |a, b| a + b)
}

/// 16-bit combinations: on the GPU path a compare-and-swap of 16 bits per
/// source (`atom.cas.b16`), an `i16` sign-extended in its register. The
/// defaults' literals take the source's type, as in Rust.
#[acc]
fn sums16(xs: &Vector<i16>, bins: usize) -> (Vector<i16>, Vector<u16>) {
    let signed = xs.permute(&fill([bins], -3), |[i]| Some([i * 7 % bins]), |a, b| a + b);
    let unsigned = xs
        .map(|x| x as u16)
        .permute(&fill([bins], 0), |[i]| Some([i % bins]), |a, b| a.max(b));
    (signed, unsigned)
}

/// 8-bit and `bool` combinations: on the GPU path a compare-and-swap of
/// the aligned 32-bit word that holds the byte (neighbouring bins share it).
#[acc]
fn sums8(xs: &Vector<i8>, bins: usize) -> (Vector<i8>, Vector<u8>, Vector<bool>) {
    let signed = xs.permute(&fill([bins], -3), |[i]| Some([i * 7 % bins]), |a, b| a + b);
    let unsigned = xs
        .map(|x| x as u8)
        .permute(&fill([bins], 0), |[i]| Some([i % bins]), |a, b| a.max(b));
    let any_big = xs
        .map(|x| x > 100)
        .permute(&fill([bins], false), |[i]| Some([i % bins]), |a, b| a || b);
    (signed, unsigned, any_big)
}

#[acc]
fn filter_v(xs: &Vector<i32>, t: i32) -> Vector<i32> {
    xs.filter(|x| x > t)
}

#[acc]
fn filter_m(m: &Matrix<(u8, f32)>) -> Vector<(u8, f32)> {
    m.map(|p| (p.0 / 2, p.1)).filter(|p| p.0 % 3 == 1)
}

#[acc]
fn compact_v(xs: &Vector<i64>, flags: &Vector<bool>) -> Vector<i64> {
    xs.compact(flags)
}

#[acc]
fn expand_v(xs: &Vector<i32>) -> Vector<(i32, i32)> {
    xs.expand(|x| x % 5, |x, k| (x, k))
}

#[acc]
fn expand_sum(xs: &Vector<u8>) -> Scalar<u64> {
    xs.expand(|x| (x % 4) as usize, |x, k| x as u64 * 10 + k as u64)
        .fold_all(0, |a, b| a + b)
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn permutes_of_16_bits(xs in vector(any::<i16>(), 600), bins in 1usize..40) {
        check_ok(sums16::SOURCE, "sums16", &[arg(&xs), arg(bins)], sums16(&xs, bins), EXACT);
        // `+` wraps and is associative and commutative: any order gives this.
        let mut want = vec![-3i16; bins];
        for (i, &x) in xs.to_vec().iter().enumerate() {
            want[i * 7 % bins] = want[i * 7 % bins].wrapping_add(x);
        }
        prop_assert_eq!(sums16(&xs, bins).unwrap().0.to_vec(), want);
    }

    #[test]
    fn permutes_of_8_bits(xs in vector(any::<i8>(), 600), bins in 1usize..40) {
        check_ok(sums8::SOURCE, "sums8", &[arg(&xs), arg(bins)], sums8(&xs, bins), EXACT);
        let (mut signed, mut unsigned, mut any_big) = (vec![-3i8; bins], vec![0u8; bins], vec![false; bins]);
        for (i, &x) in xs.to_vec().iter().enumerate() {
            signed[i * 7 % bins] = signed[i * 7 % bins].wrapping_add(x);
            unsigned[i % bins] = unsigned[i % bins].max(x as u8);
            any_big[i % bins] |= x > 100;
        }
        let (s, u, b) = sums8(&xs, bins).unwrap();
        prop_assert_eq!(s.to_vec(), signed);
        prop_assert_eq!(u.to_vec(), unsigned);
        prop_assert_eq!(b.to_vec(), any_big);
    }

    #[test]
    fn scatters(xs in vector(any::<u16>(), 1024), seed in any::<u64>(), extra in 0usize..5) {
        // A permutation of the source positions among `n + extra` targets.
        let n = xs.len();
        let mut targets: Vec<usize> = (0..n + extra).collect();
        for i in (1..targets.len()).rev() {
            targets.swap(i, (hash(i ^ seed as usize) % (i as u64 + 1)) as usize);
        }
        targets.truncate(n);
        let ix = Vector::from(targets.clone());
        let d = Vector::from_fn([n + extra], |[i]| i as u16);
        let got = scatter_v(&xs, &ix, &d).unwrap();
        check_ok(scatter_v::SOURCE, "scatter_v", &[arg(&xs), arg(&ix), arg(&d)], scatter_v(&xs, &ix, &d), EXACT);
        let mut want = d.to_vec();
        for (i, &t) in targets.iter().enumerate() { want[t] = xs.to_vec()[i]; }
        prop_assert_eq!(got.to_vec(), want);

        let mask = Vector::from_fn([n], |[i]| (hash(i + 3) % 5) as i32 - 2);
        let il = Vector::from(targets.iter().map(|&t| t as i64).collect::<Vec<_>>());
        let got = scatter_if_v(&xs, &il, &mask, &d).unwrap();
        check_ok(scatter_if_v::SOURCE, "scatter_if_v", &[arg(&xs), arg(&il), arg(&mask), arg(&d)], scatter_if_v(&xs, &il, &mask, &d), EXACT);
        let mut want = d.to_vec();
        for (i, &t) in targets.iter().enumerate() { if mask.to_vec()[i] > 0 { want[t] = xs.to_vec()[i]; } }
        prop_assert_eq!(got.to_vec(), want);
    }

    #[test]
    fn histograms(xs in vector(any::<u8>(), 1024), bins in 1usize..40) {
        let got = histogram(&xs, bins).unwrap();
        check_ok(histogram::SOURCE, "histogram", &[arg(&xs), arg(bins)], histogram(&xs, bins), EXACT);
        let mut want = vec![0u32; bins];
        for x in xs.to_vec() { want[x as usize % bins] += 1; }
        prop_assert_eq!(got.to_vec(), want);
    }

    #[test]
    fn filters(xs in vector(any::<i32>(), 1024), t in prop_oneof![Just(i32::MIN), Just(i32::MAX), any::<i32>()],
               m in matrix((any::<u8>(), -1e3f32..1e3), 48, 128), flags in vector(any::<bool>(), 1024)) {
        let got = filter_v(&xs, t).unwrap();
        check_ok(filter_v::SOURCE, "filter_v", &[arg(&xs), arg(t)], filter_v(&xs, t), EXACT);
        prop_assert_eq!(got.to_vec(), xs.to_vec().into_iter().filter(|&x| x > t).collect::<Vec<_>>());

        let got = filter_m(&m).unwrap();
        check_ok(filter_m::SOURCE, "filter_m", &[arg(&m)], filter_m(&m), EXACT);
        let want: Vec<(u8, f32)> = m.to_vec().into_iter().map(|p| (p.0 / 2, p.1)).filter(|p| p.0 % 3 == 1).collect();
        prop_assert_eq!(got.to_vec(), want);

        let n = flags.len();
        let xl = Vector::from_fn([n], |[i]| hash(i) as i64);
        let got = compact_v(&xl, &flags).unwrap();
        check_ok(compact_v::SOURCE, "compact_v", &[arg(&xl), arg(&flags)], compact_v(&xl, &flags), EXACT);
        let want: Vec<i64> = xl.to_vec().into_iter().zip(flags.to_vec()).filter(|p| p.1).map(|p| p.0).collect();
        prop_assert_eq!(got.to_vec(), want);
    }

    #[test]
    fn expands(xs in vector(0i32..1000, 1024), ys in vector(any::<u8>(), 1024)) {
        let got = expand_v(&xs).unwrap();
        check_ok(expand_v::SOURCE, "expand_v", &[arg(&xs)], expand_v(&xs), EXACT);
        let want: Vec<(i32, i32)> = xs.to_vec().into_iter().flat_map(|x| (0..x % 5).map(move |k| (x, k))).collect();
        prop_assert_eq!(got.to_vec(), want);

        let got = expand_sum(&ys).unwrap();
        check_ok(expand_sum::SOURCE, "expand_sum", &[arg(&ys)], expand_sum(&ys), EXACT);
        let want: u64 = ys.to_vec().into_iter().flat_map(|x| (0..(x % 4) as u64).map(move |k| x as u64 * 10 + k)).sum();
        prop_assert_eq!(got.value(), want);
    }
}

#[test]
fn irregular_edge_cases() {
    // Filter keeping nothing and everything; expand with all-zero counts.
    let xs = Vector::from(vec![3, 1, 4, 1, 5]);
    assert_eq!(filter_v(&xs, i32::MAX).unwrap().to_vec(), Vec::<i32>::new());
    assert_eq!(filter_v(&xs, i32::MIN).unwrap().to_vec(), xs.to_vec());
    let zeros = Vector::from(vec![5, 10, 0, 15]);
    let got = check_ok(
        expand_v::SOURCE,
        "expand_v",
        &[arg(&zeros)],
        expand_v(&zeros),
        EXACT,
    );
    assert_eq!(
        got,
        Dyn::Array(accel::dynamic::DynArray {
            shape: vec![0],
            elems: vec![]
        })
    );
    // A negative count is an error.
    let neg = Vector::from(vec![2, -3]);
    check_err(
        expand_v::SOURCE,
        "expand_v",
        &[arg(&neg)],
        expand_v(&neg),
        ErrorKind::InvalidArgument,
    );
    // Scatter out of range, and compact with flags of another size.
    let s = Vector::from(vec![1u16, 2]);
    let d = Vector::from(vec![0u16; 2]);
    let far = Vector::from(vec![0usize, 2]);
    check_err(
        scatter_v::SOURCE,
        "scatter_v",
        &[arg(&s), arg(&far), arg(&d)],
        scatter_v(&s, &far, &d),
        ErrorKind::IndexOutOfBounds,
    );
    let xl = Vector::from(vec![1i64, 2, 3]);
    let fl = Vector::from(vec![true, false]);
    check_err(
        compact_v::SOURCE,
        "compact_v",
        &[arg(&xl), arg(&fl)],
        compact_v(&xl, &fl),
        ErrorKind::InvalidArgument,
    );
    let _ = Value::Bool(true);
}

// ---- sorting ---------------------------------------------------------------------------

#[acc]
fn sort_i32(xs: &Vector<i32>) -> (Vector<i32>, Vector<usize>) {
    (xs.sort(), xs.sort_indices())
}

#[acc]
fn sort_u8(xs: &Vector<u8>) -> Vector<u8> {
    xs.sort()
}

#[acc]
fn sort_f32(xs: &Vector<f32>) -> (Vector<f32>, Vector<usize>) {
    (xs.sort(), xs.sort_indices())
}

#[acc]
fn sort_by_f64(xs: &Vector<(f64, i8)>) -> Vector<(f64, i8)> {
    xs.sort_by_key(|p| p.0 * 0.5)
}

#[acc]
fn sort_pairs(xs: &Vector<(i64, u16)>) -> Vector<(i64, u16)> {
    xs.sort_by_key(|p| p.0 / 1000)
}

#[acc]
fn sort_small_keys(xs: &Vector<(u8, u32)>) -> Vector<(u8, u32)> {
    xs.sort_by_key(|p| p.0)
}

/// A sort of more keys than one block scans its digit counts for on the GPU
/// path (16 counts per tile of 256 keys, past 4,096 counts: `sreduce`,
/// `sscan`, `sapply`; about 30 s on the simulator), stable: elements with
/// equal keys keep their order.
#[test]
fn long_sorts_are_stable() {
    let n = 66_000;
    let xs: Vector<(u8, u32)> = (0..n).map(|i| ((hash(i) % 251) as u8, i as u32)).collect();
    let got = sort_small_keys(&xs).unwrap();
    let mut want = xs.to_vec();
    want.sort_by_key(|p| p.0);
    assert!(got.to_vec() == want, "the sort of {n} keys differs");
}

proptest! {
    // Sorting runs 16 to 32 radix passes on both the interpreter and the
    // compiled code: fewer, smaller cases keep the suite fast.
    #![proptest_config(ProptestConfig { cases: cases(6), ..cfg() })]

    #[test]
    fn sorts(xs in vector(any::<i32>(), 300), small in vector(0i32..6, 100), bs in vector(any::<u8>(), 300),
             ps in vector((-5000i64..5000, any::<u16>()), 300),
             fs in vector(prop_oneof![any::<f32>(), Just(-0.0f32), Just(0.0f32), Just(f32::NAN), Just(-f32::NAN), Just(1.5f32)], 300),
             ds in vector((prop_oneof![-1e6f64..1e6, Just(f64::INFINITY), Just(-0.0f64), Just(2.0f64)], any::<i8>()), 200)) {
        for v in [&xs, &small] {
            let (s, p) = sort_i32(v).unwrap();
            check_ok(sort_i32::SOURCE, "sort_i32", &[arg(v)], sort_i32(v), EXACT);
            let mut want = v.to_vec();
            want.sort();
            prop_assert_eq!(s.to_vec(), want);
            let mut perm: Vec<usize> = (0..v.len()).collect();
            perm.sort_by_key(|&i| v.to_vec()[i]);
            prop_assert_eq!(p.to_vec(), perm);
        }
        let got = sort_u8(&bs).unwrap();
        check_ok(sort_u8::SOURCE, "sort_u8", &[arg(&bs)], sort_u8(&bs), EXACT);
        let mut want = bs.to_vec();
        want.sort();
        prop_assert_eq!(got.to_vec(), want);

        let (got, perm) = sort_f32(&fs).unwrap();
        check_ok(sort_f32::SOURCE, "sort_f32", &[arg(&fs)], sort_f32(&fs), EXACT);
        let mut want = fs.to_vec();
        want.sort_by(f32::total_cmp);
        let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        prop_assert_eq!(bits(got.to_vec()), bits(want));
        let mut p: Vec<usize> = (0..fs.len()).collect();
        p.sort_by(|&i, &j| fs.to_vec()[i].total_cmp(&fs.to_vec()[j]));
        prop_assert_eq!(perm.to_vec(), p);

        let got = sort_by_f64(&ds).unwrap();
        check_ok(sort_by_f64::SOURCE, "sort_by_f64", &[arg(&ds)], sort_by_f64(&ds), EXACT);
        let mut want = ds.to_vec();
        want.sort_by(|a, b| (a.0 * 0.5).total_cmp(&(b.0 * 0.5)));
        prop_assert_eq!(got.to_vec().iter().map(|p| (p.0.to_bits(), p.1)).collect::<Vec<_>>(), want.iter().map(|p| (p.0.to_bits(), p.1)).collect::<Vec<_>>());

        let got = sort_pairs(&ps).unwrap();
        check_ok(sort_pairs::SOURCE, "sort_pairs", &[arg(&ps)], sort_pairs(&ps), EXACT);
        let mut want = ps.to_vec();
        want.sort_by_key(|p| p.0 / 1000);
        prop_assert_eq!(got.to_vec(), want);
    }
}

#[test]
fn philox_known_answers() {
    // Random123's known-answer vectors for philox4x32-10.
    assert_eq!(
        philox([0; 4], [0; 2]),
        [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    );
    assert_eq!(
        philox([u32::MAX; 4], [u32::MAX; 2]),
        [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
    );
    assert_eq!(
        philox(
            [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
            [0xa4093822, 0x299f31d0]
        ),
        [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
    );
    // The first counter under key 0 gives the first word of the first vector.
    let (bits, _, _) = randoms(1, 1, 0).unwrap();
    assert_eq!(bits.get([0, 0]), Some(0x6627e8d5));
    // A large sample looks uniform: all in [0, 1), mean near 1/2.
    let (_, u, w) = randoms(1000, 100, 42).unwrap();
    for v in [
        u.to_vec().iter().map(|&x| x as f64).collect::<Vec<_>>(),
        w.to_vec(),
    ] {
        assert!(v.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        assert!((mean - 0.5).abs() < 0.005, "mean {mean}");
    }
    let xs = Vector::from(vec![1.0f32; 1000]);
    let s = noisy_sum(&xs, 7).unwrap().value();
    check_ok(
        noisy_sum::SOURCE,
        "noisy_sum",
        &[arg(&xs), arg(7u64)],
        noisy_sum(&xs, 7),
        1e-4,
    );
    assert!((s - 1500.0).abs() < 30.0, "{s}");
    let j = jitter(&xs, 3).unwrap();
    check_ok(
        jitter::SOURCE,
        "jitter",
        &[arg(&xs), arg(3u64)],
        jitter(&xs, 3),
        EXACT,
    );
    assert!(j.to_vec().iter().all(|&x| (0.995..1.005).contains(&x)));
}
