//! The 64-bit Murmur3 hash a set digest keys its values by: the first half of MurmurHash3
//! x64-128 with seed 0, its two halves summed (airlift's `Murmur3Hash128.hash64`, which
//! Trino's SetDigest and HyperLogLog call). A long is hashed as its 8 little-endian bytes by
//! a shortcut that gives the same answer.

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// The hash of a bigint (and of every type Trino holds as a long: integers, dates, short
/// decimals' unscaled values, intervals, a real's bits).
pub fn hash_long(value: i64) -> i64 {
    hash_bytes(&value.to_le_bytes())
}

/// The hash of a varchar's UTF-8 bytes, a varbinary's bytes (every type Trino holds as a slice).
pub fn hash_bytes(data: &[u8]) -> i64 {
    let (mut h1, mut h2) = (0u64, 0u64);
    let mut blocks = data.chunks_exact(16);
    for block in blocks.by_ref() {
        let (k1, k2) = block.split_at(8);
        let k1 = u64::from_le_bytes(k1.try_into().unwrap_or_default());
        let k2 = u64::from_le_bytes(k2.try_into().unwrap_or_default());
        h1 ^= mix_k1(k1);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(k2);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    let little_endian = |bytes: &[u8]| {
        bytes
            .iter()
            .rev()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
    };
    if tail.len() > 8 {
        h2 ^= mix_k2(little_endian(&tail[8..]));
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(little_endian(&tail[..tail.len().min(8)]));
    }
    let length = data.len() as u64;
    h1 ^= length;
    h2 ^= length;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1.wrapping_add(h2) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    // The keys of hash_counts in Trino 476 (docs functions/setdigest, hash_counts):
    // `SELECT hash_counts(make_set_digest(v)) FROM (VALUES 7, 7, 7, 8, 8) t(v)`.
    #[test]
    fn hashes_a_long_as_trino_does() {
        assert_eq!(hash_long(7), 3_522_142_095_546_486_706);
        assert_eq!(hash_long(8), 4_145_513_480_871_534_457);
        assert_eq!(hash_long(-1), -6_853_156_495_446_839_949);
        assert_eq!(hash_long(1), 19_144_387_141_682_250);
    }

    #[test]
    fn hashes_bytes_as_trino_does() {
        // hash_counts(make_set_digest('ab')) and of a uuid's 16 bytes, asked of Trino 476.
        assert_eq!(hash_bytes(b"ab"), -7_815_133_031_266_706_642);
        let uuid = [
            0x12, 0x15, 0x1f, 0xd2, 0x75, 0x86, 0x11, 0xe9, 0x8f, 0x9e, 0x2a, 0x86, 0xe4, 0x08,
            0x5a, 0x59,
        ];
        assert_eq!(hash_bytes(&uuid), -6_241_495_844_446_997_281);
    }
}
