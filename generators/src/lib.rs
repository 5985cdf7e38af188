//! shaderdiff's program generators.
//!
//! * [`choices`]: the decision stream every generator draws from.
//! * [`tgsi`]: valid-by-construction TGSI programs.
//! * [`strategy`]: proptest strategies over them.
pub mod choices;
pub mod strategy;
pub mod tgsi;

pub use choices::Choices;
pub use tgsi::{build_program, GenConfig};
