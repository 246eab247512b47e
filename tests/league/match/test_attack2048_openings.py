"""attack2048's openings (engine/attack2048/README.md, Openings): both halves start with the same plies.

Two program bots that never randomise (tests/bots/attack2048_fixed.py) repeat every pair of games
without openings and differ with ``openings: {plies: 4}``, both games of a pair and both halves of
a game starting from the same opening; the attacker's first request after an opening is the
protocol's exact bytes of the board it left, and the opening's slides score for no one.
"""

import sys

from engine import get_game
from league.replay.rebuild import replay_game
from league.stats.game_record import GameRecord
from tests.conftest import BOTS
from tests.league.match.test_openings import by_seats, played

BOT = f"{sys.executable} {BOTS / 'attack2048_fixed.py'}"


def bot(name: str, attack: str, defend: str) -> dict:
    return {"name": name, "roles": {"attack": f"{BOT} attack {attack}", "defend": f"{BOT} defend {defend}"}}


ATTACK2048 = {
    "game": "attack2048",
    "variants": {"short": {"max_plies_per_half": 24}},
    "bots": [bot("first", "first", "nesw"), bot("last", "last", "wsen")],
}


def test_deterministic_attack2048_bots_repeat_without_openings_and_differ_with_four_random_plies(tmp_path):
    plain = played(tmp_path / "plain", **ATTACK2048)
    for games in by_seats(plain).values():
        assert len({game["fingerprint"] for game in games}) == 1, "no randomness: each pair repeats the first"
    opened = played(tmp_path / "opened", **ATTACK2048, openings={"plies": 4})
    for games in by_seats(opened).values():
        assert len({game["fingerprint"] for game in games}) == 3
    rounds: dict[int, list[dict]] = {}
    for record in opened:
        rounds.setdefault(record["spec"]["round"], []).append(record)
    for first, second in rounds.values():
        assert first["opening"] == second["opening"] and len(first["opening"]) == 4
    record = opened[0]
    replay = replay_game(get_game("attack2048")(max_plies_per_half=24), GameRecord.from_json(record), record)
    assert replay.diverged == ""
    shown = [move["reply"] for frame in replay.frames for move in frame.moves if move.get("opening")]
    assert shown == record["opening"] * 2, "each half starts with the opening's plies"
    assert sum(frame.opening_end for frame in replay.frames) == 2


def test_the_attacker_is_sent_the_board_the_opening_left_and_the_openings_slides_score_nothing(tmp_path):
    (tmp_path / "book.txt").write_text("0 0 2; east; 0 0 2; west\n")  # the west slide merges two 2s: 4 points
    echo = {"name": "echo", "roles": {"attack": f"{BOT} attack first echo", "defend": f"{BOT} defend nesw echo"}}
    config = {**ATTACK2048, "variants": {"capped": {"max_plies_per_half": 5}}, "bots": [echo, ATTACK2048["bots"][1]]}
    records = played(tmp_path, **config, openings={"file": "book.txt"}, games_per_pair=2)
    for record in records:
        assert record["result"]["scores"] == [0, 0], "the cap ends each half before any defender slid"
        (attacker,) = [tail for tail in record["stderr"] if tail["role"] == "attack"]  # only echo writes
        received = b"".join(eval(line) for line in attacker["text"].splitlines())  # noqa: S307 - the bot's repr
        assert received == b"game\n4 0 0 0 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \nquit\n", "its half's one request"
