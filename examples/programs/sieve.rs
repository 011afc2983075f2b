//! The sieve of Eratosthenes with a fused `expand` → `permute`, shared by the
//! example and the expand benchmark: each divisor `p` expands to its multiples
//! `p², p² + p, .. ≤ n`, each of which clears its flag. Neither the multiples
//! nor their offsets are stored.
//!
//! `sieve_program!()` instantiates the program; the benchmark instantiates it
//! again without fusion.

macro_rules! sieve_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// Flags of `0..=n`, `true` for the primes, given divisors `ps`
            /// that include every prime up to `√n` (and anything else ≥ 2).
            pub fn sieve(ps: &Vector<u64>, n: usize) -> Vector<bool> {
                let init = generate([n + 1], |[i]| i >= 2);
                let top = n as u64;
                let ms = ps.expand(
                    |p| if p * p <= top { (top - p * p) / p + 1 } else { 0 },
                    |p, k| p * p + k * p,
                );
                ms.map(|_| false).permute(&init, |[j]| Some([ms[[j]] as usize]), |new, _old| new)
            }
        }
    };
}

sieve_program!();
