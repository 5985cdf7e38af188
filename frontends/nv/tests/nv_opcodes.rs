//! Every instruction of Table X.13 of NV_gpu_program5 (read from the spec file itself)
//! parses with the operands its "Inputs" column names, with the modifiers its F/I/C/S/H
//! columns allow, and is rejected with the ones they do not allow and in headers older
//! than its "V" column. Printing each program is a fixed point. Then the ARB instruction
//! sets (ARB_vertex_program, ARB_fragment_program) and the instructions their NV options
//! add (NV_vertex_program2/3, NV_fragment_program_option, NV_fragment_program2).

#[path = "../../tgsi/tests/common/mod.rs"]
mod common;

use shaderdiff_nv::{parse, print, NvOpcode};

/// A row of Table X.13.
#[derive(Debug)]
struct Row {
    name: String,
    v: u32,
    f: char,
    i: char,
    c: char,
    s: char,
    h: char,
    out: String,
    inputs: String,
}

fn table() -> Vec<Row> {
    let spec = common::read_shared("spec/nv/NV_gpu_program5.txt");
    let end = spec
        .find("Table X.13:  Summary of NV_gpu_program5")
        .unwrap();
    let start = spec[..end].rfind("------- -- -").unwrap();
    spec[start..end]
        .lines()
        .skip(1)
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() < 10 || !w[1].chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let ch = |k: usize| w[k].chars().next().unwrap();
            Some(Row {
                name: w[0].to_string(),
                v: w[1].parse().unwrap(),
                f: ch(2),
                i: ch(3),
                c: ch(4),
                s: ch(5),
                h: ch(6),
                out: w[8].to_string(),
                inputs: w[9].to_string(),
            })
        })
        .collect()
}

fn header(name: &str, level: &str) -> String {
    match name {
        "EMIT" | "EMITS" | "ENDPRIM" => format!(
            "!!NVgp{level}\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 3;\n"
        ),
        "DDX" | "DDY" | "IPAC" | "IPAO" | "IPAS" | "KIL" => format!("!!NVfp{level}\n"),
        _ => format!("!!NVvp{level}\n"),
    }
}

/// A program holding `name` (with `mods` and `suffix`) and the operands of its row.
fn program(r: &Row, level: &str, suffix: &str, mods: &str) -> String {
    let mut ops: Vec<String> = Vec::new();
    if r.out != "-" {
        ops.push("R0".into());
    }
    for inp in r.inputs.split(',') {
        match inp {
            "-" => {}
            "s" | "su" => ops.push("R1.x".into()),
            "t" => ops.push("texture[0], 2D".into()),
            "c" if r.name == "IF" => ops.push("GT.x".into()),
            "c" if r.name == "CAL" => ops.push("sub (GT.x)".into()),
            "c" => ops.push("(GT.x)".into()),
            _ if r.name == "LDC" => ops.push("cb[0]".into()),
            _ if r.name == "SWZ" => ops.push("R1, x, -y, 0, 1".into()),
            _ => ops.push("R2".into()),
        }
    }
    let mut insn = format!("{}{suffix}{mods}", r.name);
    if !ops.is_empty() {
        // A condition after CAL/RET/BRK/CONT follows without a comma.
        insn += " ";
        insn += &ops.join(", ").replace(", (", " (");
    }
    insn += ";";
    let (before, after) = match r.name.as_str() {
        "BRK" | "CONT" => ("REP R3.x;\n", "ENDREP;\n"),
        "ELSE" => ("IF GT.x;\n", "ENDIF;\n"),
        "ENDIF" => ("IF GT.x;\n", ""),
        "ENDREP" => ("REP R3.x;\n", ""),
        "IF" => ("", "ENDIF;\n"),
        "REP" => ("", "ENDREP;\n"),
        _ => ("", ""),
    };
    format!(
        "{}TEMP R0, R1, R2, R3;\nCBUFFER cb[] = {{ program.buffer[0] }};\n{before}{insn}\n{after}sub:\nRET;\nEND\n",
        header(&r.name, level)
    )
}

