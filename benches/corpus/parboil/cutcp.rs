//! cutcp: the electrostatic potential on a 3-D lattice from point charges,
//! with a cutoff: every atom adds q/r · (1 - r²/c²)² to the lattice points
//! closer than c.
//! Parboil 2.5, `benchmarks/cutcp/src/base/cutoff.c`
//! (`cpu_compute_cutoff_potential_lattice`: per atom, the box of lattice
//! points around it, those inside the cutoff sphere accumulated). Parboil
//! orders the atoms by spatial bins first; the sum is the same. Atoms made
//! here by an LCG: 4000 charges in a 64³ lattice of spacing 0.5, cutoff 3.

use crate::harness::{run, Harness, Mode, Program};
use accel::prelude::*;
use rayon::prelude::*;

type Atom = (f32, f32, f32, f32);

/// As a user writes it from docs/language.md, the way Parboil states it (a
/// scatter from the atoms): each atom `expand`s into the lattice points of
/// its box, and those inside the cutoff are added into the lattice with
/// `permute` and `+`.
#[acc]
fn cutcp(
    atoms: &Vector<(f32, f32, f32, f32)>,
    nx: usize,
    ny: usize,
    nz: usize,
    h: f32,
    cutoff: f32,
) -> Array<f32, 3> {
    let a2 = cutoff * cutoff;
    let inv_a2 = 1.0 / a2;
    let radius = (cutoff / h).ceil() as i32 - 1;
    let boxes = atoms.map(|(x, y, z, q)| {
        let (ic, jc, kc) = ((x / h) as i32, (y / h) as i32, (z / h) as i32);
        let (ia, ib) = ((ic - radius).max(0), (ic + radius + 1).min(nx as i32 - 1));
        let (ja, jb) = ((jc - radius).max(0), (jc + radius + 1).min(ny as i32 - 1));
        let (ka, kb) = ((kc - radius).max(0), (kc + radius + 1).min(nz as i32 - 1));
        (
            (x, y, z, q),
            (ia, ja, ka),
            (ib - ia + 1, jb - ja + 1, kb - ka + 1),
        )
    });
    let pts = boxes.expand(
        |b| {
            let (w, hh, d) = b.2;
            if w > 0 && hh > 0 && d > 0 {
                (w * hh * d) as usize
            } else {
                0
            }
        },
        |b, t| {
            let ((x, y, z, q), (ia, ja, ka), (w, hh, _)) = b;
            let t = t as i32;
            let (i, j, k) = (ia + t % w, ja + (t / w) % hh, ka + t / (w * hh));
            let (dx, dy, dz) = (i as f32 * h - x, j as f32 * h - y, k as f32 * h - z);
            let r2 = dx * dx + dy * dy + dz * dz;
            let s = 1.0 - r2 * inv_a2;
            (
                ((k as usize) * ny + j as usize) * nx + i as usize,
                q * (1.0 / r2.sqrt()) * s * s,
                r2 < a2,
            )
        },
    );
    let lattice = pts.map(|p| p.1).permute(
        &fill([nz * ny * nx], 0.0f32),
        |[j]| if pts[[j]].2 { Some([pts[[j]].0]) } else { None },
        |new, old| new + old,
    );
    lattice.reshape([nz, ny, nx])
}

struct Grid {
    n: (usize, usize, usize),
    h: f32,
    cutoff: f32,
}

/// Parboil's box around an atom: (ia, ib, ja, jb, ka, kb), inclusive.
fn bounds(g: &Grid, (x, y, z, _): Atom) -> [i32; 6] {
    let radius = (g.cutoff / g.h).ceil() as i32 - 1;
    let (ic, jc, kc) = ((x / g.h) as i32, (y / g.h) as i32, (z / g.h) as i32);
    let (nx, ny, nz) = (g.n.0 as i32, g.n.1 as i32, g.n.2 as i32);
    [
        (ic - radius).max(0),
        (ic + radius + 1).min(nx - 1),
        (jc - radius).max(0),
        (jc + radius + 1).min(ny - 1),
        (kc - radius).max(0),
        (kc + radius + 1).min(nz - 1),
    ]
}

