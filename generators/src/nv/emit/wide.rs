//! 64-bit statements of random NV programs (`fuzz --lang nv --64bit`; NV_gpu_program5 with
//! GL_NV_gpu_program_fp64, NOTES.md §11): `LONG TEMP` variables packed from 32-bit
//! sources with PK64, the F64 / S64 / U64 forms of the "6" instructions of Table X.13 on
//! them, CVT between 32- and 64-bit types, and UP64 / I2F / CVT back into 32-bit
//! temporaries; at the end every LONG component is XORed into the first output.
//!
//! Defined-only by construction: shift counts are literals in [0, 63]; no integer DIV or
//! MOD (division by zero is undefined); float-to-integer conversions may go out of range,
//! which the oracle marks undefined and the comparators skip.

use super::{Gen, COMPS};

/// 64-bit operations: (opcode, operands, types it takes: `f` F64, `i` S64 / U64).
const WIDE_OPS: &[(&str, usize, &str)] = &[
    ("MOV", 1, "fi"),
    ("ABS", 1, "fi"),
    ("ADD", 2, "fi"),
    ("SUB", 2, "fi"),
    ("MUL", 2, "fi"),
    ("MAD", 3, "fi"),
    ("MIN", 2, "fi"),
    ("MAX", 2, "fi"),
    ("CMP", 3, "fi"),
    ("SEQ", 2, "fi"),
    ("SNE", 2, "fi"),
    ("SLT", 2, "fi"),
    ("SGE", 2, "fi"),
    ("SGT", 2, "fi"),
    ("SLE", 2, "fi"),
    ("AND", 2, "i"),
    ("OR", 2, "i"),
    ("XOR", 2, "i"),
    ("NOT", 1, "i"),
    ("SHL", 2, "i"),
    ("SHR", 2, "i"),
    ("DIV", 2, "f"),
    ("RCP", 1, "f"),
    ("RSQ", 1, "f"),
    ("FRC", 1, "f"),
    ("FLR", 1, "f"),
    ("CEIL", 1, "f"),
    ("TRUNC", 1, "f"),
    ("ROUND", 1, "f"),
    ("SSG", 1, "f"),
];

/// The LONG TEMP names.
pub(super) const LONGS: &[&str] = &["L0", "L1", "L2"];

impl Gen<'_, '_> {
    /// `LONG TEMP L0, L1, L2;` and a PK64 of a 32-bit source into each, so no LONG
    /// component is read before it is written.
    pub(super) fn wide_declarations(&mut self) {
        self.line(&format!("LONG TEMP {}", LONGS.join(", ")));
        for l in LONGS {
            let s = self.sources[self.c.below(self.sources.len())].clone();
            self.line(&format!("PK64.U {l}, {s}"));
        }
    }

    /// Folds every LONG component into the first output (`UP64.U` into temporaries, `XOR.U`
    /// them together, `MOV.U` to the output), so a wrong 64-bit result anywhere reaches an
    /// output (results cannot be read, so the fold happens in temporaries).
    pub(super) fn wide_epilogue(&mut self) {
        let (acc, t, o) = (
            self.temps[0].clone(),
            self.temps[1].clone(),
            self.outputs[0].clone(),
        );
        self.line(&format!("UP64.U {acc}, {}", LONGS[0]));
        for (k, l) in LONGS.iter().enumerate() {
            for swz in ["", ".zwzw"] {
                if k == 0 && swz.is_empty() {
                    continue;
                }
                self.line(&format!("UP64.U {t}, {l}{swz}"));
                self.line(&format!("XOR.U {acc}, {acc}, {t}"));
            }
        }
        self.line(&format!("MOV.U {o}, {acc}"));
    }

