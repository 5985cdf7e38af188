//! Tests of the spec-derived NV suite: the family table against the parser's Table X.13
//! encoding, [`lowered_today`] against the real lowering, coverage of every instruction
//! the lowering supports, and the CC observation against NOTES.md §7's flag rules.

use std::collections::BTreeSet;

use shaderdiff_model::RegKey;
use shaderdiff_nv::{self as nv, LowerError, NvOpcode, Shape, TypeSupport};
use shaderdiff_oracles::interp::{self, InterpConfig};

use super::super::spec_table::{candidates, Col, Ty, ROWS};
use super::*;

/// Table X.13 as transcribed agrees with the parser's opcode table (`NvOpcode::info`),
/// column by column, and names every opcode once.
#[test]
fn table_rows_match_the_parsers_opcode_table() {
    let mut seen = BTreeSet::new();
    for row in ROWS {
        assert!(seen.insert(row.op), "{} twice", row.op);
        let op = NvOpcode::from_name(row.op).unwrap_or_else(|| panic!("{}", row.op));
        let info = op.info();
        let col = |t: TypeSupport| match t {
            TypeSupport::No => Col::No,
            TypeSupport::Yes => Col::Yes,
            TypeSupport::With64 => Col::With64,
        };
        assert_eq!(info.level, row.version, "{} V", row.op);
        assert_eq!(col(info.float), row.float(), "{} F", row.op);
        assert_eq!(col(info.int), row.int(), "{} I", row.op);
        assert_eq!(info.cc, row.cc(), "{} C", row.op);
        assert_eq!(info.sat, row.sat(), "{} S", row.op);
        assert_eq!(info.half, row.half(), "{} H", row.op);
        if let Some(d) = info.default {
            assert_eq!(format!("{d:?}"), row.default_type(), "{} D", row.op);
        }
    }
    // Table X.13 has 109 rows (NV_gpu_program5.txt, "Summary of NV_gpu_program5
    // instructions").
    assert_eq!(ROWS.len(), 109);
}

