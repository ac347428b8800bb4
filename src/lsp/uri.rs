//! `file://` URIs for absolute paths, and back. Servers spell the same path differently (which characters they
//! percent-encode), so URIs are compared as decoded paths, never as strings.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The `file://` URI of an absolute path.
pub fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The path of a `file://` URI; `None` for other schemes and malformed escapes.
pub fn uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only an empty host or localhost is this machine.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(PathBuf::from(OsStr::from_bytes(&out)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn paths_round_trip_whatever_the_server_encodes() {
        let path = Path::new("/tmp/my dir/a+b#c/ü.py");
        let uri = file_uri(path);
        assert_eq!(uri, "file:///tmp/my%20dir/a%2Bb%23c/%C3%BC.py");
        assert_eq!(uri_path(&uri).unwrap(), path);
        assert_eq!(
            uri_path("file:///tmp/my%20dir/a+b%23c/%c3%bc.py").unwrap(),
            path
        );
        assert_eq!(uri_path("file://localhost/x").unwrap(), Path::new("/x"));
        assert_eq!(uri_path("untitled:1"), None);
        assert_eq!(uri_path("file:///bad%zz"), None);
    }
}
