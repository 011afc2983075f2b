//! MD5 of every word of a generated dictionary, streamed, searching for a
//! digest (the paper's second sequence program), against the `md-5` crate
//! driven by rayon over the same words, in one run.
//!
//! The dictionary (`dictionary_word`: the numbers in base 26, letters `a` to
//! `z`) is generated in blocks of MD5 blocks (`Matrix<u32>`, 16 words a
//! message) on a thread of its own (`accel::read_ahead`) and streamed into
//! the program with `Stream::chunks`: memory holds a few blocks whatever the
//! dictionary's size. The digest searched for is that of a word two thirds
//! of the way in.
//!
//! `cargo run --release --example md5_seq [-- WORDS]` (default 20,000,000;
//! the paper's run is 400,000,000). On a terminal, a progress bar (the
//! `progress` feature, on for the examples) counts the words hashed.

use accel::prelude::*;
use md5::{Digest, Md5};
use rayon::prelude::*;
use std::time::Instant;

#[path = "programs/md5.rs"]
mod program;
use program::{dictionary_word, digest_words, md5_block, md5_search, ROUND_CONSTANTS};

/// Messages per block of the stream.
const BLOCK: u64 = 1 << 16;

/// The MD5 blocks of words `lo..hi`, as one `[hi - lo, 16]` matrix (filled
/// in parallel).
fn block_of_words(lo: u64, hi: u64) -> accel::Result<Matrix<u32>> {
    let mut words = vec![0u32; (hi - lo) as usize * 16];
    words.par_chunks_mut(16).enumerate().for_each(|(j, out)| {
        let mut buf = [0u8; 16];
        let n = dictionary_word(lo + j as u64, &mut buf);
        let out: &mut [u32; 16] = out.try_into().expect("16 words");
        md5_block(&buf[..n], out);
    });
    Matrix::from_vec([(hi - lo) as usize, 16], words)
}

fn md5_of_word(i: u64) -> [u8; 16] {
    let mut buf = [0u8; 16];
    let n = dictionary_word(i, &mut buf);
    Md5::digest(&buf[..n]).into()
}

fn main() -> accel::Result<()> {
    let words: u64 = match std::env::args().nth(1) {
        Some(s) => s
            .parse()
            .map_err(|_| accel::Error::new("md5_seq example", format!("not a number: {s}")))?,
        None => 20_000_000,
    };
    let backend = Backend::default();
    println!(
        "MD5 of {words} words, backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    let wanted = words * 2 / 3;
    let digest = md5_of_word(wanted);
    let target = Vector::from(digest_words(&digest).to_vec());
    let k = Vector::from(ROUND_CONSTANTS.to_vec());

    // The stream: blocks made ahead on a thread of their own.
    let t = Instant::now();
    let blocks =
        (0..words.div_ceil(BLOCK)).map(move |b| block_of_words(b * BLOCK, ((b + 1) * BLOCK).min(words)));
    let stream = Stream::fallible_chunks(accel::read_ahead(2, blocks)).with_progress_bar(Some(words));
    let found = md5_search::on(&backend, stream, &target, &k)?.value();
    let t_seq = t.elapsed().as_secs_f64();

    // The baseline: every word hashed by `md-5`, in parallel.
    let t = Instant::now();
    let base = (0..words)
        .into_par_iter()
        .map(|i| if md5_of_word(i) == digest { i } else { u64::MAX })
        .min()
        .unwrap_or(u64::MAX);
    let t_base = t.elapsed().as_secs_f64();

    let mhs = |secs: f64| words as f64 / secs / 1e6;
    println!("looked for the digest of word {wanted}: accel found {found}, md-5 + rayon found {base}");
    println!(
        "accel (streamed): {:.2} s, {:.1} M hashes/s; md-5 + rayon: {:.2} s, {:.1} M hashes/s; ratio {:.2}",
        t_seq,
        mhs(t_seq),
        t_base,
        mhs(t_base),
        t_seq / t_base
    );
    if std::env::var_os("EXPLAIN").is_some() {
        println!("{}", md5_search::explain());
    }
    if found != base {
        return Err(accel::Error::new("md5_seq example", "the two searches disagree"));
    }
    Ok(())
}
