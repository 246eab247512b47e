"""One answer to who won on the whole page: the standings, the strength table and their legend agree."""

from dataclasses import replace

import pandas as pd

from league.report.build import write_report
from league.store.results import ResultStore
from tests.league.stats.test_ranking import FIVE, a_feed_where_trueskill_puts_minimax_first, five_bot_round_robin


def test_issue_32s_five_bots_get_one_order_on_the_page(tmp_path):
    feed = a_feed_where_trueskill_puts_minimax_first(five_bot_round_robin())
    store = ResultStore(tmp_path / "games.jsonl")
    for record in feed:
        store.append(replace(record, result=replace(record.result, plies=40, reason_code="", detail="")))
    store.close()
    write_report(tmp_path, "five", FIVE, ["v"])
    standings, strength = (pd.read_csv(tmp_path / name) for name in ("standings.csv", "strength.csv"))
    assert standings["bot"].tolist() == ["mybot", "minimax", "greedy", "random", "weak"]
    assert standings["points"].tolist() == [26, 24, 21, 16, 13]
    conservative = dict(zip(standings["bot"], standings["conservative"], strict=True))
    assert conservative["minimax"] > conservative["mybot"], "TrueSkill, a column, still says otherwise"
    assert strength["bot"].tolist() == standings["bot"].tolist()
    assert strength["elo"].tolist() == standings["elo"].tolist()
    assert (strength[["low_95", "high_95"]].values == standings[["low_95", "high_95"]].values).all()
    report = " ".join((tmp_path / "report.md").read_text().split())
    assert "`place`: the order by Bradley-Terry strength (elo), fitted to every game at once" in report
    assert "never the order" in report
