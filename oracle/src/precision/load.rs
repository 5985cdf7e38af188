//! Loading `precision.toml`: the raw TOML schema (with spans), then validation into the
//! typed [`PrecisionContract`]. Every error carries the `line:col` of the key or value at
//! fault.
//!
//! Schema (see the file itself for the full commented contract):
//!
//! ```toml
//! version = 1
//! [policy]                       # comparator defaults
//! nan = "any"                    # or "strict"
//! source = "..."
//! [engines]                      # engine name -> class
//! interp = "cpu"
//! [class.cpu]                    # one table per class
//! denormals = "preserve"         # or "flush_allowed"
//! signed_zero = "exact"          # or "either"
//! overflow = "ieee"              # or "inf_or_max"
//! not_defined = "nan"            # or "any"
//! source = "..."
//! [[group]]                      # several opcodes sharing bounds
//! name = "..."
//! ops = ["ADD", "SUB"]
//! all = "exact"                  # or one key per class
//! source = "..."
//! [op.EX2]                       # one opcode
//! cpu = { ulp = "0.5+2^-29", source = "..." }
//! gpu = { ulp = 3, ulp_per_abs_x = 2, source = "..." }
//! ```
//!
//! A bound is `"exact"`, `"fused_or_unfused"`, or a table with `ulp`, `ulp_per_abs_x`,
//! `abs`, `range = [lo, hi]`, `range_of = "x" | "abs_x" | "abs_y"`, `outside = {...}`;
//! or `inherited = "1/rsq(x)" | "ex2(y*lg2(x))"`; or `channels = ["exact", "FRC", ...]`;
//! or `kind = "exact" | "fused_or_unfused"`. A table may carry its own `source`.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use shaderdiff_model::Opcode;
use toml::{Spanned, Value};

use super::num::parse_num;
use super::{
    accepts_channels, accepts_error_bound, accepts_fused_or_unfused, contract_opcodes,
    inheritable_formula, Bound, BoundKind, ChannelRule, ClassPolicy, ContractError, DenormalPolicy,
    EngineClass, ErrorBound, Formula, InputRange, NanPolicy, NotDefinedPolicy, OpContract,
    OverflowPolicy, PrecisionContract, RangeOf, SignedZeroPolicy,
};

type Entry = BTreeMap<Spanned<String>, Spanned<Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    version: Spanned<u32>,
    policy: RawPolicy,
    engines: BTreeMap<Spanned<String>, Spanned<String>>,
    class: BTreeMap<Spanned<String>, RawClass>,
    #[serde(default)]
    group: Vec<Spanned<Entry>>,
    #[serde(default)]
    op: BTreeMap<Spanned<String>, Spanned<Entry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPolicy {
    nan: Spanned<String>,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClass {
    denormals: Spanned<String>,
    signed_zero: Spanned<String>,
    overflow: Spanned<String>,
    not_defined: Spanned<String>,
    source: String,
}

/// Error builder bound to one file's text.
struct Ctx<'a> {
    text: &'a str,
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, span: Range<usize>, message: impl Into<String>) -> ContractError {
        let start = span.start.min(self.text.len());
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        ContractError {
            file: self.file.to_string(),
            line,
            col,
            message: message.into(),
        }
    }

    fn choice<T: Copy>(
        &self,
        v: &Spanned<String>,
        what: &str,
        options: &[(&str, T)],
    ) -> Result<T, ContractError> {
        options
            .iter()
            .find(|(name, _)| *name == v.get_ref())
            .map(|&(_, t)| t)
            .ok_or_else(|| {
                let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
                self.err(
                    v.span(),
                    format!(
                        "unknown {what} `{}` (expected one of: {})",
                        v.get_ref(),
                        names.join(", ")
                    ),
                )
            })
    }
}

