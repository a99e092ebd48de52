"""`scripts/cue-audit`'s logistic regression is the mean of its SGD iterates:
the last iterate moved with the last few items, and read one cue at +0.3
points at one seed and +6.5 at the next."""

import importlib.machinery
import importlib.util
import math

from conftest import ROOT


def cue_audit():
    path = str(ROOT / "scripts" / "cue-audit")
    loader = importlib.machinery.SourceFileLoader("cue_audit", path)
    spec = importlib.util.spec_from_loader("cue_audit", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_the_model_is_the_mean_of_the_iterates():
    # Two items, one epoch, no L2: the iterates are w1 = d1 and
    # w2 = d1 + d2, so their mean is d1 + d2 / 2, worked out here by hand.
    model = cue_audit().Softmax([False, True], epochs=1, rate=0.1, l2=0.0)
    model.fit([{"a": 1.0}, {"a": 1.0}], [True, False])
    rate1, rate2 = 0.1 / (1 + 0.01 * 1 / 2), 0.1 / (1 + 0.01 * 2 / 2)
    # Step 1: both classes at 1/2; the item is True (class 1).
    d1 = {0: -rate1 * 0.5, 1: rate1 * 0.5}
    # Step 2: scores -rate1 and +rate1 (weight plus bias); the item is False.
    p0 = 1 / (1 + math.exp(2 * rate1))
    d2 = {0: -rate2 * (p0 - 1), 1: -rate2 * (1 - p0)}
    for c in (0, 1):
        mean = d1[c] + d2[c] / 2
        assert math.isclose(model.w[(c, "a")], mean, rel_tol=1e-12)
        assert math.isclose(model.w[(c, None)], mean, rel_tol=1e-12)
    last = d1[0] + d2[0]
    assert not math.isclose(model.w[(0, "a")], last, rel_tol=1e-3)



def planted_questions(count, seed, planted):
    """DivLogicEval-like questions over sentences A..H: four premises
    `X -> Y` and four options `X -> Y`; with `planted`, one premise
    mentions both sentences of the answer (the cue issue 51 found in 3e1c),
    and a distractor's only by chance; else options are drawn alike."""
    import random

    rng = random.Random(seed)
    letters = "ABCDEFGH"
    questions = []
    for _ in range(count):
        options = []
        while len(options) < 4:
            a, b = rng.sample(letters, 2)
            if (a, b) not in options:
                options.append((a, b))
        answer = rng.randrange(4)
        premises = []
        for j, (a, b) in enumerate(options):
            c, d = rng.sample([x for x in letters if x not in (a, b)], 2)
            if planted and j == answer:
                premises.append("%s -> %s" % (b, a))
            else:
                premises.append("%s -> %s" % (a if rng.random() < 0.5 else c, d))
        questions.append({
            "content": {"symbolic": premises, "text": ""},
            "options": [{"symbolic": "%s -> %s" % o, "text": "if %s then %s" % o}
                        for o in options],
            "answer": answer,
        })
    return questions


def audit_of(module, questions):
    items = [{"answer": q["answer"], "options": [o["text"] for o in q["options"]],
              "measures": [{"words": 4.0} for _ in q["options"]],
              "groups": {"cooc": module.divlogic_cooc(q)},
              "question_words": set(), "figures": {"premises": len(q["content"]["symbolic"])}}
             for q in questions]
    rows = module.audit(module.Items("planted", "answer", items))
    return {r["cue"]: 100 * r["above"] for r in rows}


def test_a_planted_cooccurrence_cue_is_found():
    # The answer is the option whose sentences a premise mentions together:
    # both readers of the co-occurrence group must find it (about +70
    # points: a distractor's pair occurs by chance in a few questions).
    module = cue_audit()
    figures = audit_of(module, planted_questions(400, 1, True))
    assert figures["cooc-lr"] > 30, figures
    if module.boosting_available():
        assert figures["cooc-gb"] > 30, figures
        assert figures["all-gb"] > 30, figures


def test_no_cue_is_read_where_none_is_planted():
    module = cue_audit()
    figures = audit_of(module, planted_questions(400, 2, False))
    for cue in ("cooc-lr", "cooc-gb", "all-gb"):
        assert figures.get(cue, 0) < 10, figures
