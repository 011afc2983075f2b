//! The building blocks of the skeletons: thread and block indices, element
//! functions applied at an index, stores, in-order reductions (warp
//! shuffles, shared memory), loops over rows and tasks, and the combination
//! of a value into a target (atomics, compare-and-swap, spin locks).

use super::lower::{class, leaves, Arg, Class, Lower, Unsupported};
use accel_core::ir::{BufId, Expr, Fun, Prim, Scalar, Ty, VarId, H};
use accel_core::plan::{AtomicCombine, ElemFn, Kernel};
use std::fmt::Write;

/// The value at an index (a `.b64` register), as a reduction reads it.
pub(super) type Load<'a> = dyn FnMut(&mut Lower, &str) -> Result<Vec<String>, Unsupported> + 'a;

/// A reduction's accumulator and its `.u32` flag: whether it holds a value.
pub(super) type Reduced = (Vec<String>, String);

/// Warps per block at most (blocks have at most 256 threads).
pub(super) const MAX_WARPS: usize = MAX_THREADS / 32;

/// Threads per block at most.
pub const MAX_THREADS: usize = accel_types::launch::BLOCK_THREADS;

/// `%tid.x`, `%ntid.x`, `%ctaid.x`, `%nctaid.x` as 32-bit registers.
#[derive(Clone)]
pub(super) struct Ids {
    pub(super) tid: String,
    pub(super) ntid: String,
    pub(super) ctaid: String,
    pub(super) nctaid: String,
}

pub(super) fn ids(l: &mut Lower) -> Ids {
    let r: Vec<String> = (0..4).map(|_| l.reg(Class::R)).collect();
    l.ins(format!("mov.u32 {}, %tid.x;", r[0]));
    l.ins(format!("mov.u32 {}, %ntid.x;", r[1]));
    l.ins(format!("mov.u32 {}, %ctaid.x;", r[2]));
    l.ins(format!("mov.u32 {}, %nctaid.x;", r[3]));
    Ids {
        tid: r[0].clone(),
        ntid: r[1].clone(),
        ctaid: r[2].clone(),
        nctaid: r[3].clone(),
    }
}

pub(super) fn wide(l: &mut Lower, r32: &str) -> String {
    let r = l.reg(Class::Rd);
    l.ins(format!("cvt.u64.u32 {r}, {r32};"));
    r
}

pub(super) fn extra(l: &mut Lower, name: &'static str) -> String {
    l.param(Arg::Extra(name))[0].clone()
}

/// The iteration shape's dimensions (`rank` of them).
pub(super) fn iter_dims(l: &mut Lower, rank: usize) -> Vec<String> {
    (0..rank).map(|d| l.param(Arg::IterDim(d))[0].clone()).collect()
}

fn elem_rank(l: &Lower, e: &ElemFn) -> usize {
    match &l.a.var(e.fun().params[0]).ty {
        Ty::Index(r) => *r,
        _ => 0,
    }
}

/// The element function at row-major offset `i` of the iteration space
/// (in two versions where the kernel's entry tests prove some of its reads:
/// `Lower::versioned_elem`).
pub(super) fn elem_at(l: &mut Lower, e: &ElemFn, i: &str) -> Result<Vec<String>, Unsupported> {
    let ty = l.a.ty(e.fun().body).clone();
    l.versioned_elem(&ty, |l| elem_body_at(l, e, i))
}

fn elem_body_at(l: &mut Lower, e: &ElemFn, i: &str) -> Result<Vec<String>, Unsupported> {
    let f = e.fun();
    let p = f.params[0];
    let (old, v) = match e {
        ElemFn::Linear(_) => {
            let old = l.bind(p, vec![i.to_string()]);
            (old, l.expr(f.body))
        }
        ElemFn::Index(_) => {
            let r = elem_rank(l, e);
            let dims = iter_dims(l, r);
            let ix = l.delinearize(i, &dims);
            let old = l.bind(p, ix.clone());
            (old, super::stencil::body_at(l, f, &ix))
        }
    };
    l.unbind(p, old);
    v
}

/// The element function's parameter and the `let`s that rename it.
pub(super) fn param_names(a: &accel_core::ir::Arena, f: &Fun) -> Vec<VarId> {
    let mut names = vec![f.params[0]];
    let mut grew = true;
    while grew {
        grew = false;
        a.reaches(f.body, |_, x| {
            if let Expr::Scalar(Scalar::Let { var, value, .. }) = x {
                if matches!(a.expr(*value), Expr::Scalar(Scalar::Var(v)) if names.contains(v))
                    && !names.contains(var)
                {
                    names.push(*var);
                    grew = true;
                }
            }
            false
        });
    }
    names
}

/// `f(x, y)`.
pub(super) fn apply2(l: &mut Lower, f: &Fun, x: &[String], y: &[String]) -> Result<Vec<String>, Unsupported> {
    let o0 = l.bind(f.params[0], x.to_vec());
    let o1 = l.bind(f.params[1], y.to_vec());
    let v = l.expr(f.body);
    l.unbind(f.params[1], o1);
    l.unbind(f.params[0], o0);
    v
}

pub(super) fn store_elem(l: &mut Lower, b: u32, idx: &str, v: &[String], t: &Ty) {
    Dest::buffer(b, t).store(l, idx, v);
}

/// Where the leaves of the element a kernel stores go: leaf `k` to column
/// `cols[k].1` of buffer `cols[k].0`. One buffer's columns in order, or for
/// a horizontal kernel (several outputs, its element the tuple of theirs)
/// each output's in turn.
#[derive(Clone)]
pub(super) struct Dest {
    pub(super) ty: Ty,
    pub(super) cols: Vec<(u32, usize)>,
}

impl Dest {
    /// The columns of buffer `b`, of element type `t`.
    pub(super) fn buffer(b: u32, t: &Ty) -> Dest {
        Dest {
            ty: t.clone(),
            cols: (0..leaves(t).len()).map(|k| (b, k)).collect(),
        }
    }

    /// No columns: stores nothing (a scan whose outputs only the folds in
    /// its pass read).
    pub(super) fn nowhere(t: &Ty) -> Dest {
        Dest {
            ty: t.clone(),
            cols: Vec::new(),
        }
    }

    /// Where kernel `k` stores (its first output only, unless it is
    /// horizontal: a scan's second output is its totals).
    pub(super) fn of(k: &Kernel, buf_elems: &[Ty]) -> Dest {
        if k.is_horizontal() {
            Dest::outputs(&k.outputs, buf_elems)
        } else {
            Dest::outputs(&k.outputs[..1], buf_elems)
        }
    }

