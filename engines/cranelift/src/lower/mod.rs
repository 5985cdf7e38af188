//! Lowering of a whole program to one Cranelift function that runs every quad of a run.
//!
//! # The compiled function
//!
//! `extern "C" fn(ctx: *const RunCtx) -> u64` loops over the quads `q = 0..ctx.quads`
//! (invocations `4q..4q+3`, INTERFACE.md "Fragment quads"). Every value is an `i32x4` holding
//! one 32-bit lane per invocation of the quad; masks are `i32x4` with all-ones lanes. For each
//! quad it:
//!
//! 1. sets the execution mask to the live lanes (`4q + l < invocations`), zeroes registers and
//!    loads the per-invocation inputs (given in columns, `crate::run::Binding`);
//! 2. runs the program (see [`flow`] for control flow, [`operand`] for fetch and store);
//! 3. checks the step budget, stores the output registers (in columns, like the inputs) and,
//!    for fragment programs, the killed mask.
//!
//! It returns 0, or a status word: [`STATUS_STEP_LIMIT`] or [`STATUS_CALL_DEPTH`] in the
//! high byte and the invocation in the low bits.
//!
//! # Step budget (the oracle's counting rule)
//!
//! Each instruction executed by an invocation costs it one step: an instruction counts for
//! the lanes in the execution mask when it is reached (before a control-flow instruction
//! changes the mask). Counts of straight-line code are kept at compile time (`pending`) and
//! added under the mask (`steps += pending & exec`) before every mask change and branch. The
//! per-lane `u32` counters are compared with the budget at every loop back edge and at the
//! end of the quad; increments between two checks are bounded by the lowered program size,
//! so the counters cannot wrap (the run clamps the budget to `u32::MAX - size`).

mod dce;
mod dedupe;
mod flow;
mod interp;
mod memory;
mod operand;
mod texture;
mod vote;

pub(crate) use memory::{BLOCK_QUADS, DONE};

use std::collections::{BTreeSet, HashMap, HashSet};
use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32X4, I32, I32X4, I64, I8X16};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, ConstantData, Function, InstBuilder, MemFlagsData, Type, Value,
};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::check::FetchType;
use shaderdiff_model::{File, Opcode, Pos, Program};

use crate::alu::Libcalls;
use crate::analysis::Analysis;
use crate::faults::Fault;
use crate::plan::{Plan, REG_BYTES};
use crate::run::{Binding, RunCtx};

/// Status high byte: an invocation exceeded the step budget.
pub(crate) const STATUS_STEP_LIMIT: u64 = 1 << 56;
/// Status high byte: subroutine calls nested deeper than the oracle's `MAX_CALL_DEPTH`.
pub(crate) const STATUS_CALL_DEPTH: u64 = 2 << 56;
/// Mask of the invocation part of a status word.
pub(crate) const STATUS_INVOCATION: u64 = (1 << 56) - 1;
/// Most instructions lowered for one program, counting every inlined subroutine body.
pub(crate) const MAX_LOWERED: usize = 65_536;
/// Deepest nesting of constructs and inlined calls the lowering accepts.
pub(crate) const MAX_NESTING: usize = 256;

/// Why lowering failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LowerError {
    /// Valid, but beyond what the jit lowers.
    Unsupported {
        /// The opcode at fault, if one is.
        opcode: Option<Opcode>,
        /// Where.
        pos: Option<Pos>,
        /// What.
        reason: String,
    },
    /// Malformed in a way the oracle's checks should have caught (defensive).
    Invalid {
        /// Where.
        pos: Option<Pos>,
        /// What.
        message: String,
    },
}

/// What the lowering reads: the program, its oracle-checked shape, the register plan and
/// the control-flow analysis.
pub(crate) struct Env<'a> {
    pub program: &'a Program,
    pub shape: &'a Shape,
    pub plan: &'a Plan,
    pub an: &'a Analysis,
    /// The catalogued fault to inject (`crate::faults`), if one is switched on: read only at
    /// the sites marked `FAULT HOOK`, at compile time.
    pub fault: Option<Fault>,
}

