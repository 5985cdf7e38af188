//! Scalar and per-channel value types used by typed operations and by type inference.

/// The type an operation reads or writes in a 32-bit channel (or channel pair for 64-bit).
/// Source: the `dst_type`/`src_types` columns of opcodes.csv (`tgsi_opcode_infer_*_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// IEEE binary32.
    F32,
    /// Two's-complement 32-bit integer.
    I32,
    /// Unsigned 32-bit integer.
    U32,
    /// IEEE binary64 in a channel pair (xy or zw, low word first).
    F64,
    /// 64-bit signed integer in a channel pair.
    I64,
    /// 64-bit unsigned integer in a channel pair.
    U64,
    /// Raw bits: the type follows the source (MOV, UCMP's results).
    Untyped,
}

impl ScalarType {
    /// Whether values of this type occupy a channel pair.
    pub fn is_64bit(self) -> bool {
        matches!(self, ScalarType::F64 | ScalarType::I64 | ScalarType::U64)
    }
    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F32 | ScalarType::F64)
    }
}

/// What one 32-bit channel of a register holds, as inferred statically.
/// The comparators use it: integers and 64-bit halves are compared bit-exactly,
/// `F32` against the precision contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelType {
    /// Never written by the program (holds its initial value: zero or the input).
    Unwritten,
    /// A binary32 float.
    F32,
    /// A 32-bit integer (signed or unsigned: compared as bits).
    Int32,
    /// The low word of a 64-bit value of the given type (F64, I64 or U64).
    Low64(ScalarType),
    /// The high word of a 64-bit value of the given type.
    High64(ScalarType),
    /// Raw bits moved without arithmetic (MOV of an input, memory loads); compared bit-exactly.
    Bits,
    /// Different writes store different types; compare bit-exactly.
    Mixed,
}

impl ChannelType {
    /// Join of two facts about the same channel (flow-insensitive union of writes).
    pub fn join(self, other: ChannelType) -> ChannelType {
        match (self, other) {
            (a, b) if a == b => a,
            (ChannelType::Unwritten, b) => b,
            (a, ChannelType::Unwritten) => a,
            _ => ChannelType::Mixed,
        }
    }

    /// Short name used in reports: `f32`, `i32`, `f64.lo`, `u64.hi`, `mixed`, `unwritten`.
    pub fn name(self) -> &'static str {
        match self {
            ChannelType::Unwritten => "unwritten",
            ChannelType::F32 => "f32",
            ChannelType::Int32 => "i32",
            ChannelType::Low64(ScalarType::F64) => "f64.lo",
            ChannelType::High64(ScalarType::F64) => "f64.hi",
            ChannelType::Low64(ScalarType::I64) => "i64.lo",
            ChannelType::High64(ScalarType::I64) => "i64.hi",
            ChannelType::Low64(_) => "u64.lo",
            ChannelType::High64(_) => "u64.hi",
            ChannelType::Bits => "bits",
            ChannelType::Mixed => "mixed",
        }
    }
}
