"""``league plan``: a league's design simulated on guessed strengths, from a user's side; its refusals."""

import pytest
import yaml

from tests.conftest import write_league

SYNTHETIC = {
    "game": "synthetic",
    "variants": {"default": {"draw_rate": 0.2, "first_seat_elo": 30, "cycle_elo": 20}},
    "bots": [
        {"name": "strong", "builtin": "synthetic.model", "params": {"elo": 1800}},
        {"name": "middle", "builtin": "synthetic.model", "params": {"elo": 1550, "style": "rock"}},
        {"name": "weak", "builtin": "synthetic.model", "params": {"elo": 1300, "style": "paper"}},
    ],
    "games_per_pair": 20,
}


def table_rows(out: str) -> dict[str, list[str]]:
    """The table's rows by design: its cells split on runs of two spaces or more."""
    lines = out.splitlines()
    header = next(number for number, line in enumerate(lines) if line.startswith("format"))
    rows = {}
    for line in lines[header + 1 :]:
        if line.startswith(" "):
            break
        cells = [cell.strip() for cell in line.split("  ") if cell.strip()]
        rows[cells[0]] = cells[1:]
    return rows


def test_a_synthetic_league_is_planned_from_the_strengths_its_bots_state(tmp_path, league_cli):
    path = write_league(tmp_path, **SYNTHETIC)
    status, out, err = league_cli("plan", str(path), "--simulate", "20", "--cluster-cpus", "16")
    assert status == 0, err
    assert "strong 1800, middle 1550 (rock), weak 1300 (paper); draw rate 0.2, first seat +30 Elo, cycle 20" in out
    assert "the true order: strong > middle > weak" in out
    rows = table_rows(out)
    assert list(rows) == ["round_robin", "adaptive"]  # three bots: no SPRT
    games, p90, claims, order, here, cluster = rows["round_robin"]
    assert games == p90 == "60" and claims == order == "100%"  # 250 Elo apart: 20 games a pair suffice
    assert here != "-" and cluster != "-" and "(16 CPUs: 16 at once)" in out
    assert "sample game" in err and "s a game (the mean of" in out
    assert "adaptive: confidence 0.95, tie_elo 20" in out and "stopped settled" in out


def test_the_same_seed_plans_the_same_and_another_seed_may_not(tmp_path, league_cli):
    path = write_league(tmp_path, **{**SYNTHETIC, "games_per_pair": 2})
    runs = [league_cli("plan", str(path), "--simulate", "10", "--no-estimate", "--seed", seed)[1] for seed in "112"]
    assert runs[0] == runs[1] and runs[0] != runs[2]
    assert "wall time: not estimated (--no-estimate" in runs[0]
    assert table_rows(runs[0])["round_robin"][4:] == ["-", "-"]


def test_an_sprt_file_is_planned_with_its_test_first(tmp_path, league_cli):
    config = {
        **SYNTHETIC,
        "bots": SYNTHETIC["bots"][:2],
        "format": "sprt",
        "sprt": {"elo0": 0, "elo1": 20},
        "max_games": 2000,
    }
    path = write_league(tmp_path, **config)
    text = yaml.safe_load(path.read_text())
    del text["games_per_pair"]  # write_league's; an SPRT refuses it
    path.write_text(yaml.safe_dump(text))
    status, out, err = league_cli("plan", str(path), "--simulate", "10", "--no-estimate")
    assert status == 0, err
    assert list(table_rows(out)) == ["sprt", "round_robin", "adaptive"]
    assert "sprt: strong against middle: H0 0, H1 20 normalized Elo" in out and "stopped H1 100%" in out
    assert "round_robin: games_per_pair" in out and "(about the sprt design's mean games)" in out


def test_other_games_need_a_guess_for_every_bot(tmp_path, league_cli):
    path = write_league(tmp_path)  # versus2048: its bots state no strength
    status, out, err = league_cli("plan", str(path), "--elo", "greedy=1600", "--no-estimate")
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert "no strength guessed for random, minimax; give every bot its Elo, e.g. --elo random=1500" in err
    status, out, err = league_cli(
        "plan", str(path), "--elo", "greedy=1600", "--elo", "random=1200", "--elo", "minimax=1700", "--no-estimate",
        "--simulate", "5", "--draw-rate", "0.1",
    )  # fmt: skip
    assert status == 0, err
    assert "the true order: minimax > greedy > random" in out and "draw rate 0.1, first seat +0 Elo" in out


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["--elo", "greedy"], "--elo 'greedy': expected NAME=ELO"),
        (["--elo", "gredy=1500"], "the league has no bot 'gredy' (did you mean 'greedy'?)"),
        (["--elo", "greedy=strong"], "'strong' is not an Elo; give a number"),
        (["--elo", "greedy=1500", "--elo", "greedy=1600"], "--elo greedy: guessed twice"),
        (["--simulate", "0"], "--simulate 0: give how many leagues to simulate, 1 or more"),
        (["--cluster-cpus", "0"], "--cluster-cpus 0: give the cluster's CPUs"),
        (["--seed", "-1"], "--seed -1: give a seed of 0 or more"),
        (["--elo", "greedy=1", "--elo", "random=1", "--elo", "minimax=1", "--draw-rate", "1"], "--draw-rate 1:"),
    ],
)
def test_a_wrong_argument_is_one_line_naming_the_fix(tmp_path, league_cli, arguments, expected):
    status, _, err = league_cli("plan", str(write_league(tmp_path)), "--no-estimate", *arguments)
    assert status == 2 and err.count("\n") == 1 and expected in err


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"variants": {"a": {}, "b": {"turns_per_player": 20}}}, "this league has 2 variants; plan a copy"),
    ],
)
def test_a_league_it_does_not_model_is_refused_in_one_line(tmp_path, league_cli, overrides, expected):
    path = write_league(tmp_path, **overrides)
    status, _, err = league_cli("plan", str(path), "--no-estimate")
    assert status == 2 and err.count("\n") == 1 and expected in err


