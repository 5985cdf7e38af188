//! `summary.json`: the campaign's totals (INTERFACE.md "`fuzz` output directory").
//!
//! The INTERFACE.md fields come first, in its order: `seed`, `programs`, `mismatches`,
//! `unique_findings`, `elapsed_s`, `programs_per_s`, `engines`. The others are additions.

use serde::{Deserialize, Serialize};

/// Whether the campaign is still running, ran to its budget, or was interrupted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummaryStatus {
    /// Written periodically while the campaign runs.
    #[default]
    Running,
    /// The budget (`--programs`, `--time`) was reached.
    Complete,
    /// Stopped early (SIGINT, SIGTERM or SIGHUP); everything up to then is recorded and
    /// `fuzz --resume` continues it.
    Interrupted,
    /// The run itself could not go on (a file that could not be written, a worker that
    /// could not start: exit status 4); everything committed before is recorded and
    /// `fuzz --resume` continues it once the cause is fixed.
    Failed,
}

/// One unique finding.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FindingEntry {
    /// The signature (`jit-int_div-i32`), also the directory name under `findings/`.
    pub signature: String,
    /// Programs of this campaign that showed it.
    pub count: u64,
    /// Campaign index of the program stored as `program.tgsi` (`null` when the finding
    /// came from an earlier campaign into the same directory).
    pub first_index: Option<u64>,
    /// `reduced.tgsi` has been written.
    pub reduced: bool,
    /// Instructions of `reduced.tgsi` besides END and declarations (`null` before reduction).
    pub reduced_instructions: Option<usize>,
}

/// The contents of `summary.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Campaign seed (`--seed`).
    pub seed: u64,
    /// Programs generated and compared.
    pub programs: u64,
    /// Programs on which at least one engine diverged from the oracle (mismatching
    /// outputs, or a compile error, trap or step limit the oracle did not have).
    pub mismatches: u64,
    /// Distinct signatures among them.
    pub unique_findings: u64,
    /// Wall-clock seconds since the campaign started.
    pub elapsed_s: f64,
    /// `programs / elapsed_s`.
    pub programs_per_s: f64,
    /// Engines compared against the oracle.
    pub engines: Vec<String>,
    /// The oracle (`interp`).
    #[serde(default)]
    pub oracle: String,
    /// `--shard I/N` as `I/N`.
    #[serde(default)]
    pub shard: String,
    /// `--lang`.
    #[serde(default)]
    pub lang: String,
    /// Worker threads.
    #[serde(default)]
    pub jobs: usize,
    /// Generator version of the programs (a stored campaign is stale once it changes).
    #[serde(default)]
    pub generator_version: String,
    /// `--inject-fault`, if any.
    #[serde(default)]
    pub fault: Option<String>,
    /// Engine × program pairs reported unsupported (never counted as mismatches).
    #[serde(default)]
    pub unsupported: u64,
    /// Programs the oracle itself could not run (unsupported, step limit): not compared.
    #[serde(default)]
    pub oracle_skipped: u64,
    /// Programs whose worker process ran out of resources (memory): neither compared nor
    /// counted as mismatches (wasmtime's "poisoned").
    #[serde(default)]
    pub poisoned: u64,
    /// Running, complete or interrupted.
    #[serde(default)]
    pub status: SummaryStatus,
    /// The options that define the campaign's programs and comparisons
    /// (`crate::merge_check::campaign_options` of its canonical `fuzz` arguments): shards
    /// with different options are not one campaign.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// Every signature seen, sorted by signature.
    #[serde(default)]
    pub findings: Vec<FindingEntry>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_fields_come_first_in_order() {
        let s = Summary::default();
        let text = serde_json::to_string(&s).unwrap();
        let keys = [
            "\"seed\"",
            "\"programs\"",
            "\"mismatches\"",
            "\"unique_findings\"",
            "\"elapsed_s\"",
            "\"programs_per_s\"",
            "\"engines\"",
        ];
        let pos: Vec<usize> = keys.iter().map(|k| text.find(k).unwrap()).collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(text.contains("\"status\":\"running\""), "{text}");
    }
}
