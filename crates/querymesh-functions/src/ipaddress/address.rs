//! An IP address's text, read and written as Trino reads and writes it: Guava's
//! `InetAddresses.forString` (IpAddressOperators.castFromVarcharToIpAddress) and
//! `InetAddresses.toAddrString` (castFromIpAddressToVarchar). A value is always 16 bytes, an
//! IPv4 address as its IPv4-mapped IPv6 form `::ffff:a.b.c.d` (docs language/types IPADDRESS).

/// 16 bytes of an ipaddress value.
pub type Address = [u8; 16];

/// The IPv4-mapped form of an IPv4 address.
pub fn mapped(v4: [u8; 4]) -> Address {
    let mut bytes = [0u8; 16];
    bytes[10] = 0xff;
    bytes[11] = 0xff;
    bytes[12..].copy_from_slice(&v4);
    bytes
}

/// The IPv4 address an IPv4-mapped one holds (Java's InetAddress.getByAddress makes those an
/// Inet4Address).
pub fn as_v4(address: &Address) -> Option<[u8; 4]> {
    let prefix_is_mapped =
        address[..10].iter().all(|b| *b == 0) && address[10] == 0xff && address[11] == 0xff;
    prefix_is_mapped.then(|| [address[12], address[13], address[14], address[15]])
}

/// What `InetAddresses.forString` reads: an IPv4 address as 4 bytes, an IPv6 one as 16.
pub enum Parsed {
    V4([u8; 4]),
    V6(Address),
}

impl Parsed {
    /// The value Trino stores (IPv4 as IPv4-mapped).
    pub fn address(&self) -> Address {
        match self {
            Parsed::V4(v4) => mapped(*v4),
            // Java turns a mapped IPv6 address into an IPv4 one, which Trino maps back.
            Parsed::V6(bytes) => *bytes,
        }
    }

    /// The address's own bytes, as `InetAddress.getAddress` gives them (4 for IPv4, including
    /// an IPv6 text of an IPv4-mapped address).
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Parsed::V4(v4) => v4.to_vec(),
            Parsed::V6(bytes) => match as_v4(bytes) {
                Some(v4) => v4.to_vec(),
                None => bytes.to_vec(),
            },
        }
    }
}

/// `InetAddresses.forString(text)`: dotted-quad IPv4 (no leading zeros), IPv6 with one `::`,
/// an embedded dotted quad at the end and a `%scope` suffix; `None` where Guava throws.
pub fn parse(text: &str) -> Option<Parsed> {
    let (mut has_colon, mut has_dot) = (false, false);
    let mut scope_at = None;
    for (i, c) in text.char_indices() {
        match c {
            '.' => has_dot = true,
            // Colons may not follow dots.
            ':' if has_dot => return None,
            ':' => has_colon = true,
            // Everything after '%' is a scope id.
            '%' => {
                scope_at = Some(i);
                break;
            }
            c if c.is_ascii_hexdigit() => {}
            _ => return None,
        }
    }
    if has_colon {
        let converted;
        let mut text = text;
        if has_dot {
            converted = dotted_quad_to_hex(text)?;
            text = &converted;
        }
        if let Some(at) = scope_at {
            if !known_scope(&text[at + 1..]) {
                return None;
            }
            text = &text[..at];
        }
        return v6(text).map(Parsed::V6);
    }
    if has_dot && scope_at.is_none() {
        return v4(text).map(Parsed::V4);
    }
    None
}

/// A scope id Guava's `bytesToInetAddress` accepts: a decimal interface index within an int,
/// or the name of an interface with an IPv6 link-local address on the server. The stand-in
/// answers as the reference server, whose one such interface is `eth0`.
fn known_scope(scope: &str) -> bool {
    let index = scope.bytes().all(|b| b.is_ascii_digit())
        && (scope.is_empty() || scope.parse::<i32>().is_ok());
    index || scope == "eth0"
}

/// `a.b.c.d`: four decimal octets of one to three digits, no leading zero, at most 255.
fn v4(text: &str) -> Option<[u8; 4]> {
    let parts: Vec<&str> = text.split('.').collect();
    let [a, b, c, d] = parts.as_slice() else {
        return None;
    };
    let octet = |part: &str| -> Option<u8> {
        if part.is_empty()
            || part.len() > 3
            || (part.len() > 1 && part.starts_with('0'))
            || !part.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        part.parse::<u16>().ok().and_then(|n| u8::try_from(n).ok())
    };
    Some([octet(a)?, octet(b)?, octet(c)?, octet(d)?])
}

/// `…:a.b.c.d` as `…:hhhh:hhhh` (Guava's convertDottedQuadToHex); a scope after the quad makes
/// the quad invalid, as in Guava.
fn dotted_quad_to_hex(text: &str) -> Option<String> {
    let last_colon = text.rfind(':')?;
    let quad = v4(&text[last_colon + 1..])?;
    Some(format!(
        "{}{:x}:{:x}",
        &text[..=last_colon],
        u16::from_be_bytes([quad[0], quad[1]]),
        u16::from_be_bytes([quad[2], quad[3]])
    ))
}