/// Facts about a lowered function the run needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lowered {
    /// Instructions lowered (inlined bodies counted each time): a bound on the steps one
    /// lane can add between two step checks.
    pub size: usize,
    /// The program has a BARRIER: it runs in rounds over blocks of quads, each quad
    /// resuming where it stopped (`memory` module docs).
    pub resumable: bool,
    /// Bytes of the state buffer per quad (resumable programs; 0 otherwise).
    pub state_bytes: usize,
}

/// Values loaded from the run context once per call.
#[derive(Clone, Copy)]
struct CtxVals {
    /// The run context pointer itself (passed to runtime calls).
    ctx: Value,
    inputs: Value,
    outputs: Value,
    uniform: Value,
    killed: Value,
    scratch: Value,
    tables: Value,
    /// Memory resources (`crate::memory::ResDesc` table).
    res: Value,
    /// State buffer of resumable runs.
    state: Value,
    /// Bytes per quad of the state buffer.
    state_stride: Value,
    /// First quad of this call.
    q_begin: Value,
}

/// An open construct during lowering (the compile-time image of the oracle's frames).
#[derive(Clone, Debug)]
enum Frame {
    If {
        /// The lanes waiting for ELSE / ENDIF.
        other: Variable,
    },
    Loop {
        brk: Variable,
        cont: Variable,
    },
    Switch {
        brk: Variable,
        started: Variable,
        default: Value,
        /// Match mask of each CASE of the switch, by instruction index.
        cases: HashMap<usize, Value>,
    },
    Call {
        ret: Variable,
    },
}

/// The lowering state for one function.
pub(crate) struct Lowerer<'a, 'f> {
    b: FunctionBuilder<'f>,
    libcalls: &'a Libcalls,
    env: &'a Env<'a>,
    cv: CtxVals,
    /// Current quad index (`i64`).
    q: Value,
    /// The step budget in every lane (`i32x4`, compared unsigned).
    limit: Value,
    /// Function exit block (parameter: status word).
    exit: Block,
    exec: Variable,
    gone: Variable,
    steps: Variable,
    /// `i32x4` constants already made in a block, by (block, value).
    consts: HashMap<(Block, u32), Value>,
    /// Register channels held in variables, by (space, flat index).
    regs: HashMap<(usize, u32), [Variable; 4]>,
    /// Column pointers of the current quad of the read-only inputs (`Plan::staged`), by
    /// binding: computed before the quad starts (or resumes), so they dominate every use.
    columns: HashMap<usize, Value>,
    /// The registers in variables that only float opcodes write ([`flow::float_opcode`]):
    /// their variables are `f32x4`, so those results need no cast to `i32x4` and back.
    /// Every other variable is `i32x4`.
    float_regs: HashSet<(usize, u32)>,
    /// Instructions counted but not yet added to `steps`.
    pending: i64,
    /// The execution mask is exactly the quad's live lanes (stores need no mask).
    full: bool,
    /// The execution mask is known to be empty (non-control code is skipped).
    exec_zero: bool,
    frames: Vec<Frame>,
    call_depth: usize,
    nesting: usize,
    lowered: usize,
    /// Memory instructions and BARRIER suspension points (`memory`).
    mem: memory::MemLower,
}

