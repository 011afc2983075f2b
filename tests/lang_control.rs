//! Array-level control flow: `if` between arrays, `while` and `for` loops over
//! array state, tuples of arrays as values. Every program runs compiled (CPU)
//! and on the interpreter, and both are compared with a plain sequential Rust
//! reference written here, on random inputs including empty arrays, zero
//! iterations and both branches.

mod common;

use accel::dynamic::Dyn;
use accel::prelude::*;
use common::*;
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(24),
        max_shrink_iters: 100,
        ..ProptestConfig::default()
    }
}

/// Compiled and interpreted results agree, and the interpreter's equals `want`.
#[track_caller]
fn agree<T: accel::dynamic::ToDyn>(
    src: &str,
    name: &str,
    args: &[Dyn],
    compiled: accel::Result<T>,
    want: Dyn,
    tol: f64,
) {
    let got = check(src, name, args, compiled, tol).expect("the program succeeds");
    assert!(
        got.approx_eq(&normalise(want.clone()), tol),
        "`{name}` differs from the reference\n  got:  {got:?}\n  want: {want:?}"
    );
}

fn vf(xs: Vec<f32>) -> Dyn {
    arg(&Vector::from(xs))
}
fn vi(xs: Vec<i32>) -> Dyn {
    arg(&Vector::from(xs))
}

// ---- if between arrays ------------------------------------------------------

#[acc]
fn choose(xs: &Vector<f32>, flag: &Scalar<bool>) -> Vector<f32> {
    if flag.value() {
        xs.map(|x| x * 2.0)
    } else {
        xs.map(|x| x + 1.0).map(|x| x * x)
    }
}

#[acc]
fn by_sum(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) {
    let s = xs.sum();
    if s.value() > 0 {
        (xs.map(|x| x - 1), s)
    } else if s.value() == 0 {
        (xs, fill([], 7))
    } else {
        let n = xs.len();
        (xs.backpermute([n], |[i]| [n - 1 - i]), s.map(|v| -v))
    }
}

/// Only the taken branch runs: `fold1` of an empty vector is an error, but
/// only when that branch is taken.
#[acc]
fn guarded(xs: &Vector<i32>) -> Scalar<i32> {
    if xs.len() > 0 {
        xs.fold1(|a, b| a.max(b))
    } else {
        fill([], -1)
    }
}

/// An `if` statement that assigns an array, without `else`.
#[acc]
fn maybe_scale(xs: &Vector<f32>, k: f32) -> Vector<f32> {
    let mut ys = xs.map(|x| x + 0.5);
    if k > 1.0 {
        ys = ys.map(|y| y * k);
    }
    ys
}

#[acc]
fn pair_let(xs: &Vector<i32>) -> (Vector<i32>, Vector<i32>) {
    let (a, b) = (xs.map(|x| x * 3), xs.map(|x| x ^ 5));
    let c = a.zip_with(&b, |p, q| p + q);
    (c, b)
}

// ---- while ----------------------------------------------------------------------

/// Mixed array and scalar state; the condition reads the array.
#[acc]
fn halve(xs: &Vector<f32>, n: i32, eps: f32) -> (Vector<f32>, Scalar<i32>) {
    let mut x = xs.map(|v| v.abs());
    let mut i = 0;
    while i < n && x.sum().value() > eps {
        x = x.map(|v| v / 2.0);
        i += 1;
    }
    (x, fill([], i))
}

/// The state shrinks: pairwise sums until one element (or none) is left.
#[acc]
fn pairwise(xs: &Vector<i32>) -> Vector<i32> {
    let mut x = xs.map(|v| v);
    while x.len() > 1 {
        let h = x.len() / 2;
        let a = x.backpermute([h], |[i]| [2 * i]);
        let b = x.backpermute([h], |[i]| [2 * i + 1]);
        x = a.zip_with(&b, |p, q| p + q);
    }
    x
}

/// A tuple as loop state, and an array computed before the loop used in it.
#[acc]
fn tuple_state(xs: &Vector<i32>, n: i32) -> (Vector<i32>, Scalar<i32>) {
    let ys = xs.map(|v| v % 7);
    let mut t = (xs.map(|v| v), 0);
    while t.1 < n {
        t = (t.0.zip_with(&ys, |a, b| a * 3 + b), t.1 + 1);
    }
    (t.0, fill([], t.1))
}

