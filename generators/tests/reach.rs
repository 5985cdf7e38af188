//! Forms the random TGSI generator reaches so that campaigns can see miscompilations of
//! them (docs/mutation-testing.md lists the lowering each one exercises): indirect
//! `CONST[ADDR[0].x]` sources read through every channel, indirect `OUT[ADDR[0].x]`
//! destinations, inter-lane votes, and DLDEXP exponents past binary64's exponent range.
//! Each stays valid (prints and parses back) and, in defined-only mode, defined.

use shaderdiff_generators::random::{generate, Generated, RandomConfig};
use shaderdiff_model::{File, Instruction, Opcode, Register};
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_tgsi::parse;

fn indirect(r: &Register, file: File) -> bool {
    r.file == file && r.index.indirect.is_some()
}

/// Runs `g` on the oracle: it must parse back and, in defined-only mode, leave no output
/// channel undefined.
fn check_valid(g: &Generated, defined_only: bool) {
    let parsed = parse(&g.text, "gen.tgsi").unwrap_or_else(|e| panic!("{e}\n{}", g.text));
    assert_eq!(parsed, g.program, "{}", g.text);
    let out = interp::run(&g.program, &g.inputs, &InterpConfig::default())
        .unwrap_or_else(|e| panic!("{e}\n{}", g.text));
    if defined_only {
        assert!(
            out.undefined.is_empty(),
            "undefined channels {:?}\n{}",
            out.undefined,
            g.text
        );
    }
}

/// Whether `i` reads `CONST[ADDR[0].x]` in some channel other than `x` (a written channel
/// whose swizzle selects y, z or w).
fn reads_indirect_const_beyond_x(i: &Instruction) -> bool {
    let wm = i.dst.first().map_or(0, |d| d.writemask);
    i.src.iter().any(|s| {
        indirect(&s.reg, File::Const) && (0..4).any(|c| wm >> c & 1 != 0 && s.swizzle[c] != 0)
    })
}

#[test]
fn indirect_constants_outputs_and_votes_are_generated_valid_and_defined() {
    for defined_only in [true, false] {
        let cfg = RandomConfig::with_defined_only(defined_only);
        let (mut consts, mut outs, mut votes) = (0, 0, 0);
        for index in 0..400 {
            let g = generate(7, index, &cfg);
            let insns = &g.program.instructions;
            let c = insns
                .iter()
                .filter(|i| reads_indirect_const_beyond_x(i))
                .count();
            let o = insns
                .iter()
                .filter(|i| i.dst.iter().any(|d| indirect(&d.reg, File::Output)))
                .count();
            let v = insns
                .iter()
                .filter(|i| {
                    matches!(
                        i.opcode,
                        Opcode::VOTE_ANY | Opcode::VOTE_ALL | Opcode::VOTE_EQ | Opcode::READ_FIRST
                    )
                })
                .count();
            if c + o + v > 0 {
                check_valid(&g, defined_only);
            }
            (consts, outs, votes) = (consts + c, outs + o, votes + v);
        }
        assert!(consts > 20, "{consts} indirect CONST reads beyond x");
        assert!(outs > 20, "{outs} indirect OUT writes");
        assert!(votes > 20, "{votes} votes");
    }
}

/// tgsi.rst "DLDEXP": `dst.xy = src0.xy * 2^src1.x`, `dst.zw = src0.zw * 2^src1.z`; 64-bit
/// programs take the exponent from `IMM[5]` = {1025, 1100, 2000, -1100} half the time.
#[test]
fn wide_programs_draw_dldexp_exponents_past_the_binary64_range() {
    let mut cfg = RandomConfig::default();
    cfg.gen.wide = true;
    let mut far = 0;
    for index in 0..600 {
        let g = generate(5, index, &cfg);
        let imm5 = g.program.immediates[5].words.map(|w| w as i32);
        assert_eq!(imm5, [1025, 1100, 2000, -1100], "{}", g.text);
        let n = g
            .program
            .instructions
            .iter()
            .filter(|i| i.opcode == Opcode::DLDEXP)
            .filter(|i| i.src[1].reg == Register::new(File::Immediate, 5))
            .count();
        if n > 0 {
            check_valid(&g, false);
        }
        far += n;
    }
    assert!(far > 5, "{far} DLDEXP with IMM[5] exponents");
}

/// Without `wide`, `IMM[5]` is not reserved: the 32-bit streams keep their immediates.
#[test]
fn plain_programs_have_no_exponent_immediate() {
    let cfg = RandomConfig::default();
    for index in 0..50 {
        let g = generate(5, index, &cfg);
        let fixed_then_random = g.program.immediates.len() >= 5;
        assert!(fixed_then_random);
        if let Some(imm) = g.program.immediates.get(5) {
            assert_ne!(imm.words.map(|w| w as i32), [1025, 1100, 2000, -1100]);
        }
    }
}

/// `fuzz --lang nv --64bit` programs with global memory draw 64-bit atomics
/// (NV_shader_atomic_int64: ATOM with a U64 or S64 storage modifier) into a LONG
/// variable's `x`, at 8-byte aligned offsets (`AND.U sc.x, ..., 24`, NV_gpu_program5
/// §2.X.4.5: "must be a multiple of the size"); every such program parses and lowers.
#[test]
fn nv_wide_programs_draw_64bit_atomics_that_lower() {
    let mut found = 0;
    for index in 0..400 {
        let g = shaderdiff_generators::nv::generate_with(9, index, 48, 16, true)
            .unwrap_or_else(|e| panic!("index {index}: {e}"));
        found += g
            .text
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("ATOM.") && (l.contains(".U64 ") || l.contains(".S64 ")))
            .inspect(|l| {
                assert!(
                    l.contains(" L0.x,") || l.contains(" L1.x,") || l.contains(" L2.x,"),
                    "{l}"
                )
            })
            .count();
    }
    assert!(found > 10, "{found} 64-bit ATOM instructions");
}
