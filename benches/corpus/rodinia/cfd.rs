//! cfd: an unstructured-grid finite-volume solver for the 3-d Euler equations
//! (Rodinia's euler3d): per iteration the step factors, then three Runge-Kutta
//! stages of fluxes over each element's four neighbours (a neighbour index of -1
//! is a wing boundary, -2 the far field) and a time step.
//! Rodinia 3.1, `openmp/cfd/euler3d_cpu.cpp` (github.com/yuhc/gpu-rodinia).
//! The suite reads fvcorr.domn.097K (97046 elements) and runs 2000 iterations;
//! here a generated mesh of 97046 elements (a 64-wide band, neighbours left,
//! right, up and down, boundaries at the band's edges; small random normals and
//! areas; the far-field state perturbed per element), 2 iterations.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

type State = (f32, f32, f32, f32, f32);
type F3 = (f32, f32, f32);

const GAMMA: f32 = 1.4;
const RK: usize = 3;

accel! {
    fn pressure(density: f32, density_energy: f32, speed_sqd: f32) -> f32 {
        (1.4 - 1.0) * (density_energy - 0.5 * density * speed_sqd)
    }

    fn speed_of_sound(density: f32, pressure: f32) -> f32 {
        (1.4 * pressure / density).sqrt()
    }

    /// compute_flux_contribution: the momentum fluxes in x, y, z and the energy flux.
    fn flux_contribution(mx: f32, my: f32, mz: f32, density_energy: f32, pressure: f32, vx: f32, vy: f32, vz: f32) -> ((f32, f32, f32), (f32, f32, f32), (f32, f32, f32), (f32, f32, f32)) {
        let fxx = vx * mx + pressure;
        let fxy = vx * my;
        let fxz = vx * mz;
        let fyy = vy * my + pressure;
        let fyz = vy * mz;
        let fzz = vz * mz + pressure;
        let de_p = density_energy + pressure;
        ((fxx, fxy, fxz), (fxy, fyy, fyz), (fxz, fyz, fzz), (vx * de_p, vy * de_p, vz * de_p))
    }

    /// As a user writes it from docs/language.md: the variables as a vector of
    /// 5-tuples (stored as the original's structure of arrays), the iterations and
    /// the Runge-Kutta stages as `for` loops, the step factors and the fluxes as
    /// `generate`s reading the neighbours by index, the original's boundary cases
    /// as an `if` chain inside a scalar `for` over the four neighbours.
    pub fn cfd(iterations: usize, ff: (f32, f32, f32, f32, f32), areas: &Vector<f32>, ess: &Matrix<i32>, normals: &Array<f32, 3>, v0: &Vector<(f32, f32, f32, f32, f32)>) -> (Vector<f32>, Vector<f32>, Vector<f32>, Vector<f32>, Vector<f32>) {
        let nelr = v0.len();
        let (ffd, ffmx, ffmy, ffmz, ffde) = ff;
        let mut v = v0.map(|x| x);
        for _ in 0..iterations {
            let old = v.map(|x| x);
            let step_factors = generate([nelr], |[i]| {
                let (d, mx, my, mz, de) = v[[i]];
                let (vx, vy, vz) = (mx / d, my / d, mz / d);
                let speed_sqd = vx * vx + vy * vy + vz * vz;
                let p = pressure(d, de, speed_sqd);
                let c = speed_of_sound(d, p);
                0.5 / (areas[[i]].sqrt() * (speed_sqd.sqrt() + c))
            });
            for j in 0..3 {
                let fluxes = generate([nelr], |[i]| {
                    let (d_i, mx_i, my_i, mz_i, de_i) = v[[i]];
                    let (vx_i, vy_i, vz_i) = (mx_i / d_i, my_i / d_i, mz_i / d_i);
                    let speed_sqd_i = vx_i * vx_i + vy_i * vy_i + vz_i * vz_i;
                    let speed_i = speed_sqd_i.sqrt();
                    let p_i = pressure(d_i, de_i, speed_sqd_i);
                    let c_i = speed_of_sound(d_i, p_i);
                    let ((fxx_i, fxy_i, fxz_i), (fyx_i, fyy_i, fyz_i), (fzx_i, fzy_i, fzz_i), (fex_i, fey_i, fez_i)) =
                        flux_contribution(mx_i, my_i, mz_i, de_i, p_i, vx_i, vy_i, vz_i);
                    let mut flux_d = 0.0f32;
                    let mut flux_mx = 0.0f32;
                    let mut flux_my = 0.0f32;
                    let mut flux_mz = 0.0f32;
                    let mut flux_de = 0.0f32;
                    for k in 0usize..4 {
                        let nb = ess[[k, i]];
                        let (nx, ny, nz) = (normals[[0, k, i]], normals[[1, k, i]], normals[[2, k, i]]);
                        let normal_len = (nx * nx + ny * ny + nz * nz).sqrt();
                        if nb >= 0 {
                            let (d_nb, mx_nb, my_nb, mz_nb, de_nb) = v[[nb as usize]];
                            let (vx_nb, vy_nb, vz_nb) = (mx_nb / d_nb, my_nb / d_nb, mz_nb / d_nb);
                            let speed_sqd_nb = vx_nb * vx_nb + vy_nb * vy_nb + vz_nb * vz_nb;
                            let p_nb = pressure(d_nb, de_nb, speed_sqd_nb);
                            let c_nb = speed_of_sound(d_nb, p_nb);
                            let ((fxx_nb, fxy_nb, fxz_nb), (fyx_nb, fyy_nb, fyz_nb), (fzx_nb, fzy_nb, fzz_nb), (fex_nb, fey_nb, fez_nb)) =
                                flux_contribution(mx_nb, my_nb, mz_nb, de_nb, p_nb, vx_nb, vy_nb, vz_nb);
                            // artificial viscosity
                            let mut factor = -normal_len * 0.2 * 0.5 * (speed_i + speed_sqd_nb.sqrt() + c_i + c_nb);
                            flux_d += factor * (d_i - d_nb);
                            flux_de += factor * (de_i - de_nb);
                            flux_mx += factor * (mx_i - mx_nb);
                            flux_my += factor * (my_i - my_nb);
                            flux_mz += factor * (mz_i - mz_nb);
                            // accumulate cell-centred fluxes
                            factor = 0.5 * nx;
                            flux_d += factor * (mx_nb + mx_i);
                            flux_de += factor * (fex_nb + fex_i);
                            flux_mx += factor * (fxx_nb + fxx_i);
                            flux_my += factor * (fyx_nb + fyx_i);
                            flux_mz += factor * (fzx_nb + fzx_i);
                            factor = 0.5 * ny;
                            flux_d += factor * (my_nb + my_i);
                            flux_de += factor * (fey_nb + fey_i);
                            flux_mx += factor * (fxy_nb + fxy_i);
                            flux_my += factor * (fyy_nb + fyy_i);
                            flux_mz += factor * (fzy_nb + fzy_i);
                            factor = 0.5 * nz;
                            flux_d += factor * (mz_nb + mz_i);
                            flux_de += factor * (fez_nb + fez_i);
                            flux_mx += factor * (fxz_nb + fxz_i);
                            flux_my += factor * (fyz_nb + fyz_i);
                            flux_mz += factor * (fzz_nb + fzz_i);
                        } else if nb == -1 {
                            flux_mx += nx * p_i;
                            flux_my += ny * p_i;
                            flux_mz += nz * p_i;
                        } else if nb == -2 {
                            let ff_speed_sqd = (ffmx * ffmx + ffmy * ffmy + ffmz * ffmz) / (ffd * ffd);
                            let ff_p = pressure(ffd, ffde, ff_speed_sqd);
                            let ((fxx_ff, fxy_ff, fxz_ff), (fyx_ff, fyy_ff, fyz_ff), (fzx_ff, fzy_ff, fzz_ff), (fex_ff, fey_ff, fez_ff)) =
                                flux_contribution(ffmx, ffmy, ffmz, ffde, ff_p, ffmx / ffd, ffmy / ffd, ffmz / ffd);
                            let mut factor = 0.5 * nx;
                            flux_d += factor * (ffmx + mx_i);
                            flux_de += factor * (fex_ff + fex_i);
                            flux_mx += factor * (fxx_ff + fxx_i);
                            flux_my += factor * (fyx_ff + fyx_i);
                            flux_mz += factor * (fzx_ff + fzx_i);
                            factor = 0.5 * ny;
                            flux_d += factor * (ffmy + my_i);
                            flux_de += factor * (fey_ff + fey_i);
                            flux_mx += factor * (fxy_ff + fxy_i);
                            flux_my += factor * (fyy_ff + fyy_i);
                            flux_mz += factor * (fzy_ff + fzy_i);
                            factor = 0.5 * nz;
                            flux_d += factor * (ffmz + mz_i);
                            flux_de += factor * (fez_ff + fez_i);
                            flux_mx += factor * (fxz_ff + fxz_i);
                            flux_my += factor * (fyz_ff + fyz_i);
                            flux_mz += factor * (fzz_ff + fzz_i);
                        }
                    }
                    (flux_d, flux_mx, flux_my, flux_mz, flux_de)
                });
                v = generate([nelr], |[i]| {
                    let factor = step_factors[[i]] / (3 + 1 - j) as f32;
                    let (d, mx, my, mz, de) = old[[i]];
                    let (fd, fmx, fmy, fmz, fde) = fluxes[[i]];
                    (d + factor * fd, mx + factor * fmx, my + factor * fmy, mz + factor * fmz, de + factor * fde)
                });
            }
        }
        v.unzip()
    }
}

