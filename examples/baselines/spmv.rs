//! Sparse matrix-vector product without accel: the generated corpus, a Matrix
//! Market reader, the sequential reference and the rayon version a Rust
//! programmer would write (rows in parallel).

#![allow(dead_code)] // the examples and the benchmarks each use a part

use crate::common::{fail, Rng};
use rayon::prelude::*;

/// A matrix in compressed-row form.
#[derive(Clone, Debug)]
pub struct Csr {
    pub rows: usize,
    pub cols: usize,
    /// `rows + 1` offsets into `idx` and `vals`.
    pub offsets: Vec<u32>,
    pub idx: Vec<u32>,
    pub vals: Vec<f32>,
}

impl Csr {
    /// From row lists of (column, value), the columns of each row ascending.
    fn from_rows(cols: usize, rows: Vec<Vec<(u32, f32)>>) -> Csr {
        let mut m = Csr {
            rows: rows.len(),
            cols,
            offsets: vec![0],
            idx: vec![],
            vals: vec![],
        };
        for row in rows {
            for (c, v) in row {
                m.idx.push(c);
                m.vals.push(v);
            }
            m.offsets.push(m.idx.len() as u32);
        }
        m
    }

    pub fn nnz(&self) -> usize {
        self.vals.len()
    }
}

/// The kinds of generated matrices.
pub const KINDS: [&str; 4] = ["dense", "banded", "random", "powerlaw"];

/// A generated matrix of about `nnz` stored values.
pub fn generate(kind: &str, nnz: usize, rng: &mut Rng) -> Csr {
    let nnz = nnz.max(1);
    match kind {
        // Every entry stored: the upper bound on performance.
        "dense" => {
            let n = (nnz as f64).sqrt().ceil() as usize;
            let rows = (0..n)
                .map(|_| (0..n as u32).map(|c| (c, rng.f32(-1.0, 1.0))).collect())
                .collect();
            Csr::from_rows(n, rows)
        }
        // 33 diagonals around the main one (a stencil-like matrix).
        "banded" => {
            let half = 16usize;
            let n = (nnz / (2 * half + 1)).max(1);
            let rows = (0..n)
                .map(|i| {
                    (i.saturating_sub(half)..(i + half + 1).min(n))
                        .map(|c| (c as u32, rng.f32(-1.0, 1.0)))
                        .collect()
                })
                .collect();
            Csr::from_rows(n, rows)
        }
        // 16 values per row in uniformly random columns.
        "random" => {
            let per = 16usize;
            let n = (nnz / per).max(1);
            let rows = (0..n).map(|_| random_row(n, per, rng)).collect();
            Csr::from_rows(n, rows)
        }
        // Row lengths from a power law (a few very long rows, many short ones),
        // 16 values per row on average.
        _ => {
            let n = (nnz / 16).max(1);
            let mut lens: Vec<usize> = (0..n)
                .map(|_| {
                    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    ((4.0 / (1.0 - u).powf(1.0 / 1.3)) as usize).min(n)
                })
                .collect();
            let total: usize = lens.iter().sum();
            for l in &mut lens {
                *l = (*l * nnz / total.max(1)).clamp(1, n);
            }
            let rows = lens.iter().map(|&l| random_row(n, l, rng)).collect();
            Csr::from_rows(n, rows)
        }
    }
}

/// `k` distinct columns out of `n`, ascending, with random values.
fn random_row(n: usize, k: usize, rng: &mut Rng) -> Vec<(u32, f32)> {
    let mut cs: Vec<u32> = (0..k).map(|_| rng.below(n as u64) as u32).collect();
    cs.sort_unstable();
    cs.dedup();
    cs.into_iter().map(|c| (c, rng.f32(-1.0, 1.0))).collect()
}

