//! Stencils split into interior and border. An element whose neighbourhood
//! lies inside every array it reads (the interior) is computed without the
//! boundary rules: one test per element instead of one per neighbour, and
//! whole warps inside the array take the one branch. The other elements (the
//! border) run the element function with the rules (`Lower::read_stencil`).

use super::lower::{Arg, Class, Lower, Unsupported};
use accel_core::ir::{Arena, Expr, Fun, PlanRead, Scalar};

/// For each (buffer, dimension) that the element function reads around its
/// own index: the smallest and the largest offset, widened to include 0.
fn margins(a: &Arena, f: &Fun) -> Vec<(u32, usize, i32, i32)> {
    let names = super::blocks::param_names(a, f);
    let mut out: Vec<(u32, usize, i32, i32)> = Vec::new();
    a.reaches(f.body, |_, x| {
        if let Expr::Plan(PlanRead::ReadStencil {
            array,
            center,
            offset,
            ..
        }) = x
        {
            if let (Expr::Plan(PlanRead::Buffer(b)), Expr::Scalar(Scalar::Var(c))) =
                (a.expr(*array), a.expr(*center))
            {
                if names.contains(c) {
                    for (d, &o) in offset.iter().enumerate() {
                        match out.iter_mut().find(|m| m.0 == b.0 && m.1 == d) {
                            Some(m) => (m.2, m.3) = (m.2.min(o), m.3.max(o)),
                            None => out.push((b.0, d, o.min(0), o.max(0))),
                        }
                    }
                }
            }
        }
        false
    });
    out
}

/// The body of element function `f` (of an index) at index `ix`: split
/// into interior and border when it reads a stencil around `ix`.
pub(super) fn body_at(l: &mut Lower, f: &Fun, ix: &[String]) -> Result<Vec<String>, Unsupported> {
    let m = margins(l.a, f);
    if m.is_empty() {
        return l.expr(f.body);
    }
    // Each neighbour inside: `ix[d] + hi < n` and `ix[d] >= -lo`.
    let mut tests = Vec::new();
    for (b, d, lo, hi) in m {
        let n = l.param(Arg::Dim(b, d))[0].clone();
        let (x, t) = (l.reg(Class::Rd), l.reg(Class::P));
        l.ins(format!("add.u64 {x}, {}, {hi};", ix[d]));
        l.ins(format!("setp.lt.u64 {t}, {x}, {n};"));
        tests.push(t);
        if lo < 0 {
            let t = l.reg(Class::P);
            l.ins(format!("setp.ge.u64 {t}, {}, {};", ix[d], -lo));
            tests.push(t);
        }
    }
    let inside = tests[0].clone();
    for t in &tests[1..] {
        l.ins(format!("and.pred {inside}, {inside}, {t};"));
    }
    let ty = l.a.ty(f.body).clone();
    let out = l.fresh(&ty);
    let (border, done) = (l.label("border"), l.label("interior"));
    l.ins(format!("@!{inside} bra {border};"));
    l.interior = Some(ix.to_vec());
    let v = l.expr(f.body);
    l.interior = None;
    l.assign(&out, &v?, &ty);
    l.ins(format!("bra {done};"));
    l.put_label(&border);
    let v = l.expr(f.body)?;
    l.assign(&out, &v, &ty);
    l.put_label(&done);
    Ok(out)
}