    /// The columns of buffers `outs`: one buffer's, or for several the
    /// tuple of their elements, each field to its own buffer.
    pub(super) fn outputs(outs: &[BufId], buf_elems: &[Ty]) -> Dest {
        let mut cols = Vec::new();
        let mut tys = Vec::new();
        for b in outs {
            let t = &buf_elems[b.0 as usize];
            cols.extend((0..leaves(t).len()).map(|c| (b.0, c)));
            tys.push(t.clone());
        }
        let ty = if tys.len() == 1 {
            tys.remove(0)
        } else {
            Ty::Tuple(tys)
        };
        Dest { ty, cols }
    }

    /// The address of the column of leaf `k`.
    pub(super) fn base(&self, l: &mut Lower, k: usize) -> String {
        let (b, c) = self.cols[k];
        l.param(Arg::Col(b, c))[0].clone()
    }

    /// Stores the leaves `v` at element `idx`.
    pub(super) fn store(&self, l: &mut Lower, idx: &str, v: &[String]) {
        if self.cols.is_empty() {
            return;
        }
        for (k, (p, r)) in leaves(&self.ty).into_iter().zip(v).enumerate() {
            let base = self.base(l, k);
            l.store(&base, idx, p, r, false);
        }
    }
}

/// Where a fold or scan stores its results, and the maps fused after the
/// fold or scan, applied before each store.
pub(super) struct Out<'a> {
    pub(super) dest: Dest,
    pub(super) post: Option<&'a Fun>,
    /// Whether the output's rows are one element longer than the
    /// iteration's (a scan with an initial value).
    pub(super) longer_rows: bool,
}

impl Out<'_> {
    /// Stores `post(v)` (or `v`) at element `idx` of the output.
    pub(super) fn store(&self, l: &mut Lower, idx: &str, v: &[String]) -> Result<(), Unsupported> {
        let v = self.value(l, idx, v)?;
        self.dest.store(l, idx, &v);
        Ok(())
    }

    /// `post(v)` (or `v`), the value stored at element `idx` of the output.
    /// A post with a second parameter (a generate fused after a scan) gets
    /// the element's index in the output.
    pub(super) fn value(&self, l: &mut Lower, idx: &str, v: &[String]) -> Result<Vec<String>, Unsupported> {
        Ok(match self.post {
            Some(p) => {
                let old = l.bind(p.params[0], v.to_vec());
                let old_ix = match p.params.get(1) {
                    Some(&ix) => {
                        let rank = match &l.a.var(ix).ty {
                            Ty::Index(r) => *r,
                            _ => 1,
                        };
                        let mut dims = iter_dims(l, rank);
                        if let (true, Some(last)) = (self.longer_rows, dims.last_mut()) {
                            let wider = l.reg(Class::Rd);
                            l.ins(format!("add.u64 {wider}, {last}, 1;"));
                            *last = wider;
                        }
                        let at = l.delinearize(idx, &dims);
                        Some((ix, l.bind(ix, at)))
                    }
                    None => None,
                };
                let r = l.expr(p.body);
                if let Some((ix, old)) = old_ix {
                    l.unbind(ix, old);
                }
                l.unbind(p.params[0], old);
                r?
            }
            None => v.to_vec(),
        })
    }
}

/// The start of a reduction: a fresh accumulator `acc` (zeroed), `have` (a
/// `.u32`) 0, and unless `first >= bound` (nothing to reduce: a jump to the
/// returned label, which the caller places after its loop) `have` 1 and `acc`
/// the value at `first`.
pub(super) fn start_reduce(
    l: &mut Lower,
    t: &Ty,
    first: &str,
    bound: &str,
    load: &mut Load,
) -> Result<(Vec<String>, String, String), Unsupported> {
    let acc = l.fresh(t);
    let have = l.reg(Class::R);
    l.ins(format!("mov.b32 {have}, 0;"));
    // Registers assigned on one path only still need a value for the warp tree.
    for (r, p) in acc.clone().iter().zip(leaves(t)) {
        zero_reg(l, r, p);
    }
    let skip = l.label("rskip");
    let empty = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {empty}, {first}, {bound};"));
    l.ins(format!("@{empty} bra {skip};"));
    l.ins(format!("mov.b32 {have}, 1;"));
    let x = load(l, first)?;
    l.assign(&acc, &x, t);
    Ok((acc, have, skip))
}

/// Reduces `load(j)` for `j` in `start..end` (in order) into `acc`; `have`
/// (a `.u32` 0/1) says whether the range was non-empty.
pub(super) fn reduce_range(
    l: &mut Lower,
    start: &str,
    end: &str,
    f: &Fun,
    t: &Ty,
    load: &mut Load,
) -> Result<Reduced, Unsupported> {
    let (acc, have, skip) = start_reduce(l, t, start, end, load)?;
    let j = l.reg(Class::Rd);
    l.ins(format!("add.u64 {j}, {start}, 1;"));
    let (top, done) = (l.label("rtop"), l.label("rdone"));
    l.put_label(&top);
    let stop = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop}, {j}, {end};"));
    l.ins(format!("@{stop} bra {done};"));
    let x = load(l, &j)?;
    let v = apply2(l, f, &acc, &x)?;
    l.assign(&acc, &v, t);
    l.ins(format!("add.u64 {j}, {j}, 1;"));
    l.ins(format!("bra {top};"));
    l.put_label(&done);
    l.put_label(&skip);
    Ok((acc, have))
}

