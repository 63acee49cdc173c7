//! The 64-bit Murmur3 hash a set digest keys its values by: the first half of MurmurHash3
//! x64-128 with seed 0, its two halves summed (airlift's `Murmur3Hash128.hash64`, which
//! Trino's SetDigest and HyperLogLog call). A long is hashed as its 8 little-endian bytes by
//! the same function.

use crate::binary::sqlite::hashes::murmur3_x64_128;

/// The hash of a bigint (and of every type Trino holds as a long: integers, dates, short
/// decimals' unscaled values, intervals, a real's bits).
pub fn hash_long(value: i64) -> i64 {
    hash_bytes(&value.to_le_bytes())
}

/// The hash of a varchar's UTF-8 bytes, a varbinary's bytes (every type Trino holds as a slice).
pub fn hash_bytes(data: &[u8]) -> i64 {
    murmur3_x64_128(data).0 as i64
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
