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
    if let Some(reason) = blocked_embedded_v4(ip) {
        return Some(reason);
    }
    let segments = ip.segments();
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
    } else if first == 0x0064 && segments[1] == 0xff9b && segments[2] == 0x0001 {
        // Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the operator's prefix length,
        // so it cannot be checked; it is never a public destination.
        "local-use NAT64 (64:ff9b:1::/48)"
    } else {
        return None;
    };
    Some(reason)
}

/// Why an IPv6 address that carries an IPv4 address is blocked: the IPv4 address inside is.
///
/// Every form a host or relay turns back into IPv4 traffic counts, or `[::ffff:0:7f00:1]` would reach
/// 127.0.0.1 past the IPv4 checks.
fn blocked_embedded_v4(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    let v4 = |hi: u16, lo: u16| Ipv4Addr::from_bits((u32::from(hi) << 16) | u32::from(lo));
    let is_blocked = |addr: Ipv4Addr| blocked_v4(addr).is_some();
    if let Some(mapped) = ip.to_ipv4_mapped() {
        return is_blocked(mapped)
            .then_some("IPv4-mapped IPv6 (::ffff:0:0/96) of a blocked IPv4 address");
    }
    let zero = |range: &[u16]| range.iter().all(|seg| *seg == 0);
    if zero(&s[..4]) && s[4] == 0xffff && s[5] == 0 {
        return is_blocked(v4(s[6], s[7]))
            .then_some("IPv4-translated IPv6 (::ffff:0:0:0/96) of a blocked IPv4 address");
    }
    if zero(&s[..6]) && !ip.is_loopback() && !ip.is_unspecified() {
        return is_blocked(v4(s[6], s[7]))
            .then_some("IPv4-compatible IPv6 (::/96) of a blocked IPv4 address");
    }
    if s[0] == 0x2002 {
        return is_blocked(v4(s[1], s[2]))
            .then_some("6to4 IPv6 (2002::/16) of a blocked IPv4 address");
    }
    if s[0] == 0x2001 && s[1] == 0 {
        // Teredo: the server's address in bits 32-63, the client's XOR-ed with ones in the last 32 bits.
        let server = v4(s[2], s[3]);
        let client = v4(!s[6], !s[7]);
        return (is_blocked(server) || is_blocked(client))
            .then_some("Teredo IPv6 (2001::/32) naming a blocked IPv4 server or client");
    }
    if s[0] == 0x0064 && s[1] == 0xff9b && zero(&s[2..6]) {
        // The well-known NAT64 prefix (RFC 6052) reaches whatever IPv4 address it carries.
        return is_blocked(v4(s[6], s[7]))
            .then_some("NAT64 IPv6 (64:ff9b::/96) of a blocked IPv4 address");
    }
    None
}

#[cfg(test)]
mod tests;
