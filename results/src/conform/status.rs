//! The status of one program on one engine in a conformance run (deqp-runner's names).

use std::fmt;
use std::str::FromStr;

/// What one (program, engine) pair came to. `Display` and `FromStr` round-trip, so a
/// `failures.csv` serves as the next `--baseline`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Agreed with the oracle on every input set.
    Pass,
    /// Some channel differed from the oracle.
    Fail,
    /// The engine failed (compile error, trap, call depth) where the oracle did not, or its
    /// worker died.
    Crash,
    /// The engine exceeded its time or step budget where the oracle did not.
    Timeout,
    /// Not run: the engine or the oracle does not support the program, or `--skips`.
    Skip,
    /// Failed with the status the baseline expects.
    ExpectedFail,
    /// The baseline expects a failure and it passed.
    UnexpectedPass,
    /// Changed between runs (`--retries`), or the baseline marks it flaky.
    Flake,
}

/// Every status, in `Display` order.
pub const ALL_STATUSES: [Status; 8] = [
    Status::Pass,
    Status::Fail,
    Status::Crash,
    Status::Timeout,
    Status::Skip,
    Status::ExpectedFail,
    Status::UnexpectedPass,
    Status::Flake,
];

impl Status {
    /// The name (`Pass`, `Fail`, `Crash`, `Timeout`, `Skip`, `ExpectedFail`,
    /// `UnexpectedPass`, `Flake`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "Pass",
            Status::Fail => "Fail",
            Status::Crash => "Crash",
            Status::Timeout => "Timeout",
            Status::Skip => "Skip",
            Status::ExpectedFail => "ExpectedFail",
            Status::UnexpectedPass => "UnexpectedPass",
            Status::Flake => "Flake",
        }
    }

    /// A raw failure: what `--retries` reruns and a baseline can expect.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Fail | Status::Crash | Status::Timeout)
    }

    /// Whether this final status fails the run (exit status 1): an unexpected failure or an
    /// unexpected pass (the baseline is out of date), as deqp-runner does.
    pub fn fails_run(self) -> bool {
        self.is_failure() || self == Status::UnexpectedPass
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A status name that is none of [`ALL_STATUSES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown status `{0}` (known: Pass, Fail, Crash, Timeout, Skip, ExpectedFail, UnexpectedPass, Flake)")]
pub struct StatusParseError(pub String);

impl FromStr for Status {
    type Err = StatusParseError;

    fn from_str(s: &str) -> Result<Status, StatusParseError> {
        ALL_STATUSES
            .into_iter()
            .find(|st| st.name() == s.trim())
            .ok_or_else(|| StatusParseError(s.to_string()))
    }
}

/// Serialized as its name (`"Fail"`), like `Display`.
impl serde::Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Read from its name, like `FromStr`.
impl<'de> serde::Deserialize<'de> for Status {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Status, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in ALL_STATUSES {
            assert_eq!(s.to_string().parse::<Status>(), Ok(s));
        }
        assert!("pass".parse::<Status>().is_err());
        assert!(Status::UnexpectedPass.fails_run() && !Status::ExpectedFail.fails_run());
        assert!(!Status::Flake.fails_run() && !Status::Skip.fails_run());
        for s in ALL_STATUSES {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{s}\""));
            assert_eq!(serde_json::from_str::<Status>(&json).unwrap(), s);
        }
        assert!(serde_json::from_str::<Status>("\"Passed\"").is_err());
    }
}
