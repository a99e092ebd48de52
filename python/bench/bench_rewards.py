"""The LogicGraph, LogiConBench and DivLogicEval rewards side by side, in one
run, with a straightforward Python implementation of each paper's scoring on
the same answers: agreement (every reward equal) and time, with the ratio.

The Python side reads answers with regular expressions and checks logic by
truth tables over the atoms involved (all three benchmarks are
propositional); entail's side is `entail.<benchmark>.rewards` (Rust: the
answer readers of `entail score`, Z3 for LogicGraph steps, truth tables for
LogiConBench). Answers: each item's gold answer and a corrupted one.

Run with: python python/bench/bench_rewards.py [--scale 1]
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import entail  # noqa: E402
from test_bench import corrupt  # noqa: E402  (the tests' corruptions)

# --- Propositional formulas: ¬ - ∧ & ∨ | → -> ↔ <-> -------------------------

_TOKEN = re.compile(r"\s*(<->|->|↔|→|∧|∨|¬|[-&|()]|[A-Za-z_][A-Za-z0-9_]*)")
_BINARY = [("↔", "<->"), ("→", "->"), ("∨", "|"), ("∧", "&")]  # loosest first


def parse(text):
    tokens, at = [], 0
    text = text.strip()
    while at < len(text):
        m = _TOKEN.match(text, at)
        if not m:
            raise ValueError(f"cannot read {text!r} at {at}")
        tokens.append(m.group(1))
        at = m.end()
    tree, rest = _parse(tokens, 0)
    if rest:
        raise ValueError(f"trailing {rest!r} in {text!r}")
    return tree


def _parse(tokens, level):
    if level == len(_BINARY):
        return _unary(tokens)
    left, rest = _parse(tokens, level + 1)
    while rest and rest[0] in _BINARY[level]:
        right, rest = _parse(rest[1:], level if level == 1 else level + 1)  # -> groups right
        left = (_BINARY[level][1], left, right)
    return left, rest


def _unary(tokens):
    head, rest = tokens[0], tokens[1:]
    if head in ("¬", "-"):
        inner, rest = _unary(rest)
        return ("-", inner), rest
    if head == "(":
        inner, rest = _parse(rest, 0)
        return inner, rest[1:]
    return head, rest


def atoms(f):
    return {f} if isinstance(f, str) else set().union(*(atoms(g) for g in f[1:]))


def value(f, row):
    if isinstance(f, str):
        return row[f]
    op = f[0]
    if op == "-":
        return not value(f[1], row)
    a, b = value(f[1], row), value(f[2], row)
    return {"&": a and b, "|": a or b, "->": (not a) or b, "<->": a == b}[op]


def entails(premises, conclusion):
    names = sorted(set().union(atoms(conclusion), *(atoms(p) for p in premises)))
    for bits in itertools.product((False, True), repeat=len(names)):
        row = dict(zip(names, bits))
        if all(value(p, row) for p in premises) and not value(conclusion, row):
            return False
    return True


# --- LogicGraph: success, precision, diversity --------------------------------

_HEADER = re.compile(r"^\**\s*(?:Solution|Path)\s*\[?(\d+)\]?\s*:", re.I)
_STEP = re.compile(r"^\s*Step\s*(\d+)\s*:\s*\[?([^\]=]*?)\]?\s*=>\s*(.*?)\s*(?:\(Used:.*\))?\s*$", re.I)


def lg_solutions(text):
    paths = []
    for line in text.splitlines():
        if _HEADER.match(line):
            paths.append([])
        elif (m := _STEP.match(line)):
            if not paths:
                paths.append([])
            cites = [c.replace(" ", "") for c in m.group(2).split(",") if c.strip()]
            paths[-1].append((int(m.group(1)), cites, m.group(3)))
    return [p for p in paths if p]


def lg_check(steps, premises, target):
    """(valid, support) of one path."""
    concluded, support_of = {}, {}
    try:
        for number, cites, conclusion in steps:
            used, support = [], set()
            for c in cites:
                if c.lower().startswith("step"):
                    k = int(c[4:])
                    used.append(concluded[k])
                    support |= support_of[k]
                else:
                    used.append(premises[c])
                    support.add(c)
            f = parse(conclusion)
            if not entails(used, f):
                return False, set()
            concluded[number], support_of[number] = f, support
        last = steps[-1][0]
        valid = entails([concluded[last]], target) and entails([premises[s] for s in support_of[last]], target)
        return valid, support_of[last]
    except (KeyError, ValueError, IndexError):
        return False, set()


def lg_reward(item, answer):
    kb = item["complete"]["knowledge_base"]
    premises = {p["id"]: parse(p["formal"]) for p in kb["rules"] + kb["facts"]}
    target = parse(item["complete"]["target"]["formal"])
    gold = set()
    for path in lg_solutions(entail.logicgraph.gold_answer(item)):
        ok, support = lg_check(path, premises, target)
        if ok:
            gold.add(frozenset(support))
    checked = [lg_check(p, premises, target) for p in lg_solutions(answer)]
    valid = [frozenset(s) for ok, s in checked if ok]
    success = 1.0 if valid else 0.0
    precision = len(valid) / len(checked) if checked else 0.0
    diversity = len(set(valid) & gold) / len(gold) if gold else 0.0
    return (success + precision + diversity) / 3


# --- LogiConBench: exact match, F1, consistency --------------------------------

def lc_reward(item, answer):
    focus = answer.split("Answer:")[-1] if "answer:" in answer.lower() else answer
    if "groups" in item:  # Task 3
        lines = [l for l in focus.splitlines() if l.strip()]
        statements = {}
        for line in lines:
            m = re.match(r"\s*Group\s*(\d+)\s*:\s*(.*)$", line, re.I)
            if m:
                statements[int(m.group(1))] = m.group(2).strip()
        if sorted(statements) != list(range(1, item["n"] + 1)):
            return 0.0
        row = {a: v == "T" for a, v in item["assignment"].items()}
        shares = 1.0
        for i, group in enumerate(item["groups"], 1):
            try:
                f = parse(statements[i])
            except (ValueError, IndexError):
                return 0.0
            facts = [parse(x["symbolic"]) for x in group["facts"]]
            if not atoms(f) <= set(group["atoms"]) or f in facts:
                return 0.0
            if not value(f, row):
                return 0.0
            shares *= sum(value(x, row) for x in facts) / len(facts)
        return shares
    query = item.get("query")
    words = re.findall(r"[A-Za-z]+", focus.lower())
    if query and query.get("hidden") is not None:  # completion
        labels = [w.upper() for w in words if w in ("t", "f", "true", "false")]
        return float(bool(labels) and labels[-1][0] == query["answer"])
    if query:  # Task 1 on a hard sample
        verdict = None
        for i, w in enumerate(words):
            negated = i > 0 and words[i - 1] in ("not", "isn", "never")
            if w in ("consistent", "satisfiable"):
                verdict = "inconsistent" if negated else "consistent"
            elif w in ("inconsistent", "unsatisfiable"):
                verdict = "consistent" if negated else "inconsistent"
        return float(verdict == query["answer"])
    predicted = {tuple(re.findall(r"[TF]", g)) for g in re.findall(r"\[([^\[\]]*)\]", focus)}
    predicted = {p for p in predicted if len(p) == item["k"]}
    gold = {tuple(l) for l in item["consistent_lists"]}
    hits = len(predicted & gold)
    p = hits / len(predicted) if predicted else 0.0
    r = hits / len(gold) if gold else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


# --- DivLogicEval: accuracy, PartialCircular over rotations ---------------------

def dl_rewards(questions, answers):
    picks = []
    for a in answers:
        m = re.search(r"answer:\s*\**\(?([A-Da-d])\b", a, re.I)
        picks.append("ABCD".index(m.group(1).upper()) if m else None)
    groups = {}
    for i, q in enumerate(questions):
        groups.setdefault(q["id"].rsplit("-r", 1)[0], []).append(i)
    factor = [1.0] * len(questions)
    for members in groups.values():
        if len({questions[i]["id"] for i in members}) != 4:
            continue
        chosen = Counter(questions[i]["options"][picks[i]]["symbolic"] if picks[i] is not None else None
                         for i in members)
        f = 1 + sum(n / len(members) * math.log(n / len(members), 4) for n in chosen.values())
        for i in members:
            factor[i] = f
    return [factor[i] if picks[i] == q["answer"] else 0.0 for i, q in enumerate(questions)]


# --- The run -------------------------------------------------------------------

def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=int, default=1)
    s = parser.parse_args().scale
    data = {
        "logicgraph": entail.logicgraph.generate(count=10 * s, seed=1, tier="small"),
        "logicon": entail.logicon.generate(variant="hard", count=100 * s, seed=1)
        + entail.logicon.generate(count=100 * s, seed=1)
        + entail.logicon.generate(task="generative", count=50 * s, seed=1),
        "divlogic": entail.divlogic.generate(count=50 * s, seed=1, rotations=True),
    }
    print(f"{'benchmark':<11} {'answers':>7} {'agree':>7} {'entail s':>9} {'python s':>9} {'ratio':>7}")
    for name, items in data.items():
        m = getattr(entail, name)
        answers = []
        for item in items:
            gold = m.gold_answer(item)
            answers += [(item, gold), (item, corrupt(name, item, gold))]
        truths = [m.ground_truth(i) for i, _ in answers]
        texts = [a for _, a in answers]
        ours, t_ours = timed(lambda: [r["score"] for r in m.rewards(texts, truths)])
        if name == "divlogic":
            theirs, t_theirs = timed(lambda: dl_rewards([i for i, _ in answers], texts))
        else:
            fn = lg_reward if name == "logicgraph" else lc_reward
            theirs, t_theirs = timed(lambda: [fn(i, a) for i, a in answers])
        agree = sum(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(ours, theirs))
        print(f"{name:<11} {len(answers):>7} {agree:>7} {t_ours:>9.3f} {t_theirs:>9.3f} "
              f"{t_theirs / t_ours:>6.1f}x")
        for (item, text), a, b in zip(answers, ours, theirs):
            if not math.isclose(a, b, abs_tol=1e-9):
                print(f"  {item['id']}: entail {a:.4f}, python {b:.4f}")
                break


if __name__ == "__main__":
    main()
