"""The benchmarks through other frameworks' own entry points:
reasoning-gym's registry and datasets, a `verifiers` environment evaluated
with a client, inspect-ai's `eval` with its `mockllm` model, and HF
`evaluate.load` of the SLR metric. Each framework is installed by
scripts/test; a test skips (visibly) where one is missing."""

import asyncio
import json
import math
import os
import warnings

import pytest

import entail

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

CONFIGS = {
    "slr": {"level": 2},
    "logicgraph": {},
    "logicon": {"variant": "hard"},
    "divlogic": {"rotations": True},
}


# --- reasoning-gym -----------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_reasoning_gym_protocol(name):
    rg = pytest.importorskip("reasoning_gym")
    from reasoning_gym.dataset import ProceduralDataset, ReseedingDataset

    assert f"entail_{name}" in entail.datasets.register()
    entail.datasets.register()  # a second time is a no-op
    dataset = rg.create_dataset(f"entail_{name}", size=4, seed=7, **CONFIGS[name])
    assert isinstance(dataset, ProceduralDataset) and len(dataset) == 4
    entries = list(dataset)
    assert entries == [dataset[i] for i in range(4)] == list(entail.datasets.create_dataset(
        name, size=4, seed=7, **CONFIGS[name]))
    for entry in entries:
        assert set(entry) == {"question", "answer", "metadata"}
        assert entry["metadata"]["source_dataset"] == f"entail_{name}"
        assert dataset.score_answer(entry["answer"], entry) == 1.0
        assert dataset.score_answer(None, entry) == 0.0
        assert dataset.score_answer("", entry) == 0.0
    # reasoning-gym's own scorer pays a padded answer len(gold)/len(answer);
    # ours scores the answer it reads, here the last one, a wrong one.
    if name == "divlogic":
        entry = entries[0]
        wrong = "ABCD"[("ABCD".index(entry["answer"][-1]) + 1) % 4]
        padded = entry["answer"] + "\nAnswer: " + wrong
        assert ProceduralDataset.score_answer(dataset, padded, entry) > 0.4
        assert dataset.score_answer(padded, entry) == 0.0
    # reasoning-gym's reseeding wrapper: chunks under new seeds, endlessly.
    stream = iter(ReseedingDataset(dataset, chunk_size=2))
    drawn = [next(stream) for _ in range(5)]
    assert drawn[:2] == entries[:2]
    assert len({e["metadata"]["ground_truth"] for e in drawn}) == 5


def test_slr_curriculum_levels():
    rg = pytest.importorskip("reasoning_gym")
    entail.datasets.register()
    from reasoning_gym.factory import create_curriculum

    curriculum = create_curriculum("entail_slr")
    from reasoning_gym.coaching.base_curriculum import DefaultCurriculumContext, RangeAttributeMode

    upper = DefaultCurriculumContext(mode=RangeAttributeMode.UPPER_BOUND)
    levels = []
    for _ in range(3):
        config = curriculum.generate_configuration({"size": 2, "seed": 1}, context=upper)
        levels.append({e["metadata"]["difficulty"]["level"]
                       for e in entail.datasets.Dataset("slr", config)})
        curriculum.increment_attr_level("level")
    assert levels == [{1}, {2}, {3}]


def test_reseeding_without_reasoning_gym():
    dataset = entail.datasets.create_dataset("logicon", size=3, seed=1)
    stream = iter(entail.datasets.Reseeding(dataset, chunk_size=3))
    drawn = [next(stream) for _ in range(7)]
    assert drawn[:3] == list(dataset)
    assert drawn[3:6] == list(entail.datasets.create_dataset("logicon", size=3, seed=2))
    with pytest.raises(ValueError, match="unknown dataset"):
        entail.datasets.create_dataset("gsm8k")


# --- verifiers ---------------------------------------------------------------

class _Completions:
    """An OpenAI chat-completions stand-in for the network: answers each
    prompt with the text `answer_of` gives for it."""

    def __init__(self, answer_of):
        self.answer_of = answer_of

    async def create(self, messages, model, **kwargs):
        from openai.types.chat import ChatCompletion

        text = self.answer_of(messages[-1]["content"])
        return ChatCompletion.model_validate({
            "id": "x", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
        })


class _OpenAI:
    def __init__(self, answer_of):
        self.chat = type("Chat", (), {"completions": _Completions(answer_of)})()
        self.base_url = "http://localhost"

    async def close(self):
        pass


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_verifiers_environment(name):
    vf = pytest.importorskip("verifiers")
    from verifiers.clients.openai_chat_completions_client import OpenAIChatCompletionsClient

    env = entail.verifiers.load_environment(name, size=4, seed=3, eval_size=4, **CONFIGS[name])
    assert isinstance(env, vf.SingleTurnEnv)
    rows = list(env.eval_dataset)
    gold = {r["question"]: r["answer"] for r in rows}
    wrong = {r["question"]: "no idea" for r in rows}
    for answers, expected in ((gold, 1.0), (wrong, 0.0)):
        client = OpenAIChatCompletionsClient(_OpenAI(lambda q: answers[q]))
        out = env.evaluate_sync(client=client, model="stand-in", num_examples=4,
                                rollouts_per_example=1)
        rewards = out["outputs"] if isinstance(out, dict) else out.outputs
        values = [r["reward"] if isinstance(r, dict) else r.reward for r in rewards]
        assert values == [expected] * 4, values


