//! `--denormals ieee|flush|either` (`diff`, `fuzz`, `conform`, `reduce`): the command-line
//! value of the oracle's denormal mode (`shaderdiff_oracles::interp::denormal`); the
//! comparison side is `shaderdiff_compare::outcomes`.

use clap::ValueEnum;
use shaderdiff_oracles::interp::denormal::DenormalMode;

/// `--denormals`: what the oracle admits for denormal operands and results of float
/// arithmetic (NV_gpu_program4 issue (18); docs/denormals.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DenormalArg {
    /// Denormals are kept (IEEE 754).
    Ieee,
    /// Flushed to a zero of the same sign, operands and results of every float operation.
    Flush,
    /// Either of the two evaluations, per channel.
    Either,
}

impl From<DenormalArg> for DenormalMode {
    fn from(a: DenormalArg) -> DenormalMode {
        match a {
            DenormalArg::Ieee => DenormalMode::Ieee,
            DenormalArg::Flush => DenormalMode::Flush,
            DenormalArg::Either => DenormalMode::Either,
        }
    }
}
