//! Generates the `Opcode` enum and its info table from `data/opcodes.csv`
//! (a verbatim copy of ../shared/spec/tgsi/opcodes.csv) and
//! `data/legacy-opcodes.csv` (opcodes removed from current Mesa but present in
//! real programs of the corpus). Nothing is hand-transcribed.
use std::{env, fmt::Write as _, fs, path::PathBuf};

fn main() {
    let mut rows = Vec::new();
    for file in ["data/opcodes.csv", "data/legacy-opcodes.csv"] {
        println!("cargo:rerun-if-changed={file}");
        let text = fs::read_to_string(file).expect("opcode table");
        for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = line.split(',').collect();
            assert_eq!(cols.len(), 17, "bad opcode row: {line}");
            rows.push(cols.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        }
    }
    let mut out = String::new();
    out.push_str("/// Every TGSI opcode (from opcodes.csv) plus the legacy opcodes real programs still use.\n");
    out.push_str("/// Variant names are the TGSI text names; the discriminant is `TGSI_OPCODE_*` (legacy: 1000+).\n");
    out.push_str("#[allow(non_camel_case_types, clippy::upper_case_acronyms)]\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n#[repr(u16)]\npub enum Opcode {\n");
    for r in &rows {
        writeln!(out, "    /// {} ({}; doc: {})", r[14], r[1], r[13]).unwrap();
        writeln!(out, "    {} = {},", r[1], r[0]).unwrap();
    }
    out.push_str("}\n\n");
    out.push_str("/// All opcodes, in table order (TGSI numbering, then legacy).\npub const ALL_OPCODES: &[Opcode] = &[\n");
    for r in &rows {
        writeln!(out, "    Opcode::{},", r[1]).unwrap();
    }
    out.push_str("];\n\n");
    out.push_str("/// Static information for each opcode, parallel to `ALL_OPCODES`.\npub(crate) static OPCODE_TABLE: &[OpInfo] = &[\n");
    let ty = |s: &str| -> String {
        match s {
            "" => "None".into(),
            "float" => "Some(ScalarType::F32)".into(),
            "int" => "Some(ScalarType::I32)".into(),
            "uint" => "Some(ScalarType::U32)".into(),
            "double" => "Some(ScalarType::F64)".into(),
            "int64" => "Some(ScalarType::I64)".into(),
            "uint64" => "Some(ScalarType::U64)".into(),
            "untyped" => "Some(ScalarType::Untyped)".into(),
            other => panic!("unknown type {other}"),
        }
    };
    for r in &rows {
        let mode = match r[4].as_str() {
            "none" => "None",
            "componentwise" => "Componentwise",
            "replicate" => "Replicate",
            "chan_dependent" => "ChanDependent",
            "other" => "Other",
            m => panic!("unknown output mode {m}"),
        };
        let srcs: Vec<String> = if r[11].is_empty() {
            vec![]
        } else {
            r[11].split(';').map(&ty).collect()
        };
        let extras = &r[12];
        writeln!(
            out,
            "    OpInfo {{ opcode: Opcode::{name}, number: {num}, name: \"{name}\", num_dst: {nd}, num_src: {ns}, output_mode: OutputMode::{mode}, is_tex: {tex}, is_store: {st}, is_branch: {br}, pre_dedent: {pd}, post_indent: {pi}, dst_type: {dt}, src_types: &[{srcs}], has_texture_target: {tt}, has_tex_offsets: {to}, has_mem_qualifiers: {mq}, doc_section: \"{ds}\", doc_title: \"{dtitle}\", legacy: {legacy} }},",
            name = r[1],
            num = r[0],
            nd = r[2],
            ns = r[3],
            tex = r[5] == "1",
            st = r[6] == "1",
            br = r[7] == "1",
            pd = r[8] == "1",
            pi = r[9] == "1",
            dt = ty(&r[10]),
            srcs = srcs.join(", "),
            tt = extras.contains("texture_target"),
            to = extras.contains("tex_offsets"),
            mq = extras.contains("mem_qualifiers"),
            ds = r[13].replace('"', "'"),
            dtitle = r[14].replace('"', "'"),
            legacy = r[15] == "legacy",
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = PathBuf::from(env::var("OUT_DIR").unwrap()).join("opcodes.rs");
    fs::write(dest, out).unwrap();
}
