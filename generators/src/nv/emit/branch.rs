//! BRA regions of random ARB vertex programs with `OPTION NV_vertex_program2;`
//! (NV_vertex_program2_option "Program Flow Control": the only programs with BRA and
//! labels; NV_gpu_program4/5 headers have no BRA), lowered by the block loop of
//! `frontends/nv/src/lower_branch.rs`, and terminating by construction.
//!
//! A region is drawn only at the top level of the program (ARB programs have no IF / REP
//! blocks here; a BRA inside one is not lowered) and nests at most two deep. Two shapes:
//!
//! * **forward**: `MOVC t, src;` (sets the condition code; the option's "C" suffix) and
//!   `BRA Ln (cond);`, or an unconditional `BRA Ln;`, a body, `Ln:` — the branch skips the
//!   body when any component of the condition passes (the option's BRA section);
//! * **counted loop**: `MOV bcK.x, n;` with `n` in 1..=[`super::MAX_REP`], `Ln:`, a body,
//!   `ADDC bcK.x, bcK.x, -1;` `BRA Ln (GT.x);` — the body runs exactly `n` times per
//!   entry (small integers are exact in binary32). `bcK` (K = the nesting level) is a
//!   TEMP the other statements never write, and the condition code is set right before
//!   the branch, so no body can make the loop run longer.
//!
//! Labels are unique (`L0`, `L1`, ...), each branch targets a label of its own region, so
//! no branch enters a loop's body from outside.

use super::{Gen, MAX_REP};

impl Gen<'_, '_> {
    fn label(&mut self, name: &str) {
        self.out.push_str(name);
        self.out.push_str(":\n");
    }

    /// The statements of a region's body (at the top level).
    fn bra_body(&mut self) {
        let n = self.c.range(1, 4);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.statement();
        }
    }

    /// One BRA region (module docs).
    pub(super) fn bra_region(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let label = format!("L{}", self.x.labels);
        self.x.labels += 1;
        let level = self.x.bra_nest;
        self.x.bra_nest += 1;
        if self.c.chance(50) {
            let cond = if self.c.chance(75) {
                let t = self.temps[self.c.below(self.temps.len())].clone();
                let mask = self.write_mask();
                let s = self.src(super::Ty::F, true);
                self.line(&format!("MOVC {t}{mask}, {s}"));
                let test = self.c.pick(super::CONDITIONS);
                format!(" ({test}{})", self.swizzle())
            } else {
                String::new()
            };
            self.line(&format!("BRA {label}{cond}"));
            self.bra_body();
            self.label(&label);
        } else {
            let n = self.c.range(1, MAX_REP as usize);
            let counter = format!("bc{level}");
            self.line(&format!("MOV {counter}.x, {n}"));
            self.label(&label);
            self.bra_body();
            self.line(&format!("ADDC {counter}.x, {counter}.x, -1"));
            self.line(&format!("BRA {label} (GT.x)"));
        }
        self.x.bra_nest -= 1;
    }
}
