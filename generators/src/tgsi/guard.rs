//! Defined-only mode: operand guards that keep every result defined for all inputs.
//!
//! The reference interpreter marks a channel undefined exactly where tgsi.rst (or, where it
//! is silent, the oracle's documented reading) leaves the result undefined
//! (oracle/src/interp/alu/*.rs, interp/mod.rs). Undefinedness then spreads to every result
//! that reads the channel, and an undefined branch condition, SWITCH selector, KILL_IF
//! operand or address makes the whole invocation unconstrained. Like Csmith's safe math
//! wrappers, the generator instead rewrites the operands of every opcode that *can* be
//! undefined so that it never is. Guards write the three guard TEMPs with writemask `.xyzw`
//! immediately before the guarded instruction, which then reads them unmodified:
//!
//! | opcode | undefined when (oracle) | guard |
//! |---|---|---|
//! | IDIV | `b == 0`, `INT_MIN / -1` | `b' = (b \| 1) & 0xfffffffd`: odd, bit 1 clear, so never 0 or -1 |
//! | MOD | `b == 0` | `b' = b \| 1` |
//! | UBFE, IBFE, BFI | `offset < 0`, `bits < 0`, `offset + bits > 32` | either `offset' = offset & 15, bits' = bits & 15`, or `offset' = offset & 31, bits' = umin(bits & 63, 32 - offset')` (reaches `offset + bits = 32`) |
//! | F2I | NaN, truncation outside `[-2^31, 2^31-1]` | `min(max(x, -2147483648.0), 2147483520.0)` (MAX/MIN ignore a NaN operand, so NaN → -2^31) |
//! | F2U | NaN, `x <= -1`, `x >= 2^32` | `min(max(x, 0.0), 4294967040.0)` |
//! | RSQ | `x <= 0` (incl. ±0) | `\|x\| + 2^-126` (NaN stays NaN, which is defined) |
//! | SQRT | `x < 0` | the source gets the `\|x\|` modifier (and no negation) |
//! | LIT | `s.w` NaN when `s.x > 0` | `max(s, -inf)`: removes NaN, keeps every other value |
//! | PK2H | a NaN input | `max(s, -inf)` |
//! | PK2US, PK4B, PK4UB | NaN, and exact round-half ties of `clamp(x) * (2^n - 1)` | not generated (no cheap guard excludes the ties) |
//! | ARL, ARR | NaN, out of range | not generated (the builder never loads ADDR from data) |
//! | DDX, DDY (coarse) | the quad's two rows (columns) differ | not generated; only DDX_FINE/DDY_FINE |
//! | DDX*, DDY* | not all four quad invocations execute it | only at the main program's top level, before any KILL/KILL_IF or CAL |
//!
//! Indirect addressing is in bounds by construction in every mode (ADDR comes only from
//! `IMM[0]`), and all other decisions read only defined values, so nothing else can make an
//! invocation unconstrained.

use shaderdiff_model::{Opcode, Src};

use super::builder::{
    full, plain, Builder, GUARD_FLOAT_IMM, GUARD_FLOAT_IMM2, GUARD_INT_IMM, INT_IMM,
};

/// Opcodes whose result can be undefined for some inputs with no operand guard in this
/// module; defined-only mode never generates them (PK2US, PK4B, PK4UB).
pub fn never_defined_for_all(op: Opcode) -> bool {
    matches!(op, Opcode::PK2US | Opcode::PK4B | Opcode::PK4UB)
}

/// Opcodes whose operands defined-only mode rewrites (the table in the module docs).
pub const GUARDED: &[Opcode] = &[
    Opcode::IDIV,
    Opcode::MOD,
    Opcode::UBFE,
    Opcode::IBFE,
    Opcode::BFI,
    Opcode::F2I,
    Opcode::F2U,
    Opcode::RSQ,
    Opcode::SQRT,
    Opcode::LIT,
    Opcode::PK2H,
];

