//! SKELETON — replaced by the client helper. `GET {base}/models`.
