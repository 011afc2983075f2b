//! Ranks as processes under `mpiexec`, over MPI (the `mpi` crate, on MPICH
//! or any MPI library).
//!
//! One thread of the process owns MPI: it initialises it, makes every MPI
//! call, and finalises it when the [`Mpi`] is dropped (MPI's "funneled"
//! threading: rayon's threads never call it). A collective is a job sent to
//! that thread; the caller waits for its answer up to the timeout. A
//! collective that never completes (a rank that hangs or died) leaves the
//! thread blocked inside MPI, so after a timeout every later collective
//! fails at once, and the process should end.

use super::{default_timeout, dist_error, Comm};
use crate::error::{Error, ErrorKind, Result};
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Count, Threading};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

type Job = Box<dyn FnOnce(&SimpleCommunicator) + Send>;

/// The world of an MPI run: every process that `mpiexec` started.
#[derive(Debug)]
pub struct Mpi {
    rank: usize,
    size: usize,
    timeout: Duration,
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
    /// A collective timed out: MPI's thread may never come back.
    stuck: AtomicBool,
}

impl Mpi {
    /// Initialises MPI (once per process: `Err` when it was initialised
    /// before) and returns the world. Under `mpiexec -n P` each process is
    /// one of `P` ranks; started alone, the world has one rank.
    pub fn init() -> Result<Arc<Mpi>> {
        Mpi::init_with_timeout(default_timeout())
    }

    /// [`Mpi::init`] with the timeout of every collective.
    pub fn init_with_timeout(timeout: Duration) -> Result<Arc<Mpi>> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let (ready, started) = mpsc::channel::<Result<(usize, usize)>>();
        let worker = std::thread::Builder::new()
            .name("accel-mpi".into())
            .spawn(move || {
                let Some((universe, _)) = mpi::initialize_with_threading(Threading::Funneled) else {
                    let _ = ready.send(Err(dist_error(
                        "Mpi::init",
                        "MPI was initialised before in this process",
                    )));
                    return;
                };
                let world = universe.world();
                let _ = ready.send(Ok((world.rank() as usize, world.size() as usize)));
                for job in queue {
                    job(&world);
                }
                // Dropping the universe finalises MPI.
                drop(universe);
            })
            .map_err(|e| dist_error("Mpi::init", format!("cannot start MPI's thread: {e}")))?;
        let (rank, size) = started
            .recv()
            .map_err(|_| dist_error("Mpi::init", "MPI's thread stopped while initialising MPI"))??;
        Ok(Arc::new(Mpi {
            rank,
            size,
            timeout,
            jobs: Mutex::new(Some(jobs)),
            worker: Mutex::new(Some(worker)),
            stuck: AtomicBool::new(false),
        }))
    }

    /// Runs `f` on MPI's thread and waits for it up to the timeout.
    fn call<T: Send + 'static>(
        &self,
        op: &str,
        f: impl FnOnce(&SimpleCommunicator) -> T + Send + 'static,
    ) -> Result<T> {
        if self.stuck.load(Ordering::Relaxed) {
            return Err(dist_error(
                op,
                "an earlier collective timed out: MPI cannot be used again in this process",
            ));
        }
        let (answer, wait) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |w| {
            let _ = answer.send(f(w));
        });
        let sent = match &*self.jobs.lock().unwrap_or_else(|p| p.into_inner()) {
            Some(jobs) => jobs.send(job).is_ok(),
            None => false,
        };
        if !sent {
            return Err(dist_error(op, "MPI's thread has stopped"));
        }
        match wait.recv_timeout(self.timeout) {
            Ok(v) => Ok(v),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.stuck.store(true, Ordering::Relaxed);
                Err(dist_error(
                    op,
                    format!(
                        "the other ranks did not all join within {:?} (one of them hangs or has died)",
                        self.timeout
                    ),
                ))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(dist_error(op, "MPI's thread stopped during a collective"))
            }
        }
    }
}

impl Drop for Mpi {
    fn drop(&mut self) {
        // Closing the queue ends the thread, which finalises MPI; a thread
        // blocked in a collective that never completes is left behind.
        self.jobs.lock().unwrap_or_else(|p| p.into_inner()).take();
        let worker = self.worker.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let (Some(w), false) = (worker, self.stuck.load(Ordering::Relaxed)) {
            let _ = w.join();
        }
    }
}

/// MPI's counts are `int`s: a message of 2 GiB or more cannot be one.
fn counts(lens: impl Iterator<Item = usize>) -> Result<Vec<Count>> {
    lens.map(|l| {
        Count::try_from(l).map_err(|_| {
            Error::with_kind(
                ErrorKind::InvalidArgument,
                "distributed run",
                format!(
                    "a message of {l} bytes: MPI moves at most {} bytes at once",
                    Count::MAX
                ),
            )
        })
    })
    .collect()
}

/// The offset of each part, given the parts' lengths.
fn displacements(counts: &[Count]) -> Result<Vec<Count>> {
    let mut at: Count = 0;
    counts
        .iter()
        .map(|&c| {
            let d = at;
            at = at.checked_add(c).ok_or_else(|| {
                dist_error("distributed run", "the messages of one collective exceed 2 GiB")
            })?;
            Ok(d)
        })
        .collect()
}

/// `flat` cut into parts of `counts` bytes.
fn split(flat: &[u8], counts: &[Count]) -> Vec<Vec<u8>> {
    let mut at = 0;
    counts
        .iter()
        .map(|&c| {
            let part = flat[at..at + c as usize].to_vec();
            at += c as usize;
            part
        })
        .collect()
}

impl Comm for Mpi {
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
        if send.len() != self.size {
            return Err(dist_error(
                "all_to_all",
                format!("{} messages for {} ranks", send.len(), self.size),
            ));
        }
        let sent = counts(send.iter().map(Vec::len))?;
        let sent_at = displacements(&sent)?;
        let flat = send.concat();
        self.call("all_to_all", move |w| {
            let mut got = vec![0 as Count; sent.len()];
            w.all_to_all_into(&sent[..], &mut got[..]);
            let got_at = displacements(&got)?;
            let total = got.iter().map(|&c| c as usize).sum();
            let mut into = vec![0u8; total];
            {
                let from = Partition::new(&flat[..], &sent[..], &sent_at[..]);
                let mut to = PartitionMut::new(&mut into[..], &got[..], &got_at[..]);
                w.all_to_all_varcount_into(&from, &mut to);
            }
            Ok(split(&into, &got))
        })?
    }

    fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>> {
        let len = counts(std::iter::once(mine.len()))?[0];
        self.call("all_gather", move |w| {
            let mut got = vec![0 as Count; w.size() as usize];
            w.all_gather_into(&len, &mut got[..]);
            let got_at = displacements(&got)?;
            let total = got.iter().map(|&c| c as usize).sum();
            let mut into = vec![0u8; total];
            {
                let mut to = PartitionMut::new(&mut into[..], &got[..], &got_at[..]);
                w.all_gather_varcount_into(&mine[..], &mut to);
            }
            Ok(split(&into, &got))
        })?
    }
}
