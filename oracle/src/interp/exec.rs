//! The execution loop: input checking, chunking, per-instruction dispatch (ALU,
//! derivatives, KILL/KILL_IF/DEMOTE; control flow is in `control.rs`), output collection.

use shaderdiff_model::Stage;

use super::alu;
use super::decode::{DInsn, Decoded, Kind};
use super::fetch::{channels, saturate};
use super::interval::machine::IvState;
use super::interval::Env;
use super::lanes::{FetchType, Mask, LANES};
use super::memory::{AtomicOrder, Hazards, MemState};
use super::shape;
use super::state::Machine;
use super::{ExecError, InterpConfig};
use crate::io::{Inputs, Outputs, Vec4};

/// What the loop does after an instruction.
pub(crate) enum Next {
    /// Continue at this instruction index.
    Pc(usize),
    /// The chunk is finished.
    Stop,
}

/// Per-invocation inputs bound to lane slots.
type Bound<'a> = Vec<(u32, &'a [Vec4])>;

/// Checks `inputs` against the program ([`shape::check_inputs`], shared with every engine)
/// and binds them: per-invocation registers to lane slots, constants into the uniform storage.
fn bind<'a>(d: &Decoded, inputs: &'a Inputs) -> Result<(Vec<Vec4>, Bound<'a>), ExecError> {
    shape::check_inputs(d.stage, &d.layout, &d.memory_regs, &d.textures, inputs)?;
    let mut bound = Vec::new();
    for (key, values) in &inputs.registers {
        if let Some(slot) = shape::input_slot(&d.layout, key) {
            bound.push((slot, values.as_slice()));
        }
    }
    let mut uniform = d.uniform_init.clone();
    for (key, value) in &inputs.constants {
        if let Some(slot) = shape::input_slot(&d.layout, key) {
            uniform[slot as usize] = *value;
        }
    }
    Ok((uniform, bound))
}

/// Runs a decoded program (see [`super::run`]); with `intervals`, also computes acceptance
/// intervals for that class ([`super::run_with_intervals`]); `order` chooses the serial
/// order of the atomics ([`super::run_with`]). Programs with memory run again when a pass
/// finds data races or chaos it did not know of (at most three passes: see the module docs,
/// "Memory model").
pub(crate) fn run_decoded(
    d: &Decoded,
    inputs: &Inputs,
    config: &InterpConfig,
    intervals: Option<Env<'_>>,
    order: AtomicOrder<'_>,
) -> Result<Outputs, ExecError> {
    run_decoded_probe(d, inputs, config, intervals, order).map(|(out, _)| out)
}

/// [`run_decoded`], and whether (with intervals) float arithmetic read or wrote a denormal
/// value (`denormal.rs`: a flushed evaluation can only differ when it did).
pub(crate) fn run_decoded_probe(
    d: &Decoded,
    inputs: &Inputs,
    config: &InterpConfig,
    intervals: Option<Env<'_>>,
    order: AtomicOrder<'_>,
) -> Result<(Outputs, bool), ExecError> {
    let mut known = Hazards::default();
    loop {
        let (out, found, saw) = run_pass(d, inputs, config, intervals, &known, order)?;
        if !found.grows(&known) || known.chaos {
            return Ok((out, saw));
        }
        known.extend(found);
    }
}

