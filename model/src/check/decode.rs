//! Pre-decoding: the program turned once into what the execution loop needs — operand
//! storage slots, fetch types, control-flow partners — and checked for everything the
//! interpreter does not support before any invocation runs.

use shaderdiff_model::{
    File, Opcode, OutputMode, Pos, Program, Register, Saturate, Src, Stage, Structure,
};

use super::alu;
use super::layout::{storage_of, Layout, Storage};
use super::memory::{mem_op, MemOp, MemRef, ResourceDecl};
use super::texture::{TexOp, TexRef, TexUse};
use super::vote::VoteOp;
use super::ExecError;
use super::FetchType;
use crate::io::RegKey;

/// Where an operand lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// The NULL destination: writes are discarded.
    Null,
    /// A lane-storage slot.
    Lane(u32),
    /// A uniform-storage slot.
    Uniform(u32),
    /// An indirect reference: index into [`Decoded::indirects`].
    Indirect(u32),
}

/// The address register of an indirect index: a direct register and a component.
#[derive(Clone, Copy, Debug)]
pub struct AddrRef {
    /// Where the address register lives.
    pub loc: Loc,
    /// Its component (0 = x ... 3 = w).
    pub comp: u8,
}

/// An indirectly addressed register: `space[dim (+ADDR)][index (+ADDR)]`.
#[derive(Clone, Copy, Debug)]
pub struct IndirectRef {
    /// Index into `Layout::spaces`; `None` when the file has no registers at all.
    pub space: Option<usize>,
    /// Literal dimension (0 for 1-D names), the offset when `dim_addr` is set.
    pub dim: i64,
    /// Address register added to the dimension, if any.
    pub dim_addr: Option<AddrRef>,
    /// Literal index, the offset when `index_addr` is set.
    pub index: i64,
    /// Address register added to the index, if any.
    pub index_addr: Option<AddrRef>,
    /// Index range of the `ARRAY(n)` declaration the operand names.
    pub range: Option<(u32, u32)>,
}

/// A decoded source operand.
#[derive(Clone, Copy, Debug)]
pub struct SrcOp {
    /// Where the operand lives.
    pub loc: Loc,
    /// Source component of each channel.
    pub swizzle: [u8; 4],
    /// `|src|`.
    pub abs: bool,
    /// `-src` (after `abs`).
    pub neg: bool,
    /// How `abs` and `neg` apply ([`crate::check::alu::fetch_type`]).
    pub ty: FetchType,
}

/// What an instruction does, as far as the execution loop is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Per-lane arithmetic evaluated by [`alu::eval`].
    Alu,
    /// DDX/DDY (`y`) coarse or `fine`.
    Deriv {
        /// DDY rather than DDX.
        y: bool,
        /// The `_FINE` form.
        fine: bool,
    },
    /// KILL: ends the invocation.
    Kill,
    /// KILL_IF: ends the invocation when a component is negative.
    KillIf,
    /// DEMOTE: the invocation becomes a helper.
    Demote,
    /// IF (`int == false`) / UIF; `target` = its ELSE or ENDIF.
    If {
        /// UIF (integer condition).
        int: bool,
        /// The matching ELSE or ENDIF.
        target: u32,
    },
    /// ELSE.
    Else {
        /// The matching ENDIF.
        endif: u32,
    },
    /// ENDIF.
    EndIf,
    /// BGNLOOP.
    BgnLoop {
        /// The matching ENDLOOP.
        endloop: u32,
    },
    /// ENDLOOP.
    EndLoop,
    /// BRK.
    Brk,
    /// CONT.
    Cont,
    /// `cases` = range of this switch's CASE operands in `Decoded::case_ops`.
    Switch {
        /// The matching ENDSWITCH.
        endswitch: u32,
        /// First of this switch's CASE operands in `Decoded::case_ops`.
        first_case: u32,
        /// Number of its CASE operands.
        num_cases: u32,
    },
    /// CASE.
    Case {
        /// Its position among its switch's CASEs.
        ordinal: u32,
    },
    /// DEFAULT.
    Default,
    /// ENDSWITCH.
    EndSwitch,
    /// CAL.
    Cal {
        /// The called BGNSUB.
        target: u32,
    },
    /// RET.
    Ret,
    /// BGNSUB.
    BgnSub,
    /// ENDSUB.
    EndSub,
    /// END.
    End,
    /// NOP and declarations-only opcodes: nothing to execute.
    Nop,
    /// EMIT (`end_prim == false`) or ENDPRIM, geometry programs only (`emit.rs`).
    Emit {
        /// ENDPRIM rather than EMIT.
        end_prim: bool,
    },
    /// LOAD, STORE, RESQ, ATOM*, BARRIER, MEMBAR (`memory_exec.rs`).
    Mem(MemOp),
    /// TEX, TXP, TXB, TXL, TXD, TXF, TXQ (`texture.rs`).
    Tex(TexOp),
    /// VOTE_ANY, VOTE_ALL, VOTE_EQ, READ_FIRST (`vote.rs`).
    Vote(VoteOp),
    /// INTERP_CENTROID, INTERP_SAMPLE, INTERP_OFFSET (`interpolate.rs`); `flat`: the
    /// source input is declared CONSTANT (flat), so every position gives its value.
    Interp {
        /// Where the attribute is evaluated.
        at: InterpAt,
        /// The input is declared CONSTANT.
        flat: bool,
    },
}