/// Flags of buffer accesses: never trap (every address is in bounds by construction).
fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Builds the function of `env.program` into `func` (signature included).
pub(crate) fn build(
    func: &mut Function,
    fbc: &mut FunctionBuilderContext,
    libcalls: &Libcalls,
    env: &Env,
    call_conv: CallConv,
    frontend: TargetFrontendConfig,
) -> Result<Lowered, LowerError> {
    func.signature.params = vec![AbiParam::new(I64)];
    func.signature.returns = vec![AbiParam::new(I64)];
    func.signature.call_conv = call_conv;
    let mut b = FunctionBuilder::new(func, fbc);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let ctx = b.block_params(entry)[0];
    let field = |b: &mut FunctionBuilder, off: usize| {
        b.ins().load(
            I64,
            MemFlagsData::trusted().with_readonly(),
            ctx,
            off as i32,
        )
    };
    let resumable = memory::has_barrier(env.program);
    let mut cv = CtxVals {
        ctx,
        inputs: field(&mut b, offset_of!(RunCtx, inputs)),
        outputs: field(&mut b, offset_of!(RunCtx, outputs)),
        uniform: field(&mut b, offset_of!(RunCtx, uniform)),
        killed: field(&mut b, offset_of!(RunCtx, killed)),
        scratch: field(&mut b, offset_of!(RunCtx, scratch)),
        tables: field(&mut b, offset_of!(RunCtx, tables)),
        res: field(&mut b, offset_of!(RunCtx, resources)),
        state: field(&mut b, offset_of!(RunCtx, state)),
        q_begin: field(&mut b, offset_of!(RunCtx, q_begin)),
        state_stride: field(&mut b, offset_of!(RunCtx, state_stride)),
    };
    let quads = field(&mut b, offset_of!(RunCtx, quads));
    let invocations = field(&mut b, offset_of!(RunCtx, invocations));
    let limit = field(&mut b, offset_of!(RunCtx, step_limit));
    let limit = b.ins().ireduce(I32, limit);
    let limit = b.ins().splat(I32X4, limit);
    let exit = b.create_block();
    b.append_block_param(exit, I64);
    let header = b.create_block();
    b.append_block_param(header, I64);
    let zero = b.ins().iconst(I64, 0);
    b.ins().jump(header, &[BlockArg::Value(cv.q_begin)]);
    b.switch_to_block(header);
    let q = b.block_params(header)[0];
    let more = b.ins().icmp(IntCC::UnsignedLessThan, q, quads);
    let body = b.create_block();
    b.ins()
        .brif(more, body, &[], exit, &[BlockArg::Value(zero)]);
    b.switch_to_block(body);
    b.seal_block(body);
    let columns = columns(&mut b, env, cv.inputs, q);
    let next = b.create_block();
    let start = b.create_block();
    // Resumable runs: each quad has its own scratch area, and a dispatch block (filled at
    // the end, when every suspension point is known) picks where the quad goes on.
    let dispatch = b.create_block();
    if resumable {
        let rel = b.ins().isub(q, cv.q_begin);
        let off = b.ins().imul_imm_u(rel, i64::from(env.plan.scratch_bytes));
        cv.scratch = b.ins().iadd(cv.scratch, off);
        b.ins().jump(dispatch, &[]);
    } else {
        b.ins().jump(start, &[]);
    }
    b.switch_to_block(start);
    let aseq = b.declare_var(I32X4);
    let exec = b.declare_var(I32X4);
    let gone = b.declare_var(I32X4);
    let steps = b.declare_var(I32X4);
    let mut l = Lowerer {
        b,
        libcalls,
        env,
        cv,
        q,
        limit,
        exit,
        exec,
        gone,
        steps,
        consts: HashMap::new(),
        regs: HashMap::new(),
        columns,
        float_regs: HashSet::new(),
        pending: 0,
        full: true,
        exec_zero: false,
        frames: Vec::new(),
        call_depth: 0,
        nesting: 0,
        lowered: 0,
        mem: memory::MemLower {
            aseq,
            resumable,
            start,
            dispatch,
            next,
            resumes: Vec::new(),
            most_saved: 0,
        },
    };
    l.quad_start(invocations);
    let zero4 = l.ci(0);
    l.b.def_var(aseq, zero4);
    let end = env.program.instructions.len();
    l.seq(0, end)?;
    l.flush();
    l.check_steps();
    l.quad_end();
    l.finish_quad();
    l.b.ins().jump(next, &[]);
    l.fill_dispatch();
    l.b.switch_to_block(next);
    l.b.seal_block(next);
    let q1 = l.b.ins().iadd_imm_s(q, 1);
    l.b.ins().jump(header, &[BlockArg::Value(q1)]);
    l.b.seal_block(header);
    l.b.switch_to_block(exit);
    l.b.seal_block(exit);
    let status = l.b.block_params(exit)[0];
    l.b.ins().return_(&[status]);
    l.b.seal_all_blocks();
    let lowered = Lowered {
        size: l.lowered,
        resumable,
        state_bytes: if resumable {
            memory::state_bytes(l.mem.most_saved)
        } else {
            0
        },
    };
    l.b.finalize(frontend);
    dce::run(func);
    dedupe::run(func);
    Ok(lowered)
}

