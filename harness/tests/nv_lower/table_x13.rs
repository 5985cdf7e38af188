//! NV_gpu_program5 Table X.13 instructions, one row per instruction x data type x edge case,
//! on every engine (the oracle first).
//!
//! Every expected value is worked out by hand from the instruction's pseudo-code in
//! NV_gpu_program4 §2.X.8.Z / NV_gpu_program5 §2.X.8.Z (quoted as "§ NAME" next to the
//! rows) and IEEE 754 binary32 arithmetic; the hex words are computed by hand (comments
//! give the decimal values). Where the spec says a result is undefined (integer division by
//! zero, MOD of a negative operand, shift counts outside [0, 31], bitfields past bit 31,
//! ROUND out of the result type's range), the row expects the oracle to mark the channel
//! undefined, and the other engines are not compared there.

use shaderdiff_backends::{engine, EngineConfig, Inputs, ENGINE_NAMES};
use shaderdiff_nv as nv;
use shaderdiff_oracles::RegKey;

use crate::support::{f, i};

/// What one result channel must be.
#[derive(Clone, Copy, Debug)]
pub(crate) enum W {
    /// Exactly this word on every engine.
    V(u32),
    /// Any NaN on every engine.
    Nan,
    /// The oracle marks it undefined; engines are not compared.
    Undef,
    /// Any defined word (the low half of a binary64 NaN, whose payload is not specified).
    Any,
    /// A binary32 within the absolute tolerance (second field) of the value (first field) on
    /// every engine: the approximating instructions (§ COS, EX2, LG2 ...), whose bounds the
    /// precision contract (`oracle/precision.toml`) gives.
    Near(f32, f32),
}
pub(crate) use W::{Any, Nan, Near, Undef, V};

/// One row: an instruction writing `t` from `p0`..`p2` (program.local[0..2]), and the four
/// expected channels of `t`.
pub(crate) struct Row {
    insn: &'static str,
    locals: Vec<[u32; 4]>,
    want: [W; 4],
}

pub(crate) fn row(insn: &'static str, locals: &[[u32; 4]], want: [W; 4]) -> Row {
    Row {
        insn,
        locals: locals.to_vec(),
        want,
    }
}

/// Broadcast of one word.
fn all(v: u32) -> [u32; 4] {
    [v; 4]
}

fn vs(v: [u32; 4]) -> [W; 4] {
    v.map(V)
}

pub(crate) fn run_rows(rows: &[Row]) {
    run_rows_in(
        "TEMP t;\nMOV.U t, 0;\n",
        "MOV.U result.attrib[0], t;\n",
        "result.attrib[0]",
        rows,
    );
}

