//! Valid-by-construction TGSI programs built from a [`Choices`] stream.
//!
//! Programs declare every register they use, have operand counts from opcodes.csv,
//! non-empty writemasks, properly nested IF/UIF/ELSE, loops, SWITCH (DEFAULT in any
//! position) and subroutines called by CAL (tgsi.rst "Control flow"). Loops are bounded:
//! each carries a counter register that no other instruction writes and a BRK once the
//! counter reaches a small limit, so the oracle never needs its step budget unless the
//! configuration asks for unbounded loops.

use shaderdiff_ir::*;

use crate::choices::Choices;

/// What kind of programs to build.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Upper bound on generated instructions (approximate; structure adds a few).
    pub max_instructions: usize,
    /// Maximum nesting depth of IF/loop/SWITCH.
    pub max_depth: usize,
    /// Also use syntax the interpreter does not run (64-bit opcodes and immediates,
    /// declaration tails): for printer/parser round-trip tests.
    pub syntax_coverage: bool,
    /// Restrict FLT32 immediates to values tgsi_dump's `%10.4f` prints exactly
    /// (multiples of 1/16, ±0, ±inf, NaN). Otherwise any bit pattern.
    pub mesa_exact_floats: bool,
    /// Stages to choose from.
    pub stages: Vec<Stage>,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_instructions: 48,
            max_depth: 3,
            syntax_coverage: false,
            mesa_exact_floats: true,
            stages: vec![Stage::Vertex, Stage::Fragment, Stage::Compute],
        }
    }
}

/// Opcodes the generator uses for plain arithmetic: one destination, 32-bit types,
/// per-lane semantics (no texture, memory, derivative, vote or address opcodes).
/// `include_64bit` (syntax coverage) also admits 64-bit opcodes and the TBD unpack opcodes.
pub fn arithmetic_opcodes(include_64bit: bool) -> Vec<Opcode> {
    const EXCLUDED: &[Opcode] = &[
        Opcode::ARL,
        Opcode::ARR,
        Opcode::UARL,
        Opcode::DDX,
        Opcode::DDY,
        Opcode::DDX_FINE,
        Opcode::DDY_FINE,
        Opcode::VOTE_ANY,
        Opcode::VOTE_ALL,
        Opcode::VOTE_EQ,
        Opcode::READ_FIRST,
        Opcode::READ_INVOC,
        Opcode::READ_HELPER,
        Opcode::CLOCK,
    ];
    // tgsi.rst leaves UP2US/UP4B/UP4UB "TBD": no engine can run them, so only
    // syntax-coverage programs use them.
    const UNDEFINED_IN_DOC: &[Opcode] = &[Opcode::UP2US, Opcode::UP4B, Opcode::UP4UB];
    ALL_OPCODES
        .iter()
        .copied()
        .filter(|op| {
            let i = op.info();
            let is64 = i.dst_type.is_some_and(|t| t.is_64bit())
                || i.src_types.iter().any(|t| t.is_some_and(|t| t.is_64bit()));
            i.num_dst == 1
                && i.num_src >= 1
                && !i.is_tex
                && matches!(
                    i.output_mode,
                    OutputMode::Componentwise | OutputMode::Replicate | OutputMode::ChanDependent
                )
                && !EXCLUDED.contains(op)
                && (include_64bit || (!is64 && !UNDEFINED_IN_DOC.contains(op)))
        })
        .collect()
}

/// Register counts and reserved registers of the program being built.
struct Layout {
    inputs: u32,
    outputs: u32,
    temps: u32,
    consts: u32,
    /// First TEMP of the 4-register `ARRAY(1)` used for indirect addressing.
    array_base: u32,
    /// First of the loop-counter TEMPs (one per nesting depth).
    counters: u32,
}

struct Builder<'a, 'c> {
    c: &'a mut Choices<'c>,
    cfg: &'a GenConfig,
    l: Layout,
    ops: Vec<Opcode>,
    insns: Vec<Instruction>,
    immediates: Vec<Immediate>,
    subroutines: usize,
    /// Subroutine index being generated (calls may only go to lower ones: no recursion).
    current_sub: Option<usize>,
    /// Instruction indices of CALs and the subroutine they call.
    calls: Vec<(usize, usize)>,
}

const INT_IMM: i32 = 0; // IMM[0] INT32 {0, 1, 2, 3}
                        // IMM[1] is FLT32 {0.5, 1.0, -1.0, 2.0}, a source of ordinary float constants.

