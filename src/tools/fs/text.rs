//! Telling text from binary content, and decoding text that is not quite UTF-8.

use std::borrow::Cow;
use std::path::Path;

/// How many leading bytes are inspected for a NUL byte.
pub const SNIFF_BYTES: usize = 8 * 1024;

/// Known binary signatures (magic bytes) and what they are.
const MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive (or jar/docx/xlsx)"),
    (b"\x1f\x8b", "gzip archive"),
    (b"\x7fELF", "ELF executable"),
    (b"\xca\xfe\xba\xbe", "Java class file"),
    (b"\0asm", "WebAssembly module"),
    (b"SQLite format 3\0", "SQLite database"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"Rar!", "RAR archive"),
    (b"BM", "BMP image"),
];

/// File extensions that are binary even when the first bytes happen to look like text.
const BINARY_EXTENSIONS: &[(&str, &str)] = &[
    ("png", "PNG image"),
    ("jpg", "JPEG image"),
    ("jpeg", "JPEG image"),
    ("gif", "GIF image"),
    ("webp", "WebP image"),
    ("ico", "icon image"),
    ("pdf", "PDF document"),
    ("zip", "ZIP archive"),
    ("jar", "Java archive"),
    ("gz", "gzip archive"),
    ("tgz", "gzip archive"),
    ("xz", "xz archive"),
    ("7z", "7-Zip archive"),
    ("class", "Java class file"),
    ("exe", "Windows executable"),
    ("dll", "Windows library"),
    ("so", "shared library"),
    ("dylib", "shared library"),
    ("o", "object file"),
    ("a", "static library"),
    ("wasm", "WebAssembly module"),
    ("sqlite", "SQLite database"),
    ("db", "database file"),
    ("mp3", "audio file"),
    ("mp4", "video file"),
    ("woff", "font file"),
    ("woff2", "font file"),
    ("ttf", "font file"),
];

/// A guess at what a binary file is, or `None` when it looks like text.
///
/// `head` is the start of the file (at least [`SNIFF_BYTES`] when the file is that long).
pub fn binary_kind(path: &Path, head: &[u8]) -> Option<&'static str> {
    if let Some((_, kind)) = MAGIC.iter().find(|(magic, _)| head.starts_with(magic)) {
        // "BM" alone is too weak a signature to overrule text content.
        if *kind != "BMP image" || has_extension(path, "bmp") {
            return Some(kind);
        }
    }
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    if let Some((_, kind)) = BINARY_EXTENSIONS.iter().find(|(ext, _)| *ext == extension) {
        return Some(kind);
    }
    None
}

/// True when the bytes hold a NUL in the sniffed prefix, the classic binary test used by git and ripgrep.
pub fn has_nul(head: &[u8]) -> bool {
    head[..head.len().min(SNIFF_BYTES)].contains(&0)
}

/// Classifies a file from its name and first bytes: `Some(kind)` for binary content.
pub fn classify(path: &Path, head: &[u8]) -> Option<&'static str> {
    binary_kind(path, head).or_else(|| has_nul(head).then_some("binary data"))
}

/// Decodes bytes as UTF-8, replacing invalid sequences; the flag says whether anything was replaced.
pub fn decode_lossy(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match String::from_utf8_lossy(bytes) {
        Cow::Borrowed(text) => (Cow::Borrowed(text), false),
        Cow::Owned(text) => (Cow::Owned(text), true),
    }
}

/// A human size: `812 bytes`, `14.2 KB`, `3.1 MB`.
pub fn human_size(bytes: u64) -> String {
    const KB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KB {
        format!("{bytes} bytes")
    } else if b < KB * KB {
        format!("{:.1} KB", b / KB)
    } else {
        format!("{:.1} MB", b / (KB * KB))
    }
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes_win_over_extension() {
        let kind = classify(Path::new("logo.txt"), b"\x89PNG\r\n\x1a\nrest");
        assert_eq!(kind, Some("PNG image"));
    }

    #[test]
    fn nul_byte_means_binary() {
        assert_eq!(
            classify(Path::new("data.txt"), b"abc\0def"),
            Some("binary data")
        );
    }

    #[test]
    fn plain_text_is_text() {
        assert_eq!(classify(Path::new("Hello.java"), b"class Hello {}"), None);
        assert_eq!(classify(Path::new("notes.md"), b"BMW is a car"), None);
    }

    #[test]
    fn known_extension_is_binary() {
        assert_eq!(
            classify(Path::new("lib.so"), b"looks like text"),
            Some("shared library")
        );
    }

    #[test]
    fn lossy_decoding_reports_replacement() {
        let (text, lossy) = decode_lossy(b"caf\xe9");
        assert_eq!(text, "caf\u{fffd}");
        assert!(lossy);
        assert!(!decode_lossy("café".as_bytes()).1);
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(human_size(812), "812 bytes");
        assert_eq!(human_size(2048), "2.0 KB");
        assert_eq!(human_size(3 * 1024 * 1024), "3.0 MB");
    }
}
