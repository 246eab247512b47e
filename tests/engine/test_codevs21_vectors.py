"""codevs21 rules against the vectors of rules/codevs21.md section 12 (engine level, both modes).

V7's official problems and move lists are copied into tests/engine/data/codevs21/ (checked by
their SHA-256 against the rules file), so the tests need nothing outside the repository.
"""

import hashlib
from pathlib import Path

import pytest

from engine.codevs21.field import attack, step_score
from engine.codevs21.packs import (
    CASES,
    PackFileError,
    Params,
    fill_orders,
    generate,
    initial_input,
    legal_positions,
    read_pack_file,
    rotate,
)
from engine.codevs21.solo import FORMAT, ILLEGAL_MOVE, MoveFault, SoloGame, check_move, read_move
from engine.codevs21.versus import VersusGame, exchange

DATA = Path(__file__).parent / "data" / "codevs21"


def params(W, H, T, S, N, P=25, Th=100, A=0, B_obs=0):  # noqa: N803 - the rules' names
    return Params(W=W, H=H, T=T, S=S, N=N, P=P, Th=Th, A=A, B_obs=B_obs)


def grid(text):
    """A pack from the rules' notation: rows top to bottom, ``/`` between rows."""
    return tuple(int(word) for word in text.replace("/", " ").split())


def solo(numbers, packs, moves):
    game = SoloGame(numbers, [grid(pack) for pack in packs])
    for move in moves:
        game.play(move.encode())
    return game


def test_v1_one_step_obstruction_negative_x_half_turn():
    game = solo(params(4, 6, 3, 10, 2), ["0 0 0 / 0 0 11 / 0 0 11", "6 4 0 / 0 0 0 / 0 0 0"], ["-2 0", "0 2"])
    assert game.steps == [[], [(1, 4, 2)]]
    assert game.record() == {"score": 2, "max_chain": 1, "turns": 2, "fc": 0, "end": "clear"}
    assert game.well.columns == [[], [], [], []]


def test_v2_overlapping_runs_count_each_block_once_per_run():
    game = solo(params(3, 4, 1, 2, 3), ["1", "1", "1"], ["0 0", "2 0", "1 0"])
    assert game.steps[-1] == [(1, 4, 2)]
    assert game.record() == {"score": 2, "max_chain": 1, "turns": 3, "fc": 0, "end": "clear"}


def test_v3_two_step_chain_and_the_fire_count_at_raw_equal_to_th():
    packs = ["0 0 0 / 5 2 8 / 0 0 5", "0 0 0 / 0 0 0 / 3 7 0"]
    game = solo(params(4, 6, 3, 10, 2, Th=3), packs, ["0 1", "0 0"])
    assert game.steps == [[(1, 2, 1), (2, 2, 2)], [(1, 2, 1)]]
    assert game.record() == {"score": 5, "max_chain": 2, "turns": 2, "fc": 1, "end": "clear"}


def test_v4_overflow_ends_the_game_and_its_turn_still_scores():
    packs = ["1 0 / 1 0", "0 0 / 1 0", "0 3 / 1 7", "1 1 / 1 1"]
    game = SoloGame(params(2, 3, 2, 10, 4), [grid(pack) for pack in packs])
    game.play(b"0 0")
    game.play(b"0 0")
    assert game.end == "" and len(game.well.columns[0]) == 3, "exactly H high is not over"
    game.play(b"0 0")
    assert game.record() == {"score": 1, "max_chain": 1, "turns": 3, "fc": 0, "end": "overflow"}


def test_rotation_example_of_3_2():
    assert rotate(grid("0 0 0 / 5 2 8 / 0 0 5"), 3, 1) == grid("0 5 0 / 0 2 0 / 5 8 0")
    pack = grid("1 2 0 / 0 0 0 / 0 0 3")
    assert rotate(pack, 3, 4) == pack and rotate(rotate(pack, 3, 1), 3, 3) == pack
    assert legal_positions(grid("0 0 0 / 0 0 11 / 0 0 11"), 3, 4) == range(-2, 2)


