//! Static type inference: what each channel of each register holds.
//!
//! Flow-insensitive: every write to a channel contributes the type its opcode
//! produces (opcodes.csv `dst_type`), joined over all writes. Untyped moves (MOV,
//! UCMP, CMP's selected operands) carry the type of the channel they read.
//! 64-bit results mark x/z as the low word and y/w as the high word (tgsi.rst
//! "Double ISA": a double occupies xy or zw, low dword first).
//! Memory loads and atomics return raw bits.

use std::collections::BTreeMap;

use crate::names::{File, ImmType};
use crate::opcode::Opcode;
use crate::program::{Program, Src};
use crate::types::{ChannelType, ScalarType};

/// Per-register channel types. Keys are `(file, index)`; 2-D registers are keyed by their
/// last index (all vertices of `IN[v][i]` share one entry).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeMap {
    map: BTreeMap<(File, i32), [ChannelType; 4]>,
}

impl TypeMap {
    /// Types of the four channels of `file[index]`; `Unwritten` for registers never written.
    pub fn channels(&self, file: File, index: i32) -> [ChannelType; 4] {
        self.map
            .get(&(file, index))
            .copied()
            .unwrap_or([ChannelType::Unwritten; 4])
    }

    /// Every register with at least one typed channel.
    pub fn iter(&self) -> impl Iterator<Item = (&(File, i32), &[ChannelType; 4])> {
        self.map.iter()
    }

    fn join(&mut self, file: File, index: i32, chan: usize, t: ChannelType) -> bool {
        let e = self
            .map
            .entry((file, index))
            .or_insert([ChannelType::Unwritten; 4]);
        let j = e[chan].join(t);
        let changed = j != e[chan];
        e[chan] = j;
        changed
    }
}

fn channel_of(t: ScalarType, chan: usize) -> ChannelType {
    match t {
        ScalarType::F32 => ChannelType::F32,
        ScalarType::I32 | ScalarType::U32 => ChannelType::Int32,
        ScalarType::Untyped => ChannelType::Bits,
        t64 if chan.is_multiple_of(2) => ChannelType::Low64(t64),
        t64 => ChannelType::High64(t64),
    }
}

fn source_channel(p: &Program, types: &TypeMap, src: &Src, chan: usize) -> ChannelType {
    let comp = src.swizzle[chan] as usize;
    let reg = &src.reg;
    match reg.file {
        File::Immediate if reg.index.indirect.is_none() => {
            match p.immediates.get(reg.index.value as usize).map(|i| i.ty) {
                Some(ImmType::F32) => ChannelType::F32,
                Some(ImmType::U32 | ImmType::I32) => ChannelType::Int32,
                Some(ImmType::F64) => channel_of(ScalarType::F64, comp),
                Some(ImmType::U64) => channel_of(ScalarType::U64, comp),
                Some(ImmType::I64) => channel_of(ScalarType::I64, comp),
                None => ChannelType::Bits,
            }
        }
        File::ImmArray => ChannelType::F32,
        _ if reg.index.indirect.is_some() => ChannelType::Bits,
        file => match types.channels(file, reg.index.value)[comp] {
            ChannelType::Unwritten => ChannelType::Bits,
            t => t,
        },
    }
}

/// The type written to channel `chan` of `insn`'s destination, given current knowledge.
fn written_type(p: &Program, types: &TypeMap, i: usize, chan: usize) -> ChannelType {
    let insn = &p.instructions[i];
    let op = insn.opcode;
    let info = op.info();
    if info.is_store || matches!(op, Opcode::LOAD | Opcode::RESQ) {
        return ChannelType::Bits;
    }
    match op {
        // Untyped moves: the type travels with the value.
        Opcode::MOV => {
            let t = source_channel(p, types, &insn.src[0], chan);
            // Float modifiers turn the move into a float operation.
            if (insn.src[0].abs || insn.src[0].neg) && t == ChannelType::Bits {
                ChannelType::F32
            } else {
                t
            }
        }
        Opcode::UCMP | Opcode::CMP => source_channel(p, types, &insn.src[1], chan)
            .join(source_channel(p, types, &insn.src[2], chan)),
        _ => match info.dst_type {
            Some(t) => channel_of(t, chan),
            None => ChannelType::Bits,
        },
    }
}

