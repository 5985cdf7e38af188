//! `shaderdiff check PROGRAM... [--print] [--lossless]` (INTERFACE.md "Commands"): parse
//! and validate programs of either language, or print them in canonical form.

use std::path::PathBuf;

use clap::Args;
use shaderdiff_nv as nv;
use shaderdiff_tgsi::{self as tgsi, PrintOptions};

use crate::common::{emit, load_any_with, Loaded};

/// `shaderdiff check PROGRAM... [--print] [--lossless]`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Program files (TGSI text or NV assembly).
    #[arg(required = true, value_name = "PROGRAM")]
    pub programs: Vec<PathBuf>,
    /// Write each program in canonical form (TGSI as Mesa's tgsi_dump prints it, NV
    /// assembly one statement per line) to stdout.
    #[arg(long)]
    pub print: bool,
    /// With --print: write float immediates with enough digits to keep their exact bits
    /// (tgsi_dump's `%10.4f` loses them). NV assembly always prints its literals as written.
    #[arg(long, requires = "print")]
    pub lossless: bool,
    /// Implementation limits NV / ARB programs are checked against: `spec` (the specs'
    /// minimum maxima), `nvidia` or `mesa` (docs/frontends.md).
    #[arg(long, value_name = "spec|nvidia|mesa", default_value_t = nv::LimitProfile::Spec)]
    pub limits: nv::LimitProfile,
}

/// `check`: every file is checked; the exit status is 2 if any file is bad input, else 3
/// if any is unsupported, else 0 (1 if stdout cannot be written).
pub fn execute(args: &CheckArgs) -> u8 {
    let mut status = 0u8;
    let rank = |c: u8| match c {
        2 => 3,
        3 => 2,
        c => c,
    };
    for path in &args.programs {
        let result = load_any_with(path, args.limits).and_then(|loaded| match loaded {
            Loaded::Tgsi(p) => {
                if args.print {
                    let opts = PrintOptions {
                        lossless: args.lossless,
                    };
                    emit(&tgsi::print_with(&p, &opts))
                } else {
                    emit(&format!(
                        "{}: ok ({}, {} instructions)\n",
                        path.display(),
                        p.stage,
                        p.instructions.len()
                    ))
                }
            }
            Loaded::Nv(p) => {
                if args.print {
                    emit(&nv::print(&p))
                } else {
                    emit(&format!(
                        "{}: ok ({}, {} instructions)\n",
                        path.display(),
                        p.header.text(),
                        p.instructions().count()
                    ))
                }
            }
        });
        if let Err(f) = result {
            eprintln!("{}", f.message());
            if rank(f.code()) > rank(status) {
                status = f.code();
            }
        }
    }
    status
}