/// The column pointers of quad `q` of the read-only inputs (`Plan::staged`) the run binds,
/// by binding: `inputs[k].ptr + 64q` (`crate::run::Binding`, channel c at byte 16c).
fn columns(b: &mut FunctionBuilder, env: &Env, inputs: Value, q: Value) -> HashMap<usize, Value> {
    let staged = env.plan.staged.iter();
    let bindings: BTreeSet<usize> = staged
        .filter_map(|&(s, f)| env.plan.input_binding(s, f))
        .collect();
    bindings
        .into_iter()
        .map(|k| (k, column(b, inputs, q, k)))
        .collect()
}

/// The column pointer of quad `q` of input binding `k`: `inputs[k].ptr + 64q`
/// (`crate::run::Binding`: the quad's four channels at bytes 0, 16, 32 and 48).
fn column(b: &mut FunctionBuilder, inputs: Value, q: Value, k: usize) -> Value {
    let at = (k * std::mem::size_of::<Binding>() + offset_of!(Binding, ptr)) as i32;
    let ro = MemFlagsData::trusted().with_readonly();
    let ptr = b.ins().load(I64, ro, inputs, at);
    let off = b.ins().ishl_imm_u(q, 6);
    b.ins().iadd(ptr, off)
}

impl<'a, 'f> Lowerer<'a, 'f> {
    // ----- small helpers -----

    /// An `i32x4` with `x` in every lane.
    /// Splatted constants are made once per block.
    fn ci(&mut self, x: u32) -> Value {
        let block = self.b.current_block();
        if let Some(v) = block.and_then(|b| self.consts.get(&(b, x))) {
            return *v;
        }
        let s = self.b.ins().iconst(I32, i64::from(x as i32));
        let v = self.b.ins().splat(I32X4, s);
        if let Some(b) = block {
            self.consts.insert((b, x), v);
        }
        v
    }

    /// `v` bit cast to `ty` (`crate::alu::cast`: no cast when `v` already is one of a `ty`
    /// value).
    fn cast(&mut self, ty: Type, v: Value) -> Value {
        crate::alu::cast(&mut self.b, ty, v)
    }

    /// `i8` truth value: some lane of mask `m` is set.
    fn any(&mut self, m: Value) -> Value {
        self.b.ins().vany_true(m)
    }

    fn use_exec(&mut self) -> Value {
        self.b.use_var(self.exec)
    }

    fn set_exec(&mut self, v: Value) {
        self.b.def_var(self.exec, v);
    }

