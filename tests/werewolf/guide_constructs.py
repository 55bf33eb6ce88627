"""Every WWRF construct of the spec (/work/shared/spec/wwrf.md §3 triggers, §4 abilities, §5 values and
selectors, §6 conditions, §2.3 parameters) and of the formalization guides, as data.

One row per construct: (category, name, sample, how).  ``category`` and ``name`` are what the renderer
records when it renders the construct (``wwrf render --report``); ``sample`` is a WWRF line that uses it;
``how`` says how the project's game covers it:

* ``SCENARIO``: a role of ``cards/werewolf/roles`` uses it and a passing scenario resolved the rule
  section it was rendered into;
* ``RESERVED``: rendered faithfully as a listener of an event the game never fires (the guide says the
  trigger is reserved: accepted, never fired); a scenario loads it and it never resolves;
* any other text: why the renderer does not render it; the sample must then get a located
  ``WW401`` "not supported" diagnostic (docs/werewolf.md lists these).

``tests/werewolf/test_coverage.py`` checks the rows against the renderer, the book and the scenarios,
and checks that every name the WWRF front end knows (``wwrf_adapter/vocab.py``) has a row.
"""
from __future__ import annotations

SCENARIO = "scenario"
RESERVED = "reserved"

N = "Immediate Night: "
L = "Immediate Night: Learn "

TRIGGERS = [
    ("trigger", t, f"{t}: Learn `bell` {{Forced}}", SCENARIO) for t in (
        "Start Night", "Start Day", "Start Phase", "End Night", "End Day", "End Phase", "Immediate Night",
        "Immediate Day", "Immediate Phase", "Immediate", "Pre-End Night", "Pre-End Day", "Second Pre-End Night",
        "Second Pre-End Day", "Third Pre-End Night", "Third Pre-End Day", "Fourth Pre-End Night",
        "Fourth Pre-End Day")
] + [
    ("trigger", t, f"{t}: Learn `passive`", SCENARIO) for t in (
        "Passive Start Day", "Passive Start Night", "Passive Start Phase", "Passive End Day", "Passive End Night",
        "Passive End Phase", "Passive", "Starting", "On Assigned", "On Death", "On Killed", "On Lynch",
        "On Banishment", "On Banished", "On Defense", "On Active Defense", "On Passive Defense",
        "On Partial Defense", "On Recruitment Defense", "On Absence Defense", "On Visited", "On Visit",
        "On Action", "On Any Action", "On Redirect", "On Poll Closed", "On Poll Skipped", "On Poll Win",
        "On Vote Add", "On Vote Remove", "On Vote Change", "On Hammer", "On Role Change", "On Changed",
        "On Betrayal", "On Disbandment", "On Join", "On Removal", "On End", "On Emitted", "On End Emitted",
        "On Whisper", "Choice Chosen")
] + [
    ("trigger", f"{t} (complex)", f"On @Others {t[3:]}: Learn `@This`", SCENARIO)
    for t in ("On Death", "On Killed", "On Banishment", "On Banished", "On Changed", "On Visited", "On Visit",
              "On Action")
] + [
    ("trigger", t, f"{t}: Learn `elected`", RESERVED)
    for t in ("On Election", "On Mayor Election", "On Reporter Election", "On Guardian Election")
] + [
    ("trigger filter", "type", "On Visited [Killing]: Learn `x`", SCENARIO),
    ("trigger filter", "subtype", "On Visited [Attack Killing]: Learn `x`", SCENARIO),
    ("trigger filter", "!type", "On Action [!Killing]: Learn `x`", SCENARIO),
    ("trigger", "On Poll Win", "On Poll `Lynch` Win: Learn `x`", SCENARIO),
    ("trigger", "On Emitted", "On `Decoy` Emitted: Learn `x`", SCENARIO),
    ("trigger", "Choice Chosen", "Choice `Heal` Chosen: Learn `x`", SCENARIO),
    ("key line", "Win Condition", "Win Condition: @(Align:Villagers)", SCENARIO),
]