// ---- for ---------------------------------------------------------------------------

#[acc]
fn for_acc(xs: &Vector<f32>, n: usize) -> Vector<f32> {
    let mut x = xs.map(|v| v);
    for i in 0..n {
        x = x.map(|v| v * 0.5 + i as f32);
    }
    x
}

/// Branches inside a loop, and two arrays of state swapped.
#[acc]
fn for_branch(xs: &Vector<i32>, ys: &Vector<i32>, n: i32) -> (Vector<i32>, Vector<i32>) {
    let mut a = xs.map(|v| v);
    let mut b = ys.map(|v| v);
    for i in 0..n {
        if i % 2 == 0 {
            a = a.zip_with(&b, |p, q| p - q);
        } else {
            let t = a;
            a = b;
            b = t;
        }
    }
    (a, b)
}

/// A histogram per iteration into defaults computed before the loop (which must
/// not be moved away), and a scalar loop whose body runs kernels.
#[acc]
fn hist_loop(xs: &Vector<usize>, n: usize) -> (Vector<i32>, Scalar<i32>) {
    let zero = fill([4], 0);
    let mut h = fill([4], 0);
    let mut s = 0;
    for k in 0..n {
        let hk = xs
            .map(|_| 1)
            .permute(&zero, |[i]| Some([(xs[[i]] + k) % 4]), |a, b| a + b);
        h = h.zip_with(&hk, |a, b| a + b);
        s += hk.sum().value();
    }
    (h, fill([], s))
}

/// A scalar loop state only, but kernels in the body depend on it.
#[acc]
fn scalar_loop(xs: &Vector<i32>, n: i32) -> i32 {
    let mut s = 0;
    for i in 0..n {
        s += xs.map(|v| v * i).sum().value();
    }
    s
}

/// A loop result used by a later closure (a host value), and a nested loop.
#[acc]
fn nested(xs: &Vector<i32>, n: i32) -> Vector<i32> {
    let mut c = 0;
    let mut x = xs.map(|v| v);
    while c < n {
        for _ in 0..c {
            x = x.map(|v| v + 1);
        }
        c += 1;
    }
    let m = x.fold(0, |a, b| a.max(b)).value();
    xs.map(|v| v + m + c)
}

/// `for` in scalar code (a closure), and an array state set to another one
/// (the same buffer twice in the next state).
#[acc]
fn closure_for(xs: &Vector<i32>, n: i32) -> (Vector<i32>, Vector<i32>) {
    let mut a = xs.map(|x| {
        let mut s = x;
        for i in 0..3 {
            s += i;
        }
        s
    });
    let mut b = xs.map(|x| x * 2);
    for _ in 0..n {
        a = b;
        b = b.map(|y| y + 1);
    }
    (a, b)
}

/// An array used in a branch and after it; a two-result scan inside a branch;
/// a scalar computed in a branch and read by a closure afterwards.
#[acc]
fn shared_branch(xs: &Vector<i32>, flag: bool) -> (Vector<i32>, Vector<i32>, Scalar<i32>) {
    let ys = xs.map(|x| x * 5);
    let (pre, tot) = if flag {
        xs.scanl_total(0, |a, b| a + b)
    } else {
        (ys.map(|y| y - 1), fill([], 3))
    };
    let k = if flag { tot.value() } else { ys.sum().value() };
    (pre, ys.map(|y| y + k), tot)
}

/// Permute into the loop state; the state returned twice; nested `if`s.
#[acc]
fn scatter_loop(xs: &Vector<usize>, n: i32) -> (Vector<i32>, Vector<i32>) {
    let mut h = fill([5], 0);
    for i in 0..n {
        if i % 3 == 0 {
            h = xs.map(|_| 1).permute(&h, |[j]| Some([xs[[j]] % 5]), |a, b| a + b);
        } else if i % 3 == 1 {
            h = h.map(|v| v * 2);
        } else {
            h = h.backpermute([5], |[j]| [4 - j]);
        }
    }
    (h, h)
}

/// A run-time error inside a loop body (an index out of bounds) is reported.
#[acc]
fn oob_loop(xs: &Vector<i32>, k: usize, n: i32) -> Vector<i32> {
    let mut x = xs.map(|v| v);
    for _ in 0..n {
        x = x.backpermute([x.len()], |[j]| [j + k]);
    }
    x
}

// ---- references -----------------------------------------------------------

