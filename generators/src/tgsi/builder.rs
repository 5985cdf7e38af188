//! The program builder behind [`super::build`]: register layout, operands, statements and
//! control flow, declarations.

use shaderdiff_model::*;

use super::{Features, GenConfig, Swarm};
use crate::choices::Choices;

/// `IMM[0]` INT32 `{0, 1, 2, 3}`: loop counters, SWITCH cases and the only source of ADDR.
pub const INT_IMM: i32 = 0;
/// `IMM[1]` FLT32 `{0.5, 1.0, -1.0, 2.0}`: ordinary float constants.
pub const FLOAT_IMM: i32 = 1;
/// `IMM[2]` UINT32 `{0xfffffffd, 15, 31, 63}`: masks used by defined-only guards.
pub const GUARD_INT_IMM: i32 = 2;
/// `IMM[3]` FLT32 `{-2147483648.0, 2147483520.0, 4294967040.0, tiny}` (`tiny` is 2^-126,
/// or 0.0625 under `mesa_exact_floats`) and `IMM[4]` FLT32 `{-inf, 0.0, inf, -0.0}`:
/// clamp bounds used by defined-only guards.
pub const GUARD_FLOAT_IMM: i32 = 3;
/// See [`GUARD_FLOAT_IMM`].
pub const GUARD_FLOAT_IMM2: i32 = 4;
/// `IMM[5]` INT32 `{1025, 1100, 2000, -1100}`, in 64-bit programs only (`GenConfig::wide`):
/// DLDEXP exponents beyond binary64's exponent range (tgsi.rst "DLDEXP"), whose results
/// are finite for small or denormal doubles.
pub const WIDE_EXP_IMM: i32 = 5;

/// Register counts and reserved registers of the program being built.
pub(super) struct Layout {
    pub inputs: u32,
    pub outputs: u32,
    pub temps: u32,
    pub consts: u32,
    /// First TEMP of the 4-register `ARRAY(1)` used for indirect addressing.
    pub array_base: u32,
    /// First of the loop-counter TEMPs: `loop_slots` groups of `max_depth + 1`, one group
    /// for the main program and one per subroutine.
    pub counters: u32,
    pub loop_slots: u32,
    /// First of the three guard TEMPs (defined-only mode), which only guards write.
    pub guards: u32,
    /// Geometry programs: vertices per input primitive (inputs are `IN[v][i]`, `v` below
    /// it); 0 for other stages.
    pub gs_vertices: u32,
}

pub(super) struct Builder<'a, 'c> {
    pub c: &'a mut Choices<'c>,
    pub cfg: &'a GenConfig,
    pub f: Features,
    pub l: Layout,
    pub ops: Vec<Opcode>,
    pub insns: Vec<Instruction>,
    pub immediates: Vec<Immediate>,
    pub subroutines: usize,
    /// Subroutine index being generated (calls may only go to lower ones: no recursion).
    pub current_sub: Option<usize>,
    /// Instruction indices of CALs and the subroutine they call.
    pub calls: Vec<(usize, usize)>,
    /// Whether an invocation may have been killed (KILL/KILL_IF, or a CAL to a subroutine
    /// that may kill) by the current point of the main program.
    pub may_kill: bool,
    /// The TEMP the latest arithmetic instruction of the main program wrote
    /// directly: the first output reads it half the time, so the value a program computes
    /// last is observed more often than through a random register.
    pub last_temp: Option<Register>,
    /// Whether an invocation may have demoted itself (DEMOTE) by the current point.
    pub may_demote: bool,
}

/// A register-only source: identity swizzle, no modifiers.
pub(super) fn plain(reg: Register) -> Src {
    Src::new(reg)
}

/// Destination `reg` with all four channels enabled.
pub(super) fn full(reg: Register) -> Dst {
    Dst {
        reg,
        writemask: WRITEMASK_XYZW,
    }
}

impl Builder<'_, '_> {
    fn swizzle(&mut self) -> Swizzle {
        if !self.f.swizzles || self.c.chance(50) {
            IDENTITY_SWIZZLE
        } else {
            [0; 4].map(|_| self.c.below(4) as u8)
        }
    }

