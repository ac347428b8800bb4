//! Pure checks the tools call: paths fenced to the project (and opened beneath it without following links),
//! the command guard and its shell parser, network (SSRF) checks and redaction, and the project walk the search
//! tools and the code index share. A leaf layer: it uses only `protocol` and `config`.

pub mod command_guard;
pub mod constant_regex;
pub mod control_files;
pub mod network;
pub mod path_guard;
pub mod redact;
pub mod sensitive_page;
pub mod skip_dirs;
pub mod urls;
pub mod walk;
