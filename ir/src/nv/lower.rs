//! Lowering of NV / ARB assembly ([`NvProgram`]) to the shared IR ([`Program`]), so that
//! every engine runs NV programs without knowing about them.
//!
//! What is lowered (NV_gpu_program4 §2.X, NV_gpu_program5 Table X.13, ARB_vertex_program
//! §2.14.5, ARB_fragment_program §3.11.5): vertex and fragment programs made of the ALU
//! instructions listed in `lower_ops.rs` and `lower_cvt.rs`, condition codes
//! (`lower_cc.rs`: `.CC` updates, conditional write masks, conditions on IF / BRK /
//! CONT / CAL / RET / KIL), `IF`/`ELSE`/`ENDIF`, `REP`/`ENDREP` with or without a count,
//! subroutines (`CAL`/`RET`, the `main` label, NOTES.md §8) and `KIL`. Variables map to IR
//! registers: `TEMP` → TEMP, `ADDRESS` → ADDR, attribute bindings → IN, result bindings →
//! OUT, parameter bindings → CONST (one register per vec4 binding), constants and literals
//! → IMM (typed by the operand that reads them, §2.X.4.2 "constants take the type the
//! operand needs"). Precision suffixes (`R`, `H`, `X`) are computed at full f32 precision,
//! which NV_fragment_program_option §3.11.4 allows ("no less than").
//!
//! Everything else — BRA, memory, textures, 64-bit types, F16 conversions, the carry and
//! overflow flags of integer SAD and of ADD / SUB / MAD with a negated operand, other
//! stages — is refused with [`LowerError::Unsupported`] naming the instruction and its
//! position, never lowered approximately.

use std::collections::HashMap;

use super::ast::{self, BaseType, Binding, Declaration, Index, InitItem, NvProgram, NvStage};
use super::ast::{SignedLit, SrcBase, Statement, VarRef};
use super::print::binding_text;
use crate::names::{File, ImmType, Stage};
use crate::opcode::Opcode;
use crate::program::{self as ir, Immediate, Instruction, Pos, Program, Register};

/// Most TEMP vectors a lowered program may declare (user arrays included).
const MAX_TEMPS: u32 = 65536;

/// Why a program could not be lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LowerError {
    /// The program is valid but uses something the lowering does not support yet.
    Unsupported {
        /// Where (the instruction or declaration).
        pos: Pos,
        /// What, naming the instruction.
        message: String,
    },
    /// The program breaks a load-time rule the parser does not check (for example a float
    /// literal where an integer is required, NV_gpu_program4 §2.X.4.2).
    Invalid {
        /// Where.
        pos: Pos,
        /// What.
        message: String,
    },
}

impl LowerError {
    /// The position of the offending statement.
    pub fn pos(&self) -> Pos {
        match self {
            LowerError::Unsupported { pos, .. } | LowerError::Invalid { pos, .. } => *pos,
        }
    }
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LowerError::Unsupported { pos, message } => {
                write!(f, "{pos}: unsupported: {message}")
            }
            LowerError::Invalid { pos, message } => write!(f, "{pos}: {message}"),
        }
    }
}

impl std::error::Error for LowerError {}

/// The names a program's user sees (INTERFACE.md "The inputs file": registers keyed "as the
/// program names it") and the IR registers they became.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameMap {
    /// Every (canonical binding text or variable name, register) pair: `fragment.texcoord[1]`
    /// → `IN[0]`, `program.local[2]` → `CONST[1]`, `result.color` → `OUT[0]`. Several names
    /// may map to one register (a named `ATTRIB` and its binding).
    pub entries: Vec<(String, File, u32)>,
}

impl NameMap {
    /// The register a name (binding text or declared variable name) stands for; the text is
    /// normalised like the program's bindings (`fragment.texcoord` is `fragment.texcoord[0]`,
    /// spaces ignored).
    pub fn lookup(&self, stage: NvStage, name: &str) -> Option<(File, u32)> {
        let key = canonical_name(stage, name);
        self.entries
            .iter()
            .find(|(n, _, _)| *n == key)
            .map(|&(_, f, i)| (f, i))
    }