    fn writemask(&mut self) -> u8 {
        if !self.f.swizzles || self.c.chance(40) {
            WRITEMASK_XYZW
        } else {
            (self.c.below(15) + 1) as u8
        }
    }

    /// `[ADDR[0].x + array_base]`: ADDR[0].x is only ever set from IMM[0] (0..=3), so
    /// indirect accesses stay inside the 4-register ARRAY(1).
    fn addr_index(&self) -> Index {
        Self::addr_offset(self.l.array_base as i32, 1)
    }

    /// `[ADDR[0].x + offset]` naming `ARRAY(array_id)` (0: no array).
    fn addr_offset(offset: i32, array_id: u32) -> Index {
        Index {
            value: offset,
            indirect: Some(Indirect {
                file: File::Address,
                index: 0,
                component: 0,
            }),
            array_id,
        }
    }

    fn src_reg(&mut self) -> Register {
        match self.c.below(8) {
            0 | 1 if self.l.gs_vertices > 0 => {
                let i = self.c.below(self.l.inputs as usize) as i32;
                let v = self.c.below(self.l.gs_vertices as usize) as i32;
                let mut r = Register::new(File::Input, i);
                r.dimension = Some(Index {
                    value: v,
                    ..Index::default()
                });
                r
            }
            0 | 1 => Register::new(File::Input, self.c.below(self.l.inputs as usize) as i32),
            2 => Register::new(File::Const, self.c.below(self.l.consts as usize) as i32),
            3 => Register::new(File::Immediate, self.c.below(self.immediates.len()) as i32),
            4 if self.f.indirect && self.c.chance(50) => {
                if self.c.chance(30) {
                    // `CONST[ADDR[0].x]`: the layout declares at least 4 constants when
                    // indirect addressing is on, so ADDR (0..=3) stays in bounds.
                    Register {
                        file: File::Const,
                        index: Self::addr_offset(0, 0),
                        dimension: None,
                    }
                } else {
                    Register {
                        file: File::Temp,
                        index: self.addr_index(),
                        dimension: None,
                    }
                }
            }
            _ => Register::new(File::Temp, self.c.below(self.l.temps as usize) as i32),
        }
    }

    pub(super) fn src(&mut self) -> Src {
        let reg = self.src_reg();
        let swizzle = self.swizzle();
        let (abs, neg) = if self.f.modifiers {
            (self.c.chance(10), self.c.chance(15))
        } else {
            (false, false)
        };
        Src {
            reg,
            swizzle,
            abs,
            neg,
        }
    }

    fn dst(&mut self) -> Dst {
        let reg = match self.c.below(6) {
            // `OUT[ADDR[0].x]`: the layout declares at least 4 outputs when indirect
            // addressing is on (ADDR is 0..=3), so the write stays in bounds.
            0 if self.f.indirect && self.c.chance(25) => Register {
                file: File::Output,
                index: Self::addr_offset(0, 0),
                dimension: None,
            },
            0 => Register::new(File::Output, self.c.below(self.l.outputs as usize) as i32),
            1 if self.f.indirect && self.c.chance(40) => Register {
                file: File::Temp,
                index: self.addr_index(),
                dimension: None,
            },
            _ => Register::new(File::Temp, self.c.below(self.l.temps as usize) as i32),
        };
        Dst {
            reg,
            writemask: self.writemask(),
        }
    }

    /// `IMM[imm].cccc`.
    pub(super) fn imm_src(&self, imm: i32, comp: u8) -> Src {
        Src {
            reg: Register::new(File::Immediate, imm),
            swizzle: [comp; 4],
            abs: false,
            neg: false,
        }
    }

    /// Guard TEMP `k` (0..3).
    pub(super) fn guard_reg(&self, k: u32) -> Register {
        Register::new(File::Temp, (self.l.guards + k) as i32)
    }

