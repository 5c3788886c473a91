//! RFC 3339 timestamps as entries write them (`2026-11-30T05:00:00Z`, or with an offset),
//! read with `jiff` into a key that orders instants correctly across offsets.

/// An instant as seconds since the Unix epoch (UTC) plus nanoseconds; orders like time.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct TimestampKey {
    pub unix_seconds: i64,
    pub nanoseconds: u32,
}

/// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (a space separator is accepted too).
/// `None` when the text has another shape, no offset, or an impossible date or time.
pub fn parse_timestamp(text: &str) -> Option<TimestampKey> {
    let instant: jiff::Timestamp = text.parse().ok()?;
    Some(TimestampKey {
        unix_seconds: instant.as_second(),
        nanoseconds: u32::try_from(instant.subsec_nanosecond()).ok()?,
    })
}

/// How new an entry is, for "newest first" orders: its `created_at` instant (entries
/// without a readable one are oldest), then its id.
pub(crate) fn recency_key(entry: &crate::entry::Entry) -> (Option<TimestampKey>, &str) {
    (entry.created_at.as_deref().and_then(parse_timestamp), entry.id.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_utc_and_offsets_into_comparable_instants() {
        let utc = parse_timestamp("2026-11-30T05:00:00Z");
        assert_eq!(utc, Some(TimestampKey { unix_seconds: 1_796_014_800, nanoseconds: 0 }));
        assert_eq!(parse_timestamp("2026-11-30T06:30:00+01:30"), utc);
        assert_eq!(parse_timestamp("2026-11-29 23:00:00-06:00"), utc);
        assert_eq!(
            parse_timestamp("1970-01-01T00:00:00z"),
            Some(TimestampKey { unix_seconds: 0, nanoseconds: 0 })
        );
        assert_eq!(
            parse_timestamp("2024-02-29T00:00:00.25Z").map(|key| key.nanoseconds),
            Some(250_000_000)
        );
    }

    #[test]
    fn rejects_other_shapes() {
        for text in [
            "",
            "2026-11-30",
            "2026-11-30T05:00:00",
            "2026-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-11-30T24:00:00Z",
            "2026-11-30T05:00:00.Z",
            "2026/11/30T05:00:00Z",
            "2026-11-30T05:00:00Z junk",
        ] {
            assert_eq!(parse_timestamp(text), None, "{text}");
        }
    }
}
