//! Distributed runs of accel programs against the same programs on one
//! process, on any communicator: `tests/distributed.rs` runs them on ranks
//! that are threads, `tests/distributed_mpi.rs` under `mpiexec`.
//!
//! Each rank computes on its block with an accel program on the local
//! backend; `accel::dist` moves what the operation needs between ranks.

use accel::dist::{blocks, Comm, CommExt, DistArray};
use accel::prelude::*;
use std::sync::Arc;

#[path = "skew.rs"]
mod skew;

accel::accel! {
    pub fn dotp(xs: &Vector<f64>, ys: &Vector<f64>) -> Scalar<f64> {
        xs.zip_with(ys, |x, y| x * y).sum()
    }

    pub fn total(xs: &Vector<i64>) -> Scalar<i64> {
        xs.sum()
    }

    pub fn saxpy(a: f32, xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
        xs.zip_with(ys, |x, y| a * x + y)
    }

    pub fn running(xs: &Vector<i64>) -> Vector<i64> {
        xs.scanl1(|a, b| a + b)
    }

    pub fn heat(u: &Matrix<f32>) -> Matrix<f32> {
        u.stencil(Boundary::Clamp, |[[_, n, _], [w, c, e], [_, s, _]]| c + 0.2 * (n + s + e + w - 4.0 * c))
    }

    pub fn row_sums(m: &Matrix<i32>) -> Vector<i32> {
        m.fold(0, |a, b| a + b)
    }

    pub fn keys(xs: &Vector<u32>, bins: u32) -> Vector<u32> {
        xs.map(|x| (x ^ (x >> 7)) % bins)
    }

    pub fn histogram(ks: &Vector<u32>, bins: usize) -> Vector<u32> {
        let zeros = fill([bins], 0u32);
        ks.map(|_| 1u32).permute(&zeros, |[i]| Some([ks[[i]] as usize]), |a, b| a + b)
    }

    pub fn transpose(m: &Matrix<f32>) -> Matrix<f32> {
        m.transpose()
    }

    pub fn second(xs: &Vector<i64>) -> Scalar<i64> {
        generate([1], |[_]| xs[[1]]).sum()
    }

    // Called through their generated `dist` entries (`accel_core::dist`
    // decides how each runs over ranks).
    pub fn auto_saxpy(a: f32, xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
        xs.zip_with(ys, |x, y| a * x + y)
    }

    pub fn auto_matvec(m: &Matrix<f64>, v: Vector<f64>) -> Vector<f64> {
        generate(m.shape(), |[i, j]| m[[i, j]] * v[[j]]).sum()
    }

    pub fn auto_row_max(m: &Matrix<i32>) -> Vector<i32> {
        m.map(|x| x * 3 - 7).fold(i32::MIN, |a, b| a.max(b))
    }

    pub fn auto_dotp(xs: &Vector<f64>, ys: &Vector<f64>) -> Scalar<f64> {
        xs.zip_with(ys, |x, y| x * y).sum()
    }

    pub fn auto_weighted_total(m: Matrix<f64>, w: Vector<f64>) -> Scalar<f64> {
        generate(m.shape(), |[i, j]| m[[i, j]] * w[[j]]).sum().sum()
    }

    pub fn auto_smallest(xs: &Vector<i32>) -> Scalar<i32> {
        xs.map(|x| x ^ 5).minimum()
    }

    pub fn auto_positions(xs: &Vector<f32>) -> Vector<f32> {
        generate([xs.len()], |[i]| xs[[i]] + i as f32)
    }

    pub fn auto_prefix(xs: Vector<i64>) -> Vector<i64> {
        xs.scanl1(|a, b| a + b)
    }

    pub fn auto_prefix_max(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x * 2.0 - 1.0).scanl1(|a, b| a.max(b))
    }

    pub fn auto_suffix(xs: &Vector<i64>) -> Vector<i64> {
        xs.scanr1(|a, b| a + b)
    }

    pub fn auto_blur_twice(u: &Matrix<f32>, v: &Matrix<f32>) -> Matrix<f32> {
        let b = u.stencil(Boundary::Mirror, |[[_, n, _], [w, c, e], [_, s, _]]| n + s + w + e + 0.5 * c);
        let d = b.zip_with(v, |x, y| x * y);
        d.stencil(Boundary::Clamp, |[[_, n, _], [w, c, e], [_, s, _]]| n + s + w + e - c)
    }

    pub fn auto_heat_row_sums(u: &Matrix<f32>) -> Vector<f32> {
        u.stencil(Boundary::Mirror, |[[_, n, _], [w, c, e], [_, s, _]]| n + s + w + e - 4.0 * c).sum()
    }

    pub fn auto_mean(xs: &Vector<f64>) -> Scalar<f64> {
        let total = xs.sum();
        generate([], |_| total.value() / xs.len() as f64)
    }

    // Folds used as values: in phases.
    pub fn auto_centred(xs: &Vector<f64>, k: f64) -> Vector<f64> {
        let total = xs.sum();
        xs.map(|x| x - k * total.value())
    }

    pub fn auto_softmax(xs: &Vector<f32>) -> Vector<f32> {
        let m = xs.maximum();
        let e = xs.map(|x| (x - m.value()).exp());
        let s = e.sum();
        e.map(|x| x / s.value())
    }

    // Over sequences: each rank streams its own part.
    pub fn seq_dotp(xs: Seq<Vector<f64>>, ys: Seq<Vector<f64>>) -> Scalar<f64> {
        xs.zip_with(ys, |x, y| x.zip_with(y, |a, b| a * b).sum()).sum()
    }

    pub fn seq_largest(xs: Seq<Scalar<i64>>) -> Scalar<i64> {
        xs.maximum()
    }

    pub fn seq_squares(xs: Seq<Scalar<i64>>) -> Vector<i64> {
        xs.map(|x| x.map(|v| v * v - 3)).collect()
    }

    pub fn seq_offset(xs: Seq<Scalar<i64>>, w: &Vector<i64>) -> Scalar<i64> {
        xs.map(|x| x.map(|v| v * w[[0]])).fold(7, |a, b| a + b)
    }

    pub fn seq_stacked(xs: Seq<Vector<f64>>) -> Matrix<f64> {
        xs.map(|x| { let t = x.sum(); generate([2], |[j]| t.value() + j as f64) }).tabulate()
    }
}

