"""The night/day narrative of a werewolf game: one line per effect record, and who may read it.

``rulescript play cards/werewolf --auto`` prints these lines (``rulescript/sim/wolf.py``), the
interactive table prints the ones its player may see, and the OCTGN host writes them to the chat
through the table face (``table.py``): public lines for everybody, the others whispered to their
readers only.

    line(record, name, who)  ->  the text, or None (not worth a line)
    audience(record)         ->  None (everybody), or the seats that may read it

``name(element id)`` names an element (a role, a team, a poll...); ``who(seat)`` names a player.
"""
from __future__ import absolute_import, division, print_function

#: records everybody sees (a group's polls and channel only its members: the record's ``to``)
PUBLIC = ("setup", "phase", "death", "announce", "win", "gameover", "poll_open", "vote", "unvote", "revote",
          "poll_close", "poll_random", "reveal", "resurrect", "ascended", "descended", "left", "poll_cancelled", "poll_deleted",
          "channel_reset")


def audience(record):
    """None if every player may read the record; else the list of the seats that may.

    Public records are read by everybody, unless they happen in a group (the record names the
    group's members at that moment in ``to``); every other record only by the player it concerns."""
    if record.get("type") in PUBLIC:
        to = record.get("to")
        return None if to is None else list(to)
    if record.get("type") == "protect":
        # WWRF: protecting gives its target a defense attribute and tells nobody; the protector knows
        # what they did (the target learns only what a rule says: On Visited [Protecting], a Learn)
        p = record.get("protector")
        return [p] if isinstance(p, int) and not isinstance(p, bool) and p >= 0 else []
    p = record.get("player")
    if isinstance(p, int) and not isinstance(p, bool) and p >= 0:
        return [p]
    return []


def action_words(prompt):
    """The plain verb of an action's prompt key: ``seer.divine`` -> ``divine``, ``pack-hunt`` ->
    ``pack hunt`` (a second selection, ``...#2``, asks the same)."""
    word = str(prompt).split("#")[0].split(".")[-1]
    return word.replace("-", " ").replace("_", " ").strip() or str(prompt)


def player_line(rec, name, who):
    """A line for players to read (the table and the OCTGN chat): the lines of :func:`line`, with role,
    poll and place names where the narrative (a designer's log, matched by scenarios) has ids."""
    t = rec["type"]
    if t == "use":
        target = "" if rec["target"] is None else " %s" % who(rec["target"])
        if rec.get("value") is not None:
            target = ", naming %s" % name(rec["value"])
        owner = name(str(rec.get("ability") or "").split("--")[0])
        return "  %s uses the power of the %s to %s%s." % (who(rec["player"]), owner,
                                                            action_words(rec.get("prompt") or ""), target)
    if t == "poll_open":
        title = " as %s" % rec["title"] if rec.get("title") else ""
        return "  The %s poll opens in %s%s." % (name(rec["poll"]), _place(rec["where"], name), title)
    if t == "reveal":
        return "  [%s] %s" % (_place(rec["where"], name), rec["text"])
    if t == "channel_reset":
        return "  [%s] The channel is wiped: it starts empty." % _place(rec["where"], name)
    if t == "poll_deleted":
        return "  The %s poll is not held." % name(rec["poll"])
    if t == "poll_cancelled":
        return "  The %s poll is cancelled: it has no result." % name(rec["poll"])
    if t == "forced":
        owner = name(str(rec.get("ability") or "").split("--")[0])
        return "  %s did not use the power of the %s: it is used on %s." % (who(rec["player"]), owner,
                                                                           who(rec["target"]))
    return line(rec, name, who)


def _place(where, name):
    return "your own channel" if where in (None, "self") else name(where)


