//! `--partition hash:I/N` and `count:I/N`, with cargo-nextest's semantics: `I` counts from
//! 1; `count` deals the tests (in their sorted order) round-robin, test `k` (0-based) to
//! part `k mod N + 1`; `hash` puts a test in part `xxh64(name) mod N + 1`, so a test stays
//! in its part when others are added or removed.

use std::fmt;
use std::str::FromStr;

/// One part of a suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partition {
    /// `count:I/N`.
    Count {
        /// Part, 1..=N.
        index: u64,
        /// Parts.
        total: u64,
    },
    /// `hash:I/N`.
    Hash {
        /// Part, 1..=N.
        index: u64,
        /// Parts.
        total: u64,
    },
}

/// A malformed `--partition`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--partition `{0}`: expected hash:I/N or count:I/N with 1 <= I <= N")]
pub struct PartitionError(pub String);

impl FromStr for Partition {
    type Err = PartitionError;

    fn from_str(s: &str) -> Result<Partition, PartitionError> {
        let err = || PartitionError(s.to_string());
        let (kind, rest) = s.split_once(':').ok_or_else(err)?;
        let (i, n) = rest.split_once('/').ok_or_else(err)?;
        let index: u64 = i.parse().map_err(|_| err())?;
        let total: u64 = n.parse().map_err(|_| err())?;
        if index == 0 || total == 0 || index > total {
            return Err(err());
        }
        match kind {
            "count" => Ok(Partition::Count { index, total }),
            "hash" => Ok(Partition::Hash { index, total }),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Partition::Count { index, total } => write!(f, "count:{index}/{total}"),
            Partition::Hash { index, total } => write!(f, "hash:{index}/{total}"),
        }
    }
}

impl Partition {
    /// The names of `names` (sorted, unique) that belong to this part, in order.
    pub fn select<'a>(&self, names: &[&'a str]) -> Vec<&'a str> {
        let mut sorted: Vec<&str> = names.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        sorted
            .into_iter()
            .enumerate()
            .filter(|(k, name)| match *self {
                Partition::Count { index, total } => *k as u64 % total == index - 1,
                Partition::Hash { index, total } => {
                    xxhash_rust::xxh64::xxh64(name.as_bytes(), 0) % total == index - 1
                }
            })
            .map(|(_, n)| n)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn parts_are_disjoint_and_cover_the_suite() {
        let names: Vec<String> = (0..100).map(|k| format!("spec/prog-{k}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        for kind in ["hash", "count"] {
            let mut all = BTreeSet::new();
            let mut total = 0;
            for i in 1..=3 {
                let p: Partition = format!("{kind}:{i}/3").parse().unwrap();
                let part = p.select(&refs);
                assert!(!part.is_empty(), "{kind}:{i}/3 is empty");
                total += part.len();
                all.extend(part);
            }
            assert_eq!(total, 100, "{kind}: parts overlap");
            assert_eq!(all.len(), 100, "{kind}: parts miss tests");
        }
        // count deals round-robin over the sorted names.
        let p: Partition = "count:2/3".parse().unwrap();
        assert_eq!(p.select(&["c", "a", "b", "d"]), vec!["b"]);
    }

    #[test]
    fn malformed_partitions_are_rejected() {
        for bad in [
            "hash:0/3",
            "hash:4/3",
            "count:1",
            "shard:1/2",
            "hash:a/b",
            "count:1/0",
        ] {
            assert!(bad.parse::<Partition>().is_err(), "{bad}");
        }
        assert_eq!(
            "hash:2/5".parse::<Partition>().unwrap().to_string(),
            "hash:2/5"
        );
    }
}
