//! Jacobi relaxation of the Laplace equation on a 2-D grid: every interior cell
//! becomes the mean of its four neighbours, the cells of the outer ring keep
//! their (Dirichlet) values. The host loop calls the accel program once per
//! step; each step is one stencil kernel with an interior/border split.
//!
//! The result is checked against a plain sequential Rust loop at a small size,
//! then timed against the hand-written rayon loop a Rust programmer would write
//! (double-buffered, the ring copied, no boundary checks in the interior).
//!
//! `cargo run --release --example laplace [-- N [STEPS]]` (default 1024 x 1024, 100 steps).

use accel::prelude::*;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// One Jacobi step. `fixed` is true on the cells that keep their value (the
/// ring); outside the grid the stencil clamps (those reads only feed
/// fixed cells, whose value is kept).
#[acc]
pub fn jacobi_step(u: &Matrix<f32>, fixed: &Matrix<bool>) -> Matrix<f32> {
    u.stencil2(
        Boundary::Clamp,
        fixed,
        Boundary::Clamp,
        |[[_, n, _], [w, c, e], [_, s, _]], [[f]]| {
            if f {
                c
            } else {
                0.25 * (n + s + w + e)
            }
        },
    )
}

/// The largest change the next step would make: the stencil fused into the
/// reduction (one kernel).
#[acc]
pub fn residual(u: &Matrix<f32>, fixed: &Matrix<bool>) -> Scalar<f32> {
    u.stencil2(
        Boundary::Clamp,
        fixed,
        Boundary::Clamp,
        |[[_, n, _], [w, c, e], [_, s, _]], [[f]]| {
            if f {
                0.0
            } else {
                (0.25 * (n + s + w + e) - c).abs()
            }
        },
    )
    .fold_all(0.0, |a, b| a.max(b))
}