def line(rec, name, who):
    """One effect record as a line of the narrative (None: not worth a line)."""
    def el(eid):
        return name(eid) if eid else "?"

    seat_name = who

    def who(p):  # a vote may name a word option of a poll (Yes, Abstain) instead of a player
        if isinstance(p, int) or p is None:
            return seat_name(p)
        return ("%s" % (p,)).capitalize()

    t = rec["type"]
    if t == "setup":
        return "A game of werewolf with %d players: %s." % (len(rec["players"]),
                                                            ", ".join([who(i) for i in range(len(rec["players"]))]))
    if t == "deal":
        return "  %s is dealt %s (face down)." % (who(rec["player"]), el(rec["role"]))
    if t == "phase":
        return "\n== %s %d ==" % (rec["phase"].title(), rec["number"])
    if t == "use":
        target = "" if rec["target"] is None else " on %s" % who(rec["target"])
        if rec.get("value") is not None:  # an action that selects a value, not a player (a role...)
            target = " naming %s" % rec["value"]
        return "  %s uses %s%s." % (who(rec["player"]), rec["prompt"], target)
    if t == "poll_deleted":
        return "  Poll %s is not held." % rec["poll"]
    if t == "poll_cancelled":
        return "  Poll %s is cancelled: it has no result." % rec["poll"]
    if t == "disguise":
        return "  %s is disguised (%s) as %s." % (who(rec["player"]), rec["strength"], el(rec["role"]))
    if t == "whisper":
        to = rec["to"] if rec.get("players") is None else "%s (%s)" % (
            el(rec["to"]), ", ".join([who(p) for p in rec["players"]]) or "nobody")
        return "  %s opens a whisper to %s as %s." % (who(rec["player"]), to, rec["as"])
    if t == "obstruct":
        return "  %s is obstructed (%s)." % (who(rec["player"]), rec["abilities"])
    if t == "channel_reset":
        return "  [%s] The channel is wiped: it starts empty." % rec["where"]
    if t == "delayed_start":
        return "  A delayed %s on %s comes into force." % (rec["effect"], who(rec["player"]))
    if t == "loyal":
        return "  %s stays loyal to %s." % (who(rec["player"]), el(rec["team"]))
    if t == "grant":
        return "  %s gets the extra role %s." % (who(rec["player"]), el(rec["role"]))
    if t == "revoke":
        return "  %s loses the extra role %s." % (who(rec["player"]), el(rec["role"]))
    if t == "transfer":
        return "  %s passes %s to %s." % (who(rec["from"]), el(rec["role"]), who(rec["player"]))
    if t == "role_change":
        return "  %s's role becomes %s." % (who(rec["player"]), el(rec["role"]))
    if t == "team":
        return "  %s now belongs to %s." % (who(rec["player"]), el(rec["team"]))
    if t == "redirected":
        return "  An ability on %s is redirected to %s." % (who(rec["player"]), who(rec["to"]))
    if t == "cancelled":
        return "  The visit of %s to %s is cancelled." % (who(rec["visitor"]), who(rec["player"]))
    if t == "obstructed":
        return "  %s's %s ability fails: obstructed." % (who(rec["player"]), rec["ability"])
    if t in ("ascended", "descended", "left"):
        return "  %s leaves the game (%s)." % (who(rec["player"]), t)
    if t == "resurrect":
        return "  %s comes back to life." % who(rec["player"])
    if t == "emitted":
        return "  %s receives '%s'%s." % (who(rec["player"]), rec["value"], " (end of phase)" if rec.get("end") else "")
    if t == "chosen":
        return "  %s chooses %s for %s." % (who(rec["player"]), rec["option"], rec["choice"])
    if t == "disband":
        return "  %s is disbanded." % el(rec["group"])
    if t == "forced":
        return "  %s did not use %s: it is forced on %s." % (who(rec["player"]), rec["ability"], who(rec["target"]))
    if t == "investigate":
        return "  %s investigates %s: %s." % (who(rec["player"]), who(rec["target"]), rec["result"])
    if t == "learn":
        return "  %s learns: %s" % (who(rec["player"]), rec["text"])
    if t == "reveal":
        return "  [%s] %s" % (rec["where"], rec["text"])
    if t == "announce":
        return "  The narrator announces: %s" % rec["text"]
    if t == "protect":
        return "  %s is protected from %s (%s defense)." % (who(rec["player"]), rec["against"], rec["kind"])
    if t == "defended":
        return "  The %s on %s fails: %s defense from %s." % (rec["killing"], who(rec["player"]), rec["kind"],
                                                             el(rec["defense"]))
    if t == "death":
        return "  %s dies (%s). They were %s." % (who(rec["player"]), rec["killing"], el(rec["role"]))
    if t == "poll_open":
        title = " as %s" % rec["title"] if rec.get("title") else ""
        return "  Poll %s opens in %s%s." % (el(rec["poll"]), rec["where"], title)
    if t == "vote":
        return "    %s votes for %s." % (who(rec["player"]), who(rec["target"]))
    if t == "unvote":
        return "    %s takes back the vote for %s." % (who(rec["player"]), who(rec["target"]))
    if t == "revote":
        return "    %s changes the vote from %s to %s." % (who(rec["player"]), who(rec["old"]), who(rec["target"]))
    if t == "poll_random":
        return "  The option Random of poll %s lands on %s." % (el(rec["poll"]), who(rec["player"]))
    if t == "poll_close":
        votes = ", ".join(["%s %d" % (who(p), n) for p, n in rec["votes"]])
        won = "no winner" if rec["winner"] is None else "%s wins" % who(rec["winner"])
        if not votes:  # a winner by hidden votes only: the display shows none
            votes = "no votes shown" if rec["winner"] is not None else "no votes"
        return "  Poll %s closes: %s (%s)." % (el(rec["poll"]), won, votes)
    if t == "attribute":
        return "  %s %s %s." % (who(rec["player"]), "gains" if rec["on"] else "loses", el(rec["attribute"]))
    if t == "join":
        return "  %s joins %s." % (who(rec["player"]), el(rec["group"]))
    if t == "win":
        return "\n%s win: %s." % (el(rec["team"]), ", ".join([who(p) for p in rec["players"]]))
    if t == "gameover":
        return "Game over: %s." % (rec["reason"] or "no winner")
    if t == "rule_error":
        e = rec["error"]
        return "  RULE ERROR %s at %s:%s: %s" % (e["code"], e["file"], e["line"], e["message"])
    return None
