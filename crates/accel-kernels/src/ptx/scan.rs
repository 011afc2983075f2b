//! Scans of rows: a warp per short row, a block per row, or tiles with
//! decoupled look-back; the host picks (`gpu::launch::sizes::scan_split`).
//!
//! Within a row or a tile every thread scans a contiguous chunk: chunk
//! totals, their exclusive scan in shared memory, then each chunk again from
//! its prefix, so that elements combine in scan order (the operator need
//! only be associative).

use super::blocks::{
    apply2, block_reduce, chunk, elem_at, extra, ids, iter_dims, l_prefix, ld_leaves, ld_shared, leaves_decl,
    reduce_range, row_loop, shared_decl, st_leaves, st_shared, store_elem, wide, zero_reg, Ids, Load, Out,
    Reduced, MAX_THREADS, MAX_WARPS,
};
use super::lower::{leaf_bytes, leaves, Arg, Class, Lower, Unsupported};
use accel_core::ir::{Fun, ScanDir, ScanKind, Ty};
use accel_core::plan::{ElemFn, PassFold};
use accel_types::launch::{scan_stage_pad_shift, scan_stage_per, ScanEntry, BLOCK_THREADS};
use std::fmt::Write;

/// Entry `pass` of a scan kernel (the host launches one of them); its
/// shared-memory declarations.
pub(super) fn pass(
    l: &mut Lower,
    s: &ScanSpec,
    out: &Out,
    totals: Option<u32>,
    pass: ScanEntry,
) -> Result<String, Unsupported> {
    match pass {
        ScanEntry::Rows => scan(l, s, out, totals, scan_stage_per(&leaf_bytes(s.t))),
        ScanEntry::WarpRows => scan(l, s, out, totals, None),
        ScanEntry::Lookback => scan_lookback(l, s, out, totals),
    }
}

/// What every scan entry shares: direction, kind, initial value (its
/// parameter registers) and the combination, over accumulators of type `t`,
/// and the folds in its pass.
pub(super) struct ScanSpec<'a> {
    e: &'a ElemFn,
    dir: ScanDir,
    kind: ScanKind,
    zv: Option<Vec<String>>,
    f: &'a Fun,
    t: &'a Ty,
    folds: &'a [ScanFold<'a>],
}

/// A fold in the scan's pass (`super::gpu_plan` keeps commutative ones):
/// each thread folds the elements it stores, a block its threads' results;
/// the tiles of a row chain theirs through the partial results, in the
/// columns from `part` on.
pub(super) struct ScanFold<'a> {
    pub(super) fold: &'a PassFold,
    /// Its accumulator's type.
    pub(super) acc: Ty,
    /// Where its result goes, through its `post`.
    pub(super) out: Out<'a>,
    pub(super) part: usize,
}

/// A thread's accumulator for each fold in the pass, with its `.u32`
/// validity (0: no element yet).
type FoldAccs = Vec<(Vec<String>, String)>;

/// `acc` followed by `x` under `f`, into `acc` (`x` alone when `have` is 0);
/// `have` becomes 1.
fn accumulate(
    l: &mut Lower,
    f: &Fun,
    t: &Ty,
    acc: &[String],
    have: &str,
    x: &[String],
) -> Result<(), Unsupported> {
    let (take, done) = (l.label("fa"), l.label("fad"));
    let p = l.reg(Class::P);
    l.ins(format!("setp.eq.u32 {p}, {have}, 0;"));
    l.ins(format!("@{p} bra {take};"));
    let w = apply2(l, f, acc, x)?;
    l.assign(acc, &w, t);
    l.ins(format!("bra {done};"));
    l.put_label(&take);
    l.assign(acc, x, t);
    l.ins(format!("mov.b32 {have}, 1;"));
    l.put_label(&done);
    Ok(())
}

