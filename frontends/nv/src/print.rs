//! The canonical printer: one statement per line (INTERFACE.md, `check --print`).
//!
//! Header, `OPTION`s, program declarations, then the statements in order, then `END`.
//! NV programs write modifiers as `.MOD` pieces in a fixed order (atomic operation, data
//! types, MUL modifier, rounding, `NTC`, `PREC`, `COH`, `VOL`, `CTA`, `CC`/`CC1`,
//! `SAT`/`SSAT`); only the precision letters `R`/`H` stay opcode suffixes (Table X.15 has
//! no stand-alone form for them). ARB programs write every modifier as a suffix
//! (`ADDRC_SAT`), the only form their grammar has. Swizzles and masks use `xyzw`.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::ast::*;
use super::opcodes::Shape;

const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

fn letter(c: u8) -> char {
    LETTERS.get(c as usize).copied().unwrap_or('?')
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::Int { value, hex: true } => format!("0x{value:X}"),
        Literal::Int { value, hex: false } => value.to_string(),
        Literal::Float(t) => t.clone(),
    }
}

fn signed(s: &SignedLit) -> String {
    format!("{}{}", if s.neg { "-" } else { "" }, literal(&s.lit))
}

fn vector(v: &[SignedLit]) -> String {
    let parts: Vec<String> = v.iter().map(signed).collect();
    format!("{{{}}}", parts.join(", "))
}

fn index(ix: &Index) -> String {
    match ix {
        Index::Abs(n) => format!("[{n}]"),
        Index::Range(a, b) => format!("[{a}..{b}]"),
        Index::Rel(r) => {
            let mut s = format!("[{}.{}", r.var, letter(r.comp));
            match r.offset {
                0 => {}
                o if o > 0 => {
                    let _ = write!(s, " + {o}");
                }
                o => {
                    let _ = write!(s, " - {}", o.unsigned_abs());
                }
            }
            s.push(']');
            s
        }
    }
}

/// A binding as written: `vertex[2].texcoord[1]`.
pub fn binding_text(b: &Binding) -> String {
    let parts: Vec<String> = b
        .segments
        .iter()
        .map(|s| {
            let mut t = s.name.clone();
            for ix in &s.index {
                t += &index(ix);
            }
            t
        })
        .collect();
    parts.join(".")
}

fn var_ref(r: &VarRef) -> String {
    match r {
        VarRef::Var { name, index: ix } => {
            let mut s = name.clone();
            for i in ix {
                s += &index(i);
            }
            s
        }
        VarRef::Binding(b) => binding_text(b),
    }
}

fn swizzle(s: Swizzle) -> String {
    match s {
        Swizzle::None => String::new(),
        Swizzle::Scalar(c) => format!(".{}", letter(c)),
        Swizzle::Vector(v) => format!(".{}", v.iter().map(|&c| letter(c)).collect::<String>()),
    }
}

fn cc_test(c: &CcTest) -> String {
    format!(
        "{}{}{}",
        c.cond.name(),
        if c.reg == 1 { "1" } else { "" },
        swizzle(c.swizzle)
    )
}

fn src(s: &Src) -> String {
    let base = match &s.base {
        SrcBase::Ref(r) => var_ref(r),
        SrcBase::Vector(v) => vector(v),
        SrcBase::Scalar(l) => literal(l),
    };
    let inner = format!("{base}{}", swizzle(s.swizzle));
    let neg = if s.neg { "-" } else { "" };
    if s.abs {
        format!("{neg}|{}{inner}|", if s.neg_inside { "-" } else { "" })
    } else {
        format!("{neg}{inner}")
    }
}

fn dst(d: &Dst) -> String {
    let mut s = var_ref(&d.base);
    if d.mask != 0xF {
        s.push('.');
        s.extend(
            (0..4)
                .filter(|k| d.mask & (1 << k) != 0)
                .map(|k| LETTERS[k]),
        );
    }
    if let Some(c) = &d.cc {
        let _ = write!(s, " ({})", cc_test(c));
    }
    s
}

fn unit(u: &UnitRef, keyword: &str) -> String {
    match u {
        UnitRef::Unit(None) => keyword.to_string(),
        UnitRef::Unit(Some(n)) => format!("{keyword}[{n}]"),
        UnitRef::Var { name, index: ix } => {
            format!("{name}{}", ix.as_ref().map(index).unwrap_or_default())
        }
        UnitRef::Handle { var, comp } => format!("handle({var}.{})", letter(*comp)),
    }
}

fn tex(t: &TexAccess) -> String {
    let mut s = unit(&t.unit, "texture");
    if let Some(c) = t.component {
        let _ = write!(s, ".{}", letter(c));
    }
    let _ = write!(s, ", {}", t.target.name());
    match &t.offset {
        None => {}
        Some(TexOffset::Const(v)) => {
            let parts: Vec<String> = v.iter().map(i32::to_string).collect();
            let _ = write!(s, ", ({})", parts.join(", "));
        }
        Some(TexOffset::Operand(o)) => {
            let _ = write!(s, ", offset({})", src(o));
        }
    }
    s
}

