//! The family table of the spec-derived NV_gpu_program5 suite (`gen --lang nv --spec`):
//! Table X.13 of NV_gpu_program5 ("Summary of NV_gpu_program5 instructions", §2.X.4),
//! transcribed row by row in [`ROWS`], and the families it implies ([`candidates`]).
//!
//! A family is one instruction × one data type the F / I columns allow × one modifier
//! variant the C / S columns (and the instruction's own section) allow:
//!
//! * data types: `F` when the F column is `X` or `6`, `S` and `U` when the I column is, and
//!   `F64` / `S64` / `U64` when the column is `6` (the sized 32-bit spellings `F32`, `S32`,
//!   `U32` mean the same as `F`, `S`, `U` and are not repeated);
//! * modifiers: none; `CC` (C column); `SAT` and `SSAT` (S column) when the result is
//!   floating point (§2.X.4.1: "Clamping modifiers are not supported on instructions that
//!   do not produce floating-point results"); `HI`, `S24`, `U24` for integer `MUL`
//!   (NV_gpu_program4 § MUL);
//! * operand modifiers `-a, |b|, -|c|` (§2.X.4.2, every instruction with operands except
//!   SWZ, whose operand takes none, and CVT, which forbids them), and `SAT.CC` together
//!   (the flags of the clamped result);
//! * `CVT` (no data type columns; §2.X.8.Z "CVT: Data Type Conversion"): every pair of its
//!   storage modifiers (`F16 F32 F64 S8 S16 S32 S64 U8 U16 U32 U64`), plain, `SAT`, `CC`,
//!   and each rounding modifier (`CEIL FLR TRUNC`; `ROUND` is the default) where the
//!   conversion crosses float and integer.
//!
//! The H column (half-precision suffix `ADDH`) is not a family: the lowering computes it
//! at full precision, which the spec allows, so it would repeat the `F` family. Rows whose
//! operands are textures (`t`), memory addresses (`su`) or condition tests (`c`), and rows
//! without a result (flow control, `EMIT`), are not ALU instructions and have no family,
//! except `KIL` (fragment only), whose `F` / `S` / `U` types change what it tests.
//!
//! Which candidates are generated today is [`lowered_today`]; the generator's tests check
//! it against the real lowering (`shaderdiff_nv::lower`) in both directions, so adding
//! lowering support (64-bit types, say) fails a test until the one matching line here is
//! changed.

/// One row of Table X.13, with its columns as the spec prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Instruction mnemonic.
    pub op: &'static str,
    /// "V": first assembly language with the opcode (40 gp4, 41 gp4.1, 50 gp5).
    pub version: u8,
    /// The six "Modifiers" columns F I C S H D, space-separated (`"6 6 X X X F"`).
    pub modifiers: &'static str,
    /// "Out": result format (`v`, `s`, `vf`, `vu`, `vs`, `-`).
    pub out: &'static str,
    /// "Inputs": operand formats, comma-separated (`v,v`, `v,s`, `vf,t`, `-`).
    pub inputs: &'static str,
    /// Whether the description restricts it to fragment programs ("(fp-only)").
    pub fp_only: bool,
}

/// What a data type column allows (Table X.13 legend).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Col {
    /// `-`: no such modifier.
    No,
    /// `X`: unsized and sized types below 64 bits.
    Yes,
    /// `6`: also the 64-bit types.
    With64,
}

impl Row {
    fn column(&self, k: usize) -> &'static str {
        self.modifiers.split(' ').nth(k).unwrap_or("-")
    }

    fn type_col(&self, k: usize) -> Col {
        match self.column(k) {
            "6" => Col::With64,
            "X" => Col::Yes,
            _ => Col::No,
        }
    }

    /// F column: floating-point data type modifiers.
    pub fn float(&self) -> Col {
        self.type_col(0)
    }

    /// I column: signed and unsigned integer data type modifiers.
    pub fn int(&self) -> Col {
        self.type_col(1)
    }

    /// C column: condition code update modifiers.
    pub fn cc(&self) -> bool {
        self.column(2) == "X"
    }

    /// S column: clamping (saturation) modifiers.
    pub fn sat(&self) -> bool {
        self.column(3) == "X"
    }

    /// H column: half-precision suffix.
    pub fn half(&self) -> bool {
        self.column(4) == "X"
    }

    /// D column: default data type (`F`, `S`, `U`; `-` none).
    pub fn default_type(&self) -> &'static str {
        self.column(5)
    }

    /// The operand formats (`["v", "s"]`); empty for `-`.
    pub fn operands(&self) -> Vec<&'static str> {
        if self.inputs == "-" {
            Vec::new()
        } else {
            self.inputs.split(',').collect()
        }
    }

    /// Whether the row is an ALU instruction: a result, and operands that are all vectors
    /// or scalars (no texture, memory address or condition operand).
    pub fn is_alu(&self) -> bool {
        self.out != "-"
            && self
                .operands()
                .iter()
                .all(|o| matches!(*o, "v" | "vf" | "vs" | "vu" | "s"))
    }
}