/// Where INTERP_* evaluates its attribute (tgsi.rst "Interpolation ISA").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpAt {
    /// INTERP_CENTROID.
    Centroid,
    /// INTERP_SAMPLE.
    Sample,
    /// INTERP_OFFSET.
    Offset,
}

impl Kind {
    /// Control-flow instructions must run even when no lane is active.
    pub fn is_control(self) -> bool {
        !matches!(
            self,
            Kind::Alu
                | Kind::Deriv { .. }
                | Kind::Kill
                | Kind::KillIf
                | Kind::Demote
                | Kind::Nop
                | Kind::Emit { .. }
                | Kind::Mem(_)
                | Kind::Tex(_)
                | Kind::Vote(_)
                | Kind::Interp { .. }
        )
    }
    /// Instructions that may change the execution mask (step accounting flushes first).
    pub fn changes_mask(self) -> bool {
        self.is_control() || matches!(self, Kind::Kill | Kind::KillIf)
    }
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct DInsn {
    /// The opcode.
    pub op: Opcode,
    /// What it does for the execution loop.
    pub kind: Kind,
    /// The destination (`Loc::Null` when it has none).
    pub dst: Loc,
    /// Destination channels written (bit c = channel c).
    pub writemask: u8,
    /// Decoded sources, in operand order.
    pub srcs: Vec<SrcOp>,
    /// `_SAT` / `.SSAT` on the result.
    pub saturate: Saturate,
    /// Channels of each source to fetch.
    pub fetch_mask: [u8; 4],
    /// Channels of each source a non-componentwise result depends on.
    pub read_mask: [u8; 4],
    /// Result channel c depends only on source channels c.
    pub componentwise: bool,
    /// Source position, when known.
    pub pos: Option<Pos>,
    /// The resource operand of a memory instruction.
    pub mem: Option<MemRef>,
    /// The texture operand of a texture instruction.
    pub tex: Option<TexRef>,
}

/// A program ready to run.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The program's stage.
    pub stage: Stage,
    /// Its register spaces and storage slots.
    pub layout: Layout,
    /// One decoded instruction per program instruction.
    pub insns: Vec<DInsn>,
    /// Indirect operands, referenced by `Loc::Indirect`.
    pub indirects: Vec<IndirectRef>,
    /// CASE operands of every SWITCH, grouped per switch in textual order.
    pub case_ops: Vec<SrcOp>,
    /// `next_control[i]`: first control-flow instruction at or after `i` (or the end).
    pub next_control: Vec<u32>,
    /// Initial uniform storage: IMM and IMMX values (CONST come from the inputs).
    pub uniform_init: Vec<[u32; 4]>,
    /// Output registers and their lane slots, sorted by key.
    pub outputs: Vec<(RegKey, u32)>,
    /// Declared BUFFER / MEMORY registers (for input checking).
    pub memory_regs: Vec<RegKey>,
    /// `GS_MAX_OUTPUT_VERTICES` (0 when absent): EMIT drops vertices past it.
    pub max_vertices: u32,
    /// Declared BUFFER / MEMORY resources (`memory.rs`).
    pub resources: Vec<ResourceDecl>,
    /// Invocations per workgroup ([`super::memory::workgroup_size`]).
    pub wg_size: u32,
    /// The program has STORE or ATOM* instructions.
    pub mem_writes: bool,
    /// Texture units and how the program uses them.
    pub textures: Vec<TexUse>,
}