    fn counter(&self, depth: usize) -> Register {
        let slot = self.current_sub.map_or(0, |s| s + 1) as u32;
        let per = self.cfg.max_depth as u32 + 1;
        Register::new(
            File::Temp,
            (self.l.counters + slot * per + depth as u32) as i32,
        )
    }

    pub(super) fn emit(&mut self, op: Opcode, dst: Vec<Dst>, src: Vec<Src>) {
        self.insns.push(Instruction::new(op, dst, src));
    }

    fn arith(&mut self) {
        let op = self.c.pick(&self.ops.clone());
        let info = op.info();
        let mut src: Vec<Src> = (0..info.num_src).map(|_| self.src()).collect();
        if self.cfg.defined_only {
            self.guard_sources(op, &mut src);
        }
        if op == Opcode::DLDEXP && self.cfg.wide && !self.cfg.syntax_coverage && self.c.chance(50) {
            // Exponents past binary64's range (tgsi.rst DLDEXP reads src1.x and src1.z):
            // finite results only through the multi-step scaling of small values.
            let swizzle = [0; 4].map(|_| self.c.below(4) as u8);
            src[1] = Src {
                swizzle,
                ..plain(Register::new(File::Immediate, WIDE_EXP_IMM))
            };
        }
        let dst = self.dst();
        if dst.reg.file == File::Temp && !dst.reg.is_indirect() && self.current_sub.is_none() {
            self.last_temp = Some(dst.reg);
        }
        let mut insn = Instruction::new(op, vec![dst], src);
        // tgsi.rst "Other Modifiers": saturate clamps 32-bit stores; 64-bit results never
        // take it (no draw, so the 32-bit streams are unchanged).
        let wide_result = info.dst_type.is_some_and(|t| t.is_64bit());
        if self.f.saturate && !wide_result && self.c.chance(10) {
            insn.saturate = Saturate::Zero;
        }
        self.insns.push(insn);
    }

    fn set_address(&mut self) {
        // UARL ADDR[0].x from IMM[0] (values 0..3) keeps indirect accesses inside ARRAY(1).
        let comp = self.c.below(4) as u8;
        let src = self.imm_src(INT_IMM, comp);
        self.emit(
            Opcode::UARL,
            vec![Dst {
                reg: Register::new(File::Address, 0),
                writemask: 1,
            }],
            vec![src],
        );
    }

    /// KILL_IF, DEMOTE, or (inside a block) KILL.
    fn kill(&mut self, depth: usize) {
        match self.c.below(3) {
            0 => {
                let s = self.src();
                self.emit(Opcode::KILL_IF, vec![], vec![s]);
                self.may_kill = true;
            }
            1 => {
                self.push0(Opcode::DEMOTE);
                self.may_demote = true;
            }
            _ if depth > 0 => {
                self.push0(Opcode::KILL);
                self.may_kill = true;
            }
            _ => {
                let s = self.src();
                self.emit(Opcode::KILL_IF, vec![], vec![s]);
                self.may_kill = true;
            }
        }
    }

    /// A derivative, where allowed: in defined-only mode only the fine forms (coarse ones
    /// are undefined when the quad's rows differ), and only where all four invocations of
    /// every quad execute it: the main program's top level, before any KILL or CAL.
    fn derivative(&mut self, depth: usize) -> bool {
        let op = if self.cfg.defined_only {
            if depth > 0 || self.current_sub.is_some() || self.may_kill {
                return false;
            }
            self.c.pick(&[Opcode::DDX_FINE, Opcode::DDY_FINE])
        } else {
            self.c
                .pick(&[Opcode::DDX, Opcode::DDY, Opcode::DDX_FINE, Opcode::DDY_FINE])
        };
        let s = self.src();
        let mut insn = Instruction::new(op, vec![self.dst()], vec![s]);
        if self.f.saturate && self.c.chance(10) {
            insn.saturate = Saturate::Zero;
        }
        self.insns.push(insn);
        true
    }