macro_rules! rows {
    ($($op:literal $v:literal $m:literal $out:literal $ins:literal $fp:literal;)+) => {
        /// Table X.13 of NV_gpu_program5, one entry per row, in the spec's order.
        pub const ROWS: &[Row] = &[$(Row {
            op: $op, version: $v, modifiers: $m, out: $out, inputs: $ins, fp_only: $fp,
        }),+];
    };
}

// op        V   F I C S H D        Out   Inputs        fp-only
rows! {
    "ABS"     40 "6 6 X X X F" "v"  "v"           false;
    "ADD"     40 "6 6 X X X F" "v"  "v,v"         false;
    "AND"     40 "- 6 X - - S" "v"  "v,v"         false;
    "ATOM"    50 "- - X - - -" "s"  "v,su"        false;
    "BFE"     50 "- X X - - S" "v"  "v,v"         false;
    "BFI"     50 "- X X - - S" "v"  "v,v,v"       false;
    "BFR"     50 "- X X - - S" "v"  "v"           false;
    "BRK"     40 "- - - - - -" "-"  "c"           false;
    "BTC"     50 "- X X - - S" "v"  "v"           false;
    "BTFL"    50 "- X X - - S" "v"  "v"           false;
    "BTFM"    50 "- X X - - S" "v"  "v"           false;
    "CAL"     40 "- - - - - -" "-"  "c"           false;
    "CEIL"    40 "6 6 X X X F" "v"  "vf"          false;
    "CMP"     40 "6 6 X X X F" "v"  "v,v,v"       false;
    "CONT"    40 "- - - - - -" "-"  "c"           false;
    "COS"     40 "X - X X X F" "s"  "s"           false;
    "CVT"     50 "- - X X - F" "v"  "v"           false;
    "DDX"     40 "X - X X X F" "v"  "v"           true;
    "DDY"     40 "X - X X X F" "v"  "v"           true;
    "DIV"     40 "6 6 X X X F" "v"  "v,s"         false;
    "DP2"     40 "X - X X X F" "s"  "v,v"         false;
    "DP2A"    40 "X - X X X F" "s"  "v,v,v"       false;
    "DP3"     40 "X - X X X F" "s"  "v,v"         false;
    "DP4"     40 "X - X X X F" "s"  "v,v"         false;
    "DPH"     40 "X - X X X F" "s"  "v,v"         false;
    "DST"     40 "X - X X X F" "v"  "v,v"         false;
    "ELSE"    40 "- - - - - -" "-"  "-"           false;
    "EMIT"    40 "- - - - - -" "-"  "-"           false;
    "EMITS"   50 "- X - - - S" "-"  "s"           false;
    "ENDIF"   40 "- - - - - -" "-"  "-"           false;
    "ENDPRIM" 40 "- - - - - -" "-"  "-"           false;
    "ENDREP"  40 "- - - - - -" "-"  "-"           false;
    "EX2"     40 "X - X X X F" "s"  "s"           false;
    "FLR"     40 "6 6 X X X F" "v"  "vf"          false;
    "FRC"     40 "6 - X X X F" "v"  "v"           false;
    "I2F"     40 "- 6 X - - S" "vf" "v"           false;
    "IF"      40 "- - - - - -" "-"  "c"           false;
    "IPAC"    50 "X - X X - F" "v"  "v"           true;
    "IPAO"    50 "X - X X - F" "v"  "v,v"         true;
    "IPAS"    50 "X - X X - F" "v"  "v,su"        true;
    "KIL"     40 "X X - - X F" "-"  "vc"          true;
    "LDC"     40 "- - X X - F" "v"  "v"           false;
    "LG2"     40 "X - X X X F" "s"  "s"           false;
    "LIT"     40 "X - X X X F" "v"  "v"           false;
    "LOAD"    40 "- - X X - F" "v"  "su"          false;
    "LOD"     41 "X - X X - F" "v"  "vf,t"        false;
    "LRP"     40 "X - X X X F" "v"  "v,v,v"       false;
    "MAD"     40 "6 6 X X X F" "v"  "v,v,v"       false;
    "MAX"     40 "6 6 X X X F" "v"  "v,v"         false;
    "MEMBAR"  50 "- - - - - -" "-"  "-"           false;
    "MIN"     40 "6 6 X X X F" "v"  "v,v"         false;
    "MOD"     40 "- 6 X - - S" "v"  "v,s"         false;
    "MOV"     40 "6 6 X X X F" "v"  "v"           false;
    "MUL"     40 "6 6 X X X F" "v"  "v,v"         false;
    "NOT"     40 "- 6 X - - S" "v"  "v"           false;
    "NRM"     40 "X - X X X F" "v"  "v"           false;
    "OR"      40 "- 6 X - - S" "v"  "v,v"         false;
    "PK2H"    40 "X X - - - F" "s"  "vf"          false;
    "PK2US"   40 "X X - - - F" "s"  "vf"          false;
    "PK4B"    40 "X X - - - F" "s"  "vf"          false;
    "PK4UB"   40 "X X - - - F" "s"  "vf"          false;
    "PK64"    50 "X X - - - F" "v"  "v"           false;
    "POW"     40 "X - X X X F" "s"  "s,s"         false;
    "RCC"     40 "X - X X X F" "s"  "s"           false;
    "RCP"     40 "6 - X X X F" "s"  "s"           false;
    "REP"     40 "6 6 - - X F" "-"  "v"           false;
    "RET"     40 "- - - - - -" "-"  "c"           false;
    "RFL"     40 "X - X X X F" "v"  "v,v"         false;
    "ROUND"   40 "6 6 X X X F" "v"  "vf"          false;
    "RSQ"     40 "6 - X X X F" "s"  "s"           false;
    "SAD"     40 "- 6 X - - S" "vu" "v,v,vu"      false;
    "SCS"     40 "X - X X X F" "v"  "s"           false;
    "SEQ"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SFL"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SGE"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SGT"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SHL"     40 "- 6 X - - S" "v"  "v,s"         false;
    "SHR"     40 "- 6 X - - S" "v"  "v,s"         false;
    "SIN"     40 "X - X X X F" "s"  "s"           false;
    "SLE"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SLT"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SNE"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SSG"     40 "6 - X X X F" "v"  "v"           false;
    "STORE"   50 "- - - - - -" "-"  "v,su"        false;
    "STR"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SUB"     40 "6 6 X X X F" "v"  "v,v"         false;
    "SWZ"     40 "X - X X X F" "v"  "v"           false;
    "TEX"     40 "X X X X - F" "v"  "vf,t"        false;
    "TGALL"   50 "X X X X - F" "v"  "v"           false;
    "TGANY"   50 "X X X X - F" "v"  "v"           false;
    "TGEQ"    50 "X X X X - F" "v"  "v"           false;
    "TRUNC"   40 "6 6 X X X F" "v"  "vf"          false;
    "TXB"     40 "X X X X - F" "v"  "vf,t"        false;
    "TXD"     40 "X X X X - F" "v"  "vf,vf,vf,t"  false;
    "TXF"     40 "X X X X - F" "v"  "vs,t"        false;
    "TXFMS"   40 "X X X X - F" "v"  "vs,t"        false;
    "TXG"     41 "X X X X - F" "v"  "vf,t"        false;
    "TXGO"    50 "X X X X - F" "v"  "vf,vs,vs,t"  false;
    "TXL"     40 "X X X X - F" "v"  "vf,t"        false;
    "TXP"     40 "X X X X - F" "v"  "vf,t"        false;
    "TXQ"     40 "- - - - - S" "vs" "vs,t"        false;
    "UP2H"    40 "X X X X - F" "vf" "s"           false;
    "UP2US"   40 "X X X X - F" "vf" "s"           false;
    "UP4B"    40 "X X X X - F" "vf" "s"           false;
    "UP4UB"   40 "X X X X - F" "vf" "s"           false;
    "UP64"    50 "X X X X - F" "v"  "v"           false;
    "X2D"     40 "X - X X X F" "v"  "v,v,v"       false;
    "XOR"     40 "- 6 X - - S" "v"  "v,v"         false;
    "XPD"     40 "X - X X X F" "v"  "v,v"         false;
}

