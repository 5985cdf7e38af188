//! Geometry programs: EMIT and ENDPRIM (tgsi.rst "Geometry ISA"), and how emitted vertices
//! are reported ([`Outputs::emits`], registers `OUT[v][n]`).
//!
//! Semantics, per invocation:
//! * **EMIT** `[src]`: "Generate a new vertex for the current primitive into the specified
//!   vertex stream using the values in the output registers" (tgsi.rst). The stream is the
//!   integer `src.x` (stream 0 when the operand is omitted, the pre-2013 syntax). The vertex
//!   records every output register's current value. Where the spec is silent we follow
//!   tgsi_exec (EXEC-NOTES.md §7): vertices past `GS_MAX_OUTPUT_VERTICES` are dropped; the
//!   property defaults to 0 as Mesa's property table does, so a program without it emits
//!   nothing. The limit counts every vertex the invocation emitted, whatever its stream
//!   (GLSL's `max_vertices`).
//! * **ENDPRIM** `[src]`: "Complete the current primitive in the specified vertex stream
//!   (consisting of the emitted vertices), and start a new one." A primitive with no vertex
//!   is not counted: each vertex records how many non-empty primitives of its stream were
//!   completed before it ([`EmitRecord::primitive`]).
//! * A stream operand whose value is undefined (or, with intervals, not exactly known)
//!   makes the invocation unconstrained.

use super::decode::DInsn;
use super::lanes::{FetchType, LANES};
use super::state::Machine;
use crate::io::{emitted_key, EmitRecord, Interval, Outputs, Vec4};

/// One emitted vertex: its record, and per output register (in `Decoded::outputs` order)
/// the value, the undefined channels and (with intervals) the acceptance intervals.
#[derive(Clone, Debug)]
pub(crate) struct Vertex {
    record: EmitRecord,
    vals: Vec<Vec4>,
    und: Vec<u8>,
    ivs: Option<Vec<[Interval; 4]>>,
    /// Pair-half flags per output (`crate::io::Intervals::halves`).
    halves: Vec<u8>,
}

/// What one invocation has emitted so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct Emission {
    vertices: Vec<Vertex>,
    /// Per stream: completed non-empty primitives, and whether the current one has a vertex.
    streams: std::collections::BTreeMap<u32, (u32, bool)>,
    /// The invocation ended unconstrained: all of its outputs are undefined.
    unconstrained: bool,
}

