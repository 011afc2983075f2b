//! Canny's six data-parallel phases without accel: a generated image, and the
//! phases written as a Rust programmer would (one row-parallel sweep per phase,
//! edge rows and columns clamped). Run with `par = false` it is the sequential
//! reference; the arithmetic is the accel program's, operation for operation.

#![allow(dead_code)] // the examples and the benchmarks each use a part

use crate::common::Rng;
use rayon::prelude::*;

pub const LOW: f32 = 0.05;
pub const HIGH: f32 = 0.15;

/// A `w x h` RGBA image: overlapping discs and bands of colour, plus noise.
pub fn image(h: usize, w: usize, rng: &mut Rng) -> Vec<u32> {
    let discs: Vec<(f32, f32, f32, u32)> = (0..12)
        .map(|_| {
            (
                rng.f32(0.0, w as f32),
                rng.f32(0.0, h as f32),
                rng.f32(0.05, 0.3) * h.min(w) as f32,
                rng.next_u64() as u32,
            )
        })
        .collect();
    let mut img = vec![0u32; h * w];
    for i in 0..h {
        for j in 0..w {
            let mut p = if (j / 64 + i / 48) % 2 == 0 {
                0x0020_4060
            } else {
                0x0060_4020
            };
            for &(x, y, r, c) in &discs {
                let (dx, dy) = (j as f32 - x, i as f32 - y);
                if dx * dx + dy * dy < r * r {
                    p = c;
                }
            }
            let noise = (rng.next_u64() & 0x0f0f0f) as u32;
            img[i * w + j] = 0xff00_0000 | ((p & 0x00f0_f0f0) + noise);
        }
    }
    img
}

/// `out[i * w + j] = f(i, j, up, dn, jw, je)`, with the clamped neighbouring
/// rows' offsets and columns given, rows in parallel when `par`.
#[inline(always)]
fn sweep<T: Send + Copy>(
    out: &mut [T],
    h: usize,
    w: usize,
    par: bool,
    f: impl Fn(usize, usize, usize, usize) -> T + Sync,
) {
    // f(row offset of i, of i - 1, of i + 1, j); columns are clamped by the caller.
    let row = |i: usize, r: &mut [T]| {
        let (up, dn) = (i.saturating_sub(1) * w, (i + 1).min(h - 1) * w);
        for (j, o) in r.iter_mut().enumerate() {
            *o = f(i * w, up, dn, j);
        }
    };
    if par {
        out.par_chunks_mut(w).enumerate().for_each(|(i, r)| row(i, r));
    } else {
        out.chunks_mut(w).enumerate().for_each(|(i, r)| row(i, r));
    }
}

/// The edge classes and the strong edges' positions.
pub fn canny(img: &[u32], h: usize, w: usize, par: bool) -> (Vec<f32>, Vec<usize>) {
    let n = h * w;
    let cl = |j: isize| j.clamp(0, w as isize - 1) as usize;
    let mut grey = vec![0.0f32; n];
    sweep(&mut grey, h, w, par, |c, _, _, j| {
        let p = img[c + j];
        let (r, g, b) = (
            (p & 0xff) as f32,
            ((p >> 8) & 0xff) as f32,
            ((p >> 16) & 0xff) as f32,
        );
        (0.3 * r + 0.59 * g + 0.11 * b) / 255.0
    });
    let mut bx = vec![0.0f32; n];
    sweep(&mut bx, h, w, par, |c, _, _, j| {
        let j = j as isize;
        let at = |d: isize| grey[c + cl(j + d)];
        (at(-2) + 4.0 * at(-1) + 6.0 * at(0) + 4.0 * at(1) + at(2)) / 16.0
    });
    let mut blur = vec![0.0f32; n];
    sweep(&mut blur, h, w, par, |c, _, _, j| {
        let i = (c / w) as isize;
        let at = |d: isize| bx[(i + d).clamp(0, h as isize - 1) as usize * w + j];
        (at(-2) + 4.0 * at(-1) + 6.0 * at(0) + 4.0 * at(1) + at(2)) / 16.0
    });
    let mut grad = vec![(0.0f32, 0i32); n];
    sweep(&mut grad, h, w, par, |c, up, dn, j| {
        let (jw, je) = (j.saturating_sub(1), (j + 1).min(w - 1));
        let (nw, nn, ne) = (blur[up + jw], blur[up + j], blur[up + je]);
        let (ww, ee) = (blur[c + jw], blur[c + je]);
        let (sw, ss, se) = (blur[dn + jw], blur[dn + j], blur[dn + je]);
        let gx = (ne + 2.0 * ee + se) - (nw + 2.0 * ww + sw);
        let gy = (sw + 2.0 * ss + se) - (nw + 2.0 * nn + ne);
        let mag = (gx * gx + gy * gy).sqrt();
        let octant = (gy.atan2(gx) * (4.0 / std::f32::consts::PI)).round() as i32;
        (mag, (octant + 4) % 4)
    });
    let mut edges = vec![0.0f32; n];
    sweep(&mut edges, h, w, par, |c, up, dn, j| {
        let (jw, je) = (j.saturating_sub(1), (j + 1).min(w - 1));
        let (mag, dir) = grad[c + j];
        let (a, b) = match dir {
            0 => (grad[c + jw].0, grad[c + je].0),
            1 => (grad[up + jw].0, grad[dn + je].0),
            2 => (grad[up + j].0, grad[dn + j].0),
            _ => (grad[up + je].0, grad[dn + jw].0),
        };
        if mag < LOW || mag < a || mag < b {
            0.0
        } else if mag >= HIGH {
            1.0
        } else {
            0.5
        }
    });
    let strong: Vec<usize> = if par {
        edges
            .par_iter()
            .enumerate()
            .filter(|(_, &e)| e == 1.0)
            .map(|(i, _)| i)
            .collect()
    } else {
        edges
            .iter()
            .enumerate()
            .filter(|(_, &e)| e == 1.0)
            .map(|(i, _)| i)
            .collect()
    };
    (edges, strong)
}