fn ref_halve(xs: &[f32], n: i32, eps: f32) -> (Vec<f32>, i32) {
    let mut x: Vec<f32> = xs.iter().map(|v| v.abs()).collect();
    let mut i = 0;
    while i < n && x.iter().sum::<f32>() > eps {
        x = x.iter().map(|v| v / 2.0).collect();
        i += 1;
    }
    (x, i)
}

fn ref_pairwise(xs: &[i32]) -> Vec<i32> {
    let mut x = xs.to_vec();
    while x.len() > 1 {
        let h = x.len() / 2;
        x = (0..h).map(|i| x[2 * i].wrapping_add(x[2 * i + 1])).collect();
    }
    x
}

fn ref_for_branch(xs: &[i32], ys: &[i32], n: i32) -> (Vec<i32>, Vec<i32>) {
    let (mut a, mut b) = (xs.to_vec(), ys.to_vec());
    for i in 0..n {
        if i % 2 == 0 {
            a = a.iter().zip(&b).map(|(p, q)| p.wrapping_sub(*q)).collect();
        } else {
            std::mem::swap(&mut a, &mut b);
        }
    }
    (a, b)
}

fn ints() -> impl Strategy<Value = Vec<i32>> {
    prop::collection::vec(-1000i32..1000, 0..40)
}
fn floats() -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(-100.0f32..100.0, 0..40)
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn if_between_arrays(xs in floats(), is in ints(), flag in any::<bool>(), k in 0.0f32..3.0) {
        let want: Vec<f32> = if flag { xs.iter().map(|x| x * 2.0).collect() }
            else { xs.iter().map(|x| (x + 1.0) * (x + 1.0)).collect() };
        let f = Scalar::new(flag);
        agree(choose::SOURCE, "choose", &[vf(xs.clone()), arg(&f)], choose(&Vector::from(xs.clone()), &f), vf(want), EXACT);

        let s: i32 = is.iter().fold(0i32, |a, b| a.wrapping_add(*b));
        let (v, t) = if s > 0 { (is.iter().map(|x| x - 1).collect::<Vec<_>>(), s) }
            else if s == 0 { (is.clone(), 7) }
            else { (is.iter().rev().copied().collect(), s.wrapping_neg()) };
        let want = Dyn::Tuple(vec![vi(v), arg(&Scalar::new(t))]);
        let xv = Vector::from(is.clone());
        agree(by_sum::SOURCE, "by_sum", &[arg(&xv)], by_sum(&xv), want, EXACT);

        let want = arg(&Scalar::new(is.iter().copied().max().unwrap_or(-1)));
        agree(guarded::SOURCE, "guarded", &[arg(&xv)], guarded(&xv), want, EXACT);

        let want: Vec<f32> = xs.iter().map(|x| x + 0.5).map(|y| if k > 1.0 { y * k } else { y }).collect();
        let fv = Vector::from(xs.clone());
        agree(maybe_scale::SOURCE, "maybe_scale", &[arg(&fv), arg(k)], maybe_scale(&fv, k), vf(want), EXACT);

        let a: Vec<i32> = is.iter().map(|x| x * 3).collect();
        let b: Vec<i32> = is.iter().map(|x| x ^ 5).collect();
        let c: Vec<i32> = a.iter().zip(&b).map(|(p, q)| p + q).collect();
        agree(pair_let::SOURCE, "pair_let", &[arg(&xv)], pair_let(&xv), Dyn::Tuple(vec![vi(c), vi(b)]), EXACT);
    }

    #[test]
    fn while_loops(xs in floats(), is in ints(), n in 0i32..6, eps in 0.0f32..50.0) {
        let fv = Vector::from(xs.clone());
        let (x, i) = ref_halve(&xs, n, eps);
        let want = Dyn::Tuple(vec![vf(x), arg(&Scalar::new(i))]);
        // The loop condition sums in parallel: compare within a tolerance.
        agree(halve::SOURCE, "halve", &[arg(&fv), arg(n), arg(eps)], halve(&fv, n, eps), want, F32_TOL);

        let xv = Vector::from(is.clone());
        agree(pairwise::SOURCE, "pairwise", &[arg(&xv)], pairwise(&xv), vi(ref_pairwise(&is)), EXACT);

        let mut t = is.clone();
        for _ in 0..n {
            t = t.iter().zip(&is).map(|(a, b)| a.wrapping_mul(3).wrapping_add(b % 7)).collect();
        }
        let want = Dyn::Tuple(vec![vi(t), arg(&Scalar::new(n.max(0)))]);
        agree(tuple_state::SOURCE, "tuple_state", &[arg(&xv), arg(n)], tuple_state(&xv, n), want, EXACT);
    }

    #[test]
    fn for_loops(xs in floats(), is in ints(), js in ints(), n in 0usize..6) {
        let fv = Vector::from(xs.clone());
        let mut x = xs.clone();
        for i in 0..n {
            x = x.iter().map(|v| v * 0.5 + i as f32).collect();
        }
        agree(for_acc::SOURCE, "for_acc", &[arg(&fv), arg(n)], for_acc(&fv, n), vf(x), EXACT);

        let (xv, yv) = (Vector::from(is.clone()), Vector::from(js.clone()));
        let (a, b) = ref_for_branch(&is, &js, n as i32);
        let want = Dyn::Tuple(vec![vi(a), vi(b)]);
        agree(for_branch::SOURCE, "for_branch", &[arg(&xv), arg(&yv), arg(n as i32)], for_branch(&xv, &yv, n as i32), want, EXACT);

        let us: Vec<usize> = is.iter().map(|v| v.unsigned_abs() as usize).collect();
        let uv = Vector::from(us.clone());
        let mut h = vec![0i32; 4];
        let mut s = 0i32;
        for k in 0..n {
            let mut hk = [0i32; 4];
            for u in &us {
                hk[(u + k) % 4] += 1;
            }
            for j in 0..4 {
                h[j] += hk[j];
            }
            s += hk.iter().sum::<i32>();
        }
        let want = Dyn::Tuple(vec![vi(h), arg(&Scalar::new(s))]);
        agree(hist_loop::SOURCE, "hist_loop", &[arg(&uv), arg(n)], hist_loop(&uv, n), want, EXACT);

        let ni = n as i32;
        let want: i32 = (0..ni).fold(0i32, |s, i| is.iter().fold(s, |a, v| a.wrapping_add(v.wrapping_mul(i))));
        agree(scalar_loop::SOURCE, "scalar_loop", &[arg(&xv), arg(ni)], scalar_loop(&xv, ni), arg(want), EXACT);

        let bumps: i32 = (0..ni).sum();
        let m = is.iter().map(|v| v + bumps).fold(0, i32::max);
        let want: Vec<i32> = is.iter().map(|v| v + m + ni).collect();
        agree(nested::SOURCE, "nested", &[arg(&xv), arg(ni)], nested(&xv, ni), vi(want), EXACT);
    }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn more_programs(is in ints(), n in 0i32..5, flag in any::<bool>()) {
        let xv = Vector::from(is.clone());
        let mut a: Vec<i32> = is.iter().map(|x| x + 3).collect();
        let mut b: Vec<i32> = is.iter().map(|x| x * 2).collect();
        for _ in 0..n {
            a = b.clone();
            b = b.iter().map(|y| y + 1).collect();
        }
        let want = Dyn::Tuple(vec![vi(a), vi(b)]);
        agree(closure_for::SOURCE, "closure_for", &[arg(&xv), arg(n)], closure_for(&xv, n), want, EXACT);

        let ys: Vec<i32> = is.iter().map(|x| x * 5).collect();
        let (pre, tot) = if flag {
            let mut acc = 0i32;
            let pre: Vec<i32> = is.iter().map(|x| { let p = acc; acc += x; p }).collect();
            (pre, acc)
        } else {
            (ys.iter().map(|y| y - 1).collect(), 3)
        };
        let k = if flag { tot } else { ys.iter().sum() };
        let want = Dyn::Tuple(vec![vi(pre), vi(ys.iter().map(|y| y + k).collect()), arg(&Scalar::new(tot))]);
        agree(shared_branch::SOURCE, "shared_branch", &[arg(&xv), arg(flag)], shared_branch(&xv, flag), want, EXACT);
    }
}