/// One pass over every invocation, judging memory values by the hazards `known`; returns
/// the outputs and the hazards this pass found.
fn run_pass(
    d: &Decoded,
    inputs: &Inputs,
    config: &InterpConfig,
    intervals: Option<Env<'_>>,
    known: &Hazards,
    order: AtomicOrder<'_>,
) -> Result<(Outputs, Hazards, bool), ExecError> {
    let (uniform, bound) = bind(d, inputs)?;
    let n = inputs.invocations;
    let fragment = d.stage == Stage::Fragment;
    let mut out = Outputs {
        invocations: n,
        buffers: inputs.buffers.clone(),
        global: inputs.global.clone(),
        killed: fragment.then(|| Vec::with_capacity(n)),
        ..Outputs::default()
    };
    for &(key, _) in &d.outputs {
        out.registers.insert(key, Vec::with_capacity(n));
    }
    let mut m = Machine::new(d, uniform, bound, config.step_limit);
    m.textures = super::texture::bind(inputs);
    let has_memory = !d.resources.is_empty() || d.insns.iter().any(|i| i.mem.is_some());
    if has_memory {
        m.mem = Some(Box::new(MemState::new(
            d.resources.clone(),
            inputs,
            d.wg_size,
            d.mem_writes,
            known.clone(),
            order,
        )));
    }
    m.ftz = intervals.is_some_and(|e| e.ftz);
    if let Some(env) = intervals {
        m.iv = Some(Box::new(IvState::new(env, d.layout.lane_slots as usize)));
        out.intervals = Some(crate::io::Intervals {
            class: env.policy.name.clone(),
            ..Default::default()
        });
    }
    let geometry = d.stage == Stage::Geometry;
    let mut emissions = Vec::new();
    let mut base = 0;
    while base < n {
        let lanes = (n - base).min(LANES);
        m.reset(base, lanes);
        if let Some(mem) = m.mem.as_deref_mut() {
            mem.start_chunk(lanes);
        }
        m.run_chunk()?;
        if let Some(mem) = m.mem.as_deref_mut() {
            // An unconstrained invocation may have written anywhere (module docs).
            if m.unconstrained != 0 && mem.writes {
                mem.found.chaos = true;
            }
        }
        m.collect(lanes, &mut out, fragment);
        if m.iv.is_some() {
            m.iv_collect(lanes, &mut out);
        }
        if geometry {
            m.collect_emissions(lanes, &mut emissions);
        }
        base += lanes;
    }
    for list in out.undefined.values_mut() {
        list.resize(n, 0);
    }
    if geometry {
        super::emit::report(&d.outputs, emissions, &mut out);
    }
    let mut found = Hazards::default();
    if let Some(mem) = m.mem.take() {
        let mut mem = *mem;
        mem.finish();
        found = mem.found.clone();
        mem.report(&mut out);
    }
    Ok((out, found, m.saw_denormal))
}

