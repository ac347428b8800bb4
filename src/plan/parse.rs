//! Finding the JSON plan in a planner's answer: a fenced ```json block or the first JSON value with a `tasks`
//! array (a bare array of tasks is taken too). Ids must be JSON strings: a number is not silently converted.

use serde_json::Value;

use super::PlanInvalid;
use crate::protocol::plan::PlanTask;

/// The tasks the answer proposes, before validation.
pub fn extract_tasks(answer: &str) -> Result<Vec<PlanTask>, PlanInvalid> {
    let tasks = json_values(answer)
        .into_iter()
        .find_map(|value| match value {
            Value::Object(mut object) => match object.remove("tasks") {
                Some(Value::Array(tasks)) => Some(tasks),
                _ => None,
            },
            Value::Array(tasks) if tasks.iter().all(Value::is_object) && !tasks.is_empty() => {
                Some(tasks)
            }
            _ => None,
        })
        .ok_or(PlanInvalid::NoJson)?;
    tasks
        .into_iter()
        .enumerate()
        .map(|(index, task)| task_of(index + 1, task))
        .collect()
}

fn task_of(index: usize, value: Value) -> Result<PlanTask, PlanInvalid> {
    let malformed = |reason: &str| PlanInvalid::Malformed {
        index,
        reason: reason.to_string(),
    };
    let Value::Object(object) = value else {
        return Err(malformed("a task must be a JSON object"));
    };
    let id = match object.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(_) => return Err(malformed("`id` must be a string")),
        None => return Err(PlanInvalid::BlankId { index }),
    };
    let text = |key: &str| match object.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        None | Some(Value::Null) => Ok(String::new()),
        Some(_) => Err(malformed(&format!("`{key}` must be a string"))),
    };
    let depends_on = match object.get("depends_on") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(ids)) => ids
            .iter()
            .map(|id| match id {
                Value::String(id) => Ok(id.clone()),
                _ => Err(malformed("`depends_on` must list string ids")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(malformed("`depends_on` must be an array of ids")),
    };
    let title = text("title")?;
    Ok(PlanTask {
        title: if title.trim().is_empty() {
            id.clone()
        } else {
            title
        },
        id,
        description: text("description")?,
        depends_on,
    })
}

/// Every JSON object or array in `text`, fenced blocks first, then each one starting at a `{` or `[`.
pub(super) fn json_values(text: &str) -> Vec<Value> {
    let mut values = Vec::new();
    for block in text.split("```").skip(1).step_by(2) {
        let body = block.strip_prefix("json").unwrap_or(block);
        if let Ok(value) = serde_json::from_str::<Value>(body.trim()) {
            values.push(value);
        }
    }
    for (start, c) in text.char_indices() {
        if c != '{' && c != '[' {
            continue;
        }
        let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        if let Some(Ok(value)) = stream.next() {
            values.push(value);
        }
    }
    values
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_fenced_plan_after_prose_is_found() {
        let answer = "Here is the plan:\n```json\n{\"tasks\":[{\"id\":\"a\",\"title\":\"Read\"},\
                      {\"id\":\"b\",\"title\":\"Write\",\"depends_on\":[\"a\"]}]}\n```\nDone.";
        let tasks = extract_tasks(answer).unwrap();
        assert_eq!(tasks.len(), 2);
        assert_eq!(tasks[1].depends_on, vec!["a".to_string()]);
    }

    #[test]
    fn an_unfenced_object_inside_prose_is_found() {
        let answer = "Plan: {\"tasks\": [{\"id\": \"x\", \"title\": \"Only\"}]} good luck";
        assert_eq!(extract_tasks(answer).unwrap()[0].id, "x");
    }

    #[test]
    fn numeric_ids_are_refused_not_converted() {
        let answer = r#"{"tasks": [{"id": 1, "title": "One"}]}"#;
        assert!(matches!(
            extract_tasks(answer),
            Err(PlanInvalid::Malformed { index: 1, .. })
        ));
    }

    #[test]
    fn prose_alone_is_no_plan() {
        assert_eq!(
            extract_tasks("I would start by reading the code."),
            Err(PlanInvalid::NoJson)
        );
    }
}