    /// An inter-lane vote or read (tgsi.rst "Inter-lane opcodes"). In defined-only mode its
    /// source is uniform (a CONST or IMM register: the same word in every invocation) and
    /// it sits at the main program's top level before any KILL, DEMOTE or CAL that may
    /// kill (killed and demoted invocations may take part with unknown values; inside a
    /// loop a later KILL would reach it on the next iteration), so every grouping of the
    /// invocations gives the same result (the oracle's thread-group model,
    /// `oracle/src/interp/vote.rs`); otherwise the source is uniform half the time.
    fn vote(&mut self, depth: usize) {
        let restricted =
            depth > 0 || self.current_sub.is_some() || self.may_kill || self.may_demote;
        if self.cfg.defined_only && restricted {
            self.arith();
            return;
        }
        let op = self.c.pick(&[
            Opcode::VOTE_ANY,
            Opcode::VOTE_ALL,
            Opcode::VOTE_EQ,
            Opcode::READ_FIRST,
        ]);
        let s = if self.cfg.defined_only || self.c.chance(50) {
            let reg = if self.c.chance(50) {
                Register::new(File::Const, self.c.below(self.l.consts as usize) as i32)
            } else {
                Register::new(File::Immediate, self.c.below(self.immediates.len()) as i32)
            };
            Src {
                swizzle: self.swizzle(),
                ..plain(reg)
            }
        } else {
            self.src()
        };
        let d = self.dst();
        self.emit(op, vec![d], vec![s]);
    }

    /// Geometry programs (tgsi.rst "Geometry ISA"): EMIT, or ENDPRIM, of stream 0 mostly
    /// (`IMM[0]` = {0, 1, 2, 3} gives the stream), sometimes without the operand.
    pub(super) fn emit_vertex(&mut self) {
        let op = if self.c.chance(70) {
            Opcode::EMIT
        } else {
            Opcode::ENDPRIM
        };
        if self.c.chance(15) {
            self.push0(op);
        } else {
            let stream = self.c.pick(&[0u8, 0, 0, 1, 2]);
            let s = self.imm_src(INT_IMM, stream);
            self.emit(op, vec![], vec![s]);
        }
    }

    fn simple(&mut self, depth: usize) {
        match self.c.below(20) {
            0 if self.f.indirect => self.set_address(),
            1 if self.subroutines > 0 => {
                let limit = self.current_sub.unwrap_or(self.subroutines);
                if limit > 0 {
                    let target = self.c.below(limit);
                    self.calls.push((self.insns.len(), target));
                    self.push0(Opcode::CAL);
                    self.may_kill |= self.f.kill;
                } else {
                    self.arith();
                }
            }
            2 if self.current_sub.is_some() => self.push0(Opcode::RET),
            3 if depth > 0 && self.c.chance(30) => self.push0(Opcode::NOP),
            4 if self.f.kill => self.kill(depth),
            6 | 7 if self.l.gs_vertices > 0 => self.emit_vertex(),
            8 if self.c.chance(40) => self.vote(depth),
            5 if self.f.derivatives => {
                if !self.derivative(depth) {
                    self.arith();
                }
            }
            _ => self.arith(),
        }
    }

    pub(super) fn push0(&mut self, op: Opcode) {
        self.insns.push(Instruction::new(op, vec![], vec![]));
    }

    fn budget_left(&self) -> bool {
        self.insns.len() < self.cfg.max_instructions && !self.c.exhausted()
    }

    /// A block of statements; `in_loop` says whether BRK/CONT are legal (innermost loop).
    fn block(&mut self, depth: usize, in_loop: bool, in_switch: bool) {
        let n = self.c.range(1, 6);
        for _ in 0..n {
            if !self.budget_left() {
                break;
            }
            let nest = depth < self.cfg.max_depth;
            match self.c.below(12) {
                0 | 1 if nest && self.f.ifs => {
                    let op = if self.c.chance(50) {
                        Opcode::IF
                    } else {
                        Opcode::UIF
                    };
                    let cond = self.src();
                    self.emit(op, vec![], vec![cond]);
                    self.block(depth + 1, in_loop, in_switch);
                    if self.c.chance(50) {
                        self.push0(Opcode::ELSE);
                        self.block(depth + 1, in_loop, in_switch);
                    }
                    self.push0(Opcode::ENDIF);
                }
                2 if nest && self.f.loops => self.bounded_loop(depth),
                3 if nest && self.f.switch => self.switch(depth),
                4 if in_loop || in_switch => {
                    // A conditional BRK/CONT so lanes diverge.
                    let cond = self.src();
                    self.emit(Opcode::UIF, vec![], vec![cond]);
                    let op = if in_loop && self.c.chance(40) {
                        Opcode::CONT
                    } else {
                        Opcode::BRK
                    };
                    self.push0(op);
                    self.push0(Opcode::ENDIF);
                }
                _ => self.simple(depth),
            }
        }
    }

