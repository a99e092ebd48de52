"""The package itself: `import entail` loads neither the native extension
nor a framework, and names its version."""

import subprocess
import sys
from pathlib import Path

import entail

ROOT = Path(__file__).resolve().parents[2]


def test_import_loads_nothing_heavy_until_used():
    code = ("import sys, entail\n"
            "heavy = ['entail._native', 'numpy', 'tqdm', 'entail.slr', 'entail.pictures']\n"
            "print(sorted(m for m in heavy if m in sys.modules))\n"
            "entail.divlogic\n"
            "print('entail.divlogic' in sys.modules, 'entail._native' in sys.modules)\n"
            "entail.divlogic.generate(count=1, seed=0)\n"
            "print('entail._native' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:3] == ["[]", "True False", "True"]


def test_version_is_the_distributions():
    import re

    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == entail.__version__
    from importlib.metadata import version

    assert version("entail-logic") == entail.__version__


def test_lazy_names_and_errors():
    assert entail.Judge is entail._judge.Judge
    assert entail.report is entail.pictures.report
    assert set(entail.__all__) <= set(dir(entail))
    try:
        entail.nothing_here
    except AttributeError as e:
        assert "nothing_here" in str(e)
    else:
        raise AssertionError("no AttributeError")


def test_types_check(tmp_path):
    """The package ships `py.typed`, so its annotations are a promise to
    users' type checkers: mypy must accept them."""
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-error-summary",
         "--cache-dir", str(tmp_path), str(ROOT / "python" / "entail")],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
