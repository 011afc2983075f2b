//! Comparing an executor's result with the interpreter's, for the random
//! programs (compiled into the generated runner crate, see
//! `tests/random_programs.rs`).
//!
//! Integers and bools compare exactly; floats exactly too (NaN equals NaN,
//! an infinity only the same infinity, `-0.0 == 0.0`) unless the program
//! combines floats in an order that differs between executors (a parallel
//! sum), where finite values may differ by `tol` relative to the larger
//! magnitude, with `tol` as an absolute floor. Errors must be of the same kind.

use accel::dynamic::{Dyn, Value};

/// The dynamic form used for comparisons: a Rust tuple of scalars becomes
/// one scalar tuple value, as the interpreter has it.
pub fn normalise(d: Dyn) -> Dyn {
    match d {
        Dyn::Tuple(xs) => {
            let xs: Vec<Dyn> = xs.into_iter().map(normalise).collect();
            if xs.iter().all(|x| matches!(x, Dyn::Scalar(_))) {
                let vs = xs
                    .into_iter()
                    .filter_map(|x| match x {
                        Dyn::Scalar(v) => Some(v),
                        _ => None,
                    })
                    .collect();
                Dyn::Scalar(Value::Tuple(vs))
            } else {
                Dyn::Tuple(xs)
            }
        }
        d => d,
    }
}

fn float_eq(a: f64, b: f64, tol: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() || tol == 0.0 {
        return a == b;
    }
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

pub fn value_eq(a: &Value, b: &Value, tol32: f64, tol64: f64) -> bool {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => float_eq(*x as f64, *y as f64, tol32),
        (Value::F64(x), Value::F64(y)) => float_eq(*x, *y, tol64),
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| value_eq(x, y, tol32, tol64))
        }
        _ => a == b,
    }
}

pub fn dyn_eq(a: &Dyn, b: &Dyn, tol32: f64, tol64: f64) -> bool {
    match (a, b) {
        (Dyn::Array(x), Dyn::Array(y)) => {
            x.shape == y.shape
                && x.elems.len() == y.elems.len()
                && x.elems
                    .iter()
                    .zip(&y.elems)
                    .all(|(p, q)| value_eq(p, q, tol32, tol64))
        }
        (Dyn::Scalar(x), Dyn::Scalar(y)) => value_eq(x, y, tol32, tol64),
        (Dyn::Tuple(xs), Dyn::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(p, q)| dyn_eq(p, q, tol32, tol64))
        }
        _ => false,
    }
}

fn short(s: String) -> String {
    let s = s.replace('\n', " ");
    if s.len() > 600 {
        let mut end = 600;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{} .. ({} chars)", &s[..end], s.len())
    } else {
        s
    }
}

/// The verdict for each executor's result, given the interpreter's `want`:
/// `ok`, `lazy`, or `MISMATCH ..`. Only computed work reports errors
/// (docs/language.md), and the interpreter and the compiled plan compute
/// different work: the interpreter builds intermediate arrays the plan fuses
/// away, while the plan materialises arrays that closures read by index and
/// the interpreter evaluates only if a read runs. So where either side fails,
/// the other may succeed or fail otherwise: that is `lazy` when the executors
/// all agree (equal values, or errors of one kind). Executors share the plan,
/// so they must always agree with each other.
pub fn judge(want: &accel::Result<Dyn>, gots: &[accel::Result<Dyn>], reordered: bool) -> Vec<String> {
    let (t32, t64) = if reordered { (1e-3, 1e-9) } else { (0.0, 0.0) };
    let agree = |a: &accel::Result<Dyn>, b: &accel::Result<Dyn>| match (a, b) {
        (Ok(a), Ok(b)) => dyn_eq(a, b, t32, t64),
        (Err(a), Err(b)) => a.kind() == b.kind(),
        _ => false,
    };
    let all_agree = gots.iter().all(|g| agree(&gots[0], g));
    gots.iter()
        .map(|g| match differs(want, g, reordered) {
            None => "ok".to_string(),
            Some(_)
                if (want.is_err() || g.is_err()) && all_agree && program_error(want) && program_error(g) =>
            {
                "lazy".to_string()
            }
            Some(d) => format!("MISMATCH {d}"),
        })
        .collect()
}

/// Whether `r` is a value or an error a program may raise (out of bounds,
/// shapes, empty reductions, arguments, memory): a panic, a device failure or
/// an unavailable backend is never excused as work computed elsewhere.
fn program_error(r: &accel::Result<Dyn>) -> bool {
    use accel::ErrorKind as K;
    match r {
        Ok(_) => true,
        Err(e) => {
            e.op() != "panic"
                && matches!(
                    e.kind(),
                    K::IndexOutOfBounds
                        | K::ShapeMismatch
                        | K::EmptyReduction
                        | K::InvalidArgument
                        | K::OutOfMemory
                )
        }
    }
}

/// `None` when `got` agrees with `want`; otherwise what differs, on one line.
pub fn differs(want: &accel::Result<Dyn>, got: &accel::Result<Dyn>, reordered: bool) -> Option<String> {
    let (t32, t64) = if reordered { (1e-3, 1e-9) } else { (0.0, 0.0) };
    match (want, got) {
        (Ok(w), Ok(g)) if dyn_eq(w, g, t32, t64) => None,
        (Err(w), Err(g)) if w.kind() == g.kind() => None,
        (w, g) => Some(short(format!("interpreter: {w:?} | executor: {g:?}"))),
    }
}

/// What a caught panic said.
pub fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    let what = p
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    format!("the executor panicked: {what}")
}
