//! `create_project`: writes a minimal, buildable skeleton (`java`, `python`, `node`, `rust`, `go`) into a new
//! folder of the project, through the path guard and the atomic writer like `write_file`.

mod skeletons;

pub use skeletons::{ProjectType, files, name_problem};

use std::path::PathBuf;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::fs::{display, guard_outcome, run_blocking, write_atomic};
use super::{Args, Tool, ToolContext, ToolOutcome, ToolOutput, ToolTraits, call_view};
use crate::guard::path_guard::EntryKind;

/// Creates project skeletons.
pub struct CreateProject;

#[async_trait]
impl Tool for CreateProject {
    fn name(&self) -> &str {
        "create_project"
    }

    fn description(&self) -> &str {
        "Create a minimal, buildable project with a README in a new folder <name> (a non-empty one is refused)."
    }

    fn parameters(&self) -> Value {
        let types: Vec<&str> = ProjectType::ALL.iter().map(|t| t.name()).collect();
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Letters, digits, -, _ or ."},
                "type": {"type": "string", "enum": types}
            },
            "required": ["name", "type"]
        })
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits::FILE_EDIT
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        let name = call_view::str_arg(args, "name")?;
        Some(match call_view::str_arg(args, "type") {
            Some(kind) => format!("{name} ({kind})"),
            None => name,
        })
    }

    fn locations(&self, args: &Map<String, Value>) -> Vec<String> {
        call_view::str_arg(args, "name").into_iter().collect()
    }

    fn write_targets(&self, args: &Map<String, Value>, ctx: &ToolContext) -> Vec<PathBuf> {
        let args = Args(args);
        let (Some(name), Some(kind)) = (
            args.str("name"),
            args.str("type").and_then(ProjectType::parse),
        ) else {
            return Vec::new();
        };
        if name_problem(kind, name).is_some() {
            return Vec::new();
        }
        files(kind, name)
            .iter()
            .filter_map(|(rel, _)| ctx.guard.resolve(&format!("{name}/{rel}")).ok())
            .collect()
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        run_blocking(args, ctx, create_project).await
    }
}

fn create_project(args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
    let name = args.required_str("name")?.trim();
    let type_arg = args.required_str("type")?;
    let kind = ProjectType::parse(type_arg).ok_or_else(|| {
        ToolOutcome::failed(format!(
            "unknown project type `{type_arg}`; use one of java, python, node, rust, go"
        ))
    })?;
    if let Some(problem) = name_problem(kind, name) {
        return Err(ToolOutcome::failed(problem));
    }
    let folder = ctx.guard.resolve(name).map_err(guard_outcome)?;
    let rel = display(ctx, &folder);
    check_free(ctx, &folder, &rel)?;
    let mut written = Vec::new();
    for (file, content) in files(kind, name) {
        let path = ctx
            .guard
            .resolve(&format!("{name}/{file}"))
            .map_err(guard_outcome)?;
        write_atomic(&ctx.guard, &path, content.as_bytes())
            .map_err(|err| ToolOutcome::failed(format!("cannot write {rel}/{file}: {err}")))?;
        written.push(PathBuf::from(display(ctx, &path)));
    }
    let listing: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    Ok(ToolOutcome::Ok(ToolOutput {
        text: format!(
            "Created a {} project in {rel}/: {}. Build and run it with `cd {rel} && {}`.",
            kind.name(),
            listing.join(", "),
            kind.run_hint()
        ),
        changed_files: written,
        ..ToolOutput::default()
    }))
}

/// Refuses a folder that exists with something in it, or a file of that name.
fn check_free(ctx: &ToolContext, folder: &std::path::Path, rel: &str) -> Result<(), ToolOutcome> {
    match ctx.guard.metadata(folder) {
        Ok(meta) if meta.kind == EntryKind::Dir => {
            let entries = ctx
                .guard
                .open_dir(folder)
                .and_then(|dir| dir.entries())
                .map_err(|err| ToolOutcome::failed(format!("cannot look into {rel}: {err}")))?;
            if entries.is_empty() {
                Ok(())
            } else {
                Err(ToolOutcome::failed(format!(
                    "{rel}/ already exists and is not empty; choose another name or work in the existing folder"
                )))
            }
        }
        Ok(_) => Err(ToolOutcome::failed(format!(
            "{rel} already exists and is not a folder; choose another name"
        ))),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(ToolOutcome::failed(format!("cannot check {rel}: {err}"))),
    }
}
