//! Finding signatures: `ENGINE-CLASS-TYPE`, e.g. `jit-int_div-i32`.
//!
//! A signature names *what* diverged, not where: the engine that disagrees with the oracle,
//! the opcode class of the first diverging instruction (`float_arith`, `int_div`, `kill`
//! ...; engine failures use `fail_compile`, `fail_trap` ...), and the value type of the
//! diverging result (`f32`, `i32`, `u32`, `bool` for a killed-ness difference, `none` for
//! failures). Two findings with the same signature are the same bug as far as the campaign
//! can tell; each unique signature is stored once, with a count.
//!
//! The text form is file-system safe on every common system: lowercase ASCII letters,
//! digits, `_` and `.` in each part, parts joined by `-`; no part is empty or starts with `.`.

use std::fmt;
use std::str::FromStr;

/// A finding's deduplication key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// Engine that diverged (`jit`, `valhall`).
    pub engine: String,
    /// Opcode class of the first diverging instruction (`int_div`), or the failure kind.
    pub class: String,
    /// Value type of the diverging result (`f32`, `i32`, `u32`, `bool`, `none` ...).
    pub ty: String,
}

/// A string that is not a signature.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a signature (ENGINE-CLASS-TYPE, each part of [a-z0-9_.]): {reason}")]
pub struct SignatureError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

/// One part in canonical form: lowercase, `[a-z0-9_.]`, anything else (including `-`)
/// becomes `_`; an empty part becomes `none`; a leading `.` becomes `_`.
pub fn sanitize(part: &str) -> String {
    let mut s: String = part
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        s.push_str("none");
    }
    if s.starts_with('.') {
        s.replace_range(0..1, "_");
    }
    s
}

impl Signature {
    /// A signature from its three parts, each passed through [`sanitize`].
    pub fn new(engine: &str, class: &str, ty: &str) -> Signature {
        Signature {
            engine: sanitize(engine),
            class: sanitize(class),
            ty: sanitize(ty),
        }
    }

    /// Whether the text form is safe as one path component (always true for signatures
    /// built with [`Signature::new`] or parsed with `from_str`).
    pub fn is_path_safe(&self) -> bool {
        [&self.engine, &self.class, &self.ty]
            .iter()
            .all(|p| !p.is_empty() && sanitize(p) == **p)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.engine, self.class, self.ty)
    }
}

impl FromStr for Signature {
    type Err = SignatureError;

    /// Parses `ENGINE-CLASS-TYPE` (exactly two `-`, every part already canonical).
    fn from_str(text: &str) -> Result<Signature, SignatureError> {
        let err = |reason: &str| SignatureError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let parts: Vec<&str> = text.split('-').collect();
        if parts.len() != 3 {
            return Err(err("expected three parts joined by `-`"));
        }
        let s = Signature {
            engine: parts[0].to_string(),
            class: parts[1].to_string(),
            ty: parts[2].to_string(),
        };
        if !s.is_path_safe() {
            return Err(err("a part is empty or has a character outside [a-z0-9_.]"));
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_and_is_path_safe() {
        let s = Signature::new("jit", "int_div", "i32");
        assert_eq!(s.to_string(), "jit-int_div-i32");
        assert_eq!("jit-int_div-i32".parse::<Signature>().unwrap(), s);
        let odd = Signature::new("Val-hall", "a/b c", "");
        assert_eq!(odd.to_string(), "val_hall-a_b_c-none");
        assert!(odd.is_path_safe());
        assert_eq!(
            Signature::new("jit", ".x", "f64.lo").to_string(),
            "jit-_x-f64.lo"
        );
    }

    #[test]
    fn malformed_text_is_rejected() {
        for bad in [
            "jit-int_div",
            "jit--i32",
            "jit-a-b-c",
            "JIT-x-i32",
            "jit-x/y-i32",
            "",
        ] {
            assert!(bad.parse::<Signature>().is_err(), "{bad}");
        }
    }
}
