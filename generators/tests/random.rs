//! Seeded random programs: validity (the printed text parses back to the program),
//! determinism, swarm draws, and defined-only mode (the oracle reports no undefined channel
//! and no unconstrained invocation over many seeds).

use shaderdiff_generators::random::{
    generate, program_choices, stamp_version, RandomConfig, Stamp,
};
use shaderdiff_generators::{build, GENERATOR_VERSION};
use shaderdiff_model::Opcode;
use shaderdiff_oracles::interp::{self, InterpConfig};
use shaderdiff_tgsi::parse;

#[test]
fn same_seed_and_index_give_the_same_program_and_inputs() {
    let cfg = RandomConfig::default();
    for index in 0..20 {
        let a = generate(7, index, &cfg);
        let b = generate(7, index, &cfg);
        assert_eq!(a, b);
        assert_eq!(a.text, b.text);
    }
    // Generation order does not matter: index 5 alone equals index 5 after 0..5.
    let alone = generate(3, 5, &cfg);
    let after: Vec<_> = (0..6).map(|i| generate(3, i, &cfg)).collect();
    assert_eq!(alone, after[5]);
}

#[test]
fn different_seeds_and_indices_differ() {
    let cfg = RandomConfig::default();
    let texts: std::collections::BTreeSet<String> = (0..50)
        .flat_map(|i| [generate(1, i, &cfg).text, generate(2, i, &cfg).text])
        .collect();
    // Stamps alone make every text distinct; the programs must differ too.
    let programs: std::collections::BTreeSet<String> = texts
        .iter()
        .map(|t| t.lines().skip(2).collect::<Vec<_>>().join("\n"))
        .collect();
    assert!(programs.len() > 90, "{} distinct programs", programs.len());
}

/// Stability check only, not a correctness claim: pins the text generator version 0.3.0
/// produces for seed 1, index 0 under a tiny configuration, so an accidental change in
/// the stream, the builder or the printer is noticed. The text was taken from the
/// generator itself; when the change is intended, bump GENERATOR_VERSION and update it
/// (`cargo run -p shaderdiff-generators --example golden`).
#[test]
fn golden_text_for_seed_1_index_0_is_stable() {
    let mut cfg = RandomConfig::default();
    cfg.gen.max_instructions = 4;
    cfg.invocations = 4;
    let g = generate(1, 0, &cfg);
    assert_eq!(GENERATOR_VERSION, "0.3.0");
    let first = g.text.lines().next().unwrap();
    assert_eq!(
        first,
        "# shaderdiff-gen 0.3.0 seed=1 index=0 mode=defined swarm=on invocations=4 max-instructions=4"
    );
    assert_eq!(g.text, GOLDEN, "generator output changed:\n{}", g.text);
}

const GOLDEN: &str = include_str!("golden-seed1-index0.tgsi");

#[test]
fn every_generated_program_parses_back_and_runs() {
    for defined in [true, false] {
        let cfg = RandomConfig::with_defined_only(defined);
        for index in 0..300 {
            let g = generate(11, index, &cfg);
            let parsed = parse(&g.text, "gen.tgsi").unwrap_or_else(|e| panic!("{e}\n{}", g.text));
            assert_eq!(parsed, g.program, "{}", g.text);
            let out = interp::run(&g.program, &g.inputs, &InterpConfig::default())
                .unwrap_or_else(|e| panic!("{e}\n{}", g.text));
            assert_eq!(out.invocations, g.inputs.invocations);
            assert_eq!(g.inputs.invocations % 4, 0);
            assert_eq!(stamp_version(&g.text), Some(GENERATOR_VERSION));
            let stamp = Stamp::parse(&g.text).expect("stamped");
            assert!(stamp.is_current());
            assert_eq!((stamp.seed, stamp.index), (11, index));
            assert_eq!(stamp.defined_only, defined);
            // The stamp regenerates the program.
            assert_eq!(generate(11, index, &stamp.config()), g);
        }
    }
}

