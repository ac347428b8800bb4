use std::net::IpAddr;

use super::blocked_reason;

/// Judges one literal address.
fn reason(addr: &str) -> Option<&'static str> {
    let ip: IpAddr = addr.parse().unwrap_or_else(|e| panic!("{addr}: {e}"));
    blocked_reason(ip)
}

#[test]
fn ipv6_forms_that_carry_a_blocked_ipv4_are_blocked() {
    let cases = [
        // IPv4-mapped (already blocked before), written both ways.
        ("::ffff:127.0.0.1", "IPv4-mapped"),
        ("::ffff:7f00:1", "IPv4-mapped"),
        ("::ffff:169.254.169.254", "IPv4-mapped"),
        // IPv4-translated (SIIT): ::ffff:0:a.b.c.d.
        ("::ffff:0:7f00:1", "IPv4-translated"),
        ("::ffff:0:127.0.0.1", "IPv4-translated"),
        ("::ffff:0:a00:1", "IPv4-translated"),
        ("::ffff:0:a9fe:a9fe", "IPv4-translated"),
        // IPv4-compatible: ::a.b.c.d.
        ("::127.0.0.1", "IPv4-compatible"),
        ("::10.1.2.3", "IPv4-compatible"),
        ("::c0a8:101", "IPv4-compatible"),
        // 6to4: 2002:AABB:CCDD::/48.
        ("2002:7f00:1::1", "6to4"),
        ("2002:a00:1::", "6to4"),
        ("2002:c0a8:101:5::9", "6to4"),
        ("2002:a9fe:a9fe::1", "6to4"),
        // Teredo: server in bits 32-63, client XOR-ed with ones in the last 32 bits.
        ("2001:0:7f00:1::", "Teredo"),
        ("2001:0:5db8:e5b6::", "Teredo"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo"),
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo"),
        // NAT64, well-known prefix and local-use prefix.
        ("64:ff9b::7f00:1", "NAT64"),
        ("64:ff9b::10.0.0.1", "NAT64"),
        ("64:ff9b::169.254.169.254", "NAT64"),
        ("64:ff9b:1::7f00:1", "local-use NAT64"),
        ("64:ff9b:1:abcd::8.8.8.8", "local-use NAT64"),
    ];
    for (addr, expected) in cases {
        let got = reason(addr);
        assert!(
            got.is_some_and(|r| r.contains(expected)),
            "{addr}: expected {expected}, got {got:?}"
        );
    }
}

#[test]
fn the_same_forms_carrying_a_public_ipv4_stay_public() {
    for addr in [
        "::ffff:8.8.8.8",
        "::ffff:0:808:808",
        "2002:808:808::1",
        // Teredo with a public server (65.54.227.120) and a public client (!c0ff:fffe = 63.0.0.1).
        "2001:0:4136:e378:8000:63bf:c0ff:fffe",
        "64:ff9b::8.8.8.8",
        "64:ff9b::5db8:d70e",
        "2606:4700::1111",
    ] {
        assert_eq!(reason(addr), None, "{addr}");
    }
}
