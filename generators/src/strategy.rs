//! proptest strategies. Programs are built from a vector of decisions, so proptest's
//! shrinking of the vector shrinks the program.

use proptest::prelude::*;
use shaderdiff_model::Inputs;
use shaderdiff_model::Program;

use crate::choices::Choices;
use crate::inputs::inputs_for;
use crate::tgsi::{build_program, GenConfig};

/// Valid TGSI programs built under `cfg` from up to `max_choices` decisions.
pub fn tgsi_program(cfg: GenConfig, max_choices: usize) -> impl Strategy<Value = Program> {
    prop::collection::vec(any::<u32>(), 0..max_choices)
        .prop_map(move |data| build_program(&mut Choices::new(&data), &cfg))
}

/// Valid TGSI programs with inputs for every declared IN/CONST register, built under `cfg`
/// from up to `max_choices` decisions (program first, then input words: half special
/// values, half random bits), with `invocations` invocations (rounded up to whole quads for
/// fragment programs). Shrinks like [`tgsi_program`]; shrunk inputs tend to zero.
pub fn tgsi_case(
    cfg: GenConfig,
    max_choices: usize,
    invocations: usize,
) -> impl Strategy<Value = (Program, Inputs)> {
    prop::collection::vec(any::<u32>(), 0..max_choices).prop_map(move |data| {
        let mut c = Choices::new(&data);
        let p = build_program(&mut c, &cfg);
        let inputs = inputs_for(&p, &mut c, invocations);
        (p, inputs)
    })
}

/// Defined-only programs with swarm testing and every feature ([`crate::RandomConfig`]'s
/// campaign configuration), with inputs: the oracle reports nothing undefined for them.
pub fn defined_case(
    max_choices: usize,
    invocations: usize,
) -> impl Strategy<Value = (Program, Inputs)> {
    tgsi_case(crate::RandomConfig::default().gen, max_choices, invocations)
}
