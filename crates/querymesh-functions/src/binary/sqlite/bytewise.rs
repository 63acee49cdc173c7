//! Byte-wise string operations on varbinary: `substr`, `lpad` and `rpad`
//! (VarbinaryFunctions).

use super::{invalid, reserve};

/// `substr(varbinary, start[, length])` (VarbinaryFunctions.substr): 1-based bytes, a
/// negative start counts from the end, 0 or a start outside gives empty.
pub(super) fn substr(b: &[u8], start: i64, length: Option<i64>) -> &[u8] {
    let n = b.len() as i64;
    if start == 0 || length.is_some_and(|l| l <= 0) || n == 0 {
        return &[];
    }
    let from = if start > 0 { start - 1 } else { n + start };
    if from < 0 || from >= n {
        return &[];
    }
    let to = length.map_or(n, |l| from.saturating_add(l).min(n));
    &b[from as usize..to as usize]
}

/// lpad/rpad of varbinary (VarbinaryFunctions.pad): both checks come first.
pub(super) fn pad(b: &[u8], target: i64, padding: &[u8], left: bool) -> rusqlite::Result<Vec<u8>> {
    let target = usize::try_from(target)
        .ok()
        .filter(|t| *t <= i32::MAX as usize)
        .ok_or_else(|| invalid("Target length must be in the range [0..2147483647]"))?;
    if padding.is_empty() {
        return Err(invalid("Padding bytes must not be empty"));
    }
    if b.len() >= target {
        return Ok(b[..target].to_vec());
    }
    reserve(target)?;
    let fill: Vec<u8> = padding
        .iter()
        .copied()
        .cycle()
        .take(target - b.len())
        .collect();
    let mut out = Vec::with_capacity(target);
    if left {
        out.extend_from_slice(&fill);
        out.extend_from_slice(b);
    } else {
        out.extend_from_slice(b);
        out.extend_from_slice(&fill);
    }
    Ok(out)
}