/// Runs every row as `!!NVvp5.0`, `p0`..`p2` = program.local[0..2], then `prologue`, the
/// row's instruction and `epilogue`, and checks the result register `out` on every engine.
pub(crate) fn run_rows_in(prologue: &str, epilogue: &str, out: &str, rows: &[Row]) {
    for r in rows {
        let text = format!(
            "!!NVvp5.0\nPARAM p0 = program.local[0];\nPARAM p1 = program.local[1];\n\
             PARAM p2 = program.local[2];\n{prologue}{}\n{epilogue}END\n",
            r.insn
        );
        let p = nv::parse(&text, "row.nv").unwrap_or_else(|e| panic!("{}: {e}", r.insn));
        let l = nv::lower(&p).unwrap_or_else(|e| panic!("{}: {e}", r.insn));
        let mut inputs = Inputs {
            invocations: 1,
            ..Inputs::default()
        };
        for (k, v) in r.locals.iter().enumerate() {
            if let Some((file, idx)) = l.names.lookup(l.stage, &format!("program.local[{k}]")) {
                inputs.constants.insert(RegKey::new(file, idx), *v);
            }
        }
        let (file, idx) = l
            .names
            .lookup(l.stage, out)
            .unwrap_or_else(|| panic!("{out} is not written"));
        let key = RegKey::new(file, idx);
        for name in ENGINE_NAMES {
            let e = engine(name, &EngineConfig::default()).expect("engine");
            let out = e
                .execute(&l.program, &inputs)
                .unwrap_or_else(|err| panic!("{name}: {}: {err}", r.insn));
            let got = out.registers[&key][0];
            let undef = out.undefined.get(&key).map_or(0, |u| u[0]);
            for (c, (&word, want)) in got.iter().zip(r.want).enumerate() {
                let ctx = format!("{name}: `{}` channel {c}: got {word:#010x}", r.insn);
                match want {
                    V(v) => assert_eq!(word, v, "{ctx}, want {v:#010x}"),
                    Nan => assert!(f32::from_bits(word).is_nan(), "{ctx}, want NaN"),
                    Near(v, tol) => {
                        let x = f32::from_bits(word);
                        assert!((x - v).abs() <= tol, "{ctx} = {x}, want {v} +- {tol}");
                    }
                    Undef if *name == "interp" => {
                        assert!(undef & (1 << c) != 0, "{ctx}: not marked undefined")
                    }
                    Undef | Any => {}
                }
                if *name == "interp" && !matches!(want, Undef) {
                    assert!(undef & (1 << c) == 0, "{ctx}: marked undefined");
                }
            }
        }
    }
}

const IMIN: u32 = 0x8000_0000;
const IMAX: u32 = 0x7FFF_FFFF;
const UMAX: u32 = 0xFFFF_FFFF;

/// ADD SUB MUL MAD (§ ADD, SUB, MUL, MAD): two's-complement wrap for S and U alike;
/// MUL.HI (§ MUL, "HI" modifier) the high 32 bits of the 64-bit product.
#[test]
fn integer_arithmetic() {
    run_rows(&[
        // 0x7FFFFFFF + 1 wraps to 0x80000000; -1 + 1 = 0; 5 + 7 = 12; UMAX + UMAX = 0xFFFFFFFE.
        row(
            "ADD.S t, p0, p1;",
            &[[IMAX, UMAX, 5, UMAX], [1, 1, 7, UMAX]],
            vs([IMIN, 0, 12, 0xFFFF_FFFE]),
        ),
        row(
            "ADD.U t, p0, p1;",
            &[[IMAX, UMAX, 5, UMAX], [1, 1, 7, UMAX]],
            vs([IMIN, 0, 12, 0xFFFF_FFFE]),
        ),
        // 0 - IMIN = IMIN (wraps); 5 - 7 = -2; 0 - 1 = UMAX.
        row(
            "SUB.S t, p0, p1;",
            &[[0, 5, 0, 9], [IMIN, 7, 1, 9]],
            vs([IMIN, i(-2), UMAX, 0]),
        ),
        // 0x10000 * 0x10000 = 2^32 -> low word 0; -3 * 7 = -21; IMIN * -1 = IMIN (wraps).
        row(
            "MUL.S t, p0, p1;",
            &[[0x1_0000, i(-3), IMIN, 6], [0x1_0000, 7, UMAX, 7]],
            vs([0, i(-21), IMIN, 42]),
        ),
        // High words: IMIN * 2 = -2^32 -> 0xFFFFFFFF (signed); 0x80000000 * 2 = 2^32 -> 1
        // (unsigned); UMAX * UMAX = (2^32-1)^2 = 2^64 - 2^33 + 1 -> 0xFFFFFFFE.
        row(
            "MUL.S.HI t, p0, p1;",
            &[[IMIN, 3, 0x1_0000, i(-1)], [2, 4, 0x1_0000, i(-1)]],
            vs([UMAX, 0, 1, 0]),
        ),
        row(
            "MUL.U.HI t, p0, p1;",
            &[[IMIN, 3, 0x1_0000, UMAX], [2, 4, 0x1_0000, UMAX]],
            vs([1, 0, 1, 0xFFFF_FFFE]),
        ),
        // § MUL S24 / U24: 24-bit operands; undefined outside [-2^23, 2^23 - 1] (S24) or
        // [0, 2^24 - 1] (U24). -2^23 * 2 = -2^24; (2^23 - 1) * 3 = 0x17FFFFD; 2^23 is out of
        // S24's range; 2^24 - 1 squared = 2^48 - 2^25 + 1 -> low word 0xFE000001.
        row(
            "MUL.S24 t, p0, p1;",
            &[[0xFF80_0000, 0x7F_FFFF, 0x80_0000, 5], [2, 3, 1, i(-7)]],
            [V(0xFF00_0000), V(0x17F_FFFD), Undef, V(i(-35))],
        ),
        row(
            "MUL.U24 t, p0, p1;",
            &[[0xFF_FFFF, 0x100_0000, 7, 0], [0xFF_FFFF, 1, 6, UMAX]],
            [V(0xFE00_0001), Undef, V(42), Undef],
        ),
        // 2 * 3 + -10 = -4; UMAX * 2 + 3 = 1 (wraps).
        row(
            "MAD.S t, p0, p1, p2;",
            &[[2, UMAX, 0, 4], [3, 2, 9, 4], [i(-10), 3, 5, 0]],
            vs([i(-4), 1, 5, 16]),
        ),
    ]);
}

