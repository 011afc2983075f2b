//! Black-Scholes option pricing (the Accelerate paper's Figure 1), shared by the
//! example, the tests and the benchmarks.
//!
//! `black_scholes_program!()` instantiates the program; the benchmarks
//! instantiate it again under other compiler settings (no fusion, no sharing).

macro_rules! black_scholes_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// Cumulative normal distribution (the polynomial approximation of the paper).
            fn cnd(d: f32) -> f32 {
                let a1 = 0.31938153;
                let a2 = -0.356563782;
                let a3 = 1.781477937;
                let a4 = -1.821255978;
                let a5 = 1.330274429;
                let rsqrt2pi = 0.39894228040143267793994605993438;
                let k = 1.0 / (1.0 + 0.2316419 * d.abs());
                let poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
                let w = rsqrt2pi * (-0.5 * d * d).exp() * poly;
                if d > 0.0 { 1.0 - w } else { w }
            }

            /// (call, put) prices of options (price, strike, years) at interest rate
            /// `r` and volatility `v`.
            pub fn black_scholes(opts: &Vector<(f32, f32, f32)>, r: f32, v: f32) -> Vector<(f32, f32)> {
                opts.map(|(price, strike, years)| {
                    let v_sqrt_t = v * years.sqrt();
                    let d1 = ((price / strike).ln() + (r + 0.5 * v * v) * years) / v_sqrt_t;
                    let d2 = d1 - v_sqrt_t;
                    let cnd_d1 = cnd(d1);
                    let cnd_d2 = cnd(d2);
                    let x_exp_rt = strike * (-r * years).exp();
                    (price * cnd_d1 - x_exp_rt * cnd_d2, x_exp_rt * (1.0 - cnd_d2) - price * (1.0 - cnd_d1))
                })
            }
        }
    };
}

black_scholes_program!();