// The sequential and rayon versions, on the original's structure of arrays.

fn pressure_of(d: f32, de: f32, speed_sqd: f32) -> f32 {
    (GAMMA - 1.0) * (de - 0.5 * d * speed_sqd)
}

fn sound(d: f32, p: f32) -> f32 {
    (GAMMA * p / d).sqrt()
}

/// (momentum x, y, z fluxes, energy flux), each a 3-vector.
fn contribution(m: F3, de: f32, p: f32, v: F3) -> [F3; 4] {
    let fx = (v.0 * m.0 + p, v.0 * m.1, v.0 * m.2);
    let fy = (fx.1, v.1 * m.1 + p, v.1 * m.2);
    let fz = (fx.2, fy.2, v.2 * m.2 + p);
    let de_p = de + p;
    [fx, fy, fz, (v.0 * de_p, v.1 * de_p, v.2 * de_p)]
}

struct Mesh {
    nelr: usize,
    areas: Vec<f32>,
    /// `ess[i + k * nelr]`
    ess: Vec<i32>,
    /// `normals[i + (k + d * 4) * nelr]`
    normals: Vec<f32>,
}

/// `variables[i + var * nelr]`.
fn get(v: &[f32], nelr: usize, i: usize) -> State {
    (
        v[i],
        v[i + nelr],
        v[i + 2 * nelr],
        v[i + 3 * nelr],
        v[i + 4 * nelr],
    )
}

