//! A program's returned sequence (the paper's `streamOut`): its elements,
//! computed a chunk at a time as they are asked for.

use super::block::{Block, RankUp};
use crate::array::Array;
use crate::elem::Elem;
use crate::error::Result;

/// The elements of a sequence a program returns (`-> Seq<Array<T, R>>`), as
/// an iterator of `accel::Result<Array<T, R>>`: each chunk of them is
/// computed when the first of its elements is asked for, pulling the
/// program's streams as far as that chunk needs. After an error, the
/// iterator ends; the elements before it stay valid.
pub struct SeqOut<'a, T: Elem, const R: usize> {
    next_chunk: Box<dyn FnMut() -> Result<Option<Block<T, R>>> + 'a>,
    current: Option<Block<T, R>>,
    done: bool,
}

impl<'a, T: Elem, const R: usize> SeqOut<'a, T, R> {
    /// The elements of the chunks `next_chunk` computes (arrays one rank
    /// higher, `R1 = R + 1`, the elements outermost) until it gives `None`.
    #[doc(hidden)]
    pub fn new<const R1: usize>(mut next_chunk: impl FnMut() -> Result<Option<Array<T, R1>>> + 'a) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = RankUp::<R, R1>::CHECK;
        SeqOut {
            next_chunk: Box::new(move || Ok(next_chunk()?.map(Block::of_rows))),
            current: None,
            done: false,
        }
    }
}

impl<T: Elem, const R: usize> Iterator for SeqOut<'_, T, R> {
    type Item = Result<Array<T, R>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(b) = self.current.as_mut().filter(|b| b.left() > 0) {
                let row = b.row;
                return Some(
                    b.take_flat(1)
                        .map(|x| x.reshaped(row).expect("a row's size is its shape's")),
                );
            }
            if self.done {
                return None;
            }
            match (self.next_chunk)() {
                Ok(Some(b)) => self.current = Some(b),
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}