    /// The binding text that names IR register `file[index]` (the first name recorded for it,
    /// which is always the binding, not a variable name).
    pub fn name_of(&self, file: File, index: u32) -> Option<&str> {
        self.entries
            .iter()
            .find(|&&(_, f, i)| f == file && i == index)
            .map(|(n, _, _)| n.as_str())
    }
}

/// A lowered program: the IR program and its name map.
#[derive(Clone, Debug, PartialEq)]
pub struct Lowered {
    /// The IR program, ready for every engine.
    pub program: Program,
    /// NV names of its IN, OUT and CONST registers.
    pub names: NameMap,
    /// The NV stage (for [`NameMap::lookup`]).
    pub stage: NvStage,
}

/// Canonical text of a binding name, so that the inputs file may use any of the spec's
/// equivalent spellings (ARB_vertex_program Table X.2 / ARB_fragment_program Table X.2:
/// `vertex.texcoord` is `vertex.texcoord[0]`, `fragment.color` is
/// `fragment.color.primary`, `result.color` is `result.color.primary` /
/// `result.color.front.primary`, fp4 `result.color[0]` is `result.color`).
pub fn canonical_name(stage: NvStage, text: &str) -> String {
    let mut s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    for root in ["vertex.texcoord", "fragment.texcoord", "result.texcoord"] {
        if s == root || s.starts_with(&format!("{root}.")) {
            s.insert_str(root.len(), "[0]");
        }
    }
    let aliases: &[(&str, &str)] = &[
        ("fragment.color.primary", "fragment.color"),
        ("vertex.color.primary", "vertex.color"),
        ("result.color.front.primary", "result.color"),
        ("result.color.front", "result.color"),
        ("result.color.primary", "result.color"),
    ];
    for (from, to) in aliases {
        if s == *from {
            s = (*to).to_string();
        }
    }
    if stage == NvStage::Fragment && s == "result.color[0]" {
        s = "result.color".to_string();
    }
    s
}

/// One element of a variable: a register or, for constant `PARAM`s, literal components.
#[derive(Clone, Debug)]
pub(super) enum Elem {
    /// An IR register.
    Reg(File, u32),
    /// `{a, b, c, d}` (1 to 4 components; typed at the use).
    Lit(Vec<SignedLit>),
}

/// What a declared name stands for.
#[derive(Clone, Debug)]
pub(super) enum Var {
    /// TEMP array starting at a TEMP index.
    Temp { base: u32 },
    /// ADDRESS register.
    Addr(u32),
    /// ATTRIB / PARAM / OUTPUT: one element per array entry.
    Elems(Vec<Elem>),
}

/// Lowering state shared with `lower_ops.rs`.
pub(super) struct Ctx<'a> {
    /// The program being lowered.
    pub nv: &'a NvProgram,
    /// Its stage.
    pub stage: NvStage,
    /// The IR program being built.
    pub out: Program,
    /// Declared names.
    pub vars: HashMap<String, Var>,
    /// NV names of the IN / OUT / CONST registers allocated so far.
    pub names: NameMap,
    /// Registers allocated per file (IN, OUT, CONST, ADDR).
    pub counts: HashMap<File, u32>,
    /// Next free TEMP (user TEMPs first, then hidden ones).
    pub next_temp: u32,
    /// Highest TEMP count reached.
    pub max_temp: u32,
    /// IMM index of each distinct constant vector.
    pub imms: HashMap<[u32; 4], u32>,
    /// Constant PARAM arrays read with relative addressing: first IMM per (name, type).
    pub lit_arrays: HashMap<(String, BaseType), u32>,
    /// Current statement position.
    pub pos: Pos,
    /// First of the 8 hidden TEMPs holding CC0 and CC1 (SF, ZF, OF, CF each), when the
    /// program uses condition codes.
    pub cc_base: Option<u32>,
    /// While lowering an instruction with `.CC` or a conditional write mask: the hidden TEMP
    /// that receives its result instead of the destination.
    pub redirect: Option<Register>,
    /// CAL fix-ups: (instruction index, label).
    pub calls: Vec<(usize, String)>,
    /// A deliberate lowering bug ([`LowerFault`]), for fault-injection campaigns.
    pub fault: Option<LowerFault>,
}