ABILITIES = [
    ("ability", "killing/kill", N + "Kill @Selection", SCENARIO),
    ("ability", "killing/attack", N + "Attack @Selection", SCENARIO),
    ("ability", "killing/lynch", N + "Lynch @Selection", SCENARIO),
    ("ability", "killing/true kill", N + "True Kill @Selection", SCENARIO),
    ("ability", "killing/banish", N + "Banish @Selection", SCENARIO),
    ("ability", "killing/true banish", N + "True Banish @Selection", SCENARIO),
    ("ability", "investigating/role", N + "Role Investigate @Selection (SD, WD)", SCENARIO),
    ("ability", "investigating/class", N + "Class Investigate @Selection", SCENARIO),
    ("ability", "investigating/category", N + "Category Investigate @Selection (WD)", SCENARIO),
    ("ability", "investigating/alignment", N + "Alignment Investigate @Selection (SD)", SCENARIO),
    ("ability", "investigating/attribute", N + "Attribute Investigate @Selection for `Lupine`", SCENARIO),
    ("ability", "investigating/count", N + "Investigate `Seer` Count", SCENARIO),
    ("ability", "investigating/player count", N + "Investigate @Others Player Count", SCENARIO),
    ("ability", "targeting/target", N + "Target @Selection (Player)", SCENARIO),
    ("ability", "targeting/untarget", N + "Untarget", SCENARIO),
    ("ability", "disguising/weakly", N + "Weakly Disguise @Selection as `Seer` (~Phase)", SCENARIO),
    ("ability", "disguising/strongly", N + "Strongly Disguise @Selection as `Seer`", SCENARIO),
    ("ability", "protecting/active", N + "Protect @Selection from `Attacks` through Active Defense", SCENARIO),
    ("ability", "protecting/passive", N + "Protect @Selection from `Kills` through Passive Defense", SCENARIO),
    ("ability", "protecting/partial", N + "Protect @Selection from `Lynches` through Partial Defense", SCENARIO),
    ("ability", "protecting/recruitment", N + "Protect @Selection from `All` through Recruitment Defense",
     SCENARIO),
    ("ability", "protecting/absence", N + "Protect @Self from `Attacks & Lynches` through Absence at @Self",
     SCENARIO),
    ("ability", "protecting (by)", N + "Protect @Selection from `Kills` by @(Align:Werewolves) through Active "
     "Defense", SCENARIO),
    ("ability", "protecting (during)", N + "Protect @Selection from `Banishments` through Absence at @Self "
     "during Night", SCENARIO),
    ("ability", "protecting/absence (another place)",
     N + "Protect @Selection from `Attacks` through Absence at #Werewolf-Pack", SCENARIO),
    ("ability", "applying/add", N + "Apply `Inked` to @Selection (~Phase) (a, b)", SCENARIO),
    ("ability", "applying/remove", N + "Remove `Inked` from @Selection", SCENARIO),
    ("ability", "applying/change", N + "Change `Inked` value `1` to `b` for @Selection", SCENARIO),
    ("ability", "applying/add", N + "Add `Inked` to @Selection", SCENARIO),  # the newer guide's spelling
    ("ability", "redirecting", N + "Redirect `Killing` from @Others to @Selection", SCENARIO),
    ("ability", "manipulating/absolute", N + "Manipulate @Selection's `public voting power` to `2`", SCENARIO),
    ("ability", "manipulating/relative", N + "Manipulate @Selection's `special public voting power` by `1`",
     SCENARIO),
    ("ability", "manipulating (hidden public voting power)",
     N + "Manipulate @Selection's `hidden public voting power` by `1`", SCENARIO),
    ("ability", "manipulating (lynch starting votes)", N + "Manipulate @Selection's `lynch starting votes` by `1`",
     SCENARIO),
    ("ability", "whispering", N + "Whisper to #Werewolf-Pack as `Stranger` (~Phase)", SCENARIO),
    ("ability", "joining/add", N + "Join #Werewolf-Pack", SCENARIO),
    ("ability", "joining/remove", N + "Leave #Werewolf-Pack", SCENARIO),
    ("ability", "granting/add", N + "Grant `Torch Bearer` to @Selection", SCENARIO),
    ("ability", "granting/remove", N + "Revoke `Torch Bearer` from @Selection", SCENARIO),
    ("ability", "granting/transfer", N + "Transfer @ThisAttr from @Self to @Selection", SCENARIO),
    ("ability", "loyalty/alignment", N + "Loyalty to `Villagers` (Alignment)", SCENARIO),
    ("ability", "obstructing", N + "Obstruct Killing for @Selection ⇒ `Failure` (~Phase)", SCENARIO),
    ("ability", "obstructing (chance)", N + "Obstruct Killing for @Selection ⇒ (0.5:`a`,0.5:`b`)", SCENARIO),
    ("ability", "poll/addition", N + "Add `Lynch` Poll", SCENARIO),
    ("ability", "poll/cancellation", N + "Cancel `Lynch` Poll", SCENARIO),
    ("ability", "poll/deletion", N + "Delete `Lynch` Poll", SCENARIO),
    ("ability", "poll/creation", N + "Create `Lynch` Poll in #village_square as `Trial`", SCENARIO),
    ("ability", "poll/manipulation", N + "Manipulate `Lynch` Poll (@Selection has `2` hidden votes)", SCENARIO),
    ("ability", "announcement/learn", N + "Know `x`", SCENARIO),
    ("ability", "announcement/reveal", N + "Reveal `x` to #Werewolf-Pack", SCENARIO),
    ("ability", "announcement/announce", N + "Announce `x`", SCENARIO),
    ("ability", "changing/role", N + "Role Change @Selection to `Werewolf`", SCENARIO),
    ("ability", "changing/alignment", N + "Alignment Change @Selection to `Werewolves`", SCENARIO),
    ("ability", "changing/group", N + "Group Change #Lovers to #Werewolf-Pack", SCENARIO),
    ("ability", "choices/creation", "Starting: `Side` Choice Creation (Good, Bad)", SCENARIO),
    ("ability", "choices/choosing", N + "`Side` Choice Choose @Chosen", SCENARIO),
    ("ability", "choices/choosing (fixed option)", N + "`Side` Choice Choose `Good`", SCENARIO),
    ("ability", "counting/increment", N + "Increment Counter by 2 for @Selection", SCENARIO),
    ("ability", "counting/decrement", N + "Decrement Counter", SCENARIO),
    ("ability", "counting/set", N + "Set Counter to 2", SCENARIO),
    ("ability", "emit", N + "Emit `Decoy` for @Selection", SCENARIO),
    ("ability", "emit/end", N + "End Emit `Decoy`", SCENARIO),
    ("ability", "feedback", "On Visited: `Nobody home`", SCENARIO),
    ("ability", "storing", N + "Store `2`", SCENARIO),
    ("ability", "log", N + "Log `x` as `label`", SCENARIO),
    ("ability", "ascend", N + "Ascend", SCENARIO),
    ("ability", "descend", N + "Descend", SCENARIO),
    ("ability", "win", "Passive: Win", SCENARIO),
    ("ability", "disband", N + "Disband", SCENARIO),
    ("ability", "disband (another group)", N + "Disband #Lovers", SCENARIO),
    ("ability", "reset", N + "Conversation Reset", SCENARIO),
    ("ability", "reset (another channel)", N + "Conversation Reset #Werewolf-Pack", SCENARIO),
    ("ability", "cancel", "On Visited: Cancel with Success", SCENARIO),
    ("ability", "cancel (feedback text)", "On Visited: Cancel with `Nobody home`", SCENARIO),
    ("ability", "switching", N + "Switch with @Selection", SCENARIO),
    ("ability", "shuffle", N + "Shuffle `a` `b`", SCENARIO),
    ("ability", "copying", N + "Copy @Selection", SCENARIO),
    ("ability", "copying (suppressed)", N + "Copy @Selection (Suppressed)", SCENARIO),
    ("ability", "displaying/create", N + "Display `Potions` (a, b)", SCENARIO),
    ("ability", "displaying/change", N + "Update `Potions` value `1` to `c`", SCENARIO),
    ("ability", "locking/lock", N + "Lock #village_square", SCENARIO),
    ("ability", "locking/unlock", N + "Unlock #village_square", SCENARIO),
    ("ability", "executing", N + "Execute `ListAlive` to #village_square", SCENARIO),
    ("ability", "activating/while", N + "Activate @Self while `Ghostly`", SCENARIO),
    ("ability", "resurrecting", N + "Resurrect @Selection", SCENARIO),
    ("ability", "formatting", N + "Format @All as `* $`", SCENARIO),
    ("ability", "formatting (split)", N + "Format `a,b` as `* $` split by `,` as `role`", SCENARIO),
    ("ability", "targeting/target (not a player)", N + "Target @Selection (Role)", SCENARIO),
    ("structure", "Process", N + "Process: Store `2`", SCENARIO),
    ("structure", "Evaluate", N + "Evaluate: @Selection exists: Learn `x`", SCENARIO),
]

