"""Extract the formal lines of the two WWRF guides into ``guide_lines.tsv`` (run by hand, output committed).

    python tests/wwrf/extract_guide_lines.py [SHARED_DIR]

Each output row is ``guide <TAB> line <TAB> start <TAB> text <TAB> original``. ``start`` names how the
test parses the text (``ability``, ``trigger``, ``condition``, ``value``, ``restrictions``,
``scaling``, ``other``, ``prompt``, ``duration``). Templates are instantiated: each placeholder
(``{Player}``, ``<Target>``, ``'<Role>'`` …) is replaced by a fixed sample of its type, ``[a|b]``
choices are expanded, the older guide's ``'`` quotes become backticks (as that guide instructs) and its
trailing plain-English notes in parentheses are dropped. A template whose placeholders cannot all be
instantiated is written with start ``unresolved`` so that the test lists it (and the reason) instead
of silently dropping it. Zero-width spaces are removed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "guide_lines.tsv"

# ----------------------------------------------------------------- placeholder samples

NEW_SUBS: list[tuple[str, str]] = [
    ("{(Duration?)}", "(~Phase)"), ("({**})", "(Player)"), ("{*}", "@Selection"),
    ("{Player}", "@Selection"), ("{Role}", "`Seer`"), ("{Attribute}", "`Wolfish`"),
    ("{Active Attribute}", "`Wolfish`"), ("{Actor}", "@Self"), ("{Any}", "`blazing`"),
    ("{Number}", "2"), ("{Location}", "#tavern"), ("{VariableString}", "smoldering"),
    ("{Ability Type\\|Ability Subtype\\|Ability Category}", "`Killing`"),
    ("{Ability Type|Ability Subtype|Ability Category}", "`Killing`"),
    ("<Disguise Levels>", "(SD, WD)"), ("`<KillingSubtypeFilter>`", "`Attacks`"),
    ("{Poll}", "`Lynch`"), ("{String}", "`Decoy`"), ("[{AbilityType}]", "[Killing]"),
    ("[{AbilitySubtype}]", "[Attack Killing]"), ("[!{AbilityType}]", "[!Killing]"),
    ("[!{AbilitySubtype}]", "[!Attack Killing]"), ("<Condition>", "@Target exists"),
    ("<AttributeName>", "`Wolfish`"), ("<Number>", "3"),
]
VALUE_SUBS: list[tuple[str, str]] = [
    ("<RoleName>", "Citizen"), ("<TeamName>", "Townsfolk"), ("<PollName>", "Lynch"), ("<Info>", "You see @Target"),
    ("<AbilityType>", "Killing"), ("<AttributeName>", "Wolfish"), ("<SourceReference>", "team:townsfolk"),
    ("<SourceName>", "role:citizen"), ("<GenericAttributeType>", "disguise"), ("<KillingType>", "attack"),
    ("<SourceNameType>:<SourceNameValue>", "Role:Assassin"), ("<OptionName>", "Join Pack"), ("<String>", "Text"),
]
OLD_SUBS: list[tuple[str, str]] = [
    ("<KillingSubtype>", "Attacks"), ("<Role>", "Seer"), ("<Alignment>", "Werewolves"), ("<Group>", "Bakers"),
    ("<GroupName>", "Bakers"), ("<ExtraRole>", "Mayor"), ("<PollType>", "Lynch"),
    ("<ManipulationType>", "Unvotable"), ("<Number>", "2"), ("<MembershipType>", "Owner"), ("<Name>", "Cauldron"),
    ("<Disguise>", "Stranger"), ("<Index>", "1"), ("<NewValue>", "blazing"), ("<Custom Feedback>", "Nobody home"),
    ("<DisplayName>", "Potions"),
]
# parenthesised placeholders, substituted before the plain-English notes in parentheses are dropped
PAREN_SUBS: list[tuple[str, str]] = [
    ("(Option List)", "(Heal, Poison)"), ("(<Chance>:<Feedback>,<Chance>:<Feedback>)", "(0.5:`a`,0.5:`b`)"),
    ("(<Duration>)", "(~Phase)"), ("(<Disguise Level>)", "(SD, WD)"), ("(<Type>)", "(Player)"),
    ("(<AdditionalAttributeData>)", "(smoldering, 2)"), ("(<Subtype>)", "(Alignment)"),
]
OLD_SUBS += PAREN_SUBS + [
    ("<Subtype> Investigate", "Role Investigate"), ("<Subtype> Disguise", "Weakly Disguise"),
    ("through <Subtype>", "through Active Defense"), ("<Subtype> <Target>", "Kill @Target"),
    ("during <Phase>", "during Night"), ("<Target|Location>", "@Target"), ("<Target>", "@Target"),
    ("<Selector>", "@All"), ("<Source>", "@Others"), ("<Location>", "#tavern"),
    ("<Ability Type>", "Killing"), ("<Ability Subtype>", "Attack Killing"), ("<Feedback>", "`Failure`"),
    ("<Information>", "`You see @Target`"), ("<Value>", "2"), ("<Option Name>", "Heal"),
    ("<Phase>", "Night 2"), ("<Attribute>", "`Wolfish`"), ("<Condition>", "@Target exists"),
    ("<Default Target>", "@Target"), ("<TargetType>", "@Target"), ("#<GroupName>", "#Wolfpack"),
]
_PAREN = re.compile(r"\s*\(([^()]*)\)")


def drop_descriptions(text: str) -> str:
    """Drop the older guide's plain-English notes: parenthesised groups with a multi-word item and no
    placeholder, quote, duration or backtick (``(Heal, Poison)``/``(Suppressed)`` stay)."""

    def repl(m: re.Match[str]) -> str:
        inner = m.group(1)
        if re.search(r"[<~`]|'(?!s\b)", inner):
            return m.group(0)
        if any(" " in item.strip() for item in inner.split(",")):
            return ""
        return m.group(0)

    return _PAREN.sub(repl, text)


def expand_choices(text: str) -> list[str]:
    """Expand ``[a|b]`` (and ``[a\\|b]``) choices; a one-option ``[<x>]`` is optional."""
    m = re.search(r"\[([^\[\]]*\|[^\[\]]*)\]", text)
    if not m:
        return [text]
    opts = [o.strip() for o in re.split(r"\\?\|", m.group(1))]
    out: list[str] = []
    for o in opts:
        out.extend(expand_choices(text[: m.start()] + o + text[m.end() :]))
    return out


def quotes_to_backticks(text: str) -> str:
    return re.sub(r"(?<![\w>])'([^'\s][^']*?)'(?!\w)", r"`\1`", text)


def sub_all(text: str, subs: list[tuple[str, str]]) -> str:
    for a, b in subs:
        if a.startswith("<") and a.endswith(">") and f"`{a}" in text:
            text = text.replace(f"`{a}", "`" + b.strip("`"))  # a sample for a placeholder inside backticks
    text = re.sub(r"`<([^<>`]+)>`", lambda m: "`" + m.group(1) + "`", text)
    for a, b in subs:
        text = text.replace(a, b)
    return text


Row = tuple[str, int, str, str, str]


def emit(rows: list[Row], guide: str, line: int, start: str, text: str, original: str) -> None:
    text = text.replace("\u200b", "").strip()
    if not text:
        return
    if re.search(r"<[A-Za-z][^<>]*>|\{[A-Z*][^{}]*\}", text) and start not in ("other",):
        start = "unresolved"
    rows.append((guide, line, start, text, original.strip()))


# ----------------------------------------------------------------- newer guide


def code_spans(cell: str) -> list[str]:
    cell = cell.replace("<code>", "``").replace("</code>", "``")
    spans = re.findall(r"``(.+?)``(?!`)|(?<!`)`([^`]+)`(?!`)", cell)
    return [a or b for a, b in spans]


def newer(path: Path, rows: list[Row]) -> None:
    lines = path.read_text(encoding="utf-8").replace("\u200b", "").split("\n")
    section = ""
    for no, line in enumerate(lines, 1):
        if line.startswith("#"):
            section = line.lstrip("#").strip()
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]
        if section == "Triggers" and len(cells) >= 3 and cells[0] not in ("--- ", "---") and "<br>" in line or (
            section == "Triggers" and len(cells) >= 3 and re.match(r"^(On|Passive|Starting)", cells[0])
        ):
            for name in cells[0].split("<br>"):
                name = name.strip()
                if not name or name.startswith("&nbsp;") or name == "---":
                    continue
                for variant in expand_choices(sub_all(name, NEW_SUBS)):
                    emit(rows, "newer", no, "trigger", variant.replace("{Player}", "@All"), name)
        elif section == "Restrictions" and len(cells) >= 4 and cells[1].startswith("`"):
            for code in code_spans(cells[1]):
                for variant in expand_choices(sub_all(code, NEW_SUBS + [("<AttributeName>", "`Wolfish`")])):
                    emit(rows, "newer", no, "restrictions", variant, code)
            for code in code_spans(cells[3]):
                emit(rows, "newer", no, "restrictions", code, code)
        elif section == "Scaling" and len(cells) >= 4 and cells[1].startswith("`"):
            for code in code_spans(cells[3]):
                emit(rows, "newer", no, "scaling", code, code)
        elif section == "Conditions" and len(cells) >= 3 and cells[1].startswith("`"):
            for code in code_spans(cells[1]):
                text = code.replace("(<Condition>)", "(@Target exists)").replace("{Attribute}", "`Wolfish`")
                text = text.replace("{Group}", "#Wolfpack").replace("{Number}", "@Target->Counter")
                text = text.replace("{Actor}", "@Self").replace("{Player}", "@Target").replace("{Any}", "@Target")
                for variant in expand_choices(text):
                    emit(rows, "newer", no, "condition", variant, code)
        elif section in ("Killing", "Investigating", "Targeting", "Disguising", "Protecting", "Applying",
                         "Redirecting", "Manipulating") and ("|" in line or "<code>" in line):
            if "<code>" in line:
                codes = code_spans(line)
            else:
                codes = [c for cell in cells for c in code_spans(cell) if re.match(r"^[A-Z]", c) and " " in c or c in ("Untarget",)]
            for code in codes:
                if code.startswith("<") or code in ("Kills", "All"):
                    continue
                text = code.replace("<ProtectingSubtype>", "[Active Defense|Absence at #tavern]")
                for variant in expand_choices(sub_all(text, NEW_SUBS)):
                    for v2 in expand_choices(variant):
                        emit(rows, "newer", no, "ability", v2, code)
        # inline examples in prose
        if section in ("Restrictions", "Other Parameters", "Prompt Overwrites", "Types", "Player Type",
                       "Role Type", "Alignment Type", "Group Type", "Variables"):
            for code in code_spans(line):
                code = code.strip()
                if code.startswith("[") and code.endswith("]") and ":" in code:
                    emit(rows, "newer", no, "restrictions", code[1:-1], code)
                elif code.startswith("{") and code.endswith("}") and section == "Other Parameters":
                    emit(rows, "newer", no, "other", sub_all(code[1:-1], OLD_SUBS), code)
                elif code.startswith("|") and code.endswith("|"):
                    emit(rows, "newer", no, "prompt", code, code)
                elif re.match(r"^[@&^%$][\w(]", code) and "<" not in code and " " not in code:
                    emit(rows, "newer", no, "value", code, code)
                elif re.match(r"^`[^`]+`\[\w+\]$", code):
                    emit(rows, "newer", no, "value", code, code)
        if section in ("Player Type", "Role Type", "Alignment Type", "Group Type", "Info Type", "Result Type",
                       "Variables", "Active Extra Role Type", "Number Type") and len(cells) >= 2:
            first = cells[0]
            if re.match(r"^[@&^%$#][\w(]", first) and not re.search(r"[<\[]", first):
                emit(rows, "newer", no, "value", first, first)
        # any selector-looking code span, and the guide's backtick constants (```…``` in the source)
        for code in code_spans(line):
            if re.fullmatch(r"[@&^#%][\w(][^\s<]*", code) and not code.endswith(":"):
                emit(rows, "newer", no, "value", code, code)
            elif re.fullmatch(r"`[^`]+`", code):
                text = sub_all(code.replace("<Val1>", "smoldering").replace("<Value1>", "smoldering"),
                               VALUE_SUBS + NEW_SUBS)
                emit(rows, "newer", no, "value", text, code)
            elif re.fullmatch(r"#<\w+>", code):
                emit(rows, "newer", no, "value", "#Bakers" if "Group" in code else "#tavern", code)
        if section == "Scaling" and len(cells) >= 4 and cells[1].startswith("`"):
            for code in code_spans(cells[1]):
                text = code.replace("<Number>", "3").replace("<Count>", "2").replace("[$total\\|$living]", "[$total|$living]")
                variants = [text.replace("<Comparison>", c) for c in ("<", ">", "≤", "≥", "=")] if "<Comparison>" in text else [text]
                for v in variants:
                    for variant in expand_choices(v):
                        emit(rows, "newer", no, "scaling", variant, code)
        if section == "Protecting" and re.match(r"^- `[^`]+`$", line):
            code = line[3:-1]
            if code in ("Attacks", "Kills", "Lynches", "Attacks & Lynches", "All", "Banishments"):
                emit(rows, "newer", no, "ability", f"Protect @Selection from `{code}` through Passive Defense", code)
            else:
                sub = code.replace("{Location}", "#tavern")
                emit(rows, "newer", no, "ability", f"Protect @Selection from `Attacks` through {sub}", code)
        if section == "Attributes" and re.match(r"^`~\w+`", line):
            for code in code_spans(line.split("|")[0]):
                emit(rows, "newer", no, "duration", code, code)


# ----------------------------------------------------------------- older guide


def older(path: Path, rows: list[Row]) -> None:
    lines = path.read_text(encoding="utf-8").replace("\u200b", "").split("\n")
    in_format = False
    fmt_lines = 0
    section = ""
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not raw.startswith(" ") and line and not line.startswith("Format") and not in_format:
            section = line
        if line.startswith("Format:") or line.endswith("Format:"):
            in_format = True
            fmt_lines = 0
            rest = line.split("Format:", 1)[1].strip()
            if rest and not line.endswith("Format:"):
                _older_ability(rows, no, rest)
            continue
        if in_format:
            if not line and fmt_lines == 0:
                continue
            if not line or line.startswith("•"):
                in_format = False
                continue
            fmt_lines += 1
            if line.endswith("Chosen:") and line.startswith("Choice"):
                emit(rows, "older", no, "trigger", line[:-1].replace("<Option Name>", "Heal"), line)
                continue
            if line.startswith("<Trigger Type>") or line.startswith("For Each"):
                emit(rows, "older", no, "unresolved", line, line)
                continue
            _older_ability(rows, no, line)
            continue
        if section == "Action Restrictions" or section.startswith("Action Restrictions"):
            pass
        m = re.match(r"^•\s*((Temporal|Attribute|Succession|Quantity|Condition|Status): [^,]+?)(,| \(|$)", line)
        if m and ", may" in line:
            text = quotes_to_backticks(m.group(1))
            for variant in expand_choices(sub_all(text, OLD_SUBS)):
                emit(rows, "older", no, "restrictions", variant, m.group(1))
            ex = re.search(r"e\.g\. (.+)$", line)
            if ex:
                emit(rows, "older", no, "restrictions", ex.group(1), ex.group(1))
        m = re.match(r"^•\s*(<Target>.*?|not \(<Condition>\)|\(<Condition>\) (and|or) \(<Condition>\))\s*(\(Pure\))?$", line)
        if m:
            text = quotes_to_backticks(m.group(1))
            for variant in expand_choices(sub_all(text, OLD_SUBS)):
                emit(rows, "older", no, "condition", variant, m.group(1))
        for sel in re.findall(r"(?<![\w>])([@&^#%][\w(][^\s,)]*\)?(?:->[\w()]+)*)", line):
            sel = sel.rstrip(".")
            if sel.endswith(")") and "(" not in sel:
                sel = sel[:-1]
            if "<" in sel or sel.endswith(":") or sel in ("#channelName", "%Player2"):
                continue
            if sel.startswith("@(") and not sel.endswith(")") and "->" not in sel:
                continue
            emit(rows, "older", no, "value", sel, sel)
        m = re.match(r"^•\s*(~\w+)", line)
        if m:
            emit(rows, "older", no, "duration", m.group(1), m.group(1))
        m = re.match(r"^•\s*((On|Passive|Starting)[^:]*?) (for|triggers|equivalent|this trigger)\b", line)
        if m:
            text = m.group(1).replace("'<Name>'", "`Lynch`")
            text = text.replace("'<Value>'", "`Decoy`").replace("<Target>", "@All")
            text = text.replace("[Active|Passive|Partial|Recruitment|Absence]", "[Active|Passive|Partial|Recruitment|Absence]")
            variants = [text]
            if "[[<Ability Type>]]" in text:
                variants = [text.replace(" [[<Ability Type>]]", ""), text.replace("[[<Ability Type>]]", "[Killing]")]
            for v in variants:
                for variant in expand_choices(v):
                    emit(rows, "older", no, "trigger", re.sub(r"\s+", " ", variant).strip(), m.group(1))
        m = re.match(r"^•\s*An Action Timing \(([^)]*)\)", line)
        if m:
            for name in m.group(1).split(","):
                emit(rows, "older", no, "trigger", name.strip(), name.strip())
        for code in re.findall(r"(\{(?:Forced|Direct|Repeating|Visitless)[^}]*\})", line):
            emit(rows, "older", no, "other", code[1:-1], code)
        m = re.search(r"e\.g\. (Odd: x1, Even: x2)", line)
        if m:
            emit(rows, "older", no, "scaling", m.group(1), m.group(1))


def _older_ability(rows: list[Row], no: int, line: str) -> None:
    original = line
    line = re.sub(r"\s+-\s+Returns.*$", "", line)
    line = line.replace("'<MembershipType> (", "'<MembershipType>' (")
    pieces: list[str] = []
    # a description in parentheses followed by more text starts another format
    parts = re.split(r"(?<=\))\s+(?=[A-Z][a-z]+ ')", line)
    for part in parts:
        for a, b in PAREN_SUBS:
            part = part.replace(a, b)
        pieces.append(drop_descriptions(part))
    for piece in pieces:
        text = quotes_to_backticks(piece)
        text = text.replace("'Value'", "`Value`")
        text = sub_all(text, OLD_SUBS)
        opt = re.search(r" \[((?:for|as) [^\]|]+)\]", text)
        texts = [text.replace(opt.group(0), ""), text.replace(opt.group(0), " " + opt.group(1))] if opt else [text]
        for t in texts:
            for variant in expand_choices(t):
                emit(rows, "older", no, "ability", re.sub(r"\s+", " ", variant), original)


def fixture_text(seeds: Path) -> str:
    """The text of guide_lines.tsv as extracted from the two guides in ``seeds``."""
    rows: list[Row] = []
    newer(seeds / "wwrf-formalization-guide.md", rows)
    older(seeds / "wwrf-formalization-guide-older.txt", rows)
    seen: set[tuple[str, str]] = set()
    out = ["# guide\tline\tstart\ttext\toriginal  (generated by extract_guide_lines.py; do not edit)"]
    for guide, no, start, text, original in rows:
        key = (start, text)
        if key in seen:
            continue
        seen.add(key)
        out.append("\t".join([guide, str(no), start, text.replace("\t", " "), original.replace("\t", " ")]))
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    shared = Path(argv[1]) if len(argv) > 1 else HERE.parents[1].parent / "shared"
    text = fixture_text(shared / "seeds")
    OUT.write_text(text, encoding="utf-8")
    print(f"{text.count(chr(10)) - 1} lines → {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
