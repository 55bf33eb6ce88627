"""Decisions put to the local player with OCTGN's dialogs (the decider side of the host).

The Main, Attack and Defense decisions of a game (options such as ``{"do": "play", "card": iid}``)
are answered with the card and table menus (see host.py); every other decision opens a dialog at
once on the client of the player who decides:

=====================  ====================================================================
``yes_no``             ``confirm``
``choose_targets``     ``cardDlg`` with ``min``/``max`` when every option is a card; otherwise
                       ``askChoice`` one option at a time with a *Done* button
``arrange``            ``cardDlg`` choosing every card, in the new order (top first)
many numbers           ``askInteger`` (more than ``MAX_CHOICES`` integer options named by their number)
many named options     ``askChoice`` in pages of ``PAGE`` options, with *More* and *Back* buttons
                       (more than ``MAX_CHOICES`` options with names: the players of 15 seats)
any other kind         ``askChoice`` with one button per option
=====================  ====================================================================

A dialog closed without an answer leaves the decision open (the player reopens it with the table
menu "Answer the open question"), except where the request allows cancelling: then closing it is
the cancel.
"""
from __future__ import absolute_import, division, print_function

from rulescript.runtime.ports import check_answer
from rulescript.runtime.errors import InvalidDecision

MAX_CHOICES = 12
PAGE = 10
MORE, BACK = "More", "Back"


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def ask(octgn, request, describe, card_of, close_cancels=True, title=None):
    """Ask ``request`` of the local player: ``(True, answer)`` or ``(False, reason)`` if not answered.

    ``describe(kind, option)`` names an option; ``card_of(option)`` is the OCTGN card an option stands
    for, or None when it is not a card.  With ``close_cancels`` False a closed dialog leaves the
    decision open even where it may be cancelled (a menu item opened it; another item declines it).
    ``title`` (the table face's words for the question) replaces the prompt key in the dialog."""
    kind = request["kind"]
    options = request["options"]
    prompt = request.get("prompt") or kind.replace("_", " ")
    if title:
        prompt = title
    elif request.get("source") is not None and card_of(request["source"]) is not None:
        prompt = "%s: %s" % (describe("card", request["source"]), prompt)
    if kind == "yes_no" and set(options) == set([True, False]):
        return True, bool(octgn.confirm(prompt + "?"))
    if kind in ("choose_targets", "arrange"):
        cards = [card_of(o) for o in options]
        if options and None not in cards:
            answer = _card_dialog(octgn, request, prompt, cards)
        else:
            answer = _choices(octgn, request, prompt, describe)
    elif len(options) > MAX_CHOICES and [describe(kind, o) for o in options] != [str(o) for o in options]:
        answer = _paged(octgn, prompt, options, [describe(kind, o) for o in options])
    elif len(options) > MAX_CHOICES and all([_is_int(o) for o in options]):
        answer = octgn.askInteger("%s (%s to %s)" % (prompt, min(options), max(options)), options[0])
        if answer is not None and answer not in options:
            return False, "%s is not one of the numbers offered" % answer
    else:
        labels = [describe(kind, o) for o in options]
        i = octgn.askChoice(prompt, labels, [], [])
        answer = options[i - 1] if i and 0 < i <= len(options) else None
    if answer is None:
        if request.get("cancel") and close_cancels:
            return True, None
        return False, "the dialog was closed"
    try:
        return True, check_answer(request, answer)
    except InvalidDecision as e:
        return False, e.why


def _paged(octgn, prompt, options, labels):
    """One option of many by name: pages of ``PAGE`` labels, *More* to the next page, *Back* to the
    one before; None when the dialog is closed."""
    start = 0
    pages = (len(options) + PAGE - 1) // PAGE
    while True:
        page = labels[start:start + PAGE]
        buttons = ([MORE] if start + PAGE < len(options) else []) + ([BACK] if start else [])
        text = "%s (%d of %d)" % (prompt, start // PAGE + 1, pages)
        i = octgn.askChoice(text, page, [], buttons)
        if i is not None and i < 0:
            start = start + PAGE if buttons[-i - 1] == MORE else start - PAGE
            continue
        if not i or i > len(page):
            return None
        return options[start + i - 1]


def _card_dialog(octgn, request, prompt, cards):
    n = len(cards)
    dlg = octgn.cardDlg(cards)
    dlg.title = prompt
    if request["kind"] == "arrange":
        dlg.text = "Choose every card, in the new order (top first)"
        dlg.min = dlg.max = n
    else:
        dlg.min = request["min"]
        dlg.max = min(request["max"], n)
    picked = dlg.show()
    if picked is None:
        return None
    by_id = dict((c._id, i) for i, c in enumerate(cards))
    out = []
    for c in picked:
        i = by_id.get(c._id)
        if i is None:
            return None
        out.append(request["options"][i])
    return out


def _choices(octgn, request, prompt, describe):
    """A list answer without a card dialog: one askChoice per pick, with a Done button."""
    kind = request["kind"]
    left = list(request["options"])
    want_all = kind == "arrange"
    mx = len(left) if want_all else request["max"]
    mn = len(left) if want_all else request["min"]
    out = []
    while left and len(out) < mx:
        buttons = ["Done"] if len(out) >= mn else []
        i = octgn.askChoice("%s (%d chosen)" % (prompt, len(out)), [describe(kind, o) for o in left], [],
                            buttons)
        if i is not None and i < 0:
            break
        if not i or i > len(left):
            return None
        out.append(left.pop(i - 1))
    return out
