//! Lowering of NV / ARB assembly ([`NvProgram`]) to the shared IR ([`Program`]), so that
//! every engine runs NV programs without knowing about them.
//!
//! What is lowered (NV_gpu_program4 §2.X, NV_gpu_program5 Table X.13, ARB_vertex_program
//! §2.14.5, ARB_fragment_program §3.11.5): vertex, fragment, compute, geometry and
//! tessellation evaluation programs (`lower_stage.rs`, `lower_emit.rs`: NV_geometry_program4,
//! NV_tessellation_program5, EMIT / EMITS / ENDPRIM) made of the ALU
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
//! 64-bit types (LONG TEMPs, F64 / S64 / U64, PK64, UP64, CVT to and from 64 bits) are
//! lowered in `lower_wide.rs`; compute programs (`GROUP_SIZE`, `invocation.*` → SV) in
//! `lower_start.rs`; global memory (LOAD, STORE, ATOM, MEMBAR), shared memory (LDS, STS,
//! ATOMS, BAR), LDC on CBUFFER variables and LDB / STB / ATOMB on STORAGE variables in
//! `lower_mem.rs`; the thread-group votes TGALL / TGANY / TGEQ in `lower_vote.rs`; BRA
//! (NV_vertex_program2_option) through a per-invocation program counter in
//! `lower_branch.rs`.
//!
//! CVT to and from F16 and the F16 storage modifiers are `lower_f16.rs`'s; CVT.SAT to 32- and
//! 64-bit integers `lower_cvt_sat.rs`'s; ATOM.DWRAP is a compare-and-swap loop
//! (`lower_mem.rs`); a vertex program's `LONG ATTRIB` is two inputs copied into a LONG
//! TEMP pair (`lower_vars.rs`); CALI through SUBROUTINE variables is `lower_cali.rs`'s.
//!
//! Everything else — textures and images outside the texture model, F16 with 64-bit types,
//! 64-bit and F16 atomics, LONG ATTRIB arrays, the carry and overflow flags of integer SAD and of
//! ADD / SUB / MAD with a negated operand, tessellation control programs — is refused with
//! [`LowerError::Unsupported`] naming the instruction and its position, never lowered
//! approximately.

use std::collections::HashMap;

use super::ast::{self, BaseType, NvProgram, NvStage, SignedLit, Statement};
use crate::names::{File, ImmType};
use crate::opcode::Opcode;
use crate::program::{self as ir, Immediate, Instruction, Pos, Program, Register};

/// Most TEMP vectors a lowered program may declare (user arrays included).
pub(super) const MAX_TEMPS: u32 = 65536;

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
    /// Compute programs with shared memory: its size in bytes (`SHARED_MEMORY`,
    /// NV_compute_program5 §2.X.3.5); the window is the `MEMORY` register named
    /// `program.sharedmem` in [`NameMap::entries`].
    pub shared_memory: Option<u32>,
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
    // ARB_fragment_program <texImageUnit>: `texture` is `texture[0]`.
    if s == "texture" {
        s = "texture[0]".to_string();
    }
    if stage == NvStage::Fragment && s == "result.color[0]" {
        s = "result.color".to_string();
    }
    s
}

/// `reg` read with `swizzle`, no modifiers.
pub(super) fn src(reg: Register, swizzle: [u8; 4]) -> ir::Src {
    ir::Src {
        reg,
        swizzle,
        abs: false,
        neg: false,
    }
}

/// `reg` written under `writemask`.
pub(super) fn dst(reg: Register, writemask: u8) -> ir::Dst {
    ir::Dst { reg, writemask }
}

/// Source `s` with its channel `k` replicated.
pub(super) fn chan(s: ir::Src, k: usize) -> ir::Src {
    ir::Src {
        swizzle: [s.swizzle[k]; 4],
        ..s
    }
}

/// One element of a variable: a register or, for constant `PARAM`s, literal components.
#[derive(Clone, Debug)]
pub(super) enum Elem {
    /// An IR register.
    Reg(File, u32),
    /// `{a, b, c, d}` (1 to 4 components; typed at the use).
    Lit(Vec<SignedLit>),
    /// One vector of a `LONG TEMP` (four 64-bit components): components x and y are the
    /// pairs `TEMP[i].xy` and `TEMP[i].zw`, components z and w those of `TEMP[i + 1]`
    /// (the TGSI layout of 64-bit values, tgsi.rst "Double ISA"; see `lower_wide.rs`).
    Long(u32),
}

