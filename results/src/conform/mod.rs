//! Conformance results, deqp-runner style: per (program, engine) [`Status`], baselines of
//! expected failures ([`baseline`]), `results.csv`/`failures.csv`, test partitions
//! ([`partition`]) and the JUnit report ([`junit`]).

pub mod baseline;
pub mod junit;
pub mod partition;
pub mod status;

pub use baseline::{read_baseline, write_csv, Baseline, BaselineError, Row};
pub use partition::{Partition, PartitionError};
pub use status::{Status, StatusParseError};
