//! Strict validation of a proposed plan (non-empty, unique non-blank ids, declared dependencies, no cycles) and
//! its dependency batches: each batch holds the tasks whose dependencies all sit in earlier batches.

use std::collections::{HashMap, HashSet};

use super::PlanInvalid;
use crate::protocol::plan::PlanTask;

/// Checks `tasks`; the first problem found is returned (and told to the planner in the repair round).
pub fn validate(tasks: &[PlanTask]) -> Result<(), PlanInvalid> {
    if tasks.is_empty() {
        return Err(PlanInvalid::Empty);
    }
    let mut ids = HashSet::new();
    for (index, task) in tasks.iter().enumerate() {
        if task.id.trim().is_empty() {
            return Err(PlanInvalid::BlankId { index: index + 1 });
        }
        if !ids.insert(task.id.as_str()) {
            return Err(PlanInvalid::DuplicateId {
                id: task.id.clone(),
            });
        }
    }
    for task in tasks {
        if let Some(missing) = task.depends_on.iter().find(|d| !ids.contains(d.as_str())) {
            return Err(PlanInvalid::UnknownDependency {
                task: task.id.clone(),
                missing: missing.clone(),
            });
        }
    }
    match find_cycle(tasks) {
        Some(cycle) => Err(PlanInvalid::Cycle { cycle }),
        None => Ok(()),
    }
}

/// The tasks (by index) in dependency batches, in plan order within a batch. `tasks` must be valid.
pub fn batches(tasks: &[PlanTask]) -> Vec<Vec<usize>> {
    let mut placed: HashSet<&str> = HashSet::new();
    let mut left: Vec<usize> = (0..tasks.len()).collect();
    let mut out = Vec::new();
    while !left.is_empty() {
        let (ready, waiting): (Vec<usize>, Vec<usize>) = left.iter().partition(|&&i| {
            tasks[i]
                .depends_on
                .iter()
                .all(|d| placed.contains(d.as_str()))
        });
        // Only a cycle leaves nothing ready; validation refuses those, so this guards the loop only.
        if ready.is_empty() {
            break;
        }
        placed.extend(ready.iter().map(|&i| tasks[i].id.as_str()));
        out.push(ready);
        left = waiting;
    }
    out
}

/// A dependency cycle, written as the ids along it with the first repeated at the end.
fn find_cycle(tasks: &[PlanTask]) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let index: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let mut marks = vec![Mark::New; tasks.len()];
    for start in 0..tasks.len() {
        if marks[start] != Mark::New {
            continue;
        }
        // Iterative depth-first search: (task, next dependency to look at).
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        marks[start] = Mark::OnPath;
        while let Some(&mut (task, ref mut next)) = path.last_mut() {
            let deps = &tasks[task].depends_on;
            if *next == deps.len() {
                marks[task] = Mark::Done;
                path.pop();
                continue;
            }
            let dep = index.get(deps[*next].as_str()).copied();
            *next += 1;
            let Some(dep) = dep else { continue };
            match marks[dep] {
                Mark::Done => {}
                Mark::New => {
                    marks[dep] = Mark::OnPath;
                    path.push((dep, 0));
                }
                Mark::OnPath => {
                    let from = path.iter().position(|&(t, _)| t == dep).unwrap_or(0);
                    let mut cycle: Vec<String> = path[from..]
                        .iter()
                        .map(|&(t, _)| tasks[t].id.clone())
                        .collect();
                    cycle.push(tasks[dep].id.clone());
                    return Some(cycle);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, deps: &[&str]) -> PlanTask {
        PlanTask {
            id: id.into(),
            title: id.to_uppercase(),
            description: String::new(),
            depends_on: deps.iter().map(|d| (*d).to_string()).collect(),
        }
    }

    #[test]
    fn a_diamond_is_valid_and_batched_by_depth() {
        let tasks = [
            task("a", &[]),
            task("b", &["a"]),
            task("c", &["a"]),
            task("d", &["b", "c"]),
        ];
        assert_eq!(validate(&tasks), Ok(()));
        assert_eq!(batches(&tasks), vec![vec![0], vec![1, 2], vec![3]]);
    }

    #[test]
    fn each_rule_has_its_error() {
        assert_eq!(validate(&[]), Err(PlanInvalid::Empty));
        assert_eq!(
            validate(&[task("a", &[]), task(" ", &[])]),
            Err(PlanInvalid::BlankId { index: 2 })
        );
        assert_eq!(
            validate(&[task("a", &[]), task("a", &[])]),
            Err(PlanInvalid::DuplicateId { id: "a".into() })
        );
        assert_eq!(
            validate(&[task("a", &["z"])]),
            Err(PlanInvalid::UnknownDependency {
                task: "a".into(),
                missing: "z".into()
            })
        );
    }

    #[test]
    fn a_cycle_is_named_along_its_path() {
        let tasks = [task("a", &["c"]), task("b", &["a"]), task("c", &["b"])];
        assert_eq!(
            validate(&tasks),
            Err(PlanInvalid::Cycle {
                cycle: vec!["a".into(), "c".into(), "b".into(), "a".into()]
            })
        );
        assert_eq!(
            validate(&[task("a", &["a"])]),
            Err(PlanInvalid::Cycle {
                cycle: vec!["a".into(), "a".into()]
            })
        );
    }
}
