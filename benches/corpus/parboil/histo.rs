//! histo: a saturating histogram (8-bit bins that stop at 255).
//! Parboil 2.5, `benchmarks/histo/src/base/main.c`. Default data set: a
//! 996 x 1040 image of bin indices into a 4096 x 256 histogram; the image is
//! made here by an LCG, half of it crowded into a few bins so they saturate.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: count with `permute` and `+`,
/// then saturate the counts to 8 bits.
#[acc]
fn histo(img: &Vector<u32>, bins: usize) -> Vector<u8> {
    let counts = img.map(|_| 1u32).permute(
        &fill([bins], 0u32),
        |[i]| Some([img[[i]] as usize]),
        |new, old| new + old,
    );
    counts.map(|c| c.min(255) as u8)
}

/// Parboil's base loop: increment unless the bin is already at 255.
fn sequential(img: &[u32], bins: usize) -> Vec<u8> {
    let mut histo = vec![0u8; bins];
    for &v in img {
        let h = &mut histo[v as usize];
        if *h < u8::MAX {
            *h += 1;
        }
    }
    histo
}

/// Per-thread counts over one chunk of the image each, summed, then saturated.
fn rayon(img: &[u32], bins: usize) -> Vec<u8> {
    let chunk = img.len().div_ceil(rayon::current_num_threads()).max(1);
    let counts = img
        .par_chunks(chunk)
        .fold(
            || vec![0u32; bins],
            |mut c, chunk| {
                chunk.iter().for_each(|&v| c[v as usize] += 1);
                c
            },
        )
        .reduce(
            || vec![0u32; bins],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        );
    counts.par_iter().map(|&c| c.min(255) as u8).collect()
}

pub fn program(h: &mut Harness) {
    if !h.wants("histo") {
        return;
    }
    let (w, hgt) = (h.pick(996, 7), h.pick(1040, 5));
    let bins = h.pick(4096 * 256, 9);
    let hot = (bins / 1024).max(1);
    let mut s = 12345u64;
    let img: Vec<u32> = (0..w * hgt)
        .map(|p| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (s >> 33) as usize;
            // Half the pixels fall into `hot` bins in the middle (saturated), the rest anywhere.
            let v = if p % 2 == 0 {
                bins / 2 + r % hot - hot / 2
            } else {
                r % bins
            };
            v as u32
        })
        .collect();
    let ia = Vector::from(img.clone());
    let backend = h.backend();
    h.program(Program {
        name: "histo",
        source: "Parboil 2.5 histo (benchmarks/histo/src/base/main.c)",
        size: format!("{w}x{hgt}, {bins} bins"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || histo::on(&backend, &ia, bins))),
            ("sequential", run(|| Ok(sequential(&img, bins)))),
            ("rayon", run(|| Ok(rayon(&img, bins)))),
        ],
    });
}
