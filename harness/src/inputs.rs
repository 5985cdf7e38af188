//! The inputs file (INTERFACE.md "The inputs file"): JSON text → [`Inputs`].
//!
//! Two steps: [`parse_document`] checks the JSON and the value syntax and keeps the
//! position of every entry; [`resolve`] checks the document against the program
//! (declared registers, invocation count, fragment quads) and builds the engine's
//! [`Inputs`]. [`load`] does both. Every error is an [`InputsError`] whose `Display` is one
//! line: `inputs.json:3:14: message`.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use shaderdiff_model::{
    DeclDimension, Declaration, File, Pos, Primitive, Program, PropertyName, Stage,
};
use shaderdiff_oracles::texture::Texture;
use shaderdiff_oracles::{Inputs, RegKey, Vec4};

use crate::value::{
    describe, list_elements, parse_address, parse_hex_bytes, parse_reg_name, parse_vec4,
};

/// Invocation count when neither `--invocations` nor the file gives one (INTERFACE.md).
pub const DEFAULT_INVOCATIONS: usize = 4;
/// Largest accepted invocation count (keeps a typo from allocating gigabytes).
pub use shaderdiff_compare::limits::MAX_INVOCATIONS;

/// A bad inputs file or invocation count. `Display`: `file:line:col: message`, or
/// `file: message` when there is no position (`file` may also be `--invocations N`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputsError {
    /// The inputs file name as given on the command line (or the flag at fault).
    pub file: String,
    /// 1-based position in the file, when the error is about one entry.
    pub pos: Option<Pos>,
    /// What is wrong, one line.
    pub message: String,
}

impl fmt::Display for InputsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "{}:{}:{}: {}", self.file, p.line, p.col, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// A value with the position where the file gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// 1-based line and column of its first character.
    pub pos: Pos,
}

/// A `registers` entry: one vec4 for every invocation, or a list of one vec4 per invocation.
#[derive(Clone, Debug, PartialEq)]
pub enum RegValue {
    /// `[c0, c1, c2, c3]`: the same vec4 for all invocations.
    All(Vec4),
    /// `[[..], [..], ...]`: vec4 `i` is invocation `i`'s.
    PerInvocation(Vec<Vec4>),
}

/// A syntactically valid inputs file, not yet checked against a program.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct InputsDoc {
    /// The file name used in messages.
    pub file: String,
    /// `invocations`, if given.
    pub invocations: Option<Located<usize>>,
    /// `registers` entries in file order (key position, value).
    pub registers: Vec<(Located<RegKey>, Located<RegValue>)>,
    /// `constants` entries in file order.
    pub constants: Vec<(Located<RegKey>, Vec4)>,
    /// `buffers` entries in file order (bytes in memory order).
    pub buffers: Vec<(Located<RegKey>, Vec<u8>)>,
    /// `global` entries in file order (base address, bytes).
    pub global: Vec<(Located<u64>, Vec<u8>)>,
    /// `textures` entries in file order (unit key, texture at its value's position).
    pub textures: Vec<(Located<RegKey>, Located<Texture>)>,
    /// Names that are bindings of the program's stage the program does not read
    /// (INTERFACE.md: accepted, with one note on stderr).
    pub unread: Vec<String>,
}

/// The top-level object, leaves kept as raw JSON text so that positions can be computed.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with keys invocations, registers, constants, buffers, global, textures"
)]
struct Top<'a> {
    #[serde(borrow, default)]
    invocations: Option<&'a RawValue>,
    #[serde(borrow, default)]
    registers: Option<Entries<'a>>,
    #[serde(borrow, default)]
    constants: Option<Entries<'a>>,
    #[serde(borrow, default)]
    buffers: Option<Entries<'a>>,
    #[serde(borrow, default)]
    global: Option<Entries<'a>>,
    #[serde(borrow, default)]
    textures: Option<Entries<'a>>,
}

