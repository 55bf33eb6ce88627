"""A mistyped command, choice or option gets "did you mean", and an option the command does not know
is reported with the usage of that command (not the top-level usage)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import DEMO, fails, run


@pytest.mark.parametrize("prog, args, message", [
    ("rulescript", ["simulat"], "invalid choice: 'simulat'"),
    ("rulescript", ["wach"], "invalid choice: 'wach'"),
    ("wwrf", ["rendr"], "invalid choice: 'rendr'"),
    ("aiwolf", ["serv"], "invalid choice: 'serv'"),
    ("octgn-pack", ["valdate"], "invalid choice: 'valdate'"),
])
def test_a_mistyped_command_gets_did_you_mean(prog: str, args: list[str], message: str) -> None:
    right = {"simulat": "simulate", "wach": "watch", "rendr": "render", "serv": "serve", "valdate": "validate"}
    err = fails(run(prog, *args), 2, message, f"did you mean '{right[args[0]]}'?")
    assert err.startswith(f"usage: {prog} ")


@pytest.mark.parametrize("prog, args, usage, hint", [
    ("rulescript", ["simulate", DEMO, "--gmes", "5"], "usage: rulescript simulate ", "(did you mean --games?)"),
    ("rulescript", ["play", DEMO, "--atuo"], "usage: rulescript play ", "(did you mean --auto"),
    ("rulescript", ["watch", DEMO, "--onse"], "usage: rulescript watch ", "did you mean --once"),
    ("rulescript", ["import", "x", "-o", "y", "--forse"], "usage: rulescript import ", "did you mean --force"),
    ("wwrf", ["check", "x", "--no-warnigns"], "usage: wwrf check ", "did you mean --no-warnings"),
    ("aiwolf", ["serve", "x", "--players", "5", "--prot", "1"], "usage: aiwolf serve ", "did you mean --port"),
    ("octgn-pack", ["build", "x", "--quite"], "usage: octgn-pack build ", "did you mean --quiet"),
])
def test_an_option_typo_shows_the_commands_usage(prog: str, args: list, usage: str, hint: str) -> None:
    err = fails(run(prog, *args), 2, "unrecognized arguments:", hint)
    assert err.startswith(usage), err


def test_a_mistyped_choice_gets_did_you_mean() -> None:
    fails(run("rulescript", "check", DEMO, "--format", "jsn"), 2, "invalid choice: 'jsn'", "did you mean 'json'?")


def test_nothing_close_means_no_suggestion(tmp_path: Path) -> None:
    err = fails(run("rulescript", "frobnicate"), 2, "invalid choice: 'frobnicate'")
    assert "did you mean" not in err
