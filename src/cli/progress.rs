//! Progress bars for long runs. They draw on stderr only when it is a
//! terminal, so pipelines and CI logs stay clean.
//!
//! A bar counts what is done against the run's true total, and draws from
//! the start: its clock ticks and it says `starting` while a run prepares
//! (an SLR run computes the held-out splits' tasks before it writes one).
//! The time left is estimated from the rate since the first item was done,
//! and shown as `-` until a second has passed since then, so the
//! preparation does not read as days to go.

use indicatif::style::ProgressTracker;
use indicatif::{HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// A bar counting `len` items of `what` (e.g. "tasks").
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template =
        format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} ({{rate}}, eta {{left}})");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .map(|style| {
                style
                    .with_key("left", Left::default())
                    .with_key("rate", Rate::default())
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// Where the count stood when the first item was done, and when.
#[derive(Clone, Copy)]
struct Start {
    at: Instant,
    pos: u64,
}

/// Items done per second since the first item was done, if a second has
/// passed since then and items were done.
fn rate(start: Option<Start>, state: &ProgressState, now: Instant) -> Option<f64> {
    let start = start?;
    let seconds = now.saturating_duration_since(start.at).as_secs_f64();
    let done = state.pos().saturating_sub(start.pos);
    (seconds >= 1.0 && done > 0).then(|| done as f64 / seconds)
}

/// Notes when the first item was done: the start of the rate's window.
fn note_start(start: &mut Option<Start>, state: &ProgressState, now: Instant) {
    if start.is_none() && state.pos() > 0 {
        *start = Some(Start {
            at: now,
            pos: state.pos(),
        });
    }
}

/// The `{left}` key: the time left at the rate since the first item.
#[derive(Clone, Default)]
struct Left {
    start: Option<Start>,
    text: String,
}

impl ProgressTracker for Left {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &ProgressState, now: Instant) {
        note_start(&mut self.start, state, now);
        self.text = match (rate(self.start, state, now), state.len()) {
            (Some(per_sec), Some(len)) => {
                let left = len.saturating_sub(state.pos()) as f64 / per_sec;
                HumanDuration(Duration::from_secs_f64(left.min(1e9))).to_string()
            }
            _ => "-".to_string(),
        };
    }

    fn reset(&mut self, _: &ProgressState, _: Instant) {
        *self = Left::default();
    }

    fn write(&self, _: &ProgressState, w: &mut dyn std::fmt::Write) {
        let _ = w.write_str(if self.text.is_empty() {
            "-"
        } else {
            &self.text
        });
    }
}

/// The `{rate}` key: `starting` until the first item is done, then items
/// per second since then.
#[derive(Clone, Default)]
struct Rate {
    start: Option<Start>,
    text: String,
}

impl ProgressTracker for Rate {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &ProgressState, now: Instant) {
        note_start(&mut self.start, state, now);
        self.text.clear();
        match rate(self.start, state, now) {
            _ if self.start.is_none() => self.text.push_str("starting"),
            Some(per_sec) if per_sec >= 10.0 => {
                let _ = write!(self.text, "{per_sec:.0}/s");
            }
            Some(per_sec) => {
                let _ = write!(self.text, "{per_sec:.1}/s");
            }
            None => self.text.push_str("-/s"),
        }
    }

    fn reset(&mut self, _: &ProgressState, _: Instant) {
        *self = Rate::default();
    }

    fn write(&self, _: &ProgressState, w: &mut dyn std::fmt::Write) {
        let _ = w.write_str(if self.text.is_empty() {
            "starting"
        } else {
            &self.text
        });
    }
}
