"""The README's "From Python" examples run, and print what their comments
say. TRL and `datasets` are replaced by stand-ins: `load_dataset` yields
SLR-Bench-shaped rows made by `entail.gen.slr`, and `GRPOTrainer.train`
calls the reward functions the way TRL's trainer does."""

import contextlib
import io
import re
import sys
import types

import entail

CALLS = []


def fake_modules():
    datasets = types.ModuleType("datasets")

    def load_dataset(name, config=None, split=None):
        return entail.gen.slr(levels=(1, 3), count=1, seed=11, threads=1)

    datasets.load_dataset = load_dataset
    trl = types.ModuleType("trl")

    class GRPOConfig:
        def __init__(self, output_dir, num_generations=8, **kwargs):
            self.num_generations = num_generations

    class GRPOTrainer:
        def __init__(self, model, reward_funcs, args, train_dataset):
            self.reward_funcs = reward_funcs if isinstance(reward_funcs, list) else [reward_funcs]
            self.args, self.dataset = args, train_dataset

        def train(self):
            g = self.args.num_generations
            inputs = [row for row in self.dataset for _ in range(g)]
            completions = [
                row["ground-truth rule"] if k % 2 == 0 else "eastbound(T) :- has_car(T, _)."
                for k, row in enumerate(inputs)
            ]
            keys = [k for k in inputs[0] if k != "prompt"]
            for func in self.reward_funcs:
                rewards = func(
                    prompts=[x["prompt"] for x in inputs],
                    completions=completions,
                    completion_ids=[[0]] * len(inputs),
                    **{k: [x[k] for x in inputs] for k in keys},
                )
                CALLS.append((func.__name__, inputs, completions, rewards))

    trl.GRPOConfig, trl.GRPOTrainer = GRPOConfig, GRPOTrainer
    return {"datasets": datasets, "trl": trl}


def blocks(readme: str, start: str = "## From Python", end: str = "## Measured"):
    section = readme[readme.index(start):readme.index(end)]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def expected_output(code: str):
    """Each print's comment: on its own line's end, or on the next line."""
    out, lines = [], code.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("print("):
            m = re.search(r"\)\s*# (.*)$", line)
            if m:
                out.append(m.group(1))
            elif i + 1 < len(lines) and lines[i + 1].startswith("# "):
                out.append(lines[i + 1][2:])
    return out


def test_readme_examples_run(root, monkeypatch):
    monkeypatch.chdir(root)
    for name, module in fake_modules().items():
        monkeypatch.setitem(sys.modules, name, module)
    readme = (root / "README.md").read_text()
    quick = blocks(readme, "## Quick start from Python", "## Quick start\n")
    codes = blocks(readme)
    assert len(quick) == 1 and len(codes) == 4
    codes = quick + codes
    namespace = {}
    for code in codes:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, "README.md", "exec"), namespace)
        assert printed.getvalue().splitlines() == expected_output(code), code
    # The trainer's reward call got the judge's scores.
    (name, inputs, completions, rewards), = CALLS
    assert name == "trl_slr"
    want = entail.compute(completions, inputs)["detailed_results"]
    assert rewards == [r["partial_score"] for r in want]
    assert rewards[0] == 1.0 and len(rewards) == 3 * 8
