//! The ALU's contract with the interpreter core: which opcodes it implements, how sources are
//! fetched, writemask and replication rules, per-lane independence and undefined flags.
//! Sources: tgsi.rst "Basics" and "Source Modifiers", EXEC-NOTES.md §1, opcodes.csv.

#![allow(clippy::needless_range_loop)] // channel loops index several arrays

mod opcodes_support;

use opcodes_support::*;
use rstest::rstest;
use shaderdiff_model::{Opcode, OutputMode, ScalarType, ALL_OPCODES};
use shaderdiff_oracles::interp::alu::{eval, fetch_type, is_alu};
use shaderdiff_oracles::interp::lanes::{FetchType, Mask, Vals, LANES, ZERO_VALS};

/// tgsi.rst "Source Modifiers": the type comes from tgsi_opcode_infer_src_type (opcodes.csv);
/// MOV and UCMP's src1/src2 count as float; UCMP's src0 is fetched as an integer
/// (EXEC-NOTES.md §1, §12.16).
#[rstest]
#[case(Opcode::ADD, 0, FetchType::Float)]
#[case(Opcode::MOV, 0, FetchType::Float)]
#[case(Opcode::UADD, 1, FetchType::Int)]
#[case(Opcode::UCMP, 0, FetchType::Int)]
#[case(Opcode::UCMP, 1, FetchType::Float)]
#[case(Opcode::UCMP, 2, FetchType::Float)]
#[case(Opcode::I2F, 0, FetchType::Int)]
#[case(Opcode::U2F, 0, FetchType::Int)]
#[case(Opcode::F2I, 0, FetchType::Float)]
#[case(Opcode::LDEXP, 0, FetchType::Float)]
#[case(Opcode::LDEXP, 1, FetchType::Int)]
#[case(Opcode::UP2H, 0, FetchType::Int)]
#[case(Opcode::SHL, 1, FetchType::Int)]
#[case(Opcode::IDIV, 0, FetchType::Int)]
#[case(Opcode::UARL, 0, FetchType::Int)]
#[case(Opcode::ARL, 0, FetchType::Float)]
#[case(Opcode::FSLT, 0, FetchType::Float)]
#[case(Opcode::ADD, 5, FetchType::Float)] // past the source count
fn fetch_types(#[case] op: Opcode, #[case] src: usize, #[case] want: FetchType) {
    assert_eq!(fetch_type(op, src), want);
}

/// Opcodes outside the ALU's scope by the task definition (derivatives, inter-lane) and the
/// unpack opcodes tgsi.rst leaves "TBD".
fn out_of_scope(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        DDX | DDY
            | DDX_FINE
            | DDY_FINE
            | READ_HELPER
            | READ_INVOC
            | READ_FIRST
            | VOTE_ANY
            | VOTE_ALL
            | VOTE_EQ
            | UP2US
            | UP4B
            | UP4UB
    )
}

fn is_64bit(op: Opcode) -> bool {
    let i = op.info();
    i.dst_type.is_some_and(ScalarType::is_64bit)
        || i.src_types.iter().flatten().any(|t| t.is_64bit())
}

/// Every componentwise / replicate / channel-dependent opcode of opcodes.csv, 32-bit and
/// 64-bit (and the legacy ABS SUB XPD DPH) is implemented; nothing else is.
#[test]
fn is_alu_covers_every_alu_opcode() {
    for &op in ALL_OPCODES {
        let info = op.info();
        let alu_shape = matches!(
            info.output_mode,
            OutputMode::Componentwise | OutputMode::Replicate | OutputMode::ChanDependent
        );
        let expected = alu_shape && !out_of_scope(op);
        assert_eq!(is_alu(op), expected, "{op}");
        if is_64bit(op) {
            assert!(expected, "{op}: every 64-bit opcode is an ALU opcode");
        }
    }
}

