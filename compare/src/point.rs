//! The oracle's point run as a shortcut to agreement.
//!
//! The oracle with acceptance intervals ([`shaderdiff_oracles::interp::run_with_intervals`])
//! costs 30–50 times its plain run on ALU-heavy code, and a campaign pays it once per engine
//! class and program. Yet most engine results are bit for bit the plain run's values, and
//! those values always lie in the acceptance sets: the interval run's values, kills and
//! emitted vertices "are those of `run`" (the oracle's contract), and each channel's set
//! contains the value the oracle computed (`oracle/tests/precision_intervals.rs`,
//! `oracle_values_lie_in_their_intervals`). An engine whose outputs are identical to the
//! plain run's therefore agrees whatever the sets are, and the interval run is needed only
//! for an engine whose outputs differ somewhere.
//!
//! The shortcut applies only where that reasoning holds:
//! * the plain run succeeded (an oracle error takes the full path, which reports it);
//! * the program has no memory (`Outputs::atomics` is `None`): memory is judged with atomic
//!   orders and per-byte rules, never by identity;
//! * the engine's denormal mode is not `flush`: there the IEEE value itself may be outside
//!   the flushed evaluation's sets (`denormal` module of the oracle).
//!
//! Identity is bitwise, with one allowance the comparator itself makes whatever the sets
//! are: under the NaN policy `any`, a NaN stands for any NaN on a channel that is not
//! statically an integer or a 64-bit word ([`NanLeniency`]). Anything else goes to the full
//! comparison, which gives exactly the verdict it gave before.

use std::cell::OnceCell;

use shaderdiff_model::infer::{infer_types, TypeMap};
use shaderdiff_model::wide::is_wide;
use shaderdiff_model::{ChannelType, Program, RegKey};
use shaderdiff_oracles::interp::denormal::DenormalMode;
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::Outputs;

/// Which channels take any NaN for the oracle's NaN, as [`crate::output::compare`] judges
/// them whatever the acceptance sets: with NaN policy `any`, a channel whose static type
/// ([`infer_types`]) is not `Int32`, `Low64` or `High64` accepts a NaN for a NaN both when
/// its set is exact (`float_exact`, and bits/mixed/unwritten channels) and when it is an
/// interval (which holds the oracle's NaN, so it admits NaN). Programs with a 64-bit opcode
/// get no leniency: their binary64 sets may span two words whatever the static types say.
/// The types are inferred on first use only.
pub struct NanLeniency<'p> {
    program: &'p Program,
    nan: NanPolicy,
    types: OnceCell<Option<TypeMap>>,
}

