//! The encoder faults of the catalogue ([`crate::faults`]): a field of an instruction word
//! written wrongly, as a buggy packer would (ENCODING.md §3.2 source bytes, §3.4 source
//! modifiers). Applied to each [`Instr`] just before [`crate::encode`] when the fault is
//! switched on, so the simulator, which only sees the words, computes the wrong value.

use crate::faults::Fault;
use crate::{Instr, SrcValue};

/// Rewrites `ins` as the faulty encoder would pack it; no change for other faults.
/// `const_words`: the uniform words the driver fills from CONST (abi.rs: they come first,
/// the compiler's own constants after them).
pub(super) fn apply(fault: Fault, const_words: u32, ins: &mut Instr) {
    let Some(def) = crate::isa().instructions.get(usize::from(ins.id.0)) else {
        return;
    };
    match fault {
        // FAULT HOOK `valhall-fau-hi-as-lo`: in the FMA packer, the source byte of a
        // 32-bit CONST uniform keeps the 64-bit slot but loses the half bit (bit 0 of the
        // uniform word index).
        Fault::FauHiAsLo if def.name == "FMA.f32" => {
            for (sd, src) in def.srcs.iter().zip(&mut ins.srcs) {
                if let SrcValue::Uniform(u) = src.value {
                    if sd.size == 32 && u & 1 == 1 && u32::from(u) < const_words {
                        src.value = SrcValue::Uniform(u & !1);
                    }
                }
            }
        }
        // FAULT HOOK `valhall-neg-wrong-source`: in the FADD packer, source 1's `.neg` bit
        // is set at source 0's position.
        Fault::NegWrongSource if def.name.starts_with("FADD.") => {
            let both =
                def.srcs.len() >= 2 && def.srcs[0].neg.is_some() && def.srcs[1].neg.is_some();
            if both && ins.srcs.len() >= 2 && ins.srcs[1].neg {
                ins.srcs[1].neg = false;
                ins.srcs[0].neg = true;
            }
        }
        _ => {}
    }
}
