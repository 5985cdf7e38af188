//! Numbers in the contract file: TOML integers and floats, or strings that spell bounds the
//! way the specifications write them (`"2^-21"`, `"0.5+2^-29"`, `"-pi"`, `"2^126"`).

/// Parses a number expression: terms joined by `+` or `-`; a term is an optional `-`, then
/// factors joined by `*`; a factor is a decimal number (`2.5`, `1e-3`), `pi`, or `2^k` with an
/// integer `k` (`2^-126`). Spaces are ignored. Results are computed in binary64: powers of
/// two are exact, `pi` is the binary64 value nearest π.
///
/// # Errors
/// A message naming the unexpected text.
pub fn parse_num(text: &str) -> Result<f64, String> {
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if s.is_empty() {
        return Err("empty number".into());
    }
    let mut total = 0.0f64;
    let mut rest = s.as_str();
    let mut first = true;
    while !rest.is_empty() {
        let mut sign = 1.0;
        if let Some(r) = rest.strip_prefix('+').filter(|_| !first) {
            rest = r;
        } else if let Some(r) = rest.strip_prefix('-') {
            sign = -1.0;
            rest = r;
        } else if !first {
            return Err(format!("expected `+` or `-` before `{rest}` in `{text}`"));
        }
        first = false;
        let (term, r) = term(rest, text)?;
        total += sign * term;
        rest = r;
    }
    if total.is_nan() {
        return Err(format!("`{text}` is not a number"));
    }
    Ok(total)
}

/// One product of factors; returns the value and the unparsed rest.
fn term<'a>(s: &'a str, whole: &str) -> Result<(f64, &'a str), String> {
    let (mut v, mut rest) = factor(s, whole)?;
    while let Some(r) = rest.strip_prefix('*') {
        let (f, r) = factor(r, whole)?;
        v *= f;
        rest = r;
    }
    Ok((v, rest))
}

fn factor<'a>(s: &'a str, whole: &str) -> Result<(f64, &'a str), String> {
    if let Some(r) = s.strip_prefix("pi") {
        return Ok((std::f64::consts::PI, r));
    }
    if let Some(r) = s.strip_prefix("2^") {
        let end = r
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+'))))
            .map_or(r.len(), |(i, _)| i);
        let k: i32 = r[..end]
            .parse()
            .map_err(|_| format!("bad exponent in `{whole}`"))?;
        if !(-1074..=1023).contains(&k) {
            return Err(format!("exponent out of range in `{whole}`"));
        }
        return Ok((2f64.powi(k), &r[end..]));
    }
    // A decimal number: digits, '.', and an exponent part.
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
            j += 1;
        }
        let digits = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > digits {
            i = j;
        }
    }
    if i == 0 {
        return Err(format!("expected a number, `pi` or `2^k` in `{whole}`"));
    }
    let v: f64 = s[..i]
        .parse()
        .map_err(|_| format!("bad number `{}` in `{whole}`", &s[..i]))?;
    Ok((v, &s[i..]))
}

#[cfg(test)]
mod tests {
    use super::parse_num;

    #[test]
    fn spec_spellings() {
        // Values written out by hand: 2^-21 = 4.76837158203125e-7, 2^-29 = 1.862645149230957e-9.
        assert_eq!(parse_num("2^-21"), Ok(4.76837158203125e-7));
        assert_eq!(parse_num("0.5+2^-29"), Ok(0.5 + 1.862645149230957e-9));
        assert_eq!(parse_num("-pi"), Ok(-std::f64::consts::PI));
        assert_eq!(parse_num("2^126"), Ok(8.507059173023462e37));
        assert_eq!(parse_num("2.5"), Ok(2.5));
        assert_eq!(parse_num("3*2^-2"), Ok(0.75));
        assert_eq!(parse_num("1e-3"), Ok(0.001));
        assert_eq!(parse_num(" 1 - 2^-1 "), Ok(0.5));
    }

    #[test]
    fn rejects_garbage() {
        for bad in ["", "x", "2^", "2^a", "1..2", "pi pi", "1+", "2^9999", "--1"] {
            assert!(parse_num(bad).is_err(), "{bad:?} should not parse");
        }
    }
}