impl<'p> NanLeniency<'p> {
    /// The leniency for `program` under NaN policy `nan`.
    pub fn new(program: &'p Program, nan: NanPolicy) -> NanLeniency<'p> {
        NanLeniency {
            program,
            nan,
            types: OnceCell::new(),
        }
    }

    /// Whether channel `c` of register `key` takes any NaN for a NaN.
    fn accepts(&self, key: &RegKey, c: usize) -> bool {
        let types = self.types.get_or_init(|| {
            let wide = self.program.instructions.iter().any(|i| is_wide(i.opcode));
            (self.nan == NanPolicy::Any && !wide).then(|| infer_types(self.program))
        });
        types.as_ref().is_some_and(|t| {
            !matches!(
                t.channels(key.file, key.index as i32)[c],
                ChannelType::Int32 | ChannelType::Low64(_) | ChannelType::High64(_)
            )
        })
    }
}

/// A binary32 NaN pattern.
fn is_nan(w: u32) -> bool {
    w & 0x7f80_0000 == 0x7f80_0000 && w & 0x007f_ffff != 0
}

/// Whether the oracle's plain run `point` can stand in for its interval run for an engine
/// in denormal `mode` (module docs): a program without memory, and a mode that keeps IEEE
/// values.
pub fn usable(point: &Outputs, mode: DenormalMode) -> bool {
    point.atomics.is_none() && mode != DenormalMode::Flush
}

/// Whether the oracle's plain run `point` settles the verdict on engine outputs `actual`
/// for an engine in denormal `mode`: the channel count of an agreement ([`usable`], then
/// [`identical`]), or `None` when the interval oracle must judge.
pub fn settles(
    point: &Outputs,
    mode: DenormalMode,
    actual: &Outputs,
    nan: &NanLeniency,
) -> Option<usize> {
    if usable(point, mode) {
        identical(point, actual, nan)
    } else {
        None
    }
}

/// The number of channels `actual` shares with the oracle's plain run `point` (bit for bit,
/// or NaN for NaN where `nan` allows), or `None` when anything the comparator judges
/// differs: the invocation count, killed invocations, emitted vertices, or any other word
/// of a register the oracle reports (which `actual` must report for every invocation).
///
/// The count covers every channel of every reported register for every invocation (killed
/// ones included: they are equal too), so it can exceed what [`crate::output::compare`]
/// counts, which skips killed and undefined channels.
pub fn identical(point: &Outputs, actual: &Outputs, nan: &NanLeniency) -> Option<usize> {
    let n = point.invocations;
    if actual.invocations != n || point.killed != actual.killed || point.emits != actual.emits {
        return None;
    }
    let mut channels = 0;
    for (key, vals) in &point.registers {
        let acts = actual.registers.get(key)?;
        let vals = &vals[..n.min(vals.len())];
        let acts = acts.get(..vals.len())?;
        if acts != vals && !same_but_nans(key, vals, acts, nan) {
            return None;
        }
        channels += 4 * vals.len();
    }
    Some(channels)
}

/// Whether `vals` and `acts` differ only in NaN words of channels `nan` lets take any NaN.
fn same_but_nans(key: &RegKey, vals: &[[u32; 4]], acts: &[[u32; 4]], nan: &NanLeniency) -> bool {
    vals.iter().zip(acts).all(|(v, a)| {
        (0..4).all(|c| v[c] == a[c] || is_nan(v[c]) && is_nan(a[c]) && nan.accepts(key, c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shaderdiff_model::File;
    use shaderdiff_tgsi::parse;

    fn outputs(words: &[[u32; 4]]) -> Outputs {
        let mut o = Outputs {
            invocations: words.len(),
            ..Outputs::default()
        };
        o.registers.insert(out0(), words.to_vec());
        o
    }

    fn out0() -> RegKey {
        RegKey {
            file: File::Output,
            dimension: None,
            index: 0,
        }
    }

    /// OUT[0].x float (RCP), .y integer (UADD).
    const TYPED: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\nRCP OUT[0].x, IN[0].xxxx\n\
        UADD OUT[0].y, IN[0].yyyy, IN[0].yyyy\nEND\n";
    const WIDE: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nRCP OUT[0].x, IN[0].xxxx\n\
        DADD OUT[1].xy, IN[0].xyxy, IN[0].xyxy\nEND\n";
    const NAN: u32 = 0x7fc0_0000;
    const OTHER_NAN: u32 = 0xffc0_1234;

    #[test]
    fn identical_outputs_count_every_channel() {
        let p = parse(TYPED, "typed.tgsi").unwrap();
        let nan = NanLeniency::new(&p, NanPolicy::Any);
        let o = outputs(&[[1, 2, 3, 4], [5, 6, 7, 8]]);
        assert_eq!(identical(&o, &o.clone(), &nan), Some(8));
    }

    #[test]
    fn any_other_word_takes_the_full_path() {
        let p = parse(TYPED, "typed.tgsi").unwrap();
        let nan = NanLeniency::new(&p, NanPolicy::Any);
        let o = outputs(&[[1, 2, 3, 4]]);
        assert_eq!(identical(&o, &outputs(&[[1, 2, 3, 5]]), &nan), None);
        // A NaN for a number, or a number for a NaN, is never identity.
        let n = outputs(&[[NAN, 2, 3, 4]]);
        assert_eq!(identical(&n, &outputs(&[[1, 2, 3, 4]]), &nan), None);
        assert_eq!(identical(&o, &n, &nan), None);
    }

    #[test]
    fn another_nan_passes_on_float_channels_under_policy_any_only() {
        // EXEC-NOTES.md §0 "NaN bit patterns": the comparator matches NaNs by class on a
        // float channel (`--nan any`), by bits on an integer one and under `--nan strict`.
        let p = parse(TYPED, "typed.tgsi").unwrap();
        let any = NanLeniency::new(&p, NanPolicy::Any);
        let strict = NanLeniency::new(&p, NanPolicy::Strict);
        let x = outputs(&[[NAN, 2, 3, 4]]);
        let x2 = outputs(&[[OTHER_NAN, 2, 3, 4]]);
        assert_eq!(identical(&x, &x2, &any), Some(4));
        assert_eq!(identical(&x, &x2, &strict), None);
        // UADD's channel is an integer: its NaN pattern is a number.
        let y = outputs(&[[1, NAN, 3, 4]]);
        assert_eq!(identical(&y, &outputs(&[[1, OTHER_NAN, 3, 4]]), &any), None);
    }

    #[test]
    fn programs_with_64_bit_opcodes_get_no_nan_leniency() {
        // tgsi.rst "Double ISA": a double spans two words, so a NaN pattern in one word says
        // nothing about the binary64 value; the leniency is off for the whole program.
        let p = parse(WIDE, "wide.tgsi").unwrap();
        let any = NanLeniency::new(&p, NanPolicy::Any);
        let x = outputs(&[[NAN, 0, 0, 0]]);
        assert_eq!(identical(&x, &outputs(&[[OTHER_NAN, 0, 0, 0]]), &any), None);
    }

    #[test]
    fn a_missing_register_killed_set_or_count_takes_the_full_path() {
        let p = parse(TYPED, "typed.tgsi").unwrap();
        let nan = NanLeniency::new(&p, NanPolicy::Any);
        let o = outputs(&[[1, 2, 3, 4]]);
        let mut missing = o.clone();
        missing.registers.clear();
        assert_eq!(identical(&o, &missing, &nan), None);
        let mut killed = o.clone();
        killed.killed = Some(vec![true]);
        assert_eq!(identical(&o, &killed, &nan), None);
        assert_eq!(
            identical(&o, &outputs(&[[1, 2, 3, 4], [1, 2, 3, 4]]), &nan),
            None
        );
    }

    #[test]
    fn memory_programs_and_flushing_engines_never_use_the_point_run() {
        let o = outputs(&[[1, 2, 3, 4]]);
        assert!(usable(&o, DenormalMode::Ieee));
        assert!(usable(&o, DenormalMode::Either));
        assert!(!usable(&o, DenormalMode::Flush));
        let mut memory = o.clone();
        memory.atomics = Some(Vec::new());
        assert!(!usable(&memory, DenormalMode::Ieee));
        // Identical outputs settle nothing there: the interval oracle judges.
        let p = parse(TYPED, "typed.tgsi").unwrap();
        let nan = NanLeniency::new(&p, NanPolicy::Any);
        assert_eq!(settles(&o, DenormalMode::Either, &o, &nan), Some(4));
        assert_eq!(settles(&o, DenormalMode::Flush, &o, &nan), None);
        assert_eq!(settles(&memory, DenormalMode::Ieee, &memory, &nan), None);
    }
}
