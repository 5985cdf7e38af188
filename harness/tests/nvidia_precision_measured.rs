//! Measures the precision class `nvidia` (oracle/precision.toml) from recorded NVIDIA
//! results: for each approximated opcode, the worst error of the driver's result against
//! the oracle's class-`cpu` result (itself within 0.5 + 2^-29 ulp of the exact value, see
//! precision.toml `[oracle]`), and the input that gave it. Prints the table that
//! docs/precision-nvidia.md holds.
//!
//! Needs the unpacked captures (../shared/captures/nvidia-h200/*.tar.gz): set
//! `SHADERDIFF_NVIDIA_CAPTURES` to the directory holding `nv-spec-suite/` and
//! `nv-spec-vertex/`. Without it the test only says so (the captures are not in the repo).
//!
//! Errors: ulp errors in Vulkan's ulp() of the reference (the gap between the two floats
//! around it); SIN and COS as absolute errors (their bound form, precision.toml).

use std::path::{Path, PathBuf};

use shaderdiff::cli::load_program_named;
use shaderdiff::cmd::diff::{load_inputs_named, sibling_inputs};
use shaderdiff::recorded::load_recorded;
use shaderdiff_oracles::interp::{run, InterpConfig};

/// Opcode and its program stems (fragment NV, vertex NV, fragment ARB).
const OPS: &[&str] = &["RCP", "RSQ", "EX2", "LG2", "SIN", "COS", "POW", "DIV"];

#[derive(Default, Clone, Debug)]
struct Worst {
    err: f64,
    at: String,
}

fn ulp(r: f32) -> f64 {
    let a = r.abs();
    let next = f32::from_bits(a.to_bits() + 1);
    (f64::from(next) - f64::from(a)).max(f64::MIN_POSITIVE)
}

fn programs(root: &Path, op: &str) -> Vec<PathBuf> {
    let l = op.to_ascii_lowercase();
    [
        format!("nv-spec-suite/nv-spec-fp-{l}-f.nvfp"),
        format!("nv-spec-suite/arb-spec-fp-{l}.arbfp"),
        format!("nv-spec-vertex/nv-spec-vp-{l}-f.nvvp"),
    ]
    .iter()
    .map(|p| root.join(p))
    .filter(|p| p.is_file())
    .collect()
}

fn measure(file: &Path, op: &str, worst: &mut Worst) {
    let (program, names) = load_program_named(file).expect("program");
    let inputs =
        load_inputs_named(&sibling_inputs(file), &program, None, names.as_ref()).expect("inputs");
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let rec_file = file.with_file_name(format!("{stem}.nvidia.json"));
    let rec = load_recorded(
        &rec_file,
        "nvidia",
        &program,
        names.as_ref(),
        inputs.invocations,
    )
    .expect("recorded");
    let oracle = run(&program, &inputs, &InterpConfig::default()).expect("runs");
    let absolute = matches!(op, "SIN" | "COS");
    for (key, vals) in &oracle.registers {
        let Some(got) = rec.outputs.registers.get(key) else {
            continue;
        };
        let und = oracle.undefined.get(key);
        for (i, (e, a)) in vals.iter().zip(got).enumerate() {
            if rec.skip.contains(&i) {
                continue;
            }
            for c in 0..4 {
                if und.is_some_and(|u| u[i] >> c & 1 != 0) {
                    continue;
                }
                let (r, d) = (f32::from_bits(e[c]), f32::from_bits(a[c]));
                if !r.is_finite() || !d.is_finite() || r == 0.0 && !absolute {
                    continue;
                }
                // The denormal domain is the flush outcome set's (docs/denormals.md), and
                // SIN/COS are bounded on [-pi, pi] only (precision.toml): not measured here.
                let words: Vec<f32> = inputs
                    .registers
                    .values()
                    .map(|v| f32::from_bits(v[i.min(v.len() - 1)][c]))
                    .collect();
                if r.is_subnormal()
                    || r.abs() < f32::MIN_POSITIVE && d == 0.0
                    || words.iter().any(|w| w.is_subnormal())
                    || absolute
                        && words
                            .first()
                            .is_some_and(|x| x.abs() > std::f32::consts::PI)
                    || op == "DIV" && !divisor_in_range(&inputs, i)
                {
                    continue;
                }
                let diff = (f64::from(d) - f64::from(r)).abs();
                let err = if absolute { diff } else { diff / ulp(r) };
                if err > worst.err {
                    let input: Vec<String> = inputs
                        .registers
                        .values()
                        .map(|v| format!("{:#010x}", v[i.min(v.len() - 1)][c]))
                        .collect();
                    worst.err = err;
                    worst.at = format!(
                        "{} invocation {i}.{}: inputs {}, oracle {:#010x}, driver {:#010x}",
                        file.file_name().unwrap().to_string_lossy(),
                        ["x", "y", "z", "w"][c],
                        input.join(" "),
                        e[c],
                        a[c]
                    );
                }
            }
        }
    }
}

/// DIV's bound holds for |y| in [2^-126, 2^126] (precision.toml [op.DIV]); the divisor is
/// the second input's `x` in the suites.
fn divisor_in_range(inputs: &shaderdiff_oracles::Inputs, i: usize) -> bool {
    inputs.registers.values().nth(1).is_none_or(|v| {
        let y = f32::from_bits(v[i.min(v.len() - 1)][0]).abs();
        (f32::MIN_POSITIVE..=2f32.powi(126)).contains(&y)
    })
}

#[test]
fn nvidia_precision_table() {
    let Some(root) = std::env::var_os("SHADERDIFF_NVIDIA_CAPTURES") else {
        eprintln!("SHADERDIFF_NVIDIA_CAPTURES is not set: nothing measured");
        return;
    };
    let root = PathBuf::from(root);
    println!("| opcode | worst error vs oracle (cpu) | where |");
    println!("|---|---|---|");
    for op in OPS {
        let mut w = Worst::default();
        let files = programs(&root, op);
        for f in &files {
            measure(f, op, &mut w);
        }
        let unit = if matches!(*op, "SIN" | "COS") {
            "absolute"
        } else {
            "ulp"
        };
        println!("| {op} | {:.4e} {unit} | {} |", w.err, w.at);
        assert!(!files.is_empty(), "{op}: no capture program");
    }
}
