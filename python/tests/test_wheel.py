"""The wheel scripts/test builds and repairs as a release wheel is
(scripts/repair-wheel): manylinux-tagged, libz3 bundled, debug info split
off, and installable in a clean venv, where it scores one item of each
benchmark. Skips visibly without $ENTAIL_WHEEL (scripts/test sets it)."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

WHEEL = os.environ.get("ENTAIL_WHEEL")
pytestmark = pytest.mark.skipif(not WHEEL, reason="no $ENTAIL_WHEEL: run scripts/test, which builds it")


def test_tag_and_contents():
    import entail

    wheel = Path(WHEEL)
    name, version, python, abi, platform = wheel.stem.split("-")
    assert (name, version, python, abi) == ("entail_logic", entail.__version__, "cp39", "abi3")
    assert platform.startswith("manylinux_") and platform.endswith("_x86_64"), platform
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = archive.read(f"entail_logic-{version}.dist-info/entry_points.txt").decode()
    assert "entail/__init__.py" in names and "entail/py.typed" in names
    libraries = [n for n in names if n.startswith("entail_logic.libs/")]
    assert any(Path(n).name.startswith("libz3") for n in libraries), libraries
    assert "[inspect_ai]" in entry_points
    assert "entail=entail.inspect_tasks" in entry_points.replace(" ", "")
    assert not [n for n in names if "__pycache__" in n]
    # Debug info is split off into the .debug file beside the wheel.
    assert wheel.with_suffix(".debug").is_file()


def test_a_clean_venv_installs_it_and_scores_each_benchmark(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "--no-index", "--no-deps", WHEEL], check=True)
    code = r"""
import json, subprocess, sys
import entail
from entail import _native
so = _native.__file__
assert "site-packages" in so and sys.prefix in so, so
libz3 = [l for l in subprocess.run(["ldd", so], capture_output=True, text=True).stdout.splitlines()
         if "libz3" in l]
scores = {}
for name, items in [
    ("divlogic", entail.divlogic.generate(count=1, seed=1, threads=1)),
    ("logicon", entail.logicon.generate(variant="hard", count=1, seed=1, threads=1)),
    ("logicgraph", entail.logicgraph.generate(count=1, seed=1, threads=1)),
]:
    module = getattr(entail, name)
    scores[name] = module.compute_score(name, module.gold_answer(items[0]), module.ground_truth(items[0]))["score"]
task = entail.slr.generate(level=1, count=1, seed=1, threads=1)[0]
scores["slr"] = entail.slr.compute_score("slr", task["ground-truth rule"], entail.slr.ground_truth(task))["score"]
print(json.dumps({"scores": scores, "libz3": libz3, "prefix": sys.prefix}))
"""
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["scores"] == {"divlogic": 1.0, "logicon": 1.0, "logicgraph": 1.0, "slr": 1.0}
    # libz3 is the wheel's own copy, found through the library's RPATH.
    assert len(result["libz3"]) == 1 and "entail_logic.libs" in result["libz3"][0], result["libz3"]
