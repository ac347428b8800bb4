//! The one name a project goes by in paicli's home (`index/<id>.sqlite`, `snapshots/<id>/`, `tasks/<id>/`): the
//! folder name for people reading a listing, and a hash of the whole root so two folders of the same name differ.

use std::path::Path;

use sha2::{Digest, Sha256};

/// Characters of the folder name kept in the id.
const MAX_NAME_CHARS: usize = 40;

/// `<folder name>-<16 hex digits of the root's SHA-256>`; the name keeps ASCII letters, digits, `-`, `_` and `.`,
/// at most 40 of them, and without any the id is the hex alone. Pass the canonical root, so one project has one id.
pub fn project_id(root: &Path) -> String {
    let name: String = folder_name(root).take(MAX_NAME_CHARS).collect();
    let hex = root_hash(root);
    if name.is_empty() {
        hex
    } else {
        format!("{name}-{hex}")
    }
}

/// The id the code index named its database by before [`project_id`] (the whole folder name, and a leading `-`
/// without one); the index moves a database found under it. Differs only for names over 40 characters or none.
pub fn legacy_index_id(root: &Path) -> String {
    let name: String = folder_name(root).collect();
    format!("{name}-{}", root_hash(root))
}

fn folder_name(root: &Path) -> impl Iterator<Item = char> {
    root.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect::<Vec<_>>()
        .into_iter()
}

fn root_hash(root: &Path) -> String {
    let digest = Sha256::digest(root.as_os_str().as_encoded_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_the_folder_name_and_a_hash_of_the_whole_root() {
        let a = project_id(Path::new("/p/my app"));
        assert!(a.starts_with("myapp-"), "{a}");
        assert_eq!(a.len(), "myapp-".len() + 16);
        assert_ne!(a, project_id(Path::new("/q/my app")));
        assert_eq!(a, project_id(Path::new("/p/my app")));
        assert_eq!(project_id(Path::new("/")).len(), 16);
    }

    #[test]
    fn the_legacy_index_id_differs_only_for_long_or_missing_names() {
        let short = Path::new("/p/app");
        assert_eq!(legacy_index_id(short), project_id(short));
        let long = format!("/p/{}", "x".repeat(50));
        let long = Path::new(&long);
        assert_ne!(legacy_index_id(long), project_id(long));
        assert_eq!(project_id(long).len(), 40 + 1 + 16);
        assert_eq!(
            legacy_index_id(Path::new("/")),
            format!("-{}", project_id(Path::new("/")))
        );
    }
}
