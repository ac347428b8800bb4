//! A plan drawn as a tree by its dependencies: each task hangs under the dependency that comes last in the plan
//! (the others are named after its title), so a task shows once however many tasks it waits for. Titles wrap
//! under themselves; expanded, each description follows its title, dimmed.

use std::collections::{HashMap, HashSet};

use crate::protocol::plan::Plan;
use crate::text;
use crate::text::{Lang, Msg, tr};
use crate::ui::render::{Style, visible_width, wrap};

/// Fewest columns a title gets however deep the tree is (narrow terminals wrap rather than vanish).
const MIN_TEXT: usize = 12;

/// The rows of `plan` at `width` columns; with `expanded`, the descriptions too.
pub fn plan_tree(
    plan: &Plan,
    expanded: bool,
    width: usize,
    style: Style,
    lang: Lang,
) -> Vec<String> {
    let layout = Layout::of(plan);
    let mut out = Vec::new();
    let mut drawn = HashSet::new();
    let draw = Draw {
        plan,
        layout: &layout,
        expanded,
        width,
        style,
        lang,
    };
    let roots = layout.roots.clone();
    draw.children(&roots, "", &mut drawn, &mut out);
    // A task whose chain of parents loops (a plan the engine should have refused) still shows, at the top.
    let left: Vec<usize> = (0..plan.tasks.len())
        .filter(|i| !drawn.contains(i))
        .collect();
    draw.children(&left, "", &mut drawn, &mut out);
    out
}

/// Who hangs under whom.
struct Layout {
    roots: Vec<usize>,
    children: HashMap<usize, Vec<usize>>,
    /// Dependencies other than the one a task hangs under, by task.
    also_after: HashMap<usize, Vec<String>>,
}

impl Layout {
    fn of(plan: &Plan) -> Layout {
        let position: HashMap<&str, usize> = plan
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.as_str(), i))
            .collect();
        let mut layout = Layout {
            roots: Vec::new(),
            children: HashMap::new(),
            also_after: HashMap::new(),
        };
        for (i, task) in plan.tasks.iter().enumerate() {
            let parent = task
                .depends_on
                .iter()
                .filter_map(|d| position.get(d.as_str()).copied())
                .filter(|p| *p != i)
                .max();
            match parent {
                Some(p) => {
                    layout.children.entry(p).or_default().push(i);
                    let others: Vec<String> = task
                        .depends_on
                        .iter()
                        .filter(|d| position.get(d.as_str()) != Some(&p))
                        .cloned()
                        .collect();
                    if !others.is_empty() {
                        layout.also_after.insert(i, others);
                    }
                }
                None => layout.roots.push(i),
            }
        }
        layout
    }
}

struct Draw<'a> {
    plan: &'a Plan,
    layout: &'a Layout,
    expanded: bool,
    width: usize,
    style: Style,
    lang: Lang,
}

impl Draw<'_> {
    fn children(
        &self,
        nodes: &[usize],
        prefix: &str,
        drawn: &mut HashSet<usize>,
        out: &mut Vec<String>,
    ) {
        let nodes: Vec<usize> = nodes
            .iter()
            .copied()
            .filter(|n| !drawn.contains(n))
            .collect();
        for (k, &node) in nodes.iter().enumerate() {
            if !drawn.insert(node) {
                continue;
            }
            let last = k + 1 == nodes.len();
            let (branch, rest) = if last {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            let below = format!("{prefix}{rest}");
            let kids = self.layout.children.get(&node).cloned().unwrap_or_default();
            let has_kids = kids.iter().any(|k| !drawn.contains(k));
            let under = format!("{below}{}", if has_kids { "│  " } else { "   " });
            self.task(node, &format!("{prefix}{branch}"), &under, out);
            self.children(&kids, &below, drawn, out);
        }
    }

    /// The title rows of task `i` (and its description when expanded).
    fn task(&self, i: usize, first: &str, under: &str, out: &mut Vec<String>) {
        let task = &self.plan.tasks[i];
        let columns = self
            .width
            .saturating_sub(1)
            .saturating_sub(visible_width(first))
            .max(MIN_TEXT);
        // The planner (a model) wrote the ids, titles and descriptions: shown with their control characters visible.
        let mut label = text::visible(&format!("{}  {}", task.id, task.title.trim())).into_owned();
        if let Some(others) = self.layout.also_after.get(&i) {
            let after =
                tr(self.lang, Msg::PlanAfter).replace("{ids}", &text::visible(&others.join(", ")));
            label.push_str(&format!(" ({after})"));
        }
        let style = self.style;
        for (n, line) in wrap(&label, columns).into_iter().enumerate() {
            let lead = if n == 0 { first } else { under };
            let line = if n == 0 {
                bold_id(&line, &task.id, style)
            } else {
                line
            };
            out.push(format!("{}{line}", style.dim(lead)));
        }
        let description = text::visible_lines(task.description.trim());
        let description = description.as_ref();
        if self.expanded && !description.is_empty() {
            let columns = self
                .width
                .saturating_sub(1)
                .saturating_sub(visible_width(under))
                .max(MIN_TEXT);
            for line in wrap(description, columns) {
                out.push(format!("{}{}", style.dim(under), style.dim(&line)));
            }
        }
    }
}

/// The id at the start of a title row in bold (when the row starts with it; a long id may have been cut).
fn bold_id(line: &str, id: &str, style: Style) -> String {
    match line.strip_prefix(id) {
        Some(rest) => format!("{}{rest}", style.bold(id)),
        None => line.to_string(),
    }
}