type Check = fn(&Arc<dyn Comm>, &Backend, usize) -> Result<(), String>;

/// Every check, by name; each takes the number of rows of its input.
pub const CHECKS: [(&str, Check); 21] = [
    ("saxpy (a zip of blocks laid out alike, local)", saxpy_of_blocks),
    ("dot product (fold in rank order)", dot_product),
    (
        "a sequence of chunks (chunk i on rank i mod P)",
        sequence_of_chunks,
    ),
    ("running sums (scan by block totals)", running_sums),
    ("heat diffusion (stencil by halos)", heat_diffusion),
    ("row sums (fold along rows, local)", row_sums_local),
    ("histogram (permute by all-to-all)", histogram_by_all_to_all),
    ("transpose (backpermute by all-to-all)", transpose_by_all_to_all),
    ("a failed rank (every rank's error)", failed_rank),
    ("dist: saxpy by rows, blocks laid out apart", auto_rows_saxpy),
    (
        "dist: saxpy of vectors of different lengths, whole",
        auto_whole_saxpy,
    ),
    (
        "dist: matrix-vector product by rows, the vector gathered",
        auto_rows_matvec,
    ),
    ("dist: row maxima by rows", auto_rows_row_max),
    (
        "dist: heat steps and two stencils in a row, by rows with halos",
        auto_rows_stencils,
    ),
    ("dist: dot product, fold by rows", auto_fold_dotp),
    ("dist: minimum (fold1), fold by rows", auto_fold_smallest),
    ("dist: generate using the row number, whole", auto_whole_positions),
    (
        "dist: scans of a vector by block totals; a right scan and a mean, whole",
        auto_scans_and_mean,
    ),
    (
        "dist: folds used as values, in phases (centring, softmax)",
        auto_phases,
    ),
    (
        "dist over sequences: sums, maxima and collects by parts; zipped parts of different lengths fail",
        seq_by_parts,
    ),
    (
        "dist over sequences, parts skewed: a fold from 7 (whole), a tabulate by parts",
        seq_skewed,
    ),
];

/// The row counts each check runs at: empty, fewer rows than ranks, odd,
/// and (for the CPU) more than a CPU kernel's parallel chunk.
pub const SIZES: [usize; 5] = [0, 1, 3, 50, 20_001];