fn step_factor(v: &[f32], mesh: &Mesh, i: usize) -> f32 {
    let (d, mx, my, mz, de) = get(v, mesh.nelr, i);
    let vel = (mx / d, my / d, mz / d);
    let speed_sqd = vel.0 * vel.0 + vel.1 * vel.1 + vel.2 * vel.2;
    let p = pressure_of(d, de, speed_sqd);
    let c = sound(d, p);
    0.5 / (mesh.areas[i].sqrt() * (speed_sqd.sqrt() + c))
}

/// compute_flux for element `i`.
fn flux(v: &[f32], mesh: &Mesh, ff: State, i: usize) -> State {
    let nelr = mesh.nelr;
    let (d_i, mx_i, my_i, mz_i, de_i) = get(v, nelr, i);
    let m_i = (mx_i, my_i, mz_i);
    let vel_i = (mx_i / d_i, my_i / d_i, mz_i / d_i);
    let speed_sqd_i = vel_i.0 * vel_i.0 + vel_i.1 * vel_i.1 + vel_i.2 * vel_i.2;
    let speed_i = speed_sqd_i.sqrt();
    let p_i = pressure_of(d_i, de_i, speed_sqd_i);
    let c_i = sound(d_i, p_i);
    let fc_i = contribution(m_i, de_i, p_i, vel_i);
    let (mut fd, mut fm, mut fde) = (0.0f32, [0.0f32; 3], 0.0f32);
    // The cell-centred part: `m` the other momentum, `fc` the other contributions.
    let centred = |fd: &mut f32, fm: &mut [f32; 3], fde: &mut f32, n: [f32; 3], m: F3, fc: &[F3; 4]| {
        let mv = [m.0, m.1, m.2];
        let mi = [m_i.0, m_i.1, m_i.2];
        let pick = |t: F3, d: usize| [t.0, t.1, t.2][d];
        for d in 0..3 {
            let factor = 0.5 * n[d];
            *fd += factor * (mv[d] + mi[d]);
            *fde += factor * (pick(fc[3], d) + pick(fc_i[3], d));
            fm[0] += factor * (pick(fc[0], d) + pick(fc_i[0], d));
            fm[1] += factor * (pick(fc[1], d) + pick(fc_i[1], d));
            fm[2] += factor * (pick(fc[2], d) + pick(fc_i[2], d));
        }
    };
    for k in 0usize..4 {
        let nb = mesh.ess[i + k * nelr];
        let n = [0, 1, 2].map(|d| mesh.normals[i + (k + d * 4) * nelr]);
        let normal_len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        if nb >= 0 {
            let (d_nb, mx_nb, my_nb, mz_nb, de_nb) = get(v, nelr, nb as usize);
            let m_nb = (mx_nb, my_nb, mz_nb);
            let vel_nb = (mx_nb / d_nb, my_nb / d_nb, mz_nb / d_nb);
            let speed_sqd_nb = vel_nb.0 * vel_nb.0 + vel_nb.1 * vel_nb.1 + vel_nb.2 * vel_nb.2;
            let p_nb = pressure_of(d_nb, de_nb, speed_sqd_nb);
            let c_nb = sound(d_nb, p_nb);
            let fc_nb = contribution(m_nb, de_nb, p_nb, vel_nb);
            let factor = -normal_len * 0.2 * 0.5 * (speed_i + speed_sqd_nb.sqrt() + c_i + c_nb);
            fd += factor * (d_i - d_nb);
            fde += factor * (de_i - de_nb);
            fm[0] += factor * (mx_i - mx_nb);
            fm[1] += factor * (my_i - my_nb);
            fm[2] += factor * (mz_i - mz_nb);
            centred(&mut fd, &mut fm, &mut fde, n, m_nb, &fc_nb);
        } else if nb == -1 {
            fm[0] += n[0] * p_i;
            fm[1] += n[1] * p_i;
            fm[2] += n[2] * p_i;
        } else if nb == -2 {
            let (ffd, ffmx, ffmy, ffmz, ffde) = ff;
            let ff_speed_sqd = (ffmx * ffmx + ffmy * ffmy + ffmz * ffmz) / (ffd * ffd);
            let ff_p = pressure_of(ffd, ffde, ff_speed_sqd);
            let fc_ff = contribution(
                (ffmx, ffmy, ffmz),
                ffde,
                ff_p,
                (ffmx / ffd, ffmy / ffd, ffmz / ffd),
            );
            centred(&mut fd, &mut fm, &mut fde, n, (ffmx, ffmy, ffmz), &fc_ff);
        }
    }
    (fd, fm[0], fm[1], fm[2], fde)
}

