//! The non-cryptographic hashes and checksums of varbinary (crc32, murmur3, SpookyHash V2)
//! written out as airlift computes them, and HMAC over the RustCrypto digests.

use hmac::{KeyInit, Mac};

/// CRC-32 (ISO-HDLC, java.util.zip.CRC32), bitwise: the inputs here are small.
pub(super) fn crc32(b: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in b {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// MurmurHash3 x64 128 with seed 0 (airlift's Murmur3Hash128): h1 then h2, little-endian.
pub(super) fn murmur3(b: &[u8]) -> Vec<u8> {
    let (h1, h2) = murmur3_x64_128(b);
    let mut out = h1.to_le_bytes().to_vec();
    out.extend_from_slice(&h2.to_le_bytes());
    out
}

/// MurmurHash3 x64 128 with seed 0, its two halves (murmur3, and a set digest's hash64: the
/// first half, setdigest/murmur3.rs).
pub(crate) fn murmur3_x64_128(b: &[u8]) -> (u64, u64) {
    const C1: u64 = 0x87c3_7b91_1142_53d5;
    const C2: u64 = 0x4cf5_ad43_2745_937f;
    let mix_k1 = |k: u64| k.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
    let mix_k2 = |k: u64| k.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
    let fmix = |mut k: u64| {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        k ^ (k >> 33)
    };
    let (mut h1, mut h2) = (0u64, 0u64);
    let mut blocks = b.chunks_exact(16);
    for block in &mut blocks {
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&block[i..i + 8]);
            u64::from_le_bytes(w)
        };
        h1 ^= mix_k1(word(0));
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(word(8));
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    let (mut k1, mut k2) = (0u64, 0u64);
    for (i, byte) in tail.iter().enumerate() {
        if i < 8 {
            k1 |= u64::from(*byte) << (8 * i);
        } else {
            k2 |= u64::from(*byte) << (8 * (i - 8));
        }
    }
    if tail.len() > 8 {
        h2 ^= mix_k2(k2);
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(k1);
    }
    let len = b.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    (h1, h2)
}

/// SpookyHash V2 (Bob Jenkins, 2012), 64 bits with seed 0, as airlift's SpookyHashV2.hash64;
/// the 32-bit hash is its low half.
pub(super) mod spooky {
    const CONST: u64 = 0xdead_beef_dead_beef;
    const BLOCK: usize = 96;

    fn words<const N: usize>(b: &[u8]) -> [u64; N] {
        let mut out = [0u64; N];
        for (w, chunk) in out.iter_mut().zip(b.chunks(8)) {
            let mut raw = [0u8; 8];
            raw[..chunk.len()].copy_from_slice(chunk);
            *w = u64::from_le_bytes(raw);
        }
        out
    }

    fn short_mix(h: &mut [u64; 4]) {
        for (x, y, r) in [
            (2, 3, 50),
            (3, 0, 52),
            (0, 1, 30),
            (1, 2, 41),
            (2, 3, 54),
            (3, 0, 48),
            (0, 1, 38),
            (1, 2, 37),
            (2, 3, 62),
            (3, 0, 34),
            (0, 1, 5),
            (1, 2, 36),
        ] {
            // h[x] = rot(h[x], r); h[x] += h[y]; h[x - 2] ^= h[x]
            h[x] = h[x].rotate_left(r).wrapping_add(h[y]);
            h[(x + 2) % 4] ^= h[x];
        }
    }

    fn short_end(h: &mut [u64; 4]) {
        for (x, y, r) in [
            (3, 2, 15),
            (0, 3, 52),
            (1, 0, 26),
            (2, 1, 51),
            (3, 2, 28),
            (0, 3, 9),
            (1, 0, 47),
            (2, 1, 54),
            (3, 2, 32),
            (0, 3, 25),
            (1, 0, 63),
        ] {
            // h[x] ^= h[y]; h[y] = rot(h[y], r); h[x] += h[y]
            h[x] ^= h[y];
            h[y] = h[y].rotate_left(r);
            h[x] = h[x].wrapping_add(h[y]);
        }
    }

    fn short(b: &[u8], seed: u64) -> u64 {
        let mut h = [seed, seed, CONST, CONST];
        let mut rest = b;
        while rest.len() >= 32 {
            let w: [u64; 4] = words(&rest[..32]);
            h[2] = h[2].wrapping_add(w[0]);
            h[3] = h[3].wrapping_add(w[1]);
            short_mix(&mut h);
            h[0] = h[0].wrapping_add(w[2]);
            h[1] = h[1].wrapping_add(w[3]);
            rest = &rest[32..];
        }
        if rest.len() >= 16 {
            let w: [u64; 2] = words(&rest[..16]);
            h[2] = h[2].wrapping_add(w[0]);
            h[3] = h[3].wrapping_add(w[1]);
            short_mix(&mut h);
            rest = &rest[16..];
        }
        h[3] = h[3].wrapping_add((b.len() as u64) << 56);
        if rest.is_empty() {
            h[2] = h[2].wrapping_add(CONST);
            h[3] = h[3].wrapping_add(CONST);
        } else {
            // The last 0..15 bytes as two little-endian words, zero-filled.
            let w: [u64; 2] = words(rest);
            h[2] = h[2].wrapping_add(w[0]);
            h[3] = h[3].wrapping_add(w[1]);
        }
        short_end(&mut h);
        h[0]
    }

    fn mix(d: &[u64; 12], s: &mut [u64; 12]) {
        const ROT: [u32; 12] = [11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46];
        for i in 0..12 {
            s[i] = s[i].wrapping_add(d[i]);
            s[(i + 2) % 12] ^= s[(i + 10) % 12];
            s[(i + 11) % 12] ^= s[i];
            s[i] = s[i].rotate_left(ROT[i]);
            s[(i + 11) % 12] = s[(i + 11) % 12].wrapping_add(s[(i + 1) % 12]);
        }
    }

    fn end_partial(h: &mut [u64; 12]) {
        const ROT: [u32; 12] = [44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54];
        for (i, r) in ROT.into_iter().enumerate() {
            // h[i-1] += h[i+1]; h[i+2] ^= h[i-1]; h[i+1] = rot(h[i+1], r)
            let (a, b, c) = ((i + 11) % 12, (i + 1) % 12, (i + 2) % 12);
            h[a] = h[a].wrapping_add(h[b]);
            h[c] ^= h[a];
            h[b] = h[b].rotate_left(r);
        }
    }

    pub fn hash64(b: &[u8]) -> u64 {
        if b.len() < 2 * BLOCK {
            return short(b, 0);
        }
        let mut h = [0, 0, CONST, 0, 0, CONST, 0, 0, CONST, 0, 0, CONST];
        let mut blocks = b.chunks_exact(BLOCK);
        for block in &mut blocks {
            mix(&words(block), &mut h);
        }
        let rest = blocks.remainder();
        let mut last = [0u8; BLOCK];
        last[..rest.len()].copy_from_slice(rest);
        last[BLOCK - 1] = rest.len() as u8;
        let d: [u64; 12] = words(&last);
        for (x, y) in h.iter_mut().zip(d) {
            *x = x.wrapping_add(y);
        }
        for _ in 0..3 {
            end_partial(&mut h);
        }
        h[0]
    }
}

pub(super) fn hmac<M: Mac + KeyInit>(data: &[u8], key: &[u8]) -> Vec<u8> {
    // Every key length is valid for HMAC (RFC 2104 §2).
    match <M as KeyInit>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        Err(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_match_the_reference_values() {
        // TestVarbinaryFunctions.testCrc32.
        assert_eq!(crc32(b"CRC me!"), 38_028_046);
        assert_eq!(crc32(b"ABCDEFGHIJKLM"), 4_223_167_559);
        let hex = |b: Vec<u8>| b.iter().map(|x| format!("{x:02X}")).collect::<String>();
        // TestVarbinaryFunctions.testMurmur3, and the docs' murmur3(from_base64('aaaaaa')).
        assert_eq!(hex(murmur3(b"")), "0".repeat(32));
        assert_eq!(hex(murmur3(b"hashme")), "93192FE805BE23041C8318F67EC4F2BC");
        assert_eq!(
            hex(murmur3(&[0x69, 0xA6, 0x9A, 0x69])),
            "BA5855635569B42F4920372CA0E396EF"
        );
        // TestVarbinaryFunctions.testSpookyHash; past two blocks, the long path
        // (SpookyHash V2's own 445-byte Lorem ipsum vector).
        assert_eq!(spooky::hash64(b""), 0x2327_06FC_6BF5_0919);
        assert_eq!(spooky::hash64(b"hello"), 0x3768_826A_D382_E6CA);
        assert_eq!(spooky::hash64(b"foo"), 0x7f84_3a73_314f_cf27);
        assert_eq!(spooky::hash64(b"test000026"), 0x0c1b_2b3b_a63f_3e46);
        let lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.";
        assert_eq!(spooky::hash64(lorem.as_bytes()), 0xb6e1_542b_9044_ed66);
        // Past one 16-byte block, with a tail in both words.
        assert_eq!(murmur3(&[7u8; 41]).len(), 16);
    }
}
