//! streamcluster: one evaluation of pgain, the core of the online facility-location
//! clustering: the gain of opening a facility at point x: which points would switch
//! to x, how much each open centre would save by closing (lower), how many centres
//! close, and the total cost change.
//! Rodinia 3.1, `openmp/streamcluster/streamcluster_omp.cpp` (github.com/yuhc/gpu-rodinia).
//! Run script: 65536 points of 256 dimensions (one chunk). The points are generated
//! as multiples of 1/16 in [0, 1) with weight 1, so distances are exact in f32 and the
//! switch decisions must agree exactly; the first 20 points are the open centres.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the distances to x as a sum over a
/// (point, dimension) space, the switch decisions by `zip_with`, the savings per
/// centre as a `permute` (the original's per-thread `lower` arrays), the closed
/// centres from a `generate` over the points.
#[acc]
fn pgain(
    x: usize,
    z: f32,
    points: &Matrix<f32>,
    weight: &Vector<f32>,
    cost: &Vector<f32>,
    assign: &Vector<usize>,
    center_table: &Vector<usize>,
    is_center: &Vector<bool>,
    numcenters: usize,
) -> (Vector<bool>, Vector<f32>, Scalar<usize>, Scalar<f32>) {
    let [n, dim] = points.shape();
    let x_cost = generate([n, dim], |[i, d]| {
        let t = points[[i, d]] - points[[x, d]];
        t * t
    })
    .sum()
    .zip_with(weight, |s, w| s * w);
    let switch = x_cost.zip_with(cost, |xc, c| xc < c);
    let opening = x_cost
        .zip_with(cost, |xc, c| if xc < c { xc - c } else { 0.0 })
        .sum();
    let lower = generate([n], |[i]| cost[[i]] - x_cost[[i]]).permute(
        &fill([numcenters], 0.0f32),
        |[i]| {
            if x_cost[[i]] < cost[[i]] {
                None
            } else {
                Some([center_table[[assign[[i]]]]])
            }
        },
        |new, old| new + old,
    );
    let low = generate([n], |[i]| {
        if is_center[[i]] {
            z + lower[[center_table[[i]]]]
        } else {
            0.0
        }
    });
    let closing = low.map(|l| if l > 0.0 { l } else { 0.0 }).sum();
    let to_close = low.map(|l| if l > 0.0 { 1usize } else { 0 }).sum();
    let total = fill([], z + opening.value() - closing.value());
    (switch, lower, to_close, total)
}

struct Points {
    n: usize,
    dim: usize,
    coord: Vec<f32>,
    weight: Vec<f32>,
    cost: Vec<f32>,
    assign: Vec<usize>,
    is_center: Vec<bool>,
    center_table: Vec<usize>,
    numcenters: usize,
}

fn dist(p: &Points, a: usize, b: usize) -> f32 {
    let (pa, pb) = (
        &p.coord[a * p.dim..(a + 1) * p.dim],
        &p.coord[b * p.dim..(b + 1) * p.dim],
    );
    let mut result = 0.0f32;
    for i in 0..p.dim {
        result += (pa[i] - pb[i]) * (pa[i] - pb[i]);
    }
    result
}

type Gain = (Vec<bool>, Vec<f32>, usize, f32);

/// The closing of centres and the total, once `lower` and the opening cost are known.
fn close(p: &Points, z: f32, lower: &[f32], opening: f32) -> (usize, f32) {
    let (mut to_close, mut cost) = (0, z + opening);
    for i in 0..p.n {
        if p.is_center[i] {
            let low = z + lower[p.center_table[i]];
            if low > 0.0 {
                to_close += 1;
                cost -= low;
            }
        }
    }
    (to_close, cost)
}

