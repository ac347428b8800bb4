//! `/channel` (`/wechat`) in the real terminal: which chat channels run, read from their locked pid files, and
//! the saved WeChat login.

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
    assert!(screen.contains("Not linked to WeChat"), "{screen}");

    // A running channel holds its pid file locked; this test stands in for it.
    let dir = sandbox.paicli_home().join("channels/telegram");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("channel.pid"), "424242\n").unwrap();
    let held = std::fs::File::open(dir.join("channel.pid")).unwrap();
    held.lock().unwrap();
    // A saved WeChat login (as `paicli channel wechat setup` leaves it) is shown with its bound user.
    let account = paicli::channels::wechat::Account {
        bot_token: "t".into(),
        bot_id: "b@im.bot".into(),
        user_id: "me@im.wechat".into(),
        base_url: None,
        saved_at: "2026-01-01T00:00:00Z".into(),
    };
    account.save(&sandbox.paicli_home()).unwrap();
    t.submit("/wechat");
    t.wait_for("telegram: running (pid 424242)");
    t.wait_for("wechat login: bound user me@im.wechat.");
    assert_eq!(server.chat_requests().len(), 0);
}