/// A data type modifier of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ty {
    /// `F` (binary32).
    F,
    /// `S` (32-bit two's complement).
    S,
    /// `U` (32-bit unsigned).
    U,
    /// `F64` (binary64).
    F64,
    /// `S64`.
    S64,
    /// `U64`.
    U64,
}

impl Ty {
    /// The modifier as written after the opcode (`F`, `S64`).
    pub fn name(self) -> &'static str {
        match self {
            Ty::F => "F",
            Ty::S => "S",
            Ty::U => "U",
            Ty::F64 => "F64",
            Ty::S64 => "S64",
            Ty::U64 => "U64",
        }
    }

    /// Whether it is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F | Ty::F64)
    }

    /// Whether it is one of the 64-bit types.
    pub fn is_64(self) -> bool {
        matches!(self, Ty::F64 | Ty::S64 | Ty::U64)
    }
}

/// The modifier variant of an ALU family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mod {
    /// No modifier besides the data type.
    Plain,
    /// `.CC` (condition code CC0 updated; §2.X.4.3).
    Cc,
    /// `.SAT` (clamp to [0, 1]).
    Sat,
    /// `.SSAT` (clamp to [-1, 1]).
    Ssat,
    /// `MUL.HI` (high 32 bits of the product).
    Hi,
    /// `MUL.S24` / `MUL.U24` (24-bit operands; the modifier implies the data type).
    Fast24,
    /// `.SAT.CC`: the flags come from the clamped result (§2.X.4.3).
    SatCc,
    /// Operand modifiers (§2.X.4.2): operand 0 negated `-a`, operand 1 absolute `|b|`,
    /// operand 2 both `-|c|`.
    NegAbs,
}