/// What a declared name stands for.
#[derive(Clone, Debug)]
pub(super) enum Var {
    /// TEMP array starting at a TEMP index.
    Temp { base: u32 },
    /// `LONG TEMP` array starting at a TEMP index, two TEMPs per element ([`Elem::Long`]).
    LongTemp { base: u32 },
    /// `LONG ATTRIB` of a vertex program (NV_gpu_program5 issue 6): read like a `LONG
    /// TEMP` at `base`, which the program's prologue fills from its two input registers
    /// (the parser rejects writes to attributes).
    LongAttrib { base: u32 },
    /// `SHARED` variable: the byte offset of its first element in shared memory
    /// (NV_compute_program5 §2.X.3.7; `lower_mem.rs`).
    Shared { offset: u32 },
    /// `CBUFFER` variable (NV_parameter_buffer_object2 §2.X.3.6): the IR `BUFFER` holding
    /// its binding point's bytes and the byte offset of its first element.
    CBuffer { buffer: u32, offset: u32 },
    /// `STORAGE` variable (NV_shader_storage_buffer_object §2.X.3.7): like
    /// [`Var::CBuffer`] over `program.storage[a]`, writable by STB and ATOMB.
    Storage { buffer: u32, offset: u32 },
    /// `IMAGE` variable (EXT_shader_image_load_store): the image unit of each element
    /// (`lower_image.rs`).
    Image { units: Vec<u32> },
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
    /// `IN` registers of fragment ATTRIB variables declared FLAT (declared CONSTANT, so
    /// IPAC / IPAO / IPAS evaluate them "normally": the same value everywhere).
    pub flat_inputs: std::collections::BTreeSet<u32>,
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
    /// The global memory window (`MEMORY` index, `global.base` CONST index), once a memory
    /// instruction uses it (`lower_mem.rs`).
    pub global: Option<(u32, u32)>,
    /// The shared memory window's `MEMORY` index, once LDS / STS / ATOMS use it.
    pub shared: Option<u32>,
    /// Geometry program state (`lower_stage.rs`).
    pub stage_state: super::lower_stage::StageState,
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
    let ir_stage = super::lower_stage::ir_stage(p, start)?;
    let mut cx = Ctx {
        nv: p,
        stage,
        out: Program::new(ir_stage),
        vars: HashMap::new(),
        names: NameMap::default(),
        counts: HashMap::new(),
        next_temp: 0,
        max_temp: 0,
        flat_inputs: Default::default(),
        imms: HashMap::new(),
        lit_arrays: HashMap::new(),
        cc_base: None,
        redirect: None,
        pos: start,
        calls: Vec::new(),
        fault: options.fault,
        global: None,
        shared: None,
        stage_state: Default::default(),
    };
    cx.program_declarations()?;
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
    cx.undefined_temp_start();
    if cx.has_branches() {
        // BRA (NV_vertex_program2_option): labels are branch targets, not region ends.
        cx.lower_with_branches()?;
        return cx.complete(p, stage, start);
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
    cx.complete(p, stage, start)
}

impl Ctx<'_> {
    /// The last steps of [`lower`]: declarations, stage properties, IR validation, origin.
    fn complete(
        mut self,
        p: &NvProgram,
        stage: NvStage,
        start: Pos,
    ) -> Result<Lowered, LowerError> {
        let cx = &mut self;
        cx.finish();
        cx.finish_stage();
        if !p.header.is_arb() {
            cx.undefined_result_start();
        }
        // The parser checks the block structure (IF/REP nesting, blocks within one label's
        // code); a lowered program that is still not valid IR is a limit of the lowering,
        // reported as such rather than handed to an engine.
        if let Err(e) = crate::validate::validate(&cx.out, "") {
            return Err(LowerError::Unsupported {
                pos: start,
                message: format!("the lowered program is not valid IR: {}", e.message),
            });
        }
        super::origin::NvOrigin::attach(&mut self.out, p, &self.names, stage);
        Ok(Lowered {
            program: self.out,
            names: self.names,
            stage,
        })
    }

    /// The source position of statement `i`.
    pub(super) fn stmt_pos(&self, i: usize) -> Pos {
        self.nv
            .source_map
            .statements
            .get(i)
            .copied()
            .unwrap_or_default()
    }
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

    /// `IN[0..n-1]` in runs of equal flatness, the FLAT ones CONSTANT-interpolated.
    fn input_declarations(&self, n: u32) -> Vec<ir::Declaration> {
        let mut decls: Vec<ir::Declaration> = Vec::new();
        for i in 0..n {
            let flat = self.flat_inputs.contains(&i);
            let interp = flat.then_some(crate::names::Interpolation::Constant);
            match decls.last_mut() {
                Some(d) if d.interpolation == interp => d.last = i,
                _ => {
                    let mut d = ir::Declaration::new(File::Input, i, i);
                    d.interpolation = interp;
                    decls.push(d);
                }
            }
        }
        decls
    }

    /// Declares every register file used and the TEMPs (user and hidden).
    fn finish(&mut self) {
        self.max_temp = self.max_temp.max(self.next_temp);
        let mut decls = Vec::new();
        for file in [
            File::Input,
            File::Output,
            File::Const,
            File::Address,
            File::Buffer,
        ] {
            if let Some(&n) = self.counts.get(&file) {
                if file == File::Input && !self.flat_inputs.is_empty() {
                    decls.extend(self.input_declarations(n));
                    continue;
                }
                if n > 0 {
                    let mut d = ir::Declaration::new(file, 0, n - 1);
                    if file == File::Buffer {
                        d.resource = Some(ir::Resource::Buffer { atomic: false });
                    }
                    decls.push(d);
                }
            }
        }
        decls.extend(self.system_value_declarations());
        if self.max_temp > 0 {
            decls.push(ir::Declaration::new(File::Temp, 0, self.max_temp - 1));
        }
        decls.extend(self.memory_declarations());
        // Texture units (SAMP / SVIEW), declared as the instructions were lowered
        // (lower_tex.rs).
        decls.extend(
            self.out
                .declarations
                .iter()
                .filter(|d| matches!(d.file, File::Sampler | File::SamplerView))
                .cloned(),
        );
        self.out.source_map.declarations = vec![Pos::default(); decls.len()];
        self.out.declarations = decls;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(text: &str) -> Lowered {
        lower(&crate::parse(text, "t.nv").expect("parses")).expect("lowers")
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
        let p = crate::parse(
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