fn invalid(pos: Option<Pos>, message: impl Into<String>) -> ExecError {
    ExecError::InvalidProgram {
        pos,
        message: message.into(),
    }
}

fn unsupported(op: Opcode, pos: Option<Pos>, reason: impl Into<String>) -> ExecError {
    ExecError::Unsupported {
        opcode: op,
        pos,
        reason: reason.into(),
    }
}

/// Channels of source `k` a replicated or channel-dependent result reads (after swizzle);
/// tgsi.rst per opcode, EXEC-NOTES.md §1. Unknown opcodes read everything.
fn read_mask(op: Opcode, k: usize) -> u8 {
    use Opcode::*;
    match (op, k) {
        (RCP | RSQ | SQRT | EX2 | LG2 | SIN | COS | POW | EXP | LOG | UP2H, _) => 0x1,
        (DP2 | PK2H | PK2US, _) => 0x3,
        (DP3 | XPD, _) => 0x7,
        (DPH, 0) => 0x7,
        (LIT, _) => 0xB,
        (DST, 0) => 0x6,
        (DST, _) => 0xA,
        _ => 0xF,
    }
}

fn is_64bit_op(op: Opcode) -> bool {
    let info = op.info();
    info.dst_type.is_some_and(|t| t.is_64bit())
        || info.src_types.iter().flatten().any(|t| t.is_64bit())
}

/// The decoder's state while it turns a program's instructions into [`DInsn`]s (used by
/// the per-kind decoders in [`super::memory`] and [`super::texture`]).
pub struct Decoder<'p> {
    program: &'p Program,
    layout: Layout,
    indirects: Vec<IndirectRef>,
}

impl Decoder<'_> {
    fn array_range(&self, file: File, array_id: u32) -> Option<(u32, u32)> {
        if array_id == 0 {
            return None;
        }
        self.program
            .decls(file)
            .find(|d| d.array_id == array_id)
            .map(|d| (d.first, d.last))
    }

    fn direct(&self, reg: &Register, pos: Option<Pos>) -> Result<Loc, ExecError> {
        let (s, slot) = self
            .layout
            .direct_slot(reg)
            .ok_or_else(|| invalid(pos, format!("{} register has no storage", reg.file)))?;
        let space = &self.layout.spaces[s];
        Ok(match space.storage {
            Storage::Lane => Loc::Lane(slot),
            Storage::Uniform => {
                let f = (slot - space.base) as usize;
                if matches!(reg.file, File::Immediate | File::ImmArray) && !space.declared[f] {
                    return Err(invalid(
                        pos,
                        format!("{}[{}] does not exist", reg.file, reg.index.value),
                    ));
                }
                Loc::Uniform(slot)
            }
        })
    }

    fn addr(
        &self,
        ind: &shaderdiff_model::Indirect,
        pos: Option<Pos>,
    ) -> Result<AddrRef, ExecError> {
        if ind.component > 3 {
            return Err(invalid(pos, "address component out of range"));
        }
        let loc = self.direct(&Register::new(ind.file, ind.index), pos)?;
        Ok(AddrRef {
            loc,
            comp: ind.component,
        })
    }

    /// Where register `reg` of instruction `op` lives (its storage slot or indirect
    /// reference). Errors: the operand checks of the module docs.
    pub fn loc(&mut self, reg: &Register, pos: Option<Pos>, op: Opcode) -> Result<Loc, ExecError> {
        if reg.file == File::Null {
            return Ok(Loc::Null);
        }
        if storage_of(reg.file).is_none() {
            return Err(unsupported(
                op,
                pos,
                format!("{} operands are not supported by the interpreter", reg.file),
            ));
        }
        if !reg.is_indirect() {
            return self.direct(reg, pos);
        }
        let dim = reg.dimension;
        let ind = IndirectRef {
            space: self.layout.space(reg.file, dim.is_some()),
            dim: dim.map_or(0, |d| d.value as i64),
            dim_addr: match dim.and_then(|d| d.indirect) {
                Some(a) => Some(self.addr(&a, pos)?),
                None => None,
            },
            index: reg.index.value as i64,
            index_addr: match reg.index.indirect {
                Some(a) => Some(self.addr(&a, pos)?),
                None => None,
            },
            range: self.array_range(reg.file, reg.index.array_id),
        };
        self.indirects.push(ind);
        Ok(Loc::Indirect(self.indirects.len() as u32 - 1))
    }

    /// Source operand `k` of `op`, decoded with its fetch type. Errors: as [`Self::loc`].
    pub fn src(
        &mut self,
        src: &Src,
        ty: FetchType,
        pos: Option<Pos>,
        op: Opcode,
    ) -> Result<SrcOp, ExecError> {
        let loc = self.loc(&src.reg, pos, op)?;
        if loc == Loc::Null {
            return Err(invalid(pos, "NULL cannot be read"));
        }
        if src.swizzle.iter().any(|&c| c > 3) {
            return Err(invalid(pos, "swizzle component out of range"));
        }
        Ok(SrcOp {
            loc,
            swizzle: src.swizzle,
            abs: src.abs,
            neg: src.neg,
            ty,
        })
    }
}