V5_PACKS = """4 8 4 10 3
4 5 0 0
5 1 5 0
2 0 7 2
0 6 0 0
END
11 11 11 11
11 0 11 11
11 11 11 0
11 11 11 11
END
0 0 0 0
0 0 0 0
0 0 0 0
0 0 0 1
END
"""


def test_v5_versus_stocks_insertion_messages_and_the_winner():
    numbers = params(4, 8, 4, 10, 3, Th=10)
    orders = fill_orders(7, 4, 3)
    assert orders == [
        [2, 10, 4, 7, 8, 6, 14, 13, 0, 15, 3, 9, 11, 1, 12, 5],
        [0, 15, 2, 7, 4, 11, 6, 10, 12, 5, 9, 3, 1, 8, 14, 13],
        [10, 14, 4, 7, 5, 2, 3, 15, 12, 1, 9, 11, 6, 13, 0, 8],
    ]
    game = VersusGame(numbers, read_pack_file(V5_PACKS, numbers), orders)
    game.play([(0, 0), (0, 2)])
    assert game.steps[0] == ([(1, 4, 2), (2, 2, 2), (3, 6, 12)], [(1, 4, 2), (2, 5, 4)])
    assert [player.well.score for player in game.players] == [16, 6]
    assert [player.well.fire for player in game.players] == [1, 0]
    full, one_blank = "11 11 11 11\n" * 4 + "END\n", "11 11 11 11\n11 0 11 11\n" + "11 11 11 11\n" * 2 + "END\n"
    assert game.message(0) == one_blank + full + "0 2\n0 1\n"
    assert game.message(1) == full + one_blank + "0 0\n1 0\n"
    game.play([(0, 0), (0, 0)])
    assert game.steps[1] == ([], [])
    b_pack = "0 0 0 0\n0 0 0 0\n0 0 11 0\n0 0 0 1\nEND\n"
    a_pack = "0 0 0 0\n" * 3 + "0 0 0 1\nEND\n"
    assert game.message(0) == a_pack + b_pack + "0 0\n0 0\n"
    assert game.message(1) == b_pack + a_pack + "0 0\n0 0\n"
    game.play([(0, 0), (0, 0)])
    assert game.is_over() and game.ranks() == [1, 2]
    assert game.record(0) == {"score": 16, "max_chain": 3, "turns": 3, "fc": 1, "end": "clear", "stock": 0}
    assert game.record(1) == {"score": 6, "max_chain": 2, "turns": 3, "fc": 0, "end": "clear", "stock": 0}


def test_exchange_example_of_4_3():
    assert exchange(attacks=(7, 2), stocks=(5, 0)) == (2, 2)
    assert exchange(attacks=(0, 0), stocks=(3, 1)) == (3, 1)
    assert exchange(attacks=(1, 3), stocks=(0, 0)) == (3, 1)


@pytest.mark.parametrize(
    ("chain", "erased", "fire", "sent"),
    [(2, 6, 0, 2), (3, 6, 0, 3), (3, 9, 10, 9), (5, 12, 25, 27), (16, 3, 0, 4), (10, 21, 0, 23), (7, 40, 99, 364)]
    + [(2, 2, 50, 0), (1, 30, 0, 0)],
)
def test_attack_reference_values_of_6_3(chain, erased, fire, sent):
    assert attack(chain, erased, fire) == sent


def test_step_score_of_6_1_stays_an_exact_integer():
    assert step_score(2, 1, 25) == 1
    assert step_score(4, 1, 25) == 2
    assert step_score(3 * 40, 3, 35) == 2**35 * 6 * 3  # q past P: the exponent is capped, the factor grows


V6_SMALL = """6 8 3 5 5
0 0 0
6 1 0
6 0 0
END
0 6 2
0 0 0
3 0 0
END
0 0 0
0 0 3
0 3 0
END
0 0 0
0 6 0
3 0 0
END
0 0 0
1 2 0
6 0 0
END
"""


def test_v6_generator_bytes_and_fill_orders():
    numbers = params(6, 8, 3, 5, 5, A=2, B_obs=5)
    assert sorted(numbers.bag()) == [1, 1, 2, 2, 3, 3, 3, 3, 6, 6, 6, 6, 6]
    assert initial_input(numbers, generate(numbers, 1)) == V6_SMALL
    assert fill_orders(1, 3, 2) == [[1, 2, 7, 3, 0, 8, 5, 6, 4], [1, 6, 7, 8, 3, 5, 2, 0, 4]]


