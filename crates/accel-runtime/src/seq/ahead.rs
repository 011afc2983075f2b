//! Producers on threads of their own: `read_ahead` for any iterator, and the
//! reader behind `Stream::fill_ahead`, which fills blocks into storage the
//! stream hands back.

use crate::error::{Error, Result};
use std::sync::mpsc::{Receiver, Sender};

/// The items of `items`, produced ahead on a thread of its own: up to
/// `depth` wait in a bounded queue, so that producing them (reading a file,
/// decoding) overlaps the consumer's work while memory stays bounded. When
/// the consumer drops the iterator, the thread stops after the item it is
/// producing. A panic of `items` on that thread is resumed in the consumer
/// when it reaches that point, never taken for the end of the items.
pub fn read_ahead<I>(depth: usize, items: I) -> impl Iterator<Item = I::Item> + Send
where
    I: IntoIterator + Send + 'static,
    I::IntoIter: Send,
    I::Item: Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::sync_channel(depth.max(1));
    let reader = std::thread::spawn(move || {
        for x in items {
            // The consumer has dropped the receiver: stop.
            if tx.send(x).is_err() {
                break;
            }
        }
    });
    let mut reader = Some(reader);
    std::iter::from_fn(move || match rx.recv() {
        Ok(x) => Some(x),
        // The reader has ended: normally, or by a panic.
        Err(_) => {
            if let Err(panic) = reader.take()?.join() {
                std::panic::resume_unwind(panic);
            }
            None
        }
    })
}

/// What a panic of another thread said, if it said it with a string.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
        (Some(s), _) => s.to_string(),
        (_, Some(s)) => s.clone(),
        _ => "a panic".to_string(),
    }
}

/// Where [`fill_thread`]'s blocks come, and where their storage goes back.
type BlockChannels<T> = (Receiver<Result<Vec<T>>>, Sender<Option<Vec<T>>>);

/// The thread of [`Stream::fill_ahead`](super::Stream::fill_ahead): blocks
/// filled by `fill` come on the receiver (at most `depth` waiting), and for
/// each block the program is done with, its storage goes back on the sender,
/// or `None` when the block is still shared (an element the program kept):
/// the reader then makes a new one, never waiting for storage that is not
/// coming.
pub(super) fn fill_thread<T, F>(depth: usize, mut fill: F) -> BlockChannels<T>
where
    T: Send + 'static,
    F: FnMut(&mut Vec<T>) -> Result<bool> + Send + 'static,
{
    let depth = depth.max(1);
    let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<T>>>(depth);
    let (back_tx, back_rx) = std::sync::mpsc::channel::<Option<Vec<T>>>();
    std::thread::spawn(move || {
        // Buffers in use: waiting, in the program's hands, being filled.
        let mut made = 0;
        loop {
            let mut buf = match back_rx.try_recv() {
                Ok(b) => b.unwrap_or_default(),
                Err(_) if made < depth + 2 => {
                    made += 1;
                    Vec::new()
                }
                Err(_) => match back_rx.recv() {
                    Ok(b) => b.unwrap_or_default(),
                    // The program has dropped the stream.
                    Err(_) => return,
                },
            };
            // A panic of `fill` is the stream's error, not its end.
            let filled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fill(&mut buf)));
            let item = match filled {
                Ok(Ok(false)) => return,
                Ok(Ok(true)) => Ok(buf),
                Ok(Err(e)) => Err(e),
                Err(panic) => Err(Error::new(
                    "Stream::fill_ahead",
                    format!("the closure filling blocks panicked: {}", panic_message(&*panic)),
                )),
            };
            let failed = item.is_err();
            if tx.send(item).is_err() || failed {
                return;
            }
        }
    });
    (rx, back_tx)
}
