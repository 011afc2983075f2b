//! A communicator that counts what its rank sends, for measuring an
//! operation's communication against what it must send.

use super::Comm;
use crate::error::Result;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// `inner`, counting the bytes this rank sends to other ranks (frames
/// included, messages to itself not) and the collectives it joins.
#[derive(Debug)]
pub struct Metered {
    inner: Arc<dyn Comm>,
    bytes: AtomicU64,
    collectives: AtomicU64,
}

impl Metered {
    pub fn new(inner: Arc<dyn Comm>) -> Arc<Metered> {
        Arc::new(Metered {
            inner,
            bytes: AtomicU64::new(0),
            collectives: AtomicU64::new(0),
        })
    }

    /// Bytes sent to other ranks and collectives joined since the last
    /// reset.
    pub fn sent(&self) -> (u64, u64) {
        (
            self.bytes.load(Ordering::Relaxed),
            self.collectives.load(Ordering::Relaxed),
        )
    }

    pub fn reset(&self) {
        self.bytes.store(0, Ordering::Relaxed);
        self.collectives.store(0, Ordering::Relaxed);
    }

    fn count(&self, bytes: usize) {
        self.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
        self.collectives.fetch_add(1, Ordering::Relaxed);
    }
}

impl Comm for Metered {
    fn rank(&self) -> usize {
        self.inner.rank()
    }

    fn size(&self) -> usize {
        self.inner.size()
    }

    fn timeout(&self) -> Duration {
        self.inner.timeout()
    }

    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let me = self.rank();
        self.count(
            send.iter()
                .enumerate()
                .filter(|(j, _)| *j != me)
                .map(|(_, m)| m.len())
                .sum(),
        );
        self.inner.all_to_all(send)
    }

    fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>> {
        self.count(mine.len() * (self.size() - 1));
        self.inner.all_gather(mine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::{CommExt, LocalComm};

    #[test]
    fn counts_what_leaves_the_rank() {
        let sent = LocalComm::run(3, |c| {
            let m = Metered::new(c);
            m.combine_in_order(Ok(Some(1u32)), |a, b| a + b).unwrap();
            m.sent()
        });
        // One all-gather of a framed u32 (5 bytes) to 2 other ranks.
        assert!(sent.iter().all(|&s| s == (10, 1)), "{sent:?}");
    }
}