/// The initial grid: 0 inside, a hot top edge (1.0) and a warm left edge (0.5).
fn initial(n: usize, m: usize) -> (Vec<f32>, Vec<bool>) {
    let mut u = vec![0.0f32; n * m];
    let mut fixed = vec![false; n * m];
    for i in 0..n {
        for j in 0..m {
            if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
                fixed[i * m + j] = true;
                u[i * m + j] = if i == 0 {
                    1.0
                } else if j == 0 {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    (u, fixed)
}

/// The sequential reference: `steps` Jacobi steps.
fn reference(mut u: Vec<f32>, n: usize, m: usize, steps: usize) -> Vec<f32> {
    let mut next = u.clone();
    for _ in 0..steps {
        for i in 1..n.saturating_sub(1) {
            for j in 1..m.saturating_sub(1) {
                let (nn, s) = (u[(i - 1) * m + j], u[(i + 1) * m + j]);
                let (w, e) = (u[i * m + j - 1], u[i * m + j + 1]);
                next[i * m + j] = 0.25 * (nn + s + w + e);
            }
        }
        std::mem::swap(&mut u, &mut next);
    }
    u
}

/// The hand-written parallel version: rows in parallel, double-buffered.
fn rayon_steps(u: &mut Vec<f32>, next: &mut Vec<f32>, n: usize, m: usize, steps: usize) {
    for _ in 0..steps {
        let src: &[f32] = u;
        next.par_chunks_mut(m).enumerate().for_each(|(i, row)| {
            if i == 0 || i == n - 1 {
                row.copy_from_slice(&src[i * m..(i + 1) * m]);
                return;
            }
            let (up, mid, down) = (
                &src[(i - 1) * m..i * m],
                &src[i * m..(i + 1) * m],
                &src[(i + 1) * m..(i + 2) * m],
            );
            row[0] = mid[0];
            row[m - 1] = mid[m - 1];
            for j in 1..m - 1 {
                row[j] = 0.25 * (up[j] + down[j] + mid[j - 1] + mid[j + 1]);
            }
        });
        std::mem::swap(u, next);
    }
}

fn accel_steps(
    u: Matrix<f32>,
    fixed: &Matrix<bool>,
    backend: &Backend,
    steps: usize,
) -> accel::Result<Matrix<f32>> {
    let mut u = u;
    for _ in 0..steps {
        u = jacobi_step::on(backend, &u, fixed)?;
    }
    Ok(u)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn fail(msg: String) -> accel::Error {
    accel::Error::new("laplace example", msg)
}

fn main() -> accel::Result<()> {
    let arg = |k: usize, default: usize| -> accel::Result<usize> {
        match std::env::args().nth(k) {
            Some(s) => s.parse().map_err(|_| fail(format!("not a number: {s}"))),
            None => Ok(default),
        }
    };
    let n = arg(1, 1024)?;
    let steps = arg(2, 100)?;
    if n < 3 {
        return Err(fail(format!("the grid needs at least 3 x 3 cells, got {n}")));
    }
    let backend = Backend::default();

    // Correctness at a small size, against the sequential reference: exactly
    // the same arithmetic, so exactly the same bits.
    for (sn, sm, ss) in [(3, 3, 5), (17, 33, 40), (64, 48, 200)] {
        let (u0, f0) = initial(sn, sm);
        let want = reference(u0.clone(), sn, sm, ss);
        let fixed = Matrix::from_vec([sn, sm], f0)?;
        let got = accel_steps(Matrix::from_vec([sn, sm], u0.clone())?, &fixed, &backend, ss)?.to_vec();
        if got != want {
            return Err(fail(format!(
                "{sn} x {sm}, {ss} steps: accel differs from the reference"
            )));
        }
        let (mut hu, mut hn) = (u0.clone(), u0);
        rayon_steps(&mut hu, &mut hn, sn, sm, ss);
        if hu != want {
            return Err(fail(format!(
                "{sn} x {sm}: the rayon version differs from the reference"
            )));
        }
    }
    println!("checked against the sequential reference at 3x3, 17x33 and 64x48");

    println!(
        "Jacobi relaxation of a {n} x {n} grid, {steps} steps, on backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", jacobi_step::explain());
    println!("{}", residual::explain());

    let (u0, f0) = initial(n, n);
    let fixed = Matrix::from_vec([n, n], f0)?;
    let start = Matrix::from_vec([n, n], u0.clone())?;
    // Warm up both, then alternate runs so that drift hits both alike.
    let _ = accel_steps(start.clone(), &fixed, &backend, 2)?;
    let (mut hu, mut hn) = (u0.clone(), u0.clone());
    rayon_steps(&mut hu, &mut hn, n, n, 2);
    let runs = 5;
    let (mut t_acc, mut t_hand) = (vec![], vec![]);
    let (mut r_acc, mut r_hand) = (start.clone(), vec![]);
    for _ in 0..runs {
        let t = Instant::now();
        r_acc = accel_steps(start.clone(), &fixed, &backend, steps)?;
        t_acc.push(t.elapsed());
        let (mut hu, mut hn) = (u0.clone(), u0.clone());
        let t = Instant::now();
        rayon_steps(&mut hu, &mut hn, n, n, steps);
        t_hand.push(t.elapsed());
        r_hand = hu;
    }
    if r_acc.to_vec() != r_hand {
        return Err(fail("accel and rayon results differ".into()));
    }
    let res = residual::on(&backend, &r_acc, &fixed)?.value();
    let (ta, th) = (median(t_acc), median(t_hand));
    println!("residual after {steps} steps: {res:.3e}");
    println!(
        "accel:        {:>9.3} ms  ({:.3} ms/step)",
        ta.as_secs_f64() * 1e3,
        ta.as_secs_f64() * 1e3 / steps as f64
    );
    println!(
        "rayon (hand): {:>9.3} ms  ({:.3} ms/step)",
        th.as_secs_f64() * 1e3,
        th.as_secs_f64() * 1e3 / steps as f64
    );
    println!(
        "ratio accel / rayon = {:.3}  (median of {runs} runs each)",
        ta.as_secs_f64() / th.as_secs_f64()
    );
    Ok(())
}
