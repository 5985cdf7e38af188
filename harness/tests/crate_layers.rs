//! The workspace's crate layers, read from `cargo metadata --format-version 1`:
//!
//! * no engine crate (every package under `engines/<name>/`) depends on the oracle
//!   (`shaderdiff-oracles`), directly or through other crates, by normal dependencies, so
//!   comparing an engine with the oracle compares two independent implementations;
//! * the model (`shaderdiff-model`) depends on no other crate of the workspace;
//! * the text front-ends depend on the model alone among the workspace's crates.
//!
//! The engine registry (`engines/Cargo.toml`, `shaderdiff-backends`) is not an engine: its
//! `interp` adapter runs the oracle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

const ORACLE: &str = "shaderdiff-oracles";

/// The workspace's dependency graph: package name → names of its normal dependencies, and
/// package name → manifest path relative to the workspace root.
struct Graph {
    normal: BTreeMap<String, BTreeSet<String>>,
    manifest: BTreeMap<String, String>,
    members: BTreeSet<String>,
}

fn metadata() -> Graph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(&root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata gives JSON");
    let root_dir = meta["workspace_root"]
        .as_str()
        .expect("workspace_root")
        .to_string();
    let mut name_of = BTreeMap::new();
    let mut manifest = BTreeMap::new();
    for p in meta["packages"].as_array().expect("packages") {
        let name = p["name"].as_str().expect("name").to_string();
        let path = p["manifest_path"].as_str().expect("manifest_path");
        let rel = path.strip_prefix(&root_dir).unwrap_or(path);
        manifest.insert(name.clone(), rel.trim_start_matches('/').to_string());
        name_of.insert(p["id"].as_str().expect("id").to_string(), name);
    }
    let members = meta["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .map(|id| name_of[id.as_str().expect("member id")].clone())
        .collect();
    let mut normal = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().expect("resolve nodes") {
        let name = name_of[node["id"].as_str().expect("node id")].clone();
        let deps: BTreeSet<String> = node["deps"]
            .as_array()
            .expect("deps")
            .iter()
            .filter(|d| {
                // `kind` null is a normal dependency (dev: "dev", build: "build").
                d["dep_kinds"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k["kind"].is_null()))
            })
            .map(|d| name_of[d["pkg"].as_str().expect("dep pkg")].clone())
            .collect();
        normal.insert(name, deps);
    }
    Graph {
        normal,
        manifest,
        members,
    }
}

impl Graph {
    /// Every package `name` depends on through normal dependencies, transitively.
    fn closure(&self, name: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![name.to_string()];
        while let Some(n) = todo.pop() {
            for d in self.normal.get(&n).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
        seen
    }

    /// The workspace members among `names`.
    fn ours(&self, names: &BTreeSet<String>) -> BTreeSet<String> {
        names.intersection(&self.members).cloned().collect()
    }

    /// The engine crates: members whose manifest is `engines/<name>/Cargo.toml`.
    fn engines(&self) -> BTreeSet<String> {
        self.members
            .iter()
            .filter(|m| {
                let path = &self.manifest[*m];
                path.starts_with("engines/") && path.matches('/').count() == 2
            })
            .cloned()
            .collect()
    }
}

#[test]
fn no_engine_crate_depends_on_the_oracle() {
    let g = metadata();
    let engines = g.engines();
    // The five engines of today must be found, so the check cannot pass vacuously.
    for e in [
        "shaderdiff-engine",
        "shaderdiff-cranelift",
        "shaderdiff-valhall",
        "shaderdiff-mesa",
        "shaderdiff-virgl",
    ] {
        assert!(
            engines.contains(e),
            "{e} not found under engines/: {engines:?}"
        );
    }
    for e in &engines {
        let deps = g.closure(e);
        assert!(
            !deps.contains(ORACLE),
            "engine crate {e} ({}) depends on {ORACLE}; engines take the model \
             (shaderdiff-model) and implement semantics themselves. Its workspace \
             dependencies: {:?}",
            g.manifest[e],
            g.ours(&deps)
        );
    }
}

#[test]
fn the_model_depends_on_no_other_workspace_crate() {
    let g = metadata();
    let ours = g.ours(&g.closure("shaderdiff-model"));
    assert!(ours.is_empty(), "shaderdiff-model depends on {ours:?}");
}

#[test]
fn front_ends_depend_on_the_model_alone() {
    let g = metadata();
    for f in ["shaderdiff-tgsi", "shaderdiff-nv"] {
        let ours = g.ours(&g.closure(f));
        let want: BTreeSet<String> = ["shaderdiff-model".to_string()].into();
        assert_eq!(ours, want, "{f}'s workspace dependencies");
    }
}
