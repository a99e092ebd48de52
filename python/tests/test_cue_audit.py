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