/// DIV and MOD by a scalar (§ DIV, § MOD): C division truncating toward zero; division by
/// zero, a negative MOD dividend and a MOD divisor <= 0 are undefined.
#[test]
fn integer_division_and_modulus() {
    run_rows(&[
        // 7/2 = 3, -7/2 = -3, IMIN/2 = -2^30, 0/2 = 0.
        row(
            "DIV.S t, p0, p1.x;",
            &[[7, i(-7), IMIN, 0], all(2)],
            vs([3, i(-3), 0xC000_0000, 0]),
        ),
        // UMAX/2 = 0x7FFFFFFF; 0x80000000/2 = 0x40000000.
        row(
            "DIV.U t, p0, p1.x;",
            &[[UMAX, IMIN, 1, 3], all(2)],
            vs([IMAX, 0x4000_0000, 0, 1]),
        ),
        row(
            "DIV.S t, p0, p1.x;",
            &[[7, i(-7), 0, 1], all(0)],
            [Undef; 4],
        ),
        row("DIV.U t, p0, p1.x;", &[[7, UMAX, 0, 1], all(0)], [Undef; 4]),
        // 7 % 3 = 1, 9 % 3 = 0, 0 % 3 = 0; -7 % 3 undefined (negative dividend).
        row(
            "MOD.S t, p0, p1.x;",
            &[[7, 9, 0, i(-7)], all(3)],
            [V(1), V(0), V(0), Undef],
        ),
        // 4294967295 % 10 = 5; 0x80000000 % 10 = 2147483648 % 10 = 8.
        row(
            "MOD.U t, p0, p1.x;",
            &[[UMAX, IMIN, 10, 9], all(10)],
            vs([5, 8, 0, 9]),
        ),
        row("MOD.S t, p0, p1.x;", &[[7, 9, 0, 1], all(0)], [Undef; 4]),
        row(
            "MOD.S t, p0, p1.x;",
            &[[7, 9, 0, 1], all(i(-3))],
            [Undef; 4],
        ),
    ]);
}

