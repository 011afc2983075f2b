//! Stable fluids without accel: the initial state, and one time step written
//! as a Rust programmer would (row-parallel sweeps over double buffers, the
//! edge columns handled apart so the interior loop has no clamping). Run with
//! `par = false` it is the sequential reference; the arithmetic is the same as
//! the accel program's, operation for operation, so the results agree bit for
//! bit.

#![allow(dead_code)] // the examples and the benchmarks each use a part

use rayon::prelude::*;

/// A field of `h x w` cells, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Fields {
    pub h: usize,
    pub w: usize,
    pub dens: Vec<f32>,
    pub u: Vec<f32>,
    pub v: Vec<f32>,
}

pub const DT: f32 = 0.5;
pub const VISC: f32 = 0.05;
pub const DIFF: f32 = 0.02;
pub const ITERS: usize = 20;

/// A dense blob in the middle and a swirling velocity field.
pub fn initial(h: usize, w: usize) -> Fields {
    let mut f = Fields {
        h,
        w,
        dens: vec![0.0; h * w],
        u: vec![0.0; h * w],
        v: vec![0.0; h * w],
    };
    let (cy, cx, r) = (h as f32 / 2.0, w as f32 / 2.0, (h.min(w) as f32 / 6.0).max(1.0));
    for i in 0..h {
        for j in 0..w {
            let (dy, dx) = ((i as f32 - cy) / r, (j as f32 - cx) / r);
            let k = i * w + j;
            if dx * dx + dy * dy < 1.0 {
                f.dens[k] = 1.0;
            }
            f.u[k] = 2.0 * (-dy).tanh();
            f.v[k] = 2.0 * dx.tanh();
        }
    }
    f
}

/// Linear indices of a cell and its four neighbours (clamped at the edges).
#[derive(Clone, Copy)]
pub struct Nb {
    pub c: usize,
    pub n: usize,
    pub s: usize,
    pub w: usize,
    pub e: usize,
}

/// `out[c] = f(neighbours of c)` for every cell, rows in parallel when `par`.
#[inline(always)]
fn sweep(out: &mut [f32], h: usize, w: usize, par: bool, f: impl Fn(Nb) -> f32 + Sync) {
    let row = |i: usize, r: &mut [f32]| {
        let (up, dn) = (i.saturating_sub(1) * w, (i + 1).min(h - 1) * w);
        let base = i * w;
        let at = |j: usize, jw: usize, je: usize| Nb {
            c: base + j,
            n: up + j,
            s: dn + j,
            w: base + jw,
            e: base + je,
        };
        r[0] = f(at(0, 0, 1.min(w - 1)));
        for j in 1..w.saturating_sub(1) {
            r[j] = f(at(j, j - 1, j + 1));
        }
        if w > 1 {
            r[w - 1] = f(at(w - 1, w - 2, w - 1));
        }
    };
    if par {
        out.par_chunks_mut(w).enumerate().for_each(|(i, r)| row(i, r));
    } else {
        out.chunks_mut(w).enumerate().for_each(|(i, r)| row(i, r));
    }
}

fn diffuse(x0: &[f32], h: usize, w: usize, a: f32, iters: usize, par: bool) -> Vec<f32> {
    let mut x = x0.to_vec();
    let mut next = vec![0.0; x.len()];
    for _ in 0..iters {
        sweep(&mut next, h, w, par, |k| {
            (x0[k.c] + a * (x[k.n] + x[k.s] + x[k.w] + x[k.e])) / (1.0 + 4.0 * a)
        });
        std::mem::swap(&mut x, &mut next);
    }
    x
}

fn advect(d0: &[f32], u: &[f32], v: &[f32], h: usize, w: usize, dt: f32, par: bool) -> Vec<f32> {
    let mut out = vec![0.0; d0.len()];
    let row = |i: usize, r: &mut [f32]| {
        for (j, o) in r.iter_mut().enumerate() {
            let k = i * w + j;
            let x = (j as f32 - dt * u[k]).clamp(0.0, (w - 1) as f32);
            let y = (i as f32 - dt * v[k]).clamp(0.0, (h - 1) as f32);
            let (j0, i0) = (x.floor() as usize, y.floor() as usize);
            let (j1, i1) = ((j0 + 1).min(w - 1), (i0 + 1).min(h - 1));
            let (s1, t1) = (x - j0 as f32, y - i0 as f32);
            let (s0, t0) = (1.0 - s1, 1.0 - t1);
            *o = s0 * (t0 * d0[i0 * w + j0] + t1 * d0[i1 * w + j0])
                + s1 * (t0 * d0[i0 * w + j1] + t1 * d0[i1 * w + j1]);
        }
    };
    if par {
        out.par_chunks_mut(w).enumerate().for_each(|(i, r)| row(i, r));
    } else {
        out.chunks_mut(w).enumerate().for_each(|(i, r)| row(i, r));
    }
    out
}

fn project(u: &[f32], v: &[f32], h: usize, w: usize, iters: usize, par: bool) -> (Vec<f32>, Vec<f32>) {
    let n = u.len();
    let mut div = vec![0.0; n];
    sweep(&mut div, h, w, par, |k| {
        -0.5 * (u[k.e] - u[k.w] + v[k.s] - v[k.n])
    });
    let (mut p, mut next) = (vec![0.0f32; n], vec![0.0f32; n]);
    for _ in 0..iters {
        sweep(&mut next, h, w, par, |k| {
            (div[k.c] + p[k.n] + p[k.s] + p[k.w] + p[k.e]) * 0.25
        });
        std::mem::swap(&mut p, &mut next);
    }
    let (mut u2, mut v2) = (vec![0.0; n], vec![0.0; n]);
    sweep(&mut u2, h, w, par, |k| u[k.c] - 0.5 * (p[k.e] - p[k.w]));
    sweep(&mut v2, h, w, par, |k| v[k.c] - 0.5 * (p[k.s] - p[k.n]));
    (u2, v2)
}

/// One time step (sequential when `par` is false).
pub fn step(f: &Fields, par: bool) -> Fields {
    let (h, w) = (f.h, f.w);
    let u1 = diffuse(&f.u, h, w, VISC * DT, ITERS, par);
    let v1 = diffuse(&f.v, h, w, VISC * DT, ITERS, par);
    let (u2, v2) = project(&u1, &v1, h, w, ITERS, par);
    let u3 = advect(&u2, &u2, &v2, h, w, DT, par);
    let v3 = advect(&v2, &u2, &v2, h, w, DT, par);
    let (u4, v4) = project(&u3, &v3, h, w, ITERS, par);
    let d1 = diffuse(&f.dens, h, w, DIFF * DT, ITERS, par);
    let dens = advect(&d1, &u4, &v4, h, w, DT, par);
    Fields {
        h,
        w,
        dens,
        u: u4,
        v: v4,
    }
}
