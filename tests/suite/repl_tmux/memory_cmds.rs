//! `/memory` and `/save` in the real terminal.

use super::Sandbox;
use super::terminal;
use crate::support::ScriptedServer;

/// The id shown on the last screen line that mentions `fact`.
fn id_of(screen: &str, fact: &str) -> String {
    let line = screen
        .lines()
        .rev()
        .find(|l| l.contains(fact) && l.contains('['))
        .unwrap_or_else(|| panic!("{fact} not listed:\n{screen}"));
    line.split_whitespace().next().unwrap().to_string()
}

#[test]
fn save_and_memory_manage_facts_and_conflicts_ask_for_a_choice() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("/memory");
    t.wait_for("no memories saved yet");

    t.submit("/save the build needs cmake 3.20");
    t.wait_for("[project] the build needs cmake 3.20");
    t.submit("/save the build needs cmake 3.28");
    let screen = t.wait_for("use /save --force <fact> to keep both");
    assert!(screen.contains("not saved: it may contradict"), "{screen}");
    t.submit("/save --global --force the build needs cmake 3.28");
    t.wait_for("[global] the build needs cmake 3.28");
    t.submit("/save the build needs cmake 3.20");
    t.wait_for("already saved; marked as verified");

    t.submit("/mem list");
    let screen = t.wait_until("both listed", terminal::DEADLINE, |s| {
        s.matches("[global] the build needs cmake 3.28").count() == 2
    });
    let old = id_of(&screen, "cmake 3.20");
    let global = id_of(&screen, "cmake 3.28");

    t.submit("/memory search cmake");
    t.wait_until("search results", terminal::DEADLINE, |s| {
        s.matches("[global] the build needs cmake 3.28").count() == 3
    });
    // "verified:" may already be on the screen: wait for it below the command typed.
    let verify = format!("/memory verify {global}");
    t.submit(&verify);
    t.wait_until("verify answered", terminal::DEADLINE, |s| {
        s.rfind(&verify)
            .is_some_and(|at| s[at..].contains("verified:"))
    });
    t.submit(&format!("/memory replace {old} the build needs cmake 3.30"));
    t.wait_for("[project] the build needs cmake 3.30");
    t.submit(&format!("/memory delete {global}"));
    t.wait_for("deleted:");
    t.submit("/memory delete mnothere");
    t.wait_for("no memory entry with id \"mnothere\"");
    t.submit("/memory clear");
    t.wait_for("run /memory clear --yes");
    t.submit("/memory list");
    t.wait_until("one left", terminal::DEADLINE, |s| {
        s.matches("[project] the build needs cmake 3.30").count() == 2
    });
    t.submit("/memory clear --yes");
    t.wait_for("1 memories deleted");
    t.submit("/memory");
    t.wait_until("empty again", terminal::DEADLINE, |s| {
        s.matches("no memories saved yet").count() == 2
    });
    t.submit("/save --everywhere x");
    t.wait_for("unknown option --everywhere");
    t.submit("/memory frobnicate");
    t.wait_for("usage: /memory [list");
    assert_eq!(server.chat_requests().len(), 0);
}
