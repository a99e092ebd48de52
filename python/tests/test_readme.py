"""The README and docs/ do what they say.

- The Python examples (the README's quick start, docs/python.md) run, and
  print what their comments say. TRL and `datasets` are replaced by
  stand-ins: `load_dataset` yields SLR-Bench-shaped rows made by
  `entail.gen.slr`, and `GRPOTrainer.train` calls the reward functions the
  way TRL's trainer does.
- Every relative link of README.md and docs/*.md names a file that exists,
  and a `#fragment` names a heading of that file.
- Every `sh` block of the README runs (with `entail` the built binary),
  except the set-up commands; the quick start's judge prints, on a
  terminal, exactly the lines the README shows under it."""

import contextlib
import io
import os
import pty
import re
import shlex
import subprocess
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


def blocks(text: str, start: str = None, end: str = None, lang: str = "python"):
    if start is not None:
        text = text[text.index(start):text.index(end)]
    return re.findall(r"```" + lang + r"\n(.*?)```", text, re.S)


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
    quick = blocks(readme, "## Quick start from Python", "## Benchmarks")
    codes = blocks((root / "docs" / "python.md").read_text())
    assert len(quick) == 1 and len(codes) == 5
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


def markdown_files(root):
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def anchors(path):
    """GitHub's heading anchors of a Markdown file."""
    out = set()
    for line in re.sub(r"```.*?```", "", path.read_text(), flags=re.S).splitlines():
        m = re.match(r"#+ (.*)", line)
        if m:
            title = m.group(1).strip().lower()
            title = re.sub(r"[^\w\- ]", "", title)
            out.add(title.replace(" ", "-"))
    return out


def test_relative_links_resolve(root):
    checked = 0
    for page in markdown_files(root):
        text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, fragment = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(root)}: {target}"
            assert dest.exists(), f"{where}: no such file"
            if fragment and dest.suffix == ".md":
                assert fragment in anchors(dest), f"{where}: no such heading"
            checked += 1
    assert checked > 50


def test_readme_is_short(root):
    assert len((root / "README.md").read_text().splitlines()) <= 300


def on_terminal(argv, cwd):
    """Runs argv with stdout on a pseudo-terminal; returns what it printed
    (stdout and stderr, as a terminal shows them) and its exit status."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    text = b"".join(chunks).decode().replace("\r\n", "\n")
    return screen(text), proc.wait()


#: A frame of the progress bar (`src/cli/progress.rs`): its clock first.
BAR_FRAME = re.compile(r"^\d{2}:\d{2}:\d{2} \[")


def screen(text):
    """The lines a terminal is left showing: each line as its last carriage
    return leaves it, erase sequences applied, and no progress-bar frame
    (the bar draws only when a run is slow to start, and clears itself)."""
    lines = []
    for line in text.split("\n"):
        line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line.split("\r")[-1])
        if not BAR_FRAME.match(line):
            lines.append(line)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n"


def test_quick_start_prints_what_the_readme_shows(root, entail_bin):
    readme = (root / "README.md").read_text()
    section = readme[readme.index("## Quick start\n"):readme.index("## One example")]
    (commands,) = blocks(section, lang="sh")
    first = commands.splitlines()[0]
    judge = first.split("&&")[-1].split()
    assert judge[0] == "target/release/entail"
    (shown,) = blocks(section, lang="text")
    printed, status = on_terminal([entail_bin, *judge[1:]], root)
    assert status == 0
    assert printed.splitlines() == shown.splitlines()


def test_readme_commands_run(root, entail_bin, tmp_path):
    readme = (root / "README.md").read_text()
    section = readme[readme.index("## One example"):readme.index("## Commands")]
    (tmp_path / "corpora").symlink_to(root / "corpora")
    ran = 0
    for block in blocks(section, lang="sh"):
        for line in block.replace("\\\n", " ").splitlines():
            command, _, comment = line.partition(" #")
            command = command.strip()
            if not command:
                continue
            argv = shlex.split(command)
            assert argv[0] == "entail", command
            done = subprocess.run([entail_bin, *argv[1:]], cwd=tmp_path,
                                  capture_output=True, text=True)
            want = 2 if "exit 2" in comment else 0
            assert done.returncode == want, (command, done.stderr)
            ran += 1
    assert ran >= 10