/// Reduces `load(j)` for `j = first, first + stride, …` below `n` into `acc`,
/// for a commutative `f`; `have` (a `.u32` 0/1) says whether `first <
/// bound` (the caller's threads from `bound` on have nothing). Four loads are
/// issued together so that more memory requests are in flight.
#[allow(clippy::too_many_arguments)]
pub(super) fn reduce_strided(
    l: &mut Lower,
    first: &str,
    stride: &str,
    bound: &str,
    n: &str,
    f: &Fun,
    t: &Ty,
    load: &mut Load,
) -> Result<Reduced, Unsupported> {
    let (acc, have, skip) = start_reduce(l, t, first, bound, load)?;
    let j = l.reg(Class::Rd);
    l.ins(format!("add.u64 {j}, {first}, {stride};"));
    // Four at a time while `j + 3 stride < n`.
    let (top4, rest, top1, done) = (l.label("s4"), l.label("s4e"), l.label("s1"), l.label("s1e"));
    let s3 = l.reg(Class::Rd);
    l.ins(format!("mul.lo.u64 {s3}, {stride}, 3;"));
    l.put_label(&top4);
    let last = l.reg(Class::Rd);
    l.ins(format!("add.u64 {last}, {j}, {s3};"));
    let stop = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop}, {last}, {n};"));
    l.ins(format!("@{stop} bra {rest};"));
    let mut xs = Vec::new();
    let k = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {k}, {j};"));
    for m in 0..4 {
        if m > 0 {
            l.ins(format!("add.u64 {k}, {k}, {stride};"));
        }
        xs.push(load(l, &k)?);
    }
    let a = apply2(l, f, &xs[0], &xs[1])?;
    let b = apply2(l, f, &xs[2], &xs[3])?;
    let ab = apply2(l, f, &a, &b)?;
    let v = apply2(l, f, &acc, &ab)?;
    l.assign(&acc, &v, t);
    l.ins(format!("add.u64 {j}, {last}, {stride};"));
    l.ins(format!("bra {top4};"));
    l.put_label(&rest);
    l.put_label(&top1);
    let stop1 = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop1}, {j}, {n};"));
    l.ins(format!("@{stop1} bra {done};"));
    let x = load(l, &j)?;
    let v = apply2(l, f, &acc, &x)?;
    l.assign(&acc, &v, t);
    l.ins(format!("add.u64 {j}, {j}, {stride};"));
    l.ins(format!("bra {top1};"));
    l.put_label(&done);
    l.put_label(&skip);
    Ok((acc, have))
}

pub(super) fn zero_reg(l: &mut Lower, r: &str, p: Prim) {
    match class(p) {
        Class::P => {
            let z = l.reg(Class::R);
            l.ins(format!("mov.b32 {z}, 0;"));
            l.ins(format!("setp.ne.u32 {r}, {z}, 0;"));
        }
        Class::R => l.ins(format!("mov.b32 {r}, 0;")),
        Class::Rd => l.ins(format!("mov.b64 {r}, 0;")),
        Class::F => l.ins(format!("mov.f32 {r}, 0f00000000;")),
        Class::Fd => l.ins(format!("mov.f64 {r}, 0d0000000000000000;")),
        Class::H => l.ins(format!("mov.b16 {r}, 0;")),
    }
}

/// `shfl.sync.down` of one value of type `p` by `off` lanes.
pub(super) fn shfl_down(l: &mut Lower, v: &str, p: Prim, off: u32) -> String {
    shfl(l, "down", v, p, &off.to_string())
}

/// `shfl.sync.bfly` of one value of type `p`: lane `i` gets lane `i ^ mask`'s.
pub(super) fn shfl_xor(l: &mut Lower, v: &str, p: Prim, mask: u32) -> String {
    shfl(l, "bfly", v, p, &mask.to_string())
}

/// `shfl.sync.idx` of one value of type `p`: every lane gets lane `src`'s
/// (a register or a constant).
pub(super) fn shfl_from(l: &mut Lower, v: &str, p: Prim, src: &str) -> String {
    shfl(l, "idx", v, p, src)
}

/// `shfl.sync.{mode}` of one value of type `p` with lane operand `b`.
fn shfl(l: &mut Lower, mode: &str, v: &str, p: Prim, b: &str) -> String {
    let sh = |l: &mut Lower, x: &str| {
        let d = l.reg(Class::R);
        l.ins(format!("shfl.sync.{mode}.b32 {d}, {x}, {b}, 31, -1;"));
        d
    };
    match class(p) {
        Class::R | Class::H => sh(l, v),
        Class::F => {
            let b = l.reg(Class::R);
            l.ins(format!("mov.b32 {b}, {v};"));
            let d = sh(l, &b);
            let f = l.reg(Class::F);
            l.ins(format!("mov.b32 {f}, {d};"));
            f
        }
        Class::P => {
            let u = l.pred_to_u32(v);
            let d = sh(l, &u);
            let q = l.reg(Class::P);
            l.ins(format!("setp.ne.u32 {q}, {d}, 0;"));
            q
        }
        Class::Rd | Class::Fd => {
            let bits = if class(p) == Class::Fd {
                let b = l.reg(Class::Rd);
                l.ins(format!("mov.b64 {b}, {v};"));
                b
            } else {
                v.to_string()
            };
            let (lo, hi, t) = (l.reg(Class::R), l.reg(Class::R), l.reg(Class::Rd));
            l.ins(format!("cvt.u32.u64 {lo}, {bits};"));
            l.ins(format!("shr.u64 {t}, {bits}, 32;"));
            l.ins(format!("cvt.u32.u64 {hi}, {t};"));
            let (lo2, hi2) = (sh(l, &lo), sh(l, &hi));
            let (a, b) = (l.reg(Class::Rd), l.reg(Class::Rd));
            l.ins(format!("cvt.u64.u32 {a}, {lo2};"));
            l.ins(format!("cvt.u64.u32 {b}, {hi2};"));
            l.ins(format!("shl.b64 {b}, {b}, 32;"));
            l.ins(format!("or.b64 {a}, {a}, {b};"));
            if class(p) == Class::Fd {
                let f = l.reg(Class::Fd);
                l.ins(format!("mov.b64 {f}, {a};"));
                f
            } else {
                a
            }
        }
    }
}

/// In-order reduction across the warp: lane 0 ends with lanes 0..31 combined
/// (valid lanes form a prefix).
pub(super) fn warp_reduce(
    l: &mut Lower,
    acc: &[String],
    have: &str,
    lane: &str,
    f: &Fun,
    t: &Ty,
) -> Result<(), Unsupported> {
    let ps = leaves(t);
    for off in [1u32, 2, 4, 8, 16] {
        let other: Vec<String> = acc
            .iter()
            .zip(&ps)
            .map(|(r, p)| shfl_down(l, r, *p, off))
            .collect();
        let oh = shfl_down(l, have, Prim::U32, off);
        let m = l.reg(Class::R);
        l.ins(format!("and.b32 {m}, {lane}, {};", 2 * off - 1));
        let go = l.reg(Class::R);
        l.ins(format!("mov.b32 {go}, 0;"));
        let (p1, p2) = (l.reg(Class::P), l.reg(Class::P));
        l.ins(format!("setp.eq.u32 {p1}, {m}, 0;"));
        l.ins(format!("setp.ne.u32 {p2}, {oh}, 0;"));
        l.ins(format!("@{p1} mov.b32 {go}, {oh};"));
        let skip = l.label("wskip");
        let pg = l.reg(Class::P);
        l.ins(format!("setp.eq.u32 {pg}, {go}, 0;"));
        let _ = p2;
        l.ins(format!("@{pg} bra {skip};"));
        let v = apply2(l, f, acc, &other)?;
        l.assign(acc, &v, t);
        l.put_label(&skip);
    }
    Ok(())
}

