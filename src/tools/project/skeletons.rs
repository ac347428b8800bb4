//! The files of each project skeleton: minimal, buildable, no dependencies.

/// A project type `create_project` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProjectType {
    Java,
    Python,
    Node,
    Rust,
    Go,
}

impl ProjectType {
    /// Every type, as the schema's enum lists them.
    pub const ALL: [ProjectType; 5] = [
        ProjectType::Java,
        ProjectType::Python,
        ProjectType::Node,
        ProjectType::Rust,
        ProjectType::Go,
    ];

    /// The name the model passes (`java`, `python`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ProjectType::Java => "java",
            ProjectType::Python => "python",
            ProjectType::Node => "node",
            ProjectType::Rust => "rust",
            ProjectType::Go => "go",
        }
    }

    /// The type called `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<ProjectType> {
        let name = name.trim().to_ascii_lowercase();
        ProjectType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// How to build and run the skeleton, for the README and the tool's answer.
    pub fn run_hint(self) -> &'static str {
        match self {
            ProjectType::Java => "mvn -q package && java -cp target/classes Main",
            ProjectType::Python => "python3 main.py",
            ProjectType::Node => "node index.js",
            ProjectType::Rust => "cargo run",
            ProjectType::Go => "go run .",
        }
    }
}

/// The skeleton's files for a project called `name`: relative path and content.
pub fn files(kind: ProjectType, name: &str) -> Vec<(&'static str, String)> {
    let readme = format!(
        "# {name}\n\nA minimal {} project; build and run it with `{}`.\n",
        kind.name(),
        kind.run_hint()
    );
    let greeting = format!("Hello from {name}!");
    let mut files = match kind {
        ProjectType::Java => vec![
            ("pom.xml", pom(name)),
            (
                "src/main/java/Main.java",
                format!(
                    "public class Main {{\n    public static void main(String[] args) {{\n        \
                     System.out.println(\"{greeting}\");\n    }}\n}}\n"
                ),
            ),
        ],
        ProjectType::Python => vec![
            (
                "main.py",
                format!(
                    "def main() -> None:\n    print(\"{greeting}\")\n\n\nif __name__ == \"__main__\":\n    main()\n"
                ),
            ),
            (
                "pyproject.toml",
                format!(
                    "[project]\nname = \"{name}\"\nversion = \"0.1.0\"\nrequires-python = \">=3.9\"\n\
                     dependencies = []\n"
                ),
            ),
            (
                "requirements.txt",
                "# One dependency per line, e.g. requests>=2.31\n".to_string(),
            ),
        ],
        ProjectType::Node => vec![
            (
                "package.json",
                format!(
                    "{{\n  \"name\": \"{}\",\n  \"version\": \"0.1.0\",\n  \"private\": true,\n  \
                     \"main\": \"index.js\",\n  \"scripts\": {{\n    \"start\": \"node index.js\"\n  }}\n}}\n",
                    name.to_ascii_lowercase()
                ),
            ),
            ("index.js", format!("console.log(\"{greeting}\");\n")),
        ],
        ProjectType::Rust => vec![
            (
                "Cargo.toml",
                format!(
                    "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n"
                ),
            ),
            (
                "src/main.rs",
                format!("fn main() {{\n    println!(\"{greeting}\");\n}}\n"),
            ),
        ],
        ProjectType::Go => vec![
            ("go.mod", format!("module {name}\n\ngo 1.21\n")),
            (
                "main.go",
                format!(
                    "package main\n\nimport \"fmt\"\n\nfunc main() {{\n\tfmt.Println(\"{greeting}\")\n}}\n"
                ),
            ),
        ],
    };
    files.push(("README.md", readme));
    files
}

fn pom(name: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>{name}</artifactId>
  <version>0.1.0</version>
  <packaging>jar</packaging>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
</project>
"#
    )
}

/// Why `name` cannot name a project of `kind`: it must be a plain folder name (letters, digits, `-`, `_`, `.`,
/// starting with a letter or digit), and a Rust package name also has no `.` and does not start with a digit.
pub fn name_problem(kind: ProjectType, name: &str) -> Option<String> {
    let plain = !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && !name.ends_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !plain {
        return Some(format!(
            "`{name}` is not a plain folder name: use 1-64 letters, digits, `-`, `_` or `.`, starting with a \
             letter or digit (no slashes, no `..`)"
        ));
    }
    if kind == ProjectType::Rust
        && (name.contains('.') || name.starts_with(|c: char| c.is_ascii_digit()))
    {
        return Some(format!(
            "`{name}` is not a valid Rust package name: no `.`, and it must not start with a digit"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_only() {
        for bad in ["", "..", ".", "a/b", "../x", ".hidden", "a b", "x.", "/abs"] {
            assert!(name_problem(ProjectType::Python, bad).is_some(), "{bad}");
        }
        for good in ["demo", "my-app", "app_2", "v1.2"] {
            assert!(name_problem(ProjectType::Python, good).is_none(), "{good}");
        }
        assert!(name_problem(ProjectType::Rust, "v1.2").is_some());
        assert!(name_problem(ProjectType::Rust, "2fast").is_some());
    }

    #[test]
    fn every_skeleton_has_a_readme_of_one_line_of_text() {
        for kind in ProjectType::ALL {
            let files = files(kind, "demo");
            let readme = files.iter().find(|(p, _)| *p == "README.md");
            assert!(
                readme.is_some_and(|(_, t)| t.contains(kind.run_hint())),
                "{kind:?}"
            );
            assert_eq!(ProjectType::parse(kind.name()), Some(kind));
        }
    }
}
