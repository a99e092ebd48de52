"""The benchmarks through other frameworks' own entry points:
reasoning-gym's registry and datasets, a `verifiers` environment evaluated
with a client, inspect-ai's `eval` with its `mockllm` model, and HF
`evaluate.load` of the SLR metric. Each framework is installed by
scripts/test; a test skips (visibly) where one is missing."""

import asyncio
import math
import os

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
        assert entry["metadata"]["source_dataset"] == name
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
