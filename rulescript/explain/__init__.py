"""Card text from the rules: plain-English text generated from compiled rules (with the profile's
``card_text`` templates), the facts both the rules and a card's printed text state, and the
disagreements between them (``rulescript explain``)."""
