//! Ranks as threads of one process: the communicator of unit tests, and of
//! trying a distributed program without `mpiexec`.

use super::{default_timeout, dist_error, Comm};
use crate::error::Result;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One rank of a world of threads ([`LocalComm::world`], [`LocalComm::run`]).
/// Dropping it tells the others that this rank is gone: a collective it
/// never joins then fails at once rather than at the timeout.
#[derive(Debug)]
pub struct LocalComm {
    rank: usize,
    size: usize,
    timeout: Duration,
    /// The number of this rank's next collective.
    round: AtomicU64,
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    board: Mutex<Board>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct Board {
    /// The collectives some rank has joined and some rank has not yet left.
    rounds: HashMap<u64, Round>,
    /// Ranks whose communicator is dropped.
    gone: Vec<bool>,
}

#[derive(Debug)]
struct Round {
    /// `inbox[to][from]`: the message from rank `from` to rank `to`.
    inbox: Vec<Vec<Vec<u8>>>,
    joined: Vec<bool>,
    left: usize,
}

impl LocalComm {
    /// The `size` ranks of a new world (at least one), to be moved to one
    /// thread each.
    pub fn world(size: usize) -> Vec<LocalComm> {
        let size = size.max(1);
        let shared = Arc::new(Shared {
            board: Mutex::new(Board {
                rounds: HashMap::new(),
                gone: vec![false; size],
            }),
            changed: Condvar::new(),
        });
        (0..size)
            .map(|rank| LocalComm {
                rank,
                size,
                timeout: default_timeout(),
                round: AtomicU64::new(0),
                shared: shared.clone(),
            })
            .collect()
    }

    /// This rank with another timeout for its collectives.
    pub fn with_timeout(mut self, timeout: Duration) -> LocalComm {
        self.timeout = timeout;
        self
    }

    /// Runs `f` on each rank of a new world of `size` ranks, one thread each,
    /// and returns the results in rank order. A rank that panics makes the
    /// others' collectives fail; the panic is then raised here.
    pub fn run<T: Send>(size: usize, f: impl Fn(Arc<LocalComm>) -> T + Sync) -> Vec<T> {
        let f = &f;
        std::thread::scope(|s| {
            let ranks: Vec<_> = LocalComm::world(size)
                .into_iter()
                .map(|c| s.spawn(move || f(Arc::new(c))))
                .collect();
            ranks
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    }

    fn board(&self) -> MutexGuard<'_, Board> {
        // A rank that panicked while holding the lock left the board whole:
        // every change to it is made before anything that can panic.
        self.shared.board.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for LocalComm {
    fn drop(&mut self) {
        let mut board = self.board();
        board.gone[self.rank] = true;
        drop(board);
        self.shared.changed.notify_all();
    }
}

impl Comm for LocalComm {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn timeout(&self) -> Duration {
        self.timeout
    }

    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let (me, p) = (self.rank, self.size);
        if send.len() != p {
            return Err(dist_error(
                "all_to_all",
                format!("{} messages for {p} ranks", send.len()),
            ));
        }
        let n = self.round.fetch_add(1, Ordering::Relaxed);
        let deadline = Instant::now() + self.timeout;
        let mut board = self.board();
        let round = board.rounds.entry(n).or_insert_with(|| Round {
            inbox: vec![vec![Vec::new(); p]; p],
            joined: vec![false; p],
            left: 0,
        });
        for (to, m) in send.into_iter().enumerate() {
            round.inbox[to][me] = m;
        }
        round.joined[me] = true;
        self.shared.changed.notify_all();
        loop {
            let round = &board.rounds[&n];
            let missing: Vec<usize> = (0..p).filter(|&r| !round.joined[r]).collect();
            if missing.is_empty() {
                break;
            }
            if let Some(&r) = missing.iter().find(|&&r| board.gone[r]) {
                return Err(dist_error(
                    "all_to_all",
                    format!("rank {r} stopped before joining collective {n} (it returned or panicked)"),
                ));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(dist_error(
                    "all_to_all",
                    format!(
                        "rank(s) {missing:?} did not join collective {n} within {:?}",
                        self.timeout
                    ),
                ));
            }
            board = self
                .shared
                .changed
                .wait_timeout(board, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        let round = board
            .rounds
            .get_mut(&n)
            .expect("the round is on the board until every rank left");
        let mine = std::mem::take(&mut round.inbox[me]);
        round.left += 1;
        if round.left == p {
            board.rounds.remove(&n);
        }
        Ok(mine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn messages_reach_their_rank() {
        for p in 1..=4 {
            let got = LocalComm::run(p, |c| {
                let send = (0..p).map(|to| vec![c.rank() as u8, to as u8]).collect();
                let a = c.all_to_all(send).unwrap();
                let b = c.all_gather(vec![c.rank() as u8 * 10]).unwrap();
                (a, b)
            });
            for (me, (a, b)) in got.into_iter().enumerate() {
                assert_eq!(
                    a,
                    (0..p).map(|from| vec![from as u8, me as u8]).collect::<Vec<_>>()
                );
                assert_eq!(b, (0..p).map(|r| vec![r as u8 * 10]).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_rank_that_never_comes_is_an_error_not_a_hang() {
        let got = LocalComm::run(3, |c| {
            if c.rank() == 2 {
                // Holds its communicator past the others' timeout without
                // joining: they must give up on their own.
                std::thread::sleep(Duration::from_millis(400));
                return None;
            }
            let c = Arc::into_inner(c)
                .unwrap()
                .with_timeout(Duration::from_millis(100));
            Some(c.all_gather(vec![1]).unwrap_err())
        });
        for e in got.into_iter().flatten() {
            assert_eq!(e.kind(), ErrorKind::Distributed);
            assert!(e.message().contains("rank(s) [2] did not join"), "{e}");
        }
        // A rank that returns is noticed at once.
        let got = LocalComm::run(2, |c| (c.rank() == 0).then(|| c.all_gather(vec![]).unwrap_err()));
        assert!(got[0].as_ref().unwrap().message().contains("rank 1 stopped"));
    }
}
