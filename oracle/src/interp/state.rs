//! Per-chunk machine state: register storage, execution masks, control-flow frames,
//! step counters; loading inputs into a chunk and collecting its outputs.

use std::collections::BTreeMap;

use super::decode::Decoded;
use super::interval::machine::IvState;
use super::lanes::{Mask, Plane, Vals, LANES, ZERO_VALS};
use super::ExecError;
use crate::io::{Outputs, RegKey, Vec4};

/// Register storage of one chunk: per-lane values and per-lane "undefined" bits, per slot.
pub(crate) struct Regs {
    pub vals: Vec<Vals>,
    pub und: Vec<[Mask; 4]>,
}

/// Scratch buffers reused by every instruction (no allocation while running).
pub(crate) struct Scratch {
    /// Fetched sources.
    pub srcs: Vec<Vals>,
    /// Undefined bits of the fetched source channels.
    pub src_und: [[Mask; 4]; 4],
    /// Result of the current instruction.
    pub out: Box<Vals>,
    /// Per-lane slots of an indirect operand.
    pub slots: Box<[u32; LANES]>,
}

/// One open control-flow construct or call.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Frame {
    /// IF/UIF: `other` = lanes waiting for the other branch (then: the ELSE lanes;
    /// else: the lanes that finished the then-branch).
    If { other: Mask },
    /// BGNLOOP: lanes that executed BRK / CONT; `start` = first instruction of the body.
    Loop { brk: Mask, cont: Mask, start: u32 },
    /// SWITCH: `saved` = lanes that entered; `started` = lanes that reached their label;
    /// `brk` = lanes that executed BRK; `default` = lanes matching no CASE; `off` = first
    /// of this switch's CASE match masks in `Machine::case_masks`.
    Switch {
        saved: Mask,
        started: Mask,
        brk: Mask,
        default: Mask,
        off: u32,
    },
    /// CAL: where to return and the lanes that executed RET.
    Call { ret_pc: u32, ret: Mask },
}

/// The interpreter state for one chunk of invocations (reused across chunks).
pub(crate) struct Machine<'a> {
    pub d: &'a Decoded,
    pub uniform: Vec<Vec4>,
    pub regs: Regs,
    pub s: Scratch,
    /// Lanes executing the current instruction.
    pub exec: Mask,
    pub frames: Vec<Frame>,
    pub case_masks: Vec<Mask>,
    pub call_depth: usize,
    /// Lanes terminated by KILL / KILL_IF.
    pub killed: Mask,
    /// Lanes demoted to helpers.
    pub demoted: Mask,
    /// Lanes whose behaviour depends on an undefined value: every output undefined.
    pub unconstrained: Mask,
    /// Instructions executed per lane (flushed from `pending` at mask changes).
    pub steps: [u64; LANES],
    /// Instructions executed under the current `exec` since the last flush.
    pub pending: u64,
    pub limit: u64,
    /// First invocation of the chunk.
    pub base: usize,
    /// Per-invocation inputs: slot and values (one vec4, or one per invocation).
    pub inputs: Vec<(u32, &'a [Vec4])>,
    /// Acceptance-interval state (`run_with_intervals` only; `None` on the plain path).
    pub iv: Option<Box<IvState<'a>>>,
    /// Per lane: the vertices emitted so far (geometry programs).
    pub emissions: Vec<super::emit::Emission>,
    /// Memory resources, workgroups and the atomic log (`None` without memory).
    pub mem: Option<Box<super::memory::MemState>>,
    /// Textures by unit (`texture.rs`).
    pub textures: std::collections::BTreeMap<u32, &'a crate::texture::Texture>,
    /// This evaluation flushes denormals (`denormal.rs`).
    pub ftz: bool,
    /// Sources of the current instruction that were flushed (bit k), for the interval fetch.
    pub ftz_fetch: u8,
    /// With intervals, not flushing: float arithmetic read or wrote a denormal value.
    pub saw_denormal: bool,
}