    /// A LONG operand: a variable with a swizzle and sometimes `-` / `|..|`, or a literal.
    pub(super) fn wide_src(&mut self, ty: &str, scalar: bool) -> String {
        if self.c.chance(10) {
            return match ty {
                "F64" => ["0.5", "1", "-2.25", "1e+300", "3"][self.c.below(5)].to_string(),
                "S64" => ["0", "1", "-1", "4294967296", "-7"][self.c.below(5)].to_string(),
                _ => ["0", "1", "4294967295", "4294967296", "12345"][self.c.below(5)].to_string(),
            };
        }
        let name = self.c.pick(LONGS);
        let swz = if scalar {
            format!(".{}", self.c.pick(COMPS))
        } else {
            self.swizzle()
        };
        let abs = ty != "U64" && self.c.chance(10);
        let neg = self.c.chance(15);
        super::operand_text(&format!("{name}{swz}"), abs, neg)
    }

    /// One 64-bit statement (module docs).
    pub(super) fn wide_op(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let long = self.c.pick(LONGS);
        match self.c.below(8) {
            0 => {
                // PK64 of a 32-bit source.
                let t = ["U", "S", "F"][self.c.below(3)];
                let s = self.src(super::Ty::U, false);
                let mask = self.write_mask();
                self.line(&format!("PK64.{t} {long}{mask}, {s}"));
            }
            1 => {
                // Back to 32 bits: UP64, I2F of a 64-bit integer, or CVT.
                let dst = self.temps[self.c.below(self.temps.len())].clone();
                let mask = self.write_mask();
                let src = format!("{long}{}", self.swizzle());
                let text = match self.c.below(4) {
                    0 | 1 => format!(
                        "UP64.{} {dst}{mask}, {src}",
                        ["U", "S", "F"][self.c.below(3)]
                    ),
                    2 => format!("I2F.{} {dst}{mask}, {src}", ["S64", "U64"][self.c.below(2)]),
                    _ => {
                        let (to, from) = [
                            ("F32", "F64"),
                            ("S32", "F64"),
                            ("U32", "U64"),
                            ("S32", "S64"),
                            ("F32", "S64"),
                            ("F32", "U64"),
                        ][self.c.below(6)];
                        let round = if from == "F64" && to != "F32" {
                            [".ROUND", ".FLR", ".CEIL", ".TRUNC", ""][self.c.below(5)]
                        } else {
                            ""
                        };
                        format!("CVT.{to}.{from}{round} {dst}{mask}, {src}")
                    }
                };
                self.line(&text);
            }
            2 => {
                // CVT from 32 bits.
                let (to, from) = [
                    ("F64", "F32"),
                    ("F64", "S32"),
                    ("F64", "U32"),
                    ("S64", "S32"),
                    ("U64", "U32"),
                    ("S64", "F32"),
                    ("U64", "S64"),
                    ("F64", "S64"),
                    ("S64", "F64"),
                ][self.c.below(9)];
                let src = if from.ends_with("64") {
                    format!("{}{}", self.c.pick(LONGS), self.swizzle())
                } else {
                    let s = self.sources[self.c.below(self.sources.len())].clone();
                    format!("{s}{}", self.swizzle())
                };
                let round = if from.starts_with('F') && !to.starts_with('F') {
                    [".ROUND", ".FLR", ".CEIL", ".TRUNC", ""][self.c.below(5)]
                } else {
                    ""
                };
                let mask = self.write_mask();
                self.line(&format!("CVT.{to}.{from}{round} {long}{mask}, {src}"));
            }
            _ => {
                let ty = ["F64", "S64", "U64"][self.c.below(3)];
                let kind = if ty == "F64" { 'f' } else { 'i' };
                let ops: Vec<(&str, usize)> = WIDE_OPS
                    .iter()
                    .filter(|(op, _, k)| k.contains(kind) && !(ty == "U64" && *op == "ABS"))
                    .map(|&(op, n, _)| (op, n))
                    .collect();
                let (op, n) = ops[self.c.below(ops.len())];
                let scalar_first = matches!(op, "RCP" | "RSQ");
                let mut srcs: Vec<String> = (0..n)
                    .map(|k| self.wide_src(ty, scalar_first && k == 0))
                    .collect();
                match op {
                    "SHL" | "SHR" => srcs[1] = format!("{}", self.c.below(64)),
                    "DIV" => srcs[1] = self.wide_src(ty, true),
                    _ => {}
                }
                let mask = self.write_mask();
                self.line(&format!("{op}.{ty} {long}{mask}, {}", srcs.join(", ")));
            }
        }
    }
}
