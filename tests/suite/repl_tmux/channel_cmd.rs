//! `/channel` (`/wechat`) in the real terminal: which chat channels run, read from their locked pid files.

use super::Sandbox;
use crate::support::ScriptedServer;

#[test]
fn channel_shows_which_chat_channels_run() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("/channel");
    let screen = t.wait_for("No channel runs.");
    assert!(screen.contains("wechat: not running") && screen.contains("telegram: not running"));

    // A running channel holds its pid file locked; this test stands in for it.
    let dir = sandbox.paicli_home().join("channels/telegram");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("channel.pid"), "424242\n").unwrap();
    let held = std::fs::File::open(dir.join("channel.pid")).unwrap();
    held.lock().unwrap();
    t.submit("/wechat");
    t.wait_for("telegram: running (pid 424242)");
    assert_eq!(server.chat_requests().len(), 0);
}