fn sequential(iterations: usize, ff: State, mesh: &Mesh, v0: &[f32]) -> Vec<f32> {
    let nelr = mesh.nelr;
    let mut v = v0.to_vec();
    let mut fluxes = vec![(0.0f32, 0.0, 0.0, 0.0, 0.0); nelr];
    let mut sf = vec![0.0f32; nelr];
    for _ in 0..iterations {
        let old = v.clone();
        for i in 0..nelr {
            sf[i] = step_factor(&v, mesh, i);
        }
        for j in 0..RK {
            for i in 0..nelr {
                fluxes[i] = flux(&v, mesh, ff, i);
            }
            for i in 0..nelr {
                let factor = sf[i] / (RK + 1 - j) as f32;
                let f = fluxes[i];
                for (var, fv) in [f.0, f.1, f.2, f.3, f.4].into_iter().enumerate() {
                    v[i + var * nelr] = old[i + var * nelr] + factor * fv;
                }
            }
        }
    }
    v
}

fn rayon(iterations: usize, ff: State, mesh: &Mesh, v0: &[f32]) -> Vec<f32> {
    let nelr = mesh.nelr;
    let mut v = v0.to_vec();
    for _ in 0..iterations {
        let old = v.clone();
        let sf: Vec<f32> = (0..nelr)
            .into_par_iter()
            .map(|i| step_factor(&v, mesh, i))
            .collect();
        for j in 0..RK {
            let fluxes: Vec<State> = (0..nelr).into_par_iter().map(|i| flux(&v, mesh, ff, i)).collect();
            v.par_chunks_mut(nelr).enumerate().for_each(|(var, out)| {
                for (i, x) in out.iter_mut().enumerate() {
                    let f = fluxes[i];
                    let fv = [f.0, f.1, f.2, f.3, f.4][var];
                    *x = old[i + var * nelr] + sf[i] / (RK + 1 - j) as f32 * fv;
                }
            });
        }
    }
    v
}