pub use super::lower_start::{LowerFault, LowerOptions};

/// Lowers `p` to the shared IR (module docs list what is supported).
///
/// Errors: [`LowerError::Unsupported`] for a construct not lowered yet (naming it, with the
/// statement's `line:col`); [`LowerError::Invalid`] for a load-time error the parser does
/// not detect.
pub fn lower(p: &NvProgram) -> Result<Lowered, LowerError> {
    lower_with(p, LowerOptions::default())
}

/// [`lower`] with options (a deliberate lowering fault for fault-injection campaigns).
///
/// Errors: as [`lower`].
pub fn lower_with(p: &NvProgram, options: LowerOptions) -> Result<Lowered, LowerError> {
    let stage = p.header.stage;
    // Where a refusal of the whole program points: its first option, program declaration
    // or statement (in that textual order), else END.
    let sm = &p.source_map;
    let start = sm
        .options
        .first()
        .or(sm.program_decls.first())
        .or(sm.statements.first())
        .copied()
        .unwrap_or(sm.end);
    let ir_stage = match stage {
        NvStage::Vertex => Stage::Vertex,
        NvStage::Fragment => Stage::Fragment,
        other => {
            return Err(LowerError::Unsupported {
                pos: start,
                message: format!("{} programs ({other:?} stage)", p.header.text()),
            })
        }
    };
    let mut cx = Ctx {
        nv: p,
        stage,
        out: Program::new(ir_stage),
        vars: HashMap::new(),
        names: NameMap::default(),
        counts: HashMap::new(),
        next_temp: 0,
        max_temp: 0,
        imms: HashMap::new(),
        lit_arrays: HashMap::new(),
        cc_base: None,
        redirect: None,
        pos: start,
        calls: Vec::new(),
        fault: options.fault,
    };
    // Pass 1: declarations (they precede their uses, §2.X.3).
    for (i, st) in p.statements.iter().enumerate() {
        cx.pos = p.source_map.statements.get(i).copied().unwrap_or_default();
        if let Statement::Decl(d) = st {
            cx.declare(d)?;
        }
    }
    let uses_cc = p.instructions().any(|i| {
        i.mods.cc.is_some() || i.cond.is_some() || i.dst.as_ref().is_some_and(|d| d.cc.is_some())
    });
    if uses_cc {
        cx.cc_base = Some(cx.next_temp);
        cx.next_temp += 8;
    }
    cx.max_temp = cx.next_temp;
    if p.header.is_arb() {
        cx.arb_undefined_temps();
    }
    // Pass 2: instructions, by label region (NOTES.md §8): execution starts at `main` if
    // there is such a label, else at the first instruction; a label ends the region.
    let mut regions: Vec<(Option<String>, Vec<usize>)> = vec![(None, Vec::new())];
    for (i, st) in p.statements.iter().enumerate() {
        match st {
            Statement::Label(l) => regions.push((Some(l.name.clone()), Vec::new())),
            Statement::Insn(_) => regions.last_mut().expect("non-empty").1.push(i),
            Statement::Decl(_) => {}
        }
    }
    let has_main = regions.iter().any(|(n, _)| n.as_deref() == Some("main"));
    let main_idx = if has_main {
        regions
            .iter()
            .position(|(n, _)| n.as_deref() == Some("main"))
            .unwrap_or(0)
    } else {
        0
    };
    // §2.X.5: main runs "until either a RET instruction is issued in the main subroutine
    // or the end of the program text is reached", while a subroutine block ends at the
    // next label. Whether main continues through a label is not clear from the text, so a
    // main that can reach a label with instructions after it is refused.
    let ends_with_ret = regions[main_idx].1.last().is_some_and(|&i| {
        matches!(&p.statements[i], Statement::Insn(insn)
            if insn.opcode == super::NvOpcode::Ret
                && insn.cond.is_none_or(|c| c.cond == ast::CondCode::Tr))
    });
    if !ends_with_ret {
        if let Some((label, _)) = regions[main_idx + 1..]
            .iter()
            .find(|(_, insns)| !insns.is_empty())
        {
            let label = label.clone().unwrap_or_default();
            let at = p
                .statements
                .iter()
                .position(|s| matches!(s, Statement::Label(l) if l.name == label))
                .and_then(|i| p.source_map.statements.get(i).copied())
                .unwrap_or(start);
            return Err(LowerError::Unsupported {
                pos: at,
                message: format!(
                    "label `{label}`: the main program can run into it (falling through a label is not lowered; NV_gpu_program4 §2.X.5)"
                ),
            });
        }
    }
    cx.lower_region(&regions[main_idx].1)?;
    cx.emit(Opcode::END, vec![], vec![]);
    let mut subs: HashMap<String, u32> = HashMap::new();
    let mut done = vec![false; regions.len()];
    done[main_idx] = true;
    // Subroutines are emitted on demand (only called ones), each once.
    let mut k = 0;
    while k < cx.calls.len() {
        let label = cx.calls[k].1.clone();
        k += 1;
        if subs.contains_key(&label) {
            continue;
        }
        let Some(r) = regions
            .iter()
            .position(|(n, _)| n.as_deref() == Some(label.as_str()))
        else {
            return Err(cx.unsupported(format!("CAL to unknown label `{label}`")));
        };
        subs.insert(label.clone(), cx.out.instructions.len() as u32);
        done[r] = true;
        cx.emit(Opcode::BGNSUB, vec![], vec![]);
        cx.lower_region(&regions[r].1)?;
        cx.emit(Opcode::RET, vec![], vec![]);
        cx.emit(Opcode::ENDSUB, vec![], vec![]);
    }
    for (at, label) in std::mem::take(&mut cx.calls) {
        cx.out.instructions[at].label = subs.get(&label).copied();
    }
    cx.finish();
    // The parser checks the block structure (IF/REP nesting, blocks within one label's
    // code); a lowered program that is still not valid IR is a limit of the lowering,
    // reported as such rather than handed to an engine.
    if let Err(e) = crate::validate::validate(&cx.out, "") {
        return Err(LowerError::Unsupported {
            pos: start,
            message: format!("the lowered program is not valid IR: {}", e.message),
        });
    }
    super::origin::NvOrigin::attach(&mut cx.out, p, &cx.names, stage);
    Ok(Lowered {
        program: cx.out,
        names: cx.names,
        stage,
    })
}