STRUCTURE = [
    ("structure", "Otherwise", "Immediate Night: [Condition: @Selection is not @Self]\n"
     "  • Process: Attribute Investigate @Selection for `Lupine`\n  ‣ @Result is `Success`: Learn `wolf`\n"
     "  ‣ Otherwise: Learn `human`", SCENARIO),
    ("structure", "always line", "Passive Start Day:\n  • Learn `always`\n  • @Self->Counter > 0: Learn `more`",
     SCENARIO),
    ("structure", "Continue", "Passive Start Day:\n  • @Self->Counter > 0:\n    ‣ Learn `more`\n"
     "    ‣ Continue\n  • Otherwise: Learn `end`", SCENARIO),
    ("structure", "For Each", "Passive: For Each @Others: Learn `@Ind`", SCENARIO),
]

CONDITIONS = [
    ("condition", op, L + f"`x` [Condition: {text}]", SCENARIO) for op, text in (
        ("is", "@Self->Counter is 2"), ("is not", "@Self->Counter is not 2"), (">", "@Self->Counter > 2"),
        ("<", "@Self->Counter < 2"), ("exists", "@Target exists"), ("has", "@Self has `Lupine`"),
        ("lacks", "@Self lacks `Lupine`"), ("in", "@Self is in #Werewolf-Pack"),
        ("part of", "@Self->Role is part of `Seer`+`Medium`"), ("not", "not (@Target exists)"),
        ("and", "(@Target exists) and (@Self has `Lupine`)"), ("or", "(@Target exists) or (@Self has `Lupine`)"),
        ("and-or", "(@Target exists) and (@Self has `Lupine`) or (@Self lacks `Lupine`)"),
        ("or-and", "(@Target exists) or (@Self has `Lupine`) and (@Self lacks `Lupine`)"))
] + [("condition", "is not (selection)", N + "Kill @Selection [Condition: @Selection is not @Self]", SCENARIO)]