#[test]
fn defined_only_programs_have_no_undefined_channel() {
    let cfg = RandomConfig::default();
    assert!(cfg.gen.defined_only);
    let mut guarded = 0usize;
    for seed in 0..500u64 {
        let g = generate(seed, seed * 7919, &cfg);
        let out = interp::run(&g.program, &g.inputs, &InterpConfig::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", g.text));
        assert!(
            out.undefined.is_empty(),
            "seed {seed}: undefined channels {:?}\n{}",
            out.undefined,
            g.text
        );
        guarded += g
            .program
            .instructions
            .iter()
            .filter(|i| shaderdiff_generators::tgsi::guard::GUARDED.contains(&i.opcode))
            .count();
    }
    // The check is only meaningful if guarded opcodes were generated.
    assert!(guarded > 100, "only {guarded} guarded instructions");
}

#[test]
fn without_defined_only_the_oracle_does_see_undefined_channels() {
    // The counterpart of the test above: the same campaign without guards produces
    // undefined channels, so the guards are what removes them.
    let cfg = RandomConfig::with_defined_only(false);
    let undefined = (0..300u64)
        .filter(|&s| {
            let g = generate(s, 0, &cfg);
            let out = interp::run(&g.program, &g.inputs, &InterpConfig::default()).unwrap();
            !out.undefined.is_empty()
        })
        .count();
    assert!(
        undefined > 10,
        "{undefined} programs with undefined channels"
    );
}

#[test]
fn swarm_draws_vary_features_and_opcode_pools() {
    let cfg = RandomConfig::default();
    let mut sizes = std::collections::BTreeSet::new();
    let mut feature_sets = std::collections::BTreeSet::new();
    for i in 0..200 {
        let b = build(&mut program_choices(5, i), &cfg.gen);
        sizes.insert(b.swarm.opcodes.len());
        feature_sets.insert(b.swarm.features.names());
        // Instructions only use drawn opcodes, guards and structure.
        for insn in &b.program.instructions {
            let op = insn.opcode;
            let info = op.info();
            if info.num_dst == 1 && info.num_src >= 1 && op != Opcode::UARL {
                let structural = matches!(
                    op,
                    Opcode::MOV
                        | Opcode::UADD
                        | Opcode::USLT
                        | Opcode::AND
                        | Opcode::OR
                        | Opcode::XOR
                        | Opcode::UMIN
                        | Opcode::MAX
                        | Opcode::MIN
                        | Opcode::ADD
                        | Opcode::DDX
                        | Opcode::DDY
                        | Opcode::DDX_FINE
                        | Opcode::DDY_FINE
                        // Vote statements, like derivatives, are not drawn from the pool.
                        | Opcode::VOTE_ANY
                        | Opcode::VOTE_ALL
                        | Opcode::VOTE_EQ
                        | Opcode::READ_FIRST
                );
                assert!(
                    structural || b.swarm.opcodes.contains(&op),
                    "{op} not in the swarm"
                );
            }
        }
        if !b.swarm.features.loops {
            assert!(!b
                .program
                .instructions
                .iter()
                .any(|i| i.opcode == Opcode::BGNLOOP));
        }
        if !b.swarm.features.subroutines {
            assert!(!b
                .program
                .instructions
                .iter()
                .any(|i| i.opcode == Opcode::BGNSUB));
        }
    }
    assert!(sizes.len() > 10, "opcode pool sizes {sizes:?}");
    assert!(
        feature_sets.len() > 50,
        "{} feature sets",
        feature_sets.len()
    );
}

/// `wide` (fuzz --64bit) adds the 64-bit opcodes of tgsi.rst's "Double ISA" and "64-bit
/// Integer ISA" to the pool; the programs stay valid (they print and parse back).
#[test]
fn wide_programs_use_64bit_opcodes_and_parse_back() {
    let mut cfg = RandomConfig::default();
    cfg.gen.wide = true;
    let mut wide_ops = std::collections::BTreeSet::new();
    for index in 0..300 {
        let g = generate(3, index, &cfg);
        let parsed = parse(&g.text, "gen.tgsi").unwrap_or_else(|e| panic!("{e}\n{}", g.text));
        assert_eq!(parsed, g.program, "{}", g.text);
        for i in &g.program.instructions {
            if shaderdiff_generators::tgsi::is_64bit(i.opcode) {
                wide_ops.insert(i.opcode);
            }
        }
    }
    assert!(wide_ops.contains(&Opcode::U64ADD), "{wide_ops:?}");
    assert!(wide_ops.contains(&Opcode::DADD), "{wide_ops:?}");
    assert!(wide_ops.len() > 20, "{wide_ops:?}");
}