/// A JSON object's entries in file order, duplicates kept (they are reported later).
pub(crate) struct Entries<'a>(pub(crate) Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Entries<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Entries<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object keyed by register name or address")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Entries<'a>, M::Error> {
                let mut v = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    let val: &'de RawValue = m.next_value()?;
                    v.push((k, val));
                }
                Ok(Entries(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// Maps byte offsets of the document to 1-based line:column (columns count characters).
pub(crate) struct Locator<'t> {
    text: &'t str,
}

impl<'t> Locator<'t> {
    /// Position of byte `offset`.
    fn at(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        // Saturating: only an inputs file of more than 4 GiB lines could reach u32::MAX.
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).saturating_add(1);
        let line = count(before.matches('\n').count());
        let line_start = before.rfind('\n').map_or(0, |i| i.saturating_add(1));
        let col = count(before[line_start..].chars().count());
        Pos { line, col }
    }
    /// Byte offset of `sub`, which must be a slice of the document.
    fn offset(&self, sub: &str) -> usize {
        (sub.as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize)
    }
    /// Position of a raw value's first character.
    pub(crate) fn value(&self, raw: &RawValue) -> Pos {
        let s = raw.get();
        let lead = s.len().saturating_sub(s.trim_start().len());
        self.at(self.offset(s).saturating_add(lead))
    }
    /// Position of the key (its opening quote) whose value is `raw`; the value's position
    /// if the text before it is not `"key" :` as expected.
    pub(crate) fn key(&self, raw: &RawValue) -> Pos {
        let bytes = self.text.as_bytes();
        let mut i = self.offset(raw.get());
        let skip_ws = |i: &mut usize| {
            while let Some(j) = i.checked_sub(1).filter(|&j| bytes[j].is_ascii_whitespace()) {
                *i = j;
            }
        };
        skip_ws(&mut i);
        // Every `i - 1` below follows a check that `i > 0`: the checked forms say so.
        let before = |i: usize| i.checked_sub(1).map(|j| (j, bytes[j]));
        if let Some((j, b':')) = before(i) {
            i = j;
            skip_ws(&mut i);
            if let Some((j, b'"')) = before(i) {
                i = j;
                while let Some(j) = i.checked_sub(1) {
                    i = j;
                    if bytes[i] == b'"' && before(i).is_none_or(|(_, c)| c != b'\\') {
                        return self.at(i);
                    }
                }
            }
        }
        self.value(raw)
    }
    /// Converts serde_json's 1-based line and byte column to line:character column.
    fn serde_pos(&self, line: usize, col: usize) -> Pos {
        let text = self.text.lines().nth(line.saturating_sub(1)).unwrap_or("");
        let chars = text
            .get(..col.min(text.len()))
            .map_or(col, |s| s.chars().count());
        Pos {
            line: line as u32,
            col: chars.max(1) as u32,
        }
    }
}

/// Parses the text of an inputs file: JSON syntax, the known top-level keys, register
/// names, channel values, hex byte strings and addresses. Does not look at the program.
///
/// Errors: malformed JSON (serde_json's message at its line:col), an unknown top-level
/// key, a value of the wrong kind, an invalid register name or channel value.
pub fn parse_document(text: &str, file: &str) -> Result<InputsDoc, InputsError> {
    parse_document_with(text, file, None)
}

/// How an NV program's register names (`fragment.texcoord[1]`, `program.local[0]`,
/// INTERFACE.md "The inputs file") translate to IR registers: `Ok(None)` for a binding of
/// the program's stage that the program does not read (skipped with a note), `Err` the
/// message for a name that is no binding of the stage.
pub type KeyMap<'a> = &'a dyn Fn(&str) -> Result<Option<RegKey>, String>;