/// Shared arrays of `slots` slots per leaf of `t` plus one of flags.
pub(super) fn shared_decl(prefix: &str, t: &Ty, slots: usize) -> String {
    let mut s = leaves_decl(prefix, t, slots);
    let _ = writeln!(s, "\t.shared .align 4 .b8 {prefix}_sh[{}];", slots * 4);
    s
}

/// Shared arrays of `slots` slots per leaf of `t` (no flags).
pub(super) fn leaves_decl(prefix: &str, t: &Ty, slots: usize) -> String {
    let mut s = String::new();
    for (k, p) in leaves(t).into_iter().enumerate() {
        let w = slot_bytes(p);
        let _ = writeln!(
            s,
            "\t.shared .align {w} .b8 {prefix}_s{k}[{}];",
            slots * w as usize
        );
    }
    s
}

/// The stride of a leaf's shared slots: its own width, so that a warp's
/// 32-bit slots fall in 32 different banks (8-byte slots for every leaf put
/// two lanes in each even bank: a two-way conflict the profile showed).
fn slot_bytes(p: Prim) -> u32 {
    match class(p) {
        Class::Rd | Class::Fd => 8,
        Class::P | Class::R | Class::F | Class::H => 4,
    }
}

fn slot_addr(l: &mut Lower, name: &str, idx32: &str, size: u32) -> String {
    let base = l.reg(Class::Rd);
    l.ins(format!("mov.u64 {base}, {name};"));
    let a = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {a}, {idx32}, {size};"));
    l.ins(format!("add.u64 {a}, {a}, {base};"));
    a
}

pub(super) fn st_shared(l: &mut Lower, prefix: &str, idx32: &str, v: &[String], have: &str, t: &Ty) {
    st_leaves(l, prefix, idx32, v, t);
    let a = slot_addr(l, &format!("{prefix}_sh"), idx32, 4);
    l.ins(format!("st.shared.b32 [{a}], {have};"));
}

pub(super) fn ld_shared(l: &mut Lower, prefix: &str, idx32: &str, v: &[String], have: &str, t: &Ty) {
    ld_leaves(l, prefix, idx32, v, t);
    let a = slot_addr(l, &format!("{prefix}_sh"), idx32, 4);
    l.ins(format!("ld.shared.b32 {have}, [{a}];"));
}

/// Stores the leaves of `v` (of type `t`) in slot `idx32` of the shared
/// arrays `prefix` (see [`leaves_decl`]).
pub(super) fn st_leaves(l: &mut Lower, prefix: &str, idx32: &str, v: &[String], t: &Ty) {
    for (k, (r, p)) in v.iter().zip(leaves(t)).enumerate() {
        let a = slot_addr(l, &format!("{prefix}_s{k}"), idx32, slot_bytes(p));
        match class(p) {
            Class::P => {
                let u = l.pred_to_u32(r);
                l.ins(format!("st.shared.b32 [{a}], {u};"));
            }
            Class::R | Class::H => l.ins(format!("st.shared.b32 [{a}], {r};")),
            Class::F => l.ins(format!("st.shared.f32 [{a}], {r};")),
            Class::Rd => l.ins(format!("st.shared.b64 [{a}], {r};")),
            Class::Fd => l.ins(format!("st.shared.f64 [{a}], {r};")),
        }
    }
}

/// Loads slot `idx32` of the shared arrays `prefix` into the registers `v`
/// (of type `t`).
pub(super) fn ld_leaves(l: &mut Lower, prefix: &str, idx32: &str, v: &[String], t: &Ty) {
    for (k, (r, p)) in v.iter().zip(leaves(t)).enumerate() {
        let a = slot_addr(l, &format!("{prefix}_s{k}"), idx32, slot_bytes(p));
        match class(p) {
            Class::P => {
                let u = l.reg(Class::R);
                l.ins(format!("ld.shared.b32 {u}, [{a}];"));
                l.ins(format!("setp.ne.u32 {r}, {u}, 0;"));
            }
            Class::R | Class::H => l.ins(format!("ld.shared.b32 {r}, [{a}];")),
            Class::F => l.ins(format!("ld.shared.f32 {r}, [{a}];")),
            Class::Rd => l.ins(format!("ld.shared.b64 {r}, [{a}];")),
            Class::Fd => l.ins(format!("ld.shared.f64 {r}, [{a}];")),
        }
    }
}

/// In-order reduction of the block: thread 0 ends with the block's result.
/// Every thread of the block must call it.
pub(super) fn block_reduce(
    l: &mut Lower,
    id: &Ids,
    acc: &[String],
    have: &str,
    f: &Fun,
    t: &Ty,
    sh: &str,
) -> Result<(), Unsupported> {
    let lane = l.reg(Class::R);
    let warp = l.reg(Class::R);
    l.ins(format!("and.b32 {lane}, {}, 31;", id.tid));
    l.ins(format!("shr.u32 {warp}, {}, 5;", id.tid));
    warp_reduce(l, acc, have, &lane, f, t)?;
    let skip = l.label("bst");
    let nz = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {nz}, {lane}, 0;"));
    l.ins(format!("@{nz} bra {skip};"));
    st_shared(l, sh, &warp, acc, have, t);
    l.put_label(&skip);
    l.ins("bar.sync 0;");
    // Every warp reduces the warps' results (no divergence around the shuffles).
    let nwarps = l.reg(Class::R);
    l.ins(format!("shr.u32 {nwarps}, {}, 5;", id.ntid));
    let skip2 = l.label("bld");
    let out = l.reg(Class::P);
    l.ins(format!("setp.ge.u32 {out}, {lane}, {nwarps};"));
    l.ins(format!("mov.b32 {have}, 0;"));
    l.ins(format!("@{out} bra {skip2};"));
    ld_shared(l, sh, &lane, acc, have, t);
    l.put_label(&skip2);
    warp_reduce(l, acc, have, &lane, f, t)?;
    l.ins("bar.sync 0;");
    Ok(())
}

pub(super) fn global_id(l: &mut Lower, id: &Ids) -> String {
    let g = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {g}, {}, {};", id.ctaid, id.ntid));
    let t0 = wide(l, &id.tid);
    l.ins(format!("add.u64 {g}, {g}, {t0};"));
    g
}