fn e(what: &str) -> impl Fn(accel::Error) -> String + '_ {
    move |err| format!("{what}: {err}")
}

fn unit(i: usize) -> f64 {
    let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((x >> 40) as f64 / (1u64 << 24) as f64) - 0.5
}

/// The input built on rank 0 and scattered.
fn scattered<T: accel::Elem, const R: usize>(
    comm: &Arc<dyn Comm>,
    whole: &Array<T, R>,
) -> Result<DistArray<T, R>, String>
where
    T::Columns: accel::dist::WireColumns,
{
    DistArray::scatter_from(comm, 0, (comm.rank() == 0).then_some(whole)).map_err(e("scatter_from"))
}

/// A zip of two vectors, one of them laid out unevenly (every block on the
/// last rank), and one element longer: its rows move to the other's layout.
fn saxpy_of_blocks(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n).map(|i| unit(i) as f32).collect::<Vec<_>>());
    let ys_whole = Vector::from((0..n + 1).map(|i| unit(i + 7) as f32).collect::<Vec<_>>());
    let last = comm.rank() == comm.size() - 1;
    let ys = DistArray::local(
        comm,
        if last {
            ys_whole.clone()
        } else {
            Vector::from(Vec::new())
        },
    )
    .map_err(e("local"))?;
    let got = scattered(comm, &xs)?
        .zip_part(&ys, |x, y| saxpy::on(b, 2.5, x, y))
        .map_err(e("zip_part"))?;
    same(
        got.to_array().map_err(e("to_array"))?,
        saxpy::on(b, 2.5, &xs, &ys_whole).map_err(e("saxpy"))?,
    )
}

fn dot_product(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n).map(unit).collect::<Vec<_>>());
    let ys = Vector::from((0..n).map(|i| unit(i + n)).collect::<Vec<_>>());
    let (dx, dy) = (scattered(comm, &xs)?, scattered(comm, &ys)?);
    let partial = dotp::on(b, dx.part(), dy.part()).map(|s| Some(s.value()));
    let got = comm
        .combine_in_order(partial, |a, b| a + b)
        .map_err(e("combine"))?
        .unwrap_or(0.0);
    let want = dotp::on(b, &xs, &ys).map_err(e("dotp"))?.value();
    let mag: f64 = (0..n).map(|i| (unit(i) * unit(i + n)).abs()).sum();
    if (got - want).abs() > 1e-12 * mag.max(1.0) {
        return Err(format!("{got} != {want}"));
    }
    Ok(())
}

/// The sum of a sequence of chunks of 97 elements, chunk `i` on rank
/// `i mod P`: each chunk's sum (an accel program), combined in sequence order.
fn sequence_of_chunks(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let chunk = |k: usize| {
        Vector::from(
            (k * 97..((k + 1) * 97).min(n))
                .map(|i| (i % 251) as i64 - 125)
                .collect::<Vec<_>>(),
        )
    };
    let chunks = n.div_ceil(97);
    let mine = (0..chunks).skip(comm.rank()).step_by(comm.size()).map(chunk);
    let got = comm
        .fold_sequence(mine, |c| total::on(b, &c).map(|s| s.value()), |a, b| a + b)
        .map_err(e("fold_sequence"))?;
    let want = (0..n).map(|i| (i % 251) as i64 - 125).sum::<i64>();
    if got.unwrap_or(0) != want || got.is_some() != (n > 0) {
        return Err(format!("{got:?} != {want}"));
    }
    Ok(())
}

fn running_sums(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n as i64).map(|i| i * i % 17 - 8).collect::<Vec<_>>());
    let d = scattered(comm, &xs)?;
    let got = d
        .scan_parts(|p| running::on(b, p), |a, b| a + b)
        .map_err(e("scan_parts"))?;
    let want = running::on(b, &xs).map_err(e("running"))?;
    same(got.to_array().map_err(e("to_array"))?, want)
}

