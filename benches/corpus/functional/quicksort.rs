//! quicksort: flat data-parallel quicksort. Every step partitions all the
//! unfinished segments at once around their middle elements (less, equal,
//! greater), the places within each segment coming from prefix sums, and
//! scatters the keys and their new segments there; segments of one key, and
//! the equal parts, are finished.
//! futhark-benchmarks `lib/github.com/diku-dk/sorts/quick_sort.fut` (as
//! vendored in `accelerate/pagerank/`), after Blelloch's segmented quicksort.
//! Keys made here by an LCG, with repeats.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the state is the keys and,
/// per key, its segment (start, end) and whether the segment is still to be
/// sorted. One inclusive prefix sum of the (less, equal) flags serves every
/// segment: counts within a segment are differences of it.
#[acc]
fn quicksort(xs: &Vector<u32>) -> Vector<u32> {
    let n = xs.len();
    let mut ys = xs.map(|x| x);
    let mut st = fill([n], 0usize);
    let mut en = fill([n], n);
    let mut act = fill([n], n > 1);
    while act.any(|a| a).value() {
        let cls = generate([n], |[i]| {
            let (s, e) = (st[[i]], en[[i]]);
            let p = ys[[s + (e - s) / 2]];
            let x = ys[[i]];
            if !act[[i]] {
                3u8
            } else if x < p {
                0u8
            } else if x == p {
                1u8
            } else {
                2u8
            }
        });
        let cnt = cls
            .map(|c| ((c == 0) as usize, (c == 1) as usize))
            .scanl((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let moved = generate([n], |[i]| {
            let (s, e, c) = (st[[i]], en[[i]], cls[[i]]);
            if c == 3 {
                (i, s, e, false)
            } else {
                let (ls, es) = cnt[[s]];
                let (le, ee) = cnt[[e]];
                let (li, ei) = cnt[[i]];
                let (l, q) = (le - ls, ee - es);
                let (bl, be) = (li - ls, ei - es);
                let bg = (i - s) - bl - be;
                if c == 0 {
                    (s + bl, s, s + l, l > 1)
                } else if c == 1 {
                    (s + l + be, s + l, s + l + q, false)
                } else {
                    (s + l + q + bg, s + l + q, e, e - (s + l + q) > 1)
                }
            }
        });
        let dst = moved.map(|m| m.0);
        ys = ys.scatter(&dst, &fill([n], 0u32));
        st = moved.map(|m| m.1).scatter(&dst, &fill([n], 0usize));
        en = moved.map(|m| m.2).scatter(&dst, &fill([n], 0usize));
        act = moved.map(|m| m.3).scatter(&dst, &fill([n], false));
    }
    ys
}

/// Sequential quicksort: middle pivot, three-way partition, the smaller
/// side first off an explicit stack.
fn sequential(xs: &[u32]) -> Vec<u32> {
    let mut v = xs.to_vec();
    let mut stack = vec![(0usize, v.len())];
    while let Some((lo, hi)) = stack.pop() {
        if hi - lo < 2 {
            continue;
        }
        let p = v[lo + (hi - lo) / 2];
        // Dijkstra's three-way partition: [lo, lt) < p, [lt, i) == p, (gt, hi) > p.
        let (mut lt, mut i, mut gt) = (lo, lo, hi);
        while i < gt {
            if v[i] < p {
                v.swap(lt, i);
                lt += 1;
                i += 1;
            } else if v[i] > p {
                gt -= 1;
                v.swap(i, gt);
            } else {
                i += 1;
            }
        }
        stack.push((gt, hi));
        stack.push((lo, lt));
    }
    v
}

/// rayon's parallel quicksort (pattern-defeating, unstable; keys only).
fn rayon(xs: &[u32]) -> Vec<u32> {
    let mut v = xs.to_vec();
    v.par_sort_unstable();
    v
}

pub fn program(h: &mut Harness) {
    if !h.wants("quicksort") {
        return;
    }
    let n = h.pick(1 << 20, 9);
    let mut s = 8u32;
    let xs: Vec<u32> = (0..n)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 8) % (n as u32 / 2).max(3)
        })
        .collect();
    let xa = Vector::from(xs.clone());
    let backend = h.backend();
    h.program(Program {
        name: "quicksort",
        source: "futhark-benchmarks diku-dk/sorts quick_sort.fut (flat quicksort)",
        size: format!("{n} keys"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || quicksort::on(&backend, &xa))),
            ("sequential", run(|| Ok(sequential(&xs)))),
            ("rayon", run(|| Ok(rayon(&xs)))),
        ],
    });
}