/// The range `[start, end)` of `per` elements from `first + k * per`, cut at `limit`.
pub(super) fn chunk(l: &mut Lower, first: &str, k: &str, per: &str, limit: &str) -> (String, String) {
    let (s, e) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mad.lo.u64 {s}, {k}, {per}, {first};"));
    l.ins(format!("add.u64 {e}, {s}, {per};"));
    l.ins(format!("min.u64 {e}, {e}, {limit};"));
    l.ins(format!("min.u64 {s}, {s}, {limit};"));
    (s, e)
}

pub(super) fn l_prefix(l: &mut Lower) -> String {
    // The label generator's prefix names the shared arrays too.
    let lab = l.label("sh");
    lab.trim_start_matches("$L_").replace('$', "_")
}

/// Loops `row` over `ctaid, ctaid + nctaid, ..` below `rows`; `body` runs once
/// per row with every thread of the block.
pub(super) fn row_loop(
    l: &mut Lower,
    id: &Ids,
    body: &mut dyn FnMut(&mut Lower, &str) -> Result<(), Unsupported>,
) -> Result<(), Unsupported> {
    let rows = extra(l, "rows");
    let row = wide(l, &id.ctaid);
    let step = wide(l, &id.nctaid);
    let (top, end) = (l.label("row"), l.label("rowend"));
    l.put_label(&top);
    let p = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {p}, {row}, {rows};"));
    l.ins(format!("@{p} bra {end};"));
    body(l, &row)?;
    l.ins("bar.sync 0;");
    l.ins(format!("add.u64 {row}, {row}, {step};"));
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    l.ins("ret;");
    Ok(())
}

/// A grid-stride loop of `body(task)` over `0..n`.
pub(super) fn task_loop(
    l: &mut Lower,
    n: &str,
    body: &mut dyn FnMut(&mut Lower, &str) -> Result<(), Unsupported>,
) -> Result<(), Unsupported> {
    let id = ids(l);
    let i = global_id(l, &id);
    let stride = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {stride}, {}, {};", id.nctaid, id.ntid));
    strided(l, &i, &stride, n, body)?;
    l.ins("ret;");
    Ok(())
}

/// `body(i)` for `i` (a `.u64` register, advanced in place) from its value
/// by `step` while below `end`.
pub(super) fn strided(
    l: &mut Lower,
    i: &str,
    step: &str,
    end: &str,
    body: &mut dyn FnMut(&mut Lower, &str) -> Result<(), Unsupported>,
) -> Result<(), Unsupported> {
    let (top, out) = (l.label("tk"), l.label("tke"));
    l.put_label(&top);
    let done = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {done}, {i}, {end};"));
    l.ins(format!("@{done} bra {out};"));
    body(l, i)?;
    l.ins(format!("add.u64 {i}, {i}, {step};"));
    l.ins(format!("bra {top};"));
    l.put_label(&out);
    Ok(())
}

/// `out[tl] = combine(v, out[tl])` for one source value, atomically: one
/// reduction instruction per field when hardware has them, a compare-and-swap loop for a
/// single leaf (a plain store where `combine` does not read the slot; a
/// 16-bit leaf on its 16 bits, an 8-bit one or a `bool` on the
/// aligned 32-bit word that holds it), otherwise under the per-element lock at
/// `lockg` (tuples).
pub(super) fn combine_at(
    l: &mut Lower,
    combine: &Fun,
    out: u32,
    t: &Ty,
    tl: &str,
    v: &[String],
    lockg: &str,
) -> Result<(), Unsupported> {
    if let Some(reds) = atomic_fields(l, combine, t) {
        // One reduction instruction per leaf instead of the lock: each field
        // combines on its own with an associative, commutative operation, so
        // the fields need not change together.
        for (k, red) in reds.iter().enumerate() {
            let base = l.param(Arg::Col(out, k))[0].clone();
            let addr = l.reg(Class::Rd);
            l.ins(format!("mad.lo.u64 {addr}, {tl}, {}, {base};", red.p.width() / 8));
            l.ins(format!("red.global.{} [{addr}], {};", red.name(), v[k]));
        }
        return Ok(());
    }
    if let ([p], [_, old_param]) = (&leaves(t)[..], &combine.params[..]) {
        if !l.a.mentions(combine.body, *old_param) {
            // `|new, _| ..` does not read the slot: a plain store, the last
            // one winning (sources combine in an unspecified order anyway).
            let nv = apply2(l, combine, v, v)?;
            let base = l.param(Arg::Col(out, 0))[0].clone();
            l.store(&base, tl, *p, &nv[0], false);
            return Ok(());
        }
    }
    if let [p] = leaves(t)[..] {
        if p.width() == 16 {
            return cas16(l, out, tl, combine, v, p);
        }
        if matches!(p, Prim::I8 | Prim::U8 | Prim::Bool) {
            return cas8(l, out, tl, combine, v, p);
        }
        if p.width() >= 32 && p != Prim::Bool {
            // One 32- or 64-bit leaf: combine with the value read, then swap
            // the result in if the slot still holds that value; retry with the
            // value found otherwise.
            let base = l.param(Arg::Col(out, 0))[0].clone();
            let addr = l.reg(Class::Rd);
            l.ins(format!("mad.lo.u64 {addr}, {tl}, {}, {base};", p.width() / 8));
            let old = l.reg(class(p));
            l.ins(format!(
                "ld.volatile.global.{} {old}, [{addr}];",
                super::lower::mty(p)
            ));
            let (bits, bty) = match p.width() {
                32 => (Class::R, "b32"),
                _ => (Class::Rd, "b64"),
            };
            let cas = CasLoop::start(l);
            let nv = apply2(l, combine, v, std::slice::from_ref(&old))?;
            let (ob, nb, got) = (l.reg(bits), l.reg(bits), l.reg(bits));
            l.ins(format!("mov.{bty} {ob}, {old};"));
            l.ins(format!("mov.{bty} {nb}, {};", nv[0]));
            l.ins(format!("atom.global.cas.{bty} {got}, [{addr}], {ob}, {nb};"));
            let cmp = if bty == "b32" { "u32" } else { "u64" };
            cas.end(l, cmp, &got, &ob, format!("mov.{bty} {old}, {got};"));
            return Ok(());
        }
    }
    // Per-element lock (tuples): acquire,
    // read-modify-write, release, all in one
    // iteration so that lanes of one warp never wait on each other.
    let la = l.reg(Class::Rd);
    l.ins(format!("mad.lo.u64 {la}, {tl}, 4, {lockg};"));
    let fin = l.reg(Class::R);
    l.ins(format!("mov.b32 {fin}, 0;"));
    let (spin, held) = (l.label("lk"), l.label("lkd"));
    l.put_label(&spin);
    let got = l.reg(Class::R);
    l.ins(format!("atom.global.cas.b32 {got}, [{la}], 0, 1;"));
    let busy = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {busy}, {got}, 0;"));
    l.ins(format!("@{busy} bra {held};"));
    l.ins("fence.acq_rel.gpu;");
    let mut oldv = Vec::new();
    for (k, p) in leaves(t).into_iter().enumerate() {
        let base = l.param(Arg::Col(out, k))[0].clone();
        oldv.push(l.load(&base, tl, p, true));
    }
    let nv = apply2(l, combine, v, &oldv)?;
    for (k, (p, r)) in leaves(t).into_iter().zip(&nv).enumerate() {
        let base = l.param(Arg::Col(out, k))[0].clone();
        l.store(&base, tl, p, r, true);
    }
    l.ins("fence.acq_rel.gpu;");
    let x = l.reg(Class::R);
    l.ins(format!("atom.global.exch.b32 {x}, [{la}], 0;"));
    l.ins(format!("mov.b32 {fin}, 1;"));
    l.put_label(&held);
    let again = l.reg(Class::P);
    l.ins(format!("setp.eq.u32 {again}, {fin}, 0;"));
    l.ins(format!("@{again} bra {spin};"));
    Ok(())
}

