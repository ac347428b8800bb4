//! SKELETON — replaced by the executor helper.