    fn bounded_loop(&mut self, depth: usize) {
        let ctr = self.counter(depth);
        let limit_comp = self.c.range(1, 3) as u8;
        let zero = self.imm_src(INT_IMM, 0);
        let one = self.imm_src(INT_IMM, 1);
        let limit = self.imm_src(INT_IMM, limit_comp);
        let x = |reg: Register, mask: u8| Dst {
            reg,
            writemask: mask,
        };
        let sx = |reg: Register, comp: u8| Src {
            reg,
            swizzle: [comp; 4],
            abs: false,
            neg: false,
        };
        self.emit(Opcode::MOV, vec![x(ctr, 1)], vec![zero]);
        self.push0(Opcode::BGNLOOP);
        self.emit(Opcode::UADD, vec![x(ctr, 1)], vec![sx(ctr, 0), one]);
        self.emit(Opcode::USLT, vec![x(ctr, 2)], vec![limit, sx(ctr, 0)]);
        self.emit(Opcode::UIF, vec![], vec![sx(ctr, 1)]);
        self.push0(Opcode::BRK);
        self.push0(Opcode::ENDIF);
        self.block(depth + 1, true, false);
        self.push0(Opcode::ENDLOOP);
    }

    fn switch(&mut self, depth: usize) {
        let sel = self.c.pick(&[0u8, 1, 2, 3]);
        let selector = if self.c.chance(50) {
            self.imm_src(INT_IMM, sel)
        } else {
            // A per-invocation selector: an input's bits masked to 0..3.
            let s = self.src();
            let t = Register::new(File::Temp, 0);
            let three = self.imm_src(INT_IMM, 3);
            self.emit(
                Opcode::AND,
                vec![Dst {
                    reg: t,
                    writemask: 1,
                }],
                vec![s, three],
            );
            Src {
                reg: t,
                swizzle: [0; 4],
                abs: false,
                neg: false,
            }
        };
        self.emit(Opcode::SWITCH, vec![], vec![selector]);
        let ncase = self.c.range(1, 3);
        let default_at = self.c.below(ncase + 1);
        let mut values: Vec<u8> = vec![0, 1, 2, 3];
        for k in 0..=ncase {
            if k == default_at {
                self.push0(Opcode::DEFAULT);
            } else {
                let v = values.remove(self.c.below(values.len()));
                let s = self.imm_src(INT_IMM, v);
                self.emit(Opcode::CASE, vec![], vec![s]);
            }
            if self.c.chance(70) {
                self.block(depth + 1, false, true);
            }
            if self.c.chance(80) {
                self.push0(Opcode::BRK);
            }
        }
        self.push0(Opcode::ENDSWITCH);
    }
}

fn float_value(c: &mut Choices, exact: bool) -> u32 {
    if !exact {
        return match c.below(4) {
            0 => c.raw(),
            _ => ((c.below(1025) as f32 - 512.0) / 8.0).to_bits(),
        };
    }
    match c.below(16) {
        0 => f32::INFINITY.to_bits(),
        1 => f32::NEG_INFINITY.to_bits(),
        2 => 0x7fc0_0000, // the NaN strtof("nan") returns
        3 => 0x8000_0000,
        _ => ((c.below(1025) as f32 - 512.0) / 16.0).to_bits(),
    }
}