fn heat_diffusion(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let u0 = Matrix::from_fn([n, 7], |[i, j]| ((i * 7 + j) % 11) as f32);
    let mut d = scattered(comm, &u0)?;
    let mut u = u0;
    for _ in 0..5 {
        d = d
            .stencil_parts(1, |p| heat::on(b, p))
            .map_err(e("stencil_parts"))?;
        u = heat::on(b, &u).map_err(e("heat"))?;
    }
    // The same arithmetic on the same neighbours: equal to the bit.
    same(d.to_array().map_err(e("to_array"))?, u)
}

fn row_sums_local(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let m = Matrix::from_fn([n, 5], |[i, j]| (i * 31 + j * 7) as i32 % 23);
    let d = scattered(comm, &m)?;
    let got = d.map_part(|p| row_sums::on(b, p)).map_err(e("map_part"))?;
    if got.starts() != d.starts() {
        return Err(format!(
            "row sums laid out as {:?}, not as their rows {:?}",
            got.starts(),
            d.starts()
        ));
    }
    same(
        got.to_array().map_err(e("to_array"))?,
        row_sums::on(b, &m).map_err(e("row_sums"))?,
    )
}

fn histogram_by_all_to_all(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let bins = 13;
    let xs = Vector::from(
        (0..n as u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect::<Vec<_>>(),
    );
    let ks = scattered(comm, &xs)?
        .map_part(|p| keys::on(b, p, bins as u32))
        .map_err(e("keys"))?;
    let zeros = scattered(comm, &Vector::from(vec![0u32; bins]))?;
    let got = zeros
        .permute_from(&ks, |_, k| Some(([k as usize], 1)), |a, b| a + b)
        .map_err(e("permute_from"))?;
    let want =
        histogram::on(b, &keys::on(b, &xs, bins as u32).map_err(e("keys"))?, bins).map_err(e("histogram"))?;
    same(got.to_array().map_err(e("to_array"))?, want)
}

fn transpose_by_all_to_all(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let m = Matrix::from_fn([n, 6], |[i, j]| (i * 6 + j) as f32);
    let d = scattered(comm, &m)?;
    let t = d.backpermute([6, n], |[j, i]| [i, j]).map_err(e("backpermute"))?;
    if t.starts() != &blocks(6, comm.size())[..] {
        return Err(format!("the transpose is laid out as {:?}", t.starts()));
    }
    same(
        t.to_array().map_err(e("to_array"))?,
        transpose::on(b, &m).map_err(e("transpose"))?,
    )
}

/// A rank whose program fails (its block has no second element) ends the
/// run on every rank: it returns its own error, the others one naming it.
fn failed_rank(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n as i64).collect::<Vec<_>>());
    let d = scattered(comm, &xs)?;
    let starts = d.starts().to_vec();
    // Empty blocks are not folded; blocks of one element fail.
    let failed = (0..comm.size()).find(|&r| starts[r + 1] - starts[r] == 1);
    let got = d.fold_parts(|p| second::on(b, p).map(|s| s.value()), |a, b| a.max(b));
    let me = comm.rank();
    match (failed, got) {
        (None, Ok(_)) => Ok(()),
        // The lowest failed rank returns its own error, every other rank one naming it.
        (Some(f), Err(err))
            if (me == f && err.kind() == accel::ErrorKind::IndexOutOfBounds)
                || (me != f
                    && err.kind() == accel::ErrorKind::Distributed
                    && err.message().starts_with(&format!("rank {f} failed"))) =>
        {
            Ok(())
        }
        (f, got) => Err(format!(
            "blocks {starts:?}, rank {f:?} failing: rank {me} got {got:?}"
        )),
    }
}

/// `whole` laid out unevenly (`skew::skewed`).
fn skewed<T: accel::Elem, const R: usize>(
    comm: &Arc<dyn Comm>,
    whole: &Array<T, R>,
) -> Result<DistArray<T, R>, String>
where
    T::Columns: accel::dist::WireColumns,
{
    skew::skewed(comm, whole).map_err(e("skewed"))
}

/// That `dist` ran by rows: the result is laid out as `lead`.
fn by_rows<T: accel::Elem, U: accel::Elem, const R: usize, const Q: usize>(
    got: &DistArray<T, R>,
    lead: &DistArray<U, Q>,
) -> Result<(), String> {
    if got.starts() == lead.starts() {
        Ok(())
    } else {
        Err(format!(
            "laid out as {:?}, not by rows as {:?}",
            got.starts(),
            lead.starts()
        ))
    }
}