impl Machine<'_> {
    /// EMIT (`end_prim == false`) or ENDPRIM for the executing lanes.
    pub(crate) fn emit(&mut self, insn: &DInsn, end_prim: bool) {
        let streams: [u32; LANES] = if insn.srcs.is_empty() {
            [0; LANES]
        } else {
            // The stream operand is an integer: fetched like a UIF condition, which also
            // makes lanes with an undefined or inexact stream unconstrained.
            self.condition(insn, FetchType::Int);
            self.s.srcs[0][0]
        };
        let mut lanes = self.exec;
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let stream = streams[l];
            if end_prim {
                let e = &mut self.emissions[l];
                let s = e.streams.entry(stream).or_default();
                if s.1 {
                    *s = (s.0 + 1, false);
                }
                continue;
            }
            if self.emissions[l].vertices.len() >= self.d.max_vertices as usize {
                continue;
            }
            let vertex = self.snapshot(l, stream);
            let e = &mut self.emissions[l];
            e.streams.entry(stream).or_default().1 = true;
            e.vertices.push(vertex);
        }
    }

    /// Lane `l`'s output registers as a vertex of `stream`.
    fn snapshot(&self, l: usize, stream: u32) -> Vertex {
        let primitive = self.emissions[l].streams.get(&stream).map_or(0, |s| s.0);
        let d = self.d;
        let mut vals = Vec::with_capacity(d.outputs.len());
        let mut und = Vec::with_capacity(d.outputs.len());
        let mut ivs = self
            .iv
            .as_ref()
            .map(|_| Vec::with_capacity(d.outputs.len()));
        let mut halves = Vec::new();
        for &(_, slot) in &d.outputs {
            let v = &self.regs.vals[slot as usize];
            let u = &self.regs.und[slot as usize];
            vals.push([v[0][l], v[1][l], v[2][l], v[3][l]]);
            let bits = (0..4).fold(0u8, |b, c| b | (((u[c] >> l & 1) as u8) << c));
            und.push(bits);
            if let (Some(list), Some(st)) = (ivs.as_mut(), self.iv.as_deref()) {
                let r = &st.regs[slot as usize];
                let mut iv = [Interval::ANY; 4];
                let mut h = 0u8;
                for (c, x) in iv.iter_mut().enumerate() {
                    if bits >> c & 1 == 0 {
                        *x = Interval {
                            lo: r.lo[c][l],
                            hi: r.hi[c][l],
                            nan: r.nan[c] >> l & 1 != 0,
                        };
                        h |= ((r.half[c] >> l & 1) as u8) << c;
                    }
                }
                list.push(iv);
                halves.push(h);
            }
        }
        Vertex {
            record: EmitRecord { stream, primitive },
            vals,
            und,
            ivs,
            halves,
        }
    }

    /// Moves the emissions of the chunk's `n` lanes to `all` (in invocation order). The
    /// vertices of unconstrained lanes are wholly undefined.
    pub(crate) fn collect_emissions(&mut self, n: usize, all: &mut Vec<Emission>) {
        for (l, e) in self.emissions.iter_mut().take(n).enumerate() {
            let mut e = std::mem::take(e);
            if self.unconstrained >> l & 1 != 0 {
                e.unconstrained = true;
                for v in &mut e.vertices {
                    v.und.iter_mut().for_each(|u| *u = 0xF);
                }
            }
            all.push(e);
        }
    }
}

/// Fills `out.emits` and the `OUT[v][n]` registers (with undefined channels and intervals)
/// from every invocation's emission. Vertex slots an invocation did not emit are zero (not
/// a value the specification leaves undefined: there is no such vertex, which `emits`
/// says; the comparator skips them), undefined only for unconstrained invocations.
pub(crate) fn report(outputs: &[(crate::io::RegKey, u32)], all: Vec<Emission>, out: &mut Outputs) {
    let n = all.len();
    let most = all.iter().map(|e| e.vertices.len()).max().unwrap_or(0);
    let with_iv = out.intervals.is_some();
    for v in 0..most {
        for (k, &(key, _)) in outputs.iter().enumerate() {
            if key.dimension.is_some() {
                continue;
            }
            let ekey = emitted_key(v as u32, key.index);
            let mut vals = Vec::with_capacity(n);
            let mut und = Vec::with_capacity(n);
            let mut ivs = Vec::with_capacity(if with_iv { n } else { 0 });
            let mut halves = Vec::with_capacity(if with_iv { n } else { 0 });
            for e in &all {
                match e.vertices.get(v) {
                    Some(x) => {
                        vals.push(x.vals[k]);
                        und.push(x.und[k]);
                        if with_iv {
                            ivs.push(x.ivs.as_ref().map_or([Interval::ANY; 4], |i| i[k]));
                            halves.push(x.halves.get(k).copied().unwrap_or(0));
                        }
                    }
                    None => {
                        vals.push([0; 4]);
                        und.push(if e.unconstrained { 0xF } else { 0 });
                        if with_iv {
                            ivs.push([Interval::ANY; 4]);
                            halves.push(0);
                        }
                    }
                }
            }
            out.registers.insert(ekey, vals);
            if und.iter().any(|&u| u != 0) {
                out.undefined.insert(ekey, und);
            }
            if let Some(i) = out.intervals.as_mut() {
                i.channels.insert(ekey, ivs);
                if halves.iter().any(|&h| h != 0) {
                    i.halves.insert(ekey, halves);
                }
            }
        }
    }
    out.emits = Some(
        all.into_iter()
            .map(|e| e.vertices.into_iter().map(|v| v.record).collect())
            .collect(),
    );
}