/// MIN MAX (§ MIN, § MAX: `(a > b) ? b : a`, `(a > b) ? a : b`) in each type's order; ABS
/// and SSG-free sign handling; NOT AND OR XOR on bits.
#[test]
fn integer_min_max_and_bits() {
    run_rows(&[
        // Signed: -1 < 1; IMIN < IMAX. Unsigned: 1 < UMAX; IMAX < IMIN.
        row(
            "MIN.S t, p0, p1;",
            &[[UMAX, IMIN, 5, 0], [1, IMAX, 5, UMAX]],
            vs([UMAX, IMIN, 5, UMAX]),
        ),
        row(
            "MIN.U t, p0, p1;",
            &[[UMAX, IMIN, 5, 0], [1, IMAX, 5, UMAX]],
            vs([1, IMAX, 5, 0]),
        ),
        row(
            "MAX.S t, p0, p1;",
            &[[UMAX, IMIN, 5, 0], [1, IMAX, 5, UMAX]],
            vs([1, IMAX, 5, 0]),
        ),
        row(
            "MAX.U t, p0, p1;",
            &[[UMAX, IMIN, 5, 0], [1, IMAX, 5, UMAX]],
            vs([UMAX, IMIN, 5, UMAX]),
        ),
        // |-5| = 5, |7| = 7, |0| = 0, |-IMAX| = IMAX.
        row(
            "ABS.S t, p0;",
            &[[i(-5), 7, 0, i(-0x7FFF_FFFF)]],
            vs([5, 7, 0, IMAX]),
        ),
        row(
            "NOT.S t, p0;",
            &[[0, UMAX, 0xF0F0_F0F0, 1]],
            vs([UMAX, 0, 0x0F0F_0F0F, 0xFFFF_FFFE]),
        ),
        row(
            "AND.U t, p0, p1;",
            &[
                [0xFF00_FF00, UMAX, 0, 0xC],
                [0x0FF0_0FF0, 0x1234_5678, UMAX, 0xA],
            ],
            vs([0x0F00_0F00, 0x1234_5678, 0, 0x8]),
        ),
        row(
            "OR.U t, p0, p1;",
            &[[0xFF00_FF00, 0, 0, 0xC], [0x0FF0_0FF0, 0x1234_5678, 0, 0xA]],
            vs([0xFFF0_FFF0, 0x1234_5678, 0, 0xE]),
        ),
        row(
            "XOR.U t, p0, p1;",
            &[
                [0xFF00_FF00, UMAX, 7, 0xC],
                [0x0FF0_0FF0, 0x1234_5678, 7, 0xA],
            ],
            vs([0xF0F0_F0F0, 0xEDCB_A987, 0, 0x6]),
        ),
    ]);
}

/// SHL SHR by a scalar count (§ SHL, § SHR): SHR.S fills with the sign, SHR.U with zeros;
/// counts < 0 or >= 32 are undefined.
#[test]
fn shifts() {
    run_rows(&[
        row(
            "SHL.S t, p0, p1.x;",
            &[[1, UMAX, 3, IMIN], all(31)],
            vs([IMIN, IMIN, IMIN, 0]),
        ),
        row(
            "SHL.U t, p0, p1.x;",
            &[[1, UMAX, 3, 0x10], all(4)],
            vs([0x10, 0xFFFF_FFF0, 0x30, 0x100]),
        ),
        row(
            "SHL.S t, p0, p1.x;",
            &[[1, 2, 3, 4], all(0)],
            vs([1, 2, 3, 4]),
        ),
        // -2^31 >> 31 = -1 (sign fill); -8 >> 1 = -4; IMAX >> 31 = 0.
        row(
            "SHR.S t, p0, p1.x;",
            &[[IMIN, i(-8), IMAX, UMAX], all(31)],
            vs([UMAX, UMAX, 0, UMAX]),
        ),
        row(
            "SHR.S t, p0, p1.x;",
            &[[i(-8), 8, IMIN, 1], all(1)],
            vs([i(-4), 4, 0xC000_0000, 0]),
        ),
        row(
            "SHR.U t, p0, p1.x;",
            &[[IMIN, i(-8), IMAX, UMAX], all(31)],
            vs([1, 1, 0, 1]),
        ),
        row("SHL.S t, p0, p1.x;", &[[1, 2, 3, 4], all(32)], [Undef; 4]),
        row("SHR.U t, p0, p1.x;", &[[1, 2, 3, 4], all(40)], [Undef; 4]),
        row(
            "SHR.S t, p0, p1.x;",
            &[[1, 2, 3, 4], all(i(-1))],
            [Undef; 4],
        ),
    ]);
}