impl Builder<'_, '_> {
    fn swizzle(&mut self) -> Swizzle {
        if self.c.chance(50) {
            IDENTITY_SWIZZLE
        } else {
            [0; 4].map(|_| self.c.below(4) as u8)
        }
    }

    fn writemask(&mut self) -> u8 {
        (self.c.below(15) + 1) as u8
    }

    /// `[ADDR[0].x + array_base]`: ADDR[0].x is only ever set from IMM[0] (0..=3), so
    /// indirect accesses stay inside the 4-register ARRAY(1).
    fn addr_index(&mut self) -> Index {
        Index {
            value: self.l.array_base as i32,
            indirect: Some(Indirect {
                file: File::Address,
                index: 0,
                component: 0,
            }),
            array_id: 1,
        }
    }

    fn src_reg(&mut self) -> Register {
        match self.c.below(8) {
            0 | 1 => Register::new(File::Input, self.c.below(self.l.inputs as usize) as i32),
            2 => Register::new(File::Const, self.c.below(self.l.consts as usize) as i32),
            3 => Register::new(File::Immediate, self.c.below(self.immediates.len()) as i32),
            4 if self.c.chance(50) => Register {
                file: File::Temp,
                index: Index {
                    ..self.addr_index()
                },
                dimension: None,
            },
            _ => Register::new(File::Temp, self.c.below(self.l.temps as usize) as i32),
        }
    }

    fn src(&mut self) -> Src {
        let reg = self.src_reg();
        Src {
            reg,
            swizzle: self.swizzle(),
            abs: self.c.chance(10),
            neg: self.c.chance(15),
        }
    }