/// [`parse_document`] with the register names translated by `keys` (NV programs) instead
/// of read as IR names (`IN[0]`, `CONST[1]`).
///
/// Errors: as [`parse_document`], and `keys`' message (at the key) for an unknown name.
pub fn parse_document_with(
    text: &str,
    file: &str,
    keys: Option<KeyMap>,
) -> Result<InputsDoc, InputsError> {
    let loc = Locator { text };
    let err = |pos: Option<Pos>, message: String| InputsError {
        file: file.to_string(),
        pos,
        message,
    };
    // serde's derived struct reader also takes a list; the file must be an object.
    if text.trim_start().starts_with('[') {
        let first = text.len().saturating_sub(text.trim_start().len());
        return Err(err(
            Some(loc.at(first)),
            "the inputs file must be a JSON object such as {\"invocations\": 4, \"registers\": {..}}, found a list".into(),
        ));
    }
    let top: Top = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
        let pos = (e.line() > 0).then(|| loc.serde_pos(e.line(), e.column()));
        err(pos, message)
    })?;
    let mut doc = InputsDoc {
        file: file.to_string(),
        ..InputsDoc::default()
    };
    if let Some(raw) = top.invocations {
        let t = raw.get().trim();
        let n = t
            .parse::<u64>()
            .ok()
            .filter(|&n| n >= 1 && n <= MAX_INVOCATIONS as u64)
            .ok_or_else(|| {
                err(
                    Some(loc.value(raw)),
                    format!(
                        "invocations must be a whole number from 1 to {MAX_INVOCATIONS}, found {}",
                        describe(t)
                    ),
                )
            })?;
        doc.invocations = Some(Located {
            value: n as usize,
            pos: loc.value(raw),
        });
    }
    let key = |name: &str, raw: &RawValue| -> Result<Option<Located<RegKey>>, InputsError> {
        let pos = loc.key(raw);
        keys.map_or_else(|| parse_reg_name(name).map(Some), |f| f(name))
            .map(|value| value.map(|value| Located { value, pos }))
            .map_err(|m| err(Some(pos), m))
    };
    for (name, raw) in top.registers.map_or(Vec::new(), |e| e.0) {
        let k = key(&name, raw)?;
        let v =
            parse_reg_value(&loc, raw).map_err(|(p, m)| err(Some(p), format!("{name}: {m}")))?;
        match k {
            Some(k) => doc.registers.push((k, v)),
            None => doc.unread.push(name),
        }
    }
    for (name, raw) in top.constants.map_or(Vec::new(), |e| e.0) {
        let k = key(&name, raw)?;
        let v = vec4_at(&loc, raw).map_err(|(p, m)| err(Some(p), format!("{name}: {m}")))?;
        match k {
            Some(k) => doc.constants.push((k, v)),
            None => doc.unread.push(name),
        }
    }
    let hex = |name: &str, raw: &RawValue| -> Result<Vec<u8>, InputsError> {
        let pos = Some(loc.value(raw));
        let s: String = serde_json::from_str(raw.get()).map_err(|_| {
            err(
                pos,
                format!(
                    "{name}: expected a string of hex bytes such as \"0000803f\", found {}",
                    describe(raw.get())
                ),
            )
        })?;
        parse_hex_bytes(&s).map_err(|m| err(pos, format!("{name}: {m}")))
    };
    for (name, raw) in top.buffers.map_or(Vec::new(), |e| e.0) {
        let k = key(&name, raw)?;
        let bytes = hex(&name, raw)?;
        match k {
            Some(k) => doc.buffers.push((k, bytes)),
            None => doc.unread.push(name),
        }
    }
    for (name, raw) in top.global.map_or(Vec::new(), |e| e.0) {
        let pos = loc.key(raw);
        let addr = parse_address(&name).map_err(|m| err(Some(pos), m))?;
        let bytes = hex(&name, raw)?;
        doc.global.push((Located { value: addr, pos }, bytes));
    }
    for (name, raw) in top.textures.map_or(Vec::new(), |e| e.0) {
        let k = key(&name, raw)?;
        let t = crate::inputs_tex::parse_texture(&loc, raw)
            .map_err(|(p, m)| err(Some(p), format!("{name}: {m}")))?;
        let Some(k) = k else {
            doc.unread.push(name);
            continue;
        };
        doc.textures.push((
            k,
            Located {
                value: t,
                pos: loc.value(raw),
            },
        ));
    }
    Ok(doc)
}