# --- inspect-ai ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_inspect_task_with_mockllm(name, tmp_path):
    pytest.importorskip("inspect_ai")
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from entail import inspect_tasks

    options = {k: v for k, v in CONFIGS[name].items() if k != "rotations"}
    task = getattr(inspect_tasks, name)(size=3, seed=2, **options)
    targets = [s.target for s in task.dataset]
    def output(text):
        # With usage given, mockllm does not count tokens with tiktoken,
        # whose encoding it would download.
        out = ModelOutput.from_content(model="mockllm/model", content=text)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    for outputs, expected in ((targets, 1.0), (["no idea"] * 3, 0.0)):
        model = get_model("mockllm/model", custom_outputs=[output(t) for t in outputs])
        task = getattr(inspect_tasks, name)(size=3, seed=2, **options)
        log, = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none",
                            max_samples=1)
        assert log.status == "success", log.error
        scores = [s.scores["entail_scorer"].value for s in log.samples]
        assert scores == [expected] * 3
        assert log.results.scores[0].metrics["mean"].value == expected


# --- HF evaluate -------------------------------------------------------------

def test_evaluate_slr_metric():
    evaluate = pytest.importorskip("evaluate")
    metric = evaluate.load(entail.slr.METRIC)
    tasks = entail.slr.generate(level=1, count=2, seed=6, threads=1)
    references = [{"validation_program": t["validation program"],
                   "evaluation_config": {"positive_predicate": "eastbound",
                                         "negative_predicate": "westbound"}} for t in tasks]
    predictions = [tasks[0]["ground-truth rule"], "eastbound(T) :- has_car(T, C), long(C), short(C)."]
    out = metric.compute(predictions=predictions, references=references)
    assert set(out) == {"accuracy", "partial_score", "syntax_score", "detailed_results"}
    first, second = out["detailed_results"]
    assert first["is_correct"] and first["partial_score"] == 1.0
    assert not second["is_correct"] and second["partial_score"] < 1.0
    assert {"is_correct", "partial_score", "syntax_valid", "error", "exec_time1"} <= set(first)
    assert out["accuracy"] == 0.5 and math.isclose(
        out["partial_score"], (1.0 + second["partial_score"]) / 2)


def test_reasoning_gym_composite_mixes_an_entail_dataset():
    pytest.importorskip("reasoning_gym")
    from reasoning_gym.composite import CompositeConfig, CompositeDataset, DatasetSpec

    entail.datasets.register()
    config = CompositeConfig(size=6, seed=5, datasets=[
        DatasetSpec(name="entail_logicon", weight=1.0, config={"variant": "hard"}),
        DatasetSpec(name="entail_divlogic", weight=1.0, config={}),
        DatasetSpec(name="leg_counting", weight=1.0, config={}),
    ])
    mixed = CompositeDataset(config)
    sources = set()
    for entry in mixed:
        sources.add(entry["metadata"]["source_dataset"])
        assert mixed.score_answer(entry["answer"], entry) == 1.0
        if entry["metadata"]["source_dataset"].startswith("entail_"):
            assert mixed.score_answer("no idea", entry) == 0.0
    assert {"entail_logicon", "entail_divlogic"} & sources


@pytest.mark.parametrize("name,size", [("slr", 50), ("divlogic", 7), ("logicon", 5), ("logicgraph", 3)])
def test_a_dataset_yields_exactly_its_size(name, size):
    extra = {"rotations": True} if name == "divlogic" else {}
    dataset = entail.datasets.create_dataset(name, size=size, seed=0, **extra)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        entries = list(dataset)
    assert len(entries) == len(dataset) == size
    distinct = len({e["metadata"]["ground_truth"] for e in entries})
    if name == "slr" and caught:
        # Level 1 holds fewer distinct training tasks: they repeat, in order.
        assert f"hold {distinct} distinct" in str(caught[0].message)
        assert [e["metadata"]["id"] for e in entries[distinct:]] == [
            e["metadata"]["id"] for e in entries[: size - distinct]]
    else:
        assert distinct == size and not caught