impl ScanSpec<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new<'a>(
        l: &mut Lower,
        e: &'a ElemFn,
        dir: ScanDir,
        kind: ScanKind,
        z: bool,
        f: &'a Fun,
        t: &'a Ty,
        folds: &'a [ScanFold<'a>],
    ) -> ScanSpec<'a> {
        let zv = z.then(|| {
            leaves(t)
                .into_iter()
                .enumerate()
                .flat_map(|(k, p)| l.param(Arg::Z(k, p)))
                .collect()
        });
        ScanSpec {
            e,
            dir,
            kind,
            zv,
            f,
            t,
            folds,
        }
    }

    /// `comb(acc, x)`: one step of the scan in its own order (the left operand
    /// always holds the lower indices).
    fn comb(&self, l: &mut Lower, acc: &[String], x: &[String]) -> Result<Vec<String>, Unsupported> {
        match self.dir {
            ScanDir::Left => apply2(l, self.f, acc, x),
            ScanDir::Right => apply2(l, self.f, x, acc),
        }
    }

    /// Reduces scan positions `start..end` in scan order.
    fn reduce(&self, l: &mut Lower, start: &str, end: &str, load: &mut Load) -> Result<Reduced, Unsupported> {
        match self.dir {
            ScanDir::Left => reduce_range(l, start, end, self.f, self.t, load),
            ScanDir::Right => reduce_range_rev(l, start, end, self.f, self.t, load),
        }
    }

    /// Reduces the thread's positions `qs..qe` of the row starting at linear
    /// index `first`, read from `stage` when the tile is staged.
    fn reduce_own(
        &self,
        l: &mut Lower,
        stage: Option<&Stage>,
        len: &str,
        first: &str,
        (qs, qe): (&str, &str),
    ) -> Result<Reduced, Unsupported> {
        let mut load = |l: &mut Lower, q: &str| match stage {
            Some(st) => Ok(st.load_own(l, q, self.t)),
            None => Ok(self.elem_q(l, len, first, q)?.0),
        };
        self.reduce(l, qs, qe, &mut load)
    }

    /// The element at scan position `q` of the row starting at linear index
    /// `first`, and its index `j` in the row (`q`, or `len - 1 - q`).
    fn elem_q(&self, l: &mut Lower, len: &str, first: &str, q: &str) -> Result<Reduced, Unsupported> {
        let j = self.j_of(l, len, q);
        let lin = l.reg(Class::Rd);
        l.ins(format!("add.u64 {lin}, {first}, {j};"));
        Ok((elem_at(l, self.e, &lin)?, j))
    }

    /// The index in its row of scan position `q`: `q`, or `len - 1 - q`.
    fn j_of(&self, l: &mut Lower, len: &str, q: &str) -> String {
        let j = l.reg(Class::Rd);
        match self.dir {
            ScanDir::Left => l.ins(format!("mov.b64 {j}, {q};")),
            ScanDir::Right => {
                l.ins(format!("sub.u64 {j}, {len}, {q};"));
                l.ins(format!("sub.u64 {j}, {j}, 1;"));
            }
        }
        j
    }

    /// The output position of scan position `q` (index `j` in its row) of
    /// the row whose outputs start at `obase`.
    fn out_pos(&self, l: &mut Lower, obase: &str, q: &str, j: &str) -> String {
        let pos = l.reg(Class::Rd);
        match (self.kind, self.dir) {
            (ScanKind::WithInit, ScanDir::Left) => {
                l.ins(format!("add.u64 {pos}, {obase}, {q};"));
                l.ins(format!("add.u64 {pos}, {pos}, 1;"));
            }
            _ => l.ins(format!("add.u64 {pos}, {obase}, {j};")),
        }
        pos
    }

    /// Stores `v`, the running value at an output: before the element
    /// (`Exclusive`, stored as it is) or after it (through `post`), and folds
    /// it into `accs` (the folds in the pass; `j` is the element's index in
    /// its row, which starts at input position `first`).
    #[allow(clippy::too_many_arguments)]
    fn store_out(
        &self,
        l: &mut Lower,
        out: &Out,
        pos: &str,
        v: &[String],
        accs: &FoldAccs,
        first: &str,
        j: &str,
    ) -> Result<(), Unsupported> {
        match self.kind {
            ScanKind::Exclusive => {
                out.dest.store(l, pos, v);
                Ok(())
            }
            _ => {
                let w = out.value(l, pos, v)?;
                out.dest.store(l, pos, &w);
                if !accs.is_empty() {
                    let input = l.reg(Class::Rd);
                    l.ins(format!("add.u64 {input}, {first}, {j};"));
                    self.fold_value(l, accs, &w, pos, &input)?;
                }
                Ok(())
            }
        }
    }

    /// Every output of the thread's positions `qs..qe` of a row (of length
    /// `len`, its inputs from `first`, its outputs from `obase`), scanned
    /// from `carry` (valid when its `.u32` is not 0); through the stage when
    /// there is one (the block synchronises). Returns the thread's results
    /// of the folds in the pass.
    fn outputs(
        &self,
        l: &mut Lower,
        out: &Out,
        (len, first, obase): (&str, &str, &str),
        (qs, qe): (&str, &str),
        (carry, valid): (&[String], &str),
        stage: Option<&Stage>,
    ) -> Result<FoldAccs, Unsupported> {
        let accs = self.fold_accs(l);
        self.out_range(l, out, len, first, obase, (qs, qe), carry, valid, stage, &accs)?;
        if let Some(st) = stage {
            l.ins("bar.sync 0;");
            self.stage_out(l, out, st, len, first, obase, &accs)?;
        }
        Ok(accs)
    }

    /// A fresh accumulator per fold in the pass, with nothing in it.
    fn fold_accs(&self, l: &mut Lower) -> FoldAccs {
        self.folds
            .iter()
            .map(|g| {
                let acc = l.fresh(&g.acc);
                for (r, p) in acc.clone().iter().zip(leaves(&g.acc)) {
                    zero_reg(l, r, p);
                }
                let have = l.reg(Class::R);
                l.ins(format!("mov.b32 {have}, 0;"));
                (acc, have)
            })
            .collect()
    }

    /// Folds the output `w` (after `post`) at output position `pos`, input
    /// position `input`, into each fold's accumulator: a fold of the
    /// outputs takes its element at `pos`, one beside the scan at `input`.
    fn fold_value(
        &self,
        l: &mut Lower,
        accs: &FoldAccs,
        w: &[String],
        pos: &str,
        input: &str,
    ) -> Result<(), Unsupported> {
        for (g, (acc, have)) in self.folds.iter().zip(accs) {
            let at = match g.fold.of_array {
                Some(_) => pos,
                None => input,
            };
            let x = self.fold_elem(l, g, w, at)?;
            accumulate(l, &g.fold.f, &g.acc, acc, have, &x)?;
        }
        Ok(())
    }

    /// Fold `g`'s element for the output `w` at linear position `lin` of
    /// its space (the outputs', each row one longer for a `scanl`/`scanr`,
    /// or the input's).
    fn fold_elem(
        &self,
        l: &mut Lower,
        g: &ScanFold,
        w: &[String],
        lin: &str,
    ) -> Result<Vec<String>, Unsupported> {
        let (value, ix) = (g.fold.elem.params[0], g.fold.elem.params[1]);
        let rank = match &l.a.var(ix).ty {
            Ty::Index(r) => *r,
            _ => 1,
        };
        let mut dims = iter_dims(l, rank);
        if let (true, Some(last)) = (
            g.fold.of_array.is_some() && self.kind == ScanKind::WithInit,
            dims.last_mut(),
        ) {
            let wider = l.reg(Class::Rd);
            l.ins(format!("add.u64 {wider}, {last}, 1;"));
            *last = wider;
        }
        let at = l.delinearize(lin, &dims);
        let old_v = l.bind(value, w.to_vec());
        let old_ix = l.bind(ix, at);
        let r = l.expr(g.fold.elem.body);
        l.unbind(ix, old_ix);
        l.unbind(value, old_v);
        r
    }

    /// The block's result of each fold in the pass, in thread 0's `accs`
    /// (every thread must call it), with a `scanl`/`scanr`'s initial output
    /// folded in by the row's first tile (`first_tile`, a predicate; `None`:
    /// the row is one tile), whose thread 0 stored it.
    #[allow(clippy::too_many_arguments)]
    fn reduce_folds(
        &self,
        l: &mut Lower,
        id: &Ids,
        sh: &str,
        accs: &FoldAccs,
        out: &Out,
        obase: &str,
        len: &str,
        first_tile: Option<&str>,
    ) -> Result<(), Unsupported> {
        for (n, (g, (acc, have))) in self.folds.iter().zip(accs).enumerate() {
            block_reduce(l, id, acc, have, &g.fold.f, &g.acc, &format!("{sh}_f{n}"))?;
        }
        let (ScanKind::WithInit, Some(zv)) = (self.kind, &self.zv) else {
            return Ok(());
        };
        if !self.folds.iter().any(|g| g.fold.of_array.is_some()) {
            return Ok(());
        }
        // Thread 0 of the row's first tile: the initial output, as stored.
        let skip = l.label("fz");
        let p = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {p}, {}, 0;", id.tid));
        l.ins(format!("@{p} bra {skip};"));
        if let Some(ft) = first_tile {
            l.ins(format!("@!{ft} bra {skip};"));
        }
        let pos = l.reg(Class::Rd);
        match self.dir {
            ScanDir::Left => l.ins(format!("mov.b64 {pos}, {obase};")),
            ScanDir::Right => l.ins(format!("add.u64 {pos}, {obase}, {len};")),
        }
        let w = out.value(l, &pos, zv)?;
        for (g, (acc, have)) in self.folds.iter().zip(accs) {
            if g.fold.of_array.is_some() {
                let x = self.fold_elem(l, g, &w, &pos)?;
                accumulate(l, &g.fold.f, &g.acc, acc, have, &x)?;
            }
        }
        l.put_label(&skip);
        Ok(())
    }

    /// Each fold's result from its accumulator (with its initial value,
    /// computed here: `super::gpu_plan` keeps only plain ones), through its
    /// `post` to element `row` of its output.
    fn store_folds(&self, l: &mut Lower, accs: &FoldAccs, row: &str) -> Result<(), Unsupported> {
        for (g, (acc, have)) in self.folds.iter().zip(accs) {
            let v = match g.fold.z {
                Some(z) => {
                    let zv = l.expr(z)?;
                    let v = l.fresh(&g.acc);
                    l.assign(&v, &zv, &g.acc);
                    let skip = l.label("fzn");
                    let p = l.reg(Class::P);
                    l.ins(format!("setp.eq.u32 {p}, {have}, 0;"));
                    l.ins(format!("@{p} bra {skip};"));
                    let w = apply2(l, &g.fold.f, &zv, acc)?;
                    l.assign(&v, &w, &g.acc);
                    l.put_label(&skip);
                    v
                }
                None => acc.clone(),
            };
            g.out.store(l, row, &v)?;
        }
        Ok(())
    }

    /// Shared memory for the folds' block reductions.
    fn folds_decl(&self, sh: &str) -> String {
        let mut decl = String::new();
        for (n, g) in self.folds.iter().enumerate() {
            decl.push_str(&shared_decl(&format!("{sh}_f{n}"), &g.acc, MAX_WARPS * 4));
        }
        decl
    }

    /// The stage `{sh}_st` of `tile` (the thread's first position `qs`),
    /// holding every element of the tile of the row starting at `first`:
    /// consecutive threads read consecutive positions (coalesced), then the
    /// block synchronises.
    #[allow(clippy::too_many_arguments)]
    fn stage_in(
        &self,
        l: &mut Lower,
        sh: &str,
        tile: Tile<'_>,
        qs: &str,
        len: &str,
        first: &str,
    ) -> Result<Stage, Unsupported> {
        let st = Stage::new(l, format!("{sh}_st"), self.t, tile, qs);
        st.striped(l, &mut |l, q, slot| {
            let (x, _) = self.elem_q(l, len, first, q)?;
            st_leaves(l, &st.name, slot, &x, self.t);
            Ok(())
        })?;
        l.ins("bar.sync 0;");
        Ok(st)
    }

    /// Stores the tile's outputs that `out_range` left in the stage,
    /// consecutive threads writing consecutive positions (coalesced). The
    /// block must have synchronised since.
    #[allow(clippy::too_many_arguments)]
    fn stage_out(
        &self,
        l: &mut Lower,
        out: &Out,
        st: &Stage,
        len: &str,
        first: &str,
        obase: &str,
        accs: &FoldAccs,
    ) -> Result<(), Unsupported> {
        st.striped(l, &mut |l, q, slot| {
            let v = l.fresh(self.t);
            ld_leaves(l, &st.name, slot, &v, self.t);
            let j = self.j_of(l, len, q);
            let pos = self.out_pos(l, obase, q, &j);
            self.store_out(l, out, &pos, &v, accs, first, &j)
        })
    }

    /// The first output of row `row` (rows of `len + 1` outputs for `scanl`/`scanr`).
    fn out_base(&self, l: &mut Lower, row: &str, len: &str) -> String {
        let width = l.reg(Class::Rd);
        match self.kind {
            ScanKind::WithInit => l.ins(format!("add.u64 {width}, {len}, 1;")),
            _ => l.ins(format!("mov.b64 {width}, {len};")),
        }
        let obase = l.reg(Class::Rd);
        l.ins(format!("mul.lo.u64 {obase}, {row}, {width};"));
        obase
    }

    /// Scans positions `qs..qe` of a row from carry `c` (valid when `cvalid`
    /// is not 0), storing every output and folding it into `accs`; with a
    /// `stage`, reading the elements from it and leaving the outputs there,
    /// in their places, for `stage_out`.
    #[allow(clippy::too_many_arguments)]
    fn out_range(
        &self,
        l: &mut Lower,
        out: &Out,
        len: &str,
        first: &str,
        obase: &str,
        (qs, qe): (&str, &str),
        c: &[String],
        cvalid: &str,
        stage: Option<&Stage>,
        accs: &FoldAccs,
    ) -> Result<(), Unsupported> {
        let t = self.t;
        let q = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {q}, {qs};"));
        let (top, end) = (l.label("s2"), l.label("s2e"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {stop}, {q}, {qe};"));
        l.ins(format!("@{stop} bra {end};"));
        // The element, and where its output goes: its slot in the stage, or
        // its place in the output.
        let (x, slot_or_pos, j) = match stage {
            Some(st) => {
                let slot = st.own_slot(l, &q);
                let x = l.fresh(t);
                ld_leaves(l, &st.name, &slot, &x, t);
                (x, slot, None)
            }
            None => {
                let (x, j) = self.elem_q(l, len, first, &q)?;
                let pos = self.out_pos(l, obase, &q, &j);
                (x, pos, Some(j))
            }
        };
        let put = |l: &mut Lower, v: &[String]| match (stage, &j) {
            (Some(st), _) => {
                st_leaves(l, &st.name, &slot_or_pos, v, t);
                Ok(())
            }
            (None, Some(j)) => self.store_out(l, out, &slot_or_pos, v, accs, first, j),
            (None, None) => unreachable!("an unstaged output has its index"),
        };
        match self.kind {
            ScanKind::Exclusive => {
                put(l, c)?;
                let v = self.comb(l, c, &x)?;
                l.assign(c, &v, t);
            }
            _ => {
                self.join(l, c, Some(cvalid), &x, None)?;
                put(l, c)?;
            }
        }
        l.ins(format!("add.u64 {q}, {q}, 1;"));
        l.ins(format!("bra {top};"));
        l.put_label(&end);
        Ok(())
    }

    /// `acc` followed by `x` in scan order, into `acc`: `x` alone when `acc`
    /// holds nothing, `acc` unchanged when `x` does. A validity is a `.u32`
    /// register (0: nothing), or `None` for a value always there; `av`
    /// becomes 1 when `x` was taken.
    fn join(
        &self,
        l: &mut Lower,
        acc: &[String],
        av: Option<&str>,
        x: &[String],
        xv: Option<&str>,
    ) -> Result<(), Unsupported> {
        let (done, take) = (l.label("jdone"), l.label("jtake"));
        if let Some(xv) = xv {
            let p = l.reg(Class::P);
            l.ins(format!("setp.eq.u32 {p}, {xv}, 0;"));
            l.ins(format!("@{p} bra {done};"));
        }
        if let Some(av) = av {
            let p = l.reg(Class::P);
            l.ins(format!("setp.eq.u32 {p}, {av}, 0;"));
            l.ins(format!("@{p} bra {take};"));
        }
        let w = self.comb(l, acc, x)?;
        l.assign(acc, &w, self.t);
        l.ins(format!("bra {done};"));
        l.put_label(&take);
        l.assign(acc, x, self.t);
        if let Some(av) = av {
            l.ins(format!("mov.b32 {av}, 1;"));
        }
        l.put_label(&done);
        Ok(())
    }

    /// A fresh carry and its `.u32` validity: `z` (valid), or nothing.
    fn seed(&self, l: &mut Lower) -> (Vec<String>, String) {
        let carry = l.fresh(self.t);
        let valid = l.reg(Class::R);
        match &self.zv {
            Some(zv) => {
                l.assign(&carry, zv, self.t);
                l.ins(format!("mov.b32 {valid}, 1;"));
            }
            None => {
                for (r, p) in carry.clone().iter().zip(leaves(self.t)) {
                    zero_reg(l, r, p);
                }
                l.ins(format!("mov.b32 {valid}, 0;"));
            }
        }
        (carry, valid)
    }

    /// The exclusive scan, in place, of the `ntid` totals in the shared slots
    /// `sh`, seeded with `z`; the combined total in slot `MAX_THREADS`.
    /// Every thread must call it (it synchronises the block).
    ///
    /// In log2(ntid) steps (Hillis and Steele): at distance `d`, slot `i`
    /// becomes slot `i - d` followed by slot `i`, all reads before a barrier
    /// and all writes after it, so the slots hold inclusive scans; each
    /// thread then takes the slot before its own. (One thread walking the
    /// 256 slots left the rest of the block idle: 11 of 32 lanes per warp
    /// instruction in a scan's profile.)
    fn scan_slots(&self, l: &mut Lower, sh: &str, tid: &str, ntid: &str) -> Result<(), Unsupported> {
        let t = self.t;
        l.ins("bar.sync 0;");
        let d = l.reg(Class::R);
        l.ins(format!("mov.b32 {d}, 1;"));
        let (top, end) = (l.label("hs"), l.label("hse"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u32 {stop}, {d}, {ntid};"));
        l.ins(format!("@{stop} bra {end};"));
        let idle = l.reg(Class::P);
        l.ins(format!("setp.lt.u32 {idle}, {tid}, {d};"));
        let (a, ha) = (l.fresh(t), l.reg(Class::R));
        let no_read = l.label("hsr");
        l.ins(format!("@{idle} bra {no_read};"));
        let before = l.reg(Class::R);
        l.ins(format!("sub.u32 {before}, {tid}, {d};"));
        ld_shared(l, sh, &before, &a, &ha, t);
        let (b, hb) = (l.fresh(t), l.reg(Class::R));
        ld_shared(l, sh, tid, &b, &hb, t);
        self.join(l, &a, Some(&ha), &b, Some(&hb))?;
        l.put_label(&no_read);
        l.ins("bar.sync 0;");
        let no_write = l.label("hsw");
        l.ins(format!("@{idle} bra {no_write};"));
        st_shared(l, sh, tid, &a, &ha, t);
        l.put_label(&no_write);
        l.ins("bar.sync 0;");
        l.ins(format!("shl.b32 {d}, {d}, 1;"));
        l.ins(format!("bra {top};"));
        l.put_label(&end);
        // Exclusive: the seed, then the inclusive scan of the slots before.
        let (e, ev) = self.seed(l);
        let first = l.label("hs0");
        let is_first = l.reg(Class::P);
        l.ins(format!("setp.eq.u32 {is_first}, {tid}, 0;"));
        l.ins(format!("@{is_first} bra {first};"));
        let before = l.reg(Class::R);
        l.ins(format!("sub.u32 {before}, {tid}, 1;"));
        let (x, hx) = (l.fresh(t), l.reg(Class::R));
        ld_shared(l, sh, &before, &x, &hx, t);
        self.join(l, &e, Some(&ev), &x, Some(&hx))?;
        l.put_label(&first);
        // The last thread: the seed and every slot, the total.
        let last = l.reg(Class::R);
        l.ins(format!("sub.u32 {last}, {ntid}, 1;"));
        let not_last = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {not_last}, {tid}, {last};"));
        let (total, tv) = self.seed(l);
        let no_total = l.label("hst");
        l.ins(format!("@{not_last} bra {no_total};"));
        let (y, hy) = (l.fresh(t), l.reg(Class::R));
        ld_shared(l, sh, tid, &y, &hy, t);
        self.join(l, &total, Some(&tv), &y, Some(&hy))?;
        l.put_label(&no_total);
        l.ins("bar.sync 0;");
        st_shared(l, sh, tid, &e, &ev, t);
        let no_store = l.label("hss");
        l.ins(format!("@{not_last} bra {no_store};"));
        let slot = l.reg(Class::R);
        l.ins(format!("mov.b32 {slot}, {};", MAX_THREADS));
        st_shared(l, sh, &slot, &total, &tv, t);
        l.put_label(&no_store);
        l.ins("bar.sync 0;");
        Ok(())
    }

    /// Thread 0 of the row's block: `post(z)` at the row's initial position
    /// (`scanl`/`scanr`), or the row's total from shared slot `MAX_THREADS`
    /// (`scanl_total`/`scanr_total`).
    #[allow(clippy::too_many_arguments)]
    fn finish_row(
        &self,
        l: &mut Lower,
        out: &Out,
        totals: Option<u32>,
        sh: &str,
        tid: &str,
        row: &str,
        obase: &str,
        len: &str,
    ) -> Result<(), Unsupported> {
        let skip = l.label("sz");
        let nz = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {nz}, {tid}, 0;"));
        l.ins(format!("@{nz} bra {skip};"));
        match (self.kind, &self.zv) {
            (ScanKind::WithInit, Some(zv)) => {
                let pos = l.reg(Class::Rd);
                match self.dir {
                    ScanDir::Left => l.ins(format!("mov.b64 {pos}, {obase};")),
                    ScanDir::Right => l.ins(format!("add.u64 {pos}, {obase}, {len};")),
                }
                out.store(l, &pos, zv)?;
            }
            (ScanKind::Exclusive, _) => {
                let tot = l.fresh(self.t);
                let tv = l.reg(Class::R);
                let last = l.reg(Class::R);
                l.ins(format!("mov.b32 {last}, {};", MAX_THREADS));
                ld_shared(l, sh, &last, &tot, &tv, self.t);
                if let Some(tb) = totals {
                    store_elem(l, tb, row, &tot, self.t);
                }
            }
            _ => {}
        }
        l.put_label(&skip);
        Ok(())
    }
}

/// One block per row; each thread scans a contiguous chunk: chunk totals,
/// their exclusive scan in shared memory, then each chunk again from its
/// prefix. With `stage_per` (`scan_stage_per`), the host sends rows of at
/// most one tile here, `per` a power of two (`sizes::scan_split`); the row
/// then goes through shared memory as a look-back tile does (`Stage`), read
/// and written by consecutive threads at consecutive positions.
fn scan(
    l: &mut Lower,
    s: &ScanSpec,
    out: &Out,
    totals: Option<u32>,
    stage_per: Option<usize>,
) -> Result<String, Unsupported> {
    let len = extra(l, "len");
    let id = ids(l);
    let sh = l_prefix(l);
    let tid = wide(l, &id.tid);
    // Elements per thread, from the host (`sizes::scan_split`).
    let per = extra(l, "per");
    let tidc = id.tid.clone();
    let ntidc = id.ntid.clone();
    let idc = id.clone();
    let t = s.t;
    let mut body = |l: &mut Lower, row: &str| -> Result<(), Unsupported> {
        let first = l.reg(Class::Rd);
        l.ins(format!("mul.lo.u64 {first}, {row}, {len};"));
        let zero = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {zero}, 0;"));
        let (qs, qe) = chunk(l, &zero, &tid, &per, &len);
        let tile = Tile {
            start: &zero,
            end: &len,
            tid: &tid,
            ntid: &ntidc,
        };
        let stage = stage_per
            .map(|_| s.stage_in(l, &sh, tile, &qs, &len, &first))
            .transpose()?;
        // Pass 1: the chunk's total.
        let (acc, have) = s.reduce_own(l, stage.as_ref(), &len, &first, (&qs, &qe))?;
        st_shared(l, &sh, &tidc, &acc, &have, t);
        s.scan_slots(l, &sh, &tidc, &ntidc)?;
        // Pass 2: each chunk from its prefix.
        let c = l.fresh(t);
        let cvalid = l.reg(Class::R);
        ld_shared(l, &sh, &tidc, &c, &cvalid, t);
        let obase = s.out_base(l, row, &len);
        let accs = s.outputs(
            l,
            out,
            (&len, &first, &obase),
            (&qs, &qe),
            (&c, &cvalid),
            stage.as_ref(),
        )?;
        s.finish_row(l, out, totals, &sh, &tidc, row, &obase, &len)?;
        if !accs.is_empty() {
            s.reduce_folds(l, &idc, &sh, &accs, out, &obase, &len, None)?;
            let skip = l.label("fst");
            let p = l.reg(Class::P);
            l.ins(format!("setp.ne.u32 {p}, {tidc}, 0;"));
            l.ins(format!("@{p} bra {skip};"));
            s.store_folds(l, &accs, row)?;
            l.put_label(&skip);
        }
        Ok(())
    };
    row_loop(l, &id, &mut body)?;
    let mut decl = shared_decl(&sh, t, MAX_THREADS + 1);
    decl.push_str(&s.folds_decl(&sh));
    if let Some(per) = stage_per {
        decl.push_str(&stage_decl(&format!("{sh}_st"), t, per));
    }
    Ok(decl)
}

/// The declaration of a stage of `BLOCK_THREADS * per` positions, with its
/// padding (a slot after every 32, or 16: [`scan_stage_pad_shift`]).
fn stage_decl(name: &str, t: &Ty, per: usize) -> String {
    let positions = BLOCK_THREADS * per;
    leaves_decl(name, t, positions + (positions >> pad_shift(t)))
}

/// The stage's padding for accumulators of type `t`: a slot after every
/// `1 << pad_shift(t)` positions.
fn pad_shift(t: &Ty) -> u32 {
    scan_stage_pad_shift(&leaf_bytes(t))
}

/// A value of type `t` at `idx` of the partial results, in their columns
/// from `col` on (the scan's from 0, a fold's from its `part`).
fn load_part(l: &mut Lower, col: usize, idx: &str, t: &Ty, volatile: bool) -> Vec<String> {
    let mut v = Vec::new();
    for (k, p) in leaves(t).into_iter().enumerate() {
        let base = l.param(Arg::Part(col + k))[0].clone();
        v.push(l.load(&base, idx, p, volatile));
    }
    v
}

fn store_part(l: &mut Lower, col: usize, idx: &str, v: &[String], t: &Ty) {
    for (k, (p, r)) in leaves(t).into_iter().zip(v).enumerate() {
        let base = l.param(Arg::Part(col + k))[0].clone();
        l.store(&base, idx, p, r, false);
    }
}

/// Few long rows in one pass, by tiles of `per` positions per thread and
/// decoupled look-back (Merrill and Garland): each block takes the next tile
/// (a counter in `status`, so every tile before it has started), scans it
/// as `scan` scans a row, and thread 0 publishes the tile's aggregate, then
/// combines the aggregates of the tiles before it, newest first, until it
/// meets a tile that has published its inclusive prefix; it publishes its
/// own, and the block writes its outputs from it.
///
/// `status` (zeroed by the host): the tile counter, then a flag per tile (0:
/// nothing yet, 1: aggregate, 2: inclusive prefix); the values are in the
/// partials buffer, the aggregate of tile `t` at `2t`, its prefix at `2t+1`.
/// Each value is written before its flag, with a fence between, and read
/// after it, with a fence between.
fn scan_lookback(l: &mut Lower, s: &ScanSpec, out: &Out, totals: Option<u32>) -> Result<String, Unsupported> {
    let (len, tpr, tiles, per) = (
        extra(l, "len"),
        extra(l, "tpr"),
        extra(l, "tiles"),
        extra(l, "per"),
    );
    let status = extra(l, "status");
    let id = ids(l);
    let sh = l_prefix(l);
    let t = s.t;
    // The host splits the tiles as `scan_stage_per` says (`sizes::scan_split`).
    let stage_per = scan_stage_per(&leaf_bytes(t));
    let tid = wide(l, &id.tid);
    let tidc = id.tid.clone();
    // Within a tile the scan starts without `z`: it enters with the prefix.
    let inner = ScanSpec { zv: None, ..*s };
    let not_first = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {not_first}, {tidc}, 0;"));
    let (top, end) = (l.label("lb"), l.label("lbend"));
    l.put_label(&top);
    // The next tile, from thread 0 through shared memory.
    let (tile32, tile) = (l.reg(Class::R), l.reg(Class::Rd));
    let took = l.label("took");
    l.ins(format!("@{not_first} bra {took};"));
    l.ins(format!("atom.global.add.u32 {tile32}, [{status}], 1;"));
    l.ins(format!("st.shared.u32 [{sh}_tile], {tile32};"));
    l.put_label(&took);
    l.ins("bar.sync 0;");
    l.ins(format!("ld.shared.u32 {tile32}, [{sh}_tile];"));
    l.ins(format!("cvt.u64.u32 {tile}, {tile32};"));
    let done = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {done}, {tile}, {tiles};"));
    l.ins(format!("@{done} bra {end};"));
    let (row, k) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("div.u64 {row}, {tile}, {tpr};"));
    l.ins(format!("rem.u64 {k}, {tile}, {tpr};"));
    let (first, size, tstart) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mul.lo.u64 {first}, {row}, {len};"));
    l.ins(format!("mul.wide.u32 {size}, {}, 1;", id.ntid));
    l.ins(format!("mul.lo.u64 {size}, {size}, {per};"));
    l.ins(format!("mul.lo.u64 {tstart}, {k}, {size};"));
    let tend = l.reg(Class::Rd);
    l.ins(format!("add.u64 {tend}, {tstart}, {size};"));
    l.ins(format!("min.u64 {tend}, {tend}, {len};"));
    let (qs, qe) = chunk(l, &tstart, &tid, &per, &tend);
    // Each thread scans its own consecutive positions; the tile is staged
    // in shared memory, so that reads and writes of global memory by
    // consecutive threads are of consecutive elements.
    let span = Tile {
        start: &tstart,
        end: &tend,
        tid: &tid,
        ntid: &id.ntid,
    };
    let stage = stage_per
        .map(|_| s.stage_in(l, &sh, span, &qs, &len, &first))
        .transpose()?;
    let (acc, have) = s.reduce_own(l, stage.as_ref(), &len, &first, (&qs, &qe))?;
    st_shared(l, &sh, &tidc, &acc, &have, t);
    // The threads' exclusive prefixes within the tile; its aggregate in slot MAX_THREADS.
    inner.scan_slots(l, &sh, &tidc, &id.ntid)?;
    let (agg_slot, pre_slot) = (l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("mov.b32 {agg_slot}, {};", MAX_THREADS));
    l.ins(format!("mov.b32 {pre_slot}, {};", MAX_THREADS + 1));
    let published = l.label("pub");
    l.ins(format!("@{not_first} bra {published};"));
    {
        let agg = l.fresh(t);
        let agg_have = l.reg(Class::R);
        ld_shared(l, &sh, &agg_slot, &agg, &agg_have, t);
        let flags = l.reg(Class::Rd);
        l.ins(format!("add.u64 {flags}, {status}, 4;"));
        let publish = |l: &mut Lower, at: &str, flag: u32, v: &[String]| {
            store_part(l, 0, at, v, t);
            l.ins("fence.acq_rel.gpu;");
            let a = l.reg(Class::Rd);
            l.ins(format!("mad.lo.u64 {a}, {tile}, 4, {flags};"));
            l.ins(format!("st.volatile.global.u32 [{a}], {flag};"));
        };
        // The prefix: `z` (or nothing) for the row's first tile.
        let (prefix, pv) = s.seed(l);
        let own = l.label("own");
        let first_tile = l.reg(Class::P);
        l.ins(format!("setp.eq.u64 {first_tile}, {k}, 0;"));
        l.ins(format!("@{first_tile} bra {own};"));
        let at = l.reg(Class::Rd);
        l.ins(format!("shl.b64 {at}, {tile}, 1;"));
        publish(l, &at, 1, &agg);
        // Back over the tiles before this one, newest first.
        let j = l.reg(Class::Rd);
        l.ins(format!("sub.u64 {j}, {tile}, 1;"));
        l.ins(format!("mov.b32 {pv}, 0;"));
        let (back, spin, found) = (l.label("back"), l.label("spin"), l.label("found"));
        l.put_label(&back);
        let (fa, flag) = (l.reg(Class::Rd), l.reg(Class::R));
        l.ins(format!("mad.lo.u64 {fa}, {j}, 4, {flags};"));
        l.put_label(&spin);
        l.ins(format!("ld.volatile.global.u32 {flag}, [{fa}];"));
        let none = l.reg(Class::P);
        l.ins(format!("setp.eq.u32 {none}, {flag}, 0;"));
        l.ins(format!("@{none} bra {spin};"));
        l.ins("fence.acq_rel.gpu;");
        let (vi, inclusive) = (l.reg(Class::Rd), l.reg(Class::P));
        l.ins(format!("setp.eq.u32 {inclusive}, {flag}, 2;"));
        l.ins(format!("shl.b64 {vi}, {j}, 1;"));
        l.ins(format!("@{inclusive} add.u64 {vi}, {vi}, 1;"));
        let v = load_part(l, 0, &vi, t, true);
        // The earlier tile's value comes first in scan order.
        s.join(l, &v, None, &prefix, Some(&pv))?;
        l.assign(&prefix, &v, t);
        l.ins(format!("mov.b32 {pv}, 1;"));
        l.ins(format!("@{inclusive} bra {found};"));
        l.ins(format!("sub.u64 {j}, {j}, 1;"));
        l.ins(format!("bra {back};"));
        l.put_label(&found);
        // This tile's inclusive prefix, for the tiles after it.
        l.put_label(&own);
        let (incl, iv) = (l.fresh(t), l.reg(Class::R));
        l.assign(&incl, &prefix, t);
        l.ins(format!("mov.b32 {iv}, {pv};"));
        s.join(l, &incl, Some(&iv), &agg, None)?;
        let at = l.reg(Class::Rd);
        l.ins(format!("shl.b64 {at}, {tile}, 1;"));
        l.ins(format!("add.u64 {at}, {at}, 1;"));
        publish(l, &at, 2, &incl);
        st_shared(l, &sh, &pre_slot, &prefix, &pv, t);
        // The row's first tile writes `z` at its position (`scanl`, `scanr`);
        // its last tile writes the row's total (`scanl_total`, `scanr_total`).
        let obase = s.out_base(l, &row, &len);
        if s.kind == ScanKind::WithInit {
            if let Some(zv) = &s.zv {
                let skip = l.label("noinit");
                let np = l.reg(Class::P);
                l.ins(format!("setp.ne.u64 {np}, {k}, 0;"));
                l.ins(format!("@{np} bra {skip};"));
                let pos = l.reg(Class::Rd);
                match s.dir {
                    ScanDir::Left => l.ins(format!("mov.b64 {pos}, {obase};")),
                    ScanDir::Right => l.ins(format!("add.u64 {pos}, {obase}, {len};")),
                }
                out.store(l, &pos, zv)?;
                l.put_label(&skip);
            }
        }
        if let Some(tb) = totals {
            let skip = l.label("nototal");
            let (last, nl) = (l.reg(Class::Rd), l.reg(Class::P));
            l.ins(format!("sub.u64 {last}, {tpr}, 1;"));
            l.ins(format!("setp.ne.u64 {nl}, {k}, {last};"));
            l.ins(format!("@{nl} bra {skip};"));
            store_elem(l, tb, &row, &incl, t);
            l.put_label(&skip);
        }
    }
    l.put_label(&published);
    l.ins("bar.sync 0;");
    // Each thread's carry: the tile's prefix, then the threads before it.
    let (p, pv) = (l.fresh(t), l.reg(Class::R));
    ld_shared(l, &sh, &pre_slot, &p, &pv, t);
    let (c, cv) = (l.fresh(t), l.reg(Class::R));
    ld_shared(l, &sh, &tidc, &c, &cv, t);
    s.join(l, &p, Some(&pv), &c, Some(&cv))?;
    let obase = s.out_base(l, &row, &len);
    let accs = s.outputs(
        l,
        out,
        (&len, &first, &obase),
        (&qs, &qe),
        (&p, &pv),
        stage.as_ref(),
    )?;
    if !accs.is_empty() {
        let tile_of = TileOf {
            tile: &tile,
            k: &k,
            tpr: &tpr,
            tiles: &tiles,
            status: &status,
            row: &row,
        };
        s.chain_folds(l, &id, &sh, &accs, out, (&obase, &len), tile_of)?;
    }
    l.ins("bar.sync 0;");
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    l.ins("ret;");
    let mut decl = shared_decl(&sh, t, MAX_THREADS + 2);
    decl.push_str(&s.folds_decl(&sh));
    let _ = writeln!(decl, "\t.shared .align 4 .u32 {sh}_tile;");
    if let Some(per) = stage_per {
        decl.push_str(&stage_decl(&format!("{sh}_st"), t, per));
    }
    Ok(decl)
}

/// A look-back tile, as registers: its number, its number `k` in its row
/// `row`, the tiles per row and in all, and the status words (the counter,
/// the scan's flags, the folds' flags).
#[derive(Clone, Copy)]
struct TileOf<'a> {
    tile: &'a str,
    k: &'a str,
    tpr: &'a str,
    tiles: &'a str,
    status: &'a str,
    row: &'a str,
}

impl ScanSpec<'_> {
    /// The folds in the pass across the tiles of a row: the block's results
    /// (with the initial output, in the first tile), then thread 0 waits for
    /// the tile before (its flag in the folds' flags, after the scan's),
    /// adds that tile's results, and publishes the sums (value, fence, flag);
    /// the row's last tile stores the folds' results instead. A tile waits
    /// only for one that took its number earlier, so that one runs.
    #[allow(clippy::too_many_arguments)]
    fn chain_folds(
        &self,
        l: &mut Lower,
        id: &Ids,
        sh: &str,
        accs: &FoldAccs,
        out: &Out,
        (obase, len): (&str, &str),
        t: TileOf<'_>,
    ) -> Result<(), Unsupported> {
        let first_tile = l.reg(Class::P);
        l.ins(format!("setp.eq.u64 {first_tile}, {}, 0;", t.k));
        self.reduce_folds(l, id, sh, accs, out, obase, len, Some(&first_tile))?;
        let done = l.label("fcd");
        let not0 = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {not0}, {}, 0;", id.tid));
        l.ins(format!("@{not0} bra {done};"));
        let flags = l.reg(Class::Rd);
        l.ins(format!("mad.lo.u64 {flags}, {}, 4, {};", t.tiles, t.status));
        l.ins(format!("add.u64 {flags}, {flags}, 4;"));
        let own = l.label("fown");
        l.ins(format!("@{first_tile} bra {own};"));
        let (prev, fa, flag) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::R));
        l.ins(format!("sub.u64 {prev}, {}, 1;", t.tile));
        l.ins(format!("mad.lo.u64 {fa}, {prev}, 4, {flags};"));
        let spin = l.label("fspin");
        l.put_label(&spin);
        l.ins(format!("ld.volatile.global.u32 {flag}, [{fa}];"));
        let none = l.reg(Class::P);
        l.ins(format!("setp.eq.u32 {none}, {flag}, 0;"));
        l.ins(format!("@{none} bra {spin};"));
        l.ins("fence.acq_rel.gpu;");
        for (g, (acc, have)) in self.folds.iter().zip(accs) {
            let before = load_part(l, g.part, &prev, &g.acc, true);
            accumulate(l, &g.fold.f, &g.acc, acc, have, &before)?;
        }
        l.put_label(&own);
        let (last, is_last) = (l.reg(Class::Rd), l.reg(Class::P));
        l.ins(format!("sub.u64 {last}, {}, 1;", t.tpr));
        l.ins(format!("setp.eq.u64 {is_last}, {}, {last};", t.k));
        let finish = l.label("ffin");
        l.ins(format!("@{is_last} bra {finish};"));
        for (g, (acc, _)) in self.folds.iter().zip(accs) {
            store_part(l, g.part, t.tile, acc, &g.acc);
        }
        l.ins("fence.acq_rel.gpu;");
        let a = l.reg(Class::Rd);
        l.ins(format!("mad.lo.u64 {a}, {}, 4, {flags};", t.tile));
        l.ins(format!("st.volatile.global.u32 [{a}], 1;"));
        l.ins(format!("bra {done};"));
        l.put_label(&finish);
        self.store_folds(l, accs, t.row)?;
        l.put_label(&done);
        Ok(())
    }
}

