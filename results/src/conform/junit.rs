//! The JUnit report of a conformance run (quick-junit, the crate cargo-nextest uses): one
//! `<testsuite>` per engine, one `<testcase>` per program. Failures carry the mismatch
//! report and the replay command; flaky results carry their failing runs as
//! `<flakyFailure>`, and failures that were retried carry them as `<rerunFailure>`, as
//! nextest writes them.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestRerun, TestSuite};

use super::status::Status;

/// One (program, engine) result for the report.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Case {
    /// Program name in the suite.
    pub program: String,
    /// Engine.
    pub engine: String,
    /// Final status.
    pub status: Status,
    /// Seconds the first run took.
    pub duration_s: f64,
    /// One line: why it is not a plain pass (the first mismatch, the engine's error, the
    /// skip reason, the baseline's expectation).
    pub message: Option<String>,
    /// The whole story: the diff report of the failing run and the replay command.
    pub details: Option<String>,
    /// Earlier failing runs (`--retries`): (status, message), first run first.
    pub failed_runs: Vec<(Status, String)>,
}

fn kind(s: Status) -> NonSuccessKind {
    match s {
        Status::Crash | Status::Timeout => NonSuccessKind::Error,
        _ => NonSuccessKind::Failure,
    }
}

/// The JUnit XML of `cases` for a report named `name`, engines in order of first
/// appearance; `properties` go on every suite (seed, partition, baseline ...).
///
/// # Errors
/// Serialization errors, as text.
pub fn junit_xml(
    name: &str,
    cases: &[Case],
    properties: &[(String, String)],
) -> Result<String, String> {
    let mut report = Report::new(name);
    let mut engines: Vec<&str> = Vec::new();
    for c in cases {
        if !engines.contains(&c.engine.as_str()) {
            engines.push(&c.engine);
        }
    }
    let mut total = 0.0;
    for engine in engines {
        let mut suite = TestSuite::new(engine);
        for (k, v) in properties {
            suite.add_property((k.as_str(), v.as_str()));
        }
        let mut time = 0.0;
        for c in cases.iter().filter(|c| c.engine == engine) {
            time += c.duration_s;
            suite.add_test_case(test_case(c));
        }
        suite.set_time(Duration::from_secs_f64(time.max(0.0)));
        total += time;
        report.add_test_suite(suite);
    }
    report.set_time(Duration::from_secs_f64(total.max(0.0)));
    report.to_string().map_err(|e| e.to_string())
}

fn rerun(status: Status, message: &str) -> TestRerun {
    let mut r = TestRerun::new(kind(status));
    r.set_type(status.name());
    r.set_message(message);
    r
}

fn test_case(c: &Case) -> TestCase {
    let mut status = match c.status {
        Status::Pass | Status::ExpectedFail | Status::Flake => TestCaseStatus::success(),
        Status::Skip => TestCaseStatus::skipped(),
        s => TestCaseStatus::non_success(kind(s)),
    };
    if matches!(c.status, Status::Skip) || c.status.fails_run() {
        status.set_type(c.status.name());
        if let Some(m) = &c.message {
            status.set_message(m.as_str());
        }
        if let Some(d) = &c.details {
            status.set_description(d.as_str());
        }
    }
    // Success: earlier failing runs are flakyFailure; non-success: rerunFailure.
    let runs = c.failed_runs.iter().map(|(s, m)| rerun(*s, m));
    if c.status != Status::Skip {
        status.add_reruns(runs);
    }
    let mut tc = TestCase::new(c.program.as_str(), status);
    tc.set_classname(c.engine.as_str());
    tc.set_time(Duration::from_secs_f64(c.duration_s.max(0.0)));
    if c.status == Status::ExpectedFail {
        let note = c.message.clone().unwrap_or_default();
        tc.set_system_out(format!("ExpectedFail (baseline): {note}"));
    }
    tc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(program: &str, engine: &str, status: Status) -> Case {
        Case {
            program: program.into(),
            engine: engine.into(),
            status,
            duration_s: 0.01,
            message: Some(format!("{status}: OUT[0] invocation 0 .x")),
            details: Some("shaderdiff diff p.tgsi --inputs p.inputs.json".into()),
            failed_runs: if status == Status::Flake {
                vec![(Status::Fail, "first run mismatched".into())]
            } else {
                Vec::new()
            },
        }
    }

    #[test]
    fn the_report_reads_back_with_one_suite_per_engine() {
        let cases = vec![
            case("a", "jit", Status::Pass),
            case("b", "jit", Status::Fail),
            case("c", "jit", Status::Flake),
            case("d", "jit", Status::Skip),
            case("a", "valhall", Status::Crash),
            case("b", "valhall", Status::ExpectedFail),
            case("c", "valhall", Status::UnexpectedPass),
        ];
        let props = vec![("seed".to_string(), "1".to_string())];
        let xml = junit_xml("shaderdiff-conform", &cases, &props).unwrap();
        let back = Report::deserialize_from_str(&xml).unwrap();
        assert_eq!(back.tests, 7);
        assert_eq!(back.test_suites.len(), 2);
        let jit = &back.test_suites[0];
        assert_eq!(jit.name.as_str(), "jit");
        assert_eq!(
            (jit.tests, jit.failures, jit.errors, jit.disabled),
            (4, 1, 0, 1)
        );
        let valhall = &back.test_suites[1];
        // Crash is an error, UnexpectedPass a failure, ExpectedFail a pass.
        assert_eq!((valhall.failures, valhall.errors), (1, 1));
        match &jit.test_cases[2].status {
            TestCaseStatus::Success { flaky_runs } => assert_eq!(flaky_runs.len(), 1),
            s => panic!("flake is not a success with flaky runs: {s:?}"),
        }
        assert!(xml.contains("<flakyFailure"), "{xml}");
        assert!(xml.contains("shaderdiff diff p.tgsi"), "{xml}");
    }
}
