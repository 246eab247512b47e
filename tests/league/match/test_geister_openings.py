"""geister's openings (engine/geister/README.md, Openings): random moves after the bots' own secret setups.

Two program bots that never randomise (tests/bots/geister_fixed.py with two setups) repeat every
pair of games without openings and differ with ``openings: {plies: 4}``, both games of a pair
playing the same opening moves; a bot is sent no acknowledgement for the opening's moves, and its
first ``MOV?`` shows the board the opening left, worked out here from the README's frames alone; an
openings file is refused (the setups are secret).
"""

import json
import sys

from tests.conftest import BOTS
from tests.league.match.test_openings import by_seats, league_file, played

BOT = [sys.executable, str(BOTS / "geister_fixed.py")]
GEISTER = {
    "game": "geister",
    "variants": {"short": {"max_plies": 40}},
    "bots": [{"name": "abcd", "command": [*BOT, "ABCD"]}, {"name": "efgh", "command": [*BOT, "EFGH"]}],
}
START = "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u"
"""Seat 0's first board after ``SET:ABCD`` (README, section 2.3), before anyone moved."""


def game_key(record: dict) -> str:
    """What a game played: its opening and replies (the two setups, asked at once, sorted: they may come either way)."""
    moves = [move[:3] for move in record["moves"]]
    return json.dumps([record.get("opening"), sorted(moves[:2]), moves[2:]])


STEP = {"NORTH": (0, -1), "EAST": (1, 0), "SOUTH": (0, 1), "WEST": (-1, 0)}


def test_deterministic_geister_bots_repeat_without_openings_and_differ_with_four_random_moves(tmp_path):
    plain = played(tmp_path / "plain", **GEISTER)
    for games in by_seats(plain).values():
        assert len({game_key(game) for game in games}) == 1, "no randomness: each pair repeats the first"
    opened = played(tmp_path / "opened", **GEISTER, openings={"plies": 4})
    for games in by_seats(opened).values():
        assert len({game_key(game) for game in games}) == 3
    rounds: dict[int, list[dict]] = {}
    for record in opened:
        assert len(record["opening"]) == 4 and all(ply.startswith("MOV:") for ply in record["opening"])
        assert [move[2][:4] for move in record["moves"][:2]] == ["SET:", "SET:"], "the setups are the bots' own"
        rounds.setdefault(record["spec"]["round"], []).append(record)
    for first, second in rounds.values():
        assert first["opening"] == second["opening"], "both games of a pair play the same opening moves"


def board_after(opening: list[str]) -> str:
    """Seat 0's board after ``opening`` from the README's start, both bots having named ABCD red."""
    own = [[int(START[i]), int(START[i + 1]), START[i + 2]] for i in range(0, 24, 3)]
    theirs = [[int(START[i]), int(START[i + 1]), START[i + 2]] for i in range(24, 48, 3)]
    for ply, move in enumerate(opening):
        letter, direction = move.removeprefix("MOV:").split(",")
        dx, dy = STEP[direction]
        mover, other = (own, theirs) if ply % 2 == 0 else (theirs, own)
        if ply % 2:
            dx, dy = -dx, -dy  # seat 1's frame is seat 0's turned round
        piece = mover["ABCDEFGH".index(letter)]
        piece[0], piece[1] = piece[0] + dx, piece[1] + dy
        for victim in other:
            if victim[:2] == piece[:2]:
                colour = "r" if other is theirs and "ABCDEFGH"[theirs.index(victim)] in "ABCD" else victim[2]
                victim[:] = [9, 9, colour.lower()]
    return "".join(f"{x}{y}{colour}" for x, y, colour in own + theirs)


def test_a_geister_bot_gets_no_acknowledgement_for_the_openings_moves_and_its_next_board_shows_them(
    league_cli, tmp_path
):
    echo = " ".join([*BOT, "ABCD", "echo"])
    status, out, err = league_cli(
        "play", "geister", echo, echo, "--set", "max_plies=10", "--sandbox", "none",
        "--openings", "plies=4", "--seed", "11", "--json",
    )  # fmt: skip
    assert status == 0, err
    match = json.loads(out)
    received = {
        tail["seat"]: [eval(line) for line in tail["text"].splitlines()]  # noqa: S307 - the bot's repr of bytes
        for tail in match["stderr"]
    }
    board = board_after(match["opening"])
    assert received[0][:3] == [b"SET?\r\n", b"OK \r\n", f"MOV?{board}\r\n".encode()], received[0][:3]
    assert received[1][:2] == [b"SET?\r\n", b"OK \r\n"] and received[1][2].startswith(b"MOV?")


def test_a_geister_openings_file_is_refused_in_one_line(league_cli, tmp_path):
    (tmp_path / "book.txt").write_text("MOV:A,NORTH; MOV:A,NORTH\n")
    path = league_file(tmp_path, **GEISTER, openings={"file": "book.txt"})
    status, _, err = league_cli("validate", str(path))
    assert status == 2 and err.count("\n") == 1, err
    assert "geister takes random plies only" in err and "{plies: N}" in err, err