/// The kind of an instruction, or why it cannot run.
fn classify(
    program: &Program,
    st: &Structure,
    i: usize,
    pos: Option<Pos>,
) -> Result<Kind, ExecError> {
    use Opcode::*;
    let insn = &program.instructions[i];
    let op = insn.opcode;
    let partner = st.partner[i];
    let frag = program.stage == Stage::Fragment;
    let fragment_only = |k: Kind| {
        if frag {
            Ok(k)
        } else {
            Err(invalid(
                pos,
                format!("{op} is allowed in fragment programs only (tgsi.rst)"),
            ))
        }
    };
    Ok(match op {
        IF => Kind::If {
            int: false,
            target: partner,
        },
        UIF => Kind::If {
            int: true,
            target: partner,
        },
        ELSE => Kind::Else { endif: partner },
        ENDIF => Kind::EndIf,
        BGNLOOP => Kind::BgnLoop { endloop: partner },
        ENDLOOP => Kind::EndLoop,
        BRK => Kind::Brk,
        CONT => Kind::Cont,
        SWITCH => Kind::Switch {
            endswitch: partner,
            first_case: 0,
            num_cases: 0,
        },
        CASE => Kind::Case { ordinal: 0 },
        DEFAULT => Kind::Default,
        ENDSWITCH => Kind::EndSwitch,
        CAL => Kind::Cal { target: partner },
        RET => Kind::Ret,
        BGNSUB => Kind::BgnSub,
        ENDSUB => Kind::EndSub,
        END => Kind::End,
        NOP => Kind::Nop,
        EMIT | ENDPRIM => {
            if program.stage != Stage::Geometry {
                return Err(invalid(
                    pos,
                    format!(
                        "{op} is allowed in geometry programs only (tgsi.rst \"Geometry ISA\")"
                    ),
                ));
            }
            Kind::Emit {
                end_prim: op == ENDPRIM,
            }
        }
        KILL | KILP => fragment_only(Kind::Kill)?,
        KILL_IF | KIL => fragment_only(Kind::KillIf)?,
        DEMOTE => fragment_only(Kind::Demote)?,
        DDX | DDY | DDX_FINE | DDY_FINE => {
            if !frag {
                return Err(unsupported(
                    op,
                    pos,
                    "derivatives are only defined between the invocations of a fragment quad",
                ));
            }
            Kind::Deriv {
                y: matches!(op, DDY | DDY_FINE),
                fine: matches!(op, DDX_FINE | DDY_FINE),
            }
        }
        INTERP_CENTROID | INTERP_SAMPLE | INTERP_OFFSET => {
            fragment_only(super::interpolate::classify(program, i, pos)?)?
        }
        _ if alu::is_alu(op) => Kind::Alu,
        _ if VoteOp::of(op).is_some() => Kind::Vote(VoteOp::of(op).expect("checked")),
        _ if TexOp::of(op).is_some() => Kind::Tex(TexOp::of(op).expect("checked")),
        _ if mem_op(op).is_some() => {
            if op == BARRIER && !matches!(program.stage, Stage::Compute) {
                return Err(invalid(
                    pos,
                    "BARRIER is allowed in compute programs only (tgsi.rst \
                     \"Inter-thread synchronization opcodes\")",
                ));
            }
            Kind::Mem(mem_op(op).expect("checked"))
        }
        _ => {
            let what = if is_64bit_op(op) {
                "64-bit operations are not supported by the interpreter"
            } else if op.info().is_tex {
                "outside the interpreter's texture model (TEX, TXP, TXB, TXL, TXD, TXF, TXQ and \
                 TG4 are modelled)"
            } else {
                "not supported by the interpreter (image, texture, BALLOT/READ_INVOC (results \
                 depend on lane numbering) or unspecified operation)"
            };
            return Err(unsupported(op, pos, what));
        }
    })
}

