"""The judge across processes and signals: a forked child (``os.fork``, a
fork ``multiprocessing.Pool``, verl's prime manager) scores exactly as the
parent does, with scryer workers of its own, after the parent has used
every engine; Ctrl-C cuts a batch short without waiting for the answers
under way."""

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import entail

SHORT_RED = "eastbound(T) :- has_car(T, C), car_color(C, red)."
LONG = "eastbound(T) :- has_car(T, C), car_len(C, long)."
SHORT = "eastbound(T) :- has_car(T, C), car_len(C, short)."
ANSWERS = [SHORT_RED, LONG, SHORT, "eastbound(T) :- has_car(T, _).", "eastbound(train0)."]
#: What the parent scores them (checked below against a fresh judge).
SCORES = [1.0, 0.75, 0.5, 0.5, 0.0]

# Judges made before any fork, one per engine, both used by the parent. The
# wall-clock cap (a scryer worker's backstop) is raised: the answers need
# milliseconds, but forked children start their own workers on a machine
# that may be busy.
JUDGES = {engine: entail.Judge(workers=2, engine=engine, timeout=120.0)
          for engine in ("auto", "scryer")}


@pytest.fixture(scope="module")
def task(root):
    return json.loads((root / "corpora/slr/task_l1.json").read_text())


def score_all(judge, task):
    return [r["partial_score"] for r in judge.score_batch(ANSWERS * 3, task)]


@pytest.fixture(scope="module")
def used(task):
    """The parent has scored with both engines: scryer workers are running."""
    for judge in JUDGES.values():
        assert score_all(judge, task) == SCORES * 3
    return JUDGES


def child_scores(judge, task):
    """Forks; the child scores and sends its scores back; meanwhile the
    parent scores too, on the same judge."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.close(read)
            scores = score_all(judge, task)
            os.write(write, json.dumps(scores).encode())
        except BaseException:  # noqa: BLE001 - anything, reported by the exit code
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    parent = score_all(judge, task)
    chunks = []
    while True:
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return parent, json.loads(b"".join(chunks))


@pytest.mark.parametrize("engine", ["auto", "scryer"])
def test_os_fork_child_scores_as_the_parent(used, task, engine):
    parent, child = child_scores(used[engine], task)
    assert parent == SCORES * 3
    assert child == SCORES * 3
    # The parent's workers still answer it, and only it.
    assert score_all(used[engine], task) == SCORES * 3


def _pool_score(args):
    engine, answer, task = args
    return JUDGES[engine].score(answer, task)["partial_score"]


@pytest.mark.parametrize("engine", ["auto", "scryer"])
def test_fork_pool_children_score_as_the_parent(used, task, engine):
    items = [(engine, answer, task) for answer in ANSWERS * 4]
    with multiprocessing.get_context("fork").Pool(3) as pool:
        got = pool.map(_pool_score, items, chunksize=1)
    assert got == SCORES * 4
    assert score_all(used[engine], task) == SCORES * 3


def test_prime_manager_in_a_fork_process_pool(used, task):
    """verl's prime manager: `compute_score(data_source, solution, ground
    truth, extra_info)` in a fork ProcessPoolExecutor; a result that is not
    a number is read as `result[0]`."""
    from concurrent.futures import ProcessPoolExecutor

    from entail.rewards import verl_slr

    def read(result):
        if isinstance(result, (int, float, bool)):
            return float(result)
        return float(result[0])

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as executor:
        futures = [
            executor.submit(verl_slr, "slr", answer, json.dumps(task), None)
            for answer in ANSWERS
        ]
        got = [read(f.result()) for f in futures]
    assert got == SCORES


def test_ctrl_c_does_not_wait_for_the_answers_under_way(tmp_path):
    """SIGINT while every worker thread waits on a scryer worker running an
    answer that would take the whole 60 s `timeout`: KeyboardInterrupt comes
    well before that timeout."""
    script = tmp_path / "batch.py"
    script.write_text(textwrap.dedent("""
        import sys, time
        import entail
        program = "eastbound(train0).\\nhas_car(train0, car0_1).\\nwestbound(train1).\\n"
        judge = entail.Judge(workers=2, engine="scryer", timeout=60.0,
                             inference_limit=10**15)
        assert judge.score("eastbound(T) :- has_car(T, _).", program)["is_correct"]
        print("ready", flush=True)
        try:
            judge.score_batch(["eastbound(T) :- eastbound(T)."] * 4, program)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(0)
        sys.exit(3)
    """))
    process = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # the answers are under way in scryer
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=50)
        waited = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 0, out
    assert out.strip() == "interrupted"
    # Without the cancel flag the batch waits for the 60 s timeout.
    assert waited < 20, waited


@pytest.mark.parametrize("call", [
    "entail.divlogic.generate(count=100000, seed=1, threads=1)",
    "entail.logicon.generate(count=10**6, seed=1, threads=1)",
    "entail.logicgraph.generate(count=100000, seed=1, threads=1)",
    "entail.slr.generate(level=5, count=100000, seed=1, threads=1)",
])
def test_ctrl_c_stops_a_generator(call):
    """SIGINT during a generator run far too long to finish: a
    KeyboardInterrupt, not the run's end."""
    script = textwrap.dedent(f"""
        import sys
        import entail
        entail.divlogic.generate(count=1, seed=0, threads=1)  # loads the extension
        print("ready", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(0)
        sys.exit(3)
    """)
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # the run is under way
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, out
    assert out.strip() == "interrupted"
