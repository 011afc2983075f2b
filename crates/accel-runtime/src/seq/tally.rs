//! How many elements a stream's iterator gave, and whether it had more,
//! known after a program has consumed the stream: `name::dist` checks with
//! it that each rank's parts of zipped streams are of one length.

use super::block::Block;
use super::Stream;
use crate::elem::Elem;
use crate::error::Result;
use std::cell::RefCell;
use std::rc::Rc;

type Blocks<'a, T, const R: usize> = Box<dyn Iterator<Item = Result<Block<T, R>>> + 'a>;

struct State<'a, T: Elem, const R: usize> {
    blocks: Blocks<'a, T, R>,
    /// Elements the iterator has given.
    given: usize,
    ended: bool,
}

impl<T: Elem, const R: usize> State<'_, T, R> {
    fn next(&mut self) -> Option<Result<Block<T, R>>> {
        if self.ended {
            return None;
        }
        let b = self.blocks.next();
        match &b {
            None => self.ended = true,
            Some(Ok(b)) => self.given += b.rows,
            Some(Err(_)) => {}
        }
        b
    }
}

/// The count of a stream made by [`Stream::tallied`].
#[doc(hidden)]
pub struct Tally<'a, T: Elem, const R: usize>(Rc<RefCell<State<'a, T, R>>>);

impl<T: Elem, const R: usize> Tally<'_, T, R> {
    /// The elements the stream's iterator has given, and whether it has
    /// more (it is asked for one more block when it has not ended: call
    /// this after the program is done with the stream).
    pub fn part(&self) -> Result<(usize, bool)> {
        let mut s = self.0.borrow_mut();
        let before = s.given;
        let more = loop {
            match s.next() {
                None => break false,
                Some(Err(e)) => return Err(e),
                Some(Ok(b)) if b.rows == 0 => continue,
                Some(Ok(_)) => break true,
            }
        };
        Ok((before, more))
    }
}

impl<'a, T: Elem, const R: usize> Stream<'a, T, R> {
    /// This stream, and a [`Tally`] of what its iterator gives.
    #[doc(hidden)]
    pub fn tallied(mut self) -> (Self, Tally<'a, T, R>) {
        let blocks = std::mem::replace(&mut self.blocks, Box::new(std::iter::empty()));
        let state = Rc::new(RefCell::new(State {
            blocks,
            given: 0,
            ended: false,
        }));
        let inner = Rc::clone(&state);
        self.blocks = Box::new(std::iter::from_fn(move || inner.borrow_mut().next()));
        (self, Tally(state))
    }
}
