//! What the built-in table functions (Trino docs functions/table) compute in SQLite; the
//! engine reads their invocations in FROM (querymesh-engine/src/sql/table_functions).

pub mod sqlite;

/// SequenceFunction.analyze, then its splits' alignment: the sequence's last value, the last
/// one `start + k * step` reachable within `stop` — or Trino's error for a null argument or
/// a step pointing away from `stop`. When `start == stop` the step is not looked at.
pub fn sequence_last(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
) -> Result<i64, String> {
    let start = start.ok_or("Start is null")?;
    let stop = stop.ok_or("Stop is null")?;
    let step = step.ok_or("Step is null")?;
    if start < stop && step <= 0 {
        return Err(format!(
            "Step must be positive for sequence [{start}, {stop}]"
        ));
    }
    if start > stop && step >= 0 {
        return Err(format!(
            "Step must be negative for sequence [{start}, {stop}]"
        ));
    }
    if start == stop {
        return Ok(start);
    }
    // In i128: `stop - start` may be past i64's range; the last value is within it.
    let (start, stop, step) = (i128::from(start), i128::from(stop), i128::from(step));
    let last = start + (stop - start) / step * step;
    i64::try_from(last).map_err(|_| format!("Sequence end {last} is out of range"))
}

#[cfg(test)]
mod tests {
    use super::sequence_last;

    // TestSequenceFunction and docs functions/table: the end is the last reachable value.
    #[test]
    fn the_last_value_is_the_last_one_reachable_by_steps() {
        assert_eq!(sequence_last(Some(1), Some(10), Some(3)), Ok(10));
        assert_eq!(sequence_last(Some(1), Some(9), Some(3)), Ok(7));
        assert_eq!(sequence_last(Some(10), Some(-10), Some(-7)), Ok(-4));
        assert_eq!(sequence_last(Some(5), Some(5), Some(0)), Ok(5));
        assert_eq!(sequence_last(Some(5), Some(5), Some(-3)), Ok(5));
        assert_eq!(
            sequence_last(Some(i64::MIN), Some(i64::MAX), Some(i64::MAX)),
            Ok(i64::MAX - 1)
        );
        assert_eq!(
            sequence_last(Some(i64::MAX - 7), Some(i64::MAX), Some(3)),
            Ok(i64::MAX - 1)
        );
    }

    #[test]
    fn nulls_and_wrong_steps_are_trinos_errors() {
        assert_eq!(
            sequence_last(None, Some(1), Some(1)),
            Err("Start is null".into())
        );
        assert_eq!(
            sequence_last(Some(1), None, Some(1)),
            Err("Stop is null".into())
        );
        assert_eq!(
            sequence_last(Some(1), Some(2), None),
            Err("Step is null".into())
        );
        assert_eq!(
            sequence_last(Some(1), Some(5), Some(0)),
            Err("Step must be positive for sequence [1, 5]".into())
        );
        assert_eq!(
            sequence_last(Some(5), Some(1), Some(1)),
            Err("Step must be negative for sequence [5, 1]".into())
        );
    }
}