@pytest.mark.parametrize(
    ("case", "digest", "first"),
    [
        (
            "small",
            "d562679ec6b749cd346134506e4cbb00a11f81279c5bbaea9cc531920cdb069e",
            "0 0 3 11 / 0 0 0 4 / 0 0 0 0 / 0 0 5 0",
        ),
        (
            "medium",
            "7f2ee836030cc0284d779d1ae7dd66cd445b65a8c6ca1366e19698490287135f",
            "0 0 0 0 / 0 0 9 21 / 6 0 0 2 / 21 0 21 21",
        ),
        (
            "large",
            "72824c832e029e46e73183dd0f032ef81baa029b71941ff321d93366155aa88f",
            "0 31 12 0 9 / 31 0 0 0 10 / 0 31 0 31 0 / 0 11 31 31 31 / 0 0 0 0 31",
        ),
    ],
)
def test_v6_standard_cases(case, digest, first):
    numbers = CASES[case]
    packs = generate(numbers, 1)
    assert packs[0] == grid(first)
    assert hashlib.sha256(initial_input(numbers, packs).encode()).hexdigest() == digest
    assert numbers.problems(generating=True) == []


DIGESTS = {
    "input/1371500651.txt": "3c26c614e9e75dee4d0b75daca8b9192d2b3b26b6c5db9686392d02aa48d1f34",
    "input/1371738939.txt": "76723f7b1834c91f5861841c651e98e906f762c488f7581256c756f9adef82d4",
    "input/1371660068.txt": "62bee8e889861124285081246125237d6ce0163dacdff3ac3c4f34d976572918",
    "output/1371500651.txt": "2da789dd65c3e1dd8299bbbd7c7fcf21fff821e9fcb22d4c9c2a39f514e9ae9c",
    "output/1371738939.txt": "ad04ef15fe25990ac862235a6079b14bf4aa6187a773c3057239630fbd388328",
    "output/1371660068.txt": "dbe91928ec3b5c125cc2aff206ea1f0e2adcf03e532d35abd18b8fee44b8bbd6",
}


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_the_official_files_are_the_rules_files(name):
    assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == DIGESTS[name]


def official_game(problem):
    """The V7 game of ``problem``, played line by line as a bot printing the move file and exiting."""
    case = {"1371500651": "small", "1371738939": "medium", "1371660068": "large"}[problem]
    game = SoloGame(CASES[case], read_pack_file((DATA / "input" / f"{problem}.txt").read_text(), CASES[case]))
    data = (DATA / "output" / f"{problem}.txt").read_bytes()
    lines = data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")
    checkpoints = {}
    for line in lines:
        game.play(line)
        checkpoints[game.turn] = (game.well.score, game.well.fire, game.well.max_chain)
        if game.end:
            break
    if not game.end:
        game.fault("eof")  # the bot exited before its move for the next pack
    return game, checkpoints


@pytest.mark.parametrize(
    ("problem", "record", "marks"),
    [
        (
            "1371500651",
            {"score": 4284865096235, "max_chain": 9, "turns": 999, "fc": 100, "end": "fault:eof"},
            {10: (384, 2, 1), 100: (38707, 23, 2), 500: (1212994779488, 85, 9), 900: (3751337345664, 98, 9)},
        ),
        (
            "1371738939",
            {"score": 259788840097133, "max_chain": 17, "turns": 999, "fc": 82, "end": "fault:eof"},
            {9: (1028, 1, 2), 100: (198000, 19, 4), 500: (46746462582734, 73, 11), 900: (204748489926653, 80, 17)},
        ),
        (
            "1371660068",
            {"score": 17931682000516294, "max_chain": 18, "turns": 1000, "fc": 94, "end": "clear"},
            {
                10: (49220, 2, 5),
                100: (3313314, 17, 9),
                500: (583222285966398, 82, 16),
                900: (13799293262867236, 91, 18),
            },
        ),
    ],
)
def test_v7_official_problems_with_real_move_lists(problem, record, marks):
    game, checkpoints = official_game(problem)
    assert game.record() == record
    assert isinstance(game.record()["score"], int)
    for turn, expected in marks.items():
        assert checkpoints[turn] == expected, turn


