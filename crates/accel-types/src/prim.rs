//! The primitive element types.

/// A primitive element type, as the compiler and the interpreter see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Usize,
    F32,
    F64,
    /// IEEE binary16 (`half::f16`): stored in 16 bits, computed in `f32`
    /// and rounded back after every operation.
    F16,
    /// bfloat16 (`half::bf16`): `f32`'s exponent with 8 bits of
    /// significand; stored and computed as `F16` is.
    BF16,
}

impl Prim {
    pub const ALL: [Prim; 14] = [
        Prim::Bool,
        Prim::I8,
        Prim::I16,
        Prim::I32,
        Prim::I64,
        Prim::U8,
        Prim::U16,
        Prim::U32,
        Prim::U64,
        Prim::Usize,
        Prim::F32,
        Prim::F64,
        Prim::F16,
        Prim::BF16,
    ];

    /// The Rust name of the type (`f32`, `u8`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Prim::Bool => "bool",
            Prim::I8 => "i8",
            Prim::I16 => "i16",
            Prim::I32 => "i32",
            Prim::I64 => "i64",
            Prim::U8 => "u8",
            Prim::U16 => "u16",
            Prim::U32 => "u32",
            Prim::U64 => "u64",
            Prim::Usize => "usize",
            Prim::F32 => "f32",
            Prim::F64 => "f64",
            Prim::F16 => "f16",
            Prim::BF16 => "bf16",
        }
    }

    pub fn from_name(name: &str) -> Option<Prim> {
        Prim::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Prim::F32 | Prim::F64 | Prim::F16 | Prim::BF16)
    }

    /// A half-precision float: stored in 16 bits, computed in `f32`.
    pub fn is_half(self) -> bool {
        matches!(self, Prim::F16 | Prim::BF16)
    }

    pub fn is_int(self) -> bool {
        !self.is_float() && self != Prim::Bool
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Prim::I8 | Prim::I16 | Prim::I32 | Prim::I64 | Prim::F32 | Prim::F64 | Prim::F16 | Prim::BF16
        )
    }

    pub fn is_numeric(self) -> bool {
        self != Prim::Bool
    }

    /// Width in bits (`usize` is 64: accel targets 64-bit machines).
    pub fn width(self) -> u32 {
        match self {
            Prim::Bool | Prim::I8 | Prim::U8 => 8,
            Prim::I16 | Prim::U16 | Prim::F16 | Prim::BF16 => 16,
            Prim::I32 | Prim::U32 | Prim::F32 => 32,
            Prim::I64 | Prim::U64 | Prim::Usize | Prim::F64 => 64,
        }
    }
}
