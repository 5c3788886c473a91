//! RFC 3339 timestamps as entries write them (`2026-11-30T05:00:00Z`, or with an offset),
//! checked loosely and turned into a key that orders instants correctly across offsets.

/// An instant as seconds since the Unix epoch (UTC) plus nanoseconds; orders like time.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct TimestampKey {
    pub unix_seconds: i64,
    pub nanoseconds: u32,
}

/// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`t`, `z` and a space separator are
/// accepted too). `None` when the text has another shape or an impossible date or time.
pub fn parse_timestamp(text: &str) -> Option<TimestampKey> {
    let bytes = text.as_bytes();
    if bytes.len() < 20 {
        return None;
    }
    let year = read_digits(bytes, 0, 4)?;
    let month = read_digits(bytes, 5, 2)?;
    let day = read_digits(bytes, 8, 2)?;
    let hour = read_digits(bytes, 11, 2)?;
    let minute = read_digits(bytes, 14, 2)?;
    let second = read_digits(bytes, 17, 2)?;
    let separators_ok = bytes[4] == b'-'
        && bytes[7] == b'-'
        && matches!(bytes[10], b'T' | b't' | b' ')
        && bytes[13] == b':'
        && bytes[16] == b':';
    if !separators_ok
        || !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }

    let mut position = 19;
    let mut nanoseconds: u32 = 0;
    if bytes[position] == b'.' {
        position += 1;
        let fraction_start = position;
        while position < bytes.len() && bytes[position].is_ascii_digit() {
            let digit_index = position - fraction_start;
            if digit_index < 9 {
                nanoseconds +=
                    u32::from(bytes[position] - b'0') * 10u32.pow(8 - digit_index as u32);
            }
            position += 1;
        }
        if position == fraction_start {
            return None;
        }
    }

    let offset_seconds: i64 = match &bytes[position..] {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let offset_hours = read_digits(bytes, position + 1, 2)?;
            let offset_minutes = read_digits(bytes, position + 4, 2)?;
            if offset_hours > 23 || offset_minutes > 59 {
                return None;
            }
            let magnitude = offset_hours * 3600 + offset_minutes * 60;
            if *sign == b'+' {
                magnitude
            } else {
                -magnitude
            }
        }
        _ => return None,
    };

    let local_seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    Some(TimestampKey { unix_seconds: local_seconds - offset_seconds, nanoseconds })
}

/// How new an entry is, for "newest first" orders: its `created_at` instant (entries
/// without a readable one are oldest), then its id.
pub(crate) fn recency_key(entry: &crate::entry::Entry) -> (Option<TimestampKey>, &str) {
    (entry.created_at.as_deref().and_then(parse_timestamp), entry.id.as_str())
}

fn read_digits(bytes: &[u8], start: usize, count: usize) -> Option<i64> {
    let digits = bytes.get(start..start + count)?;
    digits.iter().try_fold(0i64, |value, byte| {
        byte.is_ascii_digit().then(|| value * 10 + i64::from(byte - b'0'))
    })
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let shifted_year = if month <= 2 { year - 1 } else { year };
    let era = shifted_year.div_euclid(400);
    let year_of_era = shifted_year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
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
            "2026-11-30T05:00:00+0100",
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