/// Every candidate family parses; it lowers exactly when [`lowered_today`] says so, and
/// a refusal is `Unsupported` (not a malformed program). Fails when the lowering gains or
/// loses support until `lowered_today` is updated.
#[test]
fn lowered_today_agrees_with_the_lowering() {
    let mut wrong = Vec::new();
    for f in candidates() {
        let text = program_text(&f);
        let ast = nv::parse(&text, "candidate.nv")
            .unwrap_or_else(|e| panic!("{}: does not parse: {e}\n{text}", f.name()));
        match (nv::lower(&ast), lowered_today(&f)) {
            (Ok(_), true) | (Err(LowerError::Unsupported { .. }), false) => {}
            (Ok(_), false) => wrong.push(format!("{}: lowers now; admit it", f.name())),
            (Err(e), _) => wrong.push(format!("{}: {e}\n{text}", f.name())),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The data types a family may carry, for the coverage probe.
const ALL_TYPES: [Ty; 6] = [Ty::F, Ty::S, Ty::U, Ty::F64, Ty::S64, Ty::U64];

/// A one-instruction program for `op` with data type `ty`, from the parser's operand
/// shape (independent of the family table's program builder).
fn probe(op: NvOpcode, ty: Ty, fragment: bool) -> Option<String> {
    let args = match op.shape() {
        Shape::Vector => "a",
        Shape::Scalar => "a.x",
        Shape::BinSc => "a.x, b.x",
        Shape::VecSca => "a, b.x",
        Shape::Bin => "a, b",
        Shape::Tri => "a, b, c",
        Shape::Swz => "a, x, y, z, w",
        _ => return None,
    };
    let (header, decl) = match (fragment, ty.is_64()) {
        (true, false) => ("!!NVfp5.0", "TEMP"),
        (false, false) => ("!!NVvp5.0", "TEMP"),
        (true, true) => ("!!NVfp5.0", "LONG TEMP"),
        (false, true) => ("!!NVvp5.0", "LONG TEMP"),
    };
    Some(format!(
        "{header}\n{decl} a, b, c, r;\nMOV.U a, 1;\nMOV.U b, 2;\nMOV.U c, 3;\n{}.{} r, {args};\nEND\n",
        op.name(),
        ty.name()
    ))
}

/// Every Table X.13 ALU instruction and data type the lowering accepts in a
/// one-instruction program has a generated family, in every stage that accepts it.
#[test]
fn families_cover_every_lowered_instruction_and_type() {
    let have: BTreeSet<(String, Ty, bool)> = families()
        .iter()
        .filter_map(|f| match f.variant {
            Variant::Alu { ty, .. } => Some((f.row.op.to_string(), ty, f.fragment)),
            Variant::Cvt { .. } => None,
        })
        .collect();
    let mut lowered = 0;
    let mut missing = Vec::new();
    for row in ROWS.iter().filter(|r| r.is_alu() && r.op != "CVT") {
        let op = NvOpcode::from_name(row.op).expect("known");
        for ty in ALL_TYPES {
            for fragment in [false, true] {
                let Some(text) = probe(op, ty, fragment) else {
                    continue;
                };
                let Ok(ast) = nv::parse(&text, "probe.nv") else {
                    continue;
                };
                if nv::lower(&ast).is_ok() {
                    lowered += 1;
                    if !have.contains(&(row.op.to_string(), ty, fragment)) {
                        missing.push(format!("{}.{} ({fragment})", row.op, ty.name()));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "no family for: {missing:?}");
    assert!(lowered > 100, "the probe lowered only {lowered} programs");
}

/// The whole suite builds; names are unique; each program reads one attribute per
/// operand with one value per invocation.
#[test]
fn suite_builds_with_unique_names_and_full_inputs() {
    let s = suite().expect("every generated program lowers");
    let names: BTreeSet<&str> = s.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), s.len());
    for c in &s {
        for &(_, f, i) in &c.lowered.names.entries {
            if f == shaderdiff_model::File::Input {
                let v = &c.inputs.registers[&RegKey::new(f, i)];
                assert_eq!(v.len(), c.inputs.invocations, "{}", c.name);
            }
        }
    }
    for name in [
        "nv-spec-vp-add-s-cc",
        "nv-spec-fp-mul-u-hi",
        "nv-spec-fp-ddx-f-ssat",
        "nv-spec-vp-cvt-s8-f32-trunc",
        "nv-spec-fp-kil-s",
    ] {
        assert!(names.contains(name), "{name}");
    }
}

/// Runs a suite program on the oracle; returns the (result, flags) words of every
/// invocation and channel where operands 0 and 1 hold `a` and `b`.
fn run_x(name: &str, a: u32, b: u32) -> Vec<(u32, u32)> {
    let s = suite().expect("valid");
    let c = s.iter().find(|c| c.name == name).expect(name);
    let out = interp::run(&c.lowered.program, &c.inputs, &InterpConfig::default()).expect("runs");
    let find = |name: &str| {
        c.lowered
            .names
            .lookup(c.lowered.stage, name)
            .map(|(f, i)| RegKey::new(f, i))
    };
    let reg = |name: &str| find(name).expect(name);
    let (op0, op1) = if name.contains("-fp-") {
        ("fragment.texcoord[0]", "fragment.texcoord[1]")
    } else {
        ("vertex.attrib[1]", "vertex.attrib[2]")
    };
    let (res, flags) = if name.contains("-fp-") {
        ("result.color", "result.color[1]")
    } else {
        ("result.attrib[0]", "result.attrib[1]")
    };
    let a_in = &c.inputs.registers[&reg(op0)];
    let b_in = find(op1).and_then(|k| c.inputs.registers.get(&k));
    let (res, flags) = (&out.registers[&reg(res)], &out.registers[&reg(flags)]);
    (0..c.inputs.invocations)
        .flat_map(|i| (0..4).map(move |ch| (i, ch)))
        .filter(|&(i, ch)| a_in[i][ch] == a && b_in.is_none_or(|r| r[i][ch] == b))
        .map(|(i, ch)| (res[i][ch], flags[i][ch]))
        .collect()
}

/// NOTES.md §7: 0x7FFFFFFF + 1 sets SF and OF (so GT passes), no carry; 0xFFFFFFFF + 1
/// carries to 0 (ZF, CF); integer subtract sets CF when there is no borrow.
#[test]
fn cc_flags_of_integer_add_and_subtract_follow_the_spec() {
    // Flag bits (module docs): SF 1, EQ 2, NAN 4, OF 8, CF 16.
    assert_eq!(
        run_x("nv-spec-vp-add-s-cc", 0x7fff_ffff, 1),
        vec![(0x8000_0000, 1 | 8)]
    );
    assert_eq!(
        run_x("nv-spec-vp-add-u-cc", 0xffff_ffff, 1),
        vec![(0, 2 | 16)]
    );
    assert_eq!(run_x("nv-spec-vp-sub-u-cc", 3, 1), vec![(2, 16)]);
    assert_eq!(run_x("nv-spec-vp-sub-s-cc", 1, 3), vec![(0xffff_fffe, 1)]);
}

/// NOTES.md §7 and §14: a NaN result sets SF and ZF (NAN passes, EQ fails); -0.0 sets ZF
/// only (EQ passes).
#[test]
fn cc_flags_of_float_nan_and_negative_zero_follow_the_spec() {
    let nan = run_x("nv-spec-fp-mov-f-cc", 0x7fc0_0000, 0);
    assert!(
        !nan.is_empty() && nan.iter().all(|&(_, f)| f == 1 | 4),
        "{nan:?}"
    );
    let nz = run_x("nv-spec-fp-mov-f-cc", 0x8000_0000, 0);
    assert!(!nz.is_empty() && nz.iter().all(|&(_, f)| f == 2), "{nz:?}");
}

/// The layout of the module docs meets every pair of edge values in operands 0 and 1, and
/// every value pair in `(a.c, b.x)`; BFE meets 121 width / offset pairs.
#[test]
fn two_operand_layout_meets_every_pair() {
    let fams = families();
    let find = |name: &str| *fams.iter().find(|f| f.name() == name).expect(name);
    let add = find("nv-spec-vp-add-f");
    let n = invocations(&add);
    let pairs: BTreeSet<(usize, usize)> = (0..n)
        .flat_map(|i| (0..4).map(move |c| (i, c)))
        .map(|(i, c)| (edge_index(&add, 0, i, c), edge_index(&add, 1, i, c)))
        .collect();
    assert_eq!(pairs.len(), 32 * 32);
    let scalar: BTreeSet<(usize, usize)> = (0..n)
        .flat_map(|i| (0..4).map(move |c| (i, c)))
        .map(|(i, c)| (edge_index(&add, 0, i, c), edge_index(&add, 1, i, 0)))
        .collect();
    assert_eq!(scalar.len(), 32 * 32);
    let bfe = find("nv-spec-vp-bfe-u");
    let wo: BTreeSet<(usize, usize)> = (0..invocations(&bfe))
        .map(|i| (edge_index(&bfe, 0, i, 0), edge_index(&bfe, 0, i, 1)))
        .collect();
    assert_eq!(wo.len(), 121);
    let mov = find("nv-spec-vp-mov-f");
    for c in 0..4 {
        let seen: BTreeSet<usize> = (0..invocations(&mov))
            .map(|i| edge_index(&mov, 0, i, c))
            .collect();
        assert_eq!(seen.len(), 32, "channel {c}");
    }
}

/// NOTES.md §6: CC is updated from the clamped value: -1 + -1 saturates to 0.0 (ZF only:
/// EQ), 2 + 3 to 1.0 (no flag).
#[test]
fn sat_cc_flags_come_from_the_clamped_result() {
    let (m1, two, three) = (0xbf80_0000, 0x4000_0000, 0x4040_0000);
    let neg = run_x("nv-spec-vp-add-f-sat-cc", m1, m1);
    assert!(
        !neg.is_empty() && neg.iter().all(|&r| r == (0, 2)),
        "{neg:?}"
    );
    let pos = run_x("nv-spec-fp-add-f-sat-cc", two, three);
    assert!(
        !pos.is_empty() && pos.iter().all(|&r| r == (0x3f80_0000, 0)),
        "{pos:?}"
    );
}

/// NOTES.md §6: `-a` of a signed or unsigned operand is the two's complement, `|b|` of an
/// unsigned operand is `b`: `-1 + |-1|` is 0 for S, 0xFFFFFFFF + 0xFFFFFFFF for U.
#[test]
fn negate_and_absolute_value_of_integer_operands_follow_the_spec() {
    let run = |name: &str| {
        let s = suite().expect("valid");
        let c = s.iter().find(|c| c.name == name).expect(name).clone();
        let out =
            interp::run(&c.lowered.program, &c.inputs, &InterpConfig::default()).expect("runs");
        let key = |n: &str| {
            let (f, i) = c.lowered.names.lookup(c.lowered.stage, n).expect(n);
            RegKey::new(f, i)
        };
        let (a, b) = (
            &c.inputs.registers[&key("vertex.attrib[1]")],
            &c.inputs.registers[&key("vertex.attrib[2]")],
        );
        let r = &out.registers[&key("result.attrib[0]")];
        (0..c.inputs.invocations)
            .flat_map(|i| (0..4).map(move |ch| (i, ch)))
            .filter(|&(i, ch)| a[i][ch] == 1 && b[i][ch] == u32::MAX)
            .map(|(i, ch)| r[i][ch])
            .collect::<Vec<u32>>()
    };
    assert_eq!(run("nv-spec-vp-add-s-negabs"), vec![0]);
    assert_eq!(run("nv-spec-vp-add-u-negabs"), vec![0xffff_fffe]);
}

/// UP4B unpacks `(byte - 128) / 127` (NOTES.md §10) as floats whatever the data type
/// ("Out" vf), so SAT / SSAT clamp it: the word 0 gives -128/127 in every component,
/// 0.0 under SAT and -1.0 under SSAT.
#[test]
fn unpack_with_an_integer_type_saturates_its_float_result() {
    let s = suite().expect("valid");
    let result_of_zero = |name: &str| -> Vec<[u32; 4]> {
        let c = s.iter().find(|c| c.name == name).expect(name);
        let out =
            interp::run(&c.lowered.program, &c.inputs, &InterpConfig::default()).expect("runs");
        let key = |n: &str| {
            let (f, i) = c.lowered.names.lookup(c.lowered.stage, n).expect(n);
            RegKey::new(f, i)
        };
        let a = &c.inputs.registers[&key("vertex.attrib[1]")];
        let r = &out.registers[&key("result.attrib[0]")];
        (0..c.inputs.invocations)
            .filter(|&i| a[i][0] == 0)
            .map(|i| r[i])
            .collect()
    };
    let q = (-128.0f32 / 127.0).to_bits();
    assert_eq!(result_of_zero("nv-spec-vp-up4b-s"), vec![[q; 4]]);
    assert_eq!(result_of_zero("nv-spec-vp-up4b-s-sat"), vec![[0; 4]]);
    assert_eq!(
        result_of_zero("nv-spec-vp-up4b-u-ssat"),
        vec![[0xbf80_0000; 4]]
    );
}
