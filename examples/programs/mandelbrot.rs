//! The Mandelbrot set in two forms, shared by the example and the benchmarks:
//!
//! * `mandelbrot_while`: the per-pixel iteration as a scalar `while` loop inside
//!   one `generate` (what a user would write first);
//! * `mandelbrot_unrolled`: the Accelerate paper's form, where each step of the
//!   iteration is a collective operation (`zip_with` over the whole image) and
//!   the array program applies it 8 times per trip of an array-level `for`
//!   loop; fusion turns the 8 steps into one kernel.
//!
//! Both return the iteration count of each pixel of an `h x w` image of the
//! rectangle `[x0, x0 + w * dx) x [y0, y0 + h * dy)`; they agree bit for bit
//! when `limit` is a multiple of 8.
//!
//! `mandelbrot_program!()` instantiates the programs; the benchmarks instantiate
//! them again under other compiler settings (no fusion, no sharing).

macro_rules! mandelbrot_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// One step of `z <- z^2 + c` on `(re, im, count)`; a point that has
            /// escaped (|z|^2 > 4) stays as it is.
            fn mandel_step(c: (f32, f32), z: (f32, f32, u32)) -> (f32, f32, u32) {
                let (zr, zi, k) = z;
                if zr * zr + zi * zi > 4.0 {
                    z
                } else {
                    (zr * zr - zi * zi + c.0, 2.0 * zr * zi + c.1, k + 1)
                }
            }

            pub fn mandelbrot_while(
                w: usize, h: usize, limit: u32, x0: f32, y0: f32, dx: f32, dy: f32,
            ) -> Matrix<u32> {
                generate([h, w], |[i, j]| {
                    let cr = x0 + j as f32 * dx;
                    let ci = y0 + i as f32 * dy;
                    let mut zr = 0.0f32;
                    let mut zi = 0.0f32;
                    let mut k: u32 = 0;
                    while k < limit && zr * zr + zi * zi <= 4.0 {
                        let t = zr * zr - zi * zi + cr;
                        zi = 2.0 * zr * zi + ci;
                        zr = t;
                        k += 1;
                    }
                    k
                })
            }

            pub fn mandelbrot_unrolled(
                w: usize, h: usize, limit: u32, x0: f32, y0: f32, dx: f32, dy: f32,
            ) -> Matrix<u32> {
                let cs = generate([h, w], |[i, j]| (x0 + j as f32 * dx, y0 + i as f32 * dy));
                let mut zs = cs.map(|_| (0.0f32, 0.0f32, 0u32));
                for _ in 0..limit / 8 {
                    zs = zs
                        .zip_with(&cs, |z, c| mandel_step(c, z))
                        .zip_with(&cs, |z, c| mandel_step(c, z))
                        .zip_with(&cs, |z, c| mandel_step(c, z))
                        .zip_with(&cs, |z, c| mandel_step(c, z))
                        .zip_with(&cs, |z, c| mandel_step(c, z))
                        .zip_with(&cs, |z, c| mandel_step(c, z))
                        .zip_with(&cs, |z, c| mandel_step(c, z))
                        .zip_with(&cs, |z, c| mandel_step(c, z));
                }
                zs.map(|(_, _, k)| k)
            }
        }
    };
}

mandelbrot_program!();
