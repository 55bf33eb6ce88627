"""Known names of WWRF (spec §3–§5): triggers, ability shapes, selectors, keys, properties, types."""

from __future__ import annotations

_PHASES = ("Night", "Day", "Phase")

TRIGGERS: tuple[str, ...] = (
    *(f"{w} {p}" for w in ("Start", "End", "Immediate") for p in _PHASES),
    "Immediate",
    *(f"{o}Pre-End {p}" for o in ("", "Second ", "Third ", "Fourth ") for p in ("Night", "Day")),
    *(f"Passive {w} {p}" for w in ("Start", "End") for p in _PHASES),
    "Passive", "Starting", "On Assigned", "On Death", "On Killed", "On Lynch", "On Banishment",
    "On Banished", "On Defense", "On Active Defense", "On Passive Defense", "On Partial Defense",
    "On Recruitment Defense", "On Absence Defense", "On Visited", "On Visit", "On Action",
    "On Any Action", "On Redirect", "On Poll Closed", "On Poll Skipped", "On Poll Win", "On Vote Add",
    "On Vote Remove", "On Vote Change", "On Hammer", "On Role Change", "On Changed", "On Betrayal",
    "On Disbandment", "On Join", "On Removal", "On End", "On Emitted", "On End Emitted", "On Whisper",
    "Choice Chosen", "On Election", "On Mayor Election", "On Reporter Election", "On Guardian Election",
)
PROMPTING_TRIGGERS = frozenset(t for t in TRIGGERS if t.split()[0] in ("Start", "End", "Immediate") or "Pre-End" in t)

#: leading words of every ability shape (for "unknown ability" suggestions)
ABILITY_WORDS: tuple[str, ...] = (
    "Kill", "Attack", "Lynch", "True Kill", "Banish", "True Banish", "Role Investigate",
    "Class Investigate", "Category Investigate", "Alignment Investigate", "Attribute Investigate",
    "Investigate", "Target", "Untarget", "Weakly Disguise", "Strongly Disguise", "Protect", "Apply",
    "Add", "Remove", "Change", "Redirect", "Manipulate", "Whisper", "Join", "Leave", "Grant", "Revoke",
    "Transfer", "Loyalty", "Obstruct", "Cancel", "Silently", "Delete", "Create", "Learn", "Know",
    "Reveal", "Announce", "Role Change", "Alignment Change", "Group Change", "Choice Creation",
    "Choice Choose", "Increment Counter", "Decrement Counter", "Set Counter", "Emit", "End Emit",
    "Continue", "Success", "Failure", "Store", "Log", "Ascend", "Descend", "Win", "Disband",
    "Conversation Reset", "Switch", "Shuffle", "Copy", "Display", "Update", "Lock", "Unlock",
    "Execute", "Activate", "Resurrect", "Format",
)

BASIC_SELECTORS: tuple[str, ...] = (
    "Self", "All", "Others", "Dead", "Ghostly", "DeadAlive", "Nobody", "Target", "TargetDead",
    "Members", "Selection", "SecondarySelection", "Ind", "Result", "ThisAttr", "Chosen", "Option",
    "Attacker", "Attacked", "DeathType", "KillingType", "AttackSource", "AttackLocation", "This",
    "Visitor", "VisitParameter", "SecondVisitParameter", "VisitType", "VisitSubtype", "ActionTarget",
    "ActionResult", "ActionFeedback", "ActionAbilityType", "TriggerSource", "Winner", "Winner1", "Winner2", "Voters",
    "OtherVoters", "Executor", "Voter", "Vote", "VoteText", "OldVote", "NewVote", "OldVoteText",
    "NewVoteText", "RoleChanger", "Chooser", "Joiner",
    *(f"Result{i}" for i in range(1, 8)),
)
TEAM_SELECTORS = ("All", "Self", "Ind")
ROLE_SELECTORS = ("All",)

PLAYER_KEYS: tuple[str, ...] = (
    "Role", "Cat", "Category", "Class", "Align", "Alignment", "FullCat", "OrigRole", "OrigCat",
    "OrigClass", "OrigAlign", "OrigFullCat", "Group", "Attr", "Attribute", "AttrSelf", "AttrRole",
    "AttrDisguise", "AliveOnly", "Ghostly", "SelectAll", "Random",
)
TEAM_KEYS = ("Align", "Alignment", "Attr", "Attribute")
ROLE_KEYS = ("Cat", "Category", "Class", "Team", "Type", "Count")

PROPERTIES: tuple[str, ...] = (
    "Role", "Category", "Class", "OriginalRole", "Alignment", "Target", "Counter",
    "PublicVotingPower", "PrivateVotingPower", "RandomPlayer", "MostFreqRole", "Attr", "Count",
    "Team", "Type", "Players", "Members", "Source", "Value1", "Value2", "Value3", "Number", "Result",
    "Success", "Message",
)
PROPERTY_TYPES: dict[str, str] = {
    "role": "role", "category": "category", "class": "class", "originalrole": "role",
    "alignment": "team", "counter": "number", "publicvotingpower": "number",
    "privatevotingpower": "number", "randomplayer": "player", "mostfreqrole": "role",
    "attr": "attribute", "count": "number", "team": "team", "type": "string", "players": "player",
    "members": "player", "source": "source", "number": "number", "success": "success",
    "message": "info", "value1": "string", "value2": "string", "value3": "string",
}

DURATIONS: tuple[str, ...] = (
    "Persistent", "Permanent", "Phase", "NextPhase", "NextDay", "NextNight", "UntilUse",
    "UntilSecondUse", "Attribute", "PhaseAttribute", "NextPhaseAttribute", "NextDayAttribute",
    "NextNightAttribute", "UntilUseAttribute", "DelayedPhase",
)
GUIDE_ONLY_DURATIONS = frozenset({"DelayedPhase"})

VARIABLES = ("total", "living", "dead", "ghostly", "phase", "phname", "haunting")
VARIABLE_TYPES = {"phname": "string", "haunting": "boolean"}

TYPE_NAMES: tuple[str, ...] = (
    "player", "player_attr", "player_group", "player_any", "dead", "ghost", "role", "alignment",
    "team", "class", "category", "full_category", "string", "info", "number", "boolean", "source",
    "attribute", "active_attribute", "group", "location", "poll", "success", "result",
    "ability_type", "ability_subtype", "ability_category", "display", "display_value",
    "killing_type", "option", "phase", "duration", "any", "null", "actor", "variable_string",
    "extra_role", "active_extra_role",
)

SUCCESS_WORDS = ("success", "failure")
KILLING_TYPES = ("attack", "kill", "lynch", "true kill", "banish", "true banish")
CLASSES = ("townsfolk", "werewolf", "solo", "unaligned", "extra")
CATEGORIES = ("miscellaneous", "group", "power", "investigative", "killing", "align", "elected", "recruitment")
ABILITY_TYPES = (
    "killing", "investigating", "targeting", "disguising", "protecting", "applying", "redirecting",
    "manipulating", "whispering", "joining", "granting", "loyalty", "obstructing", "poll",
    "announcement", "announcements", "changing", "choices", "ascend", "descend", "disband",
    "counting", "reset", "cancel", "feedback", "success", "failure", "log", "process_evaluate",
    "abilities", "emit", "storing", "displaying", "win", "locking", "executing",
)
