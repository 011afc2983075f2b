//! pagerank: one step of PageRank. Each link sends its source page's rank
//! divided by the page's number of out-links to its target; the ranks of the
//! pages without out-links (dangling) are shared out evenly.
//! futhark-benchmarks `accelerate/pagerank/pagerank.fut`, after
//! accelerate-examples `examples/pagerank` (whose step scatters the
//! contributions with `permute (+)`). The graph is made here by an LCG, links
//! sorted by target as the Futhark data sets are. Ranks start at 1 rather
//! than 1/n (the step is linear), so the check's tolerance is meaningful.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md, the way Accelerate states it:
/// the per-link contributions scattered into the pages with `permute` and
/// `+`, plus the dangling pages' share.
#[acc]
fn pagerank(from: &Vector<u32>, to: &Vector<u32>, sizes: &Vector<u32>, ranks: &Vector<f32>) -> Vector<f32> {
    let n = ranks.len();
    let contributions = from.map(|f| ranks[[f as usize]] / sizes[[f as usize]] as f32);
    let page_ranks = contributions.permute(
        &fill([n], 0.0f32),
        |[e]| Some([to[[e]] as usize]),
        |new, old| new + old,
    );
    let dangling = ranks.zip_with(sizes, |r, s| if s == 0 { r } else { 0.0 }).sum();
    let total = dangling.value() / n as f32;
    page_ranks.map(|r| r + total)
}

fn dangling(ranks: &[f32], sizes: &[u32]) -> f32 {
    ranks
        .iter()
        .zip(sizes)
        .map(|(&r, &s)| if s == 0 { r } else { 0.0 })
        .sum::<f32>()
        / ranks.len() as f32
}

/// The step as a loop over the links, scattering into the pages.
fn sequential(from: &[u32], to: &[u32], sizes: &[u32], ranks: &[f32]) -> Vec<f32> {
    let mut page = vec![0.0f32; ranks.len()];
    for (&f, &t) in from.iter().zip(to) {
        page[t as usize] += ranks[f as usize] / sizes[f as usize] as f32;
    }
    let total = dangling(ranks, sizes);
    page.iter_mut().for_each(|r| *r += total);
    page
}

/// Pages in parallel, each summing its incoming links (the links are sorted
/// by target, so each page's are one range: `starts`).
fn rayon(from: &[u32], starts: &[usize], sizes: &[u32], ranks: &[f32]) -> Vec<f32> {
    let total = {
        let s: f32 = ranks
            .par_iter()
            .zip(sizes)
            .map(|(&r, &s)| if s == 0 { r } else { 0.0 })
            .sum();
        s / ranks.len() as f32
    };
    starts
        .par_windows(2)
        .map(|w| {
            from[w[0]..w[1]]
                .iter()
                .map(|&f| ranks[f as usize] / sizes[f as usize] as f32)
                .sum::<f32>()
                + total
        })
        .collect()
}

pub fn program(h: &mut Harness) {
    if !h.wants("pagerank") {
        return;
    }
    let n = h.pick(500_000, 7);
    let mut s = 31u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) as usize
    };
    // Links sorted by target; sources among the first 90% of the pages, so
    // the rest (and any page never chosen) are dangling. Page 0 has no in-links.
    let sources = (n * 9 / 10).max(1);
    let (mut from, mut to, mut starts) = (vec![], vec![], vec![0usize]);
    for t in 0..n {
        let d = if t == 0 { 0 } else { next() % 19 };
        for _ in 0..d {
            from.push((next() % sources) as u32);
            to.push(t as u32);
        }
        starts.push(from.len());
    }
    let mut sizes = vec![0u32; n];
    from.iter().for_each(|&f| sizes[f as usize] += 1);
    let ranks: Vec<f32> = (0..n).map(|i| 0.5 + (i % 11) as f32 / 10.0).collect();
    let m = from.len();
    let (fa, ta, sa, ra) = (
        Vector::from(from.clone()),
        Vector::from(to.clone()),
        Vector::from(sizes.clone()),
        Vector::from(ranks.clone()),
    );
    let backend = h.backend();
    h.program(Program {
        name: "pagerank",
        source: "futhark-benchmarks accelerate/pagerank/pagerank.fut (accelerate-examples pagerank)",
        size: format!("{n} pages, {m} links"),
        tolerance: 1e-4,
        systems: vec![
            ("accel", run(move || pagerank::on(&backend, &fa, &ta, &sa, &ra))),
            ("sequential", run(|| Ok(sequential(&from, &to, &sizes, &ranks)))),
            ("rayon", run(|| Ok(rayon(&from, &starts, &sizes, &ranks)))),
        ],
    });
}
