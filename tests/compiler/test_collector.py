"""How compiling treats Python's cyclic garbage collector: it leaves no reference cycles behind, the IR
it returns ends in the oldest generation, the collector is running again afterwards, and objects that
the program froze itself stay frozen."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from rulescript.compiler import compile_source
from rulescript.compiler.context import CardDatabase
from rulescript.compiler.profile import load_profile

DEMO_RULES = sorted((Path(__file__).resolve().parents[2] / "cards" / "cfc-demo" / "rules").glob("*.ini"))


def compile_demo_file() -> object:
    path = DEMO_RULES[0]
    result = compile_source(path.read_text(encoding="utf-8"), str(path), load_profile("cfc"),
                            CardDatabase.from_cards([]), None)
    assert result.rules and not [d for d in result.diagnostics if d.severity == "error"]
    return result


def test_compiling_leaves_no_reference_cycles() -> None:
    compile_demo_file()  # parser tables and lookups built outside the measured compile
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        compile_demo_file()
        assert gc.collect() == 0, [type(o).__name__ for o in gc.garbage[:20]]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_ir_is_promoted_and_the_collector_runs_again() -> None:
    gc.collect()
    assert gc.isenabled()
    result = compile_demo_file()
    assert gc.isenabled()
    young = gc.get_objects(generation=0) + gc.get_objects(generation=1)
    ids = {id(o) for o in young}
    rule = next(iter(result.rules.values()))  # type: ignore[attr-defined]
    assert id(rule) not in ids and id(result.rules) not in ids  # type: ignore[attr-defined]
    assert any(o is rule for o in gc.get_objects(generation=2))


def test_objects_the_program_froze_stay_frozen() -> None:
    gc.collect()
    keep = [[i] for i in range(50)]  # tracked containers, frozen by "the program"
    gc.freeze()
    try:
        compile_demo_file()
        collected = {id(o) for o in gc.get_objects()}  # every generation; frozen objects are in none
        assert not [x for x in keep if id(x) in collected]
        assert gc.get_freeze_count() >= len(keep)
    finally:
        gc.unfreeze()
    collected = {id(o) for o in gc.get_objects()}
    assert all(id(x) in collected for x in keep)  # the test itself gives them back


def test_compiling_with_the_collector_disabled_keeps_it_disabled() -> None:
    gc.disable()
    try:
        compile_demo_file()
        assert not gc.isenabled()
    finally:
        gc.enable()


class _Cyclic:
    """An object in a reference cycle with itself (freed only by the cyclic collector)."""

    def __init__(self) -> None:
        self.me = self


def test_the_callers_young_garbage_is_not_promoted_with_the_ir() -> None:
    """A cycle the caller dropped just before a compile is freed by the next collection of the young
    generations: the compile's promotion to the oldest generation (which a full collection empties only
    rarely) does not take it along.  Otherwise a process that reads files and compiles them in turn
    (a fuzzing worker importing plugins) grows without bound."""
    import weakref

    compile_demo_file()
    gc.collect()
    garbage = _Cyclic()
    alive = weakref.ref(garbage)
    del garbage
    assert alive() is not None  # only the cyclic collector can free it
    compile_demo_file()
    gc.collect(1)  # the young and middle generations, not the oldest
    assert alive() is None


def promote_a_cycle_then_drop_it(monkeypatch) -> Any:
    """A weak reference to a reference cycle that a compile promoted to the oldest generation while the
    caller held it, and that the caller dropped after: only a full collection frees it.  The driver's
    threshold is set out of reach meanwhile (the test sets the one it wants after)."""
    import weakref

    from rulescript.compiler import driver
    compile_demo_file()
    gc.collect()
    monkeypatch.setattr(driver, "FULL_COLLECTION_MIN", 10**9)
    held = _Cyclic()
    alive = weakref.ref(held)
    compile_demo_file()  # promotes `held` (alive) with the IR
    del held
    gc.collect(1)
    assert alive() is not None  # in the oldest generation
    return alive


def test_objects_promoted_while_alive_are_collected_once_dropped(monkeypatch) -> None:
    """What the caller holds during a compile is promoted with the IR; when the caller drops it later
    (a command's argument parser, which is full of cycles), the promoted objects count towards a full
    collection, which runs once they reach the driver's threshold: the cycle does not stay for good."""
    from rulescript.compiler import driver
    monkeypatch.setattr(driver, "_PROMOTED", [0, 0])
    alive = promote_a_cycle_then_drop_it(monkeypatch)
    counted = driver._PROMOTED[0]
    assert counted >= 1  # `held` at least
    monkeypatch.setattr(driver, "FULL_COLLECTION_MIN", counted)  # one more promoted object passes it
    _also_young = [_Cyclic() for _ in range(3)]
    compile_demo_file()
    assert alive() is None


def test_the_ir_a_compile_leaves_does_not_count_towards_a_full_collection(monkeypatch) -> None:
    """The IR is freed by reference counting when it is dropped (a compile makes no reference cycles), so
    a program that compiles again and again (the language server, a benchmark) does not pay a full
    collection for every few compiles: only the caller's objects promoted with it are counted."""
    from rulescript.compiler import driver
    compile_demo_file()
    gc.collect()
    monkeypatch.setattr(driver, "FULL_COLLECTION_MIN", 10**9)
    monkeypatch.setattr(driver, "_PROMOTED", [0, 0])
    for _ in range(5):
        compile_demo_file()
    # each compile promotes about 2,000 objects of IR; the caller's young objects are a handful each time
    assert driver._PROMOTED[0] < 200, driver._PROMOTED
