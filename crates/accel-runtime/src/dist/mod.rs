//! Beyond one machine: the same program on several ranks (processes under
//! `mpiexec`, or threads of one process in tests), each holding a block of
//! every distributed array, SPMD.
//!
//! Three layers:
//! - [`Comm`]: what the ranks say to each other, as bytes, moved by an
//!   existing engine: MPI (`Mpi`, with the `distributed` feature) between
//!   processes, or [`LocalComm`] between the threads of one process (unit
//!   tests, and trying a distributed program on one machine).
//! - [`CommExt`]: the collectives accel's operations need, typed and
//!   failure-agreeing: a rank that fails passes its error into the next
//!   collective instead of leaving it, so that every rank returns an error
//!   naming it rather than waiting forever. Each collective has a timeout
//!   for a rank that never comes. A sequence's elements go to the ranks in
//!   turn, their values combined in sequence order (`fold_sequence`).
//! - [`DistArray`]: an array block-distributed over its outermost dimension,
//!   and the operations whose communication the layout decides: folds
//!   combined in rank order, scans by block totals, permutes and
//!   backpermutes by all-to-all, halos of neighbouring rows for stencils.
//!   Each rank computes on its own block with any accel program, on any
//!   local backend.

mod array;
#[doc(hidden)]
pub mod auto;
mod collective;
mod local;
mod metered;
#[cfg(feature = "distributed")]
mod mpi;
mod wire;

#[cfg(feature = "distributed")]
pub use self::mpi::Mpi;
pub use array::{blocks, DistArray};
pub use collective::CommExt;
pub use local::LocalComm;
pub use metered::Metered;
pub use wire::WireColumns;

use crate::error::{Error, ErrorKind, Result};
use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

/// The ranks of one run and the bytes they exchange. Every rank calls the
/// same collectives in the same order. Implementations move bytes only:
/// framing, failure agreement and types are [`CommExt`]'s.
pub trait Comm: Send + Sync + Debug {
    /// This rank, below [`size`](Comm::size).
    fn rank(&self) -> usize;
    /// The number of ranks (at least 1).
    fn size(&self) -> usize;
    /// How long a collective waits for the other ranks before it fails.
    fn timeout(&self) -> Duration;
    /// Personalised all-to-all: `send[j]` (one message per rank, `send.len()
    /// == size`) goes to rank `j`; returns the message each rank sent to
    /// this one, in rank order. `Err` (kind [`ErrorKind::Distributed`]) when
    /// the other ranks do not all join within the timeout.
    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>>;
    /// Every rank's `mine`, in rank order.
    fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>> {
        self.all_to_all(vec![mine; self.size()])
    }
}

/// A shared communicator of any kind (`Arc<Mpi>`, `Arc<LocalComm>`,
/// `Arc<dyn Comm>`), as the distributed arrays built on it keep it.
pub trait SharedComm {
    fn to_dyn(&self) -> Arc<dyn Comm>;
}

impl<C: Comm + 'static> SharedComm for Arc<C> {
    fn to_dyn(&self) -> Arc<dyn Comm> {
        self.clone()
    }
}

impl SharedComm for Arc<dyn Comm> {
    fn to_dyn(&self) -> Arc<dyn Comm> {
        self.clone()
    }
}

/// The timeout of a new communicator: `ACCEL_DIST_TIMEOUT` (seconds) when
/// set, else 60 s.
pub fn default_timeout() -> Duration {
    std::env::var("ACCEL_DIST_TIMEOUT")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::from_secs(60))
}

/// An error of the distributed layer itself.
pub(crate) fn dist_error(op: &str, message: impl Into<String>) -> Error {
    Error::with_kind(ErrorKind::Distributed, op, message)
}