/// Eight colon-separated hextets of one to four hex digits, or fewer with one `::` standing
/// for at least one zero hextet (Guava's textToNumericFormatV6).
fn v6(text: &str) -> Option<Address> {
    const PARTS: usize = 8;
    let bytes = text.as_bytes();
    let colons = bytes.iter().filter(|b| **b == b':').count();
    if !(2..=PARTS).contains(&colons) {
        return None;
    }
    let mut skipped = PARTS as i64 - (colons as i64 + 1);
    let mut has_skip = false;
    for i in 0..bytes.len() - 1 {
        if bytes[i] == b':' && bytes[i + 1] == b':' {
            if has_skip {
                return None;
            }
            has_skip = true;
            skipped += 1;
            if i == 0 {
                skipped += 1;
            }
            if i == bytes.len() - 2 {
                skipped += 1;
            }
        }
    }
    let n = bytes.len();
    if (bytes[0] == b':' && bytes[1] != b':') || (bytes[n - 1] == b':' && bytes[n - 2] != b':') {
        return None;
    }
    if (has_skip && skipped <= 0) || (!has_skip && colons + 1 != PARTS) {
        return None;
    }
    let mut hextets: Vec<u16> = Vec::with_capacity(PARTS);
    let mut start = usize::from(bytes[0] == b':');
    while start < n {
        let end = text[start..].find(':').map_or(n, |i| start + i);
        if bytes[start] == b':' {
            hextets.extend(std::iter::repeat_n(0, skipped.max(0) as usize));
        } else {
            let part = &text[start..end];
            if part.is_empty() || part.len() > 4 {
                return None;
            }
            hextets.push(u16::from_str_radix(part, 16).ok()?);
        }
        start = end + 1;
    }
    if hextets.len() != PARTS {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, h) in hextets.iter().enumerate() {
        out[2 * i..2 * i + 2].copy_from_slice(&h.to_be_bytes());
    }
    Some(out)
}

/// `InetAddresses.toAddrString`: an IPv4-mapped address as its dotted quad; any other as
/// lowercase hextets without leading zeros, the first longest run of two or more zero
/// hextets written `::` (RFC 5952).
pub fn to_text(address: &Address) -> String {
    if let Some([a, b, c, d]) = as_v4(address) {
        return format!("{a}.{b}.{c}.{d}");
    }
    let hextets: Vec<u16> = address
        .chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]))
        .collect();
    let (mut best_start, mut best_len) = (0, 0);
    let mut run_start = None;
    for i in 0..=hextets.len() {
        if i < hextets.len() && hextets[i] == 0 {
            run_start.get_or_insert(i);
        } else if let Some(start) = run_start.take()
            && i - start > best_len
        {
            (best_start, best_len) = (start, i - start);
        }
    }
    let compressed = |i: usize| best_len >= 2 && (best_start..best_start + best_len).contains(&i);
    let mut out = String::with_capacity(39);
    let mut last_was_number = false;
    for (i, h) in hextets.iter().enumerate() {
        if compressed(i) {
            if i == 0 || last_was_number {
                out.push_str("::");
            }
            last_was_number = false;
        } else {
            if last_was_number {
                out.push(':');
            }
            out.push_str(&format!("{h:x}"));
            last_was_number = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> Option<String> {
        parse(text).map(|p| to_text(&p.address()))
    }

    #[test]
    fn reads_and_writes_addresses_as_trino_does() {
        // TestIpAddressOperators.testVarcharToIpAddressCast / testIpAddressToVarcharCast, and
        // the answers of Trino 476 (docs language/types IPADDRESS).
        for (text, shown) in [
            ("10.0.0.1", "10.0.0.1"),
            ("::ffff:1.2.3.4", "1.2.3.4"),
            ("::ffff:a01:203", "10.1.2.3"),
            ("2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"),
            ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
            ("::1", "::1"),
            ("::", "::"),
            ("::1.2.3.4", "::102:304"),
            ("::ffff:0:1.2.3.4", "::ffff:0:102:304"),
            ("1::", "1::"),
            ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
            ("::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"),
            ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
            ("fe80::1%eth0", "fe80::1"),
            ("fe80::1%", "fe80::1"),
            ("fe80::1%1234567890", "fe80::1"),
            ("255.255.255.255", "255.255.255.255"),
        ] {
            assert_eq!(round_trip(text).as_deref(), Some(shown), "{text}");
        }
        for text in [
            "1.2.3.256",
            "localhost",
            "1.2.3",
            "",
            "2001:db8::1::2",
            " 1.2.3.4",
            "01.2.3.4",
            "[::1]",
            "1:2:3:4:5:6:7:8::",
            "fe80::1%lo",
            "fe80::1%-1",
            "fe80::1%9999999999",
            "::ffff:1.2.3.4%5",
            "1.2.3.4%5",
            ":1::",
            "1::2:",
            "12345::",
            "1:2:3:4:5:6:7",
        ] {
            assert!(round_trip(text).is_none(), "{text}");
        }
    }
}
