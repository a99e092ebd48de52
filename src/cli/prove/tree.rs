//! `entail prove TREE`: every LogicGraph instance under a directory, in one
//! process, one line (or JSON object) each, in path order.

use super::{options, Args};
use crate::cli::{Exit, Failure, Outcome};
use entail::gen::logicgraph::{Instances, TreeOptions};
use entail::prove::CheckReport;

/// What a tree's line says of an instance.
#[derive(serde::Serialize)]
struct Line<'a> {
    /// The instance directory, relative to the tree.
    instance: &'a str,
    /// `verified`, `refuted` or `unknown` (see [`CheckReport::all_good`]).
    status: &'static str,
    #[serde(flatten)]
    report: &'a CheckReport,
}

/// Instances by outcome.
#[derive(Default, serde::Serialize)]
struct Summary {
    instances: usize,
    verified: usize,
    refuted: usize,
    unknown: usize,
    /// Instances that could not be read (each reported on stderr).
    unreadable: usize,
}

pub(super) fn run(args: &Args) -> Outcome {
    let root = &args.path;
    let instances = Instances::find(root).map_err(|e| Failure::new(e.to_string()))?;
    let dirs = &instances.dirs;
    if dirs.is_empty() {
        return Err(Failure::new(format!(
            "{}: no LogicGraph instance (a directory with complete.json) under it",
            root.display()
        )));
    }
    let (prove, supports) = options(args).map_err(|e| Failure::new(e.to_string()))?;
    let threads = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let tree = TreeOptions {
        prove,
        supports,
        instantiated: args.instantiated,
        threads,
    };
    let bar = crate::cli::progress::bar(dirs.len() as u64, "instances");
    let mut summary = Summary {
        instances: dirs.len(),
        ..Summary::default()
    };
    let mut written = Ok(());
    instances.check(&tree, |i, result| {
        bar.inc(1);
        let dir = &dirs[i];
        let report = match result {
            Ok(report) => report,
            Err(e) => {
                summary.unreadable += 1;
                bar.suspend(|| eprintln!("{}", e.in_file(dir.path.display().to_string())));
                return true;
            }
        };
        let status = match report.all_good() {
            Some(true) => {
                summary.verified += 1;
                "verified"
            }
            Some(false) => {
                summary.refuted += 1;
                "refuted"
            }
            None => {
                summary.unknown += 1;
                "unknown"
            }
        };
        let line = Line {
            instance: &dir.name,
            status,
            report: &report,
        };
        if !args.json {
            outln!("{}: {status}", line.instance);
            return true;
        }
        match serde_json::to_string(&line) {
            Ok(text) => outln!("{text}"),
            Err(e) => written = Err(e),
        }
        written.is_ok()
    });
    bar.finish_and_clear();
    written.map_err(|e| Failure::new(format!("cannot write a report as JSON: {e}")))?;
    if args.json {
        let text = serde_json::to_string(&summary)
            .map_err(|e| Failure::new(format!("cannot write the summary as JSON: {e}")))?;
        eprintln!("{text}");
    } else {
        let noun = if summary.instances == 1 {
            "instance"
        } else {
            "instances"
        };
        eprintln!(
            "{} {noun}: {} verified, {} refuted, {} unknown, {} unreadable",
            summary.instances,
            summary.verified,
            summary.refuted,
            summary.unknown,
            summary.unreadable
        );
    }
    Ok(if summary.refuted > 0 {
        Exit::Refuted
    } else if summary.unknown > 0 {
        Exit::Unknown
    } else {
        Exit::Done
    })
}