PARAMETERS = [
    ("restriction", "temporal", L + "`x` [Temporal: Night 2+]", SCENARIO),
    ("restriction", "quantity", L + "`x` [Quantity: 1]", SCENARIO),
    ("restriction", "status", L + "`x` [Status: Ghostly]", SCENARIO),
    ("restriction", "succession", L + "`x` [Succession: No Target Succession]", SCENARIO),
    ("restriction", "condition", L + "`x` [Condition: @Target exists]", SCENARIO),
    ("restriction", "attribute", L + "`x` [Attribute: @Self has `Lupine`]", SCENARIO),
    ("restriction", "quantity (value)", L + "`x` [Quantity: @Self->Counter]", SCENARIO),
    ("scaling", "static", L + "`x` ⟨x2⟩", SCENARIO),
    ("scaling", "odd", L + "`x` ⟨Odd: x1, Even: x2⟩", SCENARIO),
    ("scaling", "even", L + "`x` ⟨Even: x2⟩", SCENARIO),
    ("scaling", "ratio", L + "`x` ⟨$living/3⟩", SCENARIO),
    ("scaling", "compare", L + "`x` ⟨$living≥8 ⇒ x2, 1⟩", SCENARIO),
    ("scaling", "value", L + "`x` ⟨@Self->Counter⟩", SCENARIO),
    ("parameter", "Forced", N + "Kill @Selection {Forced}", SCENARIO),
    ("parameter", "Forced: value", N + "Kill @Selection {Forced: @Others->RandomPlayer}", SCENARIO),
    ("parameter", "Direct", N + "Kill @Selection {Direct}", SCENARIO),
    ("parameter", "Visitless", N + "Kill @Selection {Visitless}", SCENARIO),
    ("parameter", "Vanishing", N + "Kill @Selection {Vanishing}", SCENARIO),
    ("parameter", "Repeating", N + "Kill @Selection {Repeating}", SCENARIO),  # archive only: the game ignores it
    ("parameter", "prompt", N + "Kill @Selection |w.kill|", SCENARIO),
    ("parameter", "prompt (silent)", N + "Kill @Selection |silent:w.kill|", SCENARIO),
] + [
    ("duration", d, N + f"Obstruct @Selection (~{d})", SCENARIO)
    for d in ("Phase", "NextPhase", "NextDay", "NextNight", "Permanent", "Persistent", "UntilUse", "UntilSecondUse",
              "Attribute", "PhaseAttribute", "NextPhaseAttribute", "NextDayAttribute", "NextNightAttribute",
              "UntilUseAttribute")
] + [("duration", "DelayedPhase", N + "Obstruct @Selection (~DelayedPhase)", SCENARIO)]