def formats_rows(out: str) -> dict[str, list[str]]:
    """The formats' table (the second) by format: its cells split on runs of two spaces or more."""
    lines = out.splitlines()
    start = next(number for number, line in enumerate(lines) if line.startswith("formats compared on about"))
    rows = {}
    for line in lines[start + 1 :]:
        if line.startswith(" "):
            break
        cells = [cell.strip() for cell in line.split("  ") if cell.strip()]
        rows[cells[0]] = cells[1:]
    return rows


def test_the_formats_that_fit_are_compared_on_one_budget_below_the_designs(tmp_path, league_cli):
    path = write_league(tmp_path, **SYNTHETIC)
    status, out, err = league_cli("plan", str(path), "--simulate", "20", "--no-estimate", "--budget", "600")
    assert status == 0, err
    assert "formats compared on about 600 games each (--budget), each simulated 20 times" in out
    rows = formats_rows(out)
    assert rows["format"] == [
        "games (mean)",
        "best first",
        "top 2 right",
        "tau (mean)",
        "here (2 at once)",
        "cluster (64 CPUs: 64 at once)",
    ]
    del rows["format"]
    assert list(rows) == ["round robin", "adaptive", "swiss", "knockout (single)", "knockout (double)"]
    games, best, top, tau, here, cluster = rows["round robin"]
    assert games == "600" and best == top == "100%" and tau == "1.00"  # 250 Elo apart, 200 games a pair
    assert here == cluster == "-"
    assert "  round robin: games_per_pair 200" in out and "  adaptive: confidence 0.95, max_games 600" in out
    assert "  swiss: 3 rounds, games_per_round 200" in out  # 3 rounds of 1 pairing (a bye a round) x 200
    assert "  knockout (single): 150 pairs a series" in out and "seeding random" in out  # 2 series x 300 games
    assert float(rows["knockout (single)"][0].replace(",", "")) >= 600
    short = write_league(tmp_path, **{**SYNTHETIC, "games_per_pair": 2})
    status, out, _ = league_cli("plan", str(short), "--simulate", "5", "--no-estimate")
    assert "about 6 games each (the mean games of the round_robin design above)" in out
    assert "adaptive" not in formats_rows(out)  # an adaptive league's warm-up is the whole budget


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["--budget", "1"], "--budget 1: give the games each format may play, 2 or more"),
        (["--top", "0"], "--top 0: give how many of the best to check, 1 or more"),
    ],
)
def test_a_wrong_budget_or_top_is_one_line_naming_the_fix(tmp_path, league_cli, arguments, expected):
    status, out, err = league_cli("plan", str(write_league(tmp_path, **SYNTHETIC)), "--no-estimate", *arguments)
    assert status == 2 and out == "" and err.count("\n") == 1 and expected in err


@pytest.mark.parametrize(
    ("keys", "row"),
    [
        ({"format": "knockout", "knockout": {"elimination": "double"}}, "knockout (this file)"),
        ({"format": "swiss", "swiss": {"rounds": 2}}, "swiss (this file)"),
        ({"finals": {"format": "knockout", "best": 2}}, "round robin + knockout (this file)"),
    ],
)
def test_a_knockout_swiss_or_finals_file_is_planned_as_its_keys_say_first_on_its_own_budget(
    tmp_path, league_cli, keys, row
):
    path = write_league(tmp_path, **SYNTHETIC, **keys)
    data = yaml.safe_load(path.read_text())
    if "format" in keys:  # a knockout and a Swiss say their length in their own keys
        del data["games_per_pair"]
    path.write_text(yaml.safe_dump(data))
    status, out, err = league_cli("plan", str(path), "--simulate", "10", "--no-estimate")
    assert status == 0, err
    rows = formats_rows(out)
    assert list(rows)[1] == row  # the header, then the file's own format
    games = rows[row][0]
    assert f"formats compared on about {games} games each (the mean games of this file's" in out
    assert "round robin" in rows and "knockout (single)" in rows


def test_a_league_of_tables_is_refused_in_one_line(tmp_path, league_cli):
    path = write_league(tmp_path)
    data = yaml.safe_load(path.read_text())
    del data["games_per_pair"]
    data |= {"game": "nimmt", "variants": {"default": {}}, "format": "tables", "players_per_table": 3}
    data["bots"] = [{"name": f"bot{k}", "builtin": "nimmt.random"} for k in range(3)]
    path.write_text(yaml.safe_dump(data))
    status, _, err = league_cli("plan", str(path), "--no-estimate")
    assert status == 2 and err.count("\n") == 1
    assert "league plan simulates games of two seats; nimmt here is played at tables" in err
