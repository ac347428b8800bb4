//! Front-ends: everything that talks to the terminal or to a script.

pub mod approval_prompt;
pub mod oneshot;
