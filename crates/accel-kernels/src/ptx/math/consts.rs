//! Constants as f64 bit patterns, computed with mpmath at 300 bits
//! (`HI` = the nearest f64, `LO` = the nearest f64 to the rest).

/// ln 2 rounded to 42 bits, so that `k * LN2_42` is exact for |k| < 2^11.
pub const LN2_42: u64 = 0x3FE62E42FEFA3800;
pub const LN2_42_LO: u64 = 0x3D2EF35793C76730;
pub const LN2_HI: u64 = 0x3FE62E42FEFA39EF;
pub const LN2_LO: u64 = 0x3C7ABC9E3B39803F;
pub const LOG2E_HI: u64 = 0x3FF71547652B82FE;
pub const LOG2E_LO: u64 = 0x3C7777D0FFDA0D24;
pub const LOG10E_HI: u64 = 0x3FDBCB7B1526E50E;
pub const LOG10E_LO: u64 = 0x3C695355BAAAFAD3;
pub const PI_HI: u64 = 0x400921FB54442D18;
pub const PI_LO: u64 = 0x3CA1A62633145C07;
pub const PIO2_HI: u64 = 0x3FF921FB54442D18;
pub const PIO2_LO: u64 = 0x3C91A62633145C07;
/// π/2 as a sum of four f64s (for Cody–Waite reduction with fma).
pub const PIO2_1: u64 = 0x3FF921FB54442D18;
pub const PIO2_2: u64 = 0x3C91A62633145C07;
pub const PIO2_3: u64 = 0xB91F1976B7ED8FBC;
pub const PIO2_4: u64 = 0x35B4CF98E804177D;
pub const TWO_OVER_PI: u64 = 0x3FE45F306DC9C883;
/// atan(j/8) for j = 0..=8 as (hi, lo).
pub const ATAN_J8: [(u64, u64); 9] = [
    (0x0000000000000000, 0x0000000000000000),
    (0x3FBFD5BA9AAC2F6E, 0xBC4CD37686760C17),
    (0x3FCF5B75F92C80DD, 0x3C68AB6E3CF7AFBD),
    (0x3FD6F61941E4DEF1, 0xBC7C63AAE6F6E918),
    (0x3FDDAC670561BB4F, 0x3C7A2B7F222F65E2),
    (0x3FE1E00BABDEFEB4, 0xBC5928DF287A668F),
    (0x3FE4978FA3269EE1, 0x3C72419A87F2A458),
    (0x3FE700A7C5784634, 0xBC78C34D25AADEF6),
    (0x3FE921FB54442D18, 0x3C81A62633145C07),
];
/// 2/π in 26-bit chunks: chunk i holds bits 26i+1 ..= 26(i+1) after the
/// binary point, so `x * chunk` is exact for a 24-bit (f32) x.
pub const TWO_OVER_PI_26: [u64; 9] = [
    0x3FE45F3068000000,
    0x3E47272208000000,
    0x3C94A7F090000000,
    0x3B0ABE8FA8000000,
    0x394A6EE060000000,
    0x37BB629590000000,
    0x3622788720000000,
    0x34507F9440000000,
    0x32D8EAF7A0000000,
];
