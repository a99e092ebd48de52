//! Benchmark generators and scorers, one module per benchmark. Each is a
//! client of the public library API (the judge, the prover and the
//! truth-table engine) and uses nothing private.
//!
//! Every benchmark has the same face:
//! - `Config` (with `seed`, `count` and a [`Shard`]), and
//!   `generate(&Config, out, progress) -> Result<Stats, Error>`, which
//!   writes the benchmark's records (LogicGraph: instance directories);
//! - its record types, which read those records back;
//! - `score(items, answers, &ScoreConfig, progress) -> Report`, which grades
//!   a model's `Answer`s against the items; `Report` serialises to JSON and
//!   has a `to_text()` for people.
//!
//! Everything else is private to the benchmark.
//!
//! Every generator is deterministic: item `i` of a run with seed `s` is drawn
//! from its own ChaCha8 stream (seed `s`, stream `i`), so output is byte-identical for
//! a seed on every platform and any thread count, and can be produced in
//! parallel.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub mod divlogic;
pub mod logicgraph;
pub mod logicon;
pub mod slr;
#[cfg(test)]
mod text_tests;
mod wordnet;

/// The random stream for item `index` of a run seeded with `seed`.
pub(crate) fn item_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// A hash of `bytes` that never changes between runs, platforms or
/// versions (64-bit FNV-1a), for decisions that must not depend on a seed.
pub(crate) fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Called by `generate` with the number of items just finished, for a
/// progress bar; `Sync` because items finish on worker threads.
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// Which part of a run to produce: shard `index` of `count` (0-based).
///
/// A run's items are the positions of its unsharded output stream, in
/// order (SLR: the requested `(level, slot)` positions; the other three: item
/// indices). Shard `i` of `n` produces the contiguous block of positions
/// `floor(i·C/n) .. floor((i+1)·C/n)` of the `C` positions, so the shards'
/// outputs, concatenated in order, are the unsharded output byte for byte,
/// and their statistics add up to the unsharded run's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole run: shard 0 of 1.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`; refused unless `index < count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if index < count {
            Ok(Shard { index, count })
        } else {
            Err(format!(
                "shard {index}/{count}: need INDEX < COUNT (shards are numbered from 0)"
            ))
        }
    }

    /// The positions of a run of `items` positions that this shard produces.
    pub fn range(self, items: u64) -> std::ops::Range<u64> {
        let bound = |i: u64| (u128::from(items) * u128::from(i) / u128::from(self.count)) as u64;
        bound(self.index)..bound(self.index + 1)
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

/// Runs `work(t)` on `threads` scoped threads (at least one) and returns
/// their results in thread order, `None` for a thread that panicked (each
/// caller turns that into its own error, so a bug cannot abort the caller).
pub(crate) fn on_threads<T: Send>(
    threads: usize,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<Option<T>> {
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| scope.spawn(move || work(t)))
            .collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    })
}

/// Items per chunk of [`write_in_order`]: small enough to keep every thread
/// busy to the end, big enough that handing a chunk over costs nothing.
const CHUNK: u64 = 64;

