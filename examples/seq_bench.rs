//! Sequences against the array programs that compute the same, in one run
//! (the targets of `docs/bench/sequences.md`):
//!
//! * maxSum: `(s.sum(), s.maximum())` of a sequence against `s.sum()` alone
//!   (one traversal for both) and against the array program, for the
//!   elements of a vector (`to_seq`) and for a stream of Scalars;
//! * the matrix-vector product by rows, `m.rows().map(|r| r.zip_with(v, ..)
//!   .sum()).collect()`, against the array program;
//! * a returned sequence (the rows of a matrix streamed in blocks, scaled,
//!   handed out one by one) against the array program that scales the
//!   matrix.
//!
//! `cargo run --release --example seq_bench [-- N ROWS COLS]` (defaults
//! 20,000,000 and 4,000 x 4,000).

use accel::prelude::*;
use std::time::{Duration, Instant};

accel! {
    fn max_sum_seq(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>) {
        let s = xs.to_seq();
        (s.sum(), s.maximum())
    }
    fn sum_seq(xs: &Vector<f32>) -> Scalar<f32> {
        xs.to_seq().sum()
    }
    fn max_sum_array(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>) {
        (xs.sum(), xs.maximum())
    }
    fn max_sum_stream(xs: Seq<Scalar<f32>>) -> (Scalar<f32>, Scalar<f32>) {
        (xs.sum(), xs.maximum())
    }
    fn mat_vec_rows(m: &Matrix<f32>, v: &Vector<f32>) -> Vector<f32> {
        m.rows().map(|r| r.zip_with(v, |a, b| a * b).sum()).collect()
    }
    fn scale_rows(xs: Seq<Vector<f32>>, k: f32) -> Seq<Vector<f32>> {
        xs.map(|x| x.map(|v| v * k))
    }
    fn scale_all(m: &Matrix<f32>, k: f32) -> Matrix<f32> {
        m.map(|v| v * k)
    }
    fn mat_vec(m: &Matrix<f32>, v: &Vector<f32>) -> Vector<f32> {
        let [rows, cols] = m.shape();
        generate([rows, cols], |[i, j]| m[[i, j]] * v[[j]]).sum()
    }
}