SELECTORS = [
    ("selector", f"@{n}", L + f"`x @{n} x`", SCENARIO) for n in (
        "Selection", "SecondarySelection", "This", "Attacker", "Visitor", "Winner", "Joiner", "Vote",
        "ActionTarget", "Target", "TargetDead", "Chooser", "Voter", "OldVote", "NewVote", "VoteText",
        "OldVoteText", "NewVoteText", "VisitParameter", "SecondVisitParameter", "AttackLocation",
        "AttackSource", "ActionResult", "ActionFeedback", "ActionAbilityType", "DeathType", "KillingType",
        "Option", "Result", "Executor", "Voters", "OtherVoters", "Ind")
] + [
    ("selector", "@ThisAttr", N + "Remove @ThisAttr from @Self", SCENARIO),
] + [
    ("selector", "@Self", N + "Kill @Self", SCENARIO),
    ("selector", "@Attacked", "On Defense: Learn `x @Attacked x`", SCENARIO),
    ("selector", "@RoleChanger", "On Role Change: Learn `x @RoleChanger x`", SCENARIO),
    ("selector", "@VisitType", "On Visited: Learn `x @VisitType x`", SCENARIO),
    ("selector", "@VisitSubtype", "On Visited: Learn `x @VisitSubtype x`", SCENARIO),
    ("selector", "@Chosen", N + "`Side` Choice Choose @Chosen", SCENARIO),
    ("selector", "@ResultN", L + "`x @Result1 @Result2 @Result3 @Result4 @Result5 @Result6 x`", SCENARIO),
    ("selector", "@WinnerN", "On Poll Closed: Learn `x @Winner1 x @Winner2 x`", SCENARIO),
    ("selector", "@ResultN", L + "`x @Result7 x`", SCENARIO),
    ("selector", "@TriggerSource", "On Any Action: Learn `x @TriggerSource x`", SCENARIO),
    ("selector", "@ID:…", L + "`x @ID:42 x`", SCENARIO),
] + [
    ("selector", label, N + f"Kill {sel}", SCENARIO) for label, sel in (
        ("@All", "@All"), ("@Others", "@Others"), ("@Dead", "@Dead"), ("@Ghostly", "@Ghostly"),
        ("@DeadAlive", "@DeadAlive"), ("@Nobody", "@Nobody"), ("@Members", "@Members"),
        ("@(Attr:…)", "@(Attr:Lupine)"), ("@(Attr:!…)", "@(Attr:!Lupine)"), ("@(AttrRole:…)", "@(AttrRole:Torch-Bearer)"),
        ("@(AttrSelf:…)", "@(AttrSelf:Inked)"), ("@(AttrDisguise:…)", "@(AttrDisguise:Self)"),
        ("@(Align:…)", "@(Align:Villagers)"), ("@(Align:!…)", "@(Align:!Villagers)"), ("@(Group:…)", "@(Group:Lovers)"),
        ("@(Role:…)", "@(Role:Seer)"), ("@(Role:!…)", "@(Role:!Seer)"), ("@(Class:…)", "@(Class:Townsfolk)"),
        ("@(Cat:…)", "@(Cat:Killing)"), ("@(FullCat:…)", "@(FullCat:Townsfolk-Killing)"),
        ("@(OrigRole:…)", "@(OrigRole:Seer)"), ("@(OrigClass:…)", "@(OrigClass:Townsfolk)"),
        ("@(OrigCat:…)", "@(OrigCat:Killing)"), ("@(OrigAlign:…)", "@(OrigAlign:Werewolves)"),
        ("@(AliveOnly:…)", "@(AliveOnly:False)"), ("@(SelectAll:…)", "@(SelectAll:False)"),
        ("@(Random:…)", "@(Random:True)"), ("@(A,B) (several keys)", "@(Group:Lovers,Attr:Lupine)"))
] + [
    ("selector", "@(Ghostly:…)", N + "Kill @(Ghostly:True)", SCENARIO),
    ("selector", "@(OrigFullCat:…)", N + "Kill @(OrigFullCat:Townsfolk-Killing)", SCENARIO),
    ("selector", "@(Category:…)", N + "Kill @(Category:Killing)", SCENARIO),
    ("selector", "@(Alignment:…)", N + "Kill @(Alignment:Villagers)", SCENARIO),
    ("selector", "@(Attribute:…)", N + "Kill @(Attribute:Lupine)", SCENARIO),
    ("selector", "#Group (members)", L + "`x` [Condition: #Werewolf-Pack->Count > 0]", SCENARIO),
] + [
    ("selector", f"->{p}", L + f"`x @Selection->{p} x`", SCENARIO) for p in (
        "Role", "Target", "Counter", "PublicVotingPower", "OriginalRole", "Alignment")
] + [
    ("selector", "->Count", L + "`x @All->Count x`", SCENARIO),
    ("selector", "->MostFreqRole", L + "`x @All->MostFreqRole x`", SCENARIO),
    ("selector", "->RandomPlayer", N + "Kill @Selection {Forced: @Others->RandomPlayer}", SCENARIO),
    ("selector", "->Attr(Name)", L + "`x @Selection->Attr(Inked) x`", SCENARIO),
    ("selector", "->Number", L + "`x @Result1->Number x`", SCENARIO),
    ("selector", "@ThisAttr->Counter", L + "`x @ThisAttr->Counter x`", SCENARIO),
    ("selector", "@ThisAttr->Value1", L + "`x @ThisAttr->Value1 x`", SCENARIO),
    ("selector", "->Class", L + "`x @Selection->Class x`", SCENARIO),
    ("selector", "->Category", L + "`x @Selection->Category x`", SCENARIO),
    ("selector", "@ThisAttr->Value2", L + "`x @ThisAttr->Value2 x`", SCENARIO),
    ("selector", "@ThisAttr->Value3", L + "`x @ThisAttr->Value3 x`", SCENARIO),
    ("selector", "->PrivateVotingPower", L + "`x @Selection->PrivateVotingPower x`", SCENARIO),
    ("selector", "property chain", L + "`x @Selection->Role->Category x`", SCENARIO),
    ("selector", "->Attr(Name)->Source", L + "`x @Selection->Attr(Inked)->Source x`", SCENARIO),
    ("selector", "role ->Team", L + "`x @Selection->Role->Team x`", SCENARIO),
    ("selector", "role ->Players", L + "`x @Selection->Role->Players x`", SCENARIO),
    ("selector", "role ->Type", L + "`x @Selection->Role->Type x`", SCENARIO),
    ("selector", "->Success", L + "`x @Result->Success x`", SCENARIO),
    ("selector", "->Message", L + "`x @Result->Message x`", SCENARIO),
    ("selector", "->Result", L + "`x @Result1->Result x`", SCENARIO),
    ("selector", "->Members", N + "Kill #Lovers->Members", SCENARIO),
    ("selector", "->RandomPlayer (value)", L + "`x @All->RandomPlayer x`", SCENARIO),
    ("selector", "&Team", L + "`x &Villagers x`", SCENARIO),
    ("selector", "&Self", L + "`x &Self x`", SCENARIO),
    ("selector", "&All", L + "`x &All x`", SCENARIO),
    ("selector", "&(…)", L + "`x &(Align:Villagers) x`", SCENARIO),
    ("selector", "^All", L + "`x ^All x`", SCENARIO),
    ("selector", "^(…)", L + "`x ^(Cat:Killing) x`", SCENARIO),
    ("value", "%Role%", L + "`x %Role% x`", SCENARIO),
    ("value", "%PartialRoleList%", L + "`x %PartialRoleList% x`", SCENARIO),
    ("value", "%Role%", L + "`x %Role2% x`", SCENARIO),
    ("value", "%Role%", L + "`x %RoleOnFile% x`", SCENARIO),
    ("value", "%Player%", L + "`x %Player1% x`", SCENARIO),
    ("value", "%Player%", N + "Protect %Player1% from `Attacks` through Passive Defense", SCENARIO),
    ("value", "%Number%", L + "`x %Number% x`", SCENARIO),
    ("value", "%String%", L + "`x %String% x`", SCENARIO),
    ("value", "%A|B% (options)", L + "`x %Red|Black% x`", SCENARIO),
    ("value", "%Role:…%", L + "`x %Role:^(Cat:Killing)% x`", SCENARIO),
    ("value", "%Player:…%", L + "`x %Player:@(Align:Werewolves)% x`", SCENARIO),
    ("selector", "&(Attr:…)", L + "`x &(Attr:Lupine) x`", SCENARIO),
    ("selector", "&(A,B) (several keys)", L + "`x &(Align:Villagers,Attr:!Lupine) x`", SCENARIO),
]