def test_dataset_config_errors_list_the_valid_values():
    with pytest.raises(ValueError, match="'plain', 'hard', 'completion'"):
        entail.datasets.create_dataset("logicon", variant="easy")
    with pytest.raises(ValueError, match="'3c1e', '3e1c', 'missing', 'mixed'"):
        entail.datasets.create_dataset("divlogic", type="odd")
    with pytest.raises(ValueError, match="'small', 'medium', 'large'"):
        entail.datasets.create_dataset("logicgraph", tier="huge")
    with pytest.raises(ValueError, match="'plain', 'hard', 'completion'"):
        entail.logicon.generate(variant="easy", count=1)
    with pytest.raises(ValueError, match="'lists', 'generative'"):
        entail.logicon.generate(task="other", count=1)
    with pytest.raises(ValueError, match="'3c1e', '3e1c', 'missing', 'mixed'"):
        entail.divlogic.generate(type="odd", count=1)
    with pytest.raises(ValueError, match="'small', 'medium', 'large'"):
        entail.logicgraph.generate(tier="huge", count=1)


class _FakeOpenAI:
    """A local OpenAI chat-completions server answering each prompt (its
    last message) with `answers[prompt]`, else "no idea"."""

    def __init__(self, answers):
        import http.server
        import json
        import threading

        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                content = body["messages"][-1]["content"]
                if isinstance(content, list):
                    content = "".join(p.get("text", "") for p in content)
                text = outer.answers.get(content, "no idea")
                reply = json.dumps({
                    "id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        self.answers = answers
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.mark.parametrize("name", ["divlogic", "logicon"])
def test_vf_eval_finds_the_package_environment(name, tmp_path):
    """`vf-eval entail -a '{"benchmark": ...}'`, verifiers' own command,
    against a local stand-in for the model's API answering gold answers."""
    pytest.importorskip("verifiers")
    import json
    import shutil
    import subprocess
    import sys

    vf_eval = shutil.which("vf-eval", path=os.path.dirname(sys.executable))
    if vf_eval is None:
        pytest.skip("no vf-eval beside this python")
    assert entail.load_environment is not None
    args = {"benchmark": name, "size": 3, "seed": 4, **{k: v for k, v in CONFIGS[name].items()
                                                          if k != "rotations"}}
    rows = list(entail.load_environment(**args).dataset)
    server = _FakeOpenAI({r["question"]: r["answer"] for r in rows})
    try:
        out = subprocess.run(
            [vf_eval, "entail", "-a", json.dumps(args), "-m", "stand-in", "-b", server.url,
             "-k", "ENTAIL_FAKE_KEY", "-n", "3", "-r", "1", "--disable-tui"],
            capture_output=True, text=True, cwd=tmp_path, timeout=300,
            env=dict(os.environ, ENTAIL_FAKE_KEY="none"))
    finally:
        server.close()
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "reward: avg - 1.000, std - 0.000" in out.stdout, out.stdout[-2000:]


def _mock_outputs(texts):
    """mockllm outputs with usage given, so that mockllm does not count
    tokens with tiktoken, whose encoding it would download."""
    from inspect_ai.model import ModelOutput, ModelUsage

    outputs = []
    for text in texts:
        out = ModelOutput.from_content(model="mockllm/model", content=text)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        outputs.append(out)
    return outputs


def test_inspect_eval_finds_the_package_tasks_by_name(tmp_path):
    """`inspect eval entail/divlogic`: inspect-ai resolves the name through
    the package's `inspect_ai` entry point (as its command line does, here
    through the `eval` it calls)."""
    pytest.importorskip("inspect_ai")
    from importlib.metadata import entry_points

    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    assert [ep.value for ep in entry_points(group="inspect_ai") if ep.name == "entail"] == [
        "entail.inspect_tasks"]
    model = get_model("mockllm/model", custom_outputs=_mock_outputs(["no idea"] * 4))
    log, = inspect_eval("entail/divlogic", model=model, task_args={"size": 4, "rotations": True},
                        log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert log.eval.task == "entail/divlogic" and len(log.samples) == 4
    metrics = log.results.scores[0].metrics
    assert metrics["mean"].value == 0.0 and metrics["partial_circular"].value == 0.0


def test_inspect_partial_circular_metric_is_the_scorers(tmp_path):
    """With rotations, the `partial_circular` metric over a run's samples is
    `entail.divlogic.score`'s PartialCircular of the same picks."""
    pytest.importorskip("inspect_ai")
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from entail import inspect_tasks

    task = inspect_tasks.divlogic(size=8, seed=2, rotations=True)
    questions = [json.loads(s.metadata["ground_truth"]) for s in task.dataset]
    # Right on three rotations of the first question, a constant letter on the second.
    letters = [s.target[-1] for s in task.dataset]
    picks = letters[:3] + ["A"] + ["B"] * 4
    model = get_model("mockllm/model", custom_outputs=_mock_outputs(f"Answer: {p}" for p in picks))
    log, = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none", max_samples=1)
    assert log.status == "success", log.error
    by_id = {s.id: s.output.completion for s in log.samples}
    answers = [{"id": q["id"], "answer": by_id[q["id"]].split(": ")[1]} for q in questions]
    expected = entail.divlogic.score(questions, answers)["partial_circular"]
    metric = log.results.scores[0].metrics["partial_circular"].value
    assert metric == pytest.approx(expected) and 0.0 < expected < 1.0