/// BFE BFI BFR BTC BTFL BTFM (NV_gpu_program5 § BFE ... § BTFM): the width in `op0.x`, the
/// offset in `op0.y`; BitfieldExtract sign-extends for S (arithmetic shift of the field's
/// top bit) and not for U; bits + offset > 32 is undefined.
#[test]
fn bitfields() {
    run_rows(&[
        // 4 bits at offset 4 of 0x000000F0 = 0xF: U -> 15, S -> -1. Of 0x70: 7 either way.
        row(
            "BFE.U t, p0, p1;",
            &[[4, 4, 0, 0], [0xF0, 0x70, 0xFFFF_FF0F, 0x1234_5678]],
            vs([0xF, 0x7, 0x0, 0x7]),
        ),
        row(
            "BFE.S t, p0, p1;",
            &[[4, 4, 0, 0], [0xF0, 0x70, 0xFFFF_FF0F, 0x1234_5678]],
            vs([UMAX, 0x7, 0x0, 0x7]),
        ),
        // Zero bits -> 0; the whole word (32 at 0) -> the word.
        row(
            "BFE.U t, p0, p1;",
            &[[0, 5, 0, 0], all(0xDEAD_BEEF)],
            vs([0; 4]),
        ),
        row(
            "BFE.S t, p0, p1;",
            &[[32, 0, 0, 0], all(0xDEAD_BEEF)],
            vs([0xDEAD_BEEF; 4]),
        ),
        row(
            "BFE.U t, p0, p1;",
            &[[8, 28, 0, 0], all(0xDEAD_BEEF)],
            [Undef; 4],
        ),
        row(
            "BFE.U t, p0, p1;",
            &[[1, 32, 0, 0], all(0xDEAD_BEEF)],
            [Undef; 4],
        ),
        // Insert the low 8 bits of op1 at offset 8 of op2: mask 0x0000FF00.
        row(
            "BFI.U t, p0, p1, p2;",
            &[
                [8, 8, 0, 0],
                [0xAB, 0x1FF, 0, UMAX],
                [0x1111_1111, 0, UMAX, 0],
            ],
            vs([0x1111_AB11, 0x0000_FF00, 0xFFFF_00FF, 0x0000_FF00]),
        ),
        row(
            "BFI.S t, p0, p1, p2;",
            &[[32, 0, 0, 0], all(0x1234_5678), all(UMAX)],
            vs([0x1234_5678; 4]),
        ),
        row(
            "BFI.U t, p0, p1, p2;",
            &[[16, 20, 0, 0], all(1), all(0)],
            [Undef; 4],
        ),
        // Bit reverse: 1 -> 0x80000000, 0xF0 -> 0x0F000000.
        row(
            "BFR.U t, p0;",
            &[[1, 0xF0, 0, UMAX]],
            vs([IMIN, 0x0F00_0000, 0, UMAX]),
        ),
        // Bit counts.
        row(
            "BTC.U t, p0;",
            &[[0, UMAX, 0xF0F0, IMIN]],
            vs([0, 32, 8, 1]),
        ),
        // LSB: 0 -> UMAX (U) or -1 (S); 8 -> 3; IMIN -> 31.
        row("BTFL.U t, p0;", &[[0, 8, IMIN, 6]], vs([UMAX, 3, 31, 1])),
        row("BTFL.S t, p0;", &[[0, 8, IMIN, 6]], vs([UMAX, 3, 31, 1])),
        // MSB unsigned: 0 -> UMAX; 8 -> 3; IMIN -> 31. Signed: positive -> MSB one bit,
        // negative -> MSB zero bit (-8 = 0xFFFFFFF8 -> bit 2), 0 -> -1; IMAX -> 30.
        row(
            "BTFM.U t, p0;",
            &[[0, 8, IMIN, UMAX]],
            vs([UMAX, 3, 31, 31]),
        ),
        row(
            "BTFM.S t, p0;",
            &[[0, 8, i(-8), IMAX]],
            vs([UMAX, 3, 2, 30]),
        ),
    ]);
}

