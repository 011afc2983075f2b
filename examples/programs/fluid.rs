//! Fluid flow: one time step of Jos Stam's stable fluids (the Accelerate paper's
//! §5.6) on an `h x w` grid, shared by the example and the benchmarks. The
//! velocity is diffused, made divergence-free (projected), advected along
//! itself and projected again; the density is diffused and advected along the
//! velocity. Diffusion and the pressure solve are Jacobi relaxations (stencils
//! in array-level `for` loops); advection is a semi-Lagrangian back-trace with
//! bilinear interpolation (a `generate` reading the field by index).
//!
//! Simplification, said plainly: the boundary is `Boundary::Clamp` everywhere
//! (zero-gradient), not Stam's reflecting walls, and grid spacing is 1.
//!
//! `fluid_program!()` instantiates the program; the benchmarks instantiate it
//! again under other compiler settings (no fusion, no sharing).

macro_rules! fluid_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// `iters` Jacobi steps of `x - a * laplace(x) = x0`.
            fn diffuse(x0: &Matrix<f32>, a: f32, iters: usize) -> Matrix<f32> {
                let mut x = x0.map(|c| c);
                for _ in 0..iters {
                    x = x.stencil2(Boundary::Clamp, x0, Boundary::Clamp,
                        |[[_, n, _], [w, _, e], [_, s, _]], [[c0]]| (c0 + a * (n + s + w + e)) / (1.0 + 4.0 * a));
                }
                x
            }

            /// `d0` carried along `(u, v)` for `dt` (in cells), bilinear interpolation.
            fn advect(d0: &Matrix<f32>, u: &Matrix<f32>, v: &Matrix<f32>, dt: f32) -> Matrix<f32> {
                let [h, w] = d0.shape();
                generate([h, w], |[i, j]| {
                    let x = (j as f32 - dt * u[[i, j]]).clamp(0.0, (w - 1) as f32);
                    let y = (i as f32 - dt * v[[i, j]]).clamp(0.0, (h - 1) as f32);
                    let j0 = x.floor() as usize;
                    let i0 = y.floor() as usize;
                    let j1 = (j0 + 1).min(w - 1);
                    let i1 = (i0 + 1).min(h - 1);
                    let s1 = x - j0 as f32;
                    let t1 = y - i0 as f32;
                    let s0 = 1.0 - s1;
                    let t0 = 1.0 - t1;
                    s0 * (t0 * d0[[i0, j0]] + t1 * d0[[i1, j0]]) + s1 * (t0 * d0[[i0, j1]] + t1 * d0[[i1, j1]])
                })
            }

            /// `(u, v)` minus the gradient of the pressure that makes it divergence-free.
            fn project(u: &Matrix<f32>, v: &Matrix<f32>, iters: usize) -> (Matrix<f32>, Matrix<f32>) {
                let div = u.stencil2(Boundary::Clamp, v, Boundary::Clamp,
                    |[[uw, _, ue]], [[vn], [_], [vs]]| -0.5 * (ue - uw + vs - vn));
                let mut p = div.map(|_| 0.0f32);
                for _ in 0..iters {
                    p = p.stencil2(Boundary::Clamp, &div, Boundary::Clamp,
                        |[[_, n, _], [w, _, e], [_, s, _]], [[d]]| (d + n + s + w + e) * 0.25);
                }
                let u2 = u.stencil2(Boundary::Clamp, &p, Boundary::Clamp, |[[c]], [[pw, _, pe]]| c - 0.5 * (pe - pw));
                let v2 = v.stencil2(Boundary::Clamp, &p, Boundary::Clamp, |[[c]], [[pn], [_], [ps]]| c - 0.5 * (ps - pn));
                (u2, v2)
            }

            /// One time step: the new density and velocity.
            pub fn fluid_step(
                dens: &Matrix<f32>,
                u: &Matrix<f32>,
                v: &Matrix<f32>,
                dt: f32,
                visc: f32,
                diff: f32,
                iters: usize,
            ) -> (Matrix<f32>, Matrix<f32>, Matrix<f32>) {
                let u1 = diffuse(u, visc * dt, iters);
                let v1 = diffuse(v, visc * dt, iters);
                let (u2, v2) = project(&u1, &v1, iters);
                let u3 = advect(&u2, &u2, &v2, dt);
                let v3 = advect(&v2, &u2, &v2, dt);
                let (u4, v4) = project(&u3, &v3, iters);
                let d1 = diffuse(dens, diff * dt, iters);
                let d2 = advect(&d1, &u4, &v4, dt);
                (d2, u4, v4)
            }
        }
    };
}

fluid_program!();