impl Mod {
    /// Name suffix (`-cc`), empty for [`Mod::Plain`].
    pub fn suffix(self) -> &'static str {
        match self {
            Mod::Plain => "",
            Mod::Cc => "-cc",
            Mod::Sat => "-sat",
            Mod::Ssat => "-ssat",
            Mod::Hi => "-hi",
            Mod::Fast24 => "-24",
            Mod::SatCc => "-sat-cc",
            Mod::NegAbs => "-negabs",
        }
    }
}

/// CVT storage modifiers (§2.X.8.Z "CVT: Data Type Conversion").
pub const CVT_TYPES: [&str; 11] = [
    "F16", "F32", "F64", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64",
];

/// What a family varies besides the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Variant {
    /// An ALU instruction (or KIL) with a data type and a modifier.
    Alu {
        /// Data type modifier.
        ty: Ty,
        /// Modifier variant.
        m: Mod,
    },
    /// `CVT.<to>.<from>[.<round>][.SAT|.CC]`.
    Cvt {
        /// Result storage type (one of [`CVT_TYPES`]).
        to: &'static str,
        /// Operand storage type.
        from: &'static str,
        /// Rounding modifier, if written.
        round: Option<&'static str>,
        /// `.SAT` or `.CC` ([`Mod::Sat`], [`Mod::Cc`]) or none.
        m: Mod,
    },
}

/// One family: a Table X.13 row and a variant, for one stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// The row.
    pub row: &'static Row,
    /// The variant.
    pub variant: Variant,
    /// `true`: `!!NVfp5.0`; `false`: `!!NVvp5.0`.
    pub fragment: bool,
}

impl Family {
    /// File stem: `nv-spec-<vp|fp>-<op>-<type>[-<modifier>]`, or for CVT
    /// `nv-spec-<vp|fp>-cvt-<to>-<from>[-<round>][-sat|-cc]`, lower case.
    pub fn name(&self) -> String {
        let stage = if self.fragment { "fp" } else { "vp" };
        let tail = match self.variant {
            Variant::Alu { ty, m } => format!("{}{}", ty.name(), m.suffix()),
            Variant::Cvt { to, from, round, m } => {
                let r = round.map(|r| format!("-{r}")).unwrap_or_default();
                format!("{to}-{from}{r}{}", m.suffix())
            }
        };
        format!("nv-spec-{stage}-{}-{tail}", self.row.op).to_lowercase()
    }

    /// Whether the result is floating point (SAT / SSAT apply): the "Out" column `vf`, or
    /// `v` / `s` (type inherited from the operation) with a float data type.
    pub fn float_result(&self) -> bool {
        match self.variant {
            Variant::Alu { ty, .. } => match self.row.out {
                "vf" => true,
                "v" | "s" => ty.is_float(),
                _ => false,
            },
            Variant::Cvt { to, .. } => to.starts_with('F'),
        }
    }
}