fn fetch_type(kind: Kind, op: Opcode, k: usize) -> FetchType {
    match kind {
        Kind::Alu => alu::fetch_type(op, k),
        // tgsi.rst: UIF and SWITCH/CASE operands are integers; IF, KILL_IF, DDX are float.
        Kind::If { int: true, .. }
        | Kind::Switch { .. }
        | Kind::Case { .. }
        | Kind::Emit { .. } => FetchType::Int,
        // tgsi.rst INTERP_SAMPLE: src1.x "interpreted as an integer".
        Kind::Interp {
            at: InterpAt::Sample,
            ..
        } if k == 1 => FetchType::Int,
        _ => FetchType::Float,
    }
}

/// Decodes and checks `program`. Errors: [`ExecError::Unsupported`] (first unsupported
/// instruction), [`ExecError::InvalidProgram`] (structure, operands),
/// [`ExecError::UnsupportedFeature`].
pub fn decode(program: &Program) -> Result<Decoded, ExecError> {
    // Modifiers on 64-bit sources become explicit DABS/DNEG/I64ABS/I64NEG (their meaning is
    // resolved once, in shaderdiff_model::wide_modifiers).
    match shaderdiff_model::wide_modifiers::expand_source_modifiers(program) {
        Some(expanded) => decode_expanded(&expanded),
        None => decode_expanded(program),
    }
}