/// The tile a block scans, as registers: positions `start..end` of its row,
/// by the block's `ntid` threads, this one `tid`.
#[derive(Clone, Copy)]
struct Tile<'a> {
    start: &'a str,
    end: &'a str,
    tid: &'a str,
    ntid: &'a str,
}

/// A tile's elements (then its outputs) in shared memory: the arrays
/// `name`, position `q` of the tile starting at `tstart` in slot `o + (o >>
/// shift)` for its offset `o = q - tstart`. The padding (a slot after every
/// 32, or 16 for 8-byte leaves: [`scan_stage_pad_shift`]) puts the threads
/// of a warp in different banks when each reads its own consecutive
/// positions (offsets `per`, a power of two, apart).
struct Stage {
    name: String,
    /// The tile's first position and its end, and the thread's number and
    /// the block's threads (`.u64`, `.u64`, `.u64`, `.u32` registers).
    tstart: String,
    tend: String,
    tid: String,
    ntid: String,
    /// A slot of padding after every `1 << shift` positions.
    shift: u32,
    /// The slot of the thread's first position less that position, as
    /// `.u32`: its positions stay within `1 << shift` aligned offsets
    /// (`per` divides 16), so their padding is the same.
    own_base: String,
}

impl Stage {
    /// The stage of `tile` for elements of type `t`, for the thread whose
    /// first position is `qs`.
    fn new(l: &mut Lower, name: String, t: &Ty, tile: Tile<'_>, qs: &str) -> Stage {
        let shift = pad_shift(t);
        let (t32, q32, pad) = (l.reg(Class::R), l.reg(Class::R), l.reg(Class::R));
        l.ins(format!("cvt.u32.u64 {t32}, {};", tile.start));
        l.ins(format!("cvt.u32.u64 {q32}, {qs};"));
        l.ins(format!("sub.u32 {pad}, {q32}, {t32};"));
        l.ins(format!("shr.u32 {pad}, {pad}, {shift};"));
        let own_base = l.reg(Class::R);
        l.ins(format!("sub.u32 {own_base}, {t32}, {pad};"));
        Stage {
            name,
            tstart: tile.start.to_string(),
            tend: tile.end.to_string(),
            tid: tile.tid.to_string(),
            ntid: tile.ntid.to_string(),
            shift,
            own_base,
        }
    }