/// The data types a row's F and I columns allow ([`Col::With64`] adds the 64-bit ones).
pub fn row_types(row: &Row) -> Vec<Ty> {
    let mut v = Vec::new();
    if row.float() != Col::No {
        v.push(Ty::F);
    }
    if row.int() != Col::No {
        v.extend([Ty::S, Ty::U]);
    }
    if row.float() == Col::With64 {
        v.push(Ty::F64);
    }
    if row.int() == Col::With64 {
        v.extend([Ty::S64, Ty::U64]);
    }
    v
}

fn cvt_variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for to in CVT_TYPES {
        for from in CVT_TYPES {
            for m in [Mod::Plain, Mod::Sat, Mod::Cc] {
                v.push(Variant::Cvt {
                    to,
                    from,
                    round: None,
                    m,
                });
            }
            // Rounding matters where float and integer meet (a float-to-float conversion
            // is "not automatically rounded to integer values").
            if to.starts_with('F') != from.starts_with('F') {
                for r in ["CEIL", "FLR", "TRUNC"] {
                    v.push(Variant::Cvt {
                        to,
                        from,
                        round: Some(r),
                        m: Mod::Plain,
                    });
                }
            }
        }
    }
    v
}

/// Every family Table X.13 allows (module docs), for both stages, in table order:
/// vertex first, then fragment, per row.
pub fn candidates() -> Vec<Family> {
    let mut out = Vec::new();
    for row in ROWS {
        let variants: Vec<Variant> = if row.op == "CVT" {
            cvt_variants()
        } else if row.is_alu() || row.op == "KIL" {
            let mut v = Vec::new();
            for ty in row_types(row) {
                let probe = Family {
                    row,
                    variant: Variant::Alu { ty, m: Mod::Plain },
                    fragment: false,
                };
                let mut mods = vec![Mod::Plain];
                if row.cc() {
                    mods.push(Mod::Cc);
                }
                if row.sat() && probe.float_result() {
                    mods.extend([Mod::Sat, Mod::Ssat]);
                    if row.cc() {
                        mods.push(Mod::SatCc);
                    }
                }
                if row.op != "SWZ" && !row.operands().is_empty() {
                    mods.push(Mod::NegAbs);
                }
                if row.op == "MUL" && matches!(ty, Ty::S | Ty::U) {
                    mods.extend([Mod::Hi, Mod::Fast24]);
                }
                v.extend(mods.into_iter().map(|m| Variant::Alu { ty, m }));
            }
            v
        } else {
            Vec::new()
        };
        for fragment in [false, true] {
            if (row.fp_only || row.op == "KIL") && !fragment {
                continue;
            }
            out.extend(variants.iter().map(|&variant| Family {
                row,
                variant,
                fragment,
            }));
        }
    }
    out
}

/// Instructions with no lowering today (`shaderdiff_nv::lower` refuses every family):
/// none today (every Table X.13 instruction the family table enumerates is lowered).
const NOT_LOWERED: &[&str] = &[];

/// Whether the lowering supports a family today, so that it is generated. The tests
/// check this against `shaderdiff_nv::lower` for every candidate: change the matching
/// line when the lowering gains support.
pub fn lowered_today(f: &Family) -> bool {
    if NOT_LOWERED.contains(&f.row.op) {
        return false;
    }
    match f.variant {
        // 64-bit data types (NV_gpu_program5 §2.X.4.1, NOTES.md §11): MUL.HI / S24 / U24
        // are 32-bit multiplies (NV_gpu_program4 § MUL), invalid with a 64-bit type.
        Variant::Alu { ty, m, .. } if ty.is_64() => !matches!(m, Mod::Hi | Mod::Fast24),
        // SAD's condition codes need its carry and overflow.
        Variant::Alu { m: Mod::Cc, .. } if f.row.op == "SAD" => false,
        Variant::Alu { .. } => true,
        Variant::Cvt {
            to, from, round, ..
        } => {
            let bits = |t: &str| t[1..].parse::<u32>().unwrap_or(0);
            let float = |t: &str| t.starts_with('F');
            // 8/16-bit integers and F16 to or from 64 bits.
            if bits(to) == 64 || bits(from) == 64 {
                let both_wide_or_32 = [to, from].iter().all(|t| bits(t) >= 32);
                let directed_to_float = float(to) && round.is_some();
                return both_wide_or_32 && !directed_to_float;
            }
            // Integer to F32 with a directed rounding (to F16 it is lowered: binary32
            // holds every integer binary16 can round to).
            !(to == "F32" && !float(from) && round.is_some())
        }
    }
}