/// The data type and storage modifiers an instruction needs, if any.
fn base_mods(r: &Row) -> &'static str {
    match r.name.as_str() {
        "ATOM" => ".ADD.U32",
        "CVT" => ".F32.S32",
        "LDC" | "LOAD" | "STORE" => ".U32",
        _ if r.f != '-' => ".F",
        _ if r.i != '-' => ".S",
        _ => "",
    }
}

fn accepts(text: &str) {
    let p = parse(text, "t").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let once = print(&p);
    let q = parse(&once, "printed").unwrap_or_else(|e| panic!("{e}\n{once}"));
    assert_eq!(q, p, "{text}\n{once}");
    assert_eq!(print(&q), once);
}

fn rejects(text: &str, needle: &str) {
    match parse(text, "t") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => assert!(e.to_string().contains(needle), "{e}\n{text}"),
    }
}

#[test]
fn table_x13_lists_every_opcode_we_know() {
    let rows = table();
    assert_eq!(rows.len(), 109, "Table X.13 rows (ABS ... XPD)");
    assert_eq!(
        (rows[0].name.as_str(), rows[108].name.as_str()),
        ("ABS", "XPD")
    );
    for r in &rows {
        let op = NvOpcode::from_name(&r.name).unwrap_or_else(|| panic!("{}", r.name));
        assert_eq!(u32::from(op.info().level), r.v, "{}", r.name);
    }
}

#[test]
fn every_table_x13_instruction_parses_with_its_operands_and_modifiers() {
    for r in table() {
        let base = base_mods(&r);
        accepts(&program(&r, "5.0", "", base));
        if r.c == 'X' {
            accepts(&program(&r, "5.0", "", &format!("{base}.CC1")));
            accepts(&program(&r, "5.0", "C", base));
        } else if r.out != "-" || r.inputs != "-" {
            rejects(
                &program(&r, "5.0", "", &format!("{base}.CC")),
                "condition code",
            );
        }
        if r.s == 'X' {
            // §2.X.4.1: clamping needs floating-point results, so the loads clamp F32 data.
            let fbase = if base == ".U32" { ".F32" } else { base };
            accepts(&program(&r, "5.0", "", &format!("{fbase}.SAT")));
            accepts(&program(&r, "5.0", "_SSAT", fbase));
            // ... and integer results of the same instruction refuse it (CVT excepted:
            // NV_gpu_program5 § CVT clamps integers under SAT).
            let int_base = match (base, r.i) {
                (".U32", _) => Some(".U32"),
                (".F", 'X' | '6') => Some(".S"),
                _ => None,
            };
            let float_out = r.name == "CVT" || r.name.starts_with("UP");
            if let (Some(ib), false) = (int_base, float_out) {
                rejects(
                    &program(&r, "5.0", "", &format!("{ib}.SAT")),
                    "saturation is not supported on fixed-point results",
                );
            }
        } else {
            rejects(
                &program(&r, "5.0", "", &format!("{base}.SAT")),
                "does not take",
            );
        }
        if r.h == 'X' {
            accepts(&program(&r, "5.0", "H", base));
        }
        if r.f == '6' {
            accepts(&program(&r, "5.0", "", ".F64"));
        }
        if r.i == '6' {
            accepts(&program(&r, "5.0", "", ".U64"));
        }
        if r.f == '-' && base.is_empty() {
            rejects(&program(&r, "5.0", "", ".F"), "does not take");
        }
        // The "V" column: 41 and 50 instructions are not in older headers.
        match r.v {
            50 => {
                rejects(
                    &program(&r, "4.1", "", base),
                    "requires a `!!NV*5.0` program",
                );
                rejects(
                    &program(&r, "4.0", "", base),
                    "requires a `!!NV*5.0` program",
                );
            }
            41 => {
                accepts(&program(&r, "4.1", "", base));
                rejects(
                    &program(&r, "4.0", "", base),
                    "requires a `!!NV*4.1` program",
                );
            }
            _ => {}
        }
    }
}