def test_v7_first_scoring_turns():
    small, _ = official_game("1371500651")
    assert next(steps for steps in small.steps if steps) == [(1, 21, 128)] == small.steps[6]
    assert small.steps[19] == [(1, 6, 4), (2, 18, 128)]
    medium, _ = official_game("1371738939")
    assert medium.steps[8] == [(1, 7, 4), (2, 27, 1024)]
    large, _ = official_game("1371660068")
    assert large.steps[6] == [(1, 6, 4), (2, 39, 16384)]


@pytest.mark.parametrize("line", [b"", b"+1 0", b"1 2 3", b"1,2", b"x y", b"1\t", b"1 2\xc3", b"1 " + b"0" * 1000])
def test_v8_lines_that_are_not_moves(line):
    with pytest.raises(MoveFault) as fault:
        read_move(line)
    assert fault.value.code == FORMAT


@pytest.mark.parametrize(("line", "move"), [(b"-2 1", (-2, 1)), (b" 3\t0 ", (3, 0)), (b"3 0\r", (3, 0))])
def test_v8_lines_that_are_moves(line, move):
    assert read_move(line) == move


def test_v8_a_rotation_outside_0_to_3_and_a_block_outside_the_well_are_illegal():
    numbers, pack = params(4, 6, 3, 10, 2), grid("0 0 0 / 0 0 11 / 0 0 11")
    for x, rotation in ((0, 4), (2, 0), (-3, 0)):
        with pytest.raises(MoveFault) as fault:
            check_move(pack, numbers, x, rotation)
        assert fault.value.code == ILLEGAL_MOVE
    game = SoloGame(numbers, [pack, pack])
    with pytest.raises(MoveFault):
        game.play(b"0 4")
    assert game.record() == {"score": 0, "max_chain": 0, "turns": 0, "fc": 0, "end": "fault:illegal_move"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("4 8 4 10 2\n" + "0 " * 16 + "END\n", "the game is 4 8 4 10 3"),
        (V5_PACKS.replace("0 6 0 0\nEND", "0 6 0 0\nEN"), "pack 0 is not 16 numbers followed by END"),
        (V5_PACKS.replace("4 5 0 0", "4 10 0 0"), "pack 0 holds 10"),
        (V5_PACKS.replace("0 0 0 1\nEND", "0 0 0 0\nEND"), "pack 2 holds no block"),
    ],
)
def test_pack_files_that_do_not_fit_are_refused(text, words):
    with pytest.raises(PackFileError, match=words):
        read_pack_file(text, params(4, 8, 4, 10, 3))


def test_numbers_that_cannot_be_played_are_named():
    assert params(3, 5, 4, 10, 1).problems(generating=False) == ["W >= T >= 1 is needed (W=3, T=4)"]
    assert "cannot fill 1000 packs" in params(10, 16, 4, 10, 1000, A=1, B_obs=0).problems(generating=True)[0]


def test_versus_the_player_still_standing_wins_and_is_marked_survived():
    numbers = params(2, 2, 1, 10, 5)
    game = VersusGame(numbers, [(1,)] * 5, [[0]] * 5)
    for a, b in (((0, 0), (0, 0)), ((0, 0), (1, 0)), ((0, 0), (1, 0))):
        game.play([a, b])
    assert game.is_over() and game.turn == 3
    assert (game.record(0)["end"], game.record(1)["end"]) == ("overflow", "survived")
    assert game.ranks() == [2, 1]


def test_versus_a_fault_loses_and_its_move_is_not_applied():
    numbers = params(4, 6, 3, 10, 2)
    packs = [grid("0 0 0 / 0 0 11 / 0 0 11")] * 2
    game = VersusGame(numbers, packs, [list(range(9))] * 2)
    game.play([(0, 4), (0, 0)])
    assert game.record(0)["end"] == "fault:illegal_move" and game.record(0)["turns"] == 0
    assert game.record(1)["end"] == "survived" and game.ranks() == [2, 1]
