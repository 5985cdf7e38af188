//! The words a thread has already decoded and resolved, kept between programs.
//!
//! Decoding (with its re-encode check, [`crate::decode`]) and resolving depend on the
//! word alone, except for a branch's absolute target. A campaign loads thousands of
//! compiled programs on each worker thread, and the compiler emits the same words again
//! and again (input loads, output stores, address arithmetic, moves), so
//! [`super::Shader::from_words`] looks each word up here first and decodes only the
//! words it has not seen. A word that fails to decode or resolve is never stored, so
//! every error is reported as before. The table holds at most [`CAPACITY`] words and
//! starts afresh when full.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::op::{Ins, Op};
use super::{resolve, SimError};
use crate::decode::WordHash;

/// Most words kept per thread (an [`Ins`] is under 100 bytes: well under 1 MiB).
pub(crate) const CAPACITY: usize = 8192;

/// The words decoded so far and a decoding buffer whose lists keep their storage.
struct Known {
    ins: HashMap<u64, Ins, BuildHasherDefault<WordHash>>,
    instr: crate::Instr,
}

thread_local! {
    static KNOWN: RefCell<Known> = RefCell::new(Known {
        ins: HashMap::default(),
        instr: crate::Instr::empty(),
    });
}

/// Decodes and resolves every word of a program (see [`super::Shader::from_words`]).
///
/// # Errors
/// As [`super::Shader::from_words`].
pub(crate) fn load(words: &[u64]) -> Result<Vec<Ins>, SimError> {
    KNOWN.with(|k| {
        let mut k = k.borrow_mut();
        let Known { ins: known, instr } = &mut *k;
        let mut out: Vec<Ins> = Vec::with_capacity(words.len());
        for (index, &w) in words.iter().enumerate() {
            if let Some(i) = known.get(&w) {
                out.push(i.clone());
                continue;
            }
            crate::decode::decode_into(w, instr)
                .map_err(|error| SimError::Decode { index, error })?;
            let resolved = resolve::resolve(index, instr)?;
            if !matches!(resolved.op, Op::Branch { .. }) {
                if known.len() >= CAPACITY {
                    known.clear();
                }
                known.insert(w, resolved.clone());
            }
            out.push(resolved);
        }
        Ok(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str) -> u64 {
        crate::assemble_word(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// What loading `words` gives without the table: every word decoded and resolved.
    fn uncached(words: &[u64]) -> Vec<Ins> {
        let mut instr = crate::Instr::empty();
        words
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                crate::decode::decode_into(w, &mut instr).expect("decodes");
                resolve::resolve(i, &instr).expect("resolves")
            })
            .collect()
    }

    /// Runs `f` on a fresh thread, whose table starts empty.
    fn fresh<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(f).join().expect("test thread")
    }

    #[test]
    fn repeated_words_load_as_the_first_time() {
        let prog = vec![
            word("BRANCHZ r0, offset:1"),
            word("IADD_IMM.i32 r1, r0, #0x7"),
            word("MOV.i32 r2, r1"),
            word("BRANCHZ r0, offset:1"),
            word("IADD_IMM.i32 r1, r0, #0x7"),
            word("NOP.end"),
        ];
        let expected = uncached(&prog);
        // A branch's target is its index + 1 + offset (SEMANTICS.md §7), per position.
        assert!(matches!(expected[0].op, Op::Branch { target: 2, .. }));
        assert!(matches!(expected[3].op, Op::Branch { target: 5, .. }));
        let (first, again, later) = fresh(move || {
            let first = load(&prog).expect("loads");
            let again = load(&prog).expect("loads");
            // The same words at other positions, after they are all known.
            let later = load(&[prog[1], prog[2], prog[0], prog[3]]).expect("loads");
            (first, again, later)
        });
        assert_eq!(first, expected);
        assert_eq!(again, expected);
        assert_eq!(later[0], expected[1]);
        assert_eq!(later[1], expected[2]);
        assert!(matches!(later[2].op, Op::Branch { target: 4, .. }));
        assert!(matches!(later[3].op, Op::Branch { target: 5, .. }));
    }

    #[test]
    fn failures_are_reported_every_time() {
        let nop = word("NOP");
        let sqrt = word("FREXPE.f32.sqrt r0, ^r0");
        let errors = fresh(move || {
            [
                load(&[nop, sqrt]),
                load(&[sqrt]),
                load(&[nop, nop, 1 << 63]),
                load(&[1 << 63]),
            ]
        });
        assert!(matches!(
            errors[0],
            Err(SimError::Unsupported { index: 1, .. })
        ));
        assert!(matches!(
            errors[1],
            Err(SimError::Unsupported { index: 0, .. })
        ));
        assert!(matches!(errors[2], Err(SimError::Decode { index: 2, .. })));
        assert!(matches!(errors[3], Err(SimError::Decode { index: 0, .. })));
    }

    #[test]
    fn the_table_stays_bounded() {
        let prog: Vec<u64> = (0..=CAPACITY as u32)
            .map(|k| word(&format!("IADD_IMM.i32 r1, r0, #{k:#x}")))
            .collect();
        let expected = uncached(&prog);
        let (loaded, held) = fresh(move || {
            let loaded = load(&prog).expect("loads");
            (loaded, KNOWN.with(|k| k.borrow().ins.len()))
        });
        assert_eq!(loaded, expected);
        assert!((1..=CAPACITY).contains(&held), "{held} words held");
    }
}
