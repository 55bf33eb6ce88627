"""A strict parser for AIWolf protocol 3.6 sentences as the platform speaks them.

:func:`parse` turns one utterance into a typed AST (:mod:`.ast`) and located diagnostics. It never
raises on bad input. It accepts what the platform accepts on the wire (any number of digits in
``Agent[NN]``, ``Agent[00]`` for ANY, blanks anywhere between tokens, a subject touching its verb,
touching groups, the old ``REQUEST (sentence)`` form) and rejects, with a column, what the platform
accepts although it is wrong: operand counts, text between groups, nested ``Skip``/``Over``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulescript.diagnostics import Diagnostic, did_you_mean

from . import ast as A
from .diagnostics import SentenceDiags, SentenceError
from .lexer import Token, tokenize

MAX_DEPTH = 40
MAX_NUMBER = 999_999_999

KEYWORDS: frozenset[str] = frozenset(A.VERBS + A.OPERATORS)
_CHANNELS = ("TALK", "WHISPER")
_AGENTISH = re.compile(r"(?i)agent(?:\[|[0-9]|$)")  # a word meant as an agent
_AGENT_NUMBER = re.compile(r"(?i)agent\[?0*([0-9]{1,9})\]?$")
_DAY_WORD = re.compile(r"day([0-9]+)$")
_ID_WORD = re.compile(r"ID:([0-9]+)$")
# operand counts: (fewest, most); None = no upper bound
_ARITY: dict[str, tuple[int, int | None]] = {
    "REQUEST": (1, 1), "INQUIRE": (1, 1), "NOT": (1, 1), "DAY": (1, 1),
    "BECAUSE": (2, 2), "XOR": (2, 2), "AND": (2, None), "OR": (2, None),
}
_ARITY_TEXT = {
    "BECAUSE": "two sentences (the reason, then what follows from it)",
    "XOR": "two sentences", "AND": "two or more sentences", "OR": "two or more sentences",
}


@dataclass
class ParseResult:
    utterance: A.Utterance | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.utterance is not None


class _Stop(Exception):
    """A syntax error after which the rest of the sentence cannot be read."""


def parse(text: str, file: str = "<sentence>", line: int = 1) -> ParseResult:
    """Parse one utterance. ``utterance`` is None exactly when there are errors."""
    diags = SentenceDiags(file, line)
    tokens = tokenize(text, diags)
    if tokens is None:
        return ParseResult(None, diags.items)
    utterance: A.Utterance | None = None
    try:
        utterance = _Parser(tokens, diags).utterance()
    except _Stop:
        pass
    if diags.has_errors:
        utterance = None
    return ParseResult(utterance, diags.items)


def parse_sentence(text: str) -> A.Utterance:
    """Parse one utterance or raise :class:`SentenceError` carrying the diagnostics."""
    result = parse(text)
    if result.utterance is None:
        raise SentenceError(text, result.diagnostics)
    return result.utterance


def _flow_spelling(text: str) -> str | None:
    """``Skip``/``Over`` for a word that is one of them in the wrong case."""
    cap = text.capitalize()
    return cap if cap in A.FLOW_WORDS and text != cap else None


def _describe(tok: Token | None) -> str:
    if tok is None:
        return "the end of the sentence"
    return {"lp": "'('", "rp": "')'"}.get(tok.kind, repr(tok.text))


class _Parser:
    def __init__(self, tokens: list[Token], diags: SentenceDiags) -> None:
        self.toks = tokens
        self.i = 0
        self.d = diags

    # -------------------------------------------------------------- token access

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> Token:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def stop(self, code: str, message: str, tok: Token | None, notes: tuple[str, ...] = ()) -> _Stop:
        if tok is None:
            end = self.toks[-1].end if self.toks else 1
            self.d.error(code, message, end, end + 1, notes)
        else:
            self.d.error(code, message, tok.col, tok.end, notes)
        return _Stop()

    def number(self, digits: str, tok: Token, what: str) -> int:
        value = digits.lstrip("0") or "0"
        if len(value) > len(str(MAX_NUMBER)):
            raise self.stop("AW106", f"{what} is too large (at most {MAX_NUMBER})", tok)
        return int(value)

    # -------------------------------------------------------------- utterances

    def utterance(self) -> A.Utterance:
        first = self.peek()
        if first is None:
            raise self.stop("AW110", "empty sentence (an empty talk is sent as Skip)", None,
                            ("write Skip or Over to pass",))
        if first.kind == "word" and (first.text in A.FLOW_WORDS or _flow_spelling(first.text)):
            word = self.flow_word(self.take())
            after = self.peek()
            if after is not None:
                raise self.stop("AW111", f"{word} stands alone: nothing may follow it", after)
            return A.Flow(word, {"sentence": (first.col, first.end)})  # type: ignore[arg-type]
        if first.kind == "lp":
            raise self.stop("AW102", "a sentence starts with a subject, a verb or an operator, not '('",
                            first, ("to say several things at once, join them with AND (...) (...)",))
        sentence = self.sentence(0)
        rest = self.peek()
        if rest is not None:
            if rest.kind == "rp":
                raise self.stop("AW102", "unmatched ')'", rest)
            raise self.stop("AW111", f"unexpected {_describe(rest)} after the end of the sentence", rest)
        return sentence

    def flow_word(self, tok: Token) -> str:
        right = _flow_spelling(tok.text)
        if right is not None:
            note = ("an upper-case OVER is read by the platform as Skip",) if tok.text == "OVER" else ()
            self.d.error("AW107", f"write {right}, not {tok.text}: Skip and Over are written in mixed case",
                         tok.col, tok.end, note)
            return right
        return tok.text

    # -------------------------------------------------------------- sentences

    def sentence(self, depth: int) -> A.Sentence:
        start = self.peek()
        if start is None:
            raise self.stop("AW102", "expected a sentence", None)
        pos: A.Pos = {}
        subject: A.Who | None = None
        if start.kind == "agent" or (start.kind == "word" and self.is_who_word(start)):
            subject = self.who("subject", pos)
        tok = self.peek()
        word = self.keyword(tok, after_subject=subject is not None)
        assert tok is not None
        self.take()
        pos["verb"] = (tok.col, tok.end)
        if word in A.FLOW_WORDS:
            why = "Skip and Over cannot be nested in another sentence" if depth else f"{word} takes no subject"
            self.d.error("AW203", why, tok.col, tok.end)
            raise _Stop()
        node = self.body(word, subject, pos, tok, depth)
        last = self.toks[self.i - 1]
        pos["sentence"] = (start.col, last.end)
        return node

    def body(self, word: str, subject: A.Who | None, pos: A.Pos, verb: Token, depth: int) -> A.Sentence:
        if word in A.ROLE_VERBS:
            target = self.who("target", pos)
            return A.RoleSentence(word, subject, target, self.enum_word(A.Role, "role", pos), pos)  # type: ignore[arg-type]
        if word in A.SPECIES_VERBS:
            target = self.who("target", pos)
            return A.SpeciesSentence(word, subject, target, self.enum_word(A.Species, "species", pos), pos)  # type: ignore[arg-type]
        if word in A.ACTION_VERBS:
            return A.ActionSentence(word, subject, self.who("target", pos), pos)  # type: ignore[arg-type]
        if word in A.AGREE_VERBS:
            return A.AgreeSentence(word, subject, self.talk_ref(pos), pos)  # type: ignore[arg-type]
        if word in A.DIRECTED_OPS:
            nxt = self.peek()
            old_form = nxt is not None and nxt.kind == "lp"
            target = A.ANY if old_form else self.who("target", pos)
            (body,) = self.groups(word, verb, depth)
            if old_form and body is not None and body.subject is not None:
                target = body.subject  # the old form's target is the inner subject, or ANY
                pos["target"] = body.pos["subject"]
            return A.Directed(word, subject, target, body, pos)  # type: ignore[arg-type]
        if word == "DAY":
            tok = self.peek()
            if tok is None or tok.kind != "num":
                raise self.stop("AW102", f"expected the day number after DAY, found {_describe(tok)}", tok)
            self.take()
            pos["day"] = (tok.col, tok.end)
            day = self.number(tok.text, tok, "the day")
            (body,) = self.groups(word, verb, depth)
            return A.DaySentence(subject, day, body, pos)
        parts = self.groups(word, verb, depth)
        if word == "NOT":
            return A.Not(subject, parts[0], pos)
        if word == "BECAUSE":
            return A.Because(subject, parts[0], parts[1], pos)
        if word == "XOR":
            return A.Xor(subject, parts[0], parts[1], pos)
        return A.Junction(word, subject, tuple(parts), pos)  # type: ignore[arg-type]

    # -------------------------------------------------------------- groups

    def groups(self, op: str, verb: Token, depth: int) -> list[A.Sentence]:
        """The ``(sentence)`` groups after an operator, padded or cut to the count it takes."""
        found: list[A.Sentence] = []
        spans: list[tuple[int, int]] = []
        while True:
            tok = self.peek()
            if tok is None or tok.kind == "rp":
                break
            if tok.kind == "lp":
                open_col = tok.col
                found.append(self.group(depth))
                spans.append((open_col, self.toks[self.i - 1].end))
                continue
            if not found:
                raise self.stop("AW102", f"expected '(' and a sentence after {op}, found {_describe(tok)}", tok)
            first = tok
            while (tok := self.peek()) is not None and tok.kind not in ("lp", "rp"):
                last = self.take()
            between = tok is not None and tok.kind == "lp"
            self.d.error("AW202", "text between groups" if between else "text after the last group",
                         first.col, last.end, ("only blanks may stand between and after the (...) groups",))
        fewest, most = _ARITY[op]
        if len(found) < fewest:
            need = _ARITY_TEXT.get(op, "one sentence")
            self.d.error("AW201", f"{op} takes {need}; found {len(found)}", verb.col, verb.end)
        elif most is not None and len(found) > most:
            col, end = spans[most]
            need = _ARITY_TEXT.get(op, "one sentence")
            self.d.error("AW201", f"{op} takes {need}; this is sentence {most + 1}", col, end)
        want = max(fewest, min(len(found), most or len(found)))
        return (found + [None] * want)[:want]  # type: ignore[list-item]

    def group(self, depth: int) -> A.Sentence:
        lp = self.take()
        if depth + 1 > MAX_DEPTH:
            raise self.stop("AW112", f"sentences nested more than {MAX_DEPTH} deep", lp)
        tok = self.peek()
        if tok is not None and tok.kind == "rp":
            raise self.stop("AW102", "empty group: expected a sentence", tok)
        if tok is not None and tok.kind == "word" and (tok.text in A.FLOW_WORDS or _flow_spelling(tok.text)):
            self.take()
            word = self.flow_word(tok)
            self.d.error("AW203", f"{word} cannot be nested in another sentence", tok.col, tok.end,
                         ("Skip and Over are only ever a whole utterance",))
            inner: A.Sentence = None  # type: ignore[assignment]
        else:
            inner = self.sentence(depth + 1)
        close = self.peek()
        if close is None:
            raise self.stop("AW102", "this '(' is never closed", lp)
        if close.kind != "rp":
            raise self.stop("AW111", f"unexpected {_describe(close)} in a group: expected ')'", close)
        self.take()
        return inner

    # -------------------------------------------------------------- words

    def keyword(self, tok: Token | None, after_subject: bool) -> str:
        what = "a verb or an operator" + (" after the subject" if after_subject else "")
        if tok is None:
            raise self.stop("AW102", f"expected {what}", None)
        if tok.kind != "word":
            raise self.stop("AW102", f"expected {what}, found {_describe(tok)}", tok)
        text = tok.text
        if text in KEYWORDS or text in A.FLOW_WORDS:
            return text
        if text.upper() in KEYWORDS:
            self.d.error("AW104", f"keywords are written in upper case: {text.upper()}", tok.col, tok.end)
            return text.upper()
        if _flow_spelling(text):
            return self.flow_word(tok)
        glued = next((k for k in sorted(KEYWORDS, key=len, reverse=True)
                      if text.startswith(k) and len(text) > len(k)), None)
        notes = (f"put a blank after {glued}",) if glued else did_you_mean(text, sorted(KEYWORDS))
        raise self.stop("AW103", f"unknown word {text!r}: expected {what}", tok, notes)

    def is_who_word(self, tok: Token) -> bool:
        return tok.text.upper() == "ANY" or bool(_AGENTISH.match(tok.text))

    def who(self, part: str, pos: A.Pos) -> A.Who:
        tok = self.peek()
        if tok is None:
            raise self.stop("AW102", f"expected the {part}: an agent (Agent[NN]) or ANY", None)
        self.take()
        pos[part] = (tok.col, tok.end)
        if tok.kind == "agent":
            n = self.number(tok.digits, tok, "the agent number")
            return A.Agent(n) if n else A.ANY
        if tok.kind == "word":
            if tok.text == "ANY":
                return A.ANY
            if tok.text.upper() == "ANY":
                self.d.error("AW104", "keywords are written in upper case: ANY", tok.col, tok.end)
                return A.ANY
            if _AGENTISH.match(tok.text):
                m = _AGENT_NUMBER.match(tok.text)
                if m is None:
                    raise self.stop("AW105", f"malformed agent {tok.text!r}: write Agent[NN], e.g. Agent[01]", tok)
                n = int(m.group(1))
                right = str(A.Agent(n)) if n else "ANY"
                self.d.error("AW105", f"agents are written Agent[NN]: {right}, not {tok.text}",
                             tok.col, tok.end, ("the 3.6 text writes Agent1; the platform needs Agent[01]",))
                return A.Agent(n) if n else A.ANY
        raise self.stop("AW102", f"expected the {part}: an agent (Agent[NN]) or ANY, found {_describe(tok)}", tok)

    def enum_word(self, enum: type[A.Role] | type[A.Species], part: str, pos: A.Pos) -> A.Role | A.Species:
        tok = self.peek()
        names = [m.value for m in enum]
        if tok is None or tok.kind != "word":
            raise self.stop("AW102", f"expected a {part} ({', '.join(names)}), found {_describe(tok)}", tok)
        self.take()
        pos[part] = (tok.col, tok.end)
        if tok.text in names:
            return enum(tok.text)
        if tok.text.upper() in names:
            self.d.error("AW104", f"keywords are written in upper case: {tok.text.upper()}", tok.col, tok.end)
            return enum(tok.text.upper())
        raise self.stop("AW103", f"unknown {part} {tok.text!r}", tok, did_you_mean(tok.text, names))

    def talk_ref(self, pos: A.Pos) -> A.TalkRef:
        form = "a talk reference is TALK dayD ID:N or WHISPER dayD ID:N, e.g. TALK day1 ID:3"
        chan = self.peek()
        if chan is None or chan.kind != "word" or chan.text.upper() not in _CHANNELS:
            raise self.stop("AW113", f"expected TALK or WHISPER, found {_describe(chan)}", chan, (form,))
        self.take()
        if chan.text not in _CHANNELS:
            self.d.error("AW104", f"keywords are written in upper case: {chan.text.upper()}", chan.col, chan.end)
        day_tok = self.peek()
        m = _DAY_WORD.match(day_tok.text) if day_tok is not None and day_tok.kind == "word" else None
        if m is None:
            raise self.stop("AW113", f"expected dayD (e.g. day1), found {_describe(day_tok)}", day_tok, (form,))
        self.take()
        assert day_tok is not None
        day = self.number(m.group(1), day_tok, "the day")
        id_tok = self.peek()
        m = _ID_WORD.match(id_tok.text) if id_tok is not None and id_tok.kind == "word" else None
        if m is None:
            raise self.stop("AW113", f"expected ID:N (e.g. ID:3), found {_describe(id_tok)}", id_tok, (form,))
        self.take()
        assert id_tok is not None
        number = self.number(m.group(1), id_tok, "the talk id")
        pos["talk"] = (chan.col, id_tok.end)
        pos["talk_day"] = (day_tok.col, day_tok.end)
        return A.TalkRef(chan.text.upper(), day, number)  # type: ignore[arg-type]
