//! The collectives of accel's distributed operations, on any [`Comm`].
//!
//! Each takes this rank's contribution as a `Result`. A rank whose own work
//! failed still joins, with its error, and every rank then returns an error
//! naming the lowest failed rank (the failed rank its own error): a failure
//! anywhere ends the run everywhere, at the next collective, with no hang.
//! Every message ends with one byte: 0 after data, 1 after an error's text
//! (at the end, so that framing and unframing copy nothing).

use super::wire::{put_value, take_value, WireColumns};
use super::{dist_error, Comm};
use crate::elem::Elem;
use crate::error::{Error, Result};

const OK: u8 = 0;
const FAILED: u8 = 1;

fn framed(mut data: Vec<u8>) -> Vec<u8> {
    data.push(OK);
    data
}

fn failure(e: &Error) -> Vec<u8> {
    let mut m = e.to_string().into_bytes();
    m.push(FAILED);
    m
}

/// The data of each rank's message, or the error of the lowest failed rank.
fn unframe(me: usize, own: Option<Error>, frames: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
    if let Some((r, m)) = frames.iter().enumerate().find(|(_, m)| m.last() != Some(&OK)) {
        if let (true, Some(e)) = (r == me, own) {
            return Err(e);
        }
        let why = match m.split_last() {
            Some((&FAILED, text)) => String::from_utf8_lossy(text).into_owned(),
            _ => "its message has no frame (a bug in accel, or ranks running different programs)".into(),
        };
        return Err(dist_error("distributed run", format!("rank {r} failed: {why}")));
    }
    Ok(frames
        .into_iter()
        .map(|mut m| {
            m.pop();
            m
        })
        .collect())
}

/// Typed, failure-agreeing collectives over a [`Comm`]; every rank calls
/// the same ones in the same order.
pub trait CommExt: Comm {
    /// All-to-all with counts: `send[j]` to rank `j`; what each rank sent
    /// here, in rank order.
    fn exchange(&self, send: Result<Vec<Vec<u8>>>) -> Result<Vec<Vec<u8>>> {
        let p = self.size();
        let (frames, own) = match send {
            Ok(msgs) if msgs.len() == p => (msgs.into_iter().map(framed).collect(), None),
            Ok(msgs) => {
                let e = dist_error(
                    "exchange",
                    format!("{} messages for {p} ranks (a bug in accel)", msgs.len()),
                );
                (vec![failure(&e); p], Some(e))
            }
            Err(e) => (vec![failure(&e); p], Some(e)),
        };
        unframe(self.rank(), own, self.all_to_all(frames)?)
    }

    /// Every rank's `mine`, in rank order.
    fn gather_all(&self, mine: Result<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let (frame, own) = match mine {
            Ok(m) => (framed(m), None),
            Err(e) => (failure(&e), Some(e)),
        };
        unframe(self.rank(), own, self.all_gather(frame)?)
    }

    /// `Ok` on every rank when every rank says `Ok`.
    fn agree(&self, mine: Result<()>) -> Result<()> {
        self.gather_all(mine.map(|()| Vec::new())).map(drop)
    }

    /// Sends `(to_left, to_right)` to ranks `rank - 1` and `rank + 1` (where
    /// they exist); returns `(from_left, from_right)`, empty at the ends.
    fn neighbours(&self, send: Result<(Vec<u8>, Vec<u8>)>) -> Result<(Vec<u8>, Vec<u8>)> {
        let (me, p) = (self.rank(), self.size());
        let send = send.map(|(left, right)| {
            let mut msgs = vec![Vec::new(); p];
            if me > 0 {
                msgs[me - 1] = left;
            }
            if me + 1 < p {
                msgs[me + 1] = right;
            }
            msgs
        });
        let mut got = self.exchange(send)?;
        let from_right = if me + 1 < p {
            std::mem::take(&mut got[me + 1])
        } else {
            Vec::new()
        };
        let from_left = if me > 0 {
            std::mem::take(&mut got[me - 1])
        } else {
            Vec::new()
        };
        Ok((from_left, from_right))
    }

    /// Every rank's value, in rank order; `None` for a rank that had none.
    fn all_values<T: Elem>(&self, v: Result<Option<T>>) -> Result<Vec<Option<T>>>
    where
        T::Columns: WireColumns,
    {
        let mine = v.map(|v| {
            let mut m = Vec::new();
            if let Some(v) = v {
                put_value(v, &mut m);
            }
            m
        });
        self.gather_all(mine)?
            .into_iter()
            .map(|m| {
                let mut b = &m[..];
                (!b.is_empty()).then(|| take_value(&mut b)).transpose()
            })
            .collect()
    }

    /// The partial results of all ranks combined in rank order by `f`
    /// (associative; not assumed commutative): `p0 ⊕ p1 ⊕ … ⊕ pP-1`,
    /// skipping ranks without one, the same on every rank. `None` when no
    /// rank has one.
    fn combine_in_order<T: Elem>(
        &self,
        partial: Result<Option<T>>,
        f: impl Fn(T, T) -> T,
    ) -> Result<Option<T>>
    where
        T::Columns: WireColumns,
    {
        Ok(self.all_values(partial)?.into_iter().flatten().reduce(f))
    }