/// A vec4 with the error located at the offending element.
fn vec4_at(loc: &Locator, raw: &RawValue) -> Result<Vec4, (Pos, String)> {
    parse_vec4(raw).map_err(|(k, m)| {
        let pos = match k {
            0 => loc.value(raw),
            k => list_elements(raw)
                .ok()
                .and_then(|e| e.get(k.checked_sub(1)?).map(|e| loc.value(e)))
                .unwrap_or_else(|| loc.value(raw)),
        };
        (pos, m)
    })
}

/// A `registers` value: a vec4, or a list of vec4s (one per invocation).
fn parse_reg_value(loc: &Locator, raw: &RawValue) -> Result<Located<RegValue>, (Pos, String)> {
    let pos = loc.value(raw);
    let elems = list_elements(raw).map_err(|m| {
        (
            pos,
            format!("expected a vec4 or a list of vec4s (one per invocation): {m}"),
        )
    })?;
    let is_list = |e: &&RawValue| e.get().trim_start().starts_with('[');
    let value = if !elems.is_empty() && elems.iter().all(is_list) {
        let mut v = Vec::with_capacity(elems.len());
        for e in elems {
            v.push(vec4_at(loc, e)?);
        }
        RegValue::PerInvocation(v)
    } else if let Some(e) = elems.iter().find(|e| is_list(e)) {
        return Err((
            loc.value(e),
            "mixes vec4s and channel values: give one vec4, or one vec4 per invocation".into(),
        ));
    } else {
        RegValue::All(vec4_at(loc, raw)?)
    };
    Ok(Located { value, pos })
}

/// Where the invocation count came from, for messages.
#[derive(Clone, Copy, Debug)]
enum CountSource {
    Flag,
    File(Pos),
    Default,
}

impl CountSource {
    fn describe(self, n: usize) -> String {
        match self {
            CountSource::Flag => format!("{n} invocations (--invocations {n})"),
            CountSource::File(_) => format!("{n} invocations (\"invocations\": {n})"),
            CountSource::Default => format!(
                "{n} invocations (the default; set \"invocations\" in the file or pass --invocations)"
            ),
        }
    }
}

/// The inputs of a run without an inputs file: everything zero, `invocations` from the
/// flag or [`DEFAULT_INVOCATIONS`].
///
/// Errors: a count of 0 or above [`MAX_INVOCATIONS`], or not a multiple of 4 for a fragment
/// program (INTERFACE.md "Fragment quads").
pub fn defaults(program: &Program, invocations: Option<usize>) -> Result<Inputs, InputsError> {
    resolve(&InputsDoc::default(), program, invocations)
}

/// Reads an inputs file's text against `program`: [`parse_document`] then [`resolve`].
pub fn load(
    text: &str,
    file: &str,
    program: &Program,
    invocations: Option<usize>,
) -> Result<Inputs, InputsError> {
    resolve(&parse_document(text, file)?, program, invocations)
}

/// [`load`] for an NV program: register names translated by `keys`
/// ([`parse_document_with`]).
pub fn load_with(
    text: &str,
    file: &str,
    program: &Program,
    invocations: Option<usize>,
    keys: Option<KeyMap>,
) -> Result<Inputs, InputsError> {
    resolve(
        &parse_document_with(text, file, keys)?,
        program,
        invocations,
    )
}

