//! `arbitrary`-based generation for libFuzzer: any byte string is a valid program with
//! inputs.
//!
//! A [`FuzzProgram`] reads a few option bytes ([`FuzzOptions`], derived), then turns the
//! rest of the input into the same decision stream the seeded generator uses
//! ([`Choices::from_bytes_then`]) for the program: the bytes decide how much code there is
//! (generation stops when they run out, so every input, including the empty one, yields a
//! valid program, and libFuzzer's mutations of the bytes mutate the program); decisions
//! after them (the final output writes) and the input values ([`inputs_choices`]) come
//! from the seeded generator's ChaCha streams keyed by a hash of the bytes. Zeros there
//! would always pick the simplest option (every output overwritten by `MOV OUT[n], IN[0]`,
//! all-zero inputs), which hides most miscompilations. The same bytes always give the same
//! program and inputs.
//!
//! ```ignore
//! fuzz_target!(|p: FuzzProgram| { /* run p.program on p.inputs on every engine */ });
//! ```

use arbitrary::{Arbitrary, Result, Unstructured};
use shaderdiff_model::Inputs;
use shaderdiff_model::Program;

use crate::choices::Choices;
use crate::inputs::inputs_for;
use crate::random::{inputs_choices, program_rng, RandomConfig};
use crate::tgsi::{build, Swarm};

/// Options read from the first bytes of a fuzz input.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuzzOptions {
    /// Allow undefined results (by default, bit clear, programs are defined-only).
    pub allow_undefined: bool,
    /// Invocations are `4 * (1 + quads % 16)`.
    pub quads: u8,
}

/// A program and its inputs built from fuzzer bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct FuzzProgram {
    /// The options read first.
    pub options: FuzzOptions,
    /// The program (valid by construction, [`RandomConfig::default`]'s shape).
    pub program: Program,
    /// Inputs for every declared IN and CONST register.
    pub inputs: Inputs,
    /// What the program drew.
    pub swarm: Swarm,
}

impl FuzzProgram {
    /// Builds from raw bytes, exactly as `FuzzProgram::arbitrary_take_rest` does.
    pub fn from_bytes(data: &[u8]) -> FuzzProgram {
        let mut u = Unstructured::new(data);
        // Reading plain integers from `Unstructured` cannot fail (exhausted data reads as
        // zeros); the fallback only guards against a future `arbitrary` changing that.
        let options = FuzzOptions::arbitrary(&mut u).unwrap_or(FuzzOptions {
            allow_undefined: false,
            quads: 0,
        });
        build_from(options, u.take_rest())
    }
}

fn build_from(options: FuzzOptions, rest: &[u8]) -> FuzzProgram {
    let mut cfg = RandomConfig::default();
    cfg.gen.defined_only = !options.allow_undefined;
    // FNV-1a 64 of the bytes keys the decisions after the bytes and the input values.
    let key = rest.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let mut c = Choices::from_bytes_then(rest, program_rng(key));
    let built = build(&mut c, &cfg.gen);
    let invocations = 4 * (1 + (options.quads as usize % 16));
    let mut values = inputs_choices(key, 0);
    let inputs = inputs_for(&built.program, &mut values, invocations);
    FuzzProgram {
        options,
        program: built.program,
        inputs,
        swarm: built.swarm,
    }
}

impl<'a> Arbitrary<'a> for FuzzProgram {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let options = FuzzOptions::arbitrary(u)?;
        let rest = u.bytes(u.len())?;
        Ok(build_from(options, rest))
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> Result<Self> {
        Self::arbitrary(&mut u)
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (0, None)
    }
}
