//! Program files: reading them and telling their language (INTERFACE.md "Binary and
//! engines": a first non-blank token starting with `!!` is NVIDIA assembly, anything else
//! is TGSI text).

use std::path::Path;

/// The language of a program text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// TGSI text (header `VERT`, `FRAG`, `GEOM`, `TESS_CTRL`, `TESS_EVAL` or `COMP`).
    Tgsi,
    /// NVIDIA assembly (`!!NVfp5.0`, `!!ARBfp1.0`, ...).
    Nv,
}

/// Tells the language of `text` by its first non-blank token.
pub fn detect(text: &str) -> Lang {
    match text.split_whitespace().next() {
        Some(t) if t.starts_with("!!") => Lang::Nv,
        _ => Lang::Tgsi,
    }
}

/// The first non-blank token of `text`, for messages (`!!NVfp5.0`).
pub fn header(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// Reads a text file (a program or an inputs file), at most `--max-file-size` bytes
/// ([`crate::limits`]). A leading UTF-8 byte order mark (U+FEFF, which editors on Windows
/// write) is skipped: it is not part of the text.
///
/// Errors (one line, naming the file): the file cannot be read, is larger than the limit,
/// or is not UTF-8 (with the line:col of the first bad byte).
pub fn read_text(path: &Path) -> Result<String, String> {
    let name = path.display();
    let mut bytes = crate::limits::read_bounded(path, crate::limits::get().max_file_size)?;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // `good` is valid UTF-8 by construction.
        let before = std::str::from_utf8(good).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{name}:{line}:{col}: not UTF-8 text")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_follows_the_first_token() {
        // INTERFACE.md: `!!NVfp5.0`, `!!ARBfp1.0`, ... are NV assembly; else TGSI.
        assert_eq!(detect("!!NVfp5.0\nMOV result.color, 0;\nEND\n"), Lang::Nv);
        assert_eq!(detect("\n\n   !!ARBfp1.0\n"), Lang::Nv);
        assert_eq!(detect("FRAG\nDCL OUT[0], COLOR\n"), Lang::Tgsi);
        assert_eq!(detect(""), Lang::Tgsi);
        assert_eq!(detect("VERT !!NVvp5.0"), Lang::Tgsi);
        assert_eq!(header("  !!NVvp5.0 x"), "!!NVvp5.0");
    }

    #[test]
    fn non_utf8_is_located() {
        let dir = std::env::temp_dir().join(format!("shaderdiff-lang-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("bad.tgsi");
        std::fs::write(&p, b"FRAG\nDCL \xff\n").unwrap();
        let e = read_text(&p).unwrap_err();
        assert!(e.ends_with("bad.tgsi:2:5: not UTF-8 text"), "{e}");
        let e = read_text(&dir.join("missing.tgsi")).unwrap_err();
        assert!(e.contains("missing.tgsi: cannot read"), "{e}");
        // A byte order mark is not text: the program starts after it.
        std::fs::write(&p, b"\xEF\xBB\xBFFRAG\nEND\n").unwrap();
        assert_eq!(read_text(&p).unwrap(), "FRAG\nEND\n");
        let e = read_text(&dir.join("missing.tgsi")).unwrap_err();
        assert!(e.contains("missing.tgsi: cannot read"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
