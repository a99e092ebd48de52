"""`scripts/word-scan` finds planted words of every kind it flags (a
WordNet usage domain, a gloss that calls its word offensive, the plain
list, inflected forms) and leaves plain words alone that only look like
them (an inflection of another word, a sense of another part of speech)."""

import importlib.machinery
import importlib.util
import json
import os

import pytest

from conftest import ROOT

WORDNET = os.environ.get("ENTAIL_WORDNET", "/usr/share/wordnet")


def word_scan():
    path = str(ROOT / "scripts" / "word-scan")
    loader = importlib.machinery.SourceFileLoader("word_scan", path)
    spec = importlib.util.spec_from_loader("word_scan", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def scan(tmp_path, texts):
    if not os.path.exists(os.path.join(WORDNET, "data.noun")):
        pytest.skip("WordNet is not installed at %s" % WORDNET)
    m = word_scan()
    flagged, plain = m.flagged_lemmas(WORDNET, str(ROOT / "src" / "gen" / "offensive.txt"))
    index, exc = m.lemmas(WORDNET)
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps({"text": t, "nested": [{"x": t}]}) + "\n"
                            for t in texts))
    records, hits, found, _, _ = m.scan(str(path), flagged, plain, index, exc, 1)
    return records, hits, {lemma for (_, lemma) in found}


def test_planted_words_are_found(tmp_path):
    records, hits, lemmas = scan(tmp_path, [
        "The goddamned smuggler waits.",        # gloss: expletive
        "A kraut sings.",                       # gloss: offensive term for
        "The pee is cold.",                     # usage domain: obscenity
        "The bitches run and the clerk humped the box.",  # plain list, inflected
        "Nothing here.",
    ])
    assert records == 5 and hits == 4
    assert lemmas == {"goddamned", "kraut", "pee", "bitch", "hump"}


def test_look_alikes_are_not_flagged(tmp_path):
    # peer (not pee + -er), sober (not sob + -er), suited (the adjective,
    # not the disparaging noun "suit"), copes (cope, not cop), butter, the
    # musical "tie" (its gloss says "slur" in another sense).
    _, hits, lemmas = scan(tmp_path, [
        "The sober peer copes with the butter.",
        "The suited tourist ties the tie.",
    ])
    assert hits == 0, lemmas


def test_compounds_do_not_join_across_punctuation(tmp_path):
    # "snake pit" is a WordNet compound with a pejorative gloss; a LogicGraph
    # Prover9 expression names "snake" and "pit" as two arguments, which is
    # no compound. Spaces join, a hyphen joins as WordNet spells it.
    _, hits, lemmas = scan(tmp_path, [
        "supervise(snake, pit)",
        "all x (snake(x) -> pit(x)). The snake. Pit stops; snake (pit)",
    ])
    assert hits == 0, lemmas
    records, hits, lemmas = scan(tmp_path, [
        "They fell into the snake  pit.",
        "A half-breed horse.",
    ])
    assert records == 2 and hits == 2
    assert lemmas == {"snake_pit", "half-breed"}