/// Runs `work(index, buf)` for every index of `items` on `threads` worker
/// threads, each call appending its item's bytes to `buf`, and writes the
/// bytes to `out` in index order while the workers go on, calling
/// `progress` after each chunk written. Chunks are claimed in order from a
/// shared counter and their buffers are reused, so the output is the same
/// for any thread count and no memory is freshly faulted in per chunk.
/// Stops at the first error in index order; a worker that panics loses its
/// chunk, which becomes `panicked()`.
pub(crate) fn write_in_order<E>(
    items: std::ops::Range<u64>,
    threads: usize,
    out: &mut dyn std::io::Write,
    progress: Progress,
    work: impl Fn(u64, &mut Vec<u8>) -> Result<(), E> + Sync,
    panicked: impl Fn() -> E,
) -> Result<(), E>
where
    E: Send + From<std::io::Error>,
{
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::{mpsc, Mutex};
    let chunks = (items.end.saturating_sub(items.start)).div_ceil(CHUNK);
    let threads = threads.max(1);
    let next = &AtomicU64::new(0);
    let stop = &AtomicBool::new(false);
    let pool: &Mutex<Vec<Vec<u8>>> = &Mutex::new(Vec::new());
    let work = &work;
    let items = &items;
    let (sender, receiver) = mpsc::sync_channel::<(u64, Result<Vec<u8>, E>)>(threads * 2);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let sender = sender.clone();
                scope.spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let chunk = next.fetch_add(1, Ordering::Relaxed);
                        if chunk >= chunks {
                            return;
                        }
                        let mut buf = pool
                            .lock()
                            .ok()
                            .and_then(|mut p| p.pop())
                            .unwrap_or_default();
                        let lo = items.start + chunk * CHUNK;
                        let hi = (lo + CHUNK).min(items.end);
                        let result = (lo..hi).try_for_each(|i| work(i, &mut buf)).map(|()| buf);
                        if sender.send((chunk, result)).is_err() {
                            return;
                        }
                    }
                })
            })
            .collect();
        drop(sender);
        let mut arrived = std::collections::BTreeMap::new();
        let mut written = 0;
        let outcome = loop {
            if written == chunks {
                break Ok(());
            }
            let Some(result) = arrived.remove(&written) else {
                match receiver.recv() {
                    Ok((chunk, result)) => {
                        arrived.insert(chunk, result);
                        continue;
                    }
                    // Every worker has stopped and this chunk never came.
                    Err(_) => break Err(panicked()),
                }
            };
            let mut buf = match result {
                Ok(buf) => buf,
                Err(e) => break Err(e),
            };
            if let Err(e) = out.write_all(&buf) {
                break Err(e.into());
            }
            let lo = items.start + written * CHUNK;
            progress((lo + CHUNK).min(items.end) - lo);
            buf.clear();
            if let Ok(mut p) = pool.lock() {
                p.push(buf);
            }
            written += 1;
        };
        stop.store(true, Ordering::Relaxed);
        drop(receiver);
        for worker in workers {
            // A panic was already reported as its missing chunk.
            let _ = worker.join();
        }
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_positions_into_contiguous_blocks_in_order() {
        let blocks = |items, n| {
            (0..n)
                .map(|i| Shard::new(i, n).map(|s| s.range(items)))
                .map(|r| r.map(|r| (r.start, r.end)))
                .collect::<Result<Vec<_>, _>>()
        };
        assert_eq!(blocks(10, 1), Ok(vec![(0, 10)]));
        assert_eq!(blocks(10, 3), Ok(vec![(0, 3), (3, 6), (6, 10)]));
        assert_eq!(blocks(2, 3), Ok(vec![(0, 0), (0, 1), (1, 2)]));
        assert_eq!(blocks(0, 2), Ok(vec![(0, 0), (0, 0)]));
        assert_eq!(
            Shard::new(0, 4).map(|s| s.range(u64::MAX)),
            Ok(0..u64::MAX / 4)
        );
        assert_eq!(Shard::WHOLE.range(7), 0..7);
    }

    #[test]
    fn a_shard_index_must_be_below_the_shard_count() {
        assert_eq!(
            Shard::new(2, 2),
            Err("shard 2/2: need INDEX < COUNT (shards are numbered from 0)".to_string())
        );
        assert_eq!(
            Shard::new(0, 0),
            Err("shard 0/0: need INDEX < COUNT (shards are numbered from 0)".to_string())
        );
    }

    #[derive(Debug, PartialEq)]
    struct Failed(String);

    impl From<std::io::Error> for Failed {
        fn from(e: std::io::Error) -> Failed {
            Failed(e.to_string())
        }
    }

    /// Runs [`write_in_order`] with an item writing its index (failing with
    /// `fail_at`, panicking at `panic_at`), returning the text and the result.
    fn ordered(threads: usize, fail_at: u64, panic_at: u64) -> (String, Result<(), Failed>) {
        let mut out = Vec::new();
        let done = std::sync::atomic::AtomicU64::new(0);
        let result = write_in_order(
            0..300,
            threads,
            &mut out,
            &|n| {
                done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            },
            |i, buf| {
                assert!(i != panic_at, "item {i}");
                if i == fail_at {
                    return Err(Failed(format!("item {i}")));
                }
                buf.extend_from_slice(format!("{i},").as_bytes());
                Ok(())
            },
            || Failed("panicked".to_string()),
        );
        if result.is_ok() {
            assert_eq!(done.into_inner(), 300);
        }
        (String::from_utf8(out).unwrap(), result)
    }

    #[test]
    fn write_in_order_writes_every_item_in_index_order_for_any_thread_count() {
        let all: String = (0..300).map(|i| format!("{i},")).collect();
        for threads in [0, 1, 2, 7] {
            assert_eq!(ordered(threads, u64::MAX, u64::MAX), (all.clone(), Ok(())));
        }
    }

    #[test]
    fn write_in_order_stops_at_the_first_error_after_the_chunks_before_it() {
        let before: String = (0..CHUNK * 2).map(|i| format!("{i},")).collect();
        for threads in [1, 3] {
            let (text, result) = ordered(threads, CHUNK * 2 + 5, u64::MAX);
            assert_eq!(result, Err(Failed(format!("item {}", CHUNK * 2 + 5))));
            assert_eq!(text, before);
        }
    }

    #[test]
    fn write_in_order_reports_a_panicking_worker_as_an_error() {
        let (text, result) = ordered(2, u64::MAX, 70);
        assert_eq!(result, Err(Failed("panicked".to_string())));
        assert_eq!(
            text,
            (0..CHUNK).map(|i| format!("{i},")).collect::<String>()
        );
    }

    #[test]
    fn on_threads_returns_results_in_thread_order_and_none_for_a_panic() {
        assert_eq!(on_threads(3, |t| t * 10), vec![Some(0), Some(10), Some(20)]);
        assert_eq!(on_threads(0, |t| t), vec![Some(0)]);
        let results = on_threads(2, |t| if t == 1 { panic!("worker {t}") } else { t });
        assert_eq!(results, vec![Some(0), None]);
    }
}