/// The array work behind `&&` runs only when the left side holds: `fold1` of
/// an empty vector is never computed here.
#[acc]
fn short_circuit(xs: &Vector<i32>) -> i32 {
    let mut x = xs.map(|v| v);
    let mut i = 0;
    while x.len() > 0 && x.fold1(|a, b| a.min(b)).value() < 100 {
        x = x.backpermute([x.len() - 1], |[j]| [j + 1]);
        i += 1;
    }
    i
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn state_moves_and_errors(is in ints(), n in 0i32..7, k in 0usize..2) {
        let us: Vec<usize> = is.iter().map(|v| v.unsigned_abs() as usize).collect();
        let uv = Vector::from(us.clone());
        let mut h = vec![0i32; 5];
        for i in 0..n {
            if i % 3 == 0 {
                for u in &us { h[u % 5] += 1; }
            } else if i % 3 == 1 {
                h = h.iter().map(|v| v * 2).collect();
            } else {
                h.reverse();
            }
        }
        let want = Dyn::Tuple(vec![vi(h.clone()), vi(h)]);
        agree(scatter_loop::SOURCE, "scatter_loop", &[arg(&uv), arg(n)], scatter_loop(&uv, n), want, EXACT);

        let xv = Vector::from(is.clone());
        let fails = k == 1 && n > 0 && !is.is_empty();
        let r = check(oob_loop::SOURCE, "oob_loop", &[arg(&xv), arg(k), arg(n)], oob_loop(&xv, k, n), EXACT);
        expect_fails_if("oob_loop", r, fails, accel::ErrorKind::IndexOutOfBounds).ok();
    }
}

