//! The ten worked examples of spec/nv/NOTES.md §16, read from NOTES.md itself: each parses
//! to the structure the example describes (opcode, data type and storage modifiers,
//! condition code updates and tests, write masks, swizzles, negation and absolute value,
//! bindings, constants, labels, program declarations), and printing is a fixed point.

#[path = "../../tgsi/tests/common/mod.rs"]
mod common;

use shaderdiff_nv::*;

/// The code block of NOTES.md "### Example n".
fn example(n: usize) -> String {
    let notes = common::read_shared("spec/nv/NOTES.md");
    let part = notes
        .split("### Example ")
        .nth(n)
        .unwrap_or_else(|| panic!("NOTES.md has no Example {n}"));
    assert!(part.starts_with(&format!("{n} ")), "Example {n}");
    part.split("```").nth(1).unwrap().trim_start().to_string()
}

fn load(n: usize) -> NvProgram {
    let text = example(n);
    let p = parse(&text, &format!("ex{n}")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let once = print(&p);
    let q = parse(&once, "printed").unwrap_or_else(|e| panic!("{e}\n{once}"));
    assert_eq!(
        q, p,
        "Example {n}: print → parse changed the program\n{once}"
    );
    assert_eq!(print(&q), once);
    p
}

fn insns(p: &NvProgram) -> Vec<&Instruction> {
    p.instructions().collect()
}

fn var(name: &str) -> SrcBase {
    SrcBase::Ref(VarRef::Var {
        name: name.into(),
        index: vec![],
    })
}

/// `result.attrib[n]` as a destination base.
fn attrib(n: u32) -> VarRef {
    VarRef::Binding(Binding {
        segments: vec![
            Segment {
                name: "result".into(),
                index: vec![],
            },
            Segment {
                name: "attrib".into(),
                index: vec![Index::Abs(n)],
            },
        ],
    })
}

fn int(v: u64) -> Literal {
    Literal::Int {
        value: v,
        hex: false,
    }
}

fn lit(neg: bool, l: Literal) -> SignedLit {
    SignedLit { neg, lit: l }
}

fn cc(cond: CondCode, reg: u8, swizzle: Swizzle) -> Option<CcTest> {
    Some(CcTest { cond, reg, swizzle })
}

#[test]
fn example_1_float_alu_swizzle_negate_abs_masks_sat() {
    let p = load(1);
    assert_eq!(p.header.text(), "!!NVvp5.0");
    let i = insns(&p);
    assert_eq!(i.len(), 7);
    // ADD.F t, a, b;
    assert_eq!(i[0].opcode, NvOpcode::Add);
    assert_eq!(i[0].mods.ty, Some(DataType::F));
    // MUL.F u, a, b.yxwz;
    assert_eq!(i[1].srcs[1].swizzle, Swizzle::Vector([1, 0, 3, 2]));
    // MAD.F result.attrib[0], t, {2, 2, 2, 2}, -u;
    let d = i[2].dst.as_ref().unwrap();
    assert_eq!((d.base.clone(), d.mask), (attrib(0), 0xF));
    assert_eq!(
        i[2].srcs[1].base,
        SrcBase::Vector(vec![lit(false, int(2)); 4])
    );
    assert!(i[2].srcs[2].neg && !i[2].srcs[2].abs);
    // DP3.F result.attrib[1].x, a, b;
    assert_eq!(i[3].dst.as_ref().unwrap().mask, 0b0001);
    // MOV.F result.attrib[1].yzw, -|a.wzyx|;
    let s = &i[4].srcs[0];
    assert_eq!(i[4].dst.as_ref().unwrap().mask, 0b1110);
    assert!(s.neg && s.abs && !s.neg_inside);
    assert_eq!(
        (s.base.clone(), s.swizzle),
        (var("a"), Swizzle::Vector([3, 2, 1, 0]))
    );
    // ADD.F.SAT result.attrib[2], a, 0.5;
    assert_eq!(i[5].mods.clamp, Some(Clamp::Sat));
    assert_eq!(
        i[5].srcs[1].base,
        SrcBase::Scalar(Literal::Float("0.5".into()))
    );
    // ADD.F.SSAT result.attrib[3], a, -b;
    assert_eq!(i[6].mods.clamp, Some(Clamp::SSat));
    assert!(i[6].srcs[1].neg);
    // PARAM a = program.local[0];
    let Statement::Decl(Declaration::Bound(b)) = &p.statements[0] else {
        panic!("{:?}", p.statements[0])
    };
    assert_eq!((b.kind, b.name.as_str()), (DeclKind::Param, "a"));
    let InitItem::Binding(bind) = &b.init[0] else {
        panic!()
    };
    assert_eq!(bind.path(), "program.local");
    assert_eq!(bind.indices_of("local"), Some(&[Index::Abs(0)][..]));
}

#[test]
fn example_2_integer_ops() {
    let p = load(2);
    let i = insns(&p);
    let ops: Vec<(NvOpcode, Option<DataType>)> = i.iter().map(|i| (i.opcode, i.mods.ty)).collect();
    use DataType::{S, U};
    use NvOpcode::*;
    assert_eq!(
        ops,
        vec![
            (Add, Some(S)),
            (Shl, Some(S)),
            (Shr, Some(S)),
            (Shr, Some(U)),
            (Div, Some(S)),
            (Mov, Some(S)),
            (And, Some(U)),
            (Or, Some(U)),
            (Xor, Some(U)),
            (Not, Some(U)),
            (Mod, Some(U)),
            (Mul, Some(S)),
            (Mul, Some(U)),
            (Sad, Some(S)),
        ]
    );
    // SHL.S i.x, p.y, 3;
    assert_eq!(i[1].srcs[0].swizzle, Swizzle::Scalar(1));
    assert_eq!(i[1].srcs[1].base, SrcBase::Scalar(int(3)));
    // MUL.U.HI result.attrib[3].z, p.x, 4;
    assert_eq!(i[12].mods.mul, Some(MulMod::Hi));
    assert_eq!(i[12].dst.as_ref().unwrap().mask, 0b0100);
    // SAD.S result.attrib[3].w, p.y, q.z, 100;
    assert_eq!(i[13].srcs.len(), 3);
    assert_eq!(i[13].srcs[2].base, SrcBase::Scalar(int(100)));
}

#[test]
fn example_3_set_cmp_ssg_minmax() {
    let p = load(3);
    let i = insns(&p);
    assert_eq!(i.len(), 8);
    // CMP.F result.attrib[4], f, {10, 20, 30, 40}, {-1, -2, -3, -4};
    assert_eq!(i[4].opcode, NvOpcode::Cmp);
    assert_eq!(
        i[4].srcs[2].base,
        SrcBase::Vector((1..=4).map(|k| lit(true, int(k))).collect())
    );
    assert_eq!(
        (i[2].opcode, i[2].mods.ty),
        (NvOpcode::Sge, Some(DataType::S))
    );
    assert_eq!(
        (i[3].opcode, i[3].mods.ty),
        (NvOpcode::Sge, Some(DataType::U))
    );
    assert_eq!(
        (i[7].opcode, i[7].mods.ty),
        (NvOpcode::Min, Some(DataType::U))
    );
}

#[test]
fn example_4_condition_codes_and_conditional_masks() {
    let p = load(4);
    let i = insns(&p);
    // MOV.F.CC t, a;
    assert_eq!(i[0].mods.cc, Some(0));
    let dcc = |k: usize| i[k].dst.as_ref().unwrap().cc;
    // MOV.F result.attrib[0] (GT), 1;
    assert_eq!(dcc(2), cc(CondCode::Gt, 0, Swizzle::None));
    assert_eq!(dcc(4), cc(CondCode::Lt, 0, Swizzle::None));
    assert_eq!(dcc(6), cc(CondCode::Nan, 0, Swizzle::None));
    // (NE.wzyx)
    assert_eq!(dcc(8), cc(CondCode::Ne, 0, Swizzle::Vector([3, 2, 1, 0])));
    // ADD.F.CC1 t.xy, a, 1;
    assert_eq!(i[9].mods.cc, Some(1));
    assert_eq!(i[9].dst.as_ref().unwrap().mask, 0b0011);
    // MOV.F result.attrib[4].xy (EQ1), 1;
    assert_eq!(i[11].dst.as_ref().unwrap().mask, 0b0011);
    assert_eq!(dcc(11), cc(CondCode::Eq, 1, Swizzle::None));
    assert_eq!(dcc(1), None);
}

#[test]
fn example_5_integer_condition_codes() {
    let p = load(5);
    let i = insns(&p);
    assert_eq!(
        (i[0].opcode, i[0].mods.ty, i[0].mods.cc),
        (NvOpcode::Add, Some(DataType::U), Some(0))
    );
    assert_eq!((i[1].opcode, i[1].mods.cc), (NvOpcode::Sub, Some(1)));
    let tests: Vec<Option<CcTest>> = i
        .iter()
        .filter_map(|i| i.dst.as_ref().and_then(|d| d.cc))
        .map(Some)
        .collect();
    assert_eq!(
        tests,
        vec![
            cc(CondCode::Cf, 0, Swizzle::None),
            cc(CondCode::Of, 0, Swizzle::None),
            cc(CondCode::Gt, 0, Swizzle::None),
            cc(CondCode::Eq, 0, Swizzle::None),
            cc(CondCode::Ab, 1, Swizzle::None),
            cc(CondCode::Lt, 1, Swizzle::None),
        ]
    );
}

#[test]
fn example_6_loops_and_nested_if() {
    let p = load(6);
    let i = insns(&p);
    let ops: Vec<NvOpcode> = i.iter().map(|i| i.opcode).collect();
    use NvOpcode::*;
    assert_eq!(
        ops,
        vec![
            Mov, Mov, Rep, Add, Seq, Cont, Add, Endrep, Mov, Mov, Rep, Sub, Brk, Add, Endrep, Mov,
            If, Mov, Mov, If, Mov, Else, Mov, Endif, Else, Mov, Endif, Mov, Mov, Mov, Mov
        ]
    );
    // REP.S n.x;
    assert_eq!(i[2].mods.ty, Some(DataType::S));
    assert_eq!(i[2].srcs[0].swizzle, Swizzle::Scalar(0));
    // CONT (NE.x);
    assert_eq!(i[5].cond, cc(CondCode::Ne, 0, Swizzle::Scalar(0)));
    // REP; (no count) and BRK (LT.y);
    assert!(i[10].srcs.is_empty());
    assert_eq!(i[12].cond, cc(CondCode::Lt, 0, Swizzle::Scalar(1)));
    // IF EQ.z; ... IF LE.w;
    assert_eq!(i[16].cond, cc(CondCode::Eq, 0, Swizzle::Scalar(2)));
    assert_eq!(i[19].cond, cc(CondCode::Le, 0, Swizzle::Scalar(3)));
}

#[test]
fn example_7_subroutines_and_labels() {
    let p = load(7);
    let labels: Vec<&str> = p
        .statements
        .iter()
        .filter_map(|s| match s {
            Statement::Label(l) => Some(l.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(labels, ["square", "absdiff", "main"]);
    let i = insns(&p);
    // RET (EQ.x);
    assert_eq!(
        (i[3].opcode, i[3].cond),
        (NvOpcode::Ret, cc(CondCode::Eq, 0, Swizzle::Scalar(0)))
    );
    assert_eq!((i[1].opcode, i[1].cond), (NvOpcode::Ret, None));
    // CAL absdiff; CAL square; CAL square (GT.y);
    let cals: Vec<(Option<&str>, Option<CcTest>)> = i
        .iter()
        .filter(|i| i.opcode == NvOpcode::Cal)
        .map(|i| (i.label.as_deref(), i.cond))
        .collect();
    assert_eq!(
        cals,
        vec![
            (Some("absdiff"), None),
            (Some("square"), None),
            (Some("square"), cc(CondCode::Gt, 0, Swizzle::Scalar(1))),
            (Some("square"), cc(CondCode::Gt, 0, Swizzle::Scalar(2))),
        ]
    );
    // MOV.F s.x, |s.x|;
    assert!(i[4].srcs[0].abs && !i[4].srcs[0].neg);
}

#[test]
fn example_8_conversions_and_packing() {
    let p = load(8);
    let i = insns(&p);
    let cvt: Vec<&&Instruction> = i.iter().filter(|i| i.opcode == NvOpcode::Cvt).collect();
    assert_eq!(cvt.len(), 2);
    for c in &cvt {
        assert_eq!(
            (c.mods.ty, c.mods.ty2),
            (Some(DataType::U8), Some(DataType::S32))
        );
    }
    assert_eq!(
        (cvt[0].mods.clamp, cvt[1].mods.clamp),
        (None, Some(Clamp::Sat))
    );
    // PK2H.U p.x, {1.0, -2.0};
    let pk = i.iter().find(|i| i.opcode == NvOpcode::Pk2h).unwrap();
    assert_eq!(
        pk.srcs[0].base,
        SrcBase::Vector(vec![
            lit(false, Literal::Float("1.0".into())),
            lit(true, Literal::Float("2.0".into()))
        ])
    );
    let first: Vec<(NvOpcode, Option<DataType>)> =
        i[..4].iter().map(|i| (i.opcode, i.mods.ty)).collect();
    assert_eq!(
        first,
        vec![
            (NvOpcode::Flr, Some(DataType::S)),
            (NvOpcode::Ceil, Some(DataType::S)),
            (NvOpcode::Trunc, Some(DataType::S)),
            (NvOpcode::Round, Some(DataType::S)),
        ]
    );
    // MOV.U result.attrib[10].xy, p;
    assert_eq!(i.last().unwrap().dst.as_ref().unwrap().mask, 0b0011);
}

#[test]
fn example_9_bitfields_and_64_bit() {
    let p = load(9);
    // LONG TEMP d, e, k;
    let Statement::Decl(Declaration::Temp { mods, vars }) = &p.statements[3] else {
        panic!("{:?}", p.statements[3])
    };
    assert_eq!(mods.size, Some(VarSize::Long));
    let names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["d", "e", "k"]);
    let i = insns(&p);
    // BFI.U t.z, {8, 8}, 0xAB, v.z;
    assert_eq!(i[2].opcode, NvOpcode::Bfi);
    assert_eq!(
        i[2].srcs[1].base,
        SrcBase::Scalar(Literal::Int {
            value: 0xAB,
            hex: true
        })
    );
    // PK64.U d, {0xFFFFFFFF, 1, 5, 0};
    let pk = i.iter().find(|i| i.opcode == NvOpcode::Pk64).unwrap();
    assert_eq!(
        pk.srcs[0].base,
        SrcBase::Vector(vec![
            lit(
                false,
                Literal::Int {
                    value: 0xFFFF_FFFF,
                    hex: true
                }
            ),
            lit(false, int(1)),
            lit(false, int(5)),
            lit(false, int(0)),
        ])
    );
    let sized: Vec<(NvOpcode, Option<DataType>)> = i
        .iter()
        .filter(|i| i.mods.ty.is_some_and(|t| t.bits() == Some(64)))
        .map(|i| (i.opcode, i.mods.ty))
        .collect();
    assert_eq!(
        sized,
        vec![
            (NvOpcode::Add, Some(DataType::U64)),
            (NvOpcode::Mul, Some(DataType::S64)),
            (NvOpcode::Add, Some(DataType::F64)),
        ]
    );
    // PK64.S k, {-3, -1, 0, 0};
    let pks = i
        .iter()
        .filter(|i| i.opcode == NvOpcode::Pk64)
        .nth(1)
        .unwrap();
    assert_eq!(pks.mods.ty, Some(DataType::S));
}

#[test]
fn example_10_compute_memory() {
    let p = load(10);
    assert_eq!(p.header.stage, NvStage::Compute);
    assert_eq!(p.program_decls, vec![ProgramDecl::GroupSize(vec![4])]);
    let i = insns(&p);
    // MUL.U i.x, invocation.localid.x, 4;
    let SrcBase::Ref(VarRef::Binding(b)) = &i[1].srcs[0].base else {
        panic!("{:?}", i[1].srcs[0])
    };
    assert_eq!(binding_text(b), "invocation.localid");
    assert_eq!(i[1].srcs[0].swizzle, Swizzle::Scalar(0));
    // CVT.U64.U32 q.x, i.x;
    assert_eq!(
        (i[2].mods.ty, i[2].mods.ty2),
        (Some(DataType::U64), Some(DataType::U32))
    );
    // LOAD.U32 v.x, q.x;  STORE.U32 v.x, q.y;  ATOM.ADD.U32 old.x, v.x, p.y;  MEMBAR;
    assert_eq!(
        (i[4].opcode, i[4].mods.ty),
        (NvOpcode::Load, Some(DataType::U32))
    );
    assert!(i[4].dst.is_some());
    assert_eq!(
        (i[7].opcode, i[7].dst.is_none(), i[7].srcs.len()),
        (NvOpcode::Store, true, 2)
    );
    assert_eq!(i[8].opcode, NvOpcode::Atom);
    assert_eq!(
        (i[8].mods.atomic, i[8].mods.ty),
        (Some(AtomicOp::Add), Some(DataType::U32))
    );
    assert_eq!(i[8].srcs[1].swizzle, Swizzle::Scalar(1));
    assert_eq!(i[9].opcode, NvOpcode::Membar);
}