#[test]
fn stage_only_instructions() {
    // Table X.13: DDX/DDY/IPA* are fp-only, EMIT/EMITS/ENDPRIM gp-only; KIL is fp-only
    // (NV_fragment_program4); BAR/LDS/STS/ATOMS are compute (NV_compute_program5).
    for i in ["DDX R0, R1;", "KIL R1;", "IPAC R0, R1;"] {
        rejects(
            &format!("!!NVvp5.0\nTEMP R0, R1;\n{i}\nEND"),
            "only valid in fragment programs",
        );
    }
    rejects("!!NVfp5.0\nEMIT;\nEND", "only valid in geometry programs");
    rejects("!!NVfp5.0\nBAR;\nEND", "only valid in compute programs");
    accepts(
        "!!NVcp5.0\nGROUP_SIZE 8 8;\nSHARED_MEMORY 64;\nSHARED sm[] = { program.sharedmem };\nTEMP R0, R1;\n\
         LDS.U32 R0.x, sm[R1.x];\nSTS.U32 R0.x, sm[4];\nATOMS.ADD.U32 R0.x, R1.x, sm[8];\nBAR;\nMEMBAR.CTA;\nEND",
    );
    rejects("!!NVvp5.0\nMEMBAR.CTA;\nEND", "`.CTA`");
}

/// `(opcode line, ARB vertex level, ARB fragment level)`: 1 = in the base instruction set,
/// 2 = with NV_vertex_program2 / NV_fragment_program, 3 = with NV_vertex_program3 /
/// NV_fragment_program2, 0 = never. From the instruction tables of ARB_vertex_program
/// (Table X.5), ARB_fragment_program (Table X.5), NV_vertex_program2_option (Table X.5),
/// NV_vertex_program3, NV_fragment_program_option (Table X.5) and NV_fragment_program2.
const ARB: &[(&str, u8, u8)] = &[
    ("ABS R0, R1;", 1, 1),
    ("ADD R0, R1, R2;", 1, 1),
    ("ARL A0.x, R1.x;", 1, 0),
    ("DP3 R0, R1, R2;", 1, 1),
    ("DP4 R0, R1, R2;", 1, 1),
    ("DPH R0, R1, R2;", 1, 1),
    ("DST R0, R1, R2;", 1, 1),
    ("EX2 R0, R1.x;", 1, 1),
    ("EXP R0, R1.x;", 1, 0),
    ("FLR R0, R1;", 1, 1),
    ("FRC R0, R1;", 1, 1),
    ("LG2 R0, R1.x;", 1, 1),
    ("LIT R0, R1;", 1, 1),
    ("LOG R0, R1.x;", 1, 0),
    ("MAD R0, R1, R2, R1;", 1, 1),
    ("MAX R0, R1, R2;", 1, 1),
    ("MIN R0, R1, R2;", 1, 1),
    ("MOV R0, R1;", 1, 1),
    ("MUL R0, R1, R2;", 1, 1),
    ("POW R0, R1.x, R2.x;", 1, 1),
    ("RCP R0, R1.x;", 1, 1),
    ("RSQ R0, R1.x;", 1, 1),
    ("SGE R0, R1, R2;", 1, 1),
    ("SLT R0, R1, R2;", 1, 1),
    ("SUB R0, R1, R2;", 1, 1),
    ("SWZ R0, R1, -x, y, 0, 1;", 1, 1),
    ("XPD R0, R1, R2;", 1, 1),
    ("CMP R0, R1, R2, R1;", 0, 1),
    ("COS R0, R1.x;", 2, 1),
    ("KIL R1;", 0, 1),
    ("LRP R0, R1, R2, R1;", 0, 1),
    ("SCS R0, R1.x;", 0, 1),
    ("SIN R0, R1.x;", 2, 1),
    ("TEX R0, R1, texture[0], 2D;", 3, 1),
    ("TXB R0, R1, texture[0], 2D;", 3, 1),
    ("TXP R0, R1, texture[0], 2D;", 3, 1),
    ("ARA A0.xy, A0;", 2, 0),
    ("ARR A0, R1;", 2, 0),
    ("BRA sub (GT.x);", 2, 0),
    ("RCC R0, R1.x;", 2, 0),
    ("SEQ R0, R1, R2;", 2, 2),
    ("SFL R0, R1, R2;", 2, 2),
    ("SGT R0, R1, R2;", 2, 2),
    ("SLE R0, R1, R2;", 2, 2),
    ("SNE R0, R1, R2;", 2, 2),
    ("STR R0, R1, R2;", 2, 2),
    ("SSG R0, R1;", 2, 0),
    ("PUSHA A0;", 3, 0),
    ("POPA A0;", 3, 0),
    ("TXL R0, R1, texture[0], 2D;", 3, 3),
    ("DDX R0, R1;", 0, 2),
    ("DDY R0, R1;", 0, 2),
    ("PK2H R0, R1;", 0, 2),
    ("PK2US R0, R1;", 0, 2),
    ("PK4B R0, R1;", 0, 2),
    ("PK4UB R0, R1;", 0, 2),
    ("UP2H R0, R1.x;", 0, 2),
    ("UP2US R0, R1.x;", 0, 2),
    ("UP4B R0, R1.x;", 0, 2),
    ("UP4UB R0, R1.x;", 0, 2),
    ("RFL R0, R1, R2;", 0, 2),
    ("X2D R0, R1, R2, R1;", 0, 2),
    ("TXD R0, R1, R2, R1, texture[0], 2D;", 0, 2),
    ("NRM R0, R1;", 0, 3),
    ("DIV R0, R1, R2.x;", 0, 3),
    ("DP2 R0, R1, R2;", 0, 3),
    ("DP2A R0, R1, R2, R1;", 0, 3),
    ("CAL sub (GT.x);", 2, 3),
    ("RET (GT.x);", 2, 3),
];