#[test]
fn edge_cases() {
    let e: Vector<i32> = Vector::from(vec![]);
    check(
        short_circuit::SOURCE,
        "short_circuit",
        &[arg(&e)],
        short_circuit(&e),
        EXACT,
    )
    .unwrap();
    let v = Vector::from(vec![5, 200, 7, 300, 400]);
    assert_eq!(short_circuit(&v).unwrap(), 3);
    check(
        short_circuit::SOURCE,
        "short_circuit",
        &[arg(&v)],
        short_circuit(&v),
        EXACT,
    )
    .unwrap();
    // Empty arrays, zero iterations, one element.
    let e: Vector<i32> = Vector::from(vec![]);
    assert_eq!(guarded(&e).unwrap().value(), -1);
    assert_eq!(pairwise(&e).unwrap().to_vec(), Vec::<i32>::new());
    assert_eq!(pairwise(&Vector::from(vec![5])).unwrap().to_vec(), vec![5]);
    assert_eq!(
        pairwise(&Vector::from(vec![1, 2, 3, 4, 5, 6, 7, 8]))
            .unwrap()
            .to_vec(),
        vec![36]
    );
    let (x, i) = halve(&Vector::from(vec![8.0f32]), 10, 1.0).unwrap();
    assert_eq!((x.to_vec(), i.value()), (vec![1.0], 3));
    let (x, i) = halve(&Vector::from(vec![8.0f32]), 0, 1.0).unwrap();
    assert_eq!((x.to_vec(), i.value()), (vec![8.0], 0));
    assert_eq!(
        for_acc(&Vector::from(vec![2.0f32]), 0).unwrap().to_vec(),
        vec![2.0]
    );
}

#[test]
fn loop_bodies_are_fused_and_branches_are_sub_plans() {
    use accel_core::plan::Step;
    let (_, plan) = accel_core::compile_source(for_acc::SOURCE, "for_acc").unwrap();
    let body = plan.steps.iter().find_map(|s| match s {
        Step::While { body, .. } => Some(body),
        _ => None,
    });
    let body = body.expect("a loop step");
    // `x.map(..)` in the body is one kernel.
    assert_eq!(
        body.steps.iter().filter(|s| matches!(s, Step::Kernel(_))).count(),
        1,
        "{plan}"
    );

    let (_, plan) = accel_core::compile_source(halve::SOURCE, "halve").unwrap();
    let text = plan.explain();
    assert!(text.contains("while"), "{text}");
    assert!(text.contains("condition:"), "{text}");

    let (_, plan) = accel_core::compile_source(choose::SOURCE, "choose").unwrap();
    let (then, els) = plan
        .steps
        .iter()
        .find_map(|s| match s {
            Step::If { then, els, .. } => Some((then, els)),
            _ => None,
        })
        .expect("an if step");
    // Each branch fuses its maps into one kernel, and nothing runs outside.
    assert_eq!(then.steps.len(), 1, "{plan}");
    assert_eq!(els.steps.len(), 1, "{plan}");
    assert_eq!(plan.kernels().count(), 2);
}
