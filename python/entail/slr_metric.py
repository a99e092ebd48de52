"""SLR's `evaluate` metric on entail's judge: ``evaluate.load(entail.slr.METRIC)``.

It reports what the published SLR metric (``AIML-TUDA/VerifiableRewardsFor
ScalableLogicalReasoning``) reports, so lighteval and lm-eval task files that
use that metric can point here instead: ``accuracy``, ``partial_score``,
``syntax_score`` and ``detailed_results``, one dict per prediction with
``is_correct``, ``partial_score``, ``syntax_valid``, ``error`` and
``exec_time1`` (seconds), plus the judge's other fields. A reference is a
task record or ``{"validation_program", "evaluation_config"}``.
"""

import datasets
import evaluate

import entail


class SlrMetric(evaluate.Metric):
    """The SLR judge as an `evaluate` metric."""

    def _info(self):
        return evaluate.MetricInfo(
            description=__doc__,
            citation="",
            inputs_description="predictions: model outputs; references: SLR tasks",
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": {
                    "validation_program": datasets.Value("string"),
                    "evaluation_config": {
                        "positive_predicate": datasets.Value("string"),
                        "negative_predicate": datasets.Value("string"),
                    },
                },
            }),
        )

    def _compute(self, predictions, references):
        report = entail.compute(predictions, references)
        for result in report["detailed_results"]:
            result["exec_time1"] = float(result.get("time_ms", 0.0)) / 1000.0
        return report
