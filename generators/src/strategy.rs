//! proptest strategies. Programs are built from a vector of decisions, so proptest's
//! shrinking of the vector shrinks the program.

use proptest::prelude::*;
use shaderdiff_ir::Program;

use crate::choices::Choices;
use crate::tgsi::{build_program, GenConfig};

/// Valid TGSI programs built under `cfg` from up to `max_choices` decisions.
pub fn tgsi_program(cfg: GenConfig, max_choices: usize) -> impl Strategy<Value = Program> {
    prop::collection::vec(any::<u32>(), 0..max_choices)
        .prop_map(move |data| build_program(&mut Choices::new(&data), &cfg))
}