impl Builder<'_, '_> {
    /// Rewrites `src` (the sources of `op`) so that `op`'s result is defined for all
    /// values, emitting guard instructions first (module docs).
    pub(super) fn guard_sources(&mut self, op: Opcode, src: &mut [Src]) {
        use Opcode::*;
        let g = |b: &Self, k| plain(b.guard_reg(k));
        match op {
            IDIV => {
                let one = self.imm_src(INT_IMM, 1);
                let mask = self.imm_src(GUARD_INT_IMM, 0);
                self.emit(OR, vec![full(self.guard_reg(0))], vec![src[1], one]);
                self.emit(AND, vec![full(self.guard_reg(0))], vec![g(self, 0), mask]);
                src[1] = g(self, 0);
            }
            MOD => {
                let one = self.imm_src(INT_IMM, 1);
                self.emit(OR, vec![full(self.guard_reg(0))], vec![src[1], one]);
                src[1] = g(self, 0);
            }
            UBFE | IBFE => self.guard_field(src, 1),
            BFI => self.guard_field(src, 2),
            F2I => self.clamp(src, (GUARD_FLOAT_IMM, 0), (GUARD_FLOAT_IMM, 1)),
            F2U => self.clamp(src, (GUARD_FLOAT_IMM2, 1), (GUARD_FLOAT_IMM, 2)),
            RSQ => {
                let tiny = self.imm_src(GUARD_FLOAT_IMM, 3);
                let mut s = src[0];
                s.abs = true;
                s.neg = false;
                self.emit(ADD, vec![full(self.guard_reg(0))], vec![s, tiny]);
                src[0] = g(self, 0);
            }
            SQRT => {
                src[0].abs = true;
                src[0].neg = false;
            }
            LIT | PK2H => {
                let neg_inf = self.imm_src(GUARD_FLOAT_IMM2, 0);
                self.emit(MAX, vec![full(self.guard_reg(0))], vec![src[0], neg_inf]);
                src[0] = g(self, 0);
            }
            _ => {}
        }
    }

    /// `min(max(src[0], lo), hi)` into guard 0; `lo`/`hi` are (immediate, component).
    fn clamp(&mut self, src: &mut [Src], lo: (i32, u8), hi: (i32, u8)) {
        let lo = self.imm_src(lo.0, lo.1);
        let hi = self.imm_src(hi.0, hi.1);
        let g0 = plain(self.guard_reg(0));
        self.emit(Opcode::MAX, vec![full(self.guard_reg(0))], vec![src[0], lo]);
        self.emit(Opcode::MIN, vec![full(self.guard_reg(0))], vec![g0, hi]);
        src[0] = g0;
    }

    /// Keeps the bitfield `(src[at], src[at + 1])` = (offset, bits) inside
    /// `offset >= 0, bits >= 0, offset + bits <= 32`.
    fn guard_field(&mut self, src: &mut [Src], at: usize) {
        use Opcode::*;
        let (g0, g1, g2) = (
            plain(self.guard_reg(0)),
            plain(self.guard_reg(1)),
            plain(self.guard_reg(2)),
        );
        let m15 = self.imm_src(GUARD_INT_IMM, 1);
        let m31 = self.imm_src(GUARD_INT_IMM, 2);
        let m63 = self.imm_src(GUARD_INT_IMM, 3);
        let one = self.imm_src(INT_IMM, 1);
        let (offset, bits) = (src[at], src[at + 1]);
        if self.c.chance(50) {
            // offset, bits in [0, 15]: sum <= 30.
            self.emit(AND, vec![full(self.guard_reg(0))], vec![offset, m15]);
            self.emit(AND, vec![full(self.guard_reg(2))], vec![bits, m15]);
        } else {
            // offset in [0, 31]; bits in [0, 32 - offset] (31 - offset = offset ^ 31).
            self.emit(AND, vec![full(self.guard_reg(0))], vec![offset, m31]);
            self.emit(XOR, vec![full(self.guard_reg(1))], vec![g0, m31]);
            self.emit(UADD, vec![full(self.guard_reg(1))], vec![g1, one]);
            self.emit(AND, vec![full(self.guard_reg(2))], vec![bits, m63]);
            self.emit(UMIN, vec![full(self.guard_reg(2))], vec![g2, g1]);
        }
        src[at] = g0;
        src[at + 1] = g2;
    }
}
