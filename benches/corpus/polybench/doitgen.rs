//! doitgen: the multiresolution analysis kernel, A[r][q][:] := A[r][q][:]·C4.
//! PolyBench/C 4.2.1, `linear-algebra/kernels/doitgen/doitgen.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: NR = 50, NQ = 40, NP = 60
//! (at LARGE the sequential loops take 0.6 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// The products over a 4-d index space (r, q, p, s), summed over s.
#[acc]
fn doitgen(a: &Array<f32, 3>, c4: &Matrix<f32>) -> Array<f32, 3> {
    let [nr, nq, np] = a.shape();
    generate([nr, nq, np, np], |[r, q, p, s]| a[[r, q, s]] * c4[[s, p]]).sum()
}

fn sequential(a: &[f32], c4: &[f32], (nr, nq, np): (usize, usize, usize)) -> Vec<f32> {
    let mut a = a.to_vec();
    let mut sum = vec![0.0f32; np];
    for r in 0..nr {
        for q in 0..nq {
            let row = (r * nq + q) * np;
            for p in 0..np {
                sum[p] = 0.0;
                for s in 0..np {
                    sum[p] += a[row + s] * c4[s * np + p];
                }
            }
            a[row..row + np].copy_from_slice(&sum);
        }
    }
    a
}

fn rayon(a: &[f32], c4: &[f32], (_, _, np): (usize, usize, usize)) -> Vec<f32> {
    let mut out = vec![0.0f32; a.len()];
    out.par_chunks_mut(np).zip(a.par_chunks(np)).for_each(|(o, x)| {
        for (s, xs) in x.iter().enumerate() {
            for (o, c) in o.iter_mut().zip(&c4[s * np..(s + 1) * np]) {
                *o += xs * c;
            }
        }
    });
    out
}

pub fn program(h: &mut Harness) {
    if !h.wants("doitgen") {
        return;
    }
    let (nr, nq, np) = (h.pick(50, 5), h.pick(40, 3), h.pick(60, 7));
    // PolyBench's init_array.
    let a: Vec<f32> = (0..nr * nq * np)
        .map(|x| {
            let (i, j, k) = (x / (nq * np), x / np % nq, x % np);
            ((i * j + k) % np) as f32 / np as f32
        })
        .collect();
    let c4: Vec<f32> = (0..np * np)
        .map(|x| ((x / np) * (x % np) % np) as f32 / np as f32)
        .collect();
    let aa = Array::from_vec([nr, nq, np], a.clone()).expect("shape");
    let ca = Matrix::from_vec([np, np], c4.clone()).expect("shape");
    let dims = (nr, nq, np);
    let backend = h.backend();
    h.python(
        Py::new("doitgen")
            .array("a", &[nr, nq, np], &a)
            .array("c4", &[np, np], &c4),
    );
    h.program(Program {
        name: "doitgen",
        source: "PolyBench/C 4.2.1 linear-algebra/kernels/doitgen/doitgen.c",
        size: format!("{nr}x{nq}x{np}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || doitgen::on(&backend, &aa, &ca))),
            ("sequential", run(|| Ok(sequential(&a, &c4, dims)))),
            ("rayon", run(|| Ok(rayon(&a, &c4, dims)))),
        ],
    });
}
