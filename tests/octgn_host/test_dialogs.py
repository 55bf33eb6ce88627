"""Each decision kind opens the OCTGN dialog docs/octgn-host.md names, and its answer is checked."""
from __future__ import annotations

import pytest

from octgn_pack.host import codec, dialogs
from rulescript.runtime.ports import make_request


class Card:
    def __init__(self, cid):
        self._id = cid


class Dlg:
    def __init__(self, fake, cards):
        self.fake, self.cards = fake, cards
        self.title = self.text = ""
        self.min = self.max = None

    def show(self):
        self.fake.calls.append(("cardDlg", [c._id for c in self.cards], self.min, self.max, self.title))
        return self.fake.answers.pop(0)


class FakeOctgn:
    """OCTGN's dialog functions, answering from a list and recording each call."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls = []

    def confirm(self, text):
        self.calls.append(("confirm", text))
        return self.answers.pop(0)

    def askChoice(self, text, choices, colors, buttons):
        self.calls.append(("askChoice", text, list(choices), list(buttons)))
        return self.answers.pop(0)

    def askInteger(self, text, default):
        self.calls.append(("askInteger", text, default))
        return self.answers.pop(0)

    def cardDlg(self, cards):
        return Dlg(self, cards)


def describe(kind, option):
    return "card %s" % option if kind == "card" else "<%s>" % (option,)


def card_of(option):
    return Card(1000 + option) if isinstance(option, int) and not isinstance(option, bool) and option >= 10 else None


def ask(fake, req):
    return dialogs.ask(fake, req, describe, card_of)


def test_yes_no_is_a_confirm_naming_the_source_card():
    fake = FakeOctgn(False)
    req = make_request("yes_no", 0, [True, False], prompt="Gain 1 SP", source=12)
    assert ask(fake, req) == (True, False)
    assert fake.calls == [("confirm", "card 12: Gain 1 SP?")]


def test_card_targets_are_a_card_dialog_with_min_and_max():
    fake = FakeOctgn([Card(1012), Card(1011)])
    req = make_request("choose_targets", 1, [11, 12, 13], 1, 2, "choose 1 to 2 targets")
    assert ask(fake, req) == (True, [12, 11])
    assert fake.calls == [("cardDlg", [1011, 1012, 1013], 1, 2, "choose 1 to 2 targets")]


def test_an_order_is_a_card_dialog_choosing_every_card():
    fake = FakeOctgn([Card(1013), Card(1011), Card(1012)])
    req = make_request("arrange", 0, [11, 12, 13], 3, 3, "order the cards")
    assert ask(fake, req) == (True, [13, 11, 12])
    assert fake.calls[0][2:4] == (3, 3)


def test_targets_that_are_not_all_cards_are_chosen_one_at_a_time_with_a_done_button():
    fake = FakeOctgn(2, -1)
    req = make_request("choose_targets", 0, [11, {"player": 1}, 12], 1, 3)
    assert ask(fake, req) == (True, [{"player": 1}])
    assert [c[3] for c in fake.calls] == [[], ["Done"]]
    assert fake.calls[1][2] == ["<11>", "<12>"]


def test_one_option_is_an_ask_choice_and_many_numbers_an_ask_integer():
    fake = FakeOctgn(2)
    assert ask(fake, make_request("choose_slot", 0, [0, 2, 3])) == (True, 2)
    assert fake.calls[0][:3] == ("askChoice", "choose slot", ["<0>", "<2>", "<3>"])
    by_number = lambda kind, option: str(option)  # noqa: E731 - numbers named by their number (an amount)
    fake = FakeOctgn(17)
    assert dialogs.ask(fake, make_request("choose_action", 0, list(range(1, 21)), prompt="pay"), by_number,
                       card_of) == (True, 17)
    assert fake.calls == [("askInteger", "pay (1 to 20)", 1)]
    assert dialogs.ask(FakeOctgn(25), make_request("choose_action", 0, list(range(1, 21))), by_number, card_of)[0] is False


def test_closing_a_dialog_cancels_only_where_the_decision_allows_it():
    assert ask(FakeOctgn(0), make_request("choose_action", 0, ["a", "b"], cancel=True)) == (True, None)
    ok, why = ask(FakeOctgn(0), make_request("choose_action", 0, ["a", "b"]))
    assert not ok and "closed" in why
    assert ask(FakeOctgn(None), make_request("choose_targets", 0, [11, 12], 1, 1, cancel=True)) == (True, None)
    assert ask(FakeOctgn(None), make_request("choose_targets", 0, [11, 12], 1, 1))[0] is False


@pytest.mark.parametrize("reason", ['say "x"', "a\\nb", "'''", "''''", "x\nnew line"])
def test_reasons_sent_to_other_clients_pass_the_sandbox(reason):
    text = codec.safe_text(reason)
    assert '"' not in text and "\\" not in text and "\n" not in text and "'''" not in text


def test_many_named_options_are_pages_of_names_with_more_and_back():
    names = {i: "P%d" % (i + 1) for i in range(15)}

    def named(kind, option):
        return names[option] if kind != "card" else "card"

    # More (-1) to page 2, where the only button, Back, is -1 again; then the third name of page 1
    fake = FakeOctgn(-1, -1, 3)
    req = make_request("vote", 0, list(range(15)), prompt="lynch")
    assert dialogs.ask(fake, req, named, lambda o: None, title="Lynch — vote for a player") == (True, 2)
    assert fake.calls[0] == ("askChoice", "Lynch — vote for a player (1 of 2)", ["P%d" % i for i in range(1, 11)],
                             ["More"])
    assert fake.calls[1] == ("askChoice", "Lynch — vote for a player (2 of 2)", ["P11", "P12", "P13", "P14", "P15"],
                             ["Back"])
    fake = FakeOctgn(-1, 2)
    assert dialogs.ask(fake, req, named, lambda o: None) == (True, 11)  # the second name of page 2: P12
    assert dialogs.ask(FakeOctgn(None), req, named, lambda o: None)[0] is False
