//! All-pairs n-body: one leapfrog-style step (velocities from the forces, then
//! positions from the new velocities), shared by the example and the benchmarks.
//!
//! The accelerations are a `generate` of the n x n delayed array of pair
//! accelerations, folded along its innermost dimension: fusion puts the pair
//! function inside the fold, so no n x n array is ever stored.
//!
//! `nbody_program!()` instantiates the program; the benchmarks instantiate it
//! again under other compiler settings (no fusion, no sharing).

macro_rules! nbody_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// The acceleration of a body at `pi` due to a body of mass `mj` at `pj`,
            /// softened by `eps2` (so a body exerts no force on itself).
            fn pair_accel(pi: (f32, f32, f32), pj: (f32, f32, f32), mj: f32, eps2: f32) -> (f32, f32, f32) {
                let dx = pj.0 - pi.0;
                let dy = pj.1 - pi.1;
                let dz = pj.2 - pi.2;
                let d2 = dx * dx + dy * dy + dz * dz + eps2;
                let inv = 1.0 / d2.sqrt();
                let s = mj * inv * inv * inv;
                (dx * s, dy * s, dz * s)
            }

            /// Positions and velocities after one step of length `dt`.
            pub fn nbody_step(
                pos: &Vector<(f32, f32, f32)>,
                vel: &Vector<(f32, f32, f32)>,
                mass: &Vector<f32>,
                dt: f32,
                eps2: f32,
            ) -> (Vector<(f32, f32, f32)>, Vector<(f32, f32, f32)>) {
                let n = pos.len();
                let acc = generate([n, n], |[i, j]| pair_accel(pos[[i]], pos[[j]], mass[[j]], eps2))
                    .fold((0.0, 0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
                let vel2 = vel.zip_with(&acc, |v, a| (v.0 + a.0 * dt, v.1 + a.1 * dt, v.2 + a.2 * dt));
                let pos2 = pos.zip_with(&vel2, |p, v| (p.0 + v.0 * dt, p.1 + v.1 * dt, p.2 + v.2 * dt));
                (pos2, vel2)
            }
        }
    };
}

nbody_program!();