/// Infer channel types for every register the program writes.
pub fn infer_types(p: &Program) -> TypeMap {
    let mut types = TypeMap::default();
    // Lattice height is 3, so a few passes reach the fixpoint; bound it anyway.
    for _ in 0..8 {
        let mut changed = false;
        for (i, insn) in p.instructions.iter().enumerate() {
            for d in &insn.dst {
                if d.reg.file == File::Null {
                    continue;
                }
                let targets: Vec<i32> = if d.reg.index.indirect.is_some() {
                    p.decls(d.reg.file)
                        .flat_map(|dc| dc.first as i32..=dc.last as i32)
                        .collect()
                } else {
                    vec![d.reg.index.value]
                };
                for chan in 0..4 {
                    if d.writemask & (1 << chan) == 0 {
                        continue;
                    }
                    let t = written_type(p, &types, i, chan);
                    for &idx in &targets {
                        changed |= types.join(d.reg.file, idx, chan, t);
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    types
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Stage;
    use crate::program::{Dst, Immediate, Instruction, Register};

    fn dst(file: File, i: i32, mask: u8) -> Dst {
        Dst {
            reg: Register::new(file, i),
            writemask: mask,
        }
    }
    fn src(file: File, i: i32) -> Src {
        Src::new(Register::new(file, i))
    }

    #[test]
    fn types_follow_opcode_destination_types() {
        // opcodes.csv: U2F dst float, UADD dst int, DADD dst double (xy = low/high words).
        let mut p = Program::new(Stage::Vertex);
        p.immediates.push(Immediate {
            ty: ImmType::U32,
            words: [1, 2, 3, 4],
        });
        let ins = &mut p.instructions;
        ins.push(Instruction::new(
            Opcode::UADD,
            vec![dst(File::Temp, 0, 0xF)],
            vec![src(File::Immediate, 0), src(File::Immediate, 0)],
        ));
        ins.push(Instruction::new(
            Opcode::U2F,
            vec![dst(File::Output, 0, 0x3)],
            vec![src(File::Temp, 0)],
        ));
        ins.push(Instruction::new(
            Opcode::MOV,
            vec![dst(File::Output, 0, 0xC)],
            vec![src(File::Temp, 0)],
        ));
        ins.push(Instruction::new(
            Opcode::DADD,
            vec![dst(File::Output, 1, 0xF)],
            vec![src(File::Temp, 1), src(File::Temp, 1)],
        ));
        ins.push(Instruction::new(
            Opcode::MOV,
            vec![dst(File::Output, 2, 0x1)],
            vec![src(File::Input, 0)],
        ));
        ins.push(Instruction::new(
            Opcode::MOV,
            vec![dst(File::Output, 2, 0x1)],
            vec![src(File::Immediate, 0)],
        ));
        ins.push(Instruction::new(
            Opcode::ADD,
            vec![dst(File::Output, 3, 0x1)],
            vec![src(File::Input, 0), src(File::Input, 0)],
        ));
        ins.push(Instruction::new(
            Opcode::SHL,
            vec![dst(File::Output, 3, 0x1)],
            vec![src(File::Input, 0), src(File::Input, 0)],
        ));
        let t = infer_types(&p);
        use ChannelType::*;
        assert_eq!(t.channels(File::Output, 0), [F32, F32, Int32, Int32]);
        assert_eq!(
            t.channels(File::Output, 1),
            [
                Low64(ScalarType::F64),
                High64(ScalarType::F64),
                Low64(ScalarType::F64),
                High64(ScalarType::F64)
            ]
        );
        // MOV of an input then of an integer immediate: raw bits joined with an integer.
        assert_eq!(t.channels(File::Output, 2)[0], Mixed);
        assert_eq!(t.channels(File::Output, 3)[0], Mixed);
        assert_eq!(t.channels(File::Output, 9), [Unwritten; 4]);
    }
}
