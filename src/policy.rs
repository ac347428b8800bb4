//! Gates that plug into the tool executor and read tools' declared traits: exposure, approval and audit.

pub mod approval;
pub mod audit;
pub mod exposure;