/// `out[tl] = combine(v, out[tl])` for one 16-bit leaf (`i16`, `u16`, `f16`,
/// `bf16`) by a compare-and-swap loop on its 16 bits (`atom.cas.b16`, sm_70
/// on): no lock, so contended targets cost a retry, not a spin on a lock.
fn cas16(l: &mut Lower, out: u32, tl: &str, combine: &Fun, v: &[String], p: Prim) -> Result<(), Unsupported> {
    let base = l.param(Arg::Col(out, 0))[0].clone();
    let addr = l.reg(Class::Rd);
    l.ins(format!("mad.lo.u64 {addr}, {tl}, 2, {base};"));
    // `old` holds the slot as a value of type `p` holds it in its register
    // (an `i16` sign-extended, the others zero-extended).
    let old = l.load(&base, tl, p, true);
    let cas = CasLoop::start(l);
    let nv = apply2(l, combine, v, std::slice::from_ref(&old))?;
    let (ob, nb, got) = (l.reg(Class::H), l.reg(Class::H), l.reg(Class::H));
    l.ins(format!("cvt.u16.u32 {ob}, {old};"));
    l.ins(format!("cvt.u16.u32 {nb}, {};", nv[0]));
    l.ins(format!("atom.global.cas.b16 {got}, [{addr}], {ob}, {nb};"));
    let (g, o) = (l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("cvt.u32.u16 {g}, {got};"));
    l.ins(format!("cvt.u32.u16 {o}, {ob};"));
    let refresh = if p == Prim::I16 {
        format!("cvt.s32.s16 {old}, {g};")
    } else {
        format!("mov.b32 {old}, {g};")
    };
    cas.end(l, "u32", &g, &o, refresh);
    Ok(())
}

/// `out[tl] = combine(v, out[tl])` for one byte (`i8`, `u8`, `bool`) by a
/// compare-and-swap loop on the aligned 32-bit word that holds it (PTX has
/// no 8-bit compare-and-swap): the other three bytes are swapped back
/// unchanged, and a change to them by another thread is a retry.
fn cas8(l: &mut Lower, out: u32, tl: &str, combine: &Fun, v: &[String], p: Prim) -> Result<(), Unsupported> {
    let base = l.param(Arg::Col(out, 0))[0].clone();
    let (addr, waddr) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("add.u64 {addr}, {tl}, {base};"));
    l.ins(format!("and.b64 {waddr}, {addr}, -4;"));
    let (a32, shift) = (l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("cvt.u32.u64 {a32}, {addr};"));
    l.ins(format!("and.b32 {shift}, {a32}, 3;"));
    l.ins(format!("shl.b32 {shift}, {shift}, 3;"));
    let w = l.reg(Class::R);
    l.ins(format!("ld.volatile.global.u32 {w}, [{waddr}];"));
    let cas = CasLoop::start(l);
    // The byte as a value of type `p` holds it in its register.
    let byte = l.reg(Class::R);
    let ext = if p == Prim::I8 { "s32" } else { "u32" };
    l.ins(format!("bfe.{ext} {byte}, {w}, {shift}, 8;"));
    let old = if p == Prim::Bool {
        let b = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {b}, {byte}, 0;"));
        b
    } else {
        byte
    };
    let nv = apply2(l, combine, v, std::slice::from_ref(&old))?;
    let nbyte = if p == Prim::Bool {
        let r = l.reg(Class::R);
        l.ins(format!("selp.u32 {r}, 1, 0, {};", nv[0]));
        r
    } else {
        nv[0].clone()
    };
    let (nw, got) = (l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("bfi.b32 {nw}, {nbyte}, {w}, {shift}, 8;"));
    l.ins(format!("atom.global.cas.b32 {got}, [{waddr}], {w}, {nw};"));
    cas.end(l, "u32", &got, &w, format!("mov.b32 {w}, {got};"));
    Ok(())
}

/// The labels of a compare-and-swap loop: `start` opens it (the combination
/// and the swap follow), `end` closes it.
struct CasLoop {
    retry: String,
    stored: String,
}

impl CasLoop {
    fn start(l: &mut Lower) -> CasLoop {
        let (retry, stored) = (l.label("cas"), l.label("casd"));
        l.put_label(&retry);
        CasLoop { retry, stored }
    }

    /// Done when the swap found what it expected (`got` equal to
    /// `expected`, compared as `cmp`); otherwise `refresh` (an instruction
    /// that takes the value found as the old one) and try again.
    fn end(self, l: &mut Lower, cmp: &str, got: &str, expected: &str, refresh: String) {
        let same = l.reg(Class::P);
        l.ins(format!("setp.eq.{cmp} {same}, {got}, {expected};"));
        l.ins(format!("@{same} bra {};", self.stored));
        l.ins(refresh);
        l.ins(format!("bra {};", self.retry));
        l.put_label(&self.stored);
    }
}

/// The `op.type` of a `red.global` per leaf of `t` that together do
/// `combine(new, old)`: `t` a 32/64-bit scalar combined by one operation of
/// `plan::AtomicCombine`, or a tuple whose every field is combined by such an
/// operation on that field alone (`|a, b| (a.0 + b.0, a.1.max(b.1))`).
/// The reductions by which `combine` (of elements of type `t`) combines each
/// leaf on its own, where every leaf has one in the ISA; `None` otherwise.
pub(super) fn atomic_fields(l: &Lower, combine: &Fun, t: &Ty) -> Option<Vec<Red>> {
    use accel_core::plan::AtomicCombine;
    if let Some(p) = t.prim() {
        let shape_of = if p.is_float() {
            Ty::Prim(Prim::I32)
        } else {
            t.clone()
        };
        return Some(vec![Red::of(AtomicCombine::of(l.a, combine, &shape_of)?, p)?]);
    }
    let [a, b] = combine.params[..] else { return None };
    let mut ops = Vec::new();
    field_ops(l, combine.body, t, a, b, &mut Vec::new(), &mut ops).then_some(ops)
}