/// The opcode with its suffixes and `.MOD` pieces.
fn opcode_text(i: &Instruction, arb: bool) -> String {
    let m = &i.mods;
    let mut s = i.opcode.name().to_string();
    if let Some(p) = m.precision {
        s += p.name();
    }
    if arb {
        match m.cc {
            Some(1) => s += "C1",
            Some(_) => s += "C",
            None => {}
        }
        if let Some(c) = m.clamp {
            let _ = write!(s, "_{}", c.name());
        }
        return s;
    }
    let mut add = |t: &str| {
        s.push('.');
        s.push_str(t);
    };
    if let Some(a) = m.atomic {
        add(a.name());
    }
    if let Some(t) = m.ty {
        add(t.name());
    }
    if let Some(t) = m.ty2 {
        add(t.name());
    }
    if let Some(x) = m.mul {
        add(x.name());
    }
    if let Some(r) = m.round {
        add(r.name());
    }
    for (on, name) in [
        (m.ntc, "NTC"),
        (m.prec, "PREC"),
        (m.coh, "COH"),
        (m.vol, "VOL"),
        (m.cta, "CTA"),
    ] {
        if on {
            add(name);
        }
    }
    match m.cc {
        Some(1) => add("CC1"),
        Some(_) => add("CC"),
        None => {}
    }
    if let Some(c) = m.clamp {
        add(c.name());
    }
    s
}

/// The operand list of an instruction, in the order its shape writes them.
fn operands(i: &Instruction, names: &HashSet<&str>) -> Vec<String> {
    let mut v = Vec::new();
    let d = || i.dst.as_ref().map(dst).unwrap_or_default();
    let srcs = || i.srcs.iter().map(src);
    let cond = |v: &mut Vec<String>| {
        if let Some(c) = &i.cond {
            let last = v.pop().unwrap_or_default();
            v.push(format!("{last} ({})", cc_test(c)).trim_start().to_string());
        }
    };
    let image = |v: &mut Vec<String>| {
        if let Some(im) = &i.image {
            v.push(unit(&im.unit, "image"));
            v.push(im.target.name().to_string());
        }
    };
    match i.opcode.shape() {
        Shape::Vector
        | Shape::Scalar
        | Shape::BinSc
        | Shape::VecSca
        | Shape::Bin
        | Shape::Tri
        | Shape::Atom
        | Shape::Arl
        | Shape::Ara
        | Shape::MemLoad
        | Shape::MemAtom
        | Shape::Popa => {
            v.push(d());
            v.extend(srcs());
        }
        Shape::EmitS | Shape::Loop | Shape::Store | Shape::Rep | Shape::MemStore | Shape::Pusha => {
            v.extend(srcs())
        }
        Shape::Swz => {
            v.push(d());
            v.extend(srcs());
            for e in i.ext_swizzle.iter().flatten() {
                let sel = match e.sel {
                    ExtSel::Zero => "0".to_string(),
                    ExtSel::One => "1".to_string(),
                    ExtSel::Comp(c) => letter(c).to_string(),
                };
                v.push(format!("{}{sel}", if e.neg { "-" } else { "" }));
            }
        }
        Shape::Tex | Shape::Txd => {
            v.push(d());
            v.extend(srcs());
            if let Some(t) = &i.texture {
                v.push(tex(t));
            }
        }
        Shape::Branch => {
            v.push(i.label.clone().unwrap_or_default());
            cond(&mut v);
        }
        Shape::FlowCc => {
            if let Some(c) = &i.cond {
                v.push(format!("({})", cc_test(c)));
            }
        }
        Shape::Cali => {
            v.extend(srcs());
            cond(&mut v);
        }
        Shape::If => v.extend(i.cond.iter().map(cc_test)),
        Shape::Kil => {
            v.extend(srcs());
            if let Some(c) = &i.cond {
                // A variable named like the test would be read as an operand.
                let t = cc_test(c);
                let word = t.split('.').next().unwrap_or("");
                if names.contains(word) {
                    v.push(format!("({t})"));
                } else {
                    v.push(t);
                }
            }
        }
        Shape::NoOperands => {}
        Shape::LoadIm | Shape::AtomIm => {
            v.push(d());
            v.extend(srcs());
            image(&mut v);
        }
        Shape::StoreIm => {
            if let Some(im) = &i.image {
                v.push(unit(&im.unit, "image"));
                v.extend(srcs());
                v.push(im.target.name().to_string());
            }
        }
    }
    v
}

fn mods_text(m: &VarMods) -> String {
    let mut s = String::new();
    for i in &m.interp {
        let _ = write!(s, "{} ", i.name());
    }
    if let Some(t) = m.ty {
        let _ = write!(s, "{} ", t.name());
    }
    if let Some(z) = m.size {
        let _ = write!(s, "{} ", z.name());
    }
    s
}