VALUES = [
    ("value", f"${v}", L + f"`x ${v} x`", SCENARIO)
    for v in ("living", "total", "phase", "dead", "ghostly", "phname", "haunting")
] + [
    ("value", "constant", N + "Store `2`", SCENARIO),
    ("value", "info", L + "`x @Self x`", SCENARIO),
    ("value", "list", L + "`x` [Condition: @Self->Role is part of `Seer`+`Medium`]", SCENARIO),
    ("value", "number", N + "Increment Counter by 2", SCENARIO),
    ("value", "#name", N + "Join #Werewolf-Pack", SCENARIO),
    ("value", "element name", N + "Apply `Inked` to @Selection", SCENARIO),
    ("value", "possessive", L + "`@Selection's door`", SCENARIO),
    ("value", "annotation", L + "`@Selection[player] x`", SCENARIO),
    ("value", "division (ceil)", N + "Set Counter to ceil $living/5", SCENARIO),
    ("value", "boolean", L + "`x` [Condition: $haunting is True]", SCENARIO),
    ("ability", "feedback", "On Visited: Failure", SCENARIO),
    ("ability", "poll/silent cancellation", N + "Silently cancel `Lynch` Poll", SCENARIO),
]

CONSTRUCTS = TRIGGERS + ABILITIES + STRUCTURE + CONDITIONS + PARAMETERS + SELECTORS + VALUES