/// Calls `f` once, adding its time to `samples`.
fn timed<T>(samples: &mut Vec<Duration>, f: impl FnOnce() -> accel::Result<T>) -> accel::Result<T> {
    let t = Instant::now();
    let r = f()?;
    samples.push(t.elapsed());
    Ok(r)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn arg(i: usize, default: usize) -> accel::Result<usize> {
    match std::env::args().nth(i) {
        Some(s) => s
            .parse()
            .map_err(|_| accel::Error::new("seq_bench", format!("not a size: {s}"))),
        None => Ok(default),
    }
}

fn main() -> accel::Result<()> {
    let n = arg(1, 20_000_000)?;
    let (rows, cols) = (arg(2, 4_000)?, arg(3, 4_000)?);
    let b = Backend::default();
    println!(
        "backend `{}` ({} threads)",
        b.name(),
        rayon::current_num_threads()
    );

    let xs = Vector::from(
        (0..n)
            .map(|i| ((i * 7919) % 10007) as f32 * 1e-3)
            .collect::<Vec<f32>>(),
    );
    // The programs in turn, many times: this machine's timings vary from
    // run to run, and alike for all three.
    let (mut t_ms, mut t_s, mut t_arr) = (Vec::new(), Vec::new(), Vec::new());
    let mut results = None;
    for _ in 0..41 {
        let (s1, m1) = timed(&mut t_ms, || max_sum_seq::on(&b, &xs))?;
        let s2 = timed(&mut t_s, || sum_seq::on(&b, &xs))?;
        let (s3, m3) = timed(&mut t_arr, || max_sum_array::on(&b, &xs))?;
        results = Some((s1, m1, s2, s3, m3));
    }
    let (s1, m1, s2, s3, m3) = results.expect("41 rounds");
    let (t_ms, t_s, t_arr) = (median(t_ms), median(t_s), median(t_arr));
    println!(
        "maxSum of {n} (to_seq): {:.2} ms; sum alone {:.2} ms ({:.2}x); array maxSum {:.2} ms ({:.2}x)",
        ms(t_ms),
        ms(t_s),
        t_ms.as_secs_f64() / t_s.as_secs_f64(),
        ms(t_arr),
        t_ms.as_secs_f64() / t_arr.as_secs_f64()
    );
    println!(
        "  results: ({:.6e}, {}) / {:.6e} / ({:.6e}, {})",
        s1.value(),
        m1.value(),
        s2.value(),
        s3.value(),
        m3.value()
    );

    // A stream of Scalars: every element is an array of its own on the host.
    let k = n / 10;
    let items: Vec<Scalar<f32>> = xs.to_vec()[..k].iter().map(|x| Scalar::new(*x)).collect();
    let mut t_st = Vec::new();
    let mut r4 = None;
    for _ in 0..5 {
        r4 = Some(timed(&mut t_st, || {
            max_sum_stream::on(&b, items.iter().cloned())
        })?);
    }
    let ((s4, m4), t_st) = (r4.expect("5 runs"), median(t_st));
    println!(
        "maxSum of a stream of {k} Scalars: {:.2} ms ({:.1} M elements/s), results ({:.6e}, {})",
        ms(t_st),
        k as f64 / t_st.as_secs_f64() / 1e6,
        s4.value(),
        m4.value()
    );

    let m = Matrix::from_vec(
        [rows, cols],
        (0..rows * cols)
            .map(|i| ((i * 31) % 1009) as f32 * 1e-3)
            .collect(),
    )?;
    let v = Vector::from((0..cols).map(|j| (j % 17) as f32 * 0.1).collect::<Vec<f32>>());
    let (mut t_rows, mut t_mv) = (Vec::new(), Vec::new());
    let mut results = None;
    for _ in 0..21 {
        let r1 = timed(&mut t_rows, || mat_vec_rows::on(&b, &m, &v))?;
        let r2 = timed(&mut t_mv, || mat_vec::on(&b, &m, &v))?;
        results = Some((r1, r2));
    }
    let (r1, r2) = results.expect("21 rounds");
    let (t_rows, t_mv) = (median(t_rows), median(t_mv));
    let diff = r1
        .to_vec()
        .iter()
        .zip(r2.to_vec())
        .map(|(a, b)| (a - b).abs() / b.abs().max(1.0))
        .fold(0.0f32, f32::max);
    println!(
        "matrix-vector product {rows}x{cols}: by rows {:.2} ms, array program {:.2} ms ({:.2}x); largest relative difference {diff:.1e}",
        ms(t_rows),
        ms(t_mv),
        t_rows.as_secs_f64() / t_mv.as_secs_f64()
    );
    println!("{}", mat_vec_rows::explain());

    // A returned sequence: the rows of the matrix streamed in blocks of 500,
    // scaled a chunk at a time, each row handed out as its own vector.
    let blocks: Vec<Matrix<f32>> = (0..rows.div_ceil(500))
        .map(|b| {
            let (lo, hi) = (b * 500, ((b + 1) * 500).min(rows));
            Matrix::from_vec([hi - lo, cols], m.as_slice()[lo * cols..hi * cols].to_vec())
        })
        .collect::<accel::Result<_>>()?;
    let (mut t_ret, mut t_all) = (Vec::new(), Vec::new());
    let (mut c1, mut c2) = (0.0f32, 0.0f32);
    for _ in 0..11 {
        c1 = timed(&mut t_ret, || {
            let mut corner = 0.0;
            for r in scale_rows::on(&b, Stream::chunks(blocks.iter().cloned()), 2.0)? {
                corner += r?.as_slice()[cols - 1];
            }
            Ok(corner)
        })?;
        c2 = timed(&mut t_all, || {
            let s = scale_all::on(&b, &m, 2.0)?;
            Ok((0..rows).map(|i| s.as_slice()[i * cols + cols - 1]).sum::<f32>())
        })?;
    }
    let (t_ret, t_all) = (median(t_ret), median(t_all));
    println!(
        "returned sequence of {rows} scaled rows: {:.2} ms, array program {:.2} ms ({:.2}x); checks {c1} and {c2}",
        ms(t_ret),
        ms(t_all),
        t_ret.as_secs_f64() / t_all.as_secs_f64()
    );
    Ok(())
}
