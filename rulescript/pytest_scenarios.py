"""Scenario files as pytest test items.

Two ways, both small:

1. **Parametrized test** (what ``tests/sim/test_scenarios.py`` does; no hook, no registration)::

       from rulescript.pytest_scenarios import scenario_params, check_scenario

       @pytest.mark.parametrize("case", scenario_params(["cards/cfc-demo"]))
       def test_scenario(case):
           check_scenario(case)

   ``scenario_params`` only reads and checks the files (cheap, at collection); each test runs its
   scenario, fails with the scenario's reasons, and skips a ``pending`` one.

2. **Plugin**: ``pytest -p rulescript.pytest_scenarios cards/cfc-demo/scenarios`` collects every
   ``*.yaml`` file under a folder named ``scenarios`` as a file of test items, one per scenario.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from rulescript.diagnostics import render
from rulescript.sim.scenario import _source, run_scenario, scenario_files
from rulescript.sim.scenario_format import load_scenario_file


@dataclass
class ScenarioCase:
    """One collected scenario (or the diagnostics of a file that could not be read)."""

    file: str
    name: str
    scenario: object = None
    problems: tuple = ()

    def __str__(self):
        return "%s::%s" % (Path(self.file).name, self.name)


def collect_cases(paths):
    """Every scenario of the given files / folders (see ``scenario_files``), in order."""
    cases = []
    for path in paths:
        for f in scenario_files(path):
            scenarios, diags = load_scenario_file(f)
            if diags:
                cases.append(ScenarioCase(str(f), "<file>", None,
                                          tuple(render(d, _source(str(f))) for d in diags)))
            for sc in scenarios:
                cases.append(ScenarioCase(str(f), sc.name, sc))
    return cases


def scenario_params(paths):
    """``pytest.param`` objects, one per scenario, with readable ids ``file.yaml::name``."""
    return [pytest.param(c, id=str(c)) for c in collect_cases(paths)]


def check_scenario(case):
    """Run one case: pass, ``pytest.skip`` (pending) or ``pytest.fail`` with the reasons."""
    if case.problems:
        pytest.fail("\n".join(case.problems), pytrace=False)
    res = run_scenario(case.scenario)
    if res.status == "skip":
        pytest.skip("pending: %s" % res.pending)
    if not res.passed:
        text = "\n".join(res.failures)
        if res.log:
            text += "\n--- game log ---\n" + "\n".join(res.log[-60:])
        pytest.fail("%s (%s)\n%s" % (res.name, res.where, text), pytrace=False)
    return res


# ---------------------------------------------------------------------- plugin mode
class ScenarioFile(pytest.File):
    def collect(self):
        for case in collect_cases([self.path]):
            yield ScenarioItem.from_parent(self, name=case.name, case=case)


class ScenarioItem(pytest.Item):
    def __init__(self, *, case, **kw):
        super().__init__(**kw)
        self.case = case

    def runtest(self):
        check_scenario(self.case)

    def reportinfo(self):
        line = self.case.scenario.line if self.case.scenario is not None else 1
        return self.path, line - 1, "scenario: %s" % self.case.name


def pytest_collect_file(file_path, parent):
    """Plugin hook: YAML files below a ``scenarios`` folder are scenario files."""
    if file_path.suffix in (".yaml", ".yml") and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None