fn immediate(c: &mut Choices, cfg: &GenConfig) -> Immediate {
    let types: &[ImmType] = if cfg.syntax_coverage {
        ImmType::ALL
    } else {
        &[ImmType::F32, ImmType::U32, ImmType::I32]
    };
    let ty = c.pick(types);
    let words = match ty {
        ImmType::F32 => [0; 4].map(|_| float_value(c, cfg.mesa_exact_floats)),
        ImmType::U32 | ImmType::I32 => [0; 4].map(|_| {
            if c.chance(30) {
                c.raw()
            } else {
                c.below(64) as u32
            }
        }),
        _ => {
            let a = c.raw() as u64 | (c.raw() as u64) << 32;
            let b = if c.chance(50) {
                c.below(100) as u64
            } else {
                a.rotate_left(7)
            };
            let (a, b) = if ty == ImmType::F64 && cfg.mesa_exact_floats {
                // %10.8f prints multiples of 1/256 exactly.
                (
                    ((a % 4096) as f64 / 256.0 - 8.0).to_bits(),
                    ((b % 4096) as f64 / 256.0).to_bits(),
                )
            } else {
                (a, b)
            };
            [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
        }
    };
    Immediate { ty, words }
}

/// The fixed immediates `IMM[0..=4]`, and `IMM[5]` in 64-bit programs (see the constants
/// above).
fn fixed_immediates(cfg: &GenConfig) -> Vec<Immediate> {
    // 2^-126 (FLT_MIN) is not printed exactly by %10.4f; 1/16 is.
    let tiny: f32 = if cfg.mesa_exact_floats {
        0.0625
    } else {
        f32::MIN_POSITIVE
    };
    let mut v = vec![
        Immediate {
            ty: ImmType::I32,
            words: [0, 1, 2, 3],
        },
        Immediate {
            ty: ImmType::F32,
            words: [0.5f32, 1.0, -1.0, 2.0].map(f32::to_bits),
        },
        Immediate {
            ty: ImmType::U32,
            words: [0xffff_fffd, 15, 31, 63],
        },
        Immediate {
            ty: ImmType::F32,
            words: [-2_147_483_648.0f32, 2_147_483_520.0, 4_294_967_040.0, tiny].map(f32::to_bits),
        },
        Immediate {
            ty: ImmType::F32,
            words: [f32::NEG_INFINITY, 0.0, f32::INFINITY, -0.0].map(f32::to_bits),
        },
    ];
    if cfg.wide && !cfg.syntax_coverage {
        v.push(Immediate {
            ty: ImmType::I32,
            words: [1025i32, 1100, 2000, -1100].map(|e| e as u32),
        });
    }
    v
}

/// Builds the body and declarations of one program for an already drawn `swarm`.
pub(super) fn build_body(choices: &mut Choices, cfg: &GenConfig, swarm: &Swarm) -> Program {
    let stage = swarm.stage;
    let inputs = choices.range(1, 4) as u32;
    let mut outputs = choices.range(1, 3) as u32;
    let temps = choices.range(2, 6) as u32;
    let mut consts = choices.range(1, 4) as u32;
    if swarm.features.indirect {
        // `OUT[ADDR[0].x]` and `CONST[ADDR[0].x]` with ADDR in 0..=3 stay in bounds.
        outputs = outputs.max(4);
        consts = consts.max(4);
    }
    let mut immediates = fixed_immediates(cfg);
    for _ in 0..choices.below(4) {
        immediates.push(immediate(choices, cfg));
    }
    let subroutines = if swarm.features.subroutines {
        choices.below(3)
    } else {
        0
    };
    let per = cfg.max_depth as u32 + 1;
    let loop_slots = 1 + subroutines as u32;
    let mut l = Layout {
        inputs,
        outputs,
        temps,
        consts,
        array_base: temps,
        counters: temps + 4,
        loop_slots,
        guards: temps + 4 + loop_slots * per,
        gs_vertices: 0,
    };
    let mut properties = Vec::new();
    if stage == Stage::Geometry {
        // Input primitive (1, 2 or 3 vertices), output primitive, and a vertex limit the
        // programs sometimes exceed.
        let input = choices.pick(&[Primitive::Points, Primitive::Lines, Primitive::Triangles]);
        let output = choices.pick(&[
            Primitive::Points,
            Primitive::LineStrip,
            Primitive::TriangleStrip,
        ]);
        let max = choices.range(1, 6) as u32;
        l.gs_vertices = input.vertices();
        properties = vec![
            Property {
                name: PropertyName::GsInputPrimitive,
                value: input.token(),
            },
            Property {
                name: PropertyName::GsOutputPrimitive,
                value: output.token(),
            },
            Property {
                name: PropertyName::GsMaxOutputVertices,
                value: max,
            },
        ];
    }
    let mut b = Builder {
        cfg,
        f: swarm.features,
        l,
        ops: swarm.opcodes.clone(),
        insns: Vec::new(),
        immediates,
        subroutines,
        current_sub: None,
        calls: Vec::new(),
        may_kill: false,
        last_temp: None,
        may_demote: false,
        c: choices,
    };
    // The main body: top-level statements until the budget (or the stream) runs out.
    while b.budget_left() && b.insns.len() < cfg.max_instructions / 2 {
        b.block(0, false, false);
    }
    // Every output gets written at least once, so runs always produce values.
    for o in 0..b.l.outputs {
        let s = match b.last_temp {
            Some(reg) if o == 0 && b.c.chance(50) => plain(reg),
            _ => b.src(),
        };
        let writemask = b.writemask();
        b.emit(
            Opcode::MOV,
            vec![Dst {
                reg: Register::new(File::Output, o as i32),
                writemask,
            }],
            vec![s],
        );
    }
    // A geometry program emits at least the final vertex.
    if b.l.gs_vertices > 0 {
        let s = b.imm_src(INT_IMM, 0);
        b.emit(Opcode::EMIT, vec![], vec![s]);
    }
    b.push0(Opcode::END);
    let mut sub_starts = Vec::new();
    for s in 0..b.subroutines {
        b.current_sub = Some(s);
        sub_starts.push(b.insns.len() as u32);
        b.push0(Opcode::BGNSUB);
        b.block(1, false, false);
        b.push0(Opcode::RET);
        b.push0(Opcode::ENDSUB);
    }
    for &(at, target) in &b.calls {
        b.insns[at].label = Some(sub_starts[target]);
    }
    let Builder {
        insns,
        immediates,
        l,
        ..
    } = b;
    let mut p = Program::new(stage);
    p.properties = properties;
    p.declarations = declarations(stage, &l, cfg);
    p.immediates = immediates;
    p.instructions = insns;
    p
}

fn declarations(stage: Stage, l: &Layout, cfg: &GenConfig) -> Vec<Declaration> {
    let decl = |file, first, last| Declaration::new(file, first, last);
    let mut v = Vec::new();
    for i in 0..l.inputs {
        let mut d = decl(File::Input, i, i);
        if stage == Stage::Fragment {
            d.semantic = Some((SemanticName::Generic, i));
            d.interpolation = Some(Interpolation::Constant);
        }
        if stage == Stage::Geometry {
            d.dimension = Some(DeclDimension::Implied);
            d.semantic = Some((SemanticName::Generic, i));
        }
        v.push(d);
    }
    for o in 0..l.outputs {
        let mut d = decl(File::Output, o, o);
        d.semantic = Some(if stage == Stage::Fragment {
            (SemanticName::Color, o)
        } else {
            (SemanticName::Generic, o)
        });
        v.push(d);
    }
    v.push(decl(File::Const, 0, l.consts - 1));
    v.push(decl(File::Temp, 0, l.temps - 1));
    let mut arr = decl(File::Temp, l.array_base, l.array_base + 3);
    arr.array_id = 1;
    v.push(arr);
    let per = cfg.max_depth as u32 + 1;
    v.push(decl(
        File::Temp,
        l.counters,
        l.counters + l.loop_slots * per - 1,
    ));
    if cfg.defined_only {
        v.push(decl(File::Temp, l.guards, l.guards + 2));
    }
    v.push(decl(File::Address, 0, 0));
    v
}