fn auto_rows_saxpy(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n).map(|i| unit(i) as f32).collect::<Vec<_>>());
    let ys = Vector::from((0..n).map(|i| unit(i + 3) as f32).collect::<Vec<_>>());
    let (dx, dy) = (skewed(comm, &xs)?, scattered(comm, &ys)?);
    let got = auto_saxpy::dist(b, 1.5, &dx, &dy).map_err(e("dist"))?;
    by_rows(&got, &dx)?;
    let want = auto_saxpy::on(b, 1.5, &xs, &ys).map_err(e("on"))?;
    same(got.to_array().map_err(e("to_array"))?, want)
}

/// Different numbers of rows: blocks would not line up, so every rank runs
/// the whole zip (the intersection).
fn auto_whole_saxpy(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n).map(|i| unit(i) as f32).collect::<Vec<_>>());
    let ys = Vector::from((0..n + 2).map(|i| unit(i + 3) as f32).collect::<Vec<_>>());
    let (dx, dy) = (scattered(comm, &xs)?, skewed(comm, &ys)?);
    let got = auto_saxpy::dist(b, -2.0, &dx, &dy).map_err(e("dist"))?;
    let want = auto_saxpy::on(b, -2.0, &xs, &ys).map_err(e("on"))?;
    same(got.to_array().map_err(e("to_array"))?, want)
}

fn auto_rows_matvec(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let m = Matrix::from_fn([n, 9], |[i, j]| unit(i * 9 + j));
    let v = Vector::from((0..9).map(|j| unit(j + 1000)).collect::<Vec<_>>());
    let (dm, dv) = (skewed(comm, &m)?, scattered(comm, &v)?);
    let got = auto_matvec::dist(b, &dm, &dv).map_err(e("dist"))?;
    by_rows(&got, &dm)?;
    // Each row's sum in the same order: equal to the bit.
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_matvec::on(b, &m, v.clone()).map_err(e("on"))?,
    )?;
    // A fold by rows with the vector gathered (parameters by value).
    let got = auto_weighted_total::dist(b, &dm, &dv).map_err(e("dist"))?.value();
    let want = auto_weighted_total::on(b, m.clone(), v).map_err(e("on"))?.value();
    let mag: f64 = m.to_vec().iter().map(|x| x.abs()).sum();
    if (got - want).abs() > 1e-12 * mag.max(1.0) {
        return Err(format!("weighted total {got} != {want}"));
    }
    Ok(())
}

fn auto_rows_row_max(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let m = Matrix::from_fn([n, 4], |[i, j]| ((i * 37 + j * 11) % 101) as i32 - 50);
    let dm = skewed(comm, &m)?;
    let got = auto_row_max::dist(b, &dm).map_err(e("dist"))?;
    by_rows(&got, &dm)?;
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_row_max::on(b, &m).map_err(e("on"))?,
    )
}

/// Halos of 1 and 2 rows (two stencils, one after the other), over blocks
/// of any size (the skewed layout gives some ranks fewer rows than the
/// halo): equal to the bit.
fn auto_rows_stencils(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let u0 = Matrix::from_fn([n, 7], |[i, j]| ((i * 7 + j) % 11) as f32);
    let mut d = skewed(comm, &u0)?;
    let mut u = u0.clone();
    for _ in 0..3 {
        let next = heat::dist(b, &d).map_err(e("dist"))?;
        by_rows(&next, &d)?;
        d = next;
        u = heat::on(b, &u).map_err(e("heat"))?;
    }
    same(d.to_array().map_err(e("to_array"))?, u)?;
    let v = Matrix::from_fn([n, 7], |[i, j]| unit(i + 3 * j) as f32);
    let (du, dv) = (skewed(comm, &u0)?, scattered(comm, &v)?);
    let got = auto_blur_twice::dist(b, &du, &dv).map_err(e("dist"))?;
    by_rows(&got, &du)?;
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_blur_twice::on(b, &u0, &v).map_err(e("on"))?,
    )?;
    // A fold along rows of a stencil's result: a vector, with the halo.
    let sv = skewed(comm, &v)?;
    let got = auto_heat_row_sums::dist(b, &sv).map_err(e("dist"))?;
    by_rows(&got, &sv)?;
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_heat_row_sums::on(b, &v).map_err(e("on"))?,
    )
}