/// `eval` succeeds exactly for `is_alu` opcodes; otherwise it returns the typed error and
/// leaves the destination and flags alone.
#[test]
fn eval_agrees_with_is_alu() {
    let srcs = [ZERO_VALS; 4];
    for &op in ALL_OPCODES {
        let mut out = [[SENTINEL; LANES]; 4];
        let mut undef: [Mask; 4] = [0; 4];
        let r = eval(op, &srcs, 0xF, &mut out, &mut undef);
        assert_eq!(r.is_ok(), is_alu(op), "{op}");
        if let Err(e) = r {
            assert_eq!(e.0, op);
            assert!(out.iter().flatten().all(|&w| w == SENTINEL));
            assert_eq!(undef, [0; 4]);
        }
    }
}

/// Too few sources is an error, never a panic.
#[rstest]
#[case(Opcode::ADD, 1)]
#[case(Opcode::BFI, 3)]
#[case(Opcode::MOV, 0)]
#[case(Opcode::DP4, 1)]
fn too_few_sources(#[case] op: Opcode, #[case] n: usize) {
    let srcs = vec![ZERO_VALS; n];
    let mut out = ZERO_VALS;
    let mut undef = [0; 4];
    assert!(eval(op, &srcs, 0xF, &mut out, &mut undef).is_err());
}

/// Componentwise: channel c of the result comes from channel c of each source; channels
/// outside the writemask are untouched (checked by eval_vec). ADD (1,2,3,4)+(10,20,30,40).
#[rstest]
#[case(0b1111)]
#[case(0b0101)]
#[case(0b1000)]
#[case(0b0000)]
fn componentwise_writemask(#[case] wm: u8) {
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    let r = eval_vec(
        Opcode::ADD,
        &[f([1.0, 2.0, 3.0, 4.0]), f([10.0, 20.0, 30.0, 40.0])],
        wm,
    );
    let want = f([11.0, 22.0, 33.0, 44.0]);
    for c in 0..4 {
        if wm >> c & 1 != 0 {
            assert_eq!(r.value[c], want[c]);
        }
    }
}

/// Replicated opcodes read the first swizzle component and write it to every enabled channel
/// (tgsi.rst "Basics"; EXEC-NOTES.md §1: `RCP d, s.yxxx` uses s.y).
#[rstest]
#[case(Opcode::RCP, &[[TWO, FOUR, EIGHT, NAN]], HALF)]
#[case(Opcode::SQRT, &[[FOUR, NAN, NAN, NAN]], TWO)]
#[case(Opcode::EX2, &[[THREE, ONE, ONE, ONE]], EIGHT)]
#[case(Opcode::POW, &[[TWO, NAN, NAN, NAN], [THREE, NAN, NAN, NAN]], EIGHT)]
fn replicate_reads_channel_0(#[case] op: Opcode, #[case] srcs: &[[u32; 4]], #[case] want: u32) {
    let r = eval_vec(op, srcs, 0b1110);
    for c in 1..4 {
        assert_eq!(r.value[c], want, "{op} channel {c}");
    }
}

/// Every lane is computed independently, and undefined flags are per lane and per channel:
/// IDIV(100, lane) is undefined only in lane 0 (division by zero); lane l gives 100 / l.
/// Flags already set by the caller are kept (eval only sets bits).
#[test]
fn per_lane_values_and_flags() {
    let mut a: Vals = ZERO_VALS;
    let mut b: Vals = ZERO_VALS;
    for l in 0..LANES {
        for c in 0..4 {
            a[c][l] = 100;
            b[c][l] = l as u32;
        }
    }
    let mut out = ZERO_VALS;
    let mut undef: [Mask; 4] = [0, 0, 0, 1 << 7];
    eval(Opcode::IDIV, &[a, b], 0b0111, &mut out, &mut undef).unwrap();
    assert_eq!(undef, [1, 1, 1, 1 << 7]);
    for l in 1..LANES {
        assert_eq!(out[0][l], 100 / l as u32, "lane {l}");
    }
}
