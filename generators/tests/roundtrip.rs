//! Property tests: the TGSI printer and parser are inverse on generated programs.
//! `parse(print(p)) == p` in Mesa's tgsi_dump form (floats limited to values `%10.4f`
//! prints exactly) and in lossless form (any bit pattern, NaN payloads included).

use proptest::prelude::*;
use shaderdiff_generators::{strategy::tgsi_program, GenConfig};
use shaderdiff_model::Program;
use shaderdiff_tgsi::{parse, print, print_with, PrintOptions};

fn check_round_trip(p: &Program, text: &str) -> Result<(), TestCaseError> {
    let q = parse(text, "generated.tgsi")
        .map_err(|e| TestCaseError::fail(format!("printed program does not parse: {e}\n{text}")))?;
    prop_assert_eq!(&q, p, "round trip changed the program:\n{}", text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn mesa_form_round_trips(p in tgsi_program(GenConfig { syntax_coverage: true, ..GenConfig::default() }, 400)) {
        let text = print(&p);
        check_round_trip(&p, &text)?;
        // Printing is a fixpoint.
        prop_assert_eq!(print(&parse(&text, "again.tgsi").unwrap()), text);
    }

    #[test]
    fn lossless_form_round_trips(p in tgsi_program(GenConfig { syntax_coverage: true, mesa_exact_floats: false, ..GenConfig::default() }, 400)) {
        let text = print_with(&p, &PrintOptions { lossless: true });
        check_round_trip(&p, &text)?;
    }
}