impl Machine<'_> {
    /// Executes the program for the current chunk.
    pub fn run_chunk(&mut self) -> Result<(), ExecError> {
        let d = self.d;
        let mut pc = 0usize;
        while pc < d.insns.len() {
            let insn = &d.insns[pc];
            if self.exec == 0 && !insn.kind.is_control() {
                pc = d.next_control[pc] as usize;
                continue;
            }
            if self.exec != 0 {
                self.pending += 1;
            }
            if insn.kind.changes_mask() {
                self.flush_steps()?;
            }
            pc = match insn.kind {
                Kind::Alu => {
                    self.alu(insn)?;
                    pc + 1
                }
                Kind::Deriv { y, fine } => {
                    self.derivative(insn, y, fine);
                    pc + 1
                }
                Kind::Kill => {
                    self.killed |= self.exec;
                    self.exec = 0;
                    pc + 1
                }
                Kind::KillIf => {
                    self.kill_if(insn);
                    pc + 1
                }
                Kind::Demote => {
                    self.demoted |= self.exec;
                    pc + 1
                }
                Kind::Nop => pc + 1,
                Kind::Mem(op) => {
                    self.memory(insn, op);
                    pc + 1
                }
                Kind::Tex(_) => {
                    self.texture(insn);
                    pc + 1
                }
                Kind::Vote(op) => {
                    self.vote(insn, op);
                    pc + 1
                }
                Kind::Interp { at, flat } => {
                    self.interpolate(insn, at, flat);
                    pc + 1
                }
                Kind::Emit { end_prim } => {
                    self.emit(insn, end_prim);
                    pc + 1
                }
                _ => match self.control(pc, insn)? {
                    Next::Pc(p) => p,
                    Next::Stop => break,
                },
            };
        }
        self.flush_steps()
    }

    /// Fetches the sources of `insn` (channels `fetch_mask[k]`) into the scratch buffers.
    pub(crate) fn fetch_sources(&mut self, insn: &DInsn) {
        let d = self.d;
        for (k, src) in insn.srcs.iter().enumerate() {
            let addr_und = self.regs.fetch(
                d,
                &self.uniform,
                src,
                insn.fetch_mask[k],
                &mut self.s.srcs[k],
                &mut self.s.src_und[k],
                &mut self.s.slots,
            );
            self.unconstrained |= addr_und & self.exec;
        }
        self.ftz_sources(insn);
    }

    /// Saturates and stores the scratch result with undefined bits `und`.
    pub(crate) fn store_result(&mut self, insn: &DInsn, mut und: [Mask; 4]) {
        let sat = saturate(&mut self.s.out, insn.writemask, insn.saturate);
        for c in 0..4 {
            und[c] |= sat[c];
        }
        if self.iv.is_some() {
            und = self.iv_saturate(insn, und);
        }
        let lost = self.regs.store(
            self.d,
            &self.uniform,
            insn.dst,
            insn.writemask,
            &self.s.out,
            &und,
            self.exec,
            &mut self.s.slots,
        );
        self.unconstrained |= lost;
        if self.iv.is_some() {
            self.iv_store(insn);
        }
    }

    /// An ALU instruction: fetch, [`alu::eval`], propagate undefinedness, store.
    fn alu(&mut self, insn: &DInsn) -> Result<(), ExecError> {
        self.fetch_sources(insn);
        let nsrc = insn.srcs.len();
        let mut und = [0 as Mask; 4];
        alu::eval(
            insn.op,
            &self.s.srcs[..nsrc],
            insn.writemask,
            &mut self.s.out,
            &mut und,
        )
        .map_err(|e| ExecError::Unsupported {
            opcode: insn.op,
            pos: insn.pos,
            reason: e.to_string(),
        })?;
        self.ftz_result(insn);
        if alu::wide::is_wide(insn.op) {
            // Each result channel depends on the channels of its pair (wide.rs layout).
            for (c, u) in und.iter_mut().enumerate() {
                for (k, su) in self.s.src_und[..nsrc].iter().enumerate() {
                    for j in channels(alu::wide::reads(insn.op, k, c)) {
                        *u |= su[j];
                    }
                }
            }
        } else if insn.componentwise {
            for su in &self.s.src_und[..nsrc] {
                for (u, s) in und.iter_mut().zip(su) {
                    *u |= s;
                }
            }
        } else {
            let mut any = 0;
            for k in 0..nsrc {
                for c in channels(insn.read_mask[k]) {
                    any |= self.s.src_und[k][c];
                }
            }
            for u in &mut und {
                *u |= any;
            }
        }
        if self.iv.is_some() {
            self.iv_alu(insn, &mut und);
        }
        self.store_result(insn, und);
        Ok(())
    }

    /// DDX/DDY (tgsi.rst "DDX, DDX_FINE", "DDY, DDY_FINE"; INTERFACE.md "Fragment quads":
    /// lanes `4q..4q+3` are `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`).
    ///
    /// * fine DDX: `v1 - v0` for lanes 0, 1 and `v3 - v2` for lanes 2, 3;
    ///   fine DDY: `v2 - v0` for lanes 0, 2 and `v3 - v1` for lanes 1, 3.
    /// * coarse DDX: `v1 - v0` (top row) for all four lanes, undefined when `v3 - v2`
    ///   differs (tgsi.rst lets coarse use either row); coarse DDY: `v2 - v0` (left
    ///   column), undefined when `v3 - v1` differs.
    /// * undefined for the whole quad when not all four lanes execute the instruction
    ///   or a source value of the quad is undefined.
    fn derivative(&mut self, insn: &DInsn, y: bool, fine: bool) {
        self.fetch_sources(insn);
        let exec = self.exec;
        let mut und = [0 as Mask; 4];
        let src = &self.s.srcs[0];
        let out = &mut self.s.out;
        // (a, b) lane pairs: result = v[b] - v[a]; first pair for the top row / left column.
        let (p0, p1) = if y {
            ((0, 2), (1, 3))
        } else {
            ((0, 1), (2, 3))
        };
        for c in channels(insn.writemask) {
            let v = &src[c];
            let su = self.s.src_und[0][c];
            for q in 0..LANES / 4 {
                let b = 4 * q;
                let quad = (exec >> b) & 0xF;
                if quad == 0 {
                    continue;
                }
                let f = |l: usize| f32::from_bits(v[b + l]);
                let d0 = (f(p0.1) - f(p0.0)).to_bits();
                let d1 = (f(p1.1) - f(p1.0)).to_bits();
                let mut undefined = quad != 0xF || (su >> b) & 0xF != 0;
                if fine {
                    // Each lane takes the difference along its own row (column).
                    out[c][b + p0.0] = d0;
                    out[c][b + p0.1] = d0;
                    out[c][b + p1.0] = d1;
                    out[c][b + p1.1] = d1;
                } else {
                    let same =
                        d0 == d1 || (f32::from_bits(d0).is_nan() && f32::from_bits(d1).is_nan());
                    undefined |= !same;
                    for l in 0..4 {
                        out[c][b + l] = d0;
                    }
                }
                if undefined {
                    und[c] |= 0xF << b;
                }
            }
        }
        self.ftz_result(insn);
        if self.iv.is_some() {
            self.iv_derivative(insn, y, fine);
        }
        self.store_result(insn, und);
    }

    /// KILL_IF (tgsi.rst): executing lanes with any of the four swizzled components
    /// `< 0.0` are killed (NaN and -0.0 are not). An undefined component makes the
    /// lane unconstrained.
    fn kill_if(&mut self, insn: &DInsn) {
        self.fetch_sources(insn);
        if self.iv.is_some() {
            self.iv_kill_if(insn);
        }
        let mut kill: Mask = 0;
        let mut und: Mask = 0;
        for c in 0..4 {
            for (l, &v) in self.s.srcs[0][c].iter().enumerate() {
                kill |= ((f32::from_bits(v) < 0.0) as Mask) << l;
            }
            und |= self.s.src_und[0][c];
        }
        self.unconstrained |= und & self.exec;
        kill &= self.exec;
        self.killed |= kill;
        self.exec &= !kill;
    }

    /// Fetches channel 0 of source `k` of `insn` (fetch type `ty`) and returns, per lane,
    /// whether it is "true" (float `!= 0.0` with NaN true, or bits `!= 0`). Undefined
    /// executing lanes become unconstrained.
    pub fn condition(&mut self, insn: &DInsn, ty: FetchType) -> Mask {
        let d = self.d;
        let addr_und = self.regs.fetch(
            d,
            &self.uniform,
            &insn.srcs[0],
            0x1,
            &mut self.s.srcs[0],
            &mut self.s.src_und[0],
            &mut self.s.slots,
        );
        self.unconstrained |= (addr_und | self.s.src_und[0][0]) & self.exec;
        self.ftz_condition(ty == FetchType::Float);
        let mut m: Mask = 0;
        for (l, &v) in self.s.srcs[0][0].iter().enumerate() {
            let t = match ty {
                FetchType::Float => f32::from_bits(v) != 0.0,
                FetchType::Int => v != 0,
            };
            m |= (t as Mask) << l;
        }
        if self.iv.is_some() {
            self.iv_condition(insn, ty);
        }
        m
    }
}
