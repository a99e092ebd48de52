#!/usr/bin/env python3
"""Benchmark: three-way answers on FOLIO-size programs, `entail prove
--three-way --batch` (one process) against LADR Prover9 run the pipelines'
way (two `prover9` processes per problem: the goal, then its negation).

The problems are generated here, deterministically from --seed: 3-8
premises over a few unary and binary predicates, 1-3 quantifiers per
premise at most, constants of any spelling (some starting u-z). Each is
printed twice: in FOLIO notation for entail, and as a careful LADR
translation (u-z constants renamed, xor as -(a <-> b)) for Prover9, whose
proofs are read from its output (a printed proof counts whatever the exit
status). Verdicts must be identical.

    python3 scripts/fol_bench.py --entail target/release/entail --prover9 prover9 [--count 200]

With --python, also the median latency of `entail.fol.solve` (the package
must be importable).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

UNARY = ["Student", "Young", "Happy", "Rich", "Tall", "Kind", "Smart", "Busy"]
BINARY = ["Likes", "Knows", "Helps"]
CONSTANTS = ["ann", "bob", "yale", "walden", "xavier", "carl", "zoe", "mia"]


# Formulas as tuples: ("atom", P, args) | ("not", f) | (op, f, g) | (q, var, f)
def atom(p, *args):
    return ("atom", p, list(args))


def folio(f):
    kind = f[0]
    if kind == "atom":
        return f"{f[1]}({', '.join(f[2])})" if f[2] else f[1]
    if kind == "not":
        return f"¬{folio(f[1])}"
    if kind in ("all", "exists"):
        return f"{'∀' if kind == 'all' else '∃'}{f[1]} ({folio(f[2])})"
    sym = {"and": "∧", "or": "∨", "xor": "⊕", "imp": "→", "iff": "↔"}[kind]
    return f"({folio(f[1])} {sym} {folio(f[2])})"


def ladr_name(name, bound):
    if name in bound:
        return name
    return "c_" + name if name[0] in "uvwxyz" else name


def ladr(f, bound=()):
    kind = f[0]
    if kind == "atom":
        args = [ladr_name(a, bound) for a in f[2]]
        return f"{f[1]}({', '.join(args)})" if args else f[1]
    if kind == "not":
        return f"-({ladr(f[1], bound)})"
    if kind in ("all", "exists"):
        return f"({kind} {f[1]} ({ladr(f[2], bound + (f[1],))}))"
    if kind == "xor":
        return f"-(({ladr(f[1], bound)}) <-> ({ladr(f[2], bound)}))"
    sym = {"and": "&", "or": "|", "imp": "->", "iff": "<->"}[kind]
    return f"(({ladr(f[1], bound)}) {sym} ({ladr(f[2], bound)}))"


def premise(rng, preds, consts):
    p, q, r = rng.sample(preds, 3)
    b = rng.choice(BINARY)
    c, d = rng.sample(consts, 2)
    x = atom
    forms = [
        lambda: ("all", "x", ("imp", x(p, "x"), x(q, "x"))),
        lambda: ("all", "x", ("imp", ("and", x(p, "x"), x(q, "x")), x(r, "x"))),
        lambda: ("all", "x", ("imp", ("or", x(p, "x"), x(q, "x")), x(r, "x"))),
        lambda: ("all", "x", ("imp", x(p, "x"), ("not", x(q, "x")))),
        lambda: ("all", "x", ("xor", x(p, "x"), x(q, "x"))),
        lambda: ("exists", "x", ("and", x(p, "x"), x(q, "x"))),
        lambda: ("all", "x", ("all", "y", ("imp", x(b, "x", "y"), x(p, "y")))),
        lambda: ("all", "x", ("imp", x(p, "x"), ("exists", "y", x(b, "x", "y")))),
        lambda: ("all", "x", ("imp", ("exists", "y", ("and", x(b, "x", "y"), x(q, "y"))), x(r, "x"))),
        lambda: x(p, c),
        lambda: x(p, c),
        lambda: ("not", x(q, c)),
        lambda: x(b, c, d),
        lambda: ("or", x(p, c), x(q, c)),
        lambda: ("xor", x(p, c), x(q, d)),
    ]
    return rng.choice(forms)()


def conclusion(rng, preds, consts):
    p, q = rng.sample(preds, 2)
    c = rng.choice(consts)
    forms = [
        lambda: atom(p, c),
        lambda: ("not", atom(p, c)),
        lambda: ("and", atom(p, c), atom(q, c)),
        lambda: ("exists", "x", ("and", atom(p, "x"), atom(q, "x"))),
        lambda: ("imp", atom(p, c), atom(q, c)),
    ]
    return rng.choice(forms)()


def problems(count, seed):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        preds = rng.sample(UNARY, rng.randint(3, 5))
        consts = rng.sample(CONSTANTS, 3)
        premises = [premise(rng, preds, consts) for _ in range(rng.randint(3, 8))]
        goal = conclusion(rng, preds, consts)
        out.append({"id": i, "premises": premises, "conclusion": goal})
    return out


def prover9_proves(prover9, assumptions, goal, seconds):
    text = "formulas(assumptions).\n" + "".join(f"{a}.\n" for a in assumptions)
    text += f"end_of_list.\nformulas(goals).\n{goal}.\nend_of_list.\n"
    text = f"assign(max_seconds, {seconds}).\n" + text
    run = subprocess.run([prover9], input=text, capture_output=True, text=True)
    return "============================== PROOF" in run.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entail", default="target/release/entail")
    ap.add_argument("--prover9", default="prover9")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--python", action="store_true")
    args = ap.parse_args()

    items = problems(args.count, args.seed)
    lines = [
        json.dumps({"id": p["id"], "premises": [folio(f) for f in p["premises"]],
                    "conclusion": folio(p["conclusion"])}, ensure_ascii=False)
        for p in items
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in.jsonl")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        started = time.perf_counter()
        run = subprocess.run(
            [args.entail, "prove", "--three-way", "--batch", path, "--workers", str(args.workers),
             "--no-countermodels", "--timeout", str(args.seconds)],
            capture_output=True, text=True, check=True)
        entail_seconds = time.perf_counter() - started
    ours = [json.loads(l)["answer"] for l in run.stdout.splitlines()]

    started = time.perf_counter()
    theirs = []
    for p in items:
        assumptions = [ladr(f) for f in p["premises"]]
        goal = ladr(p["conclusion"])
        if prover9_proves(args.prover9, assumptions, goal, args.seconds):
            theirs.append("True")
        elif prover9_proves(args.prover9, assumptions, f"-({goal})", args.seconds):
            theirs.append("False")
        else:
            theirs.append("Uncertain")
    prover9_seconds = time.perf_counter() - started

    differ = [(i, a, b) for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    counts = {a: ours.count(a) for a in ("True", "False", "Uncertain", "Error")}
    print(f"problems: {len(items)}; entail answers: {counts}")
    print(f"entail batch: {entail_seconds:.3f} s ({1000 * entail_seconds / len(items):.2f} ms/problem)")
    print(f"prover9 x2 per problem: {prover9_seconds:.3f} s ({1000 * prover9_seconds / len(items):.2f} ms/problem)")
    print(f"ratio: {prover9_seconds / entail_seconds:.1f}x; verdicts differ on {len(differ)}")
    for i, a, b in differ[:10]:
        print(f"  problem {i}: entail {a}, prover9 {b}: {lines[i]}")

    if args.python:
        import entail

        texts = [json.loads(l) for l in lines]
        entail.fol.solve(premises=texts[0]["premises"], conclusion=texts[0]["conclusion"])
        times = []
        for t in texts:
            started = time.perf_counter()
            entail.fol.solve(premises=t["premises"], conclusion=t["conclusion"], countermodels=False)
            times.append(time.perf_counter() - started)
        print(f"entail.fol.solve median latency: {1000 * statistics.median(times):.3f} ms "
              f"(p90 {1000 * sorted(times)[int(0.9 * len(times))]:.3f} ms)")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
