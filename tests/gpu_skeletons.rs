//! The GPU skeletons' cases, compared with the interpreter: the tiers of
//! `permute` (native atomics, one per field of a tuple, a compare-and-swap
//! loop, a per-element lock) and
//! maps fused after folds and scans (`post`). On the CPU by default; with
//! `ACCEL_BACKEND=ptx-sim` every program runs its PTX on the simulator (sizes
//! are kept small for it).
//!
//! Combinations whose order between sources is unspecified are commutative and
//! exact here (integers, floats with exact products and maxima), so every order
//! gives the interpreter's result; the `(new, old)` order is checked with one
//! source per target.

mod common;

use accel::prelude::*;
use common::*;

accel! {
    // Native atomics: integer add, float add, 64-bit max.
    fn hist_i32(xs: &Vector<i32>, z: &Vector<i32>) -> Vector<i32> {
        xs.permute(z, |[i]| Some([i % 7]), |a, b| a + b)
    }
    fn add_f32(xs: &Vector<f32>, z: &Vector<f32>) -> Vector<f32> {
        xs.permute(z, |[i]| Some([i % 5]), |a, b| a + b)
    }
    fn max_i64(xs: &Vector<i64>, z: &Vector<i64>) -> Vector<i64> {
        xs.permute(z, |[i]| Some([i % 3]), |a, b| a.max(b))
    }

    // Native atomics field by field: each field of a tuple combined alone.
    fn sums_f64_u32(xs: &Vector<(f64, f64, u32)>, z: &Vector<(f64, f64, u32)>) -> Vector<(f64, f64, u32)> {
        xs.permute(z, |[i]| Some([i % 3]), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    }
    fn min_max_pair(xs: &Vector<(i32, (u64, i64))>, z: &Vector<(i32, (u64, i64))>) -> Vector<(i32, (u64, i64))> {
        xs.permute(z, |[i]| Some([i % 4]), |a, b| (b.0.min(a.0), (a.1 .0 ^ b.1 .0, a.1 .1.max(b.1 .1))))
    }

    // Many sources into few targets: a table per block in shared memory on
    // the GPU path (`PermuteEntry::Private`), for any number of bins up to
    // the table's size, and the global atomics past it.
    fn bins_i32(xs: &Vector<i32>, z: &Vector<i32>) -> Vector<i32> {
        let nb = z.len();
        xs.permute(z, |[i]| if i % 11 == 0 { None } else { Some([(xs[[i]].abs() as usize * 7 + i) % nb]) }, |a, b| a + b)
    }
    fn bins_min_u32(xs: &Vector<u32>, z: &Vector<u32>) -> Vector<u32> {
        let nb = z.len();
        xs.permute(z, |[i]| Some([i % nb]), |a, b| a.min(b))
    }
    fn bins_signed(xs: &Vector<(i64, i32)>, z: &Vector<(i64, i32)>) -> Vector<(i64, i32)> {
        let nb = z.len();
        xs.permute(z, |[i]| Some([i % nb]), |a, b| (a.0.min(b.0), a.1.max(b.1)))
    }
    fn bins_bits(xs: &Vector<(u32, u64)>, z: &Vector<(u32, u64)>) -> Vector<(u32, u64)> {
        let nb = z.len();
        xs.permute(z, |[i]| Some([i % nb]), |a, b| (a.0 & b.0, a.1 | b.1))
    }
    // Signed zeros: `-0.0 + +0.0` is `+0.0`, a sum of `-0.0`s stays `-0.0`.
    fn bins_zeros(xs: &Vector<f32>, z: &Vector<f32>) -> Vector<f32> {
        let nb = z.len();
        xs.permute(z, |[i]| Some([i % nb]), |a, b| a + b)
    }

    // Compare-and-swap loop: one 32- or 64-bit leaf, no native atomic.
    fn mul_f32(xs: &Vector<f32>, z: &Vector<f32>) -> Vector<f32> {
        xs.permute(z, |[i]| Some([i % 5]), |a, b| a * b)
    }
    fn max_f64(xs: &Vector<f64>, z: &Vector<f64>) -> Vector<f64> {
        xs.permute(z, |[i]| Some([i % 4]), |a, b| a.max(b))
    }
    fn mul_u32(xs: &Vector<u32>, z: &Vector<u32>) -> Vector<u32> {
        xs.permute(z, |[i]| if i % 3 == 0 { None } else { Some([i % 6]) }, |a, b| a * b)
    }
    fn min_u64(xs: &Vector<u64>, z: &Vector<u64>) -> Vector<u64> {
        xs.permute(z, |[i]| Some([i % 2]), |new, old| if new < old { new } else { old })
    }
    // One source per target: `new - 2 old` shows the order of the arguments.
    fn order_f32(xs: &Vector<f32>, z: &Vector<f32>) -> Vector<f32> {
        xs.permute(z, |[i]| Some([i]), |new, old| new - 2.0 * old)
    }

    // Per-element lock: tuples, 8- and 16-bit leaves, bool.
    fn argmax_pair(xs: &Vector<(i32, f32)>, z: &Vector<(i32, f32)>) -> Vector<(i32, f32)> {
        xs.permute(z, |[i]| Some([i % 4]), |a, b| if a.0 > b.0 { a } else { b })
    }
    fn add_u8(xs: &Vector<u8>, z: &Vector<u8>) -> Vector<u8> {
        xs.permute(z, |[i]| Some([i % 3]), |a, b| a + b)
    }
    fn max_i16(xs: &Vector<i16>, z: &Vector<i16>) -> Vector<i16> {
        xs.permute(z, |[i]| Some([i % 5]), |a, b| a.max(b))
    }
    fn any_bool(xs: &Vector<bool>, z: &Vector<bool>) -> Vector<bool> {
        xs.permute(z, |[i]| Some([i % 3]), |a, b| a || b)
    }
    fn order_i16(xs: &Vector<i16>, z: &Vector<i16>) -> Vector<i16> {
        xs.permute(z, |[i]| Some([i]), |new, old| new - 2 * old)
    }

    // Maps after folds and scans, fused into them (`post`).
    fn fold_all_post(xs: &Vector<i32>) -> Scalar<f64> {
        xs.fold(3, |a, b| a + b).map(|s| s as f64 * 0.5)
    }
    fn fold1_rows_post(m: &Matrix<i64>) -> Vector<bool> {
        m.fold1(|a, b| a.max(b)).map(|x| x % 2 == 0)
    }
    fn fold_pair_post(xs: &Vector<(i32, i32)>) -> Scalar<i64> {
        xs.fold((0, 0), |a, b| (a.0 + b.0, a.1.max(b.1))).map(|p| p.0 as i64 * 1000 + p.1 as i64)
    }
    fn scanl_post(m: &Matrix<i32>) -> Matrix<f32> {
        m.scanl(1, |a, b| if b % 3 != 0 { b } else { a }).map(|x| x as f32)
    }
    fn scanr_post(xs: &Vector<i16>) -> Vector<i32> {
        xs.scanr(2, |a, b| if a % 3 != 0 { a } else { b }).map(|x| x as i32 * 2)
    }
    fn scanr1_post(xs: &Vector<u8>) -> Vector<bool> {
        xs.scanr1(|a, b| a.max(b)).map(|x| x > 100)
    }

    // Scans of long rows (tiles with look-back on a GPU with few rows).
    fn long_scanl1(m: &Matrix<i32>) -> Matrix<i32> {
        m.scanl1(|a, b| if b != 0 { b } else { a })
    }
    fn long_scanr1(m: &Matrix<i32>) -> Matrix<i32> {
        m.scanr1(|a, b| if a != 0 { a } else { b })
    }
    fn long_scanl(m: &Matrix<i64>) -> Matrix<i64> {
        m.scanl(5, |a, b| a + b)
    }
    fn long_scanr_post(m: &Matrix<i32>) -> Matrix<bool> {
        m.scanr(-1, |a, b| if a >= 0 { a } else { b }).map(|x| x % 3 == 0)
    }
    fn long_scanl_total(m: &Matrix<(i32, u8)>) -> (Matrix<(i32, u8)>, Vector<(i32, u8)>) {
        m.scanl_total((0, 0), |a, b| (a.0 + b.0, if b.1 != 0 { b.1 } else { a.1 }))
    }
    fn long_scanr_total(xs: &Vector<f64>) -> (Vector<f64>, Scalar<f64>) {
        xs.scanr_total(0.5, |a, b| a.max(b))
    }

    // Scans whose operator is exactly associative (integers): split over a
    // block's threads at any length, by tiles from 8,192 elements; a float
    // sum stays in order below 32,768.
    fn exact_scanl(m: &Matrix<i32>) -> Matrix<i32> {
        m.scanl(3, |a, b| a + b)
    }
    fn exact_scanr1(m: &Matrix<(u16, i64)>) -> Matrix<(u16, i64)> {
        m.scanr1(|a, b| (a.0.max(b.0), a.1 ^ b.1))
    }
    fn exact_scanl_total(xs: &Vector<u8>) -> (Vector<u8>, Scalar<u8>) {
        xs.scanl_total(1, |a, b| a * b)
    }
    fn float_scanl1(m: &Matrix<f32>) -> Matrix<f32> {
        m.scanl1(|a, b| a + b)
    }

    // Folds in a scan's pass (`ptx::gpu_plan`): each thread folds the
    // outputs it stores, the tiles of a long row chain their results.
    // The thesis's normalise2 cluster: a `scanl` only its folds read (not
    // stored), a fold beside it and two of its outputs (one a `fold1`).
    fn pass_sums(xs: &Vector<i64>) -> (Scalar<i64>, Scalar<i64>, Scalar<i64>) {
        let s = xs.scanl(3, |a, b| a + b);
        (xs.sum(), s.sum(), s.maximum())
    }
    // Rows from the right, stored; folds of rows of the outputs and of the
    // input (a `fold1`: an error for rows of nothing), maps after them.
    fn pass_rows(m: &Matrix<i32>) -> (Matrix<i32>, Vector<i32>, Vector<bool>) {
        let s = m.scanr(-2, |a, b| a + b);
        (s, s.minimum(), m.maximum().map(|x| x % 2 == 0))
    }
    // No initial value: a float sum of the outputs (any order), a fold1 of
    // them, a fold with a host scalar for its initial value.
    fn pass_floats(xs: &Vector<f32>, k: f32) -> (Scalar<f32>, Scalar<f32>, Scalar<f32>) {
        let s = xs.scanl1(|a, b| a.max(b));
        (s.sum(), s.minimum(), xs.map(|x| x * 2.0).fold(k, |a, b| a.max(b)))
    }

    // Folds of rows: a warp per short row, a block per long one.
    fn rows_last_nonzero(m: &Matrix<i32>) -> Vector<i32> {
        m.fold(-7, |a, b| if b != 0 { b } else { a })
    }
    fn rows_pair(m: &Matrix<(i64, u16)>) -> Vector<(i64, u16)> {
        m.fold1(|a, b| (a.0 + b.0, if b.1 != 0 { b.1 } else { a.1 }))
    }
    fn rows_sum_f64(m: &Matrix<f64>) -> Vector<f64> {
        m.fold(0.25, |a, b| a + b)
    }
    fn rows_max_u32(m: &Matrix<u32>) -> Vector<u32> {
        m.fold(7, |a, b| a.max(b))
    }

    // Quads (16-byte accesses): 32- and 64-bit columns as vectors, `bool`
    // element by element, commutative folds.
    fn quad_map(xs: &Vector<(f32, i64)>, ys: &Vector<u32>) -> Vector<(f64, bool, i32)> {
        xs.zip_with(ys, |x, y| (x.1 as f64 + x.0 as f64 * 0.5, y % 3 == 0, y as i32 - x.1 as i32))
    }
    fn quad_dot(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
        xs.zip_with(ys, |x, y| x * y).sum()
    }
    fn quad_max(xs: &Vector<u64>) -> Scalar<u64> {
        xs.fold(0, |a, b| a.max(b))
    }

    // Segmented folds: on the GPU a warp shares each long segment where the
    // combination is associative and commutative (`ptx::segments`), a
    // thread per segment otherwise.
    fn seg_sum_i64(xs: &Vector<i64>, offs: &Vector<usize>) -> Vector<i64> {
        xs.fold_seg_offsets(offs, 7, |a, b| a + b)
    }
    fn seg_min_f32(xs: &Vector<f32>, lens: &Vector<u32>) -> Vector<f32> {
        xs.fold_seg(lens, 1e30, |a, b| b.min(a))
    }
    fn seg_sum_f64(xs: &Vector<f64>, lens: &Vector<i32>) -> Vector<f64> {
        xs.map(|x| x * 0.5).fold_seg(lens, -3.25, |a, b| a + b)
    }
    fn seg_rows_max(m: &Matrix<i32>, lens: &Vector<usize>) -> Matrix<i32> {
        m.fold_seg(lens, -5, |a, b| a.max(b))
    }
    // The products fused, their gather checked: a column out of range fails.
    fn seg_spmv(vals: &Vector<f32>, cols: &Vector<u32>, offs: &Vector<u32>, x: &Vector<f32>) -> Vector<f32> {
        vals.zip_with(cols, |v, c| v * x[[c as usize]]).fold_seg_offsets(offs, 0.0, |a, b| a + b)
    }
    fn seg_narrow(xs: &Vector<(i8, u16, bool)>, lens: &Vector<u32>) -> (Vector<i8>, Vector<u16>, Vector<bool>) {
        let (a, b, c) = xs.unzip();
        (
            a.fold_seg(lens, 3, |x, y| x.max(y)),
            b.fold_seg(lens, 0xF0F0, |x, y| y ^ x),
            c.fold_seg(lens, false, |x, y| x | y),
        )
    }
    // Signed zeros: a sum of `-0.0`s from `-0.0` stays `-0.0`.
    fn seg_zeros(xs: &Vector<f32>, lens: &Vector<u32>) -> Vector<f32> {
        xs.fold_seg(lens, -0.0, |a, b| a + b)
    }
    // Not associative: one thread per segment, in order.
    fn seg_horner(xs: &Vector<i32>, lens: &Vector<u32>) -> Vector<i32> {
        xs.fold_seg(lens, 1, |a, x| a * 3 + x)
    }
}

const SIZES: [usize; 5] = [0, 1, 6, 37, 300];

fn vec_of<T: accel::Elem>(n: usize, f: impl Fn(usize) -> T) -> Vector<T> {
    (0..n).map(f).collect()
}

#[test]
fn permute_native_atomics() {
    for n in SIZES {
        let xs = vec_of(n, |i| (hash(i) % 1000) as i32 - 500);
        let z = vec_of(7, |i| i as i32);
        check_ok(
            hist_i32::SOURCE,
            "hist_i32",
            &[arg(&xs), arg(&z)],
            hist_i32(&xs, &z),
            EXACT,
        );
        // Small integers: every order of the additions is exact.
        let xs = vec_of(n, |i| (hash(i) % 64) as f32 - 32.0);
        let z = vec_of(5, |i| i as f32 * 0.5);
        check_ok(
            add_f32::SOURCE,
            "add_f32",
            &[arg(&xs), arg(&z)],
            add_f32(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| hash(i) as i64);
        let z = vec_of(3, |i| i as i64 - 1);
        check_ok(
            max_i64::SOURCE,
            "max_i64",
            &[arg(&xs), arg(&z)],
            max_i64(&xs, &z),
            EXACT,
        );
    }
}

#[test]
fn permute_into_private_tables() {
    // 64 sources per target, and bins from 1 to past the table (4096 of
    // 4 bytes, 1365 of 12): both entries run.
    for nb in [1, 5, 300, 1365, 1366, 4096, 4097] {
        let n = (64 * nb).min(if on_gpu() { 20_000 } else { 300_000 });
        let xs = vec_of(n, |i| (hash(i) % 1000) as i32 - 500);
        let z = vec_of(nb, |i| i as i32 - 3);
        check_ok(
            bins_i32::SOURCE,
            "bins_i32",
            &[arg(&xs), arg(&z)],
            bins_i32(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| hash(i) as u32 | 1);
        let z = vec_of(nb, |i| if i % 2 == 0 { u32::MAX } else { 5 });
        check_ok(
            bins_min_u32::SOURCE,
            "bins_min_u32",
            &[arg(&xs), arg(&z)],
            bins_min_u32(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| (hash(i) as i64 - (1 << 40), hash(i + 1) as i32));
        let z = vec_of(nb, |i| {
            (
                if i % 3 == 0 { i64::MAX } else { -(i as i64) },
                if i % 2 == 0 { i32::MIN } else { 0 },
            )
        });
        check_ok(
            bins_signed::SOURCE,
            "bins_signed",
            &[arg(&xs), arg(&z)],
            bins_signed(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| (!(1u32 << (i % 32)), 1u64 << (hash(i) % 64)));
        let z = vec_of(nb, |i| (u32::MAX - i as u32, i as u64));
        check_ok(
            bins_bits::SOURCE,
            "bins_bits",
            &[arg(&xs), arg(&z)],
            bins_bits(&xs, &z),
            EXACT,
        );
        // Every bin's sources all `-0.0` or, in odd bins, one `+0.0`.
        let xs = vec_of(n, |i| if i % nb % 2 == 1 && i < nb { 0.0f32 } else { -0.0 });
        let z = vec_of(nb, |_| -0.0f32);
        let got = bins_zeros(&xs, &z).expect("runs");
        check_ok(
            bins_zeros::SOURCE,
            "bins_zeros",
            &[arg(&xs), arg(&z)],
            Ok(got.clone()),
            EXACT,
        );
        for (b, v) in got.to_vec().into_iter().enumerate() {
            assert_eq!(v.is_sign_negative(), b % 2 == 0 || b >= n, "bin {b} of {nb}");
        }
    }
    // The table's entry exists where every field has a native atomic.
    assert!(
        bins_bits::ptx().contains("red.shared.and.b32"),
        "{}",
        bins_bits::ptx()
    );
    assert!(!argmax_pair::ptx().contains("permute_private"));
}

#[test]
fn permute_atomics_per_field() {
    for n in SIZES {
        // Multiples of 1/4 of small size: their sums are exact in any order.
        let xs = vec_of(n, |i| {
            ((hash(i) % 64) as f64 * 0.25, -((hash(i + 1) % 8) as f64), 1u32)
        });
        let z = vec_of(3, |i| (i as f64, 0.5, i as u32));
        check_ok(
            sums_f64_u32::SOURCE,
            "sums_f64_u32",
            &[arg(&xs), arg(&z)],
            sums_f64_u32(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| {
            (
                hash(i) as i32,
                (hash(i + 7) as u64, hash(i + 3) as i64 - (1 << 40)),
            )
        });
        let z = vec_of(4, |i| (i as i32, (i as u64, i as i64)));
        check_ok(
            min_max_pair::SOURCE,
            "min_max_pair",
            &[arg(&xs), arg(&z)],
            min_max_pair(&xs, &z),
            EXACT,
        );
    }
    // One reduction per field, and no lock.
    for ptx in [sums_f64_u32::ptx(), min_max_pair::ptx()] {
        assert!(ptx.contains("red.global."), "{ptx}");
        assert!(!ptx.contains("atom.global.exch"), "{ptx}"); // the lock's release
    }
    assert!(sums_f64_u32::ptx().contains("red.global.add.f64"));
}

#[test]
fn permute_compare_and_swap() {
    for n in SIZES {
        // Powers of two: products are exact in any order.
        let xs = vec_of(n, |i| [0.5f32, 2.0, -1.0, 1.0][(hash(i) % 4) as usize]);
        let z = vec_of(5, |i| (i + 1) as f32);
        check_ok(
            mul_f32::SOURCE,
            "mul_f32",
            &[arg(&xs), arg(&z)],
            mul_f32(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| (hash(i) % 10_000) as f64 / 7.0 - 700.0);
        let z = vec_of(4, |i| i as f64 * 100.0 - 200.0);
        check_ok(
            max_f64::SOURCE,
            "max_f64",
            &[arg(&xs), arg(&z)],
            max_f64(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| hash(i) as u32 | 1);
        let z = vec_of(6, |i| 3 * i as u32 + 1);
        check_ok(
            mul_u32::SOURCE,
            "mul_u32",
            &[arg(&xs), arg(&z)],
            mul_u32(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, hash);
        let z = vec_of(2, |i| u64::MAX - i as u64);
        check_ok(
            min_u64::SOURCE,
            "min_u64",
            &[arg(&xs), arg(&z)],
            min_u64(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| i as f32 + 1.0);
        let z = vec_of(n, |i| (hash(i) % 100) as f32);
        check_ok(
            order_f32::SOURCE,
            "order_f32",
            &[arg(&xs), arg(&z)],
            order_f32(&xs, &z),
            EXACT,
        );
    }
}

#[test]
fn permute_per_element_lock() {
    for n in SIZES {
        // Distinct keys: the maximum does not depend on the order.
        let xs = vec_of(n, |i| (i as i32 * 7919 % 1009, i as f32 * 0.25));
        let z = vec_of(4, |i| (i as i32 * 100 - 150, -(i as f32)));
        check_ok(
            argmax_pair::SOURCE,
            "argmax_pair",
            &[arg(&xs), arg(&z)],
            argmax_pair(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| hash(i) as u8);
        let z = vec_of(3, |i| i as u8 * 100);
        check_ok(
            add_u8::SOURCE,
            "add_u8",
            &[arg(&xs), arg(&z)],
            add_u8(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| hash(i) as i16);
        let z = vec_of(5, |i| i as i16 * 1000 - 2000);
        check_ok(
            max_i16::SOURCE,
            "max_i16",
            &[arg(&xs), arg(&z)],
            max_i16(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| hash(i) % 5 == 0);
        let z = vec_of(3, |i| i == 1);
        check_ok(
            any_bool::SOURCE,
            "any_bool",
            &[arg(&xs), arg(&z)],
            any_bool(&xs, &z),
            EXACT,
        );
        let xs = vec_of(n, |i| i as i16);
        let z = vec_of(n, |i| (hash(i) % 50) as i16);
        check_ok(
            order_i16::SOURCE,
            "order_i16",
            &[arg(&xs), arg(&z)],
            order_i16(&xs, &z),
            EXACT,
        );
    }
}

#[test]
fn maps_after_folds_and_scans() {
    for n in SIZES {
        let xs = vec_of(n, |i| (hash(i) % 200) as i32 - 100);
        check_ok(
            fold_all_post::SOURCE,
            "fold_all_post",
            &[arg(&xs)],
            fold_all_post(&xs),
            EXACT,
        );
        let ps = vec_of(n, |i| ((hash(i) % 50) as i32, (hash(i + 3) % 999) as i32));
        check_ok(
            fold_pair_post::SOURCE,
            "fold_pair_post",
            &[arg(&ps)],
            fold_pair_post(&ps),
            EXACT,
        );
        let m = Matrix::from_fn([n % 7, n % 13], |[i, j]| hash(i * 13 + j) as i64);
        // An empty row is an error on both sides.
        if m.shape()[0] > 0 && m.shape()[1] == 0 {
            check_err(
                fold1_rows_post::SOURCE,
                "fold1_rows_post",
                &[arg(&m)],
                fold1_rows_post(&m),
                accel::ErrorKind::EmptyReduction,
            );
        } else {
            check_ok(
                fold1_rows_post::SOURCE,
                "fold1_rows_post",
                &[arg(&m)],
                fold1_rows_post(&m),
                EXACT,
            );
        }
        let mi = Matrix::from_fn([n % 5, n], |[i, j]| (hash(i * 1000 + j) % 10) as i32);
        check_ok(
            scanl_post::SOURCE,
            "scanl_post",
            &[arg(&mi)],
            scanl_post(&mi),
            EXACT,
        );
        let xs = vec_of(n, |i| (hash(i) % 100) as i16);
        check_ok(
            scanr_post::SOURCE,
            "scanr_post",
            &[arg(&xs)],
            scanr_post(&xs),
            EXACT,
        );
        let xs = vec_of(n, |i| hash(i) as u8);
        check_ok(
            scanr1_post::SOURCE,
            "scanr1_post",
            &[arg(&xs)],
            scanr1_post(&xs),
            EXACT,
        );
    }
}

/// The plans have the maps fused (one kernel each), so the GPU path above ran
/// the `post` code of the PTX skeletons.
#[test]
fn maps_are_fused_into_the_folds_and_scans() {
    for explain in [
        fold_all_post::explain(),
        fold1_rows_post::explain(),
        fold_pair_post::explain(),
        scanl_post::explain(),
        scanr_post::explain(),
        scanr1_post::explain(),
    ] {
        assert!(explain.contains(": 1 kernel\n"), "{explain}");
    }
}

/// Rows past the one-block-per-row scan's range, non-commutative combinations
/// ("the last non-zero") to show the order of the chunks and their carries.
#[test]
fn long_scans() {
    for (rows, len) in [(1usize, 40_001usize), (3, 32_768)] {
        let sparse = |i: usize| {
            if hash(i) % 97 == 0 {
                (hash(i + 1) % 1000) as i32 - 500
            } else {
                0
            }
        };
        let m = Matrix::from_fn([rows, len], |[i, j]| sparse(i * len + j));
        check_ok(
            long_scanl1::SOURCE,
            "long_scanl1",
            &[arg(&m)],
            long_scanl1(&m),
            EXACT,
        );
        check_ok(
            long_scanr1::SOURCE,
            "long_scanr1",
            &[arg(&m)],
            long_scanr1(&m),
            EXACT,
        );
        let mi = Matrix::from_fn([rows, len], |[i, j]| hash(i * len + j) as i64 >> 8);
        check_ok(
            long_scanl::SOURCE,
            "long_scanl",
            &[arg(&mi)],
            long_scanl(&mi),
            EXACT,
        );
        let signs = Matrix::from_fn([rows, len], |[i, j]| {
            if hash(i * len + j) % 211 == 0 {
                (hash(j) % 100) as i32
            } else {
                -1
            }
        });
        check_ok(
            long_scanr_post::SOURCE,
            "long_scanr_post",
            &[arg(&signs)],
            long_scanr_post(&signs),
            EXACT,
        );
        let pairs = Matrix::from_fn([rows, len], |[i, j]| {
            let h = hash(i * len + j);
            ((h % 1000) as i32, if h % 53 == 0 { (h >> 20) as u8 } else { 0 })
        });
        check_ok(
            long_scanl_total::SOURCE,
            "long_scanl_total",
            &[arg(&pairs)],
            long_scanl_total(&pairs),
            EXACT,
        );
        let xs = vec_of(len, |i| (hash(i) % 100_000) as f64 / 3.0);
        check_ok(
            long_scanr_total::SOURCE,
            "long_scanr_total",
            &[arg(&xs)],
            long_scanr_total(&xs),
            EXACT,
        );
    }
}

/// Maps and commutative folds over quads of neighbouring elements: sizes
/// around multiples of four, and folds long enough that every thread has a
/// quad (from about 16,000 elements on the simulator's grid).
#[test]
fn quads() {
    for n in [0usize, 1, 3, 4, 5, 37, 1023, 20_003, 65_537] {
        let xs = vec_of(n, |i| ((hash(i) % 64) as f32 - 32.0, hash(i + 1) as i64 >> 20));
        let ys = vec_of(n, |i| hash(i + 2) as u32);
        check_ok(
            quad_map::SOURCE,
            "quad_map",
            &[arg(&xs), arg(&ys)],
            quad_map(&xs, &ys),
            EXACT,
        );
        // Small integers: every order of the sum is exact.
        let a = vec_of(n, |i| (hash(i) % 17) as f32 - 8.0);
        let b = vec_of(n, |i| (hash(i + 5) % 17) as f32 - 8.0);
        check_ok(
            quad_dot::SOURCE,
            "quad_dot",
            &[arg(&a), arg(&b)],
            quad_dot(&a, &b),
            EXACT,
        );
        let us = vec_of(n, |i| hash(i + 9));
        check_ok(quad_max::SOURCE, "quad_max", &[arg(&us)], quad_max(&us), EXACT);
    }
    assert!(quad_map::ptx().contains("ld.global.v2.b64"));
    assert!(quad_map::ptx().contains("st.global.v2.f64"));
    assert!(quad_dot::ptx().contains("ld.global.v4.f32"));
}

/// Scans of exactly associative operators (compared exactly) and a float
/// sum (reassociated: compared at the scale of its terms), at lengths around
/// the staged row of one block (4,096 positions for a 4-byte accumulator,
/// the least power of two per thread that covers the row) and the tiles
/// with look-back beyond it, for one row and for many.
#[test]
fn scans_of_rows() {
    for (rows, len) in [
        (0usize, 4usize),
        (3, 0),
        (5, 17),
        (2, 300),
        (3, 1000),
        (1, 4096),
        (1, 4097),
        (1, 8191),
        (2, 8192),
        (1, 20_001),
        (40, 4100),
    ] {
        let m = Matrix::from_fn([rows, len], |[i, j]| (hash(i * len + j) % 200) as i32 - 100);
        check_ok(
            exact_scanl::SOURCE,
            "exact_scanl",
            &[arg(&m)],
            exact_scanl(&m),
            EXACT,
        );
        let p = Matrix::from_fn([rows, len], |[i, j]| {
            let h = hash(i * len + j + 3);
            (h as u16, h as i64 >> 5)
        });
        check_ok(
            exact_scanr1::SOURCE,
            "exact_scanr1",
            &[arg(&p)],
            exact_scanr1(&p),
            EXACT,
        );
        let xs = vec_of(rows * len, |i| (hash(i + 7) % 5) as u8 + 1);
        check_ok(
            exact_scanl_total::SOURCE,
            "exact_scanl_total",
            &[arg(&xs)],
            exact_scanl_total(&xs),
            EXACT,
        );
        let x = Matrix::from_fn([rows, len], |[i, j]| (hash(i * len + j + 1) % 1000) as f32 / 7.0);
        check_ok(
            float_scanl1::SOURCE,
            "float_scanl1",
            &[arg(&x)],
            float_scanl1(&x),
            sum_tol(F32_TOL, abs_sum(x.as_slice())),
        );
    }
}

/// Folds in a scan's pass, on the three scan entries: a warp per short
/// row, a block per row, and tiles with look-back (from 8,193 positions for
/// 8-byte accumulators, 4,097 for 4-byte ones), whose folds chain along the
/// row; rows of nothing, where a `fold1` fails.
#[test]
fn folds_in_a_scans_pass() {
    // One kernel each on the GPU path (the entries of kernel 0 only).
    for ptx in [pass_sums::ptx(), pass_rows::ptx(), pass_floats::ptx()] {
        assert!(
            ptx.contains("_k0_scan_lookback") && !ptx.contains("_k1_"),
            "{ptx}"
        );
    }
    for n in [0usize, 1, 31, 300, 4096, 4097, 8193, 20_001] {
        let xs = vec_of(n, |i| (hash(i) % 2001) as i64 - 1000);
        check_ok(pass_sums::SOURCE, "pass_sums", &[arg(&xs)], pass_sums(&xs), EXACT);
        // Multiples of 1/4, small: sums exact in any order.
        let xf = vec_of(n, |i| (hash(i + 3) % 64) as f32 / 4.0 - 8.0);
        let k = -3.5f32;
        let got = pass_floats(&xf, k);
        if n == 0 {
            // The error names the `fold1`'s line, on every back end.
            let fold1 = include_str!("gpu_skeletons.rs")
                .lines()
                .position(|l| l.contains("(s.sum(), s.minimum(), xs.map("))
                .expect("pass_floats' source");
            let at = got
                .as_ref()
                .err()
                .and_then(|e| e.location())
                .unwrap_or_default()
                .to_string();
            assert!(at.contains(&format!(":{}:", fold1 + 1)), "{at}");
            let e = accel::ErrorKind::EmptyReduction;
            check_err(pass_floats::SOURCE, "pass_floats", &[arg(&xf), arg(k)], got, e);
        } else {
            check_ok(
                pass_floats::SOURCE,
                "pass_floats",
                &[arg(&xf), arg(k)],
                got,
                EXACT,
            );
        }
    }
    for (rows, len) in [(0usize, 3usize), (3, 0), (5, 17), (2, 300), (3, 4097), (2, 9000)] {
        let m = Matrix::from_fn([rows, len], |[i, j]| (hash(i * len + j) % 201) as i32 - 100);
        let got = pass_rows(&m);
        if rows > 0 && len == 0 {
            let e = accel::ErrorKind::EmptyReduction;
            check_err(pass_rows::SOURCE, "pass_rows", &[arg(&m)], got, e);
        } else {
            check_ok(pass_rows::SOURCE, "pass_rows", &[arg(&m)], got, EXACT);
        }
    }
}

/// Row lengths on both sides of the warp-per-row limit (2048), with a
/// non-commutative combination ("the last non-zero") to show the order, and
/// commutative ones (read strided).
#[test]
fn folds_of_rows() {
    for (rows, len) in [
        (0usize, 5usize),
        (4, 0),
        (1, 1),
        (9, 31),
        (17, 33),
        (3, 2047),
        (2, 2048),
        (3, 5001),
    ] {
        let m = Matrix::from_fn([rows, len], |[i, j]| {
            let h = hash(i * len + j);
            if h % 13 == 0 {
                (h % 1000) as i32 + 1
            } else {
                0
            }
        });
        check_ok(
            rows_last_nonzero::SOURCE,
            "rows_last_nonzero",
            &[arg(&m)],
            rows_last_nonzero(&m),
            EXACT,
        );
        let p = Matrix::from_fn([rows, len], |[i, j]| {
            let h = hash(i * len + j + 5);
            (h as i64 >> 3, if h % 7 == 0 { (h >> 40) as u16 } else { 0 })
        });
        // fold1 of empty rows is an error on both sides.
        if rows > 0 && len == 0 {
            let e = accel::ErrorKind::EmptyReduction;
            check_err(rows_pair::SOURCE, "rows_pair", &[arg(&p)], rows_pair(&p), e);
        } else {
            check_ok(rows_pair::SOURCE, "rows_pair", &[arg(&p)], rows_pair(&p), EXACT);
        }
        let x = Matrix::from_fn([rows, len], |[i, j]| (hash(i * len + j) % 1000) as f64 / 8.0);
        check_ok(
            rows_sum_f64::SOURCE,
            "rows_sum_f64",
            &[arg(&x)],
            rows_sum_f64(&x),
            F64_TOL,
        );
        // Commutative: every thread strides over the row.
        let u = Matrix::from_fn([rows, len], |[i, j]| (hash(i * len + j + 11) >> 40) as u32);
        check_ok(
            rows_max_u32::SOURCE,
            "rows_max_u32",
            &[arg(&u)],
            rows_max_u32(&u),
            EXACT,
        );
    }
}

/// Segment lengths around a warp's round of 32, the 64 past which a warp
/// shares a segment, and beyond, short and long ones in one warp, empty ones
/// included, `extra` more at the end; their sum is the values' length.
fn segment_lengths(seed: usize, extra: &[usize]) -> Vec<usize> {
    let mut lens: Vec<usize> = [0, 1, 31, 32, 33, 0, 64, 95, 2, 700, 129]
        .into_iter()
        .chain((0..20).map(|i| (hash(seed + i) % 90) as usize))
        .collect();
    lens.extend_from_slice(extra);
    lens
}

fn offsets_of(lens: &[usize]) -> Vec<usize> {
    let mut offs = vec![0];
    for l in lens {
        offs.push(offs.last().unwrap() + l);
    }
    offs
}

#[test]
fn segment_folds() {
    for (seed, extra) in [
        (0usize, vec![]),
        (1, vec![3000]),
        (2, vec![0, 0]),
        (3, vec![1, 4097, 5]),
        // Few values per segment: a thread per segment, the warp sharing
        // the long ones (with more, the host gives each segment a warp).
        (4, vec![0; 300]),
    ] {
        let lens = segment_lengths(seed, &extra);
        let offs = offsets_of(&lens);
        let n = *offs.last().unwrap();
        let xs = vec_of(n, |i| (hash(i + seed) >> 20) as i64 - (1 << 43));
        let ov = Vector::from(offs.clone());
        check_ok(
            seg_sum_i64::SOURCE,
            "seg_sum_i64",
            &[arg(&xs), arg(&ov)],
            seg_sum_i64(&xs, &ov),
            EXACT,
        );
        let lu = Vector::from(lens.iter().map(|&l| l as u32).collect::<Vec<_>>());
        let fs = vec_of(n, |i| (hash(i * 3 + seed) % 100_000) as f32 - 50_000.0);
        check_ok(
            seg_min_f32::SOURCE,
            "seg_min_f32",
            &[arg(&fs), arg(&lu)],
            seg_min_f32(&fs, &lu),
            EXACT,
        );
        let ds = vec_of(n, |i| (hash(i * 5 + seed) % 1000) as f64 / 7.0);
        let li = Vector::from(lens.iter().map(|&l| l as i32).collect::<Vec<_>>());
        check_ok(
            seg_sum_f64::SOURCE,
            "seg_sum_f64",
            &[arg(&ds), arg(&li)],
            seg_sum_f64(&ds, &li),
            F64_TOL,
        );
        let ns = vec_of(n, |i| {
            let h = hash(i * 7 + seed);
            ((h >> 8) as i8, (h >> 20) as u16, h % 97 == 0)
        });
        check_ok(
            seg_narrow::SOURCE,
            "seg_narrow",
            &[arg(&ns), arg(&lu)],
            seg_narrow(&ns, &lu),
            EXACT,
        );
        let zs = vec_of(n, |i| if hash(i) % 3 == 0 { 0.0 } else { -0.0 });
        let got: Vec<u32> = seg_zeros(&zs, &lu)
            .unwrap()
            .to_vec()
            .iter()
            .map(|x| x.to_bits())
            .collect();
        let want: Vec<u32> = offs
            .windows(2)
            .map(|w| {
                zs.to_vec()[w[0]..w[1]]
                    .iter()
                    .fold(-0.0f32, |a, b| a + b)
                    .to_bits()
            })
            .collect();
        assert_eq!(got, want, "seg_zeros: the signs of the zeros");
        let hs = vec_of(n, |i| (hash(i + 9) % 5) as i32 - 2);
        check_ok(
            seg_horner::SOURCE,
            "seg_horner",
            &[arg(&hs), arg(&lu)],
            seg_horner(&hs, &lu),
            EXACT,
        );
        // Rows of a matrix, each cut into the same segments.
        let cols: usize = lens.iter().take(12).sum();
        let lr = Vector::from(lens[..12].to_vec());
        let m = Matrix::from_fn([3, cols], |[i, j]| (hash(i * cols + j) % 2000) as i32 - 1000);
        check_ok(
            seg_rows_max::SOURCE,
            "seg_rows_max",
            &[arg(&m), arg(&lr)],
            seg_rows_max(&m, &lr),
            EXACT,
        );
        // A sparse matrix-vector product; then one column out of range, in a
        // long segment's last round, fails on both sides.
        let nx = 77;
        let x = vec_of(nx, |i| (hash(i + 1000) % 64) as f32 / 8.0);
        let mut cu: Vec<u32> = (0..n).map(|i| (hash(i + 77) % nx as u64) as u32).collect();
        let vals = vec_of(n, |i| (hash(i + 55) % 16) as f32 - 8.0);
        let o32 = Vector::from(offs.iter().map(|&o| o as u32).collect::<Vec<_>>());
        let cv = Vector::from(cu.clone());
        let args = [arg(&vals), arg(&cv), arg(&o32), arg(&x)];
        check_ok(
            seg_spmv::SOURCE,
            "seg_spmv",
            &args,
            seg_spmv(&vals, &cv, &o32, &x),
            F32_TOL,
        );
        if n > 0 {
            cu[offs[10] - 1] = nx as u32 + 3;
            let cv = Vector::from(cu);
            let args = [arg(&vals), arg(&cv), arg(&o32), arg(&x)];
            let e = accel::ErrorKind::IndexOutOfBounds;
            check_err(
                seg_spmv::SOURCE,
                "seg_spmv",
                &args,
                seg_spmv(&vals, &cv, &o32, &x),
                e,
            );
        }
    }
}

/// Which segmented folds the GPU path lets a warp share long segments of:
/// the associative and commutative ones, not `seg_horner`'s.
#[test]
fn segment_folds_by_warps() {
    for ptx in [
        seg_sum_i64::ptx(),
        seg_min_f32::ptx(),
        seg_sum_f64::ptx(),
        seg_rows_max::ptx(),
        seg_spmv::ptx(),
        seg_narrow::ptx(),
        seg_zeros::ptx(),
    ] {
        assert!(ptx.contains("shfl.sync.bfly"), "{ptx}");
    }
    assert!(!seg_horner::ptx().contains("shfl.sync"), "{}", seg_horner::ptx());
}
