//! Property test: the interpreter never panics on a valid program. Every run ends in
//! outputs or a typed error (unsupported, step limit), whatever the inputs.

use proptest::prelude::*;
use shaderdiff_generators::{strategy::tgsi_program, GenConfig};
use shaderdiff_model::{File, Stage};
use shaderdiff_oracles::interp::{run, ExecError, InterpConfig};
use shaderdiff_oracles::{Inputs, RegKey};

fn inputs_for(p: &shaderdiff_model::Program, words: &[u32]) -> Inputs {
    let invocations = 8;
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    let mut w = words.iter().copied().cycle();
    for d in &p.declarations {
        for i in d.first..=d.last {
            let key = RegKey::new(d.file, i);
            match d.file {
                File::Input => {
                    let v = (0..invocations)
                        .map(|_| [0; 4].map(|_| w.next().unwrap_or(0)))
                        .collect();
                    inputs.registers.insert(key, v);
                }
                File::Const => {
                    inputs
                        .constants
                        .insert(key, [0; 4].map(|_| w.next().unwrap_or(0)));
                }
                _ => {}
            }
        }
    }
    inputs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn interpreter_never_panics(
        p in tgsi_program(GenConfig::default(), 300),
        words in prop::collection::vec(prop_oneof![
            any::<u32>(),
            Just(0u32), Just(0x8000_0000), Just(0x7fc0_0000), Just(0x7f80_0000),
            Just(0xff80_0000), Just(1), Just(0xffff_ffff), Just(0x3f80_0000)
        ], 1..64),
    ) {
        let inputs = inputs_for(&p, &words);
        let config = InterpConfig { step_limit: 20_000 };
        match run(&p, &inputs, &config) {
            Ok(out) => {
                prop_assert_eq!(out.invocations, 8);
                // Generated programs write every declared output.
                for d in p.decls(File::Output) {
                    prop_assert!(out.registers.contains_key(&RegKey::new(File::Output, d.first)));
                }
                prop_assert_eq!(out.killed.is_some(), p.stage == Stage::Fragment);
            }
            Err(ExecError::Unsupported { .. }) | Err(ExecError::StepLimit { .. }) => {}
            Err(e) => prop_assert!(false, "unexpected error: {e}"),
        }
    }
}
