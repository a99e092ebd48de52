//! Writing an instance: its draft as the files of the published layout
//! (the [`format`](super::format) schema), and the optional `prompt.txt`
//! task text.

use super::draft::Draft;
use super::format::{
    CompleteFile, ConsistencyCheck, Context, DerivedConclusion, FamilyStats, GlobalCheck, Id,
    KbEntry, KnowledgeBase, Metadata, Node, Ordered, Path, PathStep, QuestionFile, SolutionDetail,
    SolutionStats, SolutionsFile, Target, Translations, UsedPremise, VerifiedSolution,
    VerifiedStep, VerifyFile,
};
use super::prop::Prop;
use crate::prove::CheckReport;
use crate::prove::StepStatus;
use serde::Serialize;
use std::collections::BTreeMap;

/// The text of each file of one instance directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InstanceFiles {
    /// `question.json`
    pub question: String,
    /// `complete.json`
    pub complete: String,
    /// `solutions.json`
    pub solutions: String,
    /// `verify_true.json`
    pub verify: String,
    /// `prompt.txt`: the task text for a model.
    pub prompt: String,
}

fn json<T: Serialize>(value: &T) -> String {
    // Serialising plain structs of strings and numbers cannot fail.
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

impl Draft {
    fn path_type(branch_from: Option<usize>) -> &'static str {
        if branch_from.is_some() {
            "branch"
        } else {
            "core"
        }
    }

    fn kb_entry(&self, i: usize) -> KbEntry {
        let p = &self.premises[i];
        KbEntry {
            id: p.id.clone(),
            formal: p.prop.formal(),
            prover9_expression: p.prop.instantiated(&self.expressions()),
            natural: p.natural.clone(),
        }
    }

    fn node(&self, prop: &Prop) -> Node {
        Node {
            formal: prop.formal(),
            prover9: prop.prover9(),
            prover9_expression: prop.instantiated(&self.expressions()),
            natural: self.natural(prop),
        }
    }

    fn paths_with<P>(&self, cite: impl Fn(&Prop, Option<&str>) -> P) -> Vec<Path<P>> {
        self.paths
            .iter()
            .enumerate()
            .map(|(i, path)| Path {
                id: Some(Id::Number(i as u64 + 1)),
                family_id: Some(Id::Number(path.family as u64)),
                path_type: Draft::path_type(path.branch_from).to_string(),
                branch_from: path.branch_from,
                steps: path
                    .steps
                    .iter()
                    .enumerate()
                    .map(|(k, st)| PathStep {
                        step_number: Some(Id::Number(k as u64 + 1)),
                        rule_applied: Some(st.form.name().to_string()),
                        premises_used: st
                            .cited
                            .iter()
                            .map(|c| cite(&c.prop, c.pool.map(|i| self.pool_id(i))))
                            .collect(),
                        conclusion: st.conclusion.prover9(),
                        natural: self.natural(&st.conclusion),
                    })
                    .collect(),
            })
            .collect()
    }

    /// Every formula the instance mentions (premises and conclusions), keyed
    /// by its `formal` spelling, sorted.
    fn nodes(&self) -> BTreeMap<String, Prop> {
        let mut nodes = BTreeMap::new();
        for p in &self.premises {
            nodes.insert(p.prop.formal(), p.prop.clone());
        }
        for path in &self.paths {
            for st in &path.steps {
                nodes.insert(st.conclusion.formal(), st.conclusion.clone());
            }
        }
        nodes
    }

    /// The file texts, with `verify_true.json` taken from `report` (the
    /// engine's check of this instance).
    pub(crate) fn files(&self, report: &CheckReport) -> InstanceFiles {
        let exprs = self.expressions();
        let goal = Prop::atom(0);
        let rules: Vec<usize> = (0..self.premises.len())
            .filter(|&i| !self.premises[i].prop.is_literal())
            .collect();
        let facts: Vec<usize> = (0..self.premises.len())
            .filter(|&i| self.premises[i].prop.is_literal())
            .collect();
        let question = QuestionFile {
            context: Context {
                rules: rules
                    .iter()
                    .map(|&i| format!("{}: {}", self.premises[i].id, self.premises[i].natural))
                    .collect(),
                facts: facts
                    .iter()
                    .map(|&i| format!("{}: {}", self.premises[i].id, self.premises[i].natural))
                    .collect(),
            },
            question: self.natural(&goal),
        };
        let mut family_stats: Vec<(String, FamilyStats)> = Vec::new();
        for path in &self.paths {
            let key = path.family.to_string();
            let idx = match family_stats.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    family_stats.push((key, FamilyStats { core: 0, branch: 0 }));
                    family_stats.len() - 1
                }
            };
            if path.branch_from.is_some() {
                family_stats[idx].1.branch += 1;
            } else {
                family_stats[idx].1.core += 1;
            }
        }
        let atom_order: Vec<usize> = (1..self.atoms.len()).chain(std::iter::once(0)).collect();
        let nodes = self.nodes();
        let complete = CompleteFile {
            metadata: Metadata {
                graph_path: None,
                num_solutions: self.paths.len(),
                family_stats: Ordered(family_stats),
            },
            knowledge_base: KnowledgeBase {
                rules: rules.iter().map(|&i| self.kb_entry(i)).collect(),
                facts: facts.iter().map(|&i| self.kb_entry(i)).collect(),
            },
            target: Target {
                formal: goal.formal(),
                prover9: goal.prover9(),
                prover9_expression: goal.instantiated(&exprs),
                natural: self.natural(&goal),
            },
            solutions: self.paths_with(|prop, _| prop.prover9()),
            translations: Translations {
                domain_theme: self.domain.clone(),
                atomic_facts: Ordered(
                    atom_order
                        .iter()
                        .map(|&k| (Prop::atom_name(k), exprs[k].clone()))
                        .collect(),
                ),
                natural_facts: Ordered(
                    atom_order
                        .iter()
                        .map(|&k| (Prop::atom_name(k), self.natural(&Prop::atom(k))))
                        .collect(),
                ),
                prover9_expressions: nodes
                    .values()
                    .map(|p| p.instantiated_unicode(&exprs))
                    .collect(),
                natural_expressions: nodes.values().map(|p| self.natural(p)).collect(),
                node_mappings: nodes
                    .iter()
                    .map(|(k, p)| (k.clone(), self.node(p)))
                    .collect(),
            },
        };
        let solutions = SolutionsFile {
            solution_stats: SolutionStats {
                total_solutions: self.paths.len(),
                details: self
                    .paths
                    .iter()
                    .enumerate()
                    .map(|(i, p)| SolutionDetail {
                        solution_id: i + 1,
                        steps_count: p.steps.len(),
                    })
                    .collect(),
            },
            solutions: self.paths_with(|prop, id| UsedPremise {
                id: id.unwrap_or("Derived").to_string(),
                prover9: Some(prop.prover9()),
                prover9_expression: prop.instantiated(&exprs),
                natural: self.natural(prop),
            }),
        };
        InstanceFiles {
            question: json(&question),
            complete: json(&complete),
            solutions: json(&solutions),
            verify: json(&self.verify_file(report)),
            prompt: self.prompt(&rules, &facts),
        }
    }

    fn verify_file(&self, report: &CheckReport) -> VerifyFile {
        let exprs = self.expressions();
        let mut detailed = Vec::new();
        for (i, path) in self.paths.iter().enumerate() {
            let sr = report.solutions.get(i);
            let reaches = sr.and_then(|r| r.reaches_goal) == Some(true);
            let valid = sr.is_some_and(|r| {
                r.steps_valid == Some(true) && r.globally_valid == Some(true) && reaches
            });
            let step_results = path
                .steps
                .iter()
                .enumerate()
                .map(|(k, st)| {
                    let status = sr.and_then(|r| r.steps.get(k)).map(|s| &s.status);
                    let ok = status == Some(&StepStatus::Valid);
                    VerifiedStep {
                        step_number: k + 1,
                        rule_applied: st.form.name().to_string(),
                        valid: ok,
                        message: if ok {
                            "valid: the cited premises entail the conclusion (Z3)".into()
                        } else {
                            "not proved: the cited premises do not entail the conclusion".into()
                        },
                        conclusion: st.conclusion.prover9(),
                        conclusion_expression: st.conclusion.instantiated(&exprs),
                        premises_used: st.cited.iter().map(|c| c.prop.prover9()).collect(),
                        premises_expressions: st
                            .cited
                            .iter()
                            .map(|c| c.prop.instantiated(&exprs))
                            .collect(),
                    }
                })
                .collect();
            detailed.push(VerifiedSolution {
                solution_id: i + 1,
                valid,
                step_results,
                reaches_target: reaches,
                error_message: if valid {
                    None
                } else {
                    Some("the engine did not confirm this solution".into())
                },
                derived_conclusions: path
                    .steps
                    .iter()
                    .map(|st| DerivedConclusion {
                        formal: st.conclusion.prover9(),
                        prover9_expression: st.conclusion.instantiated(&exprs),
                    })
                    .collect(),
            });
        }
        let valid_solutions = detailed.iter().filter(|d| d.valid).count();
        let reaching = detailed.iter().filter(|d| d.reaches_target).count();
        let globally = report
            .solutions
            .iter()
            .any(|s| s.globally_valid == Some(true));
        let consistent = report.consistency.consistent == Some(true);
        VerifyFile {
            total_solutions: self.paths.len(),
            valid_solutions,
            invalid_solutions: self.paths.len() - valid_solutions,
            solutions_reaching_target: reaching,
            detailed_results: detailed,
            global_target_verification: GlobalCheck {
                valid: globally,
                message: if globally {
                    "the premises entail the target (Z3)".into()
                } else {
                    "the premises were not shown to entail the target".into()
                },
            },
            premises_consistency_check: ConsistencyCheck {
                consistent,
                message: if consistent {
                    "the premises are satisfiable (Z3)".into()
                } else {
                    "the premises were not shown to be satisfiable".into()
                },
            },
        }
    }

    /// The task text, in the paper's test-prompt structure (task, FACTS,
    /// RULES, numbered instructions ending in the strict `Solution n:` /
    /// `Step k: [..] => .. (Used: [..])` format), in our own words.
    fn prompt(&self, rules: &[usize], facts: &[usize]) -> String {
        let goal = self.natural(&Prop::atom(0));
        let goal = goal.trim_end_matches('.');
        let mut out = format!(
            "Take the facts and rules below as the premises of one scenario. Find every \
distinct, valid proof path that derives the conclusion \"{goal}\".\n\nFACTS:\n"
        );
        if facts.is_empty() {
            out.push_str("(none: every premise is a rule)\n");
        }
        for &i in facts {
            let p = &self.premises[i];
            out.push_str(&format!("{}: {}\n", p.id, p.natural));
        }
        out.push_str("\nRULES:\n");
        for &i in rules {
            let p = &self.premises[i];
            out.push_str(&format!("{}: {}\n", p.id, p.natural));
        }
        out.push_str(&format!(
            "\nINSTRUCTIONS:\n\
1. Use only these facts and rules; bring in no outside knowledge.\n\
2. Each step applies one argument form: MP (modus ponens), MT (modus tollens), HS \
(hypothetical syllogism), DS (disjunctive syllogism), CD (constructive dilemma), RAA \
(reductio ad absurdum) or DE (disjunction elimination). A step cites facts, rules and \
earlier steps of the same solution. Two solutions are distinct when they use different \
sets of facts and rules.\n\
3. If no proof path exists, answer: \"No valid proof path exists for the conclusion \
'{goal}'.\"\n\
4. Write every solution in exactly this format:\n\
Solution 1:\n\
Step 1: [Fact x, Rule y] => first conclusion (Used: [Fact x, Rule y])\n\
Step 2: [Step 1, Rule z] => next conclusion (Used: [Step 1, Rule z])\n\
...\n\
Step n: [Step m, Fact w] => {goal} (Used: [Step m, Fact w])\n\
Solution 2:\n\
...\n"
        ));
        out
    }
}
