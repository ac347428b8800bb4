//! Which IP addresses `web_fetch` may connect to.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why `ip` is not a public internet address, or `None` when it is.
pub fn blocked_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => blocked_v4(v4),
        IpAddr::V6(v6) => blocked_v6(v6),
    }
}

fn blocked_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    let reason = if ip.is_unspecified() || a == 0 {
        "unspecified or \"this network\" (0.0.0.0/8)"
    } else if ip.is_loopback() {
        "loopback (127.0.0.0/8)"
    } else if ip.is_private() {
        "private (10/8, 172.16/12, 192.168/16)"
    } else if ip.is_link_local() {
        "link-local (169.254/16)"
    } else if a == 100 && (64..128).contains(&b) {
        "carrier-grade NAT (100.64/10)"
    } else if ip.is_multicast() {
        "multicast (224/4)"
    } else if ip.is_broadcast() {
        "broadcast"
    } else if a >= 240 {
        "reserved (240/4)"
    } else if ip.is_documentation() {
        "documentation range"
    } else if a == 198 && (b == 18 || b == 19) {
        "benchmarking (198.18/15)"
    } else if a == 192 && b == 0 && c == 0 {
        "IETF protocol assignments (192.0.0/24)"
    } else {
        return None;
    };
    Some(reason)
}

fn blocked_v6(ip: Ipv6Addr) -> Option<&'static str> {
    // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated compatible) reach the IPv4 address.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return blocked_v4(v4).map(|_| "IPv4-mapped IPv6 of a blocked IPv4 address");
    }
    let segments = ip.segments();
    if segments[..6].iter().all(|s| *s == 0) && !ip.is_loopback() && !ip.is_unspecified() {
        let v4 = Ipv4Addr::from_bits((u32::from(segments[6]) << 16) | u32::from(segments[7]));
        return blocked_v4(v4).map(|_| "IPv4-compatible IPv6 of a blocked IPv4 address");
    }
    let first = segments[0];
    let reason = if ip.is_unspecified() {
        "unspecified (::)"
    } else if ip.is_loopback() {
        "loopback (::1)"
    } else if first & 0xfe00 == 0xfc00 {
        "unique-local (fc00::/7)"
    } else if first & 0xffc0 == 0xfe80 {
        "link-local (fe80::/10)"
    } else if first & 0xffc0 == 0xfec0 {
        "site-local (fec0::/10)"
    } else if ip.is_multicast() {
        "multicast (ff00::/8)"
    } else if first == 0x2001 && segments[1] == 0x0db8 {
        "documentation (2001:db8::/32)"
    } else if first == 0x0064 && segments[1] == 0xff9b {
        // NAT64 can point at any IPv4 address, including private ones.
        "NAT64 (64:ff9b::/96)"
    } else {
        return None;
    };
    Some(reason)
}