    /// Rearranges the 32-bit lanes of `x` (and `y` for indices 4..=7). Only patterns x86-64
    /// lowers to `pshufd`/`punpck*` are used.
    fn shuffle32(&mut self, x: Value, y: Value, idx: [u8; 4]) -> Value {
        let xb = self.cast(I8X16, x);
        let yb = self.cast(I8X16, y);
        let bytes: Vec<u8> = idx
            .iter()
            .flat_map(|&l| (0..4).map(move |k| l * 4 + k))
            .collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(bytes));
        let r = self.b.ins().shuffle(xb, yb, imm);
        self.cast(I32X4, r)
    }

    /// Counts one more instruction and fails when the lowered size passes [`MAX_LOWERED`].
    fn count_lowered(&mut self, i: usize) -> Result<(), LowerError> {
        self.lowered += 1;
        if self.lowered > MAX_LOWERED {
            return Err(LowerError::Unsupported {
                opcode: None,
                pos: self.env.program.source_map.instruction(i),
                reason: format!(
                    "program too large for the jit: more than {MAX_LOWERED} instructions \
                     after inlining subroutines"
                ),
            });
        }
        Ok(())
    }

    // ----- step budget -----

    /// Adds the pending instruction count to the lanes of the execution mask.
    fn flush(&mut self) {
        if self.pending == 0 {
            return;
        }
        let n = self.ci(self.pending as u32);
        let exec = self.use_exec();
        let add = self.b.ins().band(n, exec);
        let s = self.b.use_var(self.steps);
        let s = self.b.ins().iadd(s, add);
        self.b.def_var(self.steps, s);
        self.pending = 0;
    }

    /// Leaves the function with `status | 4q + (first lane set in mask)` when some lane of
    /// `mask` is set; continues in a new block otherwise.
    fn exit_if_any(&mut self, mask: Value, status: u64) {
        let bad = self.b.create_block();
        let ok = self.b.create_block();
        self.b.set_cold_block(bad);
        let any = self.any(mask);
        self.b.ins().brif(any, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        self.b.seal_block(bad);
        let bits = self.b.ins().vhigh_bits(I32, mask);
        let lane = self.b.ins().ctz(bits);
        let lane = self.b.ins().uextend(I64, lane);
        let base = self.b.ins().ishl_imm_u(self.q, 2);
        let inv = self.b.ins().iadd(base, lane);
        let word = self.b.ins().bor_imm_u(inv, status as i64);
        self.b.ins().jump(self.exit, &[BlockArg::Value(word)]);
        self.b.switch_to_block(ok);
        self.b.seal_block(ok);
    }

    /// Stops the run when a lane of the quad is over the step budget.
    fn check_steps(&mut self) {
        let s = self.b.use_var(self.steps);
        let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, s, self.limit);
        self.exit_if_any(over, STATUS_STEP_LIMIT);
    }

    // ----- quad start and end -----

    /// Execution mask = live lanes; registers zero or loaded from the inputs.
    fn quad_start(&mut self, invocations: Value) {
        let base = self.b.ins().ishl_imm_u(self.q, 2);
        let left = self.b.ins().isub(invocations, base);
        let four = self.b.ins().iconst(I64, 4);
        let left = self.b.ins().umin(left, four);
        let left = self.b.ins().ireduce(I32, left);
        let left = self.b.ins().splat(I32X4, left);
        let iota = self.b.func.dfg.constants.insert(ConstantData::from(
            [0u32, 1, 2, 3]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<u8>>(),
        ));
        let iota = self.b.ins().vconst(I32X4, iota);
        let live = self.b.ins().icmp(IntCC::UnsignedGreaterThan, left, iota);
        self.set_exec(live);
        let zero = self.ci(0);
        self.b.def_var(self.gone, zero);
        self.b.def_var(self.steps, zero);
        let env = self.env;
        let plan = env.plan;
        // Registers in variables: every directly named per-invocation register.
        let mut direct: BTreeSet<(usize, u32)> = BTreeSet::new();
        for insn in &env.program.instructions {
            let direct_operands = insn
                .dst
                .iter()
                .map(|d| d.reg)
                .chain(insn.src.iter().map(|s| s.reg))
                .filter(|r| !r.is_indirect());
            for r in direct_operands.chain(crate::plan::address_registers(insn)) {
                if let Some((s, f)) = plan.direct(env.shape, &r) {
                    let sp = &plan.spaces[s];
                    if !sp.uniform && !sp.in_memory {
                        direct.insert((s, f));
                    }
                }
            }
        }
        let float_regs = self.float_written(&direct);
        for (s, f) in direct {
            if plan.staged.contains(&(s, f)) {
                continue;
            }
            let binding = plan.input_binding(s, f);
            let ty = if binding.is_none() && float_regs.contains(&(s, f)) {
                self.float_regs.insert((s, f));
                F32X4
            } else {
                I32X4
            };
            let vars = [(); 4].map(|_| self.b.declare_var(ty));
            let vals = match binding {
                Some(k) => self.load_binding(k),
                None => [zero; 4],
            };
            for c in 0..4 {
                let v = self.cast(ty, vals[c]);
                self.b.def_var(vars[c], v);
            }
            self.regs.insert((s, f), vars);
        }
        // Spaces in memory: zero the registers that may be read (`Plan::may_read`), then
        // load the inputs they hold.
        for (s, sp) in plan.spaces.iter().enumerate() {
            if !sp.in_memory {
                continue;
            }
            match plan.may_read(env.program, env.shape, s) {
                None => self.zero_scratch(sp.base, sp.dims * sp.len * REG_BYTES),
                Some(read) => {
                    for f in read {
                        if plan.input_binding(s, f).is_none() {
                            self.zero_scratch(sp.base + f * REG_BYTES, REG_BYTES);
                        }
                    }
                }
            }
            for f in 0..sp.dims * sp.len {
                if let Some(k) = plan.input_binding(s, f) {
                    let vals = self.load_binding(k);
                    for (c, v) in vals.into_iter().enumerate() {
                        let off = sp.base + f * REG_BYTES + c as u32 * 16;
                        self.b.ins().store(mem(), v, self.cv.scratch, off as i32);
                    }
                }
            }
        }
    }

    /// The four channels of input binding `k` for the current quad: four vector loads (the
    /// run gives inputs in columns, `crate::run::Binding`).
    fn load_binding(&mut self, k: usize) -> [Value; 4] {
        let quad = column(&mut self.b, self.cv.inputs, self.q, k);
        [0, 1, 2, 3].map(|c| self.b.ins().load(I32X4, mem(), quad, c * 16))
    }

    /// Zeroes `bytes` bytes of the scratch buffer from byte offset `base`.
    fn zero_scratch(&mut self, base: u32, bytes: u32) {
        let zero = self.ci(0);
        if bytes <= 16 * REG_BYTES {
            for off in (0..bytes).step_by(16) {
                self.b
                    .ins()
                    .store(mem(), zero, self.cv.scratch, (base + off) as i32);
            }
            return;
        }
        let start = self.b.ins().iadd_imm_u(self.cv.scratch, i64::from(base));
        let end = self.b.ins().iadd_imm_u(start, i64::from(bytes));
        let lp = self.b.create_block();
        let done = self.b.create_block();
        let p = self.b.append_block_param(lp, I64);
        self.b.ins().jump(lp, &[BlockArg::Value(start)]);
        self.b.switch_to_block(lp);
        for off in (0..REG_BYTES).step_by(16) {
            self.b.ins().store(mem(), zero, p, off as i32);
        }
        let next = self.b.ins().iadd_imm_u(p, i64::from(REG_BYTES));
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, next, end);
        self.b
            .ins()
            .brif(more, lp, &[BlockArg::Value(next)], done, &[]);
        self.b.seal_block(lp);
        self.b.switch_to_block(done);
        self.b.seal_block(done);
    }

    /// Stores the output registers and the killed mask of the current quad.
    fn quad_end(&mut self) {
        self.store_outputs();
        let plan = self.env.plan;
        if plan.fragment {
            let q16 = self.b.ins().ishl_imm_u(self.q, 4);
            let at = self.b.ins().iadd(self.cv.killed, q16);
            let gone = self.b.use_var(self.gone);
            self.b.ins().store(mem(), gone, at, 0);
        }
    }

    /// Stores the current quad's output registers to their buffers (at the end, and before
    /// EMIT hands them to the runtime), in columns: four vector stores per register, the
    /// run turns them into rows once (`crate::run::quad_rows`).
    fn store_outputs(&mut self) {
        let plan = self.env.plan;
        let q64 = self.b.ins().ishl_imm_u(self.q, 6);
        for (o, &(_, s, f)) in plan.outputs.iter().enumerate() {
            let cols = self.read_register(s, f);
            let ro = MemFlagsData::trusted().with_readonly();
            let ptr = self.b.ins().load(I64, ro, self.cv.outputs, (o * 8) as i32);
            let base = self.b.ins().iadd(ptr, q64);
            for (c, v) in cols.into_iter().enumerate() {
                self.b.ins().store(mem(), v, base, (c * 16) as i32);
            }
        }
    }

    /// EMIT / ENDPRIM (`crate::emit`): the outputs go to their rows, then the runtime call
    /// records the vertex (or ends the primitive) for each executing lane.
    fn emit_vertex(&mut self, i: usize, end_prim: bool) -> Result<(), LowerError> {
        let insn = &self.env.program.instructions[i];
        let stream = match insn.src.first() {
            Some(src) => self.fetch(i, src, FetchType::Int, 0x1)?[0],
            None => self.ci(0),
        };
        let f = *self
            .libcalls
            .refs
            .get(crate::emit::EMIT_SYMBOL)
            .ok_or_else(|| self.invalid(i, "the emit runtime call is not declared"))?;
        if !end_prim {
            self.store_outputs();
        }
        let exec = self.use_exec();
        let mask = self.b.ins().vhigh_bits(I32, exec);
        let end = self.b.ins().iconst(I32, i64::from(end_prim));
        let mut args = vec![self.cv.ctx, self.q, mask, end];
        for l in 0..4u8 {
            args.push(self.b.ins().extractlane(stream, l));
        }
        self.b.ins().call(f, &args);
        Ok(())
    }

    /// The registers of `direct` (in variables) that some instruction writes and that only
    /// float opcodes write ([`flow::float_opcode`]; by direct destination: a space written
    /// indirectly lives in the scratch buffer, never in variables).
    fn float_written(&self, direct: &BTreeSet<(usize, u32)>) -> HashSet<(usize, u32)> {
        let env = self.env;
        let (mut float, mut other) = (HashSet::new(), HashSet::new());
        for insn in &env.program.instructions {
            let is_float = flow::float_opcode(insn.opcode, env.fault);
            for d in insn.dst.iter().filter(|d| !d.reg.is_indirect()) {
                if let Some(key) = env.plan.direct(env.shape, &d.reg) {
                    if is_float { &mut float } else { &mut other }.insert(key);
                }
            }
        }
        float
            .into_iter()
            .filter(|k| direct.contains(k) && !other.contains(k))
            .collect()
    }

    /// All four channels of per-invocation register `(space, flat)` (zero when it has no
    /// storage because nothing names it).
    fn read_register(&mut self, s: usize, f: u32) -> [Value; 4] {
        let sp = &self.env.plan.spaces[s];
        if sp.in_memory {
            let base = sp.base + f * REG_BYTES;
            return [0u32, 1, 2, 3].map(|c| {
                self.b
                    .ins()
                    .load(I32X4, mem(), self.cv.scratch, (base + c * 16) as i32)
            });
        }
        match self.regs.get(&(s, f)).copied() {
            Some(vars) => vars.map(|v| {
                let x = self.b.use_var(v);
                self.cast(I32X4, x)
            }),
            None => {
                let z = self.ci(0);
                [z; 4]
            }
        }
    }

    /// Source position of instruction `i`.
    fn pos(&self, i: usize) -> Option<Pos> {
        self.env.program.source_map.instruction(i)
    }

    fn invalid(&self, i: usize, message: impl Into<String>) -> LowerError {
        LowerError::Invalid {
            pos: self.pos(i),
            message: message.into(),
        }
    }

    /// Whether `file` holds compile-time constant values (IMM, IMMX).
    fn constant_file(file: File) -> bool {
        matches!(file, File::Immediate | File::ImmArray)
    }
}