/// Set-on instructions (§ SEQ ... § STR) and CMP (§ CMP: `tmp0 < 0 ? tmp1 : tmp2`): TRUE is
/// 1.0 for F, -1 for S and 0xFFFFFFFF for U (§2.X.4.1), FALSE 0.
#[test]
fn comparisons_per_type() {
    let t_f = f(1.0);
    run_rows(&[
        row(
            "SLT.S t, p0, p1;",
            &[[UMAX, 0, IMIN, 5], [0, 0, IMAX, 4]],
            vs([UMAX, 0, UMAX, 0]),
        ),
        row(
            "SLT.U t, p0, p1;",
            &[[UMAX, 0, IMIN, 5], [0, 1, IMAX, 4]],
            vs([0, UMAX, 0, 0]),
        ),
        row(
            "SGE.S t, p0, p1;",
            &[[UMAX, 0, IMIN, 5], [0, 0, IMAX, 4]],
            vs([0, UMAX, 0, UMAX]),
        ),
        row(
            "SEQ.U t, p0, p1;",
            &[[7, 0, IMIN, 5], [7, 1, IMIN, 4]],
            vs([UMAX, 0, UMAX, 0]),
        ),
        row(
            "SNE.S t, p0, p1;",
            &[[7, 0, IMIN, 5], [7, 1, IMIN, 4]],
            vs([0, UMAX, 0, UMAX]),
        ),
        row(
            "SGT.U t, p0, p1;",
            &[[UMAX, 0, 3, 5], [1, 0, 4, 4]],
            vs([UMAX, 0, 0, UMAX]),
        ),
        row(
            "SLE.S t, p0, p1;",
            &[[UMAX, 0, 3, 5], [1, 0, 4, 4]],
            vs([UMAX, UMAX, UMAX, 0]),
        ),
        row("SFL.U t, p0, p1;", &[all(1), all(1)], vs([0; 4])),
        row("STR.S t, p0, p1;", &[all(1), all(2)], vs([UMAX; 4])),
        // Floats: NaN compares false everywhere except SNE; -0.0 == +0.0.
        row(
            "SEQ.F t, p0, p1;",
            &[
                [f(-0.0), 0x7FC0_0000, f(1.0), f(f32::INFINITY)],
                [f(0.0), 0x7FC0_0000, f(2.0), f(f32::INFINITY)],
            ],
            vs([t_f, 0, 0, t_f]),
        ),
        row(
            "SNE.F t, p0, p1;",
            &[
                [f(-0.0), 0x7FC0_0000, f(1.0), f(f32::INFINITY)],
                [f(0.0), 0x7FC0_0000, f(2.0), f(f32::INFINITY)],
            ],
            vs([0, t_f, t_f, 0]),
        ),
        row(
            "SLT.F t, p0, p1;",
            &[
                [f(-0.0), 0x7FC0_0000, f(-1.0), f(f32::NEG_INFINITY)],
                [f(0.0), f(1.0), f(2.0), f(-3.0e38)],
            ],
            vs([0, 0, t_f, t_f]),
        ),
        // CMP.S: -1 < 0 takes op1; 0 and IMAX take op2; IMIN < 0 takes op1.
        row(
            "CMP.S t, p0, p1, p2;",
            &[[UMAX, 0, IMAX, IMIN], all(10), all(20)],
            vs([10, 20, 20, 10]),
        ),
        // CMP.U: no unsigned value is < 0 ("not a useful operation"): always op2.
        row(
            "CMP.U t, p0, p1, p2;",
            &[[UMAX, 0, IMAX, IMIN], all(10), all(20)],
            vs([20; 4]),
        ),
        // CMP.F: -0.0 < 0 is false; NaN < 0 is false.
        row(
            "CMP.F t, p0, p1, p2;",
            &[
                [f(-0.0), 0x7FC0_0000, f(-1e-30), f(0.5)],
                all(f(1.0)),
                all(f(2.0)),
            ],
            vs([f(2.0), f(2.0), f(1.0), f(2.0)]),
        ),
    ]);
}