    /// The value staged at position `q`, one of the thread's own.
    fn load_own(&self, l: &mut Lower, q: &str, t: &Ty) -> Vec<String> {
        let slot = self.own_slot(l, q);
        let x = l.fresh(t);
        ld_leaves(l, &self.name, &slot, &x, t);
        x
    }

    /// The slot of position `q`, one of the thread's own (a `.u32` register).
    fn own_slot(&self, l: &mut Lower, q: &str) -> String {
        let slot = l.reg(Class::R);
        l.ins(format!("cvt.u32.u64 {slot}, {q};"));
        l.ins(format!("sub.u32 {slot}, {slot}, {};", self.own_base));
        slot
    }

    /// The tile's positions `tstart + tid, tstart + tid + ntid, ..` below
    /// `tend` (consecutive threads at consecutive positions), each with its
    /// slot: `body(q, slot)` once per position.
    fn striped(
        &self,
        l: &mut Lower,
        body: &mut dyn FnMut(&mut Lower, &str, &str) -> Result<(), Unsupported>,
    ) -> Result<(), Unsupported> {
        let (tend, tid, ntid, shift) = (&self.tend, &self.tid, &self.ntid, self.shift);
        let (q, step) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("add.u64 {q}, {}, {tid};", self.tstart));
        l.ins(format!("cvt.u64.u32 {step}, {ntid};"));
        // `ntid` is a multiple of 32: each step moves the slot by `ntid + (ntid >> shift)`.
        let (slot, sstep, t32) = (l.reg(Class::R), l.reg(Class::R), l.reg(Class::R));
        l.ins(format!("cvt.u32.u64 {t32}, {tid};"));
        l.ins(format!("shr.u32 {slot}, {t32}, {shift};"));
        l.ins(format!("add.u32 {slot}, {slot}, {t32};"));
        l.ins(format!("shr.u32 {sstep}, {ntid}, {shift};"));
        l.ins(format!("add.u32 {sstep}, {sstep}, {ntid};"));
        let (top, end) = (l.label("stp"), l.label("stpe"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {stop}, {q}, {tend};"));
        l.ins(format!("@{stop} bra {end};"));
        body(l, &q, &slot)?;
        l.ins(format!("add.u64 {q}, {q}, {step};"));
        l.ins(format!("add.u32 {slot}, {slot}, {sstep};"));
        l.ins(format!("bra {top};"));
        l.put_label(&end);
        Ok(())
    }
}

/// `reduce_range` combining in the right-to-left order: `acc = f(x, acc)`.
fn reduce_range_rev(
    l: &mut Lower,
    start: &str,
    end: &str,
    f: &Fun,
    t: &Ty,
    load: &mut Load,
) -> Result<Reduced, Unsupported> {
    // Swap the parameters: g(acc, x) = f(x, acc).
    let g = Fun {
        params: vec![f.params[1], f.params[0]],
        body: f.body,
    };
    reduce_range(l, start, end, &g, t, load)
}