    /// The combination, in rank order, of the totals of the ranks before this
    /// one: what a scan's block adds to its own elements. `None` on rank 0,
    /// and wherever no rank before has a total.
    fn exclusive_scan<T: Elem>(&self, total: Result<Option<T>>, f: impl Fn(T, T) -> T) -> Result<Option<T>>
    where
        T::Columns: WireColumns,
    {
        let me = self.rank();
        Ok(self.all_values(total)?.into_iter().take(me).flatten().reduce(f))
    }

    /// The fold of a sequence spread over the ranks in turn: element `i` is
    /// rank `i mod P`'s. `mine` yields this rank's elements in order (those
    /// at `rank`, `rank + P`, `rank + 2P`, …: `items.skip(rank).step_by(P)`),
    /// `each` computes an element's value (an accel program on a chunk of
    /// the sequence, on the local backend), and `f` (associative, not
    /// assumed commutative) combines the values in sequence order, `P` at a
    /// time: one all-gather per round of `P` elements. The same result on
    /// every rank; `None` for an empty sequence.
    fn fold_sequence<A, T: Elem>(
        &self,
        mine: impl IntoIterator<Item = A>,
        mut each: impl FnMut(A) -> Result<T>,
        f: impl Fn(T, T) -> T,
    ) -> Result<Option<T>>
    where
        T::Columns: WireColumns,
    {
        let mut mine = mine.into_iter();
        let mut acc: Option<T> = None;
        loop {
            // Round `k` holds elements `kP..kP + P`, rank by rank; the ranks
            // that still have an element are the first ones.
            let round = self.all_values(mine.next().map(&mut each).transpose())?;
            if round.iter().all(Option::is_none) {
                return Ok(acc);
            }
            for v in round.into_iter().flatten() {
                acc = Some(match acc {
                    Some(a) => f(a, v),
                    None => v,
                });
            }
        }
    }
}

impl<C: Comm + ?Sized> CommExt for C {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::LocalComm;
    use crate::error::ErrorKind;

    #[test]
    fn combines_in_rank_order() {
        // String concatenation as digits: associative, not commutative.
        for p in 1..=5 {
            let got = LocalComm::run(p, |c| {
                let r = c.rank() as u64;
                // Rank 1 has nothing (an empty block).
                let mine = (r != 1).then_some(r + 1);
                let all = c.combine_in_order(Ok(mine), |a, b| a * 10 + b).unwrap();
                let before = c.exclusive_scan(Ok(mine), |a, b| a * 10 + b).unwrap();
                (all, before)
            });
            let digits: Vec<u64> = (0..p as u64).filter(|&r| r != 1).map(|r| r + 1).collect();
            let all = digits.iter().copied().reduce(|a, b| a * 10 + b);
            for (r, (a, before)) in got.into_iter().enumerate() {
                assert_eq!(a, all);
                let want = (0..r as u64)
                    .filter(|&q| q != 1)
                    .map(|q| q + 1)
                    .reduce(|a, b| a * 10 + b);
                assert_eq!(before, want, "rank {r} of {p}");
            }
        }
    }

    #[test]
    fn sequences_fold_in_order_over_ranks_in_turn() {
        let compose =
            |f: (u64, u64), g: (u64, u64)| (f.0.wrapping_mul(g.0), f.1.wrapping_mul(g.0).wrapping_add(g.1));
        let item = |i: u64| (2 * i + 3, i * i + 1);
        for p in 1..=4 {
            for len in 0..=9u64 {
                let got = LocalComm::run(p, |c| {
                    let mine = (0..len).skip(c.rank()).step_by(p);
                    c.fold_sequence(mine, |i| Ok(item(i)), compose).unwrap()
                });
                let want = (0..len).map(item).reduce(compose);
                assert!(got.iter().all(|g| *g == want), "{p} ranks, {len} elements");
            }
        }
        // An element that fails ends the fold on every rank.
        let got = LocalComm::run(3, |c| {
            let mine = (0..7u32).skip(c.rank()).step_by(3);
            c.fold_sequence(
                mine,
                |i| {
                    if i == 4 {
                        Err(Error::new("chunk", "unreadable"))
                    } else {
                        Ok(i)
                    }
                },
                |a, b| a + b,
            )
        });
        assert!(got.iter().all(Result::is_err));
        assert!(got[0]
            .as_ref()
            .unwrap_err()
            .message()
            .starts_with("rank 1 failed"));
    }

    #[test]
    fn a_failure_reaches_every_rank() {
        let got = LocalComm::run(4, |c| {
            let mine = if c.rank() == 2 {
                Err(Error::index_out_of_bounds("backpermute", &[9], &[4]))
            } else {
                Ok(Some(1u32))
            };
            c.combine_in_order(mine, |a, b| a + b).unwrap_err()
        });
        for (r, e) in got.into_iter().enumerate() {
            if r == 2 {
                assert_eq!(e.kind(), ErrorKind::IndexOutOfBounds);
            } else {
                assert_eq!(e.kind(), ErrorKind::Distributed);
                assert!(e.message().starts_with("rank 2 failed:"), "{e}");
                assert!(e.message().contains("backpermute"), "{e}");
            }
        }
    }

    #[test]
    fn neighbours_swap_with_their_neighbours() {
        let got = LocalComm::run(3, |c| {
            let r = c.rank() as u8;
            c.neighbours(Ok((vec![r, 0], vec![r, 1]))).unwrap()
        });
        assert_eq!(got[0], (vec![], vec![1, 0]));
        assert_eq!(got[1], (vec![0, 1], vec![2, 0]));
        assert_eq!(got[2], (vec![1, 1], vec![]));
    }
}
