//! Integration tests, one module per area.

mod fs_tools;