fn auto_fold_dotp(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n).map(unit).collect::<Vec<_>>());
    let ys = Vector::from((0..n).map(|i| unit(i + n)).collect::<Vec<_>>());
    let (dx, dy) = (skewed(comm, &xs)?, scattered(comm, &ys)?);
    let got = auto_dotp::dist(b, &dx, &dy).map_err(e("dist"))?.value();
    let want = auto_dotp::on(b, &xs, &ys).map_err(e("on"))?.value();
    let mag: f64 = (0..n).map(|i| (unit(i) * unit(i + n)).abs()).sum();
    if (got - want).abs() > 1e-12 * mag.max(1.0) {
        return Err(format!("{got} != {want}"));
    }
    Ok(())
}

/// `minimum` of nothing fails; the distributed one fails alike, on every rank.
fn auto_fold_smallest(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n).map(|i| (unit(i) * 1e6) as i32).collect::<Vec<_>>());
    let got = auto_smallest::dist(b, &skewed(comm, &xs)?).map(|s| s.value());
    let want = auto_smallest::on(b, &xs).map(|s| s.value());
    match (got, want) {
        (Ok(g), Ok(w)) if g == w => Ok(()),
        (Err(g), Err(w)) if g.kind() == w.kind() => Ok(()),
        (g, w) => Err(format!("{g:?} != {w:?}")),
    }
}

fn auto_whole_positions(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n).map(|i| unit(i) as f32).collect::<Vec<_>>());
    let got = auto_positions::dist(b, &skewed(comm, &xs)?).map_err(e("dist"))?;
    if got.starts() != &blocks(n, comm.size())[..] {
        return Err(format!("laid out as {:?}", got.starts()));
    }
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_positions::on(b, &xs).map_err(e("on"))?,
    )
}

fn auto_scans_and_mean(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let xs = Vector::from((0..n as i64).map(|i| i * i % 13 - 6).collect::<Vec<_>>());
    let dx = skewed(comm, &xs)?;
    let got = auto_prefix::dist(b, &dx).map_err(e("dist"))?;
    by_rows(&got, &dx)?;
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_prefix::on(b, xs.clone()).map_err(e("on"))?,
    )?;
    let fs = Vector::from((0..n).map(|i| unit(i) as f32).collect::<Vec<_>>());
    let df = skewed(comm, &fs)?;
    let got = auto_prefix_max::dist(b, &df).map_err(e("dist"))?;
    by_rows(&got, &df)?;
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_prefix_max::on(b, &fs).map_err(e("on"))?,
    )?;
    // From the right: whole on every rank, each keeping its block.
    let got = auto_suffix::dist(b, &dx).map_err(e("dist"))?;
    if got.starts() != &blocks(n, comm.size())[..] {
        return Err(format!("the right scan laid out as {:?}", got.starts()));
    }
    same(
        got.to_array().map_err(e("to_array"))?,
        auto_suffix::on(b, &xs).map_err(e("on"))?,
    )?;
    let fs = Vector::from((0..n).map(unit).collect::<Vec<_>>());
    let got = auto_mean::dist(b, &scattered(comm, &fs)?)
        .map_err(e("dist"))?
        .value();
    let want = auto_mean::on(b, &fs).map_err(e("on"))?.value();
    // The whole program on every rank, rank 0's value: the same bits.
    if got.to_bits() != want.to_bits() {
        return Err(format!("{got} != {want}"));
    }
    Ok(())
}

