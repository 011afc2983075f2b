//! Mandelbrot without accel: the sequential reference and the rayon version a
//! Rust programmer would write (rows in parallel, the same scalar loop).

#![allow(dead_code)] // the examples and the benchmarks each use a part

use rayon::prelude::*;

/// The image parameters: `w x h` pixels over `[x0, x0 + w dx) x [y0, y0 + h dy)`.
#[derive(Clone, Copy)]
pub struct View {
    pub w: usize,
    pub h: usize,
    pub limit: u32,
    pub x0: f32,
    pub y0: f32,
    pub dx: f32,
    pub dy: f32,
}

impl View {
    /// The classic view of the whole set, `pixels` pixels at aspect 2:1... 3:2.
    pub fn new(pixels: usize, limit: u32) -> View {
        let h = ((pixels as f64 / 1.5).sqrt() as usize).max(1);
        let w = (pixels / h).max(1);
        View {
            w,
            h,
            limit,
            x0: -2.0,
            y0: -1.0,
            dx: 3.0 / w as f32,
            dy: 2.0 / h as f32,
        }
    }
}

#[inline]
fn escape(v: &View, i: usize, j: usize) -> u32 {
    let cr = v.x0 + j as f32 * v.dx;
    let ci = v.y0 + i as f32 * v.dy;
    let (mut zr, mut zi, mut k) = (0.0f32, 0.0f32, 0u32);
    while k < v.limit && zr * zr + zi * zi <= 4.0 {
        let t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        k += 1;
    }
    k
}

pub fn reference(v: &View) -> Vec<u32> {
    let mut out = Vec::with_capacity(v.w * v.h);
    for i in 0..v.h {
        for j in 0..v.w {
            out.push(escape(v, i, j));
        }
    }
    out
}

pub fn rayon(v: &View) -> Vec<u32> {
    let mut out = vec![0u32; v.w * v.h];
    out.par_chunks_mut(v.w).enumerate().for_each(|(i, row)| {
        for (j, o) in row.iter_mut().enumerate() {
            *o = escape(v, i, j);
        }
    });
    out
}