/// Whether `h`, of type `t`, combines field `path` of `a` and `b` leaf by
/// leaf with atomic operations; pushes their `op.type`s.
fn field_ops(l: &Lower, h: H, t: &Ty, a: VarId, b: VarId, path: &mut Vec<usize>, ops: &mut Vec<Red>) -> bool {
    use accel_core::ir::{BinOp, Expr, MathFn};
    use accel_core::plan::AtomicCombine;
    // Field `path` of variable `v`?
    let is_field = |x: H, v: VarId| {
        let mut x = x;
        for &k in path.iter().rev() {
            match l.a.expr(x) {
                Expr::Scalar(Scalar::Proj(y, n)) if *n == k => x = *y,
                _ => return false,
            }
        }
        matches!(l.a.expr(x), Expr::Scalar(Scalar::Var(w)) if *w == v)
    };
    let pair = |x: H, y: H| (is_field(x, a) && is_field(y, b)) || (is_field(x, b) && is_field(y, a));
    let op = match (l.a.expr(h), t) {
        (Expr::Scalar(Scalar::Tuple(xs)), Ty::Tuple(ts)) if xs.len() == ts.len() => {
            return xs.iter().zip(ts).enumerate().all(|(k, (x, t))| {
                path.push(k);
                let ok = field_ops(l, *x, t, a, b, path, ops);
                path.pop();
                ok
            });
        }
        (Expr::Scalar(Scalar::Binary(op, x, y)), Ty::Prim(_)) if pair(*x, *y) => match op {
            BinOp::Add => AtomicCombine::Add,
            BinOp::BitAnd => AtomicCombine::And,
            BinOp::BitOr => AtomicCombine::Or,
            BinOp::BitXor => AtomicCombine::Xor,
            _ => return false,
        },
        (Expr::Scalar(Scalar::Math(MathFn::Min, xs)), Ty::Prim(_)) if xs.len() == 2 && pair(xs[0], xs[1]) => {
            AtomicCombine::Min
        }
        (Expr::Scalar(Scalar::Math(MathFn::Max, xs)), Ty::Prim(_)) if xs.len() == 2 && pair(xs[0], xs[1]) => {
            AtomicCombine::Max
        }
        _ => return false,
    };
    match t.prim().and_then(|p| Red::of(op, p)) {
        Some(r) => {
            ops.push(r);
            true
        }
        None => false,
    }
}

/// A reduction the ISA has (`red`/`atom`): 32/64-bit integers, and addition
/// of f32/f64.
#[derive(Clone, Copy, Debug)]
pub(super) struct Red {
    pub(super) op: accel_core::plan::AtomicCombine,
    pub(super) p: Prim,
}

impl Red {
    fn of(op: accel_core::plan::AtomicCombine, p: Prim) -> Option<Red> {
        use accel_core::plan::AtomicCombine;
        let ok = p.width() >= 32 && p != Prim::Bool && (!p.is_float() || op == AtomicCombine::Add);
        ok.then_some(Red { op, p })
    }

    /// `op.type`, as `red` and `atom` take it.
    pub(super) fn name(self) -> String {
        use accel_core::plan::AtomicCombine;
        let (op, p) = (self.op, self.p);
        let ty = match op {
            AtomicCombine::Add if p.is_float() => super::lower::mty(p).to_string(),
            AtomicCombine::Add => format!("u{}", p.width()),
            AtomicCombine::And | AtomicCombine::Or | AtomicCombine::Xor => format!("b{}", p.width()),
            AtomicCombine::Min | AtomicCombine::Max => super::lower::mty(p).to_string(),
        };
        let name = match op {
            AtomicCombine::Add => "add",
            AtomicCombine::Min => "min",
            AtomicCombine::Max => "max",
            AtomicCombine::And => "and",
            AtomicCombine::Or => "or",
            AtomicCombine::Xor => "xor",
        };
        format!("{name}.{ty}")
    }

    /// The bits of the operation's identity ([`identity`], which has one
    /// for every type and operation `Red::of` admits).
    pub(super) fn identity_bits(self) -> u64 {
        identity(self.op, self.p).unwrap_or_default()
    }
}

/// The bits of `op`'s identity on `p` (combining it changes nothing), for
/// integers, `bool` (bit operations) and f32/f64 (sums, minima, maxima);
/// `None` for the others (half floats).
pub(super) fn identity(op: AtomicCombine, p: Prim) -> Option<u64> {
    let w = p.width();
    let ones = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let float = matches!(p, Prim::F32 | Prim::F64);
    let inf = |neg: bool| match (p, neg) {
        (Prim::F32, false) => 0x7F80_0000,
        (Prim::F32, true) => 0xFF80_0000,
        (_, false) => 0x7FF0_0000_0000_0000,
        (_, true) => 0xFFF0_0000_0000_0000,
    };
    if matches!(p, Prim::F16 | Prim::BF16)
        || (float && !matches!(op, AtomicCombine::Add | AtomicCombine::Min | AtomicCombine::Max))
    {
        return None;
    }
    if p == Prim::Bool && matches!(op, AtomicCombine::Add | AtomicCombine::Min | AtomicCombine::Max) {
        return None;
    }
    Some(match op {
        // `x + -0.0` is `x` for every float `x`, `-0.0` included.
        AtomicCombine::Add if float => 1 << (w - 1),
        AtomicCombine::Add | AtomicCombine::Or | AtomicCombine::Xor => 0,
        AtomicCombine::And => ones,
        AtomicCombine::Min if float => inf(false),
        AtomicCombine::Min if p.is_signed() => ones >> 1,
        AtomicCombine::Min => ones,
        AtomicCombine::Max if float => inf(true),
        AtomicCombine::Max if p.is_signed() => 1 << (w - 1),
        AtomicCombine::Max => 0,
    })
}

/// A `.u64` pointer parameter, as a global address.
pub(super) fn gptr(l: &mut Lower, name: &'static str) -> String {
    let p = extra(l, name);
    let g = l.reg(Class::Rd);
    l.ins(format!("cvta.to.global.u64 {g}, {p};"));
    g
}

