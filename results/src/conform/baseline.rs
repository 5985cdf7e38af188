//! Baselines of expected failures and the `results.csv` / `failures.csv` files: CSV rows
//! `program,engine,status` (deqp-runner's baseline idea, with the engine as a column), no
//! header, `#` comments allowed. `results.csv` adds a fourth column, the seconds the pair
//! took; readers ignore columns past the third, so any of these files is a baseline.

use std::collections::BTreeMap;
use std::path::Path;

use super::status::Status;

/// One (program, engine) result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The program's name in the suite (its path relative to the suite, `/`-separated).
    pub program: String,
    /// Engine name.
    pub engine: String,
    /// Its status.
    pub status: Status,
    /// Seconds it took (written to `results.csv` only).
    pub duration_s: Option<f64>,
}

/// Expected statuses by (program, engine).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    /// The entries.
    pub expected: BTreeMap<(String, String), Status>,
}

impl Baseline {
    /// The expected status of `program` on `engine`, if listed.
    pub fn get(&self, program: &str, engine: &str) -> Option<Status> {
        self.expected
            .get(&(program.to_string(), engine.to_string()))
            .copied()
    }

    /// The final status of a pair whose raw status (after retries) is `raw`:
    /// listed with the same failure → `ExpectedFail`; listed as a failure but `Pass` →
    /// `UnexpectedPass`; listed as `Flake` → `Flake` whatever happened (deqp-runner's
    /// "known flake"); otherwise `raw`.
    pub fn apply(&self, program: &str, engine: &str, raw: Status) -> Status {
        match (self.get(program, engine), raw) {
            (
                Some(Status::Flake),
                Status::Pass | Status::Fail | Status::Crash | Status::Timeout,
            ) => Status::Flake,
            (Some(e), r) if e.is_failure() && r == e => Status::ExpectedFail,
            (Some(e), Status::Pass) if e.is_failure() => Status::UnexpectedPass,
            _ => raw,
        }
    }
}

/// A baseline file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// It cannot be read.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// A malformed row.
    #[error("{path}:{line}:{col}: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// 1-based line.
        line: u64,
        /// 1-based column.
        col: u64,
        /// What is wrong.
        message: String,
    },
}

/// Reads a baseline (or `failures.csv`, or `results.csv`) from `path`.
///
/// # Errors
/// Unreadable file; a row with fewer than three fields, an empty program or engine, or an
/// unknown status ([`BaselineError::Syntax`] with `line:col`).
pub fn read_baseline(path: &Path) -> Result<Baseline, BaselineError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| BaselineError::Io {
        path: name.clone(),
        message: e.to_string(),
    })?;
    parse_baseline(&text, &name)
}

/// Parses baseline text; `name` labels errors.
///
/// # Errors
/// As [`read_baseline`].
pub fn parse_baseline(text: &str, name: &str) -> Result<Baseline, BaselineError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut b = Baseline::default();
    for rec in reader.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            BaselineError::Syntax {
                path: name.to_string(),
                line,
                col: 1,
                message: e.to_string(),
            }
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let syntax = |col: usize, message: String| BaselineError::Syntax {
            path: name.to_string(),
            line,
            col: col as u64,
            message,
        };
        if rec.len() == 1 && rec[0].is_empty() {
            continue;
        }
        if rec.len() < 3 {
            return Err(syntax(
                1,
                format!("expected program,engine,status; got {} fields", rec.len()),
            ));
        }
        // The column where field k starts, for messages.
        let col = |k: usize| 1 + (0..k).map(|j| rec[j].len() + 1).sum::<usize>();
        if &rec[0] == "program" && &rec[1] == "engine" && &rec[2] == "status" {
            continue;
        }
        if rec[0].is_empty() || rec[1].is_empty() {
            return Err(syntax(1, "empty program or engine".into()));
        }
        let status: Status = rec[2]
            .parse()
            .map_err(|e: super::StatusParseError| syntax(col(2), e.to_string()))?;
        b.expected
            .insert((rec[0].to_string(), rec[1].to_string()), status);
    }
    Ok(b)
}

/// Writes `rows` as CSV to `path` atomically ([`crate::atomic_write`]): three columns, or
/// four with `with_duration` (`results.csv`).
///
/// # Errors
/// I/O errors, as text.
pub fn write_csv(path: &Path, rows: &[Row], with_duration: bool) -> Result<(), String> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_writer(Vec::new());
    for r in rows {
        let status = r.status.to_string();
        let mut fields = vec![r.program.clone(), r.engine.clone(), status];
        if with_duration {
            fields.push(format!("{:.3}", r.duration_s.unwrap_or(0.0)));
        }
        w.write_record(&fields).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    crate::atomic_write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_rules_follow_deqp_runner() {
        let b = parse_baseline(
            "# known\nspec/a,jit,Fail\nspec/b,jit,Crash\nspec/c,jit,Flake\n\"x,y\",jit,Timeout\n",
            "b.csv",
        )
        .unwrap();
        assert_eq!(b.apply("spec/a", "jit", Status::Fail), Status::ExpectedFail);
        assert_eq!(
            b.apply("spec/a", "jit", Status::Pass),
            Status::UnexpectedPass
        );
        // A different failure than the one expected is reported as itself.
        assert_eq!(b.apply("spec/a", "jit", Status::Crash), Status::Crash);
        assert_eq!(
            b.apply("spec/b", "jit", Status::Crash),
            Status::ExpectedFail
        );
        assert_eq!(b.apply("spec/c", "jit", Status::Fail), Status::Flake);
        assert_eq!(b.apply("spec/c", "jit", Status::Pass), Status::Flake);
        assert_eq!(b.apply("x,y", "jit", Status::Timeout), Status::ExpectedFail);
        assert_eq!(b.apply("spec/a", "valhall", Status::Fail), Status::Fail);
        assert_eq!(b.apply("spec/z", "jit", Status::Pass), Status::Pass);
    }

    #[test]
    fn written_files_read_back_as_baselines() {
        let dir = std::env::temp_dir().join(format!("sd-baseline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows = vec![
            Row {
                program: "spec/a".into(),
                engine: "jit".into(),
                status: Status::Fail,
                duration_s: Some(0.25),
            },
            Row {
                program: "a,b".into(),
                engine: "jit".into(),
                status: Status::Crash,
                duration_s: None,
            },
        ];
        for with_duration in [false, true] {
            let f = dir.join("f.csv");
            write_csv(&f, &rows, with_duration).unwrap();
            let b = read_baseline(&f).unwrap();
            assert_eq!(b.get("spec/a", "jit"), Some(Status::Fail));
            assert_eq!(b.get("a,b", "jit"), Some(Status::Crash));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_rows_name_line_and_column() {
        let e = parse_baseline("spec/a,jit,Fail\nspec/b,jit,Broken\n", "b.csv").unwrap_err();
        assert_eq!(e.to_string().split(": ").next(), Some("b.csv:2:12"));
        let e = parse_baseline("spec/a,jit\n", "b.csv").unwrap_err();
        assert!(e.to_string().starts_with("b.csv:1:1: expected"), "{e}");
    }
}