fn init_item(i: &InitItem) -> String {
    match i {
        InitItem::Binding(b) => binding_text(b),
        InitItem::Vector(v) => vector(v),
        InitItem::Scalar(s) => signed(s),
    }
}

fn declaration(d: &Declaration) -> String {
    match d {
        Declaration::Temp { mods, vars } => {
            let names: Vec<String> = vars
                .iter()
                .map(|v| match v.size {
                    Some(n) => format!("{}[{n}]", v.name),
                    None => v.name.clone(),
                })
                .collect();
            format!("{}TEMP {};", mods_text(mods), names.join(", "))
        }
        Declaration::Address { names } => format!("ADDRESS {};", names.join(", ")),
        Declaration::Alias { name, target } => format!("ALIAS {name} = {target};"),
        Declaration::SubroutineType { name, labels } => {
            format!("SUBROUTINETYPE {name} {{ {} }};", labels.join(", "))
        }
        Declaration::Bound(b) => {
            let mut s = format!("{}{} ", mods_text(&b.mods), b.kind.name());
            if let Some(t) = &b.subroutine_type {
                let _ = write!(s, "{t} ");
            }
            s += &b.name;
            for d in &b.dims {
                match d {
                    Some(n) => {
                        let _ = write!(s, "[{n}]");
                    }
                    None => s += "[]",
                }
            }
            let items: Vec<String> = b.init.iter().map(init_item).collect();
            if b.dims.is_empty() {
                let _ = write!(s, " = {};", items.join(", "));
            } else {
                let _ = write!(s, " = {{ {} }};", items.join(", "));
            }
            s
        }
    }
}

fn program_decl(d: &ProgramDecl) -> String {
    match d {
        ProgramDecl::PrimitiveIn(p) => format!("PRIMITIVE_IN {};", p.name()),
        ProgramDecl::PrimitiveOut(p) => format!("PRIMITIVE_OUT {};", p.name()),
        ProgramDecl::VerticesOut(n) => format!("VERTICES_OUT {n};"),
        ProgramDecl::Invocations(n) => format!("INVOCATIONS {n};"),
        ProgramDecl::TessMode(m) => format!("TESS_MODE {};", m.name()),
        ProgramDecl::TessSpacing(m) => format!("TESS_SPACING {};", m.name()),
        ProgramDecl::TessVertexOrder(m) => format!("TESS_VERTEX_ORDER {};", m.name()),
        ProgramDecl::TessPointMode => "TESS_POINT_MODE;".to_string(),
        ProgramDecl::GroupSize(v) => {
            let parts: Vec<String> = v.iter().map(u32::to_string).collect();
            format!("GROUP_SIZE {};", parts.join(" "))
        }
        ProgramDecl::SharedMemory(n) => format!("SHARED_MEMORY {n};"),
    }
}

/// One instruction as a line (without the newline).
pub(crate) fn instruction_text(i: &Instruction, arb: bool, names: &HashSet<&str>) -> String {
    let ops = operands(i, names);
    let mut s = opcode_text(i, arb);
    if !ops.is_empty() {
        s.push(' ');
        s += &ops.join(", ");
    }
    s.push(';');
    s
}

/// Prints the whole program.
pub(crate) fn print_program(p: &NvProgram) -> String {
    let arb = p.header.is_arb();
    let names: HashSet<&str> = p
        .statements
        .iter()
        .flat_map(|s| -> Vec<&str> {
            match s {
                Statement::Decl(Declaration::Temp { vars, .. }) => {
                    vars.iter().map(|v| v.name.as_str()).collect()
                }
                Statement::Decl(Declaration::Address { names }) => {
                    names.iter().map(String::as_str).collect()
                }
                Statement::Decl(Declaration::Bound(b)) => vec![b.name.as_str()],
                Statement::Decl(Declaration::Alias { name, .. })
                | Statement::Decl(Declaration::SubroutineType { name, .. }) => vec![name.as_str()],
                _ => Vec::new(),
            }
        })
        .collect();
    let mut out = String::new();
    out += p.header.text();
    out.push('\n');
    for o in &p.options {
        let _ = writeln!(out, "OPTION {o};");
    }
    for d in &p.program_decls {
        out += &program_decl(d);
        out.push('\n');
    }
    for s in &p.statements {
        match s {
            Statement::Label(l) => match l.subroutine_num {
                Some(n) => {
                    let _ = writeln!(out, "{} SUBROUTINENUM({n}):", l.name);
                }
                None => {
                    let _ = writeln!(out, "{}:", l.name);
                }
            },
            Statement::Decl(d) => {
                out += &declaration(d);
                out.push('\n');
            }
            Statement::Insn(i) => {
                out += &instruction_text(i, arb, &names);
                out.push('\n');
            }
        }
    }
    out += "END\n";
    out
}