impl Ctx<'_> {
    /// An [`LowerError::Unsupported`] at the current statement.
    pub fn unsupported(&self, message: String) -> LowerError {
        LowerError::Unsupported {
            pos: self.pos,
            message,
        }
    }

    /// An [`LowerError::Invalid`] at the current statement.
    pub fn invalid(&self, message: String) -> LowerError {
        LowerError::Invalid {
            pos: self.pos,
            message,
        }
    }

    fn lower_region(&mut self, stmts: &[usize]) -> Result<(), LowerError> {
        for &i in stmts {
            self.pos = self
                .nv
                .source_map
                .statements
                .get(i)
                .copied()
                .unwrap_or_default();
            if let Statement::Insn(insn) = &self.nv.statements[i] {
                self.lower_insn(insn)?;
            }
        }
        Ok(())
    }

    /// Appends one IR instruction at the current statement's position; returns its index.
    pub fn emit(&mut self, op: Opcode, dst: Vec<ir::Dst>, src: Vec<ir::Src>) -> usize {
        self.push(Instruction::new(op, dst, src))
    }

    /// Appends a prepared instruction; returns its index.
    pub fn push(&mut self, insn: Instruction) -> usize {
        self.out.instructions.push(insn);
        self.out.source_map.instructions.push(self.pos);
        self.out.instructions.len() - 1
    }

    /// A fresh hidden TEMP register (not visible to the program).
    pub fn hidden(&mut self) -> Register {
        let r = Register::new(File::Temp, self.next_temp as i32);
        self.next_temp += 1;
        r
    }

    /// Releases hidden temps allocated after `mark` (they are dead after one instruction).
    pub fn release(&mut self, mark: u32) {
        self.max_temp = self.max_temp.max(self.next_temp);
        self.next_temp = mark;
    }

    /// An IMM register holding `words` (deduplicated).
    pub fn imm(&mut self, words: [u32; 4]) -> Register {
        if let Some(&i) = self.imms.get(&words) {
            return Register::new(File::Immediate, i as i32);
        }
        let i = self.out.immediates.len() as u32;
        self.out.immediates.push(Immediate {
            ty: ImmType::U32,
            words,
        });
        self.imms.insert(words, i);
        Register::new(File::Immediate, i as i32)
    }

    /// A register of `file` for binding text `name`, allocating it on first use.
    fn binding_reg(&mut self, file: File, name: &str) -> u32 {
        let key = canonical_name(self.stage, name);
        if let Some(&(_, _, i)) = self
            .names
            .entries
            .iter()
            .find(|(n, f, _)| *n == key && *f == file)
        {
            return i;
        }
        let c = self.counts.entry(file).or_insert(0);
        let i = *c;
        *c += 1;
        self.names.entries.push((key, file, i));
        i
    }

    /// The IR file of a binding by its root (§2.X.3.2-4): inputs, results, parameters.
    fn binding_file(&self, b: &Binding) -> Result<File, LowerError> {
        match b.root() {
            "vertex" | "fragment" if b.segments[0].index.is_empty() => Ok(File::Input),
            "result" => Ok(File::Output),
            "program" | "state" if b.segments.get(1).map(|s| s.name.as_str()) != Some("buffer") => {
                Ok(File::Const)
            }
            _ => Err(self.unsupported(format!("binding `{}`", binding_text(b)))),
        }
    }

    /// Expands a binding to its vec4 bindings: `[a..b]` ranges and whole matrices
    /// (`state.matrix.mvp` is its four rows, ARB_vertex_program §2.14.3.1).
    fn expand(&self, b: &Binding) -> Vec<Binding> {
        for (si, seg) in b.segments.iter().enumerate() {
            for (ii, ix) in seg.index.iter().enumerate() {
                if let Index::Range(lo, hi) = *ix {
                    return (lo..=hi)
                        .flat_map(|k| {
                            let mut c = b.clone();
                            c.segments[si].index[ii] = Index::Abs(k);
                            self.expand(&c)
                        })
                        .collect();
                }
            }
        }
        let path = b.path();
        if path.starts_with("state.matrix") && !b.segments.iter().any(|s| s.name == "row") {
            return (0..4)
                .map(|k| {
                    let mut c = b.clone();
                    c.segments.push(ast::Segment {
                        name: "row".into(),
                        index: vec![Index::Abs(k)],
                    });
                    c
                })
                .collect();
        }
        vec![b.clone()]
    }

    /// The elements of a whole binding (all vec4s it covers).
    pub fn binding_elems(&mut self, b: &Binding) -> Result<Vec<Elem>, LowerError> {
        let file = self.binding_file(b)?;
        let mut v = Vec::new();
        for e in self.expand(b) {
            let i = self.binding_reg(file, &binding_text(&e));
            v.push(Elem::Reg(file, i));
        }
        Ok(v)
    }

    fn declare(&mut self, d: &Declaration) -> Result<(), LowerError> {
        match d {
            Declaration::Temp { mods, vars } => {
                if mods.size == Some(ast::VarSize::Long) {
                    return Err(self.unsupported("LONG TEMP (64-bit variables)".into()));
                }
                for v in vars {
                    let base = self.next_temp;
                    let size = v.size.unwrap_or(1).max(1);
                    if size > MAX_TEMPS || self.next_temp + size > MAX_TEMPS {
                        return Err(self.unsupported(format!(
                            "TEMP `{}`: more than {MAX_TEMPS} temporaries",
                            v.name
                        )));
                    }
                    self.next_temp += size;
                    self.vars.insert(v.name.clone(), Var::Temp { base });
                }
            }
            Declaration::Address { names } => {
                for n in names {
                    let c = self.counts.entry(File::Address).or_insert(0);
                    let i = *c;
                    *c += 1;
                    self.vars.insert(n.clone(), Var::Addr(i));
                }
            }
            Declaration::Alias { name, target } => {
                let v = self.vars.get(target).cloned().ok_or_else(|| {
                    self.invalid(format!("ALIAS of undeclared variable `{target}`"))
                })?;
                self.vars.insert(name.clone(), v);
            }
            Declaration::Bound(b) => {
                use ast::DeclKind::*;
                if !matches!(b.kind, Attrib | Param | Output) {
                    return Err(self.unsupported(format!("{} declarations", b.kind)));
                }
                if b.mods.size == Some(ast::VarSize::Long) {
                    return Err(self.unsupported("LONG variables (64-bit)".into()));
                }
                let mut elems = Vec::new();
                for item in &b.init {
                    match item {
                        InitItem::Binding(bd) => elems.extend(self.binding_elems(bd)?),
                        InitItem::Vector(v) => elems.push(Elem::Lit(v.clone())),
                        InitItem::Scalar(s) => elems.push(Elem::Lit(vec![s.clone(); 4])),
                    }
                }
                if b.dims.is_empty() {
                    if let Some(Elem::Reg(f, i)) = elems.first() {
                        let (f, i) = (*f, *i);
                        self.names.entries.push((b.name.clone(), f, i));
                    }
                }
                self.vars.insert(b.name.clone(), Var::Elems(elems));
            }
            Declaration::SubroutineType { .. } => {
                return Err(self.unsupported("SUBROUTINETYPE (ARB_shader_subroutine)".into()))
            }
        }
        Ok(())
    }

    /// Resolves a variable reference to a register or a literal (`Err` naming it when not
    /// supported). Relative indices need a contiguous register array.
    pub fn resolve(&mut self, r: &VarRef) -> Result<Elem, LowerError> {
        match r {
            VarRef::Binding(b) => {
                let e = self.binding_elems(b)?;
                if e.len() != 1 {
                    return Err(self.unsupported(format!(
                        "binding `{}` used as an operand covers {} vectors",
                        binding_text(b),
                        e.len()
                    )));
                }
                Ok(e.into_iter().next().expect("one"))
            }
            VarRef::Var { name, index } => {
                let var = self
                    .vars
                    .get(name)
                    .cloned()
                    .ok_or_else(|| self.invalid(format!("undeclared variable `{name}`")))?;
                if index.len() > 1 {
                    return Err(self.unsupported(format!("2-D index of `{name}`")));
                }
                match (var, index.first()) {
                    (Var::Addr(i), None) => Ok(Elem::Reg(File::Address, i)),
                    (Var::Temp { base }, None) => Ok(Elem::Reg(File::Temp, base)),
                    (Var::Temp { base }, Some(Index::Abs(k))) => {
                        Ok(Elem::Reg(File::Temp, base.saturating_add(*k)))
                    }
                    (Var::Elems(e), None) => e
                        .first()
                        .cloned()
                        .ok_or_else(|| self.invalid(format!("empty variable `{name}`"))),
                    (Var::Elems(e), Some(Index::Abs(k))) => {
                        e.get(*k as usize).cloned().ok_or_else(|| {
                            self.invalid(format!("index {k} out of bounds of `{name}`"))
                        })
                    }
                    (_, Some(Index::Rel(_))) => Err(self
                        .unsupported(format!("relative addressing of `{name}` (use resolve_rel)"))),
                    _ => Err(self.invalid(format!("bad index of `{name}`"))),
                }
            }
        }
    }

    /// Resolves `name[var.c + k]` to an indirect IR register when `name` is a TEMP array or
    /// an array of consecutive registers of one file (ARB_vertex_program §2.14.1.3;
    /// NV_gpu_program4 §2.X.4.2 "relative addressing"). An array of constants only
    /// (`PARAM arr[3] = { {..}, {..}, {..} };`) read as `ty` becomes consecutive IMMs.
    pub fn resolve_rel(
        &mut self,
        r: &VarRef,
        ty: Option<BaseType>,
    ) -> Result<Option<Register>, LowerError> {
        let VarRef::Var { name, index } = r else {
            return Ok(None);
        };
        let Some(Index::Rel(rel)) = index.first() else {
            return Ok(None);
        };
        let (file, base) = match self.vars.get(name).cloned() {
            Some(Var::Temp { base }) => (File::Temp, base),
            Some(Var::Elems(e)) => {
                let regs: Vec<(File, u32)> = e
                    .iter()
                    .filter_map(|x| match x {
                        Elem::Reg(f, i) => Some((*f, *i)),
                        Elem::Lit(_) => None,
                    })
                    .collect();
                let all_lit = e.iter().all(|x| matches!(x, Elem::Lit(_)));
                if let (true, Some(ty)) = (all_lit && !e.is_empty(), ty) {
                    let key = (name.clone(), ty);
                    let base = match self.lit_arrays.get(&key) {
                        Some(&b) => b,
                        None => {
                            let b = self.out.immediates.len() as u32;
                            for x in &e {
                                if let Elem::Lit(v) = x {
                                    let words = self.lit_words(v, ty)?;
                                    self.out.immediates.push(crate::program::Immediate {
                                        ty: ImmType::U32,
                                        words,
                                    });
                                }
                            }
                            self.lit_arrays.insert(key, b);
                            b
                        }
                    };
                    return self.indirect(File::Immediate, base, rel).map(Some);
                }
                let contiguous = regs.len() == e.len()
                    && !regs.is_empty()
                    && regs
                        .iter()
                        .enumerate()
                        .all(|(k, &(f, i))| f == regs[0].0 && i == regs[0].1 + k as u32);
                if !contiguous {
                    return Err(self.unsupported(format!(
                        "relative addressing of `{name}` (its elements are not consecutive bindings)"
                    )));
                }
                regs[0]
            }
            _ => return Err(self.unsupported(format!("relative addressing of `{name}`"))),
        };
        self.indirect(file, base, rel).map(Some)
    }

    /// `file[base + rel.var.c + rel.offset]` with the index variable's IR register.
    fn indirect(&self, file: File, base: u32, rel: &ast::RelIndex) -> Result<Register, LowerError> {
        let (ifile, iidx) = match self.vars.get(&rel.var) {
            Some(Var::Addr(i)) => (File::Address, *i),
            Some(Var::Temp { base }) => (File::Temp, *base),
            _ => {
                return Err(self.unsupported(format!(
                    "relative index held in `{}` (only ADDRESS and TEMP variables)",
                    rel.var
                )))
            }
        };
        Ok(Register {
            file,
            index: ir::Index {
                value: (base as i32).wrapping_add(rel.offset),
                indirect: Some(ir::Indirect {
                    file: ifile,
                    index: iidx as i32,
                    component: rel.comp,
                }),
                array_id: 0,
            },
            dimension: None,
        })
    }

    /// The four words of literal components read as `ty` (missing y, z, w are 0, 0, 1,
    /// §2.X.4.2; integers from float literals are load errors).
    pub fn lit_words(&self, comps: &[SignedLit], ty: BaseType) -> Result<[u32; 4], LowerError> {
        let mut w = [0u32; 4];
        for (k, slot) in w.iter_mut().enumerate() {
            let default = if k == 3 { 1 } else { 0 };
            *slot = match comps.get(k) {
                Some(c) => self.lit_word(&c.lit, c.neg, ty)?,
                None => match ty {
                    BaseType::F => (default as f32).to_bits(),
                    _ => default,
                },
            };
        }
        Ok(w)
    }

    /// One literal as a word of type `ty`.
    pub fn lit_word(&self, lit: &ast::Literal, neg: bool, ty: BaseType) -> Result<u32, LowerError> {
        match (ty, lit) {
            (BaseType::F, l) => {
                let v = l.to_f32();
                Ok(if neg { -v } else { v }.to_bits())
            }
            (_, ast::Literal::Int { value, .. }) => {
                let v = *value as u32;
                if ty == BaseType::U && neg && v != 0 {
                    return Err(self.invalid(
                        "negative literal where an unsigned integer is required (§2.X.4.2)".into(),
                    ));
                }
                if *value > u32::MAX as u64 {
                    return Err(self.invalid(format!("integer literal {value} out of range")));
                }
                Ok(if neg { v.wrapping_neg() } else { v })
            }
            (_, ast::Literal::Float(t)) => Err(self.invalid(format!(
                "float literal {t} where an integer is required (§2.X.4.2)"
            ))),
        }
    }

    /// A register for a source base read as `ty` (literals become IMM).
    pub fn src_reg(&mut self, base: &SrcBase, ty: BaseType) -> Result<Register, LowerError> {
        match base {
            SrcBase::Scalar(l) => {
                let w = self.lit_word(l, false, ty)?;
                Ok(self.imm([w; 4]))
            }
            SrcBase::Vector(v) => {
                let w = self.lit_words(v, ty)?;
                Ok(self.imm(w))
            }
            SrcBase::Ref(r) => {
                if let Some(reg) = self.resolve_rel(r, Some(ty))? {
                    return Ok(reg);
                }
                match self.resolve(r)? {
                    Elem::Reg(f, i) => Ok(Register::new(f, i as i32)),
                    Elem::Lit(v) => {
                        let w = self.lit_words(&v, ty)?;
                        Ok(self.imm(w))
                    }
                }
            }
        }
    }

    /// Declares every register file used and the TEMPs (user and hidden).
    fn finish(&mut self) {
        self.max_temp = self.max_temp.max(self.next_temp);
        let mut decls = Vec::new();
        for file in [File::Input, File::Output, File::Const, File::Address] {
            if let Some(&n) = self.counts.get(&file) {
                if n > 0 {
                    decls.push(ir::Declaration::new(file, 0, n - 1));
                }
            }
        }
        if self.max_temp > 0 {
            decls.push(ir::Declaration::new(File::Temp, 0, self.max_temp - 1));
        }
        self.out.source_map.declarations = vec![Pos::default(); decls.len()];
        self.out.declarations = decls;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(text: &str) -> Lowered {
        lower(&crate::nv::parse(text, "t.nv").expect("parses")).expect("lowers")
    }

    #[test]
    fn equivalent_binding_spellings_name_one_register() {
        // ARB_fragment_program Table X.2: fragment.texcoord is fragment.texcoord[0];
        // fragment.color is fragment.color.primary.
        let l = lowered(
            "!!ARBfp1.0\nATTRIB tc = fragment.texcoord;\nADD result.color, tc, fragment.color.primary;\nEND\n",
        );
        let s = NvStage::Fragment;
        assert_eq!(
            l.names.lookup(s, "fragment.texcoord[0]"),
            Some((File::Input, 0))
        );
        assert_eq!(
            l.names.lookup(s, "fragment.texcoord"),
            Some((File::Input, 0))
        );
        assert_eq!(l.names.lookup(s, "tc"), Some((File::Input, 0)));
        assert_eq!(l.names.lookup(s, "fragment.color"), Some((File::Input, 1)));
        assert_eq!(l.names.lookup(s, "result.color"), Some((File::Output, 0)));
        assert_eq!(
            l.names.name_of(File::Input, 0),
            Some("fragment.texcoord[0]")
        );
        assert_eq!(l.names.lookup(s, "fragment.texcoord[1]"), None);
    }

    #[test]
    fn parameter_ranges_and_matrices_are_consecutive_constants() {
        // ARB_vertex_program §2.14.3.1: a matrix binding is its four rows.
        let l = lowered(
            "!!ARBvp1.0\nPARAM m[4] = { state.matrix.mvp };\nPARAM c[2] = { program.local[0..1] };\nDP4 result.position.x, m[1], c[1];\nEND\n",
        );
        let s = NvStage::Vertex;
        assert_eq!(
            l.names.lookup(s, "state.matrix.mvp.row[1]"),
            Some((File::Const, 1))
        );
        assert_eq!(
            l.names.lookup(s, "program.local[1]"),
            Some((File::Const, 5))
        );
        assert_eq!(l.program.decls(File::Const).next().map(|d| d.last), Some(5));
    }

    #[test]
    fn integer_sad_carry_flags_are_refused_at_their_position() {
        let p = crate::nv::parse(
            "!!NVvp5.0\nTEMP t;\n\n   SAD.S.CC t, t, t, t;\nEND\n",
            "t.nv",
        )
        .expect("parses");
        let e = lower(&p).expect_err("refused");
        assert!(matches!(e, LowerError::Unsupported { .. }));
        assert_eq!(e.pos(), Pos { line: 4, col: 4 });
        assert!(e.to_string().starts_with("4:4: unsupported: SAD"), "{e}");
    }
}