pub(super) fn parse(text: &str, file: &str) -> Result<PrecisionContract, ContractError> {
    let cx = Ctx { text, file };
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        cx.err(span, e.message().to_string())
    })?;
    if *raw.version.get_ref() != 1 {
        return Err(cx.err(
            raw.version.span(),
            "unsupported contract version (expected 1)",
        ));
    }
    let nan = cx.choice(
        &raw.policy.nan,
        "NaN policy",
        &[("any", NanPolicy::Any), ("strict", NanPolicy::Strict)],
    )?;
    let mut classes = Vec::new();
    for (name, c) in &raw.class {
        if classes.len() >= u8::MAX as usize {
            return Err(cx.err(name.span(), "too many classes"));
        }
        classes.push(ClassPolicy {
            name: name.get_ref().clone(),
            denormals: cx.choice(
                &c.denormals,
                "denormal policy",
                &[
                    ("preserve", DenormalPolicy::Preserve),
                    ("flush_allowed", DenormalPolicy::FlushAllowed),
                    ("flush", DenormalPolicy::Flush),
                    ("flush_or_preserve", DenormalPolicy::FlushOrPreserve),
                ],
            )?,
            signed_zero: signed_zero(&cx, &c.signed_zero)?,
            overflow: cx.choice(
                &c.overflow,
                "overflow policy",
                &[
                    ("ieee", OverflowPolicy::Ieee),
                    ("inf_or_max", OverflowPolicy::InfOrMax),
                ],
            )?,
            not_defined: cx.choice(
                &c.not_defined,
                "not-defined policy",
                &[
                    ("nan", NotDefinedPolicy::Nan),
                    ("any", NotDefinedPolicy::Any),
                ],
            )?,
            source: c.source.clone(),
        });
    }
    if classes.is_empty() {
        return Err(cx.err(0..0, "the contract defines no engine class"));
    }
    let class_index = |name: &str| {
        classes
            .iter()
            .position(|c| c.name == name)
            .map(|i| EngineClass(i as u8))
    };
    let mut engines = BTreeMap::new();
    for (engine, class) in &raw.engines {
        let c = class_index(class.get_ref())
            .ok_or_else(|| cx.err(class.span(), format!("unknown class `{}`", class.get_ref())))?;
        engines.insert(engine.get_ref().clone(), c);
    }
    let class_names: Vec<String> = classes.iter().map(|c| c.name.clone()).collect();
    let mut ops: BTreeMap<Opcode, OpContract> = BTreeMap::new();
    let mut add = |op_name: &Spanned<String>, entry: &Entry, entry_span: Range<usize>| {
        let op = Opcode::from_name(op_name.get_ref())
            .filter(|op| contract_opcodes().any(|o| o == *op))
            .ok_or_else(|| {
                cx.err(
                    op_name.span(),
                    format!(
                        "`{}` is not an opcode the oracle implements",
                        op_name.get_ref()
                    ),
                )
            })?;
        if ops.contains_key(&op) {
            return Err(cx.err(op_name.span(), format!("{op} is listed twice")));
        }
        let c = op_contract(&cx, op, entry, entry_span, &class_names)?;
        ops.insert(op, c);
        Ok(())
    };
    for g in &raw.group {
        let entry = g.get_ref();
        let list = entry
            .iter()
            .find(|(k, _)| k.get_ref() == "ops")
            .ok_or_else(|| cx.err(g.span(), "a [[group]] needs `ops = [...]`"))?;
        let Value::Array(names) = list.1.get_ref() else {
            return Err(cx.err(list.1.span(), "`ops` must be a list of opcode names"));
        };
        for n in names {
            let Value::String(s) = n else {
                return Err(cx.err(list.1.span(), "`ops` must be a list of opcode names"));
            };
            let name = Spanned::new(list.1.span(), s.clone());
            add(&name, entry, g.span())?;
        }
    }
    for (name, entry) in &raw.op {
        add(name, entry.get_ref(), entry.span())?;
    }
    for op in contract_opcodes() {
        if !ops.contains_key(&op) {
            return Err(cx.err(0..0, format!("opcode {op} has no entry in the contract")));
        }
    }
    // Channel rules must name opcodes whose own bounds are not per-channel.
    for (op, c) in &ops {
        for b in &c.bounds {
            if let BoundKind::Channels(rules) = &b.kind {
                for r in rules {
                    if let ChannelRule::As(other) = r {
                        let ok = ops.get(other).is_some_and(|o| {
                            o.bounds
                                .iter()
                                .all(|b| !matches!(b.kind, BoundKind::Channels(_)))
                        });
                        if !ok {
                            let span = raw_span_of(&raw, *op).unwrap_or(0..0);
                            return Err(cx.err(
                                span,
                                format!(
                                    "{op}: channel rule names {other}, which has no plain bound"
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(PrecisionContract {
        version: 1,
        nan,
        nan_source: raw.policy.source,
        classes,
        engines,
        ops,
    })
}

fn raw_span_of(raw: &RawFile, op: Opcode) -> Option<Range<usize>> {
    raw.op
        .iter()
        .find(|(k, _)| k.get_ref().eq_ignore_ascii_case(op.name()))
        .map(|(k, _)| k.span())
}

fn signed_zero(cx: &Ctx, v: &Spanned<String>) -> Result<SignedZeroPolicy, ContractError> {
    cx.choice(
        v,
        "signed-zero policy",
        &[
            ("exact", SignedZeroPolicy::Exact),
            ("either", SignedZeroPolicy::Either),
        ],
    )
}

/// Builds one opcode's contract from an `[op.X]` table or a `[[group]]`.
fn op_contract(
    cx: &Ctx,
    op: Opcode,
    entry: &Entry,
    entry_span: Range<usize>,
    classes: &[String],
) -> Result<OpContract, ContractError> {
    let mut source = None;
    let mut zero = None;
    let mut all = None;
    let mut per_class: BTreeMap<&str, &Spanned<Value>> = BTreeMap::new();
    for (k, v) in entry {
        match k.get_ref().as_str() {
            "ops" | "name" => {}
            "source" => match v.get_ref() {
                Value::String(s) => source = Some(s.clone()),
                _ => return Err(cx.err(v.span(), "`source` must be a string")),
            },
            "signed_zero" => match v.get_ref() {
                Value::String(s) => {
                    zero = Some(signed_zero(cx, &Spanned::new(v.span(), s.clone()))?)
                }
                _ => return Err(cx.err(v.span(), "`signed_zero` must be a string")),
            },
            "all" => all = Some(v),
            name => match classes.iter().find(|c| *c == name) {
                Some(c) => {
                    per_class.insert(c.as_str(), v);
                }
                None => {
                    return Err(cx.err(
                        k.span(),
                        format!(
                        "unknown key `{name}` (expected source, signed_zero, all or a class: {})",
                        classes.join(", ")
                    ),
                    ))
                }
            },
        }
    }
    let mut bounds = Vec::new();
    for class in classes {
        let v = match (all, per_class.get(class.as_str())) {
            (Some(a), Some(_)) => {
                return Err(cx.err(
                    a.span(),
                    format!("{op}: both `all` and `{class}` give a bound"),
                ))
            }
            (Some(a), None) => a,
            (None, Some(v)) => *v,
            (None, None) => {
                return Err(cx.err(
                    entry_span,
                    format!(
                        "{op}: no bound for class `{class}` (add `{class} = ...` or `all = ...`)"
                    ),
                ))
            }
        };
        bounds.push(bound(cx, op, v, source.as_deref())?);
    }
    Ok(OpContract {
        bounds,
        signed_zero: zero,
    })
}

/// One bound value (string or table) of `op`.
fn bound(
    cx: &Ctx,
    op: Opcode,
    v: &Spanned<Value>,
    source: Option<&str>,
) -> Result<Bound, ContractError> {
    let span = v.span();
    let (kind, own_source) = match v.get_ref() {
        Value::String(s) => (simple_kind(cx, op, s, span.clone())?, None),
        Value::Table(t) => {
            let own = match t.get("source") {
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => return Err(cx.err(span, "`source` must be a string")),
                None => None,
            };
            (table_kind(cx, op, t, span.clone())?, own)
        }
        _ => return Err(cx.err(span, "a bound is a string or a table")),
    };
    let source = own_source
        .or_else(|| source.map(str::to_string))
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| cx.err(span.clone(), format!("{op}: the bound cites no `source`")))?;
    Ok(Bound { kind, source })
}

fn simple_kind(
    cx: &Ctx,
    op: Opcode,
    s: &str,
    span: Range<usize>,
) -> Result<BoundKind, ContractError> {
    match s {
        "exact" => Ok(BoundKind::Exact),
        "fused_or_unfused" if accepts_fused_or_unfused(op) => Ok(BoundKind::FusedOrUnfused),
        "fused_or_unfused" => Err(cx.err(
            span,
            format!("{op} cannot be fused_or_unfused (only MAD, DP2, DP3, DP4, DPH, LRP, XPD, DMAD, INTERP_OFFSET)"),
        )),
        _ => Err(cx.err(
            span,
            format!("unknown bound `{s}` (expected \"exact\", \"fused_or_unfused\" or a table)"),
        )),
    }
}

const ERROR_KEYS: &[&str] = &[
    "ulp",
    "ulp_per_abs_x",
    "abs",
    "range",
    "range_of",
    "outside",
];

fn table_kind(
    cx: &Ctx,
    op: Opcode,
    t: &toml::Table,
    span: Range<usize>,
) -> Result<BoundKind, ContractError> {
    for k in t.keys() {
        if !(ERROR_KEYS.contains(&k.as_str())
            || matches!(k.as_str(), "source" | "inherited" | "channels" | "kind"))
        {
            return Err(cx.err(span, format!("unknown key `{k}` in a bound")));
        }
    }
    let has_error = ERROR_KEYS.iter().any(|k| t.contains_key(*k));
    let kinds = [
        t.contains_key("inherited"),
        t.contains_key("channels"),
        t.contains_key("kind"),
        has_error,
    ];
    if kinds.iter().filter(|&&b| b).count() != 1 {
        return Err(cx.err(
            span,
            "a bound table gives exactly one of: an error bound (ulp/abs/...), `inherited`, `channels`, `kind`",
        ));
    }
    if let Some(k) = t.get("kind") {
        let Value::String(s) = k else {
            return Err(cx.err(span, "`kind` must be a string"));
        };
        return simple_kind(cx, op, s, span);
    }
    if let Some(f) = t.get("inherited") {
        let formula = match f {
            Value::String(s) if s == Formula::RcpOfRsq.text() => Formula::RcpOfRsq,
            Value::String(s) if s == Formula::Ex2OfYLg2X.text() => Formula::Ex2OfYLg2X,
            _ => {
                return Err(cx.err(
                    span,
                    "unknown formula (expected \"1/rsq(x)\" or \"ex2(y*lg2(x))\")",
                ))
            }
        };
        if inheritable_formula(op) != Some(formula) {
            return Err(cx.err(
                span,
                format!("{op} cannot inherit from `{}`", formula.text()),
            ));
        }
        return Ok(BoundKind::Inherited(formula));
    }
    if let Some(c) = t.get("channels") {
        if !accepts_channels(op) {
            return Err(cx.err(
                span,
                format!("{op} has no per-channel rules (only EXP, LOG, LIT)"),
            ));
        }
        let list = match c {
            Value::Array(a) if a.len() == 4 => a,
            _ => return Err(cx.err(span, "`channels` must list 4 rules (x, y, z, w)")),
        };
        let mut rules = [ChannelRule::Exact; 4];
        for (r, v) in rules.iter_mut().zip(list) {
            *r = match v {
                Value::String(s) if s == "exact" => ChannelRule::Exact,
                Value::String(s) => match Opcode::from_name(s) {
                    Some(o) if o != op && contract_opcodes().any(|x| x == o) => ChannelRule::As(o),
                    _ => return Err(cx.err(span, format!("bad channel rule `{s}`"))),
                },
                _ => return Err(cx.err(span, "channel rules are strings")),
            };
        }
        return Ok(BoundKind::Channels(rules));
    }
    if !accepts_error_bound(op) {
        return Err(cx.err(
            span,
            format!(
                "{op} cannot take an error bound (only ADD, SUB, MUL, DIV, RCP, RSQ, SQRT, EX2, LG2, POW, SIN, COS)"
            ),
        ));
    }
    Ok(BoundKind::Error(error_bound(cx, t, span)?))
}

fn num(cx: &Ctx, v: &Value, span: Range<usize>, what: &str) -> Result<f64, ContractError> {
    let x = match v {
        Value::Integer(i) => *i as f64,
        Value::Float(f) => *f,
        Value::String(s) => {
            parse_num(s).map_err(|m| cx.err(span.clone(), format!("{what}: {m}")))?
        }
        _ => return Err(cx.err(span, format!("{what} must be a number"))),
    };
    if x.is_nan() {
        return Err(cx.err(span, format!("{what} is not a number")));
    }
    Ok(x)
}

fn error_bound(cx: &Ctx, t: &toml::Table, span: Range<usize>) -> Result<ErrorBound, ContractError> {
    let get = |k: &str| -> Result<f64, ContractError> {
        match t.get(k) {
            None => Ok(0.0),
            Some(v) => {
                let x = num(cx, v, span.clone(), k)?;
                if x < 0.0 || !x.is_finite() {
                    return Err(cx.err(span.clone(), format!("`{k}` must be finite and >= 0")));
                }
                Ok(x)
            }
        }
    };
    let ulp = get("ulp")?;
    let ulp_per_abs_x = get("ulp_per_abs_x")?;
    let abs = get("abs")?;
    let range = match t.get("range") {
        None => None,
        Some(Value::Array(a)) if a.len() == 2 => {
            let lo = num(cx, &a[0], span.clone(), "range start")?;
            let hi = num(cx, &a[1], span.clone(), "range end")?;
            if lo > hi {
                return Err(cx.err(span, "range start is above its end"));
            }
            let of = match t.get("range_of") {
                None => RangeOf::X,
                Some(Value::String(s)) if s == "x" => RangeOf::X,
                Some(Value::String(s)) if s == "abs_x" => RangeOf::AbsX,
                Some(Value::String(s)) if s == "abs_y" => RangeOf::AbsY,
                Some(_) => return Err(cx.err(span, "`range_of` is \"x\", \"abs_x\" or \"abs_y\"")),
            };
            Some(InputRange { of, lo, hi })
        }
        Some(_) => return Err(cx.err(span, "`range` must be [lo, hi]")),
    };
    if range.is_none() && (t.contains_key("range_of") || t.contains_key("outside")) {
        return Err(cx.err(span, "`range_of` and `outside` need a `range`"));
    }
    let outside = match t.get("outside") {
        None => None,
        Some(Value::Table(o)) => {
            if o.keys().any(|k| !ERROR_KEYS.contains(&k.as_str())) {
                return Err(cx.err(span, "`outside` holds an error bound (ulp, abs, ...)"));
            }
            Some(Box::new(error_bound(cx, o, span.clone())?))
        }
        Some(_) => return Err(cx.err(span, "`outside` must be a table")),
    };
    Ok(ErrorBound {
        ulp,
        ulp_per_abs_x,
        abs,
        range,
        outside,
    })
}
