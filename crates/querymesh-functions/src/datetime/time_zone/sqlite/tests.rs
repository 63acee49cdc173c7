use super::*;

#[test]
fn zones_are_trinos_names() {
    assert_eq!(
        zone("america/los_angeles").map(|z| z.id).ok().as_deref(),
        Some("America/Los_Angeles")
    );
    assert_eq!(zone("Z").map(|z| z.id).ok().as_deref(), Some("UTC"));
    assert_eq!(zone("+00:00").map(|z| z.id).ok().as_deref(), Some("UTC"));
    assert_eq!(zone("+07:09").map(|z| z.id).ok().as_deref(), Some("+07:09"));
    assert_eq!(zone("-0800").map(|z| z.id).ok().as_deref(), Some("-08:00"));
    assert_eq!(
        zone("Foo/Bar").err().as_deref(),
        Some("Time zone not supported: Foo/Bar")
    );
    assert!(zone("+15:00").is_err());
}

#[test]
fn stored_text_round_trips_and_orders_by_instant() {
    let la = zone("America/Los_Angeles").ok();
    let parts = parse_parts("2001-08-22 03:04:05.321 America/Los_Angeles");
    let z = parts.and_then(|p| from_parts(&p, "UTC", 3).ok());
    let stored = z.as_ref().map(Zoned::stored);
    assert_eq!(
        stored.as_deref(),
        Some("2001-08-22 10:04:05.321000000000 America/Los_Angeles")
    );
    let back = stored.as_deref().and_then(parse_stored);
    assert_eq!(
        back.map(|z| z.display(3)).as_deref(),
        Some("2001-08-22 03:04:05.321 America/Los_Angeles")
    );
    assert!(la.is_some());
}