/// [`decode`] of a program without modifiers on 64-bit sources.
fn decode_expanded(program: &Program) -> Result<Decoded, ExecError> {
    let smap = &program.source_map;
    let st =
        Structure::analyse(program).map_err(|e| invalid(smap.instruction(e.index), e.message))?;
    // Supported-ness first, in program order, before anything else can fail.
    let mut kinds = Vec::with_capacity(program.instructions.len());
    for (i, insn) in program.instructions.iter().enumerate() {
        let pos = smap.instruction(i);
        if insn.cc_update.is_some() || insn.cond.is_some() {
            return Err(unsupported(
                insn.opcode,
                pos,
                "NV condition codes are not supported",
            ));
        }
        kinds.push(classify(program, &st, i, pos)?);
        if let Some(why) = alu::wide::unsupported_form(insn) {
            return Err(unsupported(insn.opcode, pos, why));
        }
    }
    let layout = Layout::build(program)?;
    let resources = super::memory::resources(program)?;
    let wg_size = super::memory::check_workgroups(program, &kinds)?;
    let mut dec = Decoder {
        program,
        layout,
        indirects: Vec::new(),
    };
    let mut insns = Vec::with_capacity(kinds.len());
    let mut textures = Vec::new();
    for (i, insn) in program.instructions.iter().enumerate() {
        let op = insn.opcode;
        let info = op.info();
        let pos = smap.instruction(i);
        let kind = kinds[i];
        if let Kind::Mem(mop) = kind {
            insns.push(super::memory::decode_insn(
                &mut dec, program, i, mop, &resources,
            )?);
            continue;
        }
        if let Kind::Tex(top) = kind {
            insns.push(super::texture::decode_insn(
                &mut dec,
                program,
                i,
                top,
                &mut textures,
            )?);
            continue;
        }
        // EMIT/ENDPRIM may omit their stream operand (stream 0).
        let optional = matches!(kind, Kind::Emit { .. }) && insn.src.is_empty();
        if (insn.src.len() < info.num_src as usize && !optional)
            || insn.dst.len() < info.num_dst as usize
        {
            return Err(invalid(pos, format!("{op} needs {} sources", info.num_src)));
        }
        let (dst, writemask) = match insn.dst.first() {
            Some(d) if info.num_dst > 0 => {
                let p = smap.operand(i, 0);
                let loc = dec.loc(&d.reg, p, op)?;
                if matches!(loc, Loc::Uniform(_))
                    || matches!(d.reg.file, File::Const | File::Immediate | File::ImmArray)
                {
                    return Err(invalid(p, format!("{} cannot be written", d.reg.file)));
                }
                (loc, d.writemask & 0xF)
            }
            _ => (Loc::Null, 0),
        };
        let nsrc = info.num_src as usize;
        if nsrc > 4 {
            return Err(invalid(pos, "more than four sources"));
        }
        let mut srcs = Vec::with_capacity(nsrc);
        for (k, s) in insn.src.iter().take(nsrc).enumerate() {
            let p = smap.operand(i, insn.dst.len() + k);
            srcs.push(dec.src(s, fetch_type(kind, op, k), p, op)?);
        }
        let componentwise = info.output_mode == OutputMode::Componentwise && !is_64bit_op(op);
        let mut fetch_mask = [0u8; 4];
        let mut rmask = [0u8; 4];
        for k in 0..nsrc {
            fetch_mask[k] = if componentwise { writemask } else { 0xF };
            rmask[k] = read_mask(op, k);
        }
        insns.push(DInsn {
            op,
            kind,
            dst,
            writemask,
            srcs,
            saturate: insn.saturate,
            fetch_mask,
            read_mask: rmask,
            componentwise,
            pos,
            mem: None,
            tex: None,
        });
    }
    // SWITCH: collect the CASE operands of each switch in order.
    let mut case_ops = Vec::new();
    for s in 0..insns.len() {
        if let Kind::Switch { endswitch, .. } = insns[s].kind {
            let first = case_ops.len() as u32;
            let mut n = 0u32;
            let body = s + 1..endswitch as usize;
            for (insn, c) in insns[body.clone()].iter_mut().zip(body) {
                if insn.kind == (Kind::Case { ordinal: 0 }) && st.partner[c] as usize == s {
                    insn.kind = Kind::Case { ordinal: n };
                    case_ops.push(insn.srcs[0]);
                    n += 1;
                }
            }
            insns[s].kind = Kind::Switch {
                endswitch,
                first_case: first,
                num_cases: n,
            };
        }
    }
    let mut next_control = vec![insns.len() as u32; insns.len() + 1];
    for i in (0..insns.len()).rev() {
        next_control[i] = if insns[i].kind.is_control() {
            i as u32
        } else {
            next_control[i + 1]
        };
    }
    let layout = dec.layout;
    let mut uniform_init = vec![[0u32; 4]; layout.uniform_slots as usize];
    if let Some(s) = layout.space(File::Immediate, false) {
        let base = layout.spaces[s].base as usize;
        for (k, imm) in program.immediates.iter().enumerate() {
            uniform_init[base + k] = imm.words;
        }
    }
    if let Some(s) = layout.space(File::ImmArray, false) {
        let space = &layout.spaces[s];
        for d in program
            .decls(File::ImmArray)
            .filter(|d| d.dimension.is_none())
        {
            for (k, v) in d.values.iter().enumerate() {
                if let Some(slot) = space.slot(0, d.first as i64 + k as i64) {
                    uniform_init[slot as usize] = *v;
                }
            }
        }
    }
    let mut outputs = Vec::new();
    for space in layout.spaces.iter().filter(|s| s.file == File::Output) {
        for (d, i, slot) in space.referenced_regs() {
            let key = RegKey {
                file: File::Output,
                dimension: space.two_d.then_some(d),
                index: i,
            };
            outputs.push((key, slot));
        }
    }
    outputs.sort_by_key(|(k, _)| *k);
    let memory_regs = program
        .declarations
        .iter()
        .filter(|d| matches!(d.file, File::Buffer | File::Memory))
        .flat_map(|d| (d.first..=d.last).map(move |i| RegKey::new(d.file, i)))
        .collect();
    Ok(Decoded {
        stage: program.stage,
        layout,
        insns,
        indirects: dec.indirects,
        case_ops,
        next_control,
        uniform_init,
        outputs,
        memory_regs,
        max_vertices: program.gs_max_output_vertices(),
        mem_writes: kinds
            .iter()
            .any(|k| matches!(k, Kind::Mem(MemOp::Store | MemOp::Atomic(_)))),
        resources,
        wg_size,
        textures,
    })
}
