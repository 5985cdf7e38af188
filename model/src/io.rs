//! Engine inputs and outputs: the in-memory form of INTERFACE.md's inputs file and of
//! `run --format json` output. Every engine takes [`Inputs`] and returns [`Outputs`].

use std::collections::BTreeMap;
use std::fmt;

use shaderdiff_model::File;

/// A register as the inputs/outputs files name it: `IN[0]`, `SV[1]`, `CONST[2]`, `CONST[1][2]`,
/// `OUT[3]`. For 2-D names the first bracket is `dimension`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegKey {
    /// Register file.
    pub file: File,
    /// First bracket of a 2-D name (`CONST[b][i]` → `Some(b)`).
    pub dimension: Option<u32>,
    /// Register index.
    pub index: u32,
}

impl RegKey {
    /// `file[index]`.
    pub fn new(file: File, index: u32) -> RegKey {
        RegKey {
            file,
            dimension: None,
            index,
        }
    }
}

impl fmt::Display for RegKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dimension {
            Some(d) => write!(f, "{}[{}][{}]", self.file.name(), d, self.index),
            None => write!(f, "{}[{}]", self.file.name(), self.index),
        }
    }
}

/// One vec4 of raw 32-bit words.
pub type Vec4 = [u32; 4];

/// Everything a run starts from. Anything not set starts as zero (INTERFACE.md).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    /// Number of invocations (a multiple of 4 for fragment programs).
    pub invocations: usize,
    /// Per-invocation registers (IN, SV ...): one vec4 per invocation, or a single vec4 for all.
    pub registers: BTreeMap<RegKey, Vec<Vec4>>,
    /// Uniform registers (CONST).
    pub constants: BTreeMap<RegKey, Vec4>,
    /// BUFFER[n] / MEMORY[n] contents, little-endian bytes.
    pub buffers: BTreeMap<RegKey, Vec<u8>>,
    /// NV global memory regions by base address.
    pub global: BTreeMap<u64, Vec<u8>>,
    /// Textures by texture unit, keyed by the unit's sampler register `SAMP[n]` (NV
    /// `texture[n]` lowers to `SAMP[n]`). Units without an entry have no complete texture:
    /// every access to them is undefined (NV_gpu_program4 §2.X.4.4).
    pub textures: BTreeMap<RegKey, crate::texture::Texture>,
}

impl Inputs {
    /// The value of per-invocation register `key` for `invocation` (zero when unset).
    pub fn register(&self, key: &RegKey, invocation: usize) -> Vec4 {
        match self.registers.get(key) {
            Some(v) if v.len() == 1 => v[0],
            Some(v) => v.get(invocation).copied().unwrap_or([0; 4]),
            None => [0; 4],
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    /// Number of invocations run.
    pub invocations: usize,
    /// Every output register the program declares or writes: one vec4 per invocation.
    pub registers: BTreeMap<RegKey, Vec<Vec4>>,
    /// Channels whose value the specification leaves undefined: bit c of entry i set means
    /// channel c of invocation i is undefined. Registers with no undefined channel are absent.
    pub undefined: BTreeMap<RegKey, Vec<u8>>,
    /// Killed invocations (fragment programs only; `None` for other stages).
    pub killed: Option<Vec<bool>>,
    /// Final buffer contents.
    pub buffers: BTreeMap<RegKey, Vec<u8>>,
    /// Final global memory.
    pub global: BTreeMap<u64, Vec<u8>>,
    /// Bytes of [`Outputs::buffers`] whose final value the specification leaves undefined
    /// (data races, out-of-range stores ...): one flag per byte. Resources with no undefined
    /// byte are absent.
    pub buffers_undefined: BTreeMap<RegKey, Vec<bool>>,
    /// Every atomic the run performed, with the value it found (the oracle's serial order;
    /// `None` for engines that do not log atomics). See [`crate::atomic::AtomicRecord`].
    pub atomics: Option<Vec<crate::atomic::AtomicRecord>>,
    /// Acceptance intervals of the output channels: only the oracle fills them, and only
    /// when asked (the oracle's `interp::run_with_intervals`); `None` otherwise.
    pub intervals: Option<Intervals>,
    /// Geometry programs: the vertices each invocation emitted (EMIT), in order, one list
    /// per invocation; `None` for other stages. Vertex `v`'s output register `OUT[n]` is
    /// reported in [`Outputs::registers`] as the 2-D register `OUT[v][n]` (see
    /// [`emitted_key`]); invocations that emitted `v` vertices or fewer have zeros there
    /// (comparators look at `emits` and skip them).
    pub emits: Option<Vec<Vec<EmitRecord>>>,
    /// Another evaluation the specification equally allows, when it differs from this
    /// one: the oracle's run with denormals flushed (`crate::interp::denormal`, mode
    /// `either`). An engine's channel agrees when it agrees with either evaluation.
    pub denormal_alternative: Option<Box<Outputs>>,
}

/// One emitted vertex of a geometry program (tgsi.rst "Geometry ISA": EMIT, ENDPRIM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EmitRecord {
    /// Vertex stream (EMIT's `src.x`; 0 without an operand).
    pub stream: u32,
    /// Primitive number within the stream: how many non-empty primitives of that stream
    /// ENDPRIM had closed before this vertex.
    pub primitive: u32,
}

/// The register key of output `OUT[index]` of emitted vertex `vertex`: `OUT[vertex][index]`.
pub fn emitted_key(vertex: u32, index: u32) -> RegKey {
    RegKey {
        file: File::Output,
        dimension: Some(vertex),
        index,
    }
}

/// The set of results an engine may return for one 32-bit channel: the binary32 values
/// from `lo` to `hi` in IEEE 754 total order (-0 before +0; the range is empty when `lo` or
/// `hi` is a NaN pattern), plus any NaN when `nan` is set. An exact result `v` is
/// `lo == hi == v` with `nan == v.is_nan()`: integer and bit results are always exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Interval {
    /// Lower end (binary32 bits).
    pub lo: u32,
    /// Upper end (binary32 bits).
    pub hi: u32,
    /// Any NaN is accepted.
    pub nan: bool,
}