pub fn program(h: &mut Harness) {
    if !h.wants("cfd") {
        return;
    }
    let (nelr, iterations) = (h.pick(97_046, 13), h.pick(2, 1));
    let width = 64usize.min(nelr);
    // The far field of euler3d_cpu.cpp's main (angle of attack 0).
    let ff_d = 1.4f32;
    let ff_pressure = 1.0f32;
    let ff_speed = 1.2 * (GAMMA * ff_pressure / ff_d).sqrt();
    let ff: State = (
        ff_d,
        ff_d * ff_speed,
        0.0,
        0.0,
        ff_d * (0.5 * (ff_speed * ff_speed)) + ff_pressure / (GAMMA - 1.0),
    );
    let mut seed = 5u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let areas: Vec<f32> = (0..nelr).map(|_| 1e-3 * (0.5 + next())).collect();
    let mut ess = vec![0i32; 4 * nelr];
    for i in 0..nelr {
        let (c, r) = (i % width, i / width);
        ess[i] = if c == 0 { -1 } else { i as i32 - 1 };
        ess[i + nelr] = if c + 1 == width || i + 1 == nelr {
            -2
        } else {
            i as i32 + 1
        };
        ess[i + 2 * nelr] = if r == 0 { -2 } else { (i - width) as i32 };
        ess[i + 3 * nelr] = if i + width >= nelr { -1 } else { (i + width) as i32 };
    }
    let normals: Vec<f32> = (0..12 * nelr).map(|_| 2e-3 * (next() - 0.5)).collect();
    let mut v0 = vec![0.0f32; 5 * nelr];
    for i in 0..nelr {
        let s = 1.0 + 0.1 * (next() - 0.5);
        let st = [
            ff.0 * s,
            ff.1 * s,
            ff.1 * 0.05 * (next() - 0.5),
            ff.1 * 0.05 * (next() - 0.5),
            ff.4 * s,
        ];
        for var in 0..5 {
            v0[i + var * nelr] = st[var];
        }
    }
    let mesh = Mesh {
        nelr,
        areas,
        ess,
        normals,
    };
    let area_v = Vector::from(mesh.areas.clone());
    let ess_m = Matrix::from_vec([4, nelr], mesh.ess.clone()).expect("shape");
    let normals_a = Array::<f32, 3>::from_vec([3, 4, nelr], mesh.normals.clone()).expect("shape");
    let v0_a: Vector<State> = (0..nelr).map(|i| get(&v0, nelr, i)).collect();
    let backend = h.backend();
    h.program(Program {
        name: "cfd",
        source: "Rodinia 3.1 openmp/cfd/euler3d_cpu.cpp",
        size: format!("{nelr} elements, {iterations} iterations"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || {
                    cfd::on(&backend, iterations, ff, &area_v, &ess_m, &normals_a, &v0_a)
                        .map(|(d, mx, my, mz, de)| ((d, mx, my, mz), de))
                }),
            ),
            ("sequential", run(|| Ok(sequential(iterations, ff, &mesh, &v0)))),
            ("rayon", run(|| Ok(rayon(iterations, ff, &mesh, &v0)))),
        ],
    });
}
