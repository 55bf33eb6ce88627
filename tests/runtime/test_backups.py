import pytest

from rulescript.runtime.errors import GameError


def test_backup_slot_by_subtype_and_bp_and_event(table):
    g = table.game
    host = table.ring(0, "brute")              # slots: Brawler, Brawler, Ninja
    b1 = table.card(0, "grunt")                # Brawler
    g.backup(0, b1, host)
    assert table.c(host)["bp"] == 1300
    assert table.c(host)["backups"] == [b1] and table.c(b1)["zone"] == "backup"
    assert table.c(b1)["host"] == host and b1 not in table.p(0)["hand"]
    assert table.p(0)["sp"] == 0 and table.p(0)["chars_played"] == 0
    assert table.rules.entered == []           # a backup's rules do not load
    ev = [e for e in table.rules.events if e[0] == "backedup"]
    assert ev == [("backedup", 0, None, host, {})]
    assert table.rules.names() == ["handchanges", "backedup"]


def test_backup_once_per_turn_unless_rule_off_or_unlimited(table):
    g = table.game
    host = table.ring(0, "brute")
    b1, b2, b3 = table.card(0, "grunt"), table.card(0, "grunt"), table.card(0, "ninja")
    g.backup(0, b1, host)
    assert g.backup_hosts(0, b2) == []
    g.add_grant("unlimitedbackup", None, card=host)
    assert g.backup_hosts(0, b2) == [host]
    g.backup(0, b2, host)
    assert g.backup_hosts(0, table.card(0, "grunt")) == []   # both Brawler slots used
    g.withdraw_grant("unlimitedbackup", None, card=host)
    assert g.backup_hosts(0, b3) == []
    g.add_rule_entry("backup_limit", None, 0, False)
    assert g.backup_hosts(0, b3) == [host]
    g.backup(0, b3, host)
    assert table.c(host)["bp"] == 1900


def test_backup_needs_matching_slot_unfrozen_and_not_fresh(table):
    g = table.game
    host = table.ring(0, "grunt", fresh=True)    # slot: Ninja
    nin = table.card(0, "ninja")
    assert g.backup_hosts(0, table.card(0, "mid")) == []     # Mystic: no slot
    assert g.backup_hosts(0, nin) == []                      # fresh host
    g.add_rule_entry("backup_fresh", None, 0, True)
    assert g.backup_hosts(0, nin) == [host]
    table.c(host)["frozen"] = True
    assert g.backup_hosts(0, nin) == []
    with pytest.raises(GameError):
        g.backup(0, nin, host)
    assert g.backup_hosts(0, table.card(0, "jab")) == []     # not a character


def test_backups_follow_host_to_discards(table):
    g = table.game
    host = table.ring(0, "brute")
    b = table.card(0, "grunt")
    g.backup(0, b, host)
    g.damage_chars([host], 5000)
    assert table.c(host)["zone"] == "discards" and table.c(b)["zone"] == "discards"
    assert set(table.p(0)["discards"]) == {host, b}
    assert table.c(host)["backups"] == [] and table.c(b)["host"] is None
