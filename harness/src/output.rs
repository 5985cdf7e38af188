//! What `shaderdiff run` prints: [`to_json`] (INTERFACE.md "`run --format json` output")
//! and [`to_text`] (a table for people: hex and float per channel, `undef` and killed
//! markers).

use std::fmt::Write as _;

use shaderdiff_oracles::{Outputs, RegKey, Vec4};

use crate::value::hex_bytes;

/// A 32-bit word as INTERFACE.md prints it: lowercase `0x%08x`.
pub fn word(w: u32) -> String {
    format!("0x{w:08x}")
}

/// A JSON string literal (quotes and escapes).
fn jstr(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

fn vec4_json(v: &Vec4) -> String {
    let parts: Vec<String> = v.iter().map(|&w| jstr(&word(w))).collect();
    format!("[{}]", parts.join(", "))
}

fn mask_json(m: u8) -> String {
    let parts: Vec<&str> = (0..4)
        .map(|c| if m & (1 << c) != 0 { "true" } else { "false" })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Writes `"key": value` entries of a JSON object, one per line, at `indent`.
fn object(out: &mut String, indent: &str, entries: Vec<(String, String)>) {
    if entries.is_empty() {
        out.push_str("{}");
        return;
    }
    out.push_str("{\n");
    let n = entries.len();
    for (i, (k, v)) in entries.into_iter().enumerate() {
        let comma = if i + 1 < n { "," } else { "" };
        let _ = writeln!(out, "{indent}  {}: {v}{comma}", jstr(&k));
    }
    out.push_str(indent);
    out.push('}');
}

/// A list of per-invocation items, one per line.
fn rows(indent: &str, items: Vec<String>) -> String {
    if items.is_empty() {
        return "[]".to_string();
    }
    let body: Vec<String> = items.iter().map(|i| format!("{indent}  {i}")).collect();
    format!("[\n{}\n{indent}]", body.join(",\n"))
}

/// The `run --format json` document (INTERFACE.md), ending in a newline.
///
/// Keys in order: `backend`, `program`, `invocations`, `registers` (every output register,
/// in register order, one vec4 of `0x%08x` strings per invocation), `killed` (fragment
/// programs: `outputs.killed` is `Some`), `emitted` (geometry programs: per invocation, its
/// emitted vertices in order as `[stream, primitive]`; vertex `v`'s outputs are the
/// registers `OUT[v][n]`), `undefined` (only registers with an undefined channel; omitted
/// when there is none), `buffers` (when non-empty; hex bytes in memory order; keyed by
/// `name`: the NV name `image[0]`, `program.storage[3]` for NV programs),
/// `buffers_undefined` (resources with undefined bytes: half-open byte ranges, same keys), `atomics`
/// (programs with memory: the atomic log, [`crate::output_memory::atomics_items`]) and
/// `global` (when non-empty; global keys as `0x…` addresses).
pub fn to_json(backend: &str, program: &str, outputs: &Outputs) -> String {
    to_json_named(backend, program, outputs, &|k| k.to_string())
}

/// How register keys are printed: `OUT[0]` for TGSI, the NV binding (`result.color`) for
/// NV programs (INTERFACE.md "`run --format json` output": NV `result.*` bindings).
pub type Namer<'a> = &'a dyn Fn(&RegKey) -> String;

/// [`to_json`] with register names given by `name`.
pub fn to_json_named(backend: &str, program: &str, outputs: &Outputs, name: Namer) -> String {
    let mut top: Vec<(String, String)> = vec![
        ("backend".into(), jstr(backend)),
        ("program".into(), jstr(program)),
        ("invocations".into(), outputs.invocations.to_string()),
    ];
    let regs = outputs
        .registers
        .iter()
        .map(|(k, vs)| (name(k), rows("    ", vs.iter().map(vec4_json).collect())))
        .collect();
    let mut s = String::new();
    object(&mut s, "  ", regs);
    top.push(("registers".into(), s));
    if let Some(killed) = &outputs.killed {
        let list: Vec<&str> = killed
            .iter()
            .map(|&k| if k { "true" } else { "false" })
            .collect();
        top.push(("killed".into(), format!("[{}]", list.join(", "))));
    }
    if let Some(emits) = &outputs.emits {
        let list: Vec<String> = emits
            .iter()
            .map(|vs| {
                let v: Vec<String> = vs
                    .iter()
                    .map(|r| format!("[{}, {}]", r.stream, r.primitive))
                    .collect();
                format!("[{}]", v.join(", "))
            })
            .collect();
        top.push(("emitted".into(), rows("  ", list)));
    }
    let undefined: Vec<(String, String)> = outputs
        .undefined
        .iter()
        .filter(|(_, masks)| masks.iter().any(|&m| m & 0xf != 0))
        .map(|(k, masks)| {
            (
                name(k),
                rows("    ", masks.iter().map(|&m| mask_json(m)).collect()),
            )
        })
        .collect();
    if !undefined.is_empty() {
        let mut s = String::new();
        object(&mut s, "  ", undefined);
        top.push(("undefined".into(), s));
    }
    if !outputs.buffers.is_empty() {
        let mut s = String::new();
        let entries = outputs
            .buffers
            .iter()
            .map(|(k, b)| (name(k), jstr(&hex_bytes(b))))
            .collect();
        object(&mut s, "  ", entries);
        top.push(("buffers".into(), s));
    }
    let undefined_bytes = crate::output_memory::undefined_entries(outputs, name);
    if !undefined_bytes.is_empty() {
        let mut s = String::new();
        object(&mut s, "  ", undefined_bytes);
        top.push(("buffers_undefined".into(), s));
    }
    if let Some(items) = crate::output_memory::atomics_items(outputs) {
        top.push(("atomics".into(), rows("  ", items)));
    }
    if !outputs.global.is_empty() {
        let mut s = String::new();
        let entries = outputs
            .global
            .iter()
            .map(|(a, b)| (format!("{a:#x}"), jstr(&hex_bytes(b))))
            .collect();
        object(&mut s, "  ", entries);
        top.push(("global".into(), s));
    }
    let mut out = String::new();
    object(&mut out, "", top);
    out.push('\n');
    out
}

/// A binary32 value for people: shortest round-trip decimal, exponent form outside
/// [1e-4, 1e7), `nan`/`inf`/`-inf`.
pub fn float_text(bits: u32) -> String {
    let f = f32::from_bits(bits);
    if f.is_nan() {
        return if bits >> 31 == 1 { "-nan" } else { "nan" }.to_string();
    }
    if f.is_infinite() {
        return if f < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    let a = f.abs();
    if a != 0.0 && !(1e-4..1e7).contains(&a) {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

/// Width of one channel cell: `0x3f800000 ` + the longest float text (`-1.1754942e-38`).
const CELL: usize = 11 + 14;

/// The readable `run` output: a header, the killed invocations (fragment programs), then
/// per output register one line per invocation with each channel as hex bits and float,
/// `undef` for channels the specification leaves undefined, `killed` for killed
/// invocations; then buffers and global memory as hex bytes.
pub fn to_text(backend: &str, program: &str, outputs: &Outputs) -> String {
    to_text_named(backend, program, outputs, &|k| k.to_string())
}

/// [`to_text`] with register names given by `name`.
pub fn to_text_named(backend: &str, program: &str, outputs: &Outputs, name: Namer) -> String {
    let mut s = String::new();
    let n = outputs.invocations;
    let _ = write!(
        s,
        "{program}: {n} invocation{}",
        if n == 1 { "" } else { "s" }
    );
    if outputs.killed.is_some() {
        let _ = write!(s, " ({} quad{})", n / 4, if n / 4 == 1 { "" } else { "s" });
    }
    let _ = writeln!(s, " on {backend}");
    let killed = outputs.killed.as_deref().unwrap_or(&[]);
    if outputs.killed.is_some() {
        let _ = writeln!(s, "killed: {}", ranges(killed));
    }
    if let Some(emits) = &outputs.emits {
        for (i, vs) in emits.iter().enumerate() {
            let v: Vec<String> = vs
                .iter()
                .map(|r| format!("stream {} primitive {}", r.stream, r.primitive))
                .collect();
            let _ = writeln!(
                s,
                "invocation {i} emitted {} {}{}{}",
                vs.len(),
                if vs.len() == 1 { "vertex" } else { "vertices" },
                if vs.is_empty() { "" } else { ": " },
                v.join(", ")
            );
        }
    }
    if outputs.registers.is_empty() {
        let _ = writeln!(s, "\n(the program has no output registers)");
    }
    let digits = n.saturating_sub(1).to_string().len();
    let label = outputs
        .registers
        .keys()
        .map(|k| name(k).len())
        .max()
        .unwrap_or(0)
        .max(digits + 2);
    for (key, vals) in &outputs.registers {
        let _ = write!(s, "\n{:<label$}  ", name(key));
        for c in ['x', 'y', 'z', 'w'] {
            let _ = write!(s, "{c:<CELL$}");
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        for (i, v) in vals.iter().enumerate() {
            let _ = write!(s, "{i:>label$}  ");
            if killed.get(i) == Some(&true) {
                s.push_str("killed\n");
                continue;
            }
            let undef = undefined_mask(outputs, key, i);
            for (c, &w) in v.iter().enumerate() {
                let cell = if undef & (1 << c) != 0 {
                    "undef".to_string()
                } else {
                    format!("{} {}", word(w), float_text(w))
                };
                let _ = write!(s, "{cell:<CELL$}");
            }
            s.truncate(s.trim_end().len());
            s.push('\n');
        }
    }
    for (key, bytes) in &outputs.buffers {
        let _ = writeln!(s, "\n{} ({} bytes)", name(key), bytes.len());
        dump(&mut s, bytes);
    }
    for (addr, bytes) in &outputs.global {
        let _ = writeln!(s, "\nglobal {addr:#x} ({} bytes)", bytes.len());
        dump(&mut s, bytes);
    }
    let memory = crate::output_memory::memory_text(outputs, name);
    if !memory.is_empty() {
        s.push('\n');
        s.push_str(&memory);
    }
    s
}

/// Killed invocations as ranges, `none`, or `invocations 0-3, 8 (5 of 8)`; at most 16
/// ranges are listed.
fn ranges(killed: &[bool]) -> String {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (i, _) in killed.iter().enumerate().filter(|(_, &k)| k) {
        match spans.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => spans.push((i, i)),
        }
    }
    let count = killed.iter().filter(|&&k| k).count();
    if count == 0 {
        return "none".to_string();
    }
    let mut parts: Vec<String> = spans
        .iter()
        .take(16)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    if spans.len() > 16 {
        parts.push("...".to_string());
    }
    let noun = if count == 1 {
        "invocation"
    } else {
        "invocations"
    };
    format!("{noun} {} ({count} of {})", parts.join(", "), killed.len())
}

fn undefined_mask(outputs: &Outputs, key: &RegKey, i: usize) -> u8 {
    outputs
        .undefined
        .get(key)
        .and_then(|m| m.get(i))
        .copied()
        .unwrap_or(0)
}

/// Hex dump: 16 bytes per line, offset first, 4-byte groups in memory order.
fn dump(s: &mut String, bytes: &[u8]) {
    for (line, chunk) in bytes.chunks(16).enumerate() {
        let groups: Vec<String> = chunk.chunks(4).map(hex_bytes).collect();
        let _ = writeln!(s, "  {:08x}  {}", line * 16, groups.join(" "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_model::File;
    use std::collections::BTreeMap;

    fn sample(fragment: bool) -> Outputs {
        let mut registers = BTreeMap::new();
        registers.insert(RegKey::new(File::Output, 10), vec![[1, 2, 3, 4]; 4]);
        registers.insert(
            RegKey::new(File::Output, 2),
            vec![[0x3f80_0000, 0, 0x7fc0_0000, 0xff80_0000]; 4],
        );
        let mut undefined = BTreeMap::new();
        undefined.insert(RegKey::new(File::Output, 2), vec![0, 0b0100, 0, 0]);
        undefined.insert(RegKey::new(File::Output, 10), vec![0; 4]);
        Outputs {
            invocations: 4,
            registers,
            undefined,
            killed: fragment.then(|| vec![false, false, false, true]),
            ..Outputs::default()
        }
    }

    #[test]
    fn json_shape_follows_the_interface() {
        let text = to_json("interp", "a \"b\".tgsi", &sample(true));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        // serde_json's map sorts keys; the order on the page is checked below.
        assert_eq!(
            keys,
            [
                "backend",
                "invocations",
                "killed",
                "program",
                "registers",
                "undefined"
            ]
        );
        assert_eq!(v["program"], "a \"b\".tgsi");
        assert_eq!(v["registers"]["OUT[2]"][1][0], "0x3f800000");
        assert_eq!(v["registers"]["OUT[10]"][0][0], "0x00000001");
        assert_eq!(v["killed"], serde_json::json!([false, false, false, true]));
        assert_eq!(
            v["undefined"]["OUT[2]"][1],
            serde_json::json!([false, false, true, false])
        );
        // OUT[10] has no undefined channel: not listed.
        assert!(v["undefined"].get("OUT[10]").is_none());
        let order: Vec<usize> = [
            "\"backend\"",
            "\"program\"",
            "\"invocations\"",
            "\"registers\"",
            "\"killed\"",
            "\"undefined\"",
        ]
        .iter()
        .map(|k| text.find(k).unwrap())
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
        // Register order is numeric, not textual.
        assert!(text.find("OUT[2]").unwrap() < text.find("OUT[10]").unwrap());
    }

    #[test]
    fn json_omits_what_is_absent() {
        let mut o = sample(false);
        o.undefined.clear();
        let v: serde_json::Value = serde_json::from_str(&to_json("interp", "p", &o)).unwrap();
        assert!(v.get("killed").is_none());
        assert!(v.get("undefined").is_none());
        assert!(v.get("buffers").is_none() && v.get("global").is_none());
        o.buffers
            .insert(RegKey::new(File::Buffer, 0), vec![0, 0, 0x80, 0x3f]);
        o.global.insert(0x10000, vec![1]);
        let v: serde_json::Value = serde_json::from_str(&to_json("interp", "p", &o)).unwrap();
        assert_eq!(v["buffers"]["BUFFER[0]"], "0000803f");
        assert_eq!(v["global"]["0x10000"], "01");
        let empty = Outputs::default();
        let v: serde_json::Value = serde_json::from_str(&to_json("interp", "p", &empty)).unwrap();
        assert_eq!(v["registers"], serde_json::json!({}));
    }

    #[test]
    fn float_texts() {
        // IEEE 754 binary32: 0x3f800000 = 1, 0xbfc00000 = -1.5, 0x00000001 = 2^-149 (the
        // smallest subnormal, printed shortest as 1e-45), 0x7f7fffff = max finite.
        assert_eq!(float_text(0x3f80_0000), "1");
        assert_eq!(float_text(0xbfc0_0000), "-1.5");
        assert_eq!(float_text(0x0000_0001), "1e-45");
        assert_eq!(float_text(0x7f7f_ffff), "3.4028235e38");
        assert_eq!(float_text(0x8000_0000), "-0");
        assert_eq!(float_text(0x7fc0_0000), "nan");
        assert_eq!(float_text(0xff80_0000), "-inf");
    }

    #[test]
    fn killed_ranges() {
        assert_eq!(ranges(&[false; 4]), "none");
        assert_eq!(
            ranges(&[true, true, true, false, true, false, true, true]),
            "invocations 0-2, 4, 6-7 (6 of 8)"
        );
        let many: Vec<bool> = (0..100).map(|i| i % 2 == 0).collect();
        assert!(
            ranges(&many).ends_with("28, 30, ... (50 of 100)"),
            "{}",
            ranges(&many)
        );
    }

    #[test]
    fn text_marks_undefined_and_killed() {
        let t = to_text("interp", "p.tgsi", &sample(true));
        assert!(
            t.starts_with(
                "p.tgsi: 4 invocations (1 quad) on interp\nkilled: invocation 3 (1 of 4)\n"
            ),
            "{t}"
        );
        assert!(t.contains("\nOUT[2]   x  "), "{t}");
        assert!(t.contains("\n      1  0x3f800000 1 "), "{t}");
        assert!(t.contains("undef"), "{t}");
        assert!(t.contains("\n      3  killed\n"), "{t}");
        assert!(t.find("OUT[2]").unwrap() < t.find("OUT[10]").unwrap());
    }
}