/// One atom's contributions to plane k of the lattice.
fn add_plane(g: &Grid, a: Atom, b: &[i32; 6], k: i32, plane: &mut [f32]) {
    let (x, y, z, q) = a;
    let a2 = g.cutoff * g.cutoff;
    let inv_a2 = 1.0 / a2;
    let nx = g.n.0;
    for j in b[2]..=b[3] {
        for i in b[0]..=b[1] {
            let (dx, dy, dz) = (i as f32 * g.h - x, j as f32 * g.h - y, k as f32 * g.h - z);
            let r2 = dx * dx + dy * dy + dz * dz;
            if r2 < a2 {
                let s = 1.0 - r2 * inv_a2;
                plane[j as usize * nx + i as usize] += q * (1.0 / r2.sqrt()) * s * s;
            }
        }
    }
}

/// Parboil's loop: atom by atom, over the box around it.
fn sequential(g: &Grid, atoms: &[Atom]) -> Vec<f32> {
    let (nx, ny, nz) = g.n;
    let mut lattice = vec![0.0f32; nx * ny * nz];
    for &a in atoms {
        let b = bounds(g, a);
        for k in b[4]..=b[5] {
            add_plane(
                g,
                a,
                &b,
                k,
                &mut lattice[k as usize * nx * ny..(k as usize + 1) * nx * ny],
            );
        }
    }
    lattice
}

/// The lattice's planes in parallel, each taking the atoms whose box reaches it.
fn rayon(g: &Grid, atoms: &[Atom]) -> Vec<f32> {
    let (nx, ny, nz) = g.n;
    let boxes: Vec<[i32; 6]> = atoms.par_iter().map(|&a| bounds(g, a)).collect();
    let mut lattice = vec![0.0f32; nx * ny * nz];
    lattice
        .par_chunks_mut(nx * ny)
        .enumerate()
        .for_each(|(k, plane)| {
            let k = k as i32;
            for (a, b) in atoms.iter().zip(&boxes) {
                if b[4] <= k && k <= b[5] {
                    add_plane(g, *a, b, k, plane);
                }
            }
        });
    lattice
}

pub fn program(h: &mut Harness) {
    if !h.wants("cutcp") {
        return;
    }
    let (nx, ny, nz) = (h.pick(64, 5), h.pick(64, 3), h.pick(64, 7));
    let natoms = h.pick(4000, 9);
    // The check's small lattice gets a cutoff of 1, so the boxes are cut by its edges.
    let (spacing, cutoff) = (0.5f32, if h.mode == Mode::Check { 1.0f32 } else { 3.0 });
    let mut s = 17u32;
    let mut rnd = |hi: f32| {
        s = s.wrapping_mul(1664525).wrapping_add(1013904223);
        hi * ((s >> 8) as f32 / (1u32 << 24) as f32)
    };
    let ext = |n: usize| (n - 1) as f32 * spacing;
    let atoms: Vec<Atom> = (0..natoms)
        .map(|_| (rnd(ext(nx)), rnd(ext(ny)), rnd(ext(nz)), rnd(2.0) - 1.0))
        .collect();
    let g = Grid {
        n: (nx, ny, nz),
        h: spacing,
        cutoff,
    };
    let aa = Vector::from(atoms.clone());
    let backend = h.backend();
    let (g, atoms) = (&g, &atoms);
    h.program(Program {
        name: "cutcp",
        source: "Parboil 2.5 cutcp (benchmarks/cutcp/src/base/cutoff.c)",
        size: format!("{nx}x{ny}x{nz}, {natoms} atoms"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || cutcp::on(&backend, &aa, nx, ny, nz, spacing, cutoff)),
            ),
            ("sequential", run(move || Ok(sequential(g, atoms)))),
            ("rayon", run(move || Ok(rayon(g, atoms)))),
        ],
    });
}
