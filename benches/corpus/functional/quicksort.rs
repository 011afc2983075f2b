//! quicksort: quick_sort.fut's data-parallel quicksort. Every step handles
//! all the unfinished segments at once: it expands them into their elements,
//! compares each with its segment's middle element (less, equal, greater),
//! places each from segmented prefix counts and scatters the keys there; the
//! less and greater parts of more than one key are the next step's segments.
//! futhark-benchmarks `lib/github.com/diku-dk/sorts/quick_sort.fut` (as
//! vendored in `accelerate/pagerank/`). Keys made here by an LCG, with repeats.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As quick_sort.fut writes it, from docs/language.md: the state is the keys
/// and the unfinished segments (start, size). Each step expands the segments
/// into their elements, compares each with its segment's middle element,
/// counts the (less, equal) elements per segment (`fold_seg`) and before each
/// element (`scanl1_seg`), scatters the elements to their new places, and
/// keeps the new segments of more than one element (`filter`).
#[acc]
fn quicksort(xs: &Vector<u32>) -> Vector<u32> {
    let n = xs.len();
    let mut ys = xs.map(|x| x);
    let mut starts = fill([if n > 1 { 1 } else { 0 }], 0usize);
    let mut sizes = fill([if n > 1 { 1 } else { 0 }], n);
    while starts.len() > 0 {
        let k = starts.len();
        let pivots = generate([k], |[j]| ys[[starts[[j]] + sizes[[j]] / 2]]);
        // Every element of an unfinished segment: (segment, position).
        let segs = generate([k], |[j]| (j, starts[[j]], sizes[[j]]));
        let elems = segs.expand(|g| g.2, |g, o| (g.0, g.1 + o));
        let m = elems.len();
        let info = elems.map(|e| {
            let x = ys[[e.1]];
            let p = pivots[[e.0]];
            if x < p {
                0u8
            } else if x == p {
                1u8
            } else {
                2u8
            }
        });
        // (less, equal) counts: up to each element, and per segment.
        let orders = info.map(|c| ((c == 0) as usize, (c == 1) as usize));
        let wh = orders.scanl1_seg(&sizes, |a, b| (a.0 + b.0, a.1 + b.1));
        let totals = orders.fold_seg(&sizes, (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let newpos = generate([m], |[t]| {
            let (j, i) = elems[[t]];
            let (a, e) = wh[[t]];
            let (x, y) = totals[[j]];
            let s = starts[[j]];
            let c = info[[t]];
            if c == 0 {
                s + a - 1
            } else if c == 1 {
                s + x + e - 1
            } else {
                s + x + y + (i - s + 1 - a - e) - 1
            }
        });
        // The keys to their places; the finished ones stay where they are.
        let vs = elems.map(|e| ys[[e.1]]);
        ys = vs.scatter(&newpos, &ys);
        // Each segment's less and greater parts, if still to be sorted.
        let next = generate([2 * k], |[t]| {
            let j = t / 2;
            let s = starts[[j]];
            let (x, y) = totals[[j]];
            if t % 2 == 0 {
                (s, x)
            } else {
                (s + x + y, sizes[[j]] - x - y)
            }
        })
        .filter(|g| g.1 > 1);
        starts = next.map(|g| g.0);
        sizes = next.map(|g| g.1);
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
    if std::env::var("QS_EXPLAIN").is_ok() {
        eprintln!("{}", quicksort::explain());
    }
    let xa = Vector::from(xs.clone());
    let backend = h.backend();
    h.program(Program {
        name: "quicksort",
        source: "futhark-benchmarks diku-dk/sorts quick_sort.fut",
        size: format!("{n} keys"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || quicksort::on(&backend, &xa))),
            ("sequential", run(|| Ok(sequential(&xs)))),
            ("rayon", run(|| Ok(rayon(&xs)))),
        ],
    });
}