fn auto_phases(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    if !auto_softmax::explain_dist().starts_with("in phases: first `m`") {
        return Err(format!("softmax runs {}", auto_softmax::explain_dist()));
    }
    let xs = Vector::from((0..n).map(unit).collect::<Vec<_>>());
    let dx = skewed(comm, &xs)?;
    let got = auto_centred::dist(b, &dx, 0.25).map_err(e("dist"))?;
    by_rows(&got, &dx)?;
    let want = auto_centred::on(b, &xs, 0.25).map_err(e("on"))?;
    // The total is regrouped by rank: within rounding of the sum's size.
    let mag: f64 = (0..n).map(|i| unit(i).abs()).sum();
    let g = got.to_array().map_err(e("to_array"))?.to_vec();
    if let Some(i) = (0..n).find(|&i| (g[i] - want.to_vec()[i]).abs() > 1e-12 * mag.max(1.0)) {
        return Err(format!("centred element {i}: {} != {}", g[i], want.to_vec()[i]));
    }
    let fs = Vector::from((0..n).map(|i| (unit(i) * 20.0) as f32).collect::<Vec<_>>());
    let df = skewed(comm, &fs)?;
    // No elements: `maximum` fails, on every rank alike.
    match (auto_softmax::dist(b, &df), auto_softmax::on(b, &fs)) {
        (Err(g), Err(w)) if g.kind() == w.kind() => Ok(()),
        (Ok(got), Ok(want)) => {
            by_rows(&got, &df)?;
            let g = got.to_array().map_err(e("to_array"))?.to_vec();
            let w = want.to_vec();
            match (0..n).find(|&i| (g[i] - w[i]).abs() > 1e-4 * w[i].abs().max(1e-6)) {
                Some(i) => Err(format!("softmax element {i}: {} != {}", g[i], w[i])),
                None => Ok(()),
            }
        }
        (g, w) => Err(format!(
            "softmax: {:?} against {:?}",
            g.map(|_| ()),
            w.map(|_| ())
        )),
    }
}

/// This rank's part of a sequence of `n` elements: a block of them, in
/// rank order.
fn my_part(comm: &Arc<dyn Comm>, n: usize) -> std::ops::Range<usize> {
    let starts = blocks(n, comm.size());
    starts[comm.rank()]..starts[comm.rank() + 1]
}

fn seq_value(i: usize) -> i64 {
    (i % 251) as i64 - 125
}

/// Elements `range` of a sequence of scalars, streamed in blocks of 97.
fn scalar_stream(range: std::ops::Range<usize>) -> Stream<'static, i64, 0> {
    let values: Vec<i64> = range.map(seq_value).collect();
    let blocks: Vec<Vector<i64>> = values.chunks(97).map(|c| Vector::from(c.to_vec())).collect();
    Stream::chunks(blocks)
}

/// Element `i` of a sequence of vectors of lengths 0 to 4, in runs of 16
/// of one length (the program's chunks), `salt` apart.
fn vector_elem(i: usize, salt: usize) -> Vector<f64> {
    Vector::from(
        (0..(i / 16 + salt + 1) % 5)
            .map(|j| unit(i * 5 + j + salt))
            .collect::<Vec<_>>(),
    )
}

fn seq_by_parts(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    let mine = my_part(comm, n);
    // Zipped streams of vectors, each rank its part of each.
    let got = seq_dotp::dist(
        b,
        comm,
        mine.clone().map(|i| vector_elem(i, 0)).collect::<Vec<_>>(),
        mine.clone().map(|i| vector_elem(i, 1)).collect::<Vec<_>>(),
    )
    .map_err(e("dist"))?
    .value();
    let want = seq_dotp::on(
        b,
        (0..n).map(|i| vector_elem(i, 0)).collect::<Vec<_>>(),
        (0..n).map(|i| vector_elem(i, 1)).collect::<Vec<_>>(),
    )
    .map_err(e("on"))?
    .value();
    if (got - want).abs() > 1e-12 * (n as f64).max(1.0) {
        return Err(format!("dot product {got} != {want}"));
    }
    // `ys` all on the last rank: rank 0's parts differ in length while a
    // later rank has elements, an error on every rank.
    let last = comm.rank() + 1 == comm.size();
    let ys = if last { 0..n } else { 0..0 };
    let got = seq_dotp::dist(
        b,
        comm,
        mine.clone().map(|i| vector_elem(i, 0)).collect::<Vec<_>>(),
        ys.map(|i| vector_elem(i, 1)).collect::<Vec<_>>(),
    );
    match (got, n >= 1 && comm.size() >= 2) {
        (Err(err), true) if err.kind() == accel::ErrorKind::ShapeMismatch => {}
        (Ok(v), false) if (v.value() - want).abs() <= 1e-12 * (n as f64).max(1.0) => {}
        (got, fails) => return Err(format!("uneven zipped parts: {got:?} (should fail: {fails})")),
    }
    let got = seq_largest::dist(b, comm, scalar_stream(mine.clone())).map_err(e("dist"))?;
    let want = seq_largest::on(b, scalar_stream(0..n)).map_err(e("on"))?;
    if got.value() != want.value() {
        return Err(format!("maximum {} != {}", got.value(), want.value()));
    }
    // A part that fails to read on the last rank fails the run on every rank.
    let broken = |range: std::ops::Range<usize>| {
        let fails = comm.rank() + 1 == comm.size();
        let items: Vec<accel::Result<Scalar<i64>>> = range
            .map(|i| Ok(Scalar::new(seq_value(i))))
            .chain(fails.then(|| Err(accel::Error::new("read", "disk on fire"))))
            .collect();
        Stream::fallible(items)
    };
    if seq_largest::dist(b, comm, broken(mine.clone())).is_ok() {
        return Err("a part that fails to read: no error".into());
    }
    if seq_offset::dist(
        b,
        comm,
        broken(mine.clone()),
        &scattered(comm, &Vector::from(vec![1i64]))?,
    )
    .is_ok()
    {
        return Err("a part that fails to read, whole: no error".into());
    }
    let got = seq_squares::dist(b, comm, scalar_stream(mine.clone())).map_err(e("dist"))?;
    // Each rank's values stay where they were computed.
    if got.rows() != mine {
        return Err(format!(
            "collect: rows {:?} on this rank, want {mine:?}",
            got.rows()
        ));
    }
    same(
        got.to_array().map_err(e("to_array"))?,
        seq_squares::on(b, scalar_stream(0..n)).map_err(e("on"))?,
    )
}

