"""Throughput of `entail.Judge.score_batch` from Python, side by side in one
run with the SLR reference metric's method (one `swipl` process per answer),
and whether two Python threads scoring at once overlap (the GIL is released).

Workloads, from `entail.gen.slr` tasks over all 20 levels:
  (a) one answer per task, (b) 16 answers per task.
Answers are the tasks' own rules and random rules over each task's
vocabulary. Each engine repeats a workload until it has run for at least a
second. Run with: python python/bench/judge_bench.py  (needs swipl)
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import entail

# The reference method ------------------------------------------------------
# Re-implemented from its description, as tests/reference/slr_baseline.rs
# does: whole-word renaming of the label predicates to pos/neg and of the
# train and car constants, examples counted as occurrences of `pos(` and
# `neg(`, a checker counting the examples the rule gets right, one swipl
# process with a 5 s timeout per answer, 0 on any failure.

_CONSTANT = re.compile(r"\b(train\d+|car\d+_\d+)\b")


def _word(text: str, word: str, new: str) -> str:
    return re.sub(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", new, text)


def baseline_score(program: str, hypothesis: str, positive="eastbound", negative="westbound") -> float:
    if positive not in hypothesis:
        return 0.0
    renamed = _word(_word(program, positive, "pos"), negative, "neg")
    renamed = _CONSTANT.sub(lambda m: "my" + m.group(1), renamed)
    examples = renamed.count("pos(") + renamed.count("neg(")
    checker = (
        "\ncheck_count(Count) :-\n"
        f"    (   setof(E, ((pos(E), {positive}(E)) ; (neg(E), \\+ {positive}(E))), Es)\n"
        "    ->  length(Es, Count)\n    ;   Count = 0\n    ).\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".pl", delete=False) as f:
        f.write(f"{renamed}\n{checker}\n{hypothesis}\n")
        path = f.name
    try:
        out = subprocess.run(
            ["timeout", "5", "swipl", "-q", "-g", "check_count(C), write(C), nl", "-t", "halt", path],
            capture_output=True, text=True, stdin=subprocess.DEVNULL,
        ).stdout.strip()
    finally:
        os.unlink(path)
    try:
        count = int(out)
    except ValueError:
        count = 0
    return count / examples if examples else 0.0


# Workloads -----------------------------------------------------------------

_FACT = re.compile(r"^(\w+)\((car\d+_\d+), ([\w.]+)\)\.$", re.M)


def hypotheses(task: dict, rng: random.Random, n: int) -> list:
    """The task's own rule, then random rules over its attribute facts."""
    facts = sorted(set((p, v) for p, _, v in _FACT.findall(task["validation program"])))
    out = [task["ground-truth rule"]]
    while len(out) < n:
        k = rng.randint(1, 3)
        body = ["has_car(T, C)"] + [f"{p}(C, {v})" for p, v in rng.sample(facts, min(k, len(facts)))]
        if rng.random() < 0.3:
            body[-1] = "\\+ " + body[-1]
        out.append(f"eastbound(T) :- {', '.join(body)}.")
    return out[:n]


def rate(judge: entail.Judge, predictions: list, references: list) -> tuple:
    start = time.perf_counter()
    n, total = 0, 0.0
    while time.perf_counter() - start < 1.0:
        results = judge.score_batch(predictions, references)
        n += len(results)
        total += sum(r["partial_score"] for r in results)
    return n / (time.perf_counter() - start), total / n


def baseline_rate(predictions: list, references: list) -> tuple:
    start = time.perf_counter()
    scores = [baseline_score(r["validation program"], p) for p, r in zip(predictions, references)]
    return len(scores) / (time.perf_counter() - start), scores


def main() -> None:
    if shutil.which("swipl") is None:
        sys.exit("swipl not found: run scripts/install-deps")
    rng = random.Random(7)
    tasks = entail.gen.slr(levels=(1, 20), count=6, seed=7)
    workloads = []
    a = [(t, h) for t in tasks for h in hypotheses(t, rng, 1)]
    workloads.append(("(a) 1 answer/task", a, 30))
    b = [(t, h) for t in tasks[::4][:30] for h in hypotheses(t, rng, 16)]
    workloads.append(("(b) 16 answers/task", b, 48))
    one = entail.Judge(workers=1)
    cores = entail.Judge()
    # Start the judges' workers outside the timings.
    for judge in (one, cores):
        judge.score_batch([a[0][1]], [a[0][0]])
    print(f"{len(tasks)} tasks; {os.cpu_count()} cores; python {sys.version.split()[0]}")
    print(f"{'workload':<22} {'1 worker/s':>11} {'all cores/s':>12} {'swipl/s':>9} "
          f"{'1w/swipl':>9} {'all/swipl':>10}  agreement")
    for name, pairs, baseline_n in workloads:
        predictions = [h for _, h in pairs]
        references = [t for t, _ in pairs]
        ours_one, _ = rate(one, predictions, references)
        ours_all, _ = rate(cores, predictions, references)
        theirs, scores = baseline_rate(predictions[:baseline_n], references[:baseline_n])
        mine = [r["partial_score"] for r in one.score_batch(predictions[:baseline_n], references[:baseline_n])]
        agree = sum(abs(x - y) < 1e-9 for x, y in zip(mine, scores))
        print(f"{name:<22} {ours_one:>11.0f} {ours_all:>12.0f} {theirs:>9.1f} "
              f"{ours_one / theirs:>8.0f}x {ours_all / theirs:>9.0f}x  {agree}/{baseline_n}")
    print(f"native engine: {cores.native_stats()}")

    two_at_once(b)


def _scoring_time(pairs: list, start: "threading.Barrier | None" = None) -> float:
    """Seconds one one-worker judge takes to score ``pairs`` 20 times over."""
    predictions = [h for _, h in pairs] * 20
    references = [t for t, _ in pairs] * 20
    judge = entail.Judge(workers=1)
    judge.score_batch(predictions[:1], references[:1])
    if start is not None:
        start.wait()
    begin = time.perf_counter()
    judge.score_batch(predictions, references)
    return time.perf_counter() - begin


def _in_process(pairs: list, start, out) -> None:
    out.put(_scoring_time(pairs, start))


def two_at_once(pairs: list) -> None:
    """Two Python threads scoring at once take about as long as one alone
    if the GIL is released. Two processes at once are the control: on a
    busy machine neither pair can reach 1.0."""
    import multiprocessing

    alone = _scoring_time(pairs)
    barrier = threading.Barrier(2)
    times = []
    threads = [threading.Thread(target=lambda: times.append(_scoring_time(pairs, barrier)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(2), context.Queue()
    processes = [context.Process(target=_in_process, args=(pairs, start, out)) for _ in range(2)]
    for p in processes:
        p.start()
    process_times = [out.get() for _ in processes]
    for p in processes:
        p.join()
    n = 20 * len(pairs)
    print(f"{n} answers each, one-worker judges: alone {alone:.2f} s; "
          f"two threads at once {max(times):.2f} s (ratio {max(times) / alone:.2f}); "
          f"two processes at once {max(process_times):.2f} s (ratio {max(process_times) / alone:.2f}); "
          "1.0 = fully parallel, 2.0 = serialised")


if __name__ == "__main__":
    main()
