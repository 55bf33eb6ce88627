"""Hypothesis strategies: sentence ASTs, and noisy spellings of them that the parser must accept."""

from __future__ import annotations

from hypothesis import strategies as st

from wwrf_adapter.aiwolf import ast as A

agents = st.builds(A.Agent, st.integers(1, 120))
whos = st.one_of(agents, st.just(A.ANY))
subjects = st.one_of(st.none(), whos)
roles = st.sampled_from(list(A.Role))
species = st.sampled_from(list(A.Species))
small = st.integers(0, 50)

leaves = st.one_of(
    st.builds(A.RoleSentence, st.sampled_from(A.ROLE_VERBS), subjects, whos, roles),
    st.builds(A.SpeciesSentence, st.sampled_from(A.SPECIES_VERBS), subjects, whos, species),
    st.builds(A.ActionSentence, st.sampled_from(A.ACTION_VERBS), subjects, whos),
    st.builds(A.AgreeSentence, st.sampled_from(A.AGREE_VERBS), subjects,
              st.builds(A.TalkRef, st.sampled_from(["TALK", "WHISPER"]), small, small)),
)


def _operators(inner: st.SearchStrategy[A.Sentence]) -> st.SearchStrategy[A.Sentence]:
    return st.one_of(
        st.builds(A.Directed, st.sampled_from(A.DIRECTED_OPS), subjects, whos, inner),
        st.builds(A.Because, subjects, inner, inner),
        st.builds(A.Xor, subjects, inner, inner),
        st.builds(A.Not, subjects, inner),
        st.builds(A.DaySentence, subjects, small, inner),
        st.builds(A.Junction, st.sampled_from(A.JUNCTION_OPS), subjects,
                  st.lists(inner, min_size=2, max_size=4).map(tuple)),
    )


sentences = st.recursive(leaves, _operators, max_leaves=12)
utterances = st.one_of(sentences, st.sampled_from([A.SKIP, A.OVER]))


@st.composite
def noisy_text(draw: st.DrawFn, u: A.Utterance) -> str:
    """A spelling of ``u`` that the platform accepts: odd digit counts, Agent[00] for ANY, blanks and
    tabs, a subject touching its verb, touching groups, padded group insides."""

    def blank(required: bool = True) -> str:
        return draw(st.sampled_from([" ", "  ", "\t", " \t "] if required else ["", " ", "\t"]))

    def who(w: A.Who) -> str:
        if isinstance(w, A.AnyAgent):
            return draw(st.sampled_from(["ANY", "Agent[0]", "Agent[00]", "Agent[000]"]))
        return f"Agent[{'0' * draw(st.integers(0, 3))}{w.number}]"

    def sentence(s: A.Sentence) -> str:
        head = ""
        if s.subject is not None:
            glue = blank(isinstance(s.subject, A.AnyAgent))  # only an Agent[..] may touch its verb
            head = who(s.subject) + glue
        head += s.word
        if isinstance(s, A.RoleSentence):
            return head + blank() + who(s.target) + blank() + s.role.value
        if isinstance(s, A.SpeciesSentence):
            return head + blank() + who(s.target) + blank() + s.species.value
        if isinstance(s, A.ActionSentence):
            return head + blank() + who(s.target)
        if isinstance(s, A.AgreeSentence):
            return head + blank() + s.ref.channel + blank() + f"day{s.ref.day}" + blank() + f"ID:{s.ref.id}"
        if isinstance(s, A.Directed):
            head += blank() + who(s.target)
        elif isinstance(s, A.DaySentence):
            head += blank() + str(s.day)
        groups = "".join(blank(False) + "(" + blank(False) + sentence(c) + blank(False) + ")" for c in s.children())
        return head + groups

    body = u.word if isinstance(u, A.Flow) else sentence(u)
    return blank(False) + body + blank(False)
