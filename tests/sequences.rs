//! Sequences (`Seq<A>`): streamed parameters, slices of arrays (`rows`,
//! `to_seq`), `map` and `zip_with` with per-element array programs, and the
//! folds that consume them, against the interpreter (which reads sequences
//! as lists) on every backend: empty sequences, irregular ones, zips of
//! different lengths, nested sequences, several consumers of one sequence.

mod common;

use accel::dynamic::Dyn;
use accel::prelude::*;
use accel::ErrorKind;
use common::*;
use proptest::prelude::*;

accel! {
    fn dotp(xs: Seq<Vector<f32>>, ys: Seq<Vector<f32>>) -> Scalar<f32> {
        xs.zip_with(ys, |x, y| x.zip_with(y, |a, b| a * b).sum()).sum()
    }
    fn max_sum(xs: Seq<Scalar<i32>>) -> (Scalar<i32>, Scalar<i32>) {
        (xs.sum(), xs.maximum())
    }
    fn row_products(m: &Matrix<i64>, v: &Vector<i64>) -> (Scalar<i64>, Scalar<i64>, Scalar<i64>) {
        let s = m.rows().map(|r| r.zip_with(v, |a, b| a * b).sum());
        (s.sum(), s.minimum(), s.fold(7, |a, b| a ^ b))
    }
    fn weighted(w: &Vector<i64>, xs: Seq<Vector<i64>>) -> Scalar<i64> {
        let s = w.to_seq().zip_with(xs, |k, x| (k.value() | 1, x.map(|y| y * k.value()).sum().value()));
        // Composition of affine maps: associative, not commutative.
        s.fold((1, 0), |p, q| (p.0 * q.0, p.1 * q.0 + q.1)).map(|t| t.0 ^ t.1)
    }
    fn weighted_rows(w: &Vector<i64>, m: &Matrix<i64>) -> Scalar<i64> {
        let s = w.to_seq().zip_with(m.rows(), |k, x| (k.value() | 1, x.map(|y| y * k.value()).sum().value()));
        s.fold((1, 0), |p, q| (p.0 * q.0, p.1 * q.0 + q.1)).map(|t| t.0 ^ t.1)
    }
    fn mat_vec(m: &Matrix<i64>, v: &Vector<i64>) -> (Vector<i64>, Matrix<i64>, Vector<i64>) {
        let rows = m.rows();
        let doubled = rows.map(|r| r.map(|x| 2 * x)).tabulate();
        let flat = v.to_seq().map(|x| x.map(|y| (y, y + 1))).map(|p| p.map(|q| q.0 * q.1)).collect();
        (rows.map(|r| r.zip_with(v, |a, b| a * b).sum()).collect(), doubled, flat)
    }
    fn rev_scans(m: &Matrix<i64>) -> Scalar<i64> {
        m.rows().map(|r| r.reverse().scanl1(|a, b| a + b).reshape([r.len(), 1]).fold(0, |a, b| a + b).fold(0, |a, b| a.max(b))).sum()
    }
    fn nested(a: &Array<i32, 3>) -> Scalar<i32> {
        a.rows().map(|m| m.rows().map(|r| r.sum()).maximum()).sum()
    }
    fn splits(m: &Matrix<i64>, a: &Array<i64, 3>) -> (Scalar<i64>, Scalar<i64>, Matrix<i64>) {
        let cols = m.split([All, Split]).map(|c| (c.sum().value() | 1, c.map(|x| x * 2).sum().value()));
        let mids = a.split([Split, All, Split]).map(|v| v.map(|x| x * x).sum());
        let order = cols.fold((1, 0), |p, q| (p.0 * q.0, p.1 * q.0 + q.1)).map(|t| t.0 ^ t.1);
        (order, mids.sum(), m.split([All, Split]).tabulate())
    }
    fn array_folds(xs: Seq<Vector<i64>>, m: &Matrix<i64>) -> (Vector<i64>, Vector<i64>) {
        let [_, c] = m.shape();
        let by_rows = m.rows().fold(fill([c], 0), |acc, r| acc.zip_with(r, |a, b| a * 3 + b));
        let streamed = xs.fold(fill([5], 1), |acc, x| acc.zip_with(x, |a, b| a ^ b).map(|v| v + 1));
        (by_rows, streamed)
    }
    fn flatten_stats(xs: Seq<Vector<i64>>, m: &Matrix<i64>) -> (Vector<i64>, Vector<i64>) {
        // Elements seen, values seen, their sum: whatever the groups.
        let streamed = xs.fold_flatten(fill([3], 0i64), |acc, lens, vals| {
            let c = lens.len() as i64;
            let n = lens.map(|l| l as i64).sum();
            let s = vals.sum();
            generate([3], |[i]| acc[[i]] + if i == 0 { c } else if i == 1 { n.value() } else { s.value() })
        });
        let rows = m.rows().fold_flatten(fill([2], 7i64), |acc, lens, vals| {
            let s = vals.map(|v| v * v).sum();
            generate([2], |[i]| acc[[i]] + if i == 0 { lens.len() as i64 } else { s.value() })
        });
        (streamed, rows)
    }
    fn scaled(xs: Seq<Vector<f64>>, k: f64) -> Seq<Vector<f64>> {
        xs.map(|x| x.map(|v| v * k))
    }
    fn normalised(xs: Seq<Vector<f64>>, w: &Vector<f64>) -> Seq<Vector<f64>> {
        let total = w.map(|v| v.abs()).sum();
        let s = xs.map(|x| x.map(|v| v / (total.value() + 1.0)));
        s.map(|x| x.zip_with(w, |a, b| a * b))
    }
    fn row_sums(m: &Matrix<i64>) -> Seq<Scalar<i64>> {
        m.rows().map(|r| r.sum())
    }
    fn weighted_dots(xs: Seq<Vector<i64>>, ys: Seq<Vector<i64>>, w: &Vector<i64>) -> Seq<Scalar<i64>> {
        xs.zip_with(ys, |x, y| x.zip_with(y, |a, b| a * b).zip_with(w, |p, q| p * q).sum())
    }
    fn rows_times_stream(xs: Seq<Vector<i64>>, m: &Matrix<i64>) -> Seq<Scalar<i64>> {
        xs.zip_with(m.rows(), |x, r| x.zip_with(r, |a, b| a * b).sum())
    }
    fn weighted_stream(w: &Vector<i64>, xs: Seq<Vector<i64>>, k: i64) -> Seq<Vector<i64>> {
        // Slices on both sides of a stream, one of them a column.
        let cols = w.to_seq().zip_with(xs, |c, x| x.map(|v| v * c.value() + k));
        cols.zip_with(w.reverse().to_seq(), |x, d| x.map(|v| v - d.value()))
    }
    fn dot_scalars(xs: Seq<Scalar<i64>>, ys: Seq<Scalar<i64>>) -> Scalar<i64> {
        xs.zip_with(ys, |x, y| x.value() * y.value()).sum()
    }
    fn scaled_rows(m: Seq<Vector<f64>>, alpha: f64) -> Scalar<f64> {
        m.map(|r| r.map(|x| x * alpha)).map(|r| r.maximum()).fold(0.0, |a, b| a + b)
    }
    fn collected(xs: Seq<Vector<i64>>, k: i64) -> Vector<i64> {
        xs.map(|x| x.map(|v| v * k)).collect()
    }
    fn tabulated(xs: Seq<Vector<i64>>, w: &Vector<i64>) -> Matrix<i64> {
        w.to_seq().zip_with(xs, |c, x| x.map(|v| v - c.value())).tabulate()
    }
    fn sum_and_values(xs: Seq<Scalar<i64>>) -> (Scalar<i64>, Vector<i64>, Scalar<i64>) {
        let s = xs.map(|x| x.map(|v| v * 3 + 1));
        (s.sum(), s.tabulate(), s.maximum())
    }
    fn sorted_rows(xs: Seq<Vector<i32>>) -> (Matrix<i32>, Vector<i32>) {
        // `sort` does not lift: one element per iteration.
        let s = xs.map(|x| x.sort());
        (s.tabulate(), s.collect())
    }
}