fn sequential(p: &Points, x: usize, z: f32) -> Gain {
    let mut switch = vec![false; p.n];
    let mut lower = vec![0.0f32; p.numcenters];
    let mut opening = 0.0f32;
    for i in 0..p.n {
        let x_cost = dist(p, i, x) * p.weight[i];
        let current_cost = p.cost[i];
        if x_cost < current_cost {
            switch[i] = true;
            opening += x_cost - current_cost;
        } else {
            lower[p.center_table[p.assign[i]]] += current_cost - x_cost;
        }
    }
    let (to_close, cost) = close(p, z, &lower, opening);
    (switch, lower, to_close, cost)
}

fn rayon(p: &Points, x: usize, z: f32) -> Gain {
    let x_cost: Vec<f32> = (0..p.n)
        .into_par_iter()
        .map(|i| dist(p, i, x) * p.weight[i])
        .collect();
    let switch: Vec<bool> = x_cost.par_iter().zip(&p.cost).map(|(xc, c)| xc < c).collect();
    let k = p.numcenters;
    let (lower, opening) = (0..p.n)
        .into_par_iter()
        .fold(
            || (vec![0.0f32; k], 0.0f32),
            |(mut lower, mut opening), i| {
                if x_cost[i] < p.cost[i] {
                    opening += x_cost[i] - p.cost[i];
                } else {
                    lower[p.center_table[p.assign[i]]] += p.cost[i] - x_cost[i];
                }
                (lower, opening)
            },
        )
        .reduce(
            || (vec![0.0f32; k], 0.0f32),
            |(mut a, oa), (b, ob)| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                (a, oa + ob)
            },
        );
    let (to_close, cost) = close(p, z, &lower, opening);
    (switch, lower, to_close, cost)
}

pub fn program(h: &mut Harness) {
    if !h.wants("streamcluster") {
        return;
    }
    let (n, dim) = (h.pick(65536, 9), h.pick(256, 3));
    let numcenters = 20.min(n);
    let mut seed = 77u32;
    let coord: Vec<f32> = (0..n * dim)
        .map(|_| {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 28) as f32 / 16.0
        })
        .collect();
    let mut p = Points {
        n,
        dim,
        coord,
        weight: vec![1.0; n],
        cost: vec![0.0; n],
        assign: vec![0; n],
        is_center: (0..n).map(|i| i < numcenters).collect(),
        center_table: (0..n).map(|i| if i < numcenters { i } else { 0 }).collect(),
        numcenters,
    };
    // Each point assigned to its nearest open centre, at that distance.
    for i in 0..n {
        let best = (0..numcenters)
            .min_by(|&a, &b| dist(&p, i, a).total_cmp(&dist(&p, i, b)))
            .unwrap_or(0);
        p.assign[i] = best;
        p.cost[i] = dist(&p, i, best) * p.weight[i];
    }
    // The facility cost: the median of the centres' savings, so that about half
    // of them close (in the original, z comes from pkmedian's bisection).
    let x = n / 2;
    let mut lower = sequential(&p, x, 0.0).1;
    lower.sort_by(f32::total_cmp);
    let z = -lower[lower.len() / 2];
    let arr_p = Matrix::from_vec([n, dim], p.coord.clone()).expect("shape");
    let (wv, cv, av) = (
        Vector::from(p.weight.clone()),
        Vector::from(p.cost.clone()),
        Vector::from(p.assign.clone()),
    );
    let (ctv, icv) = (
        Vector::from(p.center_table.clone()),
        Vector::from(p.is_center.clone()),
    );
    let backend = h.backend();
    let p = &p;
    h.program(Program {
        name: "streamcluster",
        source: "Rodinia 3.1 openmp/streamcluster/streamcluster_omp.cpp",
        size: format!("{n}x{dim}"),
        tolerance: 1e-4,
        systems: vec![
            (
                "accel",
                run(move || pgain::on(&backend, x, z, &arr_p, &wv, &cv, &av, &ctv, &icv, numcenters)),
            ),
            ("sequential", run(move || Ok(sequential(p, x, z)))),
            ("rayon", run(move || Ok(rayon(p, x, z)))),
        ],
    });
}