/// Float arithmetic edge cases in IEEE binary32, round to nearest even (§ ADD, § MUL, § MIN,
/// § MAX, § SSG, § FRC, § FLR, § CEIL, § TRUNC, § ROUND).
#[test]
fn float_edges() {
    let (inf, ninf) = (f(f32::INFINITY), f(f32::NEG_INFINITY));
    run_rows(&[
        // 1 + -1 = +0; -0 + -0 = -0; inf + -inf = NaN; MAX + MAX overflows to +inf.
        row(
            "ADD.F t, p0, p1;",
            &[
                [f(1.0), f(-0.0), inf, f(f32::MAX)],
                [f(-1.0), f(-0.0), ninf, f(f32::MAX)],
            ],
            [V(f(0.0)), V(f(-0.0)), Nan, V(inf)],
        ),
        // 1 + 2^-24 rounds to even (1.0); 1 + 3*2^-24 rounds up to 1 + 2^-22.
        row(
            "ADD.F t, p0, p1;",
            &[
                [f(1.0), f(1.0), f(0.0), f(0.0)],
                [f(2f32.powi(-24)), f(3.0 * 2f32.powi(-24)), f(0.0), f(-0.0)],
            ],
            vs([f(1.0), f(1.0 + 2f32.powi(-22)), f(0.0), f(0.0)]),
        ),
        // 0 * inf = NaN; -2 * 0 = -0; 2^100 * 2^100 = inf; -3 * 0.5 = -1.5.
        row(
            "MUL.F t, p0, p1;",
            &[
                [f(0.0), f(-2.0), f(2f32.powi(100)), f(-3.0)],
                [inf, f(0.0), f(2f32.powi(100)), f(0.5)],
            ],
            [Nan, V(f(-0.0)), V(inf), V(f(-1.5))],
        ),
        // MIN/MAX of ordinary values and infinities.
        row(
            "MIN.F t, p0, p1;",
            &[
                [f(-1.0), ninf, f(3.0), f(2.0)],
                [f(1.0), f(0.0), inf, f(2.0)],
            ],
            vs([f(-1.0), ninf, f(3.0), f(2.0)]),
        ),
        row(
            "MAX.F t, p0, p1;",
            &[
                [f(-1.0), ninf, f(3.0), f(2.0)],
                [f(1.0), f(0.0), inf, f(2.0)],
            ],
            vs([f(1.0), f(0.0), inf, f(2.0)]),
        ),
        // SSG: > 0 -> 1, == 0 -> 0, < 0 -> -1 (inf included).
        row(
            "SSG.F t, p0;",
            &[[f(5.0), f(0.0), f(-1e-30), ninf]],
            vs([f(1.0), f(0.0), f(-1.0), f(-1.0)]),
        ),
        // FRC(x) = x - floor(x): -1.25 -> 0.75; 2.5 -> 0.5; -0.5 -> 0.5; 3 -> 0.
        row(
            "FRC.F t, p0;",
            &[[f(-1.25), f(2.5), f(-0.5), f(3.0)]],
            vs([f(0.75), f(0.5), f(0.5), f(0.0)]),
        ),
        row(
            "FLR.F t, p0;",
            &[[f(-1.25), f(2.5), f(-0.5), f(3.0)]],
            vs([f(-2.0), f(2.0), f(-1.0), f(3.0)]),
        ),
        // CEIL(-0.5) = -0.0 (IEEE roundToIntegralTowardPositive keeps the sign).
        row(
            "CEIL.F t, p0;",
            &[[f(-1.25), f(2.5), f(-0.5), f(3.0)]],
            vs([f(-1.0), f(3.0), f(-0.0), f(3.0)]),
        ),
        row(
            "TRUNC.F t, p0;",
            &[[f(-1.75), f(2.5), f(-0.5), f(3.0)]],
            vs([f(-1.0), f(2.0), f(-0.0), f(3.0)]),
        ),
        // § ROUND: ties to even; the examples of the spec: -1.7 -> -2, 1.0 -> 1, 3.7 -> 4.
        row(
            "ROUND.F t, p0;",
            &[[f(-1.7), f(1.0), f(3.7), f(2.5)]],
            vs([f(-2.0), f(1.0), f(4.0), f(2.0)]),
        ),
    ]);
}

