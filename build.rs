//! Link settings for release binaries on x86_64 Linux, where rustc links with its own LLD (docs/building.md):
//! - the functions a session runs first (start-up, a request, the common tools) are laid out side by side, from
//!   the list in build/link-order.txt that `scripts/link-order` writes. The kernel maps a binary's code in blocks
//!   around each page touched, so start-up code spread over the whole text segment made nearly all of it resident;
//! - relative relocations are packed (DT_RELR, glibc 2.36 and later): the loader reads a few kilobytes instead of
//!   1.8 MB of relocation entries at every start.
//!
//! A name the list holds and the binary does not (code changed since the list was written) is skipped, never an
//! error. With another linker, target or an older glibc the binary is linked as before.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build/link-order.txt");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    if env::var("PROFILE").as_deref() != Ok("release") || !links_with_rust_lld() {
        return;
    }
    if let Ok(dir) = env::var("CARGO_MANIFEST_DIR") {
        let list = Path::new(&dir).join("build/link-order.txt");
        // `-Wl,` splits at commas, so a folder named with one cannot be passed (nor one that is not UTF-8).
        if let Some(list) = list
            .to_str()
            .filter(|l| !l.contains(',') && Path::new(l).is_file())
        {
            println!("cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={list}");
            println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
        }
    }
    if glibc_has_relr() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// x86_64 Linux (glibc), built there, with no linker of the builder's choosing: rustc then links with its own LLD.
fn links_with_rust_lld() -> bool {
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let linker_chosen = ["linker", "link-self-contained", "fuse-ld"]
        .iter()
        .any(|flag| flags.contains(flag));
    let target = env::var("TARGET").unwrap_or_default();
    target == "x86_64-unknown-linux-gnu"
        && env::var("HOST").as_deref() == Ok(target.as_str())
        && env::var_os("RUSTC_LINKER").is_none()
        && !linker_chosen
}

/// The building machine's glibc loads packed relocations (2.36 and later).
fn glibc_has_relr() -> bool {
    let Ok(out) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    // "glibc 2.36"
    let text = String::from_utf8_lossy(&out.stdout);
    let mut version = text.trim().trim_start_matches("glibc ").split('.');
    let major: u32 = version.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    let minor: u32 = version.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    (major, minor) >= (2, 36)
}
