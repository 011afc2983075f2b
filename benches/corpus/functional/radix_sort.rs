//! radix-sort: least-significant-bit-first radix sort of 32-bit keys, one
//! bit per step, each step a stable split: an exclusive scan of the
//! zero-bits gives each key its place, and a scatter moves it there.
//! futhark-benchmarks `misc/radix_sort/radix_sort_blelloch.fut` (Blelloch's
//! split radix sort). Keys made here by an LCG.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: per bit, `scanl_total` of the
/// zero flags (their places and their count) and a `scatter`.
#[acc]
fn radix_sort(xs: &Vector<u32>) -> Vector<u32> {
    let n = xs.len();
    let mut ys = xs.map(|x| x);
    for b in 0..32u32 {
        let bits = ys.map(|x| (x >> b) & 1);
        let (zeros_before, zeros) = bits.map(|f| 1 - f).scanl_total(0u32, |a, c| a + c);
        let nz = zeros.value();
        let idx = generate([n], |[i]| {
            if bits[[i]] == 0 {
                zeros_before[[i]] as usize
            } else {
                nz as usize + i - zeros_before[[i]] as usize
            }
        });
        ys = ys.scatter(&idx, &fill([n], 0u32));
    }
    ys
}

/// Tuned: the library's sort (a radix sort by bytes), not a bit at a time.
#[acc]
fn radix_sort_lib(xs: &Vector<u32>) -> Vector<u32> {
    xs.sort()
}

/// The same split, one bit at a time, with sequential loops.
fn sequential(xs: &[u32]) -> Vec<u32> {
    let mut ys = xs.to_vec();
    let mut out = vec![0u32; ys.len()];
    for b in 0..32 {
        let zeros = ys.iter().filter(|&&x| (x >> b) & 1 == 0).count();
        let (mut z, mut o) = (0, zeros);
        for &x in &ys {
            if (x >> b) & 1 == 0 {
                out[z] = x;
                z += 1;
            } else {
                out[o] = x;
                o += 1;
            }
        }
        std::mem::swap(&mut ys, &mut out);
    }
    ys
}

/// The same split with rayon: per chunk, count the zeros; offsets; each
/// chunk moves its keys to its own ranges.
fn rayon(xs: &[u32]) -> Vec<u32> {
    const CHUNK: usize = 1 << 16;
    let n = xs.len();
    let mut ys = xs.to_vec();
    let mut out = vec![0u32; n];
    for b in 0..32 {
        let zc: Vec<usize> = ys
            .par_chunks(CHUNK)
            .map(|c| c.iter().filter(|&&x| (x >> b) & 1 == 0).count())
            .collect();
        let zeros: usize = zc.iter().sum();
        let mut starts = Vec::with_capacity(zc.len());
        let (mut z, mut o) = (0usize, zeros);
        for (k, &c) in zc.iter().enumerate() {
            starts.push((z, o));
            z += c;
            o += CHUNK.min(n - k * CHUNK) - c;
        }
        let dst = out.as_mut_ptr() as usize;
        ys.par_chunks(CHUNK).zip(starts).for_each(|(c, (mut z, mut o))| {
            let dst = dst as *mut u32;
            for &x in c {
                // SAFETY: the chunks' ranges of `out` are disjoint.
                unsafe {
                    if (x >> b) & 1 == 0 {
                        *dst.add(z) = x;
                        z += 1;
                    } else {
                        *dst.add(o) = x;
                        o += 1;
                    }
                }
            }
        });
        std::mem::swap(&mut ys, &mut out);
    }
    ys
}

pub fn program(h: &mut Harness) {
    if !h.wants("radix-sort") {
        return;
    }
    let n = h.pick(1 << 20, 9);
    let mut s = 3u32;
    let xs: Vec<u32> = (0..n)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            s ^ (s >> 15)
        })
        .collect();
    let xa = Vector::from(xs.clone());
    let xb = xa.clone();
    let (backend, backend2) = (h.backend(), h.backend());
    h.program(Program {
        name: "radix-sort",
        source: "futhark-benchmarks misc/radix_sort/radix_sort_blelloch.fut",
        size: format!("{n} keys"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || radix_sort::on(&backend, &xa))),
            ("accel tuned", run(move || radix_sort_lib::on(&backend2, &xb))),
            ("sequential", run(|| Ok(sequential(&xs)))),
            ("rayon", run(|| Ok(rayon(&xs)))),
        ],
    });
}