/// Checks a document against the program and builds the engine inputs.
///
/// * The count is `invocations` (the `--invocations` flag) if given, else the file's,
///   else [`DEFAULT_INVOCATIONS`]; it must be 1..=[`MAX_INVOCATIONS`] and, for fragment
///   programs, a multiple of 4.
/// * `registers` keys must be `IN`/`SV` registers; one the program does not declare is
///   skipped with one note on stderr for the file (INTERFACE.md); a list of vec4s must
///   have one per invocation.
/// * `constants` keys must be declared `CONST` registers. `CONST[i]` and `CONST[0][i]`
///   name the same register (buffer 0); the key is stored in the form the program
///   declares it.
/// * `buffers` keys must be declared `BUFFER`/`MEMORY` registers.
/// * `textures` keys must be declared `SAMP` registers (NV `texture[n]` names one); whether
///   the texture fits the instructions on the unit is the engines' input check.
/// * No register may be given twice.
pub fn resolve(
    doc: &InputsDoc,
    program: &Program,
    invocations: Option<usize>,
) -> Result<Inputs, InputsError> {
    let err = |pos: Option<Pos>, message: String| InputsError {
        file: doc.file.clone(),
        pos,
        message,
    };
    let (count, source) = match (invocations, &doc.invocations) {
        (Some(n), _) => (n, CountSource::Flag),
        (None, Some(l)) => (l.value, CountSource::File(l.pos)),
        (None, None) => (DEFAULT_INVOCATIONS, CountSource::Default),
    };
    let count_err = |message: String| match source {
        CountSource::Flag => InputsError {
            file: format!("--invocations {count}"),
            pos: None,
            message,
        },
        CountSource::File(p) => err(Some(p), message),
        CountSource::Default => err(None, message),
    };
    if count == 0 || count > MAX_INVOCATIONS {
        return Err(count_err(format!(
            "the invocation count must be from 1 to {MAX_INVOCATIONS}"
        )));
    }
    let limit = crate::limits::get().max_invocations;
    if count as u64 > limit {
        return Err(count_err(crate::limits::exceeded(
            "the invocation count",
            count as u64,
            limit,
            "--max-invocations",
        )));
    }
    if program.stage == Stage::Fragment && count & 3 != 0 {
        return Err(count_err(format!(
            "fragment programs run in quads: the invocation count must be a multiple of 4, not {count}"
        )));
    }
    let mut inputs = Inputs {
        invocations: count,
        ..Inputs::default()
    };
    let mut unread = doc.unread.clone();
    for (key, value) in &doc.registers {
        let k = key.value;
        if !matches!(k.file, File::Input | File::SystemValue) {
            let hint = match k.file {
                File::Const => " (constants go under \"constants\")",
                File::Buffer | File::Memory => " (memory goes under \"buffers\")",
                _ => "",
            };
            return Err(err(
                Some(key.pos),
                format!("{k} is not an input: \"registers\" takes IN[n] and SV[n]{hint}"),
            ));
        }
        let Some(k) = declared_or_unread(program, k, &mut unread) else {
            continue;
        };
        let vecs = match &value.value {
            RegValue::All(v) => vec![*v],
            RegValue::PerInvocation(list) => {
                if list.len() != count {
                    return Err(err(
                        Some(value.pos),
                        format!(
                            "{k} has {} vec4s but there are {}",
                            list.len(),
                            source.describe(count)
                        ),
                    ));
                }
                list.clone()
            }
        };
        if inputs.registers.insert(k, vecs).is_some() {
            return Err(err(Some(key.pos), format!("{k} is given twice")));
        }
    }
    for (key, v) in &doc.constants {
        if key.value.file != File::Const {
            return Err(err(
                Some(key.pos),
                format!(
                    "{} is not a constant: \"constants\" takes CONST[i] and CONST[b][i]",
                    key.value
                ),
            ));
        }
        let Some(k) = declared_or_unread(program, key.value, &mut unread) else {
            continue;
        };
        if inputs.constants.insert(k, *v).is_some() {
            return Err(err(Some(key.pos), format!("{k} is given twice")));
        }
    }
    for (key, bytes) in &doc.buffers {
        if !matches!(key.value.file, File::Buffer | File::Memory) {
            return Err(err(
                Some(key.pos),
                format!(
                    "{} is not memory: \"buffers\" takes BUFFER[n] and MEMORY[n]",
                    key.value
                ),
            ));
        }
        let Some(k) = declared_or_unread(program, key.value, &mut unread) else {
            continue;
        };
        if inputs.buffers.insert(k, bytes.clone()).is_some() {
            return Err(err(Some(key.pos), format!("{k} is given twice")));
        }
    }
    for (key, tex) in &doc.textures {
        if key.value.file != File::Sampler || key.value.dimension.is_some() {
            return Err(err(
                Some(key.pos),
                format!(
                    "{} is not a texture unit: \"textures\" takes SAMP[n] (NV: texture[n])",
                    key.value
                ),
            ));
        }
        let Some(k) = declared_or_unread(program, key.value, &mut unread) else {
            continue;
        };
        if inputs.textures.insert(k, tex.value.clone()).is_some() {
            return Err(err(Some(key.pos), format!("{k} is given twice")));
        }
    }
    for (addr, bytes) in &doc.global {
        if inputs.global.insert(addr.value, bytes.clone()).is_some() {
            return Err(err(
                Some(addr.pos),
                format!("global address {:#x} is given twice", addr.value),
            ));
        }
    }
    note_unread(&doc.file, &unread);
    Ok(inputs)
}