/// Reads a Matrix Market coordinate file (`real`, `integer` or `pattern`;
/// `general`, `symmetric` or `skew-symmetric`).
pub fn read_matrix_market(path: &str) -> accel::Result<Csr> {
    let name = "spmv";
    let text = std::fs::read_to_string(path).map_err(|e| fail(name, format!("{path}: {e}")))?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("").to_ascii_lowercase();
    let words: Vec<&str> = header.split_whitespace().collect();
    if words.len() < 5 || words[0] != "%%matrixmarket" || words[1] != "matrix" || words[2] != "coordinate" {
        return Err(fail(
            name,
            format!("{path}: not a Matrix Market coordinate matrix"),
        ));
    }
    let pattern = words[3] == "pattern";
    if !pattern && words[3] != "real" && words[3] != "integer" {
        return Err(fail(name, format!("{path}: unsupported field `{}`", words[3])));
    }
    let (symmetric, skew) = match words[4] {
        "general" => (false, false),
        "symmetric" => (true, false),
        "skew-symmetric" => (true, true),
        s => return Err(fail(name, format!("{path}: unsupported symmetry `{s}`"))),
    };
    let mut data = lines.filter(|l| !l.starts_with('%') && !l.trim().is_empty());
    let bad = |l: &str| fail(name, format!("{path}: bad line `{l}`"));
    let size = data
        .next()
        .ok_or_else(|| fail(name, format!("{path}: no size line")))?;
    let dims: Vec<usize> = size
        .split_whitespace()
        .map(|w| w.parse().map_err(|_| bad(size)))
        .collect::<Result<_, _>>()?;
    let [rows, cols, _nnz] = dims[..] else {
        return Err(bad(size));
    };
    let mut per_row: Vec<Vec<(u32, f32)>> = vec![vec![]; rows];
    for l in data {
        let mut w = l.split_whitespace();
        let mut num =
            || -> accel::Result<usize> { w.next().and_then(|s| s.parse().ok()).ok_or_else(|| bad(l)) };
        let (i, j) = (num()?, num()?);
        let v: f32 = if pattern {
            1.0
        } else {
            l.split_whitespace()
                .nth(2)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| bad(l))?
        };
        if i == 0 || j == 0 || i > rows || j > cols {
            return Err(fail(
                name,
                format!("{path}: entry ({i}, {j}) outside {rows} x {cols}"),
            ));
        }
        per_row[i - 1].push((j as u32 - 1, v));
        if symmetric && i != j && j <= rows && i <= cols {
            per_row[j - 1].push((i as u32 - 1, if skew { -v } else { v }));
        }
    }
    for r in &mut per_row {
        r.sort_by_key(|e| e.0);
    }
    Ok(Csr::from_rows(cols, per_row))
}

/// The dense vector the matrix is multiplied with.
pub fn vector(n: usize, rng: &mut Rng) -> Vec<f32> {
    (0..n).map(|_| rng.f32(-1.0, 1.0)).collect()
}

#[inline]
fn row(m: &Csr, x: &[f32], i: usize) -> f32 {
    let (a, b) = (m.offsets[i] as usize, m.offsets[i + 1] as usize);
    let mut s = 0.0f32;
    for k in a..b {
        s += m.vals[k] * x[m.idx[k] as usize];
    }
    s
}

pub fn reference(m: &Csr, x: &[f32]) -> Vec<f32> {
    (0..m.rows).map(|i| row(m, x, i)).collect()
}

pub fn rayon(m: &Csr, x: &[f32]) -> Vec<f32> {
    (0..m.rows).into_par_iter().map(|i| row(m, x, i)).collect()
}

/// Whether `got` is `want` (the sequential sums): bit for bit where
/// `exact`, else each row within the bound on the rounding of a sum of its
/// length in any grouping (`2 len eps` times the sum of the terms'
/// magnitudes): a GPU shares each long row among a warp's lanes, which
/// adds in another order.
pub fn agrees(m: &Csr, x: &[f32], got: &[f32], want: &[f32], exact: bool) -> bool {
    if exact || got.len() != want.len() {
        return got == want;
    }
    (0..m.rows).all(|i| {
        let (a, b) = (m.offsets[i] as usize, m.offsets[i + 1] as usize);
        let size: f64 = (a..b)
            .map(|k| (m.vals[k] as f64 * x[m.idx[k] as usize] as f64).abs())
            .sum();
        let bound = 2.0 * (b - a) as f64 * f32::EPSILON as f64 * size;
        (got[i] as f64 - want[i] as f64).abs() <= bound
    })
}