impl<'a> Machine<'a> {
    pub fn new(
        d: &'a Decoded,
        uniform: Vec<Vec4>,
        inputs: Vec<(u32, &'a [Vec4])>,
        limit: u64,
    ) -> Self {
        let n = d.layout.lane_slots as usize;
        Machine {
            d,
            uniform,
            regs: Regs {
                vals: vec![ZERO_VALS; n],
                und: vec![[0; 4]; n],
            },
            s: Scratch {
                srcs: vec![ZERO_VALS; 4],
                src_und: [[0; 4]; 4],
                out: Box::new(ZERO_VALS),
                slots: Box::new([0; LANES]),
            },
            exec: 0,
            frames: Vec::with_capacity(64),
            case_masks: Vec::with_capacity(64),
            call_depth: 0,
            killed: 0,
            demoted: 0,
            unconstrained: 0,
            steps: [0; LANES],
            pending: 0,
            limit,
            base: 0,
            inputs,
            iv: None,
            emissions: if d.stage == shaderdiff_model::Stage::Geometry {
                vec![super::emit::Emission::default(); LANES]
            } else {
                Vec::new()
            },
            mem: None,
            textures: std::collections::BTreeMap::new(),
            ftz: false,
            ftz_fetch: 0,
            saw_denormal: false,
        }
    }

    /// Prepares lanes `base..base+n` (n ≤ LANES): registers zero, inputs loaded, all
    /// lanes executing.
    pub fn reset(&mut self, base: usize, n: usize) {
        for v in &mut self.regs.vals {
            *v = ZERO_VALS;
        }
        for u in &mut self.regs.und {
            *u = [0; 4];
        }
        for &(slot, values) in &self.inputs {
            let dst = &mut self.regs.vals[slot as usize];
            for l in 0..n {
                let v = if values.len() == 1 {
                    values[0]
                } else {
                    values[base + l]
                };
                for c in 0..4 {
                    dst[c][l] = v[c];
                }
            }
        }
        self.exec = lane_mask(n);
        self.frames.clear();
        self.case_masks.clear();
        self.call_depth = 0;
        self.killed = 0;
        self.demoted = 0;
        self.unconstrained = 0;
        self.steps = [0; LANES];
        self.pending = 0;
        self.base = base;
        if self.iv.is_some() {
            self.iv_reset();
        }
    }

    /// Adds the pending instruction count to every executing lane; errors when a lane
    /// goes over the step limit.
    pub fn flush_steps(&mut self) -> Result<(), ExecError> {
        if self.pending == 0 {
            return Ok(());
        }
        let mut m = self.exec;
        let mut over = None;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            self.steps[l] += self.pending;
            if self.steps[l] > self.limit && over.is_none() {
                over = Some(l);
            }
            m &= m - 1;
        }
        self.pending = 0;
        match over {
            Some(l) => Err(ExecError::StepLimit {
                limit: self.limit,
                invocation: self.base + l,
            }),
            None => Ok(()),
        }
    }

    /// Appends lanes `0..n` of this chunk to `out`.
    pub fn collect(&self, n: usize, out: &mut Outputs, fragment: bool) {
        for &(key, slot) in &self.d.outputs {
            let vals = &self.regs.vals[slot as usize];
            let und = &self.regs.und[slot as usize];
            let list = out.registers.entry(key).or_default();
            list.extend((0..n).map(|l| [vals[0][l], vals[1][l], vals[2][l], vals[3][l]]));
            push_undefined(
                &mut out.undefined,
                key,
                und,
                self.unconstrained,
                self.base,
                n,
            );
        }
        if fragment {
            let killed = out.killed.get_or_insert_with(Vec::new);
            let gone = self.killed | self.demoted;
            killed.extend((0..n).map(|l| gone >> l & 1 != 0));
        }
    }
}

fn push_undefined(
    map: &mut BTreeMap<RegKey, Vec<u8>>,
    key: RegKey,
    und: &[Mask; 4],
    unconstrained: Mask,
    base: usize,
    n: usize,
) {
    let live = lane_mask(n);
    let any = (und[0] | und[1] | und[2] | und[3] | unconstrained) & live;
    if any == 0 {
        return;
    }
    let list = map.entry(key).or_default();
    // Earlier chunks had nothing undefined for this register: fill them with zeros.
    list.resize(base, 0);
    for l in 0..n {
        let mut bits = 0u8;
        for (c, u) in und.iter().enumerate() {
            bits |= ((u >> l & 1) as u8) << c;
        }
        if unconstrained >> l & 1 != 0 {
            bits = 0xF;
        }
        list.push(bits);
    }
}

/// Mask of the first `n` lanes.
pub(crate) fn lane_mask(n: usize) -> Mask {
    if n >= LANES {
        !0
    } else {
        (1u64 << n) - 1
    }
}

/// Copies `src` into the lanes of `dst` selected by `mask`.
#[inline]
pub(crate) fn blend(dst: &mut Plane, src: &Plane, mask: Mask) {
    if mask == !0 {
        *dst = *src;
        return;
    }
    for l in 0..LANES {
        let m = 0u32.wrapping_sub((mask >> l & 1) as u32);
        dst[l] = (src[l] & m) | (dst[l] & !m);
    }
}