#[test]
fn arb_instruction_sets_and_their_nv_options() {
    let vp_opts = [
        "",
        "",
        "OPTION NV_vertex_program2;\n",
        "OPTION NV_vertex_program3;\n",
    ];
    let fp_opts = [
        "",
        "",
        "OPTION NV_fragment_program;\n",
        "OPTION NV_fragment_program2;\n",
    ];
    for &(insn, vp, fp) in ARB {
        let name = insn.split([' ', ';']).next().unwrap();
        for (h, level, opts, decls) in [
            ("!!ARBvp1.0", vp, vp_opts, "ADDRESS A0;\n"),
            ("!!ARBfp1.0", fp, fp_opts, ""),
        ] {
            let prog = |opt: &str| {
                let label = if insn.contains("sub") { "sub:\n" } else { "" };
                format!("{h}\n{opt}TEMP R0, R1, R2;\n{decls}{insn}\n{label}END\n")
            };
            if level == 0 {
                rejects(
                    &prog(opts[3]),
                    &format!("`{name}` is not an instruction of {h}"),
                );
                continue;
            }
            accepts(&prog(opts[level as usize]));
            if level >= 2 {
                // One option level lower: rejected, naming the option.
                let below = prog(opts[level as usize - 1]);
                let want = opts[level as usize].trim_end().trim_end_matches(';');
                rejects(&below, &format!("`{name}` requires `{want};`"));
            }
        }
    }
}

#[test]
fn arb_fragment_flow_control_with_nv_fragment_program2() {
    // NV_fragment_program2: IF/ELSE/ENDIF, LOOP/ENDLOOP, REP/ENDREP, BRK, the predefined
    // address register A0 (loop index) in `fragment.texcoord[A0.x + n]`.
    accepts(
        "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP R0;\nMOVC R0, fragment.color;\nIF GT.x;\n\
         LOOP program.local[0];\nADD R0, R0, fragment.texcoord[A0.x + 1];\nBRK (EQ);\nENDLOOP;\nELSE;\n\
         REP program.local[1];\nENDREP;\nENDIF;\nKIL LT;\nMOV result.color, R0;\nEND",
    );
}