pub(super) fn ld64(l: &mut Lower, base: &str, idx: &str) -> String {
    let (a, r) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mad.lo.u64 {a}, {idx}, 8, {base};"));
    l.ins(format!("ld.global.u64 {r}, [{a}];"));
    r
}

pub(super) fn st64(l: &mut Lower, base: &str, idx: &str, v: &str) {
    let a = l.reg(Class::Rd);
    l.ins(format!("mad.lo.u64 {a}, {idx}, 8, {base};"));
    l.ins(format!("st.global.u64 [{a}], {v};"));
}

/// Threads of the `xscan` block (its shared slots).
pub(super) const SCAN_THREADS: usize = accel_types::launch::BLOCK_THREADS;

/// One block: the exclusive scan, in place, of the `tn` range sums at `psum`
/// (each thread a contiguous run of `tper`), and `stats = [total, max]`.
pub(super) fn scan_pass(l: &mut Lower) -> String {
    scan_runs(l, false)
}

/// Block `b` of many: the exclusive scan, in place, of its `bper` sums at
/// `psum` from `b * bper` (each thread a contiguous run of `tper`), seeded
/// with `part[b]`, the exclusive scan of the blocks' totals.
pub(super) fn scan_block_pass(l: &mut Lower) -> String {
    scan_runs(l, true)
}

fn scan_runs(l: &mut Lower, per_block: bool) -> String {
    let (tn, per) = (extra(l, "tn"), extra(l, "tper"));
    let psum = gptr(l, "psum");
    let id = ids(l);
    let tid = wide(l, &id.tid);
    let zero = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {zero}, 0;"));
    // The block's range, and what its scan starts from.
    let (first, limit, seed) = if per_block {
        let (bper, part) = (extra(l, "bper"), gptr(l, "part"));
        let b = wide(l, &id.ctaid);
        let (first, limit) = chunk(l, &zero, &b, &bper, &tn);
        let seed = ld64(l, &part, &b);
        (first, limit, seed)
    } else {
        (zero.clone(), tn.clone(), zero.clone())
    };
    let (k0, k1) = chunk(l, &first, &tid, &per, &limit);
    // The one-block scan also finds the largest value (`expand`'s longest run).
    let pmax = (!per_block).then(|| gptr(l, "pmax"));
    let (sum, mx, k) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mov.b64 {sum}, 0;"));
    l.ins(format!("mov.b64 {mx}, 0;"));
    l.ins(format!("mov.b64 {k}, {k0};"));
    let (top, done) = (l.label("xs"), l.label("xse"));
    l.put_label(&top);
    let stop = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop}, {k}, {k1};"));
    l.ins(format!("@{stop} bra {done};"));
    let a = ld64(l, &psum, &k);
    l.ins(format!("add.u64 {sum}, {sum}, {a};"));
    if let Some(pmax) = &pmax {
        let b = ld64(l, pmax, &k);
        l.ins(format!("max.u64 {mx}, {mx}, {b};"));
    }
    l.ins(format!("add.u64 {k}, {k}, 1;"));
    l.ins(format!("bra {top};"));
    l.put_label(&done);
    let sh = l_prefix(l);
    let (ss, sm) = (format!("{sh}_xsum"), format!("{sh}_xmax"));
    let slot = |l: &mut Lower, name: &str, i: &str| {
        let (b, a) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("mov.u64 {b}, {name};"));
        l.ins(format!("mad.lo.u64 {a}, {i}, 8, {b};"));
        a
    };
    let a = slot(l, &ss, &tid);
    l.ins(format!("st.shared.u64 [{a}], {sum};"));
    let a = slot(l, &sm, &tid);
    l.ins(format!("st.shared.u64 [{a}], {mx};"));
    l.ins("bar.sync 0;");
    // Thread 0 scans the block's sums in order.
    let skip = l.label("xs0");
    let nz = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {nz}, {}, 0;", id.tid));
    l.ins(format!("@{nz} bra {skip};"));
    let (run, m, i, nt) = (
        l.reg(Class::Rd),
        l.reg(Class::Rd),
        l.reg(Class::Rd),
        l.reg(Class::Rd),
    );
    l.ins(format!("mov.b64 {run}, {seed};"));
    l.ins(format!("mov.b64 {m}, 0;"));
    l.ins(format!("mov.b64 {i}, 0;"));
    l.ins(format!("cvt.u64.u32 {nt}, {};", id.ntid));
    let (t2, d2) = (l.label("xss"), l.label("xsse"));
    l.put_label(&t2);
    let s2 = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {s2}, {i}, {nt};"));
    l.ins(format!("@{s2} bra {d2};"));
    let a = slot(l, &ss, &i);
    let v = l.reg(Class::Rd);
    l.ins(format!("ld.shared.u64 {v}, [{a}];"));
    l.ins(format!("st.shared.u64 [{a}], {run};"));
    l.ins(format!("add.u64 {run}, {run}, {v};"));
    let a = slot(l, &sm, &i);
    let w = l.reg(Class::Rd);
    l.ins(format!("ld.shared.u64 {w}, [{a}];"));
    l.ins(format!("max.u64 {m}, {m}, {w};"));
    l.ins(format!("add.u64 {i}, {i}, 1;"));
    l.ins(format!("bra {t2};"));
    l.put_label(&d2);
    if !per_block {
        let stats = gptr(l, "stats");
        let one = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {one}, 1;"));
        st64(l, &stats, &zero, &run);
        st64(l, &stats, &one, &m);
    }
    l.put_label(&skip);
    l.ins("bar.sync 0;");
    // Each thread's run again, from its carry.
    let a = slot(l, &ss, &tid);
    let carry = l.reg(Class::Rd);
    l.ins(format!("ld.shared.u64 {carry}, [{a}];"));
    l.ins(format!("mov.b64 {k}, {k0};"));
    let (t3, d3) = (l.label("xsc"), l.label("xsce"));
    l.put_label(&t3);
    let s3 = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {s3}, {k}, {k1};"));
    l.ins(format!("@{s3} bra {d3};"));
    let v = ld64(l, &psum, &k);
    st64(l, &psum, &k, &carry);
    l.ins(format!("add.u64 {carry}, {carry}, {v};"));
    l.ins(format!("add.u64 {k}, {k}, 1;"));
    l.ins(format!("bra {t3};"));
    l.put_label(&d3);
    l.ins("ret;");
    let mut decl = String::new();
    for name in [&ss, &sm] {
        let _ = writeln!(decl, "\t.shared .align 8 .b8 {name}[{}];", SCAN_THREADS * 8);
    }
    decl
}
