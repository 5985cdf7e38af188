//! Known deviations in a live comparison: a mismatch of engine `nvidia` that a rule of
//! `results/triage/nvidia/` covers is `known RULE`, not a divergence — the matcher
//! `diff --recorded` uses, applied by the [`Differ`] of `diff`, `fuzz` and `conform`.
//!
//! No NVIDIA GPU is needed: a stand-in engine carries the name `nvidia` (so the rules and
//! the precision class are the engine's) and computes what NVIDIA's driver computes for
//! `ABS.U` according to `results/triage/nvidia/abs-unsigned.toml` ("ABS.U computes the
//! signed absolute value: ABS.U of -16 (0xfffffff0) gives 16"), whereas NV_gpu_program4
//! §2.X.8.Z ABS makes an unsigned value its own absolute value (0xfffffff0 stays).

use std::collections::BTreeMap;
use std::path::Path;

use shaderdiff::diff::{Differ, Outcome};
use shaderdiff::report::DiffReport;
use shaderdiff::triage::{EngineRules, Rules};
use shaderdiff_backends::{
    self as backends, Capabilities, Compiled, Engine, EngineConfig, EngineError, Inputs, Outputs,
};
use shaderdiff_model::Program;
use shaderdiff_oracles::precision::NanPolicy;

/// The interpreter, with every output word replaced by its signed absolute value: the
/// driver's ABS.U on these programs (module docs).
struct SignedAbs(Box<dyn Engine>);

impl Engine for SignedAbs {
    fn name(&self) -> &'static str {
        "nvidia"
    }
    fn capabilities(&self) -> &Capabilities {
        self.0.capabilities()
    }
    fn prepare(&self, p: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        self.0.prepare(p)
    }
    fn run(&self, c: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let mut o = self.0.run(c, inputs)?;
        for rows in o.registers.values_mut() {
            for v in rows.iter_mut() {
                for w in v.iter_mut() {
                    *w = (*w as i32).unsigned_abs();
                }
            }
        }
        Ok(o)
    }
}

fn rules() -> Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/triage/nvidia");
    Rules::load(&dir).expect("the nvidia rules load")
}

fn differ(with_rules: bool) -> Differ {
    let interp = backends::engine("interp", &EngineConfig::default()).unwrap();
    let known = with_rules
        .then(|| EngineRules::classifier(vec![("nvidia".into(), rules())]))
        .flatten();
    Differ::new(vec![Box::new(SignedAbs(interp))], 100_000, NanPolicy::Any)
        .unwrap()
        .with_known(known)
}

/// `text` lowered, with `fragment.texcoord[0] = (16, 16, 16, 16)` on 4 invocations.
fn program(text: &str) -> (Program, Inputs) {
    let ast = shaderdiff_nv::parse(text, "t.nv").unwrap();
    let l = shaderdiff_nv::lower(&ast).unwrap();
    let key = (0..64)
        .map(|i| shaderdiff_model::RegKey::new(shaderdiff_model::File::Input, i))
        .find(|k| l.names.name_of(k.file, k.index) == Some("fragment.texcoord[0]"))
        .expect("texcoord[0] is an input");
    let inputs = Inputs {
        invocations: 4,
        registers: BTreeMap::from([(key, vec![[16; 4]])]),
        ..Inputs::default()
    };
    (l.program, inputs)
}

/// The reproducer of results/triage/nvidia/abs-unsigned.toml.
const ABS_U: &str = "!!NVfp4.0\nABS.U result.color, -fragment.texcoord[0];\nEND\n";

#[test]
fn a_covered_mismatch_is_known_with_its_rule() {
    let (p, inputs) = program(ABS_U);
    let d = differ(true).diff(&p, &inputs);
    let Outcome::Known { rules, mismatches } = &d.engines[0].outcome else {
        panic!("{:?}", d.engines[0].outcome);
    };
    assert_eq!(rules, &["abs-unsigned"]);
    // Spec: ABS.U of 0xfffffff0 is 0xfffffff0; the driver's (stand-in's) 16.
    assert_eq!(mismatches[0].expected, "0xfffffff0");
    assert_eq!(mismatches[0].actual, "0x00000010");
    assert!(!d.diverged());
    let r = DiffReport::new("abs.nv", &["nvidia".into()], &[d], Vec::new());
    assert_eq!(r.verdict, "known");
    assert!(r.diverged.is_empty());
    assert_eq!(r.known[0].rules, ["abs-unsigned"]);
    assert_eq!(r.known[0].mismatch_count, 16, "4 invocations x 4 channels");
    assert_eq!(
        r.to_text(10),
        "abs.nv: known abs-unsigned (interp vs nvidia)\n"
    );
    assert!(r.to_json_line().contains(r#""verdict":"known""#));
}

#[test]
fn without_rules_the_same_divergence_is_a_mismatch() {
    let (p, inputs) = program(ABS_U);
    let d = differ(false).diff(&p, &inputs);
    assert!(matches!(d.engines[0].outcome, Outcome::Mismatch(_)));
    let r = DiffReport::new("abs.nv", &["nvidia".into()], &[d], Vec::new());
    assert_eq!(r.verdict, "mismatch");
}

#[test]
fn a_mismatch_no_rule_covers_stays_a_mismatch() {
    // MOV.U copies the bits (NV_gpu_program4 §2.X.8.Z MOV): 0xfffffff0 expected; the
    // stand-in's 16 is a divergence no rule describes.
    let (p, inputs) = program("!!NVfp4.0\nMOV.U result.color, -fragment.texcoord[0];\nEND\n");
    let d = differ(true).diff(&p, &inputs);
    assert!(matches!(d.engines[0].outcome, Outcome::Mismatch(_)));
    assert!(d.diverged());
}

#[test]
fn rules_of_another_engine_do_not_apply() {
    // The rules are nvidia's; under another engine name they cover nothing.
    let (p, inputs) = program(ABS_U);
    let known = EngineRules::classifier(vec![("mesa".into(), rules())]);
    let interp = backends::engine("interp", &EngineConfig::default()).unwrap();
    let d = Differ::new(vec![Box::new(SignedAbs(interp))], 100_000, NanPolicy::Any)
        .unwrap()
        .with_known(known)
        .diff(&p, &inputs);
    assert!(matches!(d.engines[0].outcome, Outcome::Mismatch(_)));
}
