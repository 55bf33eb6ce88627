"""Packets and replies exactly as spec §2: five keys, compact JSON, typed game data, lenient replies."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wwrf_adapter.aiwolf.ast import GAME_ROLES, Role, Species
from wwrf_adapter.aiwolf.gameinfo import GameInfo, GameSetting, Judge, Status, Talk, Vote
from wwrf_adapter.aiwolf.jsoncodec import ProtocolError
from wwrf_adapter.aiwolf.packets import Packet, Request, decode_packet, decode_reply, encode_packet, encode_reply

FIVE_KEYS = ["request", "gameInfo", "gameSetting", "talkHistory", "whisperHistory"]

# a DAILY_INITIALIZE of day 2 as the reference platform writes it (agent 3 is the seer)
REFERENCE_INFO = {
    "agent": 3, "day": 2,
    "statusMap": {"1": "ALIVE", "2": "DEAD", "3": "ALIVE", "4": "ALIVE", "5": "DEAD"},
    "roleMap": {"3": "SEER"},
    "remainTalkMap": {"1": 10, "3": 10, "4": 10}, "remainWhisperMap": {},
    "talkList": [], "whisperList": [],
    "voteList": [{"agent": 1, "day": 1, "target": 2}, {"agent": 3, "day": 1, "target": 2}],
    "latestVoteList": [], "attackVoteList": [], "latestAttackVoteList": [],
    "divineResult": {"agent": 3, "day": 1, "target": 4, "result": "HUMAN"}, "mediumResult": None,
    "executedAgent": 2, "latestExecutedAgent": -1, "attackedAgent": 5, "guardedAgent": -1, "cursedFox": -1,
    "lastDeadAgentList": [5], "existingRoleList": ["POSSESSED", "SEER", "VILLAGER", "WEREWOLF"],
}
REFERENCE_SETTING = {
    "roleNumMap": {"BODYGUARD": 0, "FOX": 0, "FREEMASON": 0, "MEDIUM": 0, "POSSESSED": 1, "SEER": 1,
                   "VILLAGER": 2, "WEREWOLF": 1},
    "playerNum": 5, "randomSeed": 1712, "timeLimit": 1000, "maxTalk": 10, "maxTalkTurn": 20, "maxWhisper": 10,
    "maxWhisperTurn": 20, "maxSkip": 2, "maxRevote": 1, "maxAttackRevote": 1, "enableNoAttack": False,
    "enableNoExecution": False, "enableRoleRequest": True, "talkOnFirstDay": False, "validateUtterance": True,
    "votableInFirstDay": False, "voteVisible": True, "whisperBeforeRevote": False,
}


def test_name_request_is_exactly_five_keys_of_compact_json() -> None:
    line = encode_packet(Packet(Request.NAME))
    assert line == '{"request":"NAME","gameInfo":null,"gameSetting":null,"talkHistory":null,"whisperHistory":null}\n'
    assert decode_packet(line) == Packet(Request.NAME)


def test_reference_shaped_initialize_decodes_to_typed_data_and_back() -> None:
    text = json.dumps({"request": "INITIALIZE", "gameInfo": REFERENCE_INFO, "gameSetting": REFERENCE_SETTING,
                       "talkHistory": None, "whisperHistory": None}, indent=1)
    p = decode_packet(text)
    info, setting = p.game_info, p.game_setting
    assert info is not None and setting is not None
    assert info.status_map[2] is Status.DEAD and info.alive == [1, 3, 4] and info.my_role is Role.SEER
    assert info.vote_list[1] == Vote(3, 1, 2)
    assert info.divine_result == Judge(3, 1, 4, Species.HUMAN) and info.medium_result is None
    assert info.executed_agent == 2 and info.latest_executed_agent == -1 and info.last_dead_agent_list == (5,)
    assert setting == GameSetting.standard(5, seed=1712)
    assert setting.context().roles == {Role.SEER: 1, Role.POSSESSED: 1, Role.VILLAGER: 2, Role.WEREWOLF: 1}
    again = json.loads(encode_packet(p))
    assert list(again) == FIVE_KEYS
    assert again["gameInfo"] == REFERENCE_INFO and again["gameSetting"] == REFERENCE_SETTING


def test_talk_packet_carries_only_histories() -> None:
    talk = Talk(idx=0, day=1, turn=0, agent=2, text="COMINGOUT Agent[02] SEER")
    p = Packet(Request.TALK, talk_history=(talk,), whisper_history=())
    line = encode_packet(p)
    assert line.endswith("\n") and line.count("\n") == 1 and " " not in line.replace("COMINGOUT Agent[02] SEER", "")
    assert json.loads(line)["talkHistory"] == [{"agent": 2, "day": 1, "idx": 0, "text": "COMINGOUT Agent[02] SEER",
                                                "turn": 0}]
    assert decode_packet(line) == p


def test_standard_settings_have_every_role_and_the_defaults() -> None:
    s = GameSetting.standard(15)
    assert set(s.role_num_map) == set(GAME_ROLES) and sum(s.role_num_map.values()) == 15
    assert (s.max_talk, s.max_talk_turn, s.max_skip, s.max_revote, s.max_attack_revote, s.talk_on_first_day) == \
        (10, 20, 2, 1, 1, False)
    with pytest.raises(ValueError):
        GameSetting.standard(7)


def test_requests_that_expect_replies() -> None:
    replying = {r.value for r in Request if r.expects_reply}
    assert replying == {"NAME", "ROLE", "TALK", "WHISPER", "VOTE", "DIVINE", "GUARD", "ATTACK"}
    assert {r.value for r in Request if not r.expects_reply} == {"INITIALIZE", "DAILY_INITIALIZE", "DAILY_FINISH",
                                                                   "FINISH"}


@pytest.mark.parametrize("line, message", [
    ("not json", "not JSON"),
    ("[1]", "packet: expected an object"),
    ('{"request":"DANCE"}', "packet.request: expected one of NAME"),
    ('{"gameInfo":null}', "packet: missing request"),
    ('{"request":"VOTE","gameInfo":{"agent":"3"}}', "packet.gameInfo.agent: expected an integer"),
    ('{"request":"VOTE","gameInfo":{"agent":3,"statusMap":{"x":"ALIVE"}}}', "packet.gameInfo.statusMap: expected agent"),
    ('{"request":"VOTE","gameInfo":{"agent":3,"statusMap":{"1":"ZOMBIE"}}}', "packet.gameInfo.statusMap.1: expected one"),
    ('{"request":"TALK","talkHistory":[{"agent":1,"day":1,"idx":0,"turn":0}]}', "packet.talkHistory[0]: missing text"),
    ('{"request":"INITIALIZE","gameSetting":{"roleNumMap":{},"playerNum":5,"voteVisible":1}}',
     "packet.gameSetting.voteVisible: expected true or false"),
    ("[" * 100_000, "not JSON"),
])
def test_bad_packets_raise_protocol_errors_naming_the_path(line: str, message: str) -> None:
    with pytest.raises(ProtocolError, match=message.replace("[", r"\[").replace(".", r"\.")):
        decode_packet(line)


# ------------------------------------------------------------------ replies


def test_replies_round_trip() -> None:
    cases = [(Request.NAME, "Wolfy"), (Request.ROLE, Role.SEER), (Request.ROLE, None),
             (Request.TALK, "COMINGOUT Agent[01] SEER"), (Request.WHISPER, ""), (Request.VOTE, 3),
             (Request.DIVINE, None), (Request.GUARD, 15), (Request.ATTACK, 1)]
    for request, value in cases:
        line = encode_reply(request, value)
        assert line.endswith("\n") and line.count("\n") == 1
        assert decode_reply(request, line[:-1]) == value
    assert encode_reply(Request.VOTE, 3) == '{"agentIdx":3}\n'
    assert encode_reply(Request.ROLE, None) == "none\n"


def test_target_replies_are_read_leniently() -> None:
    assert decode_reply(Request.VOTE, ' { "agentIdx" : 4 } ') == 4
    assert decode_reply(Request.VOTE, '{"agentIdx":null}') is None
    assert decode_reply(Request.VOTE, "null") is None
    for bad in ("4", "{}", '{"agentIdx":"4"}', "{agentIdx:4}", ""):
        with pytest.raises(ProtocolError):
            decode_reply(Request.VOTE, bad)


def test_bad_replies() -> None:
    with pytest.raises(ProtocolError):
        decode_reply(Request.ROLE, "KING")
    with pytest.raises(ProtocolError):
        decode_reply(Request.FINISH, "")
    with pytest.raises(ValueError):
        encode_reply(Request.TALK, "VOTE Agent[01]\nVOTE Agent[02]")
    with pytest.raises(ValueError):
        encode_reply(Request.DAILY_FINISH, "x")
    with pytest.raises(TypeError):
        encode_reply(Request.VOTE, "3")


# ------------------------------------------------------------------ generated game data round-trips

_ids = st.integers(-1, 20)
_talks = st.builds(Talk, st.integers(0, 99), st.integers(0, 9), st.integers(0, 19), _ids, st.text(max_size=30))
_votes = st.builds(Vote, _ids, st.integers(0, 9), _ids)
_judges = st.one_of(st.none(), st.builds(Judge, _ids, st.integers(0, 9), _ids, st.sampled_from(list(Species))))
_agent_maps = lambda v: st.dictionaries(st.integers(1, 20), v, max_size=5)  # noqa: E731
_infos = st.builds(
    GameInfo, _ids, st.integers(0, 9), _agent_maps(st.sampled_from(list(Status))), _agent_maps(st.sampled_from(GAME_ROLES)),
    _agent_maps(st.integers(0, 10)), _agent_maps(st.integers(0, 10)), st.lists(_talks, max_size=3).map(tuple),
    st.lists(_talks, max_size=3).map(tuple), st.lists(_votes, max_size=3).map(tuple), st.lists(_votes, max_size=2).map(tuple),
    st.lists(_votes, max_size=2).map(tuple), st.lists(_votes, max_size=2).map(tuple), _judges, _judges, _ids, _ids, _ids,
    _ids, _ids, st.lists(_ids, max_size=3).map(tuple), st.lists(st.sampled_from(GAME_ROLES), max_size=4).map(tuple))


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(list(Request)), st.one_of(st.none(), _infos),
       st.one_of(st.none(), st.sampled_from([GameSetting.standard(5), GameSetting.standard(15, seed=-7)])),
       st.one_of(st.none(), st.lists(_talks, max_size=3).map(tuple)))
def test_every_packet_round_trips(request: Request, info: GameInfo | None, setting: GameSetting | None,
                                  talks: tuple[Talk, ...] | None) -> None:
    p = Packet(request, info, setting, talks, talks)
    line = encode_packet(p)
    assert list(json.loads(line)) == FIVE_KEYS and line.count("\n") == 1
    assert decode_packet(line) == p
