//! NV programs from libFuzzer bytes (`differential_nv`), like [`crate::fuzz::FuzzProgram`]
//! for TGSI: the first byte picks the invocation count, the rest are the first decisions
//! of the NV builder's stream ([`Choices::from_bytes_then`]); later decisions and the
//! input values come from ChaCha streams keyed by a hash of the bytes. The same bytes
//! always give the same program and inputs, and every byte string gives a valid program.

use shaderdiff_model::Inputs;
use shaderdiff_nv::{Lowered, NvProgram};

use super::{build_text, finish, inputs_choices, inputs_for_lowered, rng, PROGRAM_KEY};
use crate::choices::Choices;

/// Approximate instruction budget of a fuzz program.
const FUZZ_MAX_INSTRUCTIONS: usize = 48;

/// An NV program and its inputs built from fuzzer bytes.
#[derive(Clone, Debug)]
pub struct NvFuzzProgram {
    /// The canonical program text (`nv::print` of [`NvFuzzProgram::ast`]).
    pub text: String,
    /// The parsed program.
    pub ast: NvProgram,
    /// Its lowering (what the engines run) and name map.
    pub lowered: Lowered,
    /// Inputs for every attribute and `program.local[n]`, keyed by IR registers.
    pub inputs: Inputs,
}

impl NvFuzzProgram {
    /// Builds from raw bytes. Errors only if the generated text fails to parse or lower,
    /// which is a generator bug (the message names the stage and holds the text).
    pub fn from_bytes(data: &[u8]) -> Result<NvFuzzProgram, String> {
        let (quads, rest) = match data.split_first() {
            Some((&q, rest)) => (q, rest),
            None => (0, data),
        };
        // FNV-1a 64 of the bytes keys the decisions after the bytes and the input values.
        let key = rest.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        let mut c = Choices::from_bytes_then(rest, rng(key, PROGRAM_KEY, 0));
        let (_, body) = build_text(&mut c, FUZZ_MAX_INSTRUCTIONS);
        let (ast, lowered) = finish(&body).map_err(|e| format!("{e}\n{body}"))?;
        let invocations = 4 * (1 + (quads as usize % 16));
        let inputs = inputs_for_lowered(&lowered, &mut inputs_choices(key, 0), invocations);
        Ok(NvFuzzProgram {
            text: shaderdiff_nv::print(&ast),
            ast,
            lowered,
            inputs,
        })
    }
}
