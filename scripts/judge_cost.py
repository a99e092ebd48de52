#!/usr/bin/env python3
"""Side by side, in one run: the CPU of `entail judge --batch` on 1,000
answers, with and without 5% of them long (up to 64 KB: floods of drafts,
distinct drafts, distinct names, backticks, fences, comments), and the peak memory of one
answer at the 16 MiB line cap against its size.

    python3 scripts/judge_cost.py [path/to/entail]

Prints the CPU ratio (goal: at most 2x) and each peak-memory ratio (goal:
at most 10x the answer).
"""
import json, os, random, resource, subprocess, sys, tempfile

ENTAIL = sys.argv[1] if len(sys.argv) > 1 else "target/release/entail"
TASK = json.load(open("corpora/slr/task_l1.json"))
ORDINARY = [
    "eastbound(T) :- has_car(T, C), car_color(C, red).",
    "<think>Maybe long cars.</think>\n```prolog\neastbound(T) :- has_car(T, C), car_len(C, long).\n```",
    "The rule is: eastbound(T) :- has_car(T, C), car_len(C, short).</s>",
    "[RULE]\neastbound(T) :- has_car(T, C), car_color(C, blue).\n[/RULE]",
]


def flood(kind, size):
    rule = ORDINARY[0] + "\n"
    unit = {
        "drafts": "eastbound(T) :- has_car(T, C), car_num(C, 1).\n",
        "names": None,
        "numbered": None,
        "backticks": "`",
        "fences": "```\n",
        "comments": "% eastbound(T) :- a.\n",
        "facts": "has_car(train0, car0_1).\n",
    }[kind]
    if unit is None:
        text, i, length = [], 0, 0
        while length < size:
            # Distinct names (facts no reader loads), or distinct rules,
            # each of which the reference loads and runs.
            text.append(f"p_{i:06}(c).\n" if kind == "names"
                        else f"eastbound(T) :- has_car(T, C), car_num(C, {i}).\n")
            length += len(text[-1])
            i += 1
        return rule + "".join(text)
    return rule + unit * (size // len(unit))


def batch(path, answers):
    with open(path, "w") as f:
        for a in answers:
            f.write(json.dumps({**TASK, "prediction": a}) + "\n")


def run(path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([ENTAIL, "judge", "--batch", path, "--output", os.devnull],
                   stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def peak(path):
    out = subprocess.run(["/usr/bin/time", "-f", "%M", ENTAIL, "judge", "--batch", path,
                          "--output", os.devnull], stderr=subprocess.PIPE, text=True)
    return int(out.stderr.strip().splitlines()[-1]) * 1024


rng = random.Random(50)
kinds = ["drafts", "numbered", "names", "backticks", "fences", "comments", "facts"]
# Distinct texts (a comment apart), so no answer is a repeat of another.
plain = [f"{rng.choice(ORDINARY)}\n% answer {i}" for i in range(1000)]
costly = list(plain)
for i in rng.sample(range(1000), 50):
    costly[i] = flood(rng.choice(kinds), rng.randint(16 << 10, 64 << 10))
with tempfile.TemporaryDirectory() as d:
    a, b = os.path.join(d, "plain.jsonl"), os.path.join(d, "costly.jsonl")
    batch(a, plain)
    batch(b, costly)
    runs = [(run(a), run(b)) for _ in range(3)]
    base = min(r[0] for r in runs)
    more = min(r[1] for r in runs)
    print(f"1,000 answers: {base:.3f} s CPU; with 5% up to 64 KB: {more:.3f} s ({more / base:.2f}x)")
    for kind in os.environ.get("KINDS", ",".join(kinds)).split(","):
        p = os.path.join(d, f"{kind}.jsonl")
        batch(p, [flood(kind, (16 << 20) - 4096)])
        empty = os.path.join(d, "empty.jsonl")
        batch(empty, [ORDINARY[0]])
        size = os.path.getsize(p)
        grown = peak(p) - peak(empty)
        print(f"16 MiB of {kind}: peak {grown / 2**20:.0f} MiB above an ordinary answer ({grown / size:.1f}x the line)")