/// Vectors of lengths around `len` (irregular when `jitter`).
fn vectors<S: Strategy + Clone>(elem: S, n: usize, len: usize) -> impl Strategy<Value = Vec<Vector<S::Value>>>
where
    S::Value: accel::Elem + std::fmt::Debug,
{
    prop::collection::vec(vector(elem, len), 0..=n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    #[test]
    fn dot_products_of_streams(xs in vectors(-4.0f32..4.0, 9, 40), ys in vectors(-4.0f32..4.0, 9, 40), chunk in 0usize..4) {
        let args = [seq_arg(&xs), seq_arg(&ys)];
        let mag = xs.iter().flat_map(|x| x.to_vec()).map(|x| (x * 16.0).abs() as f64).sum::<f64>() + 1.0;
        let r = accel::with_chunk_len(chunk, || dotp(xs.clone(), ys.clone()));
        check_ok(dotp::SOURCE, "dotp", &args, r, sum_tol(1e-5, mag));
    }

    /// Two streams zipped, in chunks: blocks of different lengths in each, so
    /// that chunks are cut to the shorter and the rest pulled again.
    #[test]
    fn zips_of_streams_of_blocks(xs in prop::collection::vec(vector(-1000i64..1000, 7), 0..6), ys in prop::collection::vec(vector(-1000i64..1000, 5), 0..8), chunk in 0usize..5) {
        let scalars = |bs: &[Vector<i64>]| bs.iter().flat_map(|b| b.to_vec()).map(Scalar::new).collect::<Vec<_>>();
        let args = [seq_arg(&scalars(&xs)), seq_arg(&scalars(&ys))];
        let r = accel::with_chunk_len(chunk, || dot_scalars(Stream::chunks(xs.clone()), Stream::chunks(ys.clone())));
        check_ok(dot_scalars::SOURCE, "dot_scalars", &args, r, EXACT);
    }

    #[test]
    fn several_consumers_share_one_traversal(xs in prop::collection::vec(any::<i32>(), 0..30), chunk in 0usize..5) {
        let items: Vec<Scalar<i32>> = xs.iter().map(|x| Scalar::new(*x)).collect();
        let args = [seq_arg(&items)];
        let r = accel::with_chunk_len(chunk, || max_sum(items.clone()));
        check_ok(max_sum::SOURCE, "max_sum", &args, r, EXACT);
    }

    #[test]
    fn rows_of_a_matrix(m in matrix(-1000i64..1000, 12, 9), v in vector(-1000i64..1000, 12), chunk in 0usize..5) {
        let args = [arg(&m), arg(&v)];
        let r = accel::with_chunk_len(chunk, || row_products(&m, &v));
        check_ok(row_products::SOURCE, "row_products", &args, r, EXACT);
    }

    #[test]
    fn zips_of_slices_and_streams(w in vector(-50i64..50, 12), xs in vectors(-50i64..50, 12, 8), chunk in 0usize..5) {
        let args = [arg(&w), seq_arg(&xs)];
        let r = accel::with_chunk_len(chunk, || weighted(&w, xs.clone()));
        check_ok(weighted::SOURCE, "weighted", &args, r, EXACT);
    }

    #[test]
    fn chunks_of_slices(w in vector(-50i64..50, 30), m in matrix(-50i64..50, 40, 6), chunk in 0usize..7) {
        let args = [arg(&w), arg(&m)];
        let r = accel::with_chunk_len(chunk, || weighted_rows(&w, &m));
        check_ok(weighted_rows::SOURCE, "weighted_rows", &args, r, EXACT);
    }

    /// `split`: columns of a matrix (in order), the middle dimension of a
    /// rank-3 array, and columns stacked (a transpose).
    #[test]
    fn splits_along_any_dimensions(m in matrix(-50i64..50, 9, 8), a in array3(-50i64..50, 4, 5, 6), chunk in 0usize..5) {
        let args = [arg(&m), arg(&a)];
        let r = accel::with_chunk_len(chunk, || splits(&m, &a));
        check_ok(splits::SOURCE, "splits", &args, r, EXACT);
    }

    /// Folds of arrays, in sequence order (the operators are not associative);
    /// a shorter element shortens the accumulator (`zip_with`).
    #[test]
    fn folds_of_arrays(xs in vectors(-50i64..50, 8, 7), m in matrix(-50i64..50, 9, 6), chunk in 0usize..4) {
        let args = [seq_arg(&xs), arg(&m)];
        let r = accel::with_chunk_len(chunk, || array_folds(xs.clone(), &m));
        check_ok(array_folds::SOURCE, "array_folds", &args, r, EXACT);
    }

    /// `fold_flatten` over groups of vectors (chunks, or one at a time).
    #[test]
    fn folds_of_flattened_groups(xs in vectors(-50i64..50, 10, 6), m in matrix(-50i64..50, 9, 6), chunk in 0usize..4) {
        let args = [seq_arg(&xs), arg(&m)];
        let r = accel::with_chunk_len(chunk, || flatten_stats(xs.clone(), &m));
        check_ok(flatten_stats::SOURCE, "flatten_stats", &args, r, EXACT);
    }

    #[test]
    fn collect_and_tabulate(m in matrix(-1000i64..1000, 12, 9), v in vector(-1000i64..1000, 12)) {
        let args = [arg(&m), arg(&v)];
        check_ok(mat_vec::SOURCE, "mat_vec", &args, mat_vec(&m, &v), EXACT);
    }

    #[test]
    fn chunks_of_backpermutes_scans_and_reshapes(m in matrix(-100i64..100, 20, 7), chunk in 0usize..6) {
        let args = [arg(&m)];
        let r = accel::with_chunk_len(chunk, || rev_scans(&m));
        check_ok(rev_scans::SOURCE, "rev_scans", &args, r, EXACT);
    }

    #[test]
    fn sequences_inside_sequences(a in array3(-100i32..100, 5, 4, 6), chunk in 0usize..4) {
        let args = [arg(&a)];
        let r = accel::with_chunk_len(chunk, || nested(&a));
        check_ok(nested::SOURCE, "nested", &args, r, EXACT);
    }

    #[test]
    fn maps_of_streams(m in vectors(-9.0f64..9.0, 10, 7), alpha in -3.0f64..3.0, chunk in 0usize..4) {
        let args = [seq_arg(&m), arg(alpha)];
        // Chunks of an irregular stream are runs of one shape; a chunk's
        // maxima are added in another order than one by one.
        let r = accel::with_chunk_len(chunk, || scaled_rows(m.clone(), alpha));
        let r = check(scaled_rows::SOURCE, "scaled_rows", &args, r, sum_tol(1e-12, 30.0 * 27.0));
        // An empty row has no maximum: the run fails as the interpreter does.
        prop_assert_eq!(r.is_err(), m.iter().any(|r| r.is_empty()));
    }
}

/// A returned sequence, collected, as the interpreter gives it.
struct Returned(Dyn);

impl accel::dynamic::ToDyn for Returned {
    fn to_dyn(&self) -> Dyn {
        self.0.clone()
    }
}

fn returned<T: accel::Elem, const R: usize>(
    r: accel::Result<accel::SeqOut<'_, T, R>>,
) -> accel::Result<Returned> {
    let xs = r?.collect::<accel::Result<Vec<_>>>()?;
    Ok(Returned(seq_arg(&xs)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    /// Programs that return a sequence: of a stream (irregular, in chunks),
    /// of two streams zipped (cut to the shorter), of the rows of an array.
    #[test]
    fn returned_sequences(xs in vectors(-9.0f64..9.0, 10, 5), k in -3.0f64..3.0, m in matrix(-50i64..50, 9, 6),
                          ys in vectors(-50i64..50, 9, 4), zs in vectors(-50i64..50, 12, 4), w in vector(-5i64..5, 5), chunk in 0usize..4) {
        let r = accel::with_chunk_len(chunk, || returned(scaled(xs.clone(), k)));
        check_ok(scaled::SOURCE, "scaled", &[seq_arg(&xs), arg(k)], r, EXACT);
        let wf = Vector::from(w.to_vec().iter().map(|x| *x as f64).collect::<Vec<f64>>());
        let r = accel::with_chunk_len(chunk, || returned(normalised(xs.clone(), &wf)));
        check_ok(normalised::SOURCE, "normalised", &[seq_arg(&xs), arg(&wf)], r, 1e-12);
        let r = accel::with_chunk_len(chunk, || returned(row_sums(&m)));
        check_ok(row_sums::SOURCE, "row_sums", &[arg(&m)], r, EXACT);
        let r = accel::with_chunk_len(chunk, || returned(weighted_dots(ys.clone(), zs.clone(), &w)));
        check_ok(weighted_dots::SOURCE, "weighted_dots", &[seq_arg(&ys), seq_arg(&zs), arg(&w)], r, EXACT);
    }

    /// Returned sequences that zip streams with slices of arrays: each chunk
    /// takes the next slices, and the sequence ends with the shorter side.
    #[test]
    fn returned_zips_of_streams_and_slices(xs in vectors(-50i64..50, 12, 5), m in matrix(-50i64..50, 12, 5),
                                           w in vector(-5i64..5, 14), k in -3i64..3, chunk in 0usize..5) {
        let r = accel::with_chunk_len(chunk, || returned(rows_times_stream(xs.clone(), &m)));
        check(rows_times_stream::SOURCE, "rows_times_stream", &[seq_arg(&xs), arg(&m)], r, EXACT).ok();
        let r = accel::with_chunk_len(chunk, || returned(weighted_stream(&w, xs.clone(), k)));
        check_ok(weighted_stream::SOURCE, "weighted_stream", &[arg(&w), seq_arg(&xs), arg(k)], r, EXACT);
    }
}

/// The rows of `m`, as vectors.
fn rows_of<T: accel::Elem>(m: &Matrix<T>) -> Vec<Vector<T>> {
    let [r, c] = m.shape();
    let xs = m.to_vec();
    (0..r)
        .map(|i| Vector::from(xs[i * c..(i + 1) * c].to_vec()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    /// `Stream::chunks`: the elements are the rows of blocks of any lengths,
    /// taken whole or in pieces whatever the chunk length.
    #[test]
    fn streams_of_blocks(blocks in prop::collection::vec(vector(any::<i32>(), 7), 0..6), chunk in 0usize..5) {
        let items: Vec<Scalar<i32>> = blocks.iter().flat_map(|b| b.to_vec()).map(Scalar::new).collect();
        let args = [seq_arg(&items)];
        let r = accel::with_chunk_len(chunk, || max_sum(Stream::chunks(blocks.clone())));
        check_ok(max_sum::SOURCE, "max_sum", &args, r, EXACT);
    }

    /// Blocks whose rows differ in length from block to block.
    #[test]
    fn streams_of_irregular_blocks(blocks in prop::collection::vec(matrix(-9.0f64..9.0, 5, 4), 0..5), alpha in -3.0f64..3.0, chunk in 0usize..4) {
        let rows: Vec<Vector<f64>> = blocks.iter().flat_map(rows_of).collect();
        let args = [seq_arg(&rows), arg(alpha)];
        let r = accel::with_chunk_len(chunk, || scaled_rows(Stream::chunks(blocks.clone()), alpha));
        let r = check(scaled_rows::SOURCE, "scaled_rows", &args, r, sum_tol(1e-12, 30.0 * 27.0));
        prop_assert_eq!(r.is_err(), rows.iter().any(|r| r.is_empty()));
    }
}

/// Whether the first `n` of `xs` have different lengths (a `tabulate`
/// of them fails).
fn ragged<T: accel::Elem>(xs: &[Vector<T>], n: usize) -> bool {
    xs.iter().take(n).any(|x| x.len() != xs[0].len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    /// `collect` and `tabulate` of streams: in chunks (with a fold in the
    /// same traversal, zipped with slices), or one element at a time; a
    /// `tabulate` of elements of different shapes fails as the interpreter
    /// does.
    #[test]
    fn collects_of_streams(xs in vectors(-50i64..50, 12, 5), m in matrix(-50i64..50, 12, 4), w in vector(-5i64..5, 14),
                           ys in prop::collection::vec(-1000i64..1000, 0..40), k in -3i64..3, chunk in 0usize..5) {
        let r = accel::with_chunk_len(chunk, || collected(xs.clone(), k));
        check_ok(collected::SOURCE, "collected", &[seq_arg(&xs), arg(k)], r, EXACT);
        // Regular (the rows of a matrix), then as they come.
        for xs in [rows_of(&m), xs.clone()] {
            let r = accel::with_chunk_len(chunk, || tabulated(xs.clone(), &w));
            let r = check(tabulated::SOURCE, "tabulated", &[seq_arg(&xs), arg(&w)], r, EXACT);
            let bad = ragged(&xs, w.len());
            prop_assert!(r.is_ok() != bad, "{:?}", r);
            if bad {
                prop_assert_eq!(r.unwrap_err(), ErrorKind::ShapeMismatch);
            }
        }
        let items: Vec<Scalar<i64>> = ys.iter().map(|y| Scalar::new(*y)).collect();
        let r = accel::with_chunk_len(chunk, || sum_and_values(items.clone()));
        check_ok(sum_and_values::SOURCE, "sum_and_values", &[seq_arg(&items)], r, EXACT);
        let blocks = vec![Vector::from(ys.clone()), Vector::from(ys.iter().map(|y| y / 7).collect::<Vec<_>>())];
        let all: Vec<Scalar<i64>> = blocks.iter().flat_map(|b| b.to_vec()).map(Scalar::new).collect();
        let r = accel::with_chunk_len(chunk, || sum_and_values(Stream::chunks(blocks.clone())));
        check_ok(sum_and_values::SOURCE, "sum_and_values", &[seq_arg(&all)], r, EXACT);
    }

    #[test]
    fn collects_one_element_at_a_time(xs in vectors(-50i32..50, 9, 6)) {
        let r = sorted_rows(xs.clone());
        let r = check(sorted_rows::SOURCE, "sorted_rows", &[seq_arg(&xs)], r, EXACT);
        prop_assert!(r.is_ok() != ragged(&xs, xs.len()), "{:?}", r);
    }
}

/// A failed block is reported at the position of its first element.
#[test]
fn an_error_in_a_block_names_its_first_element() {
    let blocks = (0..4).map(|i| {
        if i == 2 {
            Err(accel::Error::new("read", "bad sector"))
        } else {
            Ok(Vector::from(vec![i; 3]))
        }
    });
    let e = max_sum(Stream::fallible_chunks(blocks)).unwrap_err();
    assert!(
        e.to_string().contains("element 6") && e.to_string().contains("bad sector"),
        "{e}"
    );
}

/// Which loops run in chunks: slices and streams whose per-element programs
/// lift.
#[test]
fn explain_says_which_loops_run_in_chunks() {
    assert!(
        max_sum::explain().contains("(a chunk of elements per iteration)"),
        "{}",
        max_sum::explain()
    );
    assert!(scaled_rows::explain().contains("(a chunk of elements per iteration)"));
    assert!(dotp::explain().contains("(a chunk of elements per iteration)"));
    assert!(weighted::explain().contains("(a chunk of elements per iteration)"));
    assert!(flatten_stats::explain().contains("(a chunk of elements per iteration)"));
    // Folds of arrays combine one element at a time.
    assert!(array_folds::explain().contains("(one element per iteration)"));
    assert!(row_products::explain().contains("while (state (chunk"));
    assert!(
        rev_scans::explain().contains("while (state (chunk"),
        "{}",
        rev_scans::explain()
    );
    // A program returning a sequence shows the plan and the PTX of one chunk.
    assert_eq!(scaled::explain_dot(), __scaled_chunk::explain_dot());
    assert!(
        scaled::explain_dot().starts_with("digraph"),
        "{}",
        scaled::explain_dot()
    );
    assert!(scaled::ptx().contains(".entry") || scaled::ptx().starts_with("// not compiled"));
}

#[test]
fn a_regular_stream_rejects_an_element_of_another_shape() {
    let items = vec![Vector::from(vec![1.0f32, 2.0]), Vector::from(vec![3.0f32])];
    let ys = vec![Vector::from(vec![1.0f32, 1.0]); 2];
    let e = dotp(Stream::regular([2], items), ys).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ShapeMismatch);
    assert!(e.to_string().contains("element 1"), "{e}");
}

#[test]
fn progress_is_reported_and_a_run_can_be_cancelled() {
    let mut seen = Vec::new();
    let items = (0..10).map(Scalar::new);
    let (s, _) = accel::with_chunk_len(4, || {
        max_sum(Stream::new(items).with_progress(|n| {
            seen.push(n);
            true
        }))
    })
    .unwrap();
    assert_eq!(s.value(), 45);
    assert_eq!(seen, (1..=10).collect::<Vec<_>>());
    let items = (0..1000).map(Scalar::new);
    let e = max_sum(Stream::new(items).with_progress(|n| n < 7)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Cancelled);
    assert!(e.to_string().contains("cancelled after 7 elements"), "{e}");
}

#[test]
fn an_error_from_the_iterator_stops_the_run() {
    let items = (0..5).map(|i| {
        if i == 3 {
            Err(accel::Error::new("read", "disk on fire"))
        } else {
            Ok(Scalar::new(i))
        }
    });
    let e = max_sum(Stream::fallible(items)).unwrap_err();
    assert!(
        e.to_string().contains("element 3") && e.to_string().contains("disk on fire"),
        "{e}"
    );
}

/// Compiled programs pull a stream as they go (the interpreter, the oracle,
/// reads it whole first: it is not run here).
#[test]
fn a_stream_is_pulled_lazily() {
    let backends = [
        Backend::cpu(),
        Backend::ptx_sim().expect("the simulator is always available"),
    ];
    for b in &backends {
        // An endless iterator: the zip ends with the shorter, finite sequence.
        let w = Vector::from(vec![1i64, 2, 3]);
        let xs = (0..).map(|i| Vector::from(vec![i as i64; 2]));
        let r = weighted::on(b, &w, Stream::new(xs)).unwrap();
        // Element i is (w[i] | 1, 2 i w[i]): (1, 0), (3, 4), (3, 12); composed
        // from (1, 0): (9, (0 * 3 + 4) * 3 + 12).
        assert_eq!(r.value(), 9 ^ 24);
    }
}

/// `Stream::fill_ahead`: blocks filled on a reader thread into storage that
/// comes back once used (a few buffers, whatever the number of blocks);
/// errors and blocks that are not whole rows stop the run.
#[test]
fn blocks_filled_ahead_reuse_their_storage() {
    use std::collections::HashSet;
    use std::sync::{Arc, Mutex};
    for chunk in [0, 1, 3, 7] {
        let buffers = Arc::new(Mutex::new(HashSet::new()));
        let seen = buffers.clone();
        let mut next = 0i32;
        let s = Stream::fill_ahead(2, [], move |buf: &mut Vec<i32>| {
            buf.clear();
            buf.reserve(5);
            seen.lock().unwrap().insert(buf.as_ptr() as usize);
            while buf.len() < 5 && next < 1003 {
                buf.push(next);
                next += 1;
            }
            Ok(!buf.is_empty())
        });
        let (sum, max) = accel::with_chunk_len(chunk, || max_sum(s)).unwrap();
        assert_eq!(
            (sum.value(), max.value()),
            ((0..1003).sum(), 1002),
            "chunk {chunk}"
        );
        let n = buffers.lock().unwrap().len();
        assert!(n <= 4, "{n} buffers for 201 blocks (chunk {chunk})");
    }

    let mut k = 0;
    let failing = Stream::fill_ahead(1, [], move |buf: &mut Vec<i32>| {
        k += 1;
        if k == 3 {
            return Err(accel::Error::new("read", "bad sector"));
        }
        *buf = vec![1; 4];
        Ok(true)
    });
    let e = max_sum(failing).unwrap_err();
    assert!(
        e.to_string().contains("element 8") && e.to_string().contains("bad sector"),
        "{e}"
    );

    let ragged = Stream::fill_ahead(1, [2], |buf: &mut Vec<f32>| {
        *buf = vec![1.0; 5];
        Ok(true)
    });
    let e = dotp(ragged, vec![Vector::from(vec![1.0f32; 2]); 3]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ShapeMismatch, "{e}");
}

/// The progress bar (the `progress` feature) follows the run without
/// changing it; off a terminal it draws nothing.
#[test]
fn a_progress_bar_leaves_results_alone() {
    let items = (0..1000).map(Scalar::new);
    let (s, m) =
        accel::with_chunk_len(64, || max_sum(Stream::new(items).with_progress_bar(Some(1000)))).unwrap();
    assert_eq!((s.value(), m.value()), (499_500, 999));
    let (s, _) = max_sum(Stream::new((0..10).map(Scalar::new)).with_progress_bar(None)).unwrap();
    assert_eq!(s.value(), 45);
}

/// A producer that panics on its own thread is never taken for the end of
/// the stream: `read_ahead` resumes the panic in the program's thread, and
/// `fill_ahead` makes it the run's error.
#[test]
fn a_panic_on_the_reader_thread_is_not_the_end_of_the_stream() {
    let items = (0..10).map(|i| {
        if i == 5 {
            panic!("the reader broke");
        }
        Scalar::new(i)
    });
    let r = std::panic::catch_unwind(|| max_sum(Stream::new(accel::read_ahead(1, items))));
    assert!(r.is_err(), "the run ended as if the stream had: {r:?}");

    let mut k = 0;
    let s = Stream::fill_ahead(1, [], move |buf: &mut Vec<i32>| {
        k += 1;
        assert!(k < 3, "the file is gone");
        *buf = vec![1; 4];
        Ok(true)
    });
    let e = max_sum(s).unwrap_err();
    assert!(e.to_string().contains("the file is gone"), "{e}");
}

/// `fill_ahead` on the interpreter, which reads a stream whole: blocks of
/// one element each, more than the reader's buffers.
#[test]
fn blocks_filled_ahead_on_the_interpreter() {
    let mut next = 0i32;
    let s = Stream::fill_ahead(1, [], move |buf: &mut Vec<i32>| {
        *buf = vec![next];
        next += 1;
        Ok(next <= 50)
    });
    let interp = Backend::interp().expect("the tests build the interpreter");
    let (sum, max) = max_sum::on(&interp, s).unwrap();
    assert_eq!((sum.value(), max.value()), ((0..50).sum(), 49));
}

/// A returned sequence is computed as it is asked for: an endless stream
/// gives its first elements after a chunk or two.
#[test]
fn a_returned_sequence_is_lazy() {
    let pulled = std::cell::Cell::new(0);
    let xs = Stream::new((0..).map(|i| Vector::from(vec![i as f64, 1.0]))).with_progress(|n| {
        pulled.set(n);
        true
    });
    let first: Vec<Vector<f64>> = accel::with_chunk_len(4, || {
        scaled(xs, 2.0).unwrap().take(5).collect::<accel::Result<_>>()
    })
    .unwrap();
    assert_eq!(first[4].to_vec(), vec![8.0, 2.0]);
    assert_eq!(pulled.get(), 8, "two chunks of 4");
    // An error stops the sequence; the elements before it are kept.
    let bad = Stream::fallible((0..10).map(|i| {
        if i == 6 {
            Err(accel::Error::new("read", "bad sector"))
        } else {
            Ok(Vector::from(vec![i as f64]))
        }
    }));
    let got: Vec<accel::Result<Vector<f64>>> =
        accel::with_chunk_len(3, || scaled(bad, 1.0).unwrap().collect());
    assert_eq!(got.len(), 7);
    assert!(got[..6].iter().all(|x| x.is_ok()));
    assert!(got[6]
        .as_ref()
        .is_err_and(|e| e.to_string().contains("bad sector")));
}

/// `with_chunk_elems` bounds a chunk by its array elements: 400 elements of
/// sequence elements of 10 are chunks of 40, whatever the backend's choice.
#[test]
fn chunks_hold_the_elements_asked_for() {
    let pulled = std::cell::Cell::new(0);
    let xs = Stream::new((0..).map(|i| Vector::from(vec![i as f64; 10]))).with_progress(|n| {
        pulled.set(n);
        true
    });
    let first: Vec<Vector<f64>> = accel::with_chunk_elems(400, || {
        scaled(xs, 2.0).unwrap().take(5).collect::<accel::Result<_>>()
    })
    .unwrap();
    assert_eq!(first[4].to_vec(), vec![8.0; 10]);
    assert_eq!(pulled.get(), 40, "one chunk of 40 elements of 10");
}

/// A device memory limit (`Backend::with_device_mem_limit`, as
/// `ACCEL_DEVICE_MEM_LIMIT` sets for a whole process): a dot product of two
/// regular streams of twice the limit's size runs in chunks that fit, where
/// one chunk of the unlimited choice (every element at once) would not; the
/// same data as one array does not fit, and says so. The caller keeps the
/// streams' elements: their device copies are not (a stream's element is
/// uploaded for its chunk only).
#[test]
fn streams_run_within_a_device_memory_limit() {
    let limit = 64 << 10;
    let b = Backend::ptx_sim()
        .expect("the simulator is always available")
        .with_device_mem_limit(limit);
    // 40 vectors of 1000 f32 per stream: 160 KB each. Small integers, so
    // every partial sum is exact, in any order.
    let (n, len) = (40usize, 1000usize);
    let x = |k: usize, i: usize, j: usize| ((i * k + j) % 13) as f32 - 6.0;
    let elems = |k: usize| -> Vec<Vector<f32>> {
        (0..n)
            .map(|i| Vector::from((0..len).map(|j| x(k, i, j)).collect::<Vec<_>>()))
            .collect()
    };
    let (xs, ys) = (elems(7), elems(3));
    let stream = |v: &Vec<Vector<f32>>| Stream::regular([len], v.clone());
    let want: f32 = (0..n)
        .flat_map(|i| (0..len).map(move |j| x(7, i, j) * x(3, i, j)))
        .sum();
    let got = dotp::on(&b, stream(&xs), stream(&ys)).expect("a streamed program runs within the limit");
    assert_eq!(got.value(), want);
    // Chunks as large as without the limit: every element in one.
    let e = accel::with_chunk_elems(1 << 22, || dotp::on(&b, stream(&xs), stream(&ys)))
        .expect_err("a chunk of 160 KB on a 64 KiB device");
    assert_eq!(e.kind(), ErrorKind::OutOfMemory, "{e}");
    let whole = Matrix::from_vec([n, len], (0..n * len).map(|i| i as i64).collect()).unwrap();
    let v = Vector::from(vec![1i64; len]);
    let e = row_products::on(&b, &whole, &v).expect_err("320 KB of input on a 64 KiB device");
    assert_eq!(e.kind(), ErrorKind::OutOfMemory, "{e}");
    assert!(e.to_string().contains("ACCEL_DEVICE_MEM_LIMIT"), "{e}");
}

/// An endless stream zipped with the rows of an array: the returned
/// sequence ends with the rows, pulling at most a chunk past them.
#[test]
fn an_endless_stream_zipped_with_rows_ends_with_them() {
    let m = Matrix::from_vec([7, 2], (0..14).collect()).unwrap();
    let pulled = std::cell::Cell::new(0usize);
    let xs = (0i64..).map(|i| {
        pulled.set(pulled.get() + 1);
        Vector::from(vec![i, 1])
    });
    let out: Vec<i64> = accel::with_chunk_len(3, || {
        rows_times_stream(xs, &m)
            .unwrap()
            .map(|x| x.map(|s| s.value()))
            .collect::<accel::Result<_>>()
    })
    .unwrap();
    let want: Vec<i64> = (0..7).map(|i| i * (2 * i) + (2 * i + 1)).collect();
    assert_eq!(out, want);
    assert!(pulled.get() <= 7 + 3, "pulled {}", pulled.get());
}
