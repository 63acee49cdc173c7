use super::*;

#[test]
fn durations_read_as_trino_docs_show() {
    // docs functions/datetime "Duration function" examples.
    assert_eq!(parse_duration("42.8ms").ok(), Some(43));
    assert_eq!(parse_duration("3.81 d").ok(), Some(329_184_000));
    assert_eq!(parse_duration("5m").ok(), Some(300_000));
    assert!(parse_duration("5 parsecs").is_err());
    // docs: human_readable_seconds(96), (3762), (56363463).
    assert_eq!(
        human_readable_seconds(96.0).ok().as_deref(),
        Some("1 minute, 36 seconds")
    );
    assert_eq!(
        human_readable_seconds(3762.0).ok().as_deref(),
        Some("1 hour, 2 minutes, 42 seconds")
    );
    assert_eq!(
        human_readable_seconds(56_363_463.0).ok().as_deref(),
        Some("93 weeks, 1 day, 8 hours, 31 minutes, 3 seconds")
    );
}
