//! shaderdiff's program generators.
//!
//! * [`choices`]: the decision stream every generator draws from (slices for proptest,
//!   seeded ChaCha8 for campaigns, raw bytes for libFuzzer).
//! * [`tgsi`]: valid-by-construction TGSI programs, with swarm testing and a defined-only
//!   mode ([`tgsi::guard`]).
//! * [`inputs`]: input values (special values and random bits) for any program.
//! * [`random`]: seeded campaigns: `generate(seed, index, cfg)`, stamps, [`GENERATOR_VERSION`].
//! * [`fuzz`]: `arbitrary::Arbitrary` for libFuzzer targets.
//! * [`spec`]: the spec-derived conformance suite (`shaderdiff gen --spec`).
//! * [`strategy`]: proptest strategies over them.
pub mod choices;
pub mod fuzz;
pub mod inputs;
pub mod nv;
pub mod random;
pub mod spec;
pub mod strategy;
pub mod tgsi;

pub use choices::Choices;
pub use random::{generate, Generated, RandomConfig, GENERATOR_VERSION};
pub use tgsi::{build, build_program, Features, GenConfig, Swarm};