    fn dst(&mut self) -> Dst {
        let reg = match self.c.below(6) {
            0 => Register::new(File::Output, self.c.below(self.l.outputs as usize) as i32),
            1 if self.c.chance(40) => Register {
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

    fn imm_src(&mut self, imm: i32, comp: u8) -> Src {
        Src {
            reg: Register::new(File::Immediate, imm),
            swizzle: [comp; 4],
            abs: false,
            neg: false,
        }
    }

    fn counter(&self, depth: usize) -> Register {
        Register::new(File::Temp, (self.l.counters + depth as u32) as i32)
    }

    fn arith(&mut self) {
        let op = self.c.pick(&self.ops.clone());
        let info = op.info();
        let src = (0..info.num_src).map(|_| self.src()).collect();
        let mut insn = Instruction::new(op, vec![self.dst()], src);
        if self.c.chance(10) {
            insn.saturate = Saturate::Zero;
        }
        self.insns.push(insn);
    }

    fn set_address(&mut self) {
        // UARL ADDR[0].x from IMM[0] (values 0..3) keeps indirect accesses inside ARRAY(1).
        let comp = self.c.below(4) as u8;
        let src = self.imm_src(INT_IMM, comp);
        self.insns.push(Instruction::new(
            Opcode::UARL,
            vec![Dst {
                reg: Register::new(File::Address, 0),
                writemask: 1,
            }],
            vec![src],
        ));
    }

    fn simple(&mut self, depth: usize) {
        match self.c.below(20) {
            0 => self.set_address(),
            1 if self.subroutines > 0 => {
                let limit = self.current_sub.unwrap_or(self.subroutines);
                if limit > 0 {
                    let target = self.c.below(limit);
                    self.calls.push((self.insns.len(), target));
                    self.insns
                        .push(Instruction::new(Opcode::CAL, vec![], vec![]));
                } else {
                    self.arith();
                }
            }
            2 if self.current_sub.is_some() => {
                self.insns
                    .push(Instruction::new(Opcode::RET, vec![], vec![]))
            }
            3 if depth > 0 && self.c.chance(30) => {
                self.insns
                    .push(Instruction::new(Opcode::NOP, vec![], vec![]))
            }
            _ => self.arith(),
        }
    }

    fn push0(&mut self, op: Opcode) {
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
                0 | 1 if nest => {
                    let op = if self.c.chance(50) {
                        Opcode::IF
                    } else {
                        Opcode::UIF
                    };
                    let cond = self.src();
                    self.insns.push(Instruction::new(op, vec![], vec![cond]));
                    self.block(depth + 1, in_loop, in_switch);
                    if self.c.chance(50) {
                        self.push0(Opcode::ELSE);
                        self.block(depth + 1, in_loop, in_switch);
                    }
                    self.push0(Opcode::ENDIF);
                }
                2 if nest => self.bounded_loop(depth),
                3 if nest => self.switch(depth),
                4 if in_loop || in_switch => {
                    // A conditional BRK/CONT so lanes diverge.
                    let cond = self.src();
                    self.insns
                        .push(Instruction::new(Opcode::UIF, vec![], vec![cond]));
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
        self.insns
            .push(Instruction::new(Opcode::MOV, vec![x(ctr, 1)], vec![zero]));
        self.push0(Opcode::BGNLOOP);
        self.insns.push(Instruction::new(
            Opcode::UADD,
            vec![x(ctr, 1)],
            vec![sx(ctr, 0), one],
        ));
        self.insns.push(Instruction::new(
            Opcode::USLT,
            vec![x(ctr, 2)],
            vec![limit, sx(ctr, 0)],
        ));
        self.insns
            .push(Instruction::new(Opcode::UIF, vec![], vec![sx(ctr, 1)]));
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
            self.insns.push(Instruction::new(
                Opcode::AND,
                vec![Dst {
                    reg: t,
                    writemask: 1,
                }],
                vec![s, three],
            ));
            Src {
                reg: t,
                swizzle: [0; 4],
                abs: false,
                neg: false,
            }
        };
        self.insns
            .push(Instruction::new(Opcode::SWITCH, vec![], vec![selector]));
        let ncase = self.c.range(1, 3);
        let default_at = self.c.below(ncase + 1);
        let mut values: Vec<u8> = vec![0, 1, 2, 3];
        for k in 0..=ncase {
            if k == default_at {
                self.push0(Opcode::DEFAULT);
            } else {
                let v = values.remove(self.c.below(values.len()));
                let s = self.imm_src(INT_IMM, v);
                self.insns
                    .push(Instruction::new(Opcode::CASE, vec![], vec![s]));
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

/// Build one valid program from `choices` under `cfg`.
pub fn build_program(choices: &mut Choices, cfg: &GenConfig) -> Program {
    let stage = choices.pick(&cfg.stages);
    let l = Layout {
        inputs: choices.range(1, 4) as u32,
        outputs: choices.range(1, 3) as u32,
        temps: choices.range(2, 6) as u32,
        consts: choices.range(1, 4) as u32,
        array_base: 0,
        counters: 0,
    };
    let l = Layout {
        array_base: l.temps,
        counters: l.temps + 4,
        ..l
    };
    let mut p = Program::new(stage);
    let mut immediates = vec![
        Immediate {
            ty: ImmType::I32,
            words: [0, 1, 2, 3],
        },
        Immediate {
            ty: ImmType::F32,
            words: [0.5f32, 1.0, -1.0, 2.0].map(f32::to_bits),
        },
    ];
    for _ in 0..choices.below(4) {
        immediates.push(immediate(choices, cfg));
    }
    let mut b = Builder {
        cfg,
        l,
        ops: arithmetic_opcodes(cfg.syntax_coverage),
        insns: Vec::new(),
        immediates,
        subroutines: choices.below(3),
        current_sub: None,
        calls: Vec::new(),
        c: choices,
    };
    // The main body: top-level statements until the budget (or the stream) runs out.
    while b.budget_left() && b.insns.len() < cfg.max_instructions / 2 {
        b.block(0, false, false);
    }
    // Every output gets written at least once, so runs always produce values.
    for o in 0..b.l.outputs {
        let s = b.src();
        let writemask = b.writemask();
        b.insns.push(Instruction::new(
            Opcode::MOV,
            vec![Dst {
                reg: Register::new(File::Output, o as i32),
                writemask,
            }],
            vec![s],
        ));
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
    let decl = |file, first, last| Declaration::new(file, first, last);
    for i in 0..l.inputs {
        let mut d = decl(File::Input, i, i);
        if stage == Stage::Fragment {
            d.semantic = Some((SemanticName::Generic, i));
            d.interpolation = Some(Interpolation::Constant);
        }
        p.declarations.push(d);
    }
    for o in 0..l.outputs {
        let mut d = decl(File::Output, o, o);
        d.semantic = Some(if stage == Stage::Fragment {
            (SemanticName::Color, o)
        } else {
            (SemanticName::Generic, o)
        });
        p.declarations.push(d);
    }
    p.declarations.push(decl(File::Const, 0, l.consts - 1));
    p.declarations.push(decl(File::Temp, 0, l.temps - 1));
    let mut arr = decl(File::Temp, l.array_base, l.array_base + 3);
    arr.array_id = 1;
    p.declarations.push(arr);
    let max_depth = cfg.max_depth as u32 + 1;
    p.declarations
        .push(decl(File::Temp, l.counters, l.counters + max_depth - 1));
    p.declarations.push(decl(File::Address, 0, 0));
    p.immediates = immediates;
    p.instructions = insns;
    p
}
