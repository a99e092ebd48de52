//! Pictures of results and items, for people: `entail report` and
//! `entail show`.
//!
//! - [`report`] turns score and judge outputs of one or more models into one
//!   self-contained HTML page of bar charts, each with the table of its
//!   numbers.
//! - [`show`] draws one item: an SLR task's trains as Michalski trains, a
//!   LogicGraph instance as its DAG (with a model's steps marked valid or
//!   invalid), a LogiConBench sample's reasoning path.
//!
//! Charts and trains are drawn by `plotters` into SVG; graphs are laid out
//! in layers by `layout-rs`. Nothing in a page refers to anything outside
//! it, so a page opens the same with no network.
//!
//! This layer sits above [`crate::gen`]: it reads the benchmarks' record and
//! report types and never prints or reads files itself.

mod chart;
mod graph;
mod page;
pub mod report;
pub mod show;
mod trains;

pub use chart::{counted, BarChart, Series};
pub use page::Page;

/// Why a picture could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

impl Error {
    fn drawing(e: impl std::fmt::Display) -> Error {
        Error(format!("cannot draw: {e}"))
    }
}

/// `time` as a UTC date and time (`2026-11-27 02:46 UTC`), for a page's
/// header. Callers pass the time, so that a page made twice from the same
/// inputs at a fixed time is the same page.
pub fn utc(time: std::time::SystemTime) -> String {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3_600,
        rest % 3_600 / 60
    )
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn utc_dates_are_the_calendar_dates() {
        let at = |secs: u64| super::utc(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01 00:00 UTC");
        assert_eq!(at(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(at(1_798_338_360), "2026-12-27 02:26 UTC");
    }
}