fn seq_skewed(comm: &Arc<dyn Comm>, b: &Backend, n: usize) -> Result<(), String> {
    // The parts skewed: every element on the last rank but one, when there
    // are three ranks or more.
    let p = comm.size();
    let mine = if p >= 3 {
        if comm.rank() == p - 2 {
            0..n
        } else {
            0..0
        }
    } else {
        my_part(comm, n)
    };
    let w = Vector::from(vec![3i64, 1]);
    let got =
        seq_offset::dist(b, comm, scalar_stream(mine.clone()), &scattered(comm, &w)?).map_err(e("dist"))?;
    let want = seq_offset::on(b, scalar_stream(0..n), &w).map_err(e("on"))?;
    if got.value() != want.value() {
        return Err(format!("fold from 7: {} != {}", got.value(), want.value()));
    }
    // By parts: the ranks with no elements take the others' element shape.
    let got = seq_stacked::dist(
        b,
        comm,
        mine.clone().map(|i| vector_elem(i, 2)).collect::<Vec<_>>(),
    )
    .map_err(e("dist"))?;
    // This rank's rows: after the elements of the ranks before it.
    let before = if p >= 3 && comm.rank() > p - 2 {
        n
    } else {
        mine.start
    };
    let want_rows = before..before + mine.len();
    if got.rows() != want_rows {
        return Err(format!(
            "tabulate: rows {:?} on this rank, want {want_rows:?}",
            got.rows()
        ));
    }
    same(
        got.to_array().map_err(e("to_array"))?,
        seq_stacked::on(b, (0..n).map(|i| vector_elem(i, 2)).collect::<Vec<_>>()).map_err(e("on"))?,
    )
}

fn same<T: accel::Elem, const R: usize>(got: Array<T, R>, want: Array<T, R>) -> Result<(), String>
where
    T::Columns: PartialEq,
{
    if got == want {
        return Ok(());
    }
    let (g, w) = (got.to_vec(), want.to_vec());
    match g.iter().zip(&w).position(|(a, b)| a != b) {
        Some(i) => Err(format!(
            "element {i} (of {}): got {:?}, want {:?}",
            w.len(),
            g[i],
            w[i]
        )),
        None => Err(format!("shape {:?}, want {:?}", got.shape(), want.shape())),
    }
}

/// Runs every check at each of `sizes` on this rank; the failures, named.
pub fn run_all(comm: &Arc<dyn Comm>, backend: &Backend, sizes: &[usize]) -> Vec<String> {
    let mut failures = Vec::new();
    for (name, check) in CHECKS {
        for &n in sizes {
            if let Err(why) = check(comm, backend, n) {
                failures.push(format!(
                    "rank {} of {}: {name}, {n} rows: {why}",
                    comm.rank(),
                    comm.size()
                ));
            }
        }
    }
    failures
}