/// Float-to-integer results of FLR CEIL TRUNC ROUND (.S/.U: "the single operand is always
/// treated as a floating-point value, but the result is written as ... a signed integer, or
/// an unsigned integer"; not representable -> undefined) and I2F (§ I2F).
#[test]
fn conversions() {
    run_rows(&[
        row(
            "TRUNC.S t, p0;",
            &[[f(-2.5), f(2.5), f(-0.5), f(1e9)]],
            vs([i(-2), 2, 0, 1_000_000_000]),
        ),
        row(
            "FLR.S t, p0;",
            &[[f(-2.5), f(2.5), f(-0.5), f(7.0)]],
            vs([i(-3), 2, UMAX, 7]),
        ),
        row(
            "CEIL.S t, p0;",
            &[[f(-2.5), f(2.5), f(-0.5), f(7.0)]],
            vs([i(-2), 3, 0, 7]),
        ),
        row(
            "ROUND.S t, p0;",
            &[[f(-2.5), f(2.5), f(-1.7), f(3.5)]],
            vs([i(-2), 2, i(-2), 4]),
        ),
        row(
            "ROUND.U t, p0;",
            &[[f(2.5), f(4e9), f(0.0), f(1.5)]],
            vs([2, 4_000_000_000, 0, 2]),
        ),
        // Not representable: 3e9 as S; -1 as U; NaN; 2^32 as U.
        row(
            "ROUND.S t, p0;",
            &[[f(3e9), f(-3e9), 0x7FC0_0000, f(f32::INFINITY)]],
            [Undef; 4],
        ),
        row(
            "TRUNC.U t, p0;",
            &[[f(-1.0), f(4294967296.0), 0x7FC0_0000, f(5.0)]],
            [Undef, Undef, Undef, V(5)],
        ),
        // I2F.S: -1 -> -1.0; IMAX -> 2^31 (rounded); I2F.U: UMAX -> 2^32; IMIN -> 2^31.
        row(
            "I2F.S t, p0;",
            &[[UMAX, IMAX, IMIN, 3]],
            vs([f(-1.0), 0x4F00_0000, 0xCF00_0000, f(3.0)]),
        ),
        row(
            "I2F.U t, p0;",
            &[[UMAX, IMAX, IMIN, 3]],
            vs([0x4F80_0000, 0x4F00_0000, 0x4F00_0000, f(3.0)]),
        ),
    ]);
}

/// SAD (§ SAD): `abs(a - b) + c` with a, b of the instruction's type and c, the result
/// unsigned.
#[test]
fn sum_of_absolute_differences() {
    run_rows(&[
        // S: |-5 - 3| + 1 = 9; |3 - -5| + 0 = 8; U: |0 - UMAX| + 0 = UMAX.
        row(
            "SAD.S t, p0, p1, p2;",
            &[[i(-5), 3, 7, 0], [3, i(-5), 7, 0], [1, 0, 10, 0]],
            vs([9, 8, 10, 0]),
        ),
        row(
            "SAD.U t, p0, p1, p2;",
            &[[0, 10, 7, 5], [UMAX, 3, 7, 9], [0, 1, 10, 1]],
            vs([UMAX, 8, 10, 5]),
        ),
    ]);
}