impl Interval {
    /// Every value (what undefined and unconstrained channels get): `[-inf, +inf]` and NaN.
    pub const ANY: Interval = Interval {
        lo: 0xff80_0000,
        hi: 0x7f80_0000,
        nan: true,
    };

    /// Exactly the word `v`.
    pub fn exact(v: u32) -> Interval {
        Interval {
            lo: v,
            hi: v,
            nan: f32::from_bits(v).is_nan(),
        }
    }

    /// Whether this is the single value `v` (bit for bit).
    pub fn is_exactly(&self, v: u32) -> bool {
        self.lo == v && self.hi == v && self.nan == f32::from_bits(v).is_nan()
    }
}

/// The binary64 acceptance set of a 64-bit float held in a channel pair, from the intervals
/// of its low (x or z) and high (y or w) channels: `(lo, hi, nan)`, `lo` and `hi` binary64
/// bits in IEEE total order. The oracle stores a binary64 set split across the pair (the
/// low words of both ends in the low channel, the high words in the high channel), so an
/// exact double is two exact channels. Source: the oracle's `interp::interval` module docs.
pub fn pair_interval(low: Interval, high: Interval) -> (u64, u64, bool) {
    (
        low.lo as u64 | (high.lo as u64) << 32,
        low.hi as u64 | (high.hi as u64) << 32,
        low.nan || high.nan,
    )
}

/// Per-channel acceptance intervals of a run's output registers, for one engine class
/// (see `oracle/precision.toml`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Intervals {
    /// The engine class the intervals were computed for (`cpu`, `gpu`).
    pub class: String,
    /// One `[x, y, z, w]` per invocation for every register of [`Outputs::registers`].
    /// Undefined channels hold [`Interval::ANY`].
    pub channels: BTreeMap<RegKey, Vec<[Interval; 4]>>,
    /// Channels holding one word of a binary64 set that is not a single value, the other
    /// word in the partner channel (x/y, z/w): bit c of entry i set for channel c of
    /// invocation i. Such a pair is judged as one binary64 (`pair_interval`); a word alone is
    /// not determined. Registers with no such channel are absent; entries past the end of a
    /// list are 0. Source: the oracle's `interp::interval` module `wide`, "Pair halves".
    pub halves: BTreeMap<RegKey, Vec<u8>>,
    /// Invocations whose control flow, kill or indirect addressing depended on an undefined
    /// or imprecise value: all their outputs, and whether they were killed, are unconstrained.
    pub unconstrained: Vec<bool>,
}
