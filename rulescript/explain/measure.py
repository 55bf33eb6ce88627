"""How well the disagreement check finds what a careful reader finds: precision and recall of
``rulescript explain`` on a labelled corpus of cards (a rule, a printed text, and the kinds of
disagreement that are truly there).

A corpus is a YAML file ``{cards: [{id, type, kind?, rule, text, truth: [kind...]}]}``; it is turned
into a real game folder (cards.yaml + rules/corpus.ini), compiled by the compiler, and explained.
Each (card, kind) pair counts once: found and true (a hit), found only (a false alarm), true only (a
miss).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CHARACTER = {"bp": 500, "sp": 0, "subtype": "ninja", "backup": ["ninja"]}


@dataclass(slots=True)
class Score:
    cards: int = 0
    hits: int = 0
    false_alarms: list[tuple[str, str]] = field(default_factory=list)
    misses: list[tuple[str, str]] = field(default_factory=list)
    seconds_per_card: float = 0.0

    @property
    def precision(self) -> float:
        found = self.hits + len(self.false_alarms)
        return self.hits / found if found else 1.0

    @property
    def recall(self) -> float:
        true = self.hits + len(self.misses)
        return self.hits / true if true else 1.0


def write_game(corpus: list[dict[str, Any]], folder: Path) -> None:
    """A CFC game folder holding the corpus' cards and rules."""
    cards, sections = [], []
    for i, c in enumerate(corpus):
        card: dict[str, Any] = {"id": c["id"], "name": f"Corpus Card {i + 1}", "type": c["type"], "text": c["text"]}
        if c["type"] == "character":
            card.update(CHARACTER)
            card["ability"] = {"kind": c.get("kind", "auto"), "name": f"Gift {i + 1}"}
        else:
            card["sp"] = -1
        cards.append(card)
        sections.append(f"[{c['id']}]\n{c['rule']}\n")
    (folder / "rules").mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text("profile: cfc\nname: explain corpus\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}, sort_keys=False, allow_unicode=True),
                                       encoding="utf-8")
    (folder / "rules" / "corpus.ini").write_text("\n".join(sections), encoding="utf-8")


def score_corpus(path: str | Path, repeat: int = 1) -> Score:
    """Precision and recall of the disagreement check on the corpus file, and the time per card."""
    from rulescript.compiler import compile_game
    from rulescript.compiler.profile import load_profile
    from rulescript.explain.report import explain_cards

    corpus = yaml.safe_load(Path(path).read_text(encoding="utf-8"))["cards"]
    with tempfile.TemporaryDirectory(prefix="explain-corpus-") as tmp:
        root = Path(tmp) / "game"
        write_game(corpus, root)
        result = compile_game(root, cache=None)
        if result.errors:
            raise ValueError("the corpus does not compile:\n" + result.render())
        profile = load_profile(result.profile)
        t0 = time.process_time()
        for _ in range(repeat):
            explained = explain_cards(result.cards, result.rules, profile, root)
        elapsed = time.process_time() - t0
    found = {e.id: {d.kind for d in e.disagreements} for e in explained}
    out = Score(cards=len(corpus), seconds_per_card=elapsed / max(1, repeat * len(explained)))
    for c in corpus:
        truth, got = set(c.get("truth") or ()), found.get(c["id"], set())
        out.hits += len(truth & got)
        out.false_alarms += [(c["id"], k) for k in sorted(got - truth)]
        out.misses += [(c["id"], k) for k in sorted(truth - got)]
    return out
