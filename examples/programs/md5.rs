//! MD5 over a stream of messages, searching for a digest (the second program
//! of the paper "Functional Array Streams"), shared by `examples/md5_seq.rs`
//! and the example tests.
//!
//! Each element of the stream is one message of at most 55 bytes, padded
//! into one 64-byte MD5 block and given as its 16 little-endian `u32` words
//! (`md5_block` makes them). The program hashes every element and finds the
//! first whose digest is `target`: a fold of `(count, first hit)` pairs,
//! associative, so the stream runs in chunks of many messages at once.

#[allow(unused_imports)] // the types are in scope also when a program fails to compile
use accel::prelude::*;

accel::accel! {
    /// The position of the first message whose MD5 digest is `target` (four
    /// little-endian words), or `u64::MAX` when there is none. `k` holds the
    /// 64 round constants (`ROUND_CONSTANTS`).
    pub fn md5_search(blocks: Seq<Vector<u32>>, target: &Vector<u32>, k: &Vector<u32>) -> Scalar<u64> {
        // One scalar function per message: a `generate` of rank 0.
        let found = blocks.map(|m| generate([], |[]| {
            let mut a: u32 = 0x67452301;
            let mut b: u32 = 0xefcdab89;
            let mut c: u32 = 0x98badcfe;
            let mut d: u32 = 0x10325476;
            for i in 0..64usize {
                let mut f: u32 = 0;
                let mut g: usize = 0;
                let mut s: u32 = 0;
                if i < 16 {
                    f = (b & c) | (!b & d);
                    g = i;
                    s = match i % 4 { 0 => 7, 1 => 12, 2 => 17, _ => 22 };
                } else if i < 32 {
                    f = (d & b) | (!d & c);
                    g = (5 * i + 1) % 16;
                    s = match i % 4 { 0 => 5, 1 => 9, 2 => 14, _ => 20 };
                } else if i < 48 {
                    f = b ^ c ^ d;
                    g = (3 * i + 5) % 16;
                    s = match i % 4 { 0 => 4, 1 => 11, 2 => 16, _ => 23 };
                } else {
                    f = c ^ (b | !d);
                    g = (7 * i) % 16;
                    s = match i % 4 { 0 => 6, 1 => 10, 2 => 15, _ => 21 };
                }
                let sum = a.wrapping_add(f).wrapping_add(k[[i]]).wrapping_add(m[[g]]);
                a = d;
                d = c;
                c = b;
                b = b.wrapping_add(sum.rotate_left(s));
            }
            let hit = a.wrapping_add(0x67452301) == target[[0]]
                && b.wrapping_add(0xefcdab89) == target[[1]]
                && c.wrapping_add(0x98badcfe) == target[[2]]
                && d.wrapping_add(0x10325476) == target[[3]];
            (1u64, if hit { 0u64 } else { u64::MAX })
        }));
        // (messages seen, first hit among them): associative, not commutative.
        let r = found.fold((0u64, u64::MAX), |p, q| {
            (p.0 + q.0, if p.1 != u64::MAX { p.1 } else if q.1 != u64::MAX { p.0 + q.1 } else { u64::MAX })
        });
        r.map(|t| t.1)
    }
}

/// MD5's round constants: `floor(|sin(i + 1)| * 2^32)`.
pub const ROUND_CONSTANTS: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// The one MD5 block of `msg` (at most 55 bytes): the message, the byte
/// 0x80, zeros, and the message's length in bits, as 16 little-endian words.
pub fn md5_block(msg: &[u8], out: &mut [u32; 16]) {
    let mut bytes = [0u8; 64];
    let n = msg.len().min(55);
    bytes[..n].copy_from_slice(&msg[..n]);
    bytes[n] = 0x80;
    bytes[56..].copy_from_slice(&((n as u64) * 8).to_le_bytes());
    for (w, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
}

/// A digest (16 bytes) as the program's `target`: four little-endian words.
pub fn digest_words(digest: &[u8; 16]) -> [u32; 4] {
    std::array::from_fn(|i| {
        u32::from_le_bytes([
            digest[4 * i],
            digest[4 * i + 1],
            digest[4 * i + 2],
            digest[4 * i + 3],
        ])
    })
}

/// Word `i` of the generated dictionary: `i` written in base 26 with the
/// letters `a` to `z` (least significant first), at least one letter; its
/// bytes go into `buf`, and their number is returned.
pub fn dictionary_word(mut i: u64, buf: &mut [u8; 16]) -> usize {
    let mut n = 0;
    loop {
        buf[n] = b'a' + (i % 26) as u8;
        n += 1;
        i /= 26;
        if i == 0 {
            return n;
        }
    }
}
