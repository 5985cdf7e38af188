//! The memory parts of `run` output: undefined bytes (`buffers_undefined`) and the atomic
//! log (`atomics`), in JSON and as text.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::fmt::Write as _;

use shaderdiff_oracles::atomic::Space;
use shaderdiff_oracles::Outputs;

use crate::output::word;

/// Half-open byte ranges `[start, end)` of the set flags.
pub fn byte_ranges(flags: &[bool]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, _) in flags.iter().enumerate().filter(|(_, &u)| u) {
        match out.last_mut() {
            // `i < flags.len()`, so `i + 1` fits.
            Some((_, end)) if *end == i => *end = i.saturating_add(1),
            _ => out.push((i, i.saturating_add(1))),
        }
    }
    out
}

/// `buffers_undefined` entries: resource name -> `[[start, end], ...]` (half-open byte
/// ranges whose final value is undefined; resources named by `name`); empty when no byte
/// is.
pub fn undefined_entries(outputs: &Outputs, name: crate::output::Namer) -> Vec<(String, String)> {
    outputs
        .buffers_undefined
        .iter()
        .filter(|(_, u)| u.contains(&true))
        .map(|(k, u)| {
            let r: Vec<String> = byte_ranges(u)
                .iter()
                .map(|(a, b)| format!("[{a}, {b}]"))
                .collect();
            (name(k), format!("[{}]", r.join(", ")))
        })
        .collect()
}

/// The `atomics` list, one object per performed atomic in the run's serial order:
/// `{"resource": "BUFFER[0]", "offset": 4, "invocation": 0, "seq": 0, "op": "ATOMUADD",
/// "src": "0x…", "cmp": "0x…", "old": "0x…"}`, with `"workgroup": w` after `resource` for
/// the copy of a SHARED resource of workgroup w ≥ 1; `None` when the run has no log.
pub fn atomics_items(outputs: &Outputs) -> Option<Vec<String>> {
    let log = outputs.atomics.as_ref()?;
    Some(
        log.iter()
            .map(|r| {
                let (res, wg) = match r.location.space {
                    Space::Resource(k) => (k.to_string(), String::new()),
                    Space::Workgroup(k, w) => (k.to_string(), format!("\"workgroup\": {w}, ")),
                    Space::Global => ("global".into(), String::new()),
                };
                format!(
                    "{{\"resource\": \"{res}\", {wg}\"offset\": {}, \"invocation\": {}, \"seq\": {}, \
                     \"op\": \"{}\", \"src\": \"{}\", \"cmp\": \"{}\", \"old\": \"{}\"}}",
                    r.location.offset,
                    r.invocation,
                    r.seq,
                    r.op.name(),
                    word(r.src as u32),
                    word(r.cmp as u32),
                    word(r.old as u32)
                )
            })
            .collect(),
    )
}

/// Text lines for `run --format text`: the undefined byte ranges of each resource and the
/// number of atomics performed (resources named by `name`).
pub fn memory_text(outputs: &Outputs, name: crate::output::Namer) -> String {
    let mut s = String::new();
    for (k, u) in &outputs.buffers_undefined {
        let r: Vec<String> = byte_ranges(u)
            .iter()
            .map(|(a, b)| format!("{a}..{b}"))
            .collect();
        if !r.is_empty() {
            let _ = writeln!(s, "{}: undefined bytes {}", name(k), r.join(", "));
        }
    }
    if let Some(log) = outputs.atomics.as_ref().filter(|l| !l.is_empty()) {
        let _ = writeln!(s, "atomics: {} performed", log.len());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_half_open_runs() {
        let f = [false, true, true, false, true];
        assert_eq!(byte_ranges(&f), vec![(1, 3), (4, 5)]);
        assert!(byte_ranges(&[false; 3]).is_empty());
    }
}