/// [`declared`], or `None` (with the name added to `unread`) for a register of the right
/// kind that the program does not declare: INTERFACE.md "The inputs file" accepts it with
/// a note, so that one inputs file may serve a whole directory.
fn declared_or_unread(program: &Program, key: RegKey, unread: &mut Vec<String>) -> Option<RegKey> {
    match declared(program, key) {
        Ok(k) => Some(k),
        Err(_) => {
            unread.push(key.to_string());
            None
        }
    }
}

/// The one note on stderr for inputs the program does not read (INTERFACE.md).
fn note_unread(file: &str, unread: &[String]) {
    if !unread.is_empty() {
        eprintln!(
            "{file}: note: the program does not read {}; ignored",
            unread.join(", ")
        );
    }
}

/// Checks that `key` names a register the program declares; returns it in the form the
/// declaration uses (`CONST[i]` and `CONST[0][i]` are the same register).
///
/// Errors: `unknown register IN[7]: the program declares IN[0..1]`.
pub fn declared(program: &Program, key: RegKey) -> Result<RegKey, String> {
    let mut candidates = vec![key];
    if key.file == File::Const {
        match key.dimension {
            None => candidates.push(RegKey {
                dimension: Some(0),
                ..key
            }),
            Some(0) => candidates.push(RegKey {
                dimension: None,
                ..key
            }),
            Some(_) => {}
        }
    }
    for k in candidates {
        if program.decls(k.file).any(|d| decl_matches(program, d, &k)) {
            return Ok(k);
        }
    }
    Err(format!(
        "unknown register {key}: the program declares {}",
        declared_summary(program, key.file)
    ))
}

fn decl_matches(program: &Program, d: &Declaration, key: &RegKey) -> bool {
    if !d.contains(key.index as i64) {
        return false;
    }
    match (d.dimension, key.dimension) {
        (None, None) => true,
        (Some(DeclDimension::Index(b)), Some(k)) => b == k,
        (Some(DeclDimension::Implied), Some(v)) => implied_vertices(program).is_none_or(|n| v < n),
        _ => false,
    }
}

/// The size of the implied vertex dimension of `IN[][i]`, when the program fixes it
/// (GEOM: vertices of `GS_INPUT_PRIMITIVE`, TEXT-FORMAT.md §5).
fn implied_vertices(program: &Program) -> Option<u32> {
    if program.stage != Stage::Geometry {
        return None;
    }
    let prim = program.property(PropertyName::GsInputPrimitive)?;
    Primitive::ALL
        .get(prim as usize)
        .map(|p| p.vertices())
        .filter(|&n| n > 0)
}

/// `IN[0..1], IN[3]`, `CONST[1][0..3]`, `IN[][0..2]`, `SV[0] (INSTANCEID)`, or
/// `no IN registers`.
pub fn declared_summary(program: &Program, file: File) -> String {
    let parts: Vec<String> = program
        .decls(file)
        .map(|d| {
            let range = if d.first == d.last {
                format!("{}", d.first)
            } else {
                format!("{}..{}", d.first, d.last)
            };
            let dim = match d.dimension {
                None => String::new(),
                Some(DeclDimension::Index(b)) => format!("[{b}]"),
                Some(DeclDimension::Implied) => "[]".to_string(),
            };
            let sem = match (file, d.semantic) {
                (File::SystemValue, Some((name, _))) => format!(" ({name})"),
                _ => String::new(),
            };
            format!("{}{dim}[{range}]{sem}", file.name())
        })
        .collect();
    if parts.is_empty() {
        format!("no {} registers", file.name())
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
#[path = "inputs_tests.rs"]
mod tests;
