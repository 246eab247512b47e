"""What a spectator may see of a game while it is played (``public_view``, ``public_move`` of engine/<game>/view.py).

Every registered game plays real games with its built-in bots in this process, is replayed into
frames, and its public frames and moves are checked: new, JSON-ready objects that leave the
full ones untouched; the whole frame and move for a perfect-information game; no secret in
them where a game has one (geister's colours and setups, nimmt's hands and unrevealed cards,
synthetic's first stated strength, versus2048's first pre-game cell); and two games that differ
only in what is secret look the same to a spectator until the rules reveal it, and differ from
then on. The replay page draws a reel of public frames in chromium without an error.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from collections import deque
from typing import Any

import pytest

from engine import GAMES, get_game
from engine.core import Request
from engine.geister import Geister
from engine.nimmt import Nimmt
from engine.nimmt.rules import EARLY_STOP, NimmtState
from engine.synthetic import Synthetic
from engine.versus2048 import Versus2048
from league.match.bot_spec import BotSpec
from league.match.players import make_launcher
from league.match.referee import play_match
from league.replay import page as replay_page
from league.replay.page import Reel
from league.replay.rebuild import Replay, replay_game, replay_match, view_module
from league.stats.game_record import GameRecord
from tests.browser import page_log
from tests.conftest import BOTS

PERFECT = {"attack2048", "pk2048", "fish", "codevs21"}
"""Games whose every player sees everything: their public views are the full ones."""
SECRET = {"geister", "nimmt", "synthetic", "versus2048"}
"""Games with something a player is not told (for a while): their public views hide it."""

CASES: list[tuple[str, tuple[str, ...], dict[str, Any], int]] = [
    ("versus2048", ("greedy", "random"), {"turns_per_player": 40}, 3),
    ("pk2048", ("random", "greedy"), {}, 3),
    ("attack2048", ("random", "greedy"), {}, 3),
    ("geister", ("greedy", "random"), {}, 3),
    ("geister", ("random", "greedy"), {"escape": "move_off"}, 4),
    ("nimmt", ("random", "greedy", "random"), {"deals": 2}, 3),
    ("nimmt", ("greedy", "random"), {}, 5),
    ("fish", ("random", "greedy", "random"), {}, 3),
    ("codevs21", ("greedy",), {}, 3),
    ("codevs21", ("random", "greedy"), {"mode": "versus"}, 3),
    ("synthetic", ("random", "model"), {}, 3),
]
"""Games played with built-ins: (game, built-in bots by seat, variant, seed); every registered game is here."""


def play(name: str, bots: tuple[str, ...], variant: dict[str, Any], seed: int) -> Replay:
    """Play one game of built-ins in this process and replay it into frames."""
    game = get_game(name)(**variant)
    specs = [BotSpec(name=f"{bot}-{seat}", builtin=f"{name}.{bot}") for seat, bot in enumerate(bots)]
    record = play_match(game, [make_launcher(game, spec, seat, seed) for seat, spec in enumerate(specs)], seed)
    return replay_match(game, [spec.name for spec in specs], seed, record)


def replay_moves(game: Any, seats: int, moves: list[list[Any]], seed: int = 0) -> Replay:
    """Replay stored replies (``[seat, role, reply, ms, fault, event]``) under ``game``, whatever they lead to."""
    names = [f"seat-{seat}" for seat in range(seats)]
    record = GameRecord.from_json({"game_id": "", "spec": {"seats": names, "seed": seed}, "result": {}})
    return replay_game(game, record, {"moves": moves})


def stored(replay: Replay) -> list[list[Any]]:
    """A replay's judged replies in the store's form, in the order judged."""
    return [
        [m["seat"], m["role"], m["reply"], m["ms"], m.get("fault"), m.get("event", "line")]
        for frame in replay.frames
        for m in frame.moves
    ]


def public(name: str, view: dict[str, Any], moves: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A frame's public view and the public versions of the moves that led to it."""
    module = view_module(name)
    return module.public_view(view), [module.public_move(move, view) for move in moves]


def public_course(name: str, replay: Replay) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every frame of a replay as a spectator sees it."""
    return [public(name, frame.view, frame.moves) for frame in replay.frames]


def shares_containers(made: Any, given: Any) -> bool:
    """Whether ``made`` holds a dict or list that is also in ``given`` (the same object, not an equal one)."""
    inside: set[int] = set()

    def collect(value: Any, into: set[int]) -> None:
        if isinstance(value, dict | list):
            into.add(id(value))
        if isinstance(value, dict | list | tuple):
            for item in value.values() if isinstance(value, dict) else value:
                collect(item, into)

    collect(given, inside)
    mine: set[int] = set()
    collect(made, mine)
    return bool(inside & mine)


def is_hidden_form(shown: dict[str, Any], move: dict[str, Any]) -> bool:
    """Whether ``shown`` is ``move`` hidden: no reply, ``hidden``, everything else (time, fault, event) kept."""
    return shown == {**move, "reply": "", "hidden": True}


@pytest.fixture(scope="module")
def replays() -> dict[int, Replay]:
    """Every case of ``CASES`` played once, by its index."""
    return {index: play(*case) for index, case in enumerate(CASES)}


def test_every_registered_game_has_public_views_and_is_played_here():
    assert PERFECT | SECRET == set(GAMES) and not PERFECT & SECRET, "every registered game is classified"
    assert {case[0] for case in CASES} == set(GAMES), "every registered game is played by these tests"
    for name in GAMES:
        module = view_module(name)
        for function in (module.public_view, module.public_move):
            assert callable(function) and function.__doc__ and "README.md" in function.__doc__, (name, function)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c[0]}-{len(c[1])}-{c[3]}" for c in CASES])
def test_public_frames_are_new_json_ready_and_whole_where_nothing_is_secret(replays: dict[int, Replay], index: int):
    name = CASES[index][0]
    replay = replays[index]
    assert replay.diverged == "" and len(replay.frames) >= 3 and replay.frames[-1].view["over"]
    differing = 0
    for frame in replay.frames:
        before = copy.deepcopy((frame.view, frame.moves))
        view, moves = public(name, frame.view, frame.moves)
        assert (frame.view, frame.moves) == before, "the full frame and moves are left as they were"
        assert not shares_containers((view, moves), (frame.view, frame.moves)), "new dicts, not the given ones"
        json.dumps([view, moves], allow_nan=False)  # JSON-ready
        if name in PERFECT:
            assert view == frame.view and moves == frame.moves
        for shown, move in zip(moves, frame.moves, strict=True):
            assert shown == move or is_hidden_form(shown, move), (shown, move)
        differing += view != frame.view or moves != frame.moves
    if name in SECRET:
        assert differing, f"{name}: something of the game is hidden from a spectator"


# -- geister: colours and setups ----------------------------------------------------------------


def captured_or_escaped(piece: dict[str, Any]) -> bool:
    return piece["at"] in ("captured", "escaped")


def revealing(view: dict[str, Any]) -> bool:
    """Whether a geister frame shows a colour the rules reveal: the end, or a ghost captured or escaped."""
    return view["over"] or any(captured_or_escaped(piece) for pieces in view["pieces"] for piece in pieces)


@pytest.mark.parametrize("index", [i for i, case in enumerate(CASES) if case[0] == "geister"])
def test_geister_public_frames_show_only_revealed_colours_and_no_setup(replays: dict[int, Replay], index: int):
    replay = replays[index]
    captures = 0
    for frame in replay.frames:
        view, moves = public("geister", frame.view, frame.moves)
        if frame.view["over"]:
            assert (view, moves) == (frame.view, frame.moves), "the end messages show every colour"
            continue
        for pieces, full in zip(view["pieces"], frame.view["pieces"], strict=True):
            for piece, true in zip(pieces, full, strict=True):
                if captured_or_escaped(piece):
                    captures += 1
                    assert piece == true, "a captured ghost's colour is known to both"
                else:
                    assert piece == {**true, "red": None}, "a ghost on the board keeps its colour secret"
        for shown, move in zip(moves, frame.moves, strict=True):
            setup = move["reply"].startswith("SET:")
            assert is_hidden_form(shown, move) if setup or move.get("fault") else shown == move
    assert captures, "the games captured ghosts before their end"
    assert any(m["reply"].startswith("SET:") for m in replay.frames[1].moves)


def with_other_reds(moves: list[list[Any]]) -> list[list[Any]]:
    """The same replies with every ``SET`` naming the other four ghosts red."""
    changed = []
    for seat, role, reply, ms, fault, event in moves:
        if reply.startswith("SET:"):
            reply = "SET:" + "".join(letter for letter in "ABCDEFGH" if letter not in reply[4:])
        changed.append([seat, role, reply, ms, fault, event])
    return changed


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_geister_games_differing_only_in_their_reds_look_the_same_until_a_colour_is_revealed(seed: int):
    first = play("geister", ("greedy", "random"), {}, seed)
    moves = stored(first)
    second = replay_moves(Geister(), 2, with_other_reds(moves))
    assert stored(second)[:2] != moves[:2], "the setups differ"
    a, b = first.frames, second.frames
    reveal = next(i for i in range(min(len(a), len(b))) if revealing(a[i].view) or revealing(b[i].view))
    assert reveal >= 4, "the setup and a few plies come before the first capture or the end"
    for fa, fb in zip(a[:reveal], b[:reveal], strict=True):
        assert public("geister", fa.view, fa.moves) == public("geister", fb.view, fb.moves)
    assert all(fa.view != fb.view for fa, fb in zip(a[1:reveal], b[1:reveal], strict=True)), "the reds differ"
    assert public("geister", a[reveal].view, a[reveal].moves) != public("geister", b[reveal].view, b[reveal].moves)


def test_geister_a_rejected_command_is_hidden_while_the_game_goes_on():
    moves = [
        [0, "play", "SET:ABCD", 5, None, "line"],
        [1, "play", "SET:EFGH", 5, None, "line"],
        [0, "play", "MOV:A,EAST", 5, "illegal_move", "line"],  # onto its own B: NG, and seat 0 tries again
        [0, "play", "MOV:A,NORTH", 5, None, "line"],
        [1, "play", "MOV:A,NORTH", 5, None, "line"],
    ]
    replay = replay_moves(Geister(ng_terminate=False), 2, moves)
    playing = replay.frames[:4]  # the start, the setups, seat 0's two tries, seat 1's move (then a timeout ends it)
    assert not any(frame.view["over"] for frame in playing) and replay.frames[4].view["over"]
    judged = [move for frame in playing for move in frame.moves]
    assert [m["reply"] for m in judged] == [m[2] for m in moves] and judged[2]["fault"] == "illegal_move"
    seen = [move for frame in playing for move in public("geister", frame.view, frame.moves)[1]]
    assert [is_hidden_form(s, m) for s, m in zip(seen, judged, strict=True)] == [True, True, True, False, False]
    assert seen[3:] == judged[3:], "accepted moves are public"


# -- nimmt: hands and unrevealed cards ----------------------------------------------------------


@pytest.mark.parametrize("index", [i for i, case in enumerate(CASES) if case[0] == "nimmt"])
def test_nimmt_public_frames_show_hands_as_sizes_and_every_revealed_card(replays: dict[int, Replay], index: int):
    replay = replays[index]
    assert replay.result["offenders"] == []
    for frame in replay.frames:
        view, moves = public("nimmt", frame.view, frame.moves)
        assert view["hands"] == [len(hand) for hand in frame.view["hands"]]
        assert {**view, "hands": frame.view["hands"]} == frame.view, "everything but the hands is public"
        assert moves == frame.moves, "no fault here: every answer is a card revealed or a row chosen for all"


def deal_of(state: NimmtState, seat: int, played_last: int, unused: int) -> None:
    """Give ``seat`` the card ``unused`` (dealt to nobody) instead of ``played_last``, in the state and its log."""
    hand = sorted([card for card in state.hands[seat] if card != played_last] + [unused])
    state.hands[seat] = hand
    state.log[0][2][seat] = list(hand)


def drive(state: NimmtState, answers: dict[int, deque[int]]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Play ``answers`` (per seat, in order) on ``state`` phase by phase; each frame with its moves.

    Stops before a phase in which an answer is not legal (the games' courses part there).
    """
    module = view_module("nimmt")
    frames = [(module.frame(state), [])]
    while not state.is_over():
        actions: dict[Request, int] = {}
        for request in state.to_act():
            card = answers[request.seat][0]
            if state.check(request, card) is not None:
                return frames
            actions[request] = answers[request.seat].popleft()
        state.apply(actions)
        moves = [{"seat": r.seat, "role": r.role, "reply": str(card), "ms": 1} for r, card in actions.items()]
        frames.append((module.frame(state), moves))
    return frames


@pytest.mark.parametrize("seed", [3, 11])
def test_nimmt_tables_differing_in_a_card_not_yet_played_look_the_same_until_it_is(seed: int):
    game = Nimmt()
    replay = play("nimmt", ("greedy", "random", "random"), {}, seed)
    answers = {seat: deque(int(m[2]) for m in stored(replay) if m[0] == seat) for seat in range(3)}
    last = replay.frames[-1].view["last"]
    assert last["round"] == 10, "one deal, played to its end"
    played_last = last["cards"][0]  # seat 0 holds this card until the last round
    start: NimmtState = game.new_state(seed, 3)
    dealt = {card for hand in start.hands for card in hand} | {row[0] for row in start.rows}
    unused = min(set(range(1, 105)) - dealt)
    other = NimmtState.from_json(copy.deepcopy(start.to_json()))
    deal_of(other, 0, played_last, unused)
    first = drive(start, {seat: deque(cards) for seat, cards in answers.items()})
    second = drive(other, {seat: deque(cards) for seat, cards in answers.items()})
    assert len(first) > len(second) >= 10, "the second table parts when seat 0 would play the card it lacks"
    assert [f[0] for f in first] == [f.view for f in replay.frames], "the engine driven here is the game played"
    for (va, ma), (vb, mb) in zip(first, second, strict=False):
        assert va != vb, "the hands differ"
        assert public("nimmt", va, ma) == public("nimmt", vb, mb)
    revealed, _ = public("nimmt", *first[len(second)])
    assert played_last in revealed["last"]["cards"], "the card is shown once the round reveals it"


def test_nimmt_faulted_and_abandoned_answers_are_hidden():
    game = Nimmt(timeout_ms=300)
    cheat = BotSpec("cheat", command=(sys.executable, str(BOTS / "nimmt_hostile.py"), "not_in_hand", "3"))
    specs = [BotSpec("greedy", builtin="nimmt.greedy"), cheat, BotSpec("random", builtin="nimmt.random")]
    for seats, seed in ((specs, 4), (specs[:2], 4)):
        record = play_match(game, [make_launcher(game, spec, seat, seed) for seat, spec in enumerate(seats)], seed)
        replay = replay_match(game, [spec.name for spec in seats], seed, record)
        assert replay.diverged == "" and record.result.offenders == [1], record.result.detail
        faulted = abandoned = 0
        for frame in replay.frames:
            _, moves = public("nimmt", frame.view, frame.moves)
            early = frame.view["over"] and frame.view["end"]["reason"] == EARLY_STOP
            for shown, move in zip(moves, frame.moves, strict=True):
                if move.get("fault"):
                    faulted += 1
                    assert is_hidden_form(shown, move)
                elif early:
                    abandoned += 1
                    assert is_hidden_form(shown, move), "a card of a round never revealed"
                else:
                    assert shown == move
        assert faulted == 1 and abandoned == (len(seats) == 2)


def test_nimmt_a_late_answer_is_hidden_even_where_the_fallback_plays_that_card():
    game = Nimmt()
    hands = game.new_state(0, 3).hands
    lowest = min(hands[1])  # the fallback's card, and the late answer
    moves = [
        [0, "play", str(hands[0][0]), 5, None, "line"],
        [1, "play", str(lowest), 5039, "timeout", "line"],  # read 39 ms after its 5 s deadline
        [2, "play", str(hands[2][0]), 5, None, "line"],
    ]
    frame = replay_moves(game, 3, moves).frames[1]
    late = {m["seat"]: m for m in frame.moves}[1]
    assert frame.view["last"]["cards"][1] == lowest and late == {
        "seat": 1,
        "role": "play",
        "reply": str(lowest),
        "ms": 5039,
        "fault": "timeout",
    }
    _, shown = public("nimmt", frame.view, frame.moves)
    hidden = {m["seat"] for s, m in zip(shown, frame.moves, strict=True) if is_hidden_form(s, m)}
    assert hidden == {1} and len(shown) == 3


def test_nimmt_a_card_of_an_abandoned_round_stays_hidden_where_it_reads_as_an_earlier_row_choice():
    game = Nimmt()
    seed = 2
    hands = game.new_state(seed, 2).hands
    assert {1, 2} <= set(hands[0]), "seat 0 holds the 1 (a low card: it takes a row) and the 2"
    moves = [
        [0, "play", "1", 5, None, "line"],
        [1, "play", str(hands[1][0]), 5, None, "line"],
        [0, "play", "2", 5, None, "line"],  # TAKE: row 2, told to everybody
        [0, "play", "2", 5, None, "line"],  # PLAY 2: the card 2, never revealed
        [1, "play", "999", 5, "illegal_move", "line"],  # the round is abandoned: an early stop
    ]
    frames = replay_moves(game, 2, moves, seed).frames
    take, end = frames[-2], frames[-1]
    assert end.view["end"]["reason"] == EARLY_STOP and [m["reply"] for m in end.moves] == ["2", "999"]
    assert public("nimmt", take.view, take.moves)[1] == take.moves, "the row choice is public"
    _, shown = public("nimmt", end.view, end.moves)
    assert all(is_hidden_form(s, m) for s, m in zip(shown, end.moves, strict=True))


# -- synthetic and versus2048: one reply kept from the other seat for a while --------------------


def test_synthetic_seat_0s_strength_stays_hidden_until_the_game_is_over():
    games = [
        replay_moves(Synthetic(), 2, [[0, "play", first, 3, None, "line"], [1, "play", "1500", 4, None, "line"]])
        for first in ("1650 rock", "1200")
    ]
    a, b = (public_course("synthetic", replay) for replay in games)
    assert len(a) == len(b) == 3 and a[:2] == b[:2], "the start and seat 0's stated strength look the same"
    assert a[1][0]["hidden"] == [True, False] and a[1][0]["elos"] == [None, None]
    assert [g.frames[1].view["elos"][0] for g in games] == [1650, 1200]
    assert a[2] != b[2] and a[2][0] == games[0].frames[2].view, "the end shows both strengths"


def test_versus2048_seat_0s_pregame_cell_is_hidden_while_seat_1_picks_its_own():
    games = [
        replay_moves(Versus2048(), 2, [[0, "play", cell, 3, None, "line"], [1, "play", "2 2", 4, None, "line"]])
        for cell in ("1 1", "3 4")
    ]
    a, b = (public_course("versus2048", replay) for replay in games)
    assert a[:2] == b[:2] and a[1][0]["boards"][1] is None, "the start and seat 1's blind pick look the same"
    assert games[0].frames[1].view["boards"][1] != games[1].frames[1].view["boards"][1], "the full frames differ"
    assert a[2] != b[2] and a[2] == public("versus2048", games[0].frames[2].view, games[0].frames[2].moves)
    assert a[2][0] == games[0].frames[2].view, "once both have picked, every turn input shows both boards"


# -- the replay page draws public frames --------------------------------------------------------


def public_reel(name: str, replay: Replay) -> Reel:
    """A reel of ``replay`` whose frames and moves are the public ones (no stderr: a bot's own lines)."""
    frames = [
        dataclasses.replace(frame, view=view, moves=moves)
        for frame, (view, moves) in zip(replay.frames, public_course(name, replay), strict=True)
    ]
    return Reel(f"{name}, public", dataclasses.replace(replay, frames=frames, stderr=[]))


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c[0]}-{len(c[1])}-{c[3]}" for c in CASES])
def test_the_replay_page_draws_every_public_frame(replays: dict[int, Replay], index: int, page, tmp_path):
    name = CASES[index][0]
    replay = replays[index]
    path = tmp_path / "public.html"
    path.write_text(page_html(name, replay), encoding="utf-8")
    page.goto(path.resolve().as_uri())
    frames = page.evaluate("replayPlayer.reels[0].frames.length")
    assert frames == len(replay.frames)
    step = max(1, frames // 60)
    drawn = []
    for shown in [*range(0, frames, step), frames - 1]:
        page.evaluate(f"replayPlayer.show({shown})")
        drawn.append(page.evaluate("document.getElementById('board').innerHTML"))
        assert page.evaluate("document.getElementById('board').children.length") > 0
    assert len(set(drawn)) > 1, "the board changes as the game goes on"
    assert page_log(page).errors() == [] and page_log(page).foreign_requests() == []
    if name == "geister":
        check_geister_page(page, replay)
    elif name == "nimmt":
        check_nimmt_page(page, replay)
    elif name == "synthetic":
        page.evaluate("replayPlayer.show(1)")
        assert page.evaluate("document.querySelector('[data-seat=\"0\"] div').textContent").startswith("stated")
        assert page.evaluate("document.querySelector('#moves td.reply').textContent") == "(hidden from spectators)"


def page_html(name: str, replay: Replay) -> str:
    """The replay page of ``replay``'s public reel."""
    return replay_page.page(name, [public_reel(name, replay)], f"{name}: a spectator's view")


def check_geister_page(page: Any, replay: Replay) -> None:
    """Every ghost on the board drawn grey before the end, no "colours known to", the setup lines hidden."""
    assert page.evaluate("document.getElementById('option-view').parentElement.hidden")
    middle = len(replay.frames) // 2
    page.evaluate(f"replayPlayer.show({middle})")
    fills = page.evaluate("[...document.querySelectorAll('#board [data-piece] path')].map(p => p.getAttribute('fill'))")
    on_board = sum(isinstance(p["at"], list) for pieces in replay.frames[middle].view["pieces"] for p in pieces)
    assert len(fills) == on_board and set(fills) == {"#9aa0a6"}
    page.evaluate("replayPlayer.show(1)")
    replies = page.evaluate("[...document.querySelectorAll('#moves td.reply')].map(td => td.textContent)")
    assert replies == ["(hidden from spectators)"] * 2
    page.evaluate(f"replayPlayer.show({len(replay.frames) - 1})")
    fills = page.evaluate("[...document.querySelectorAll('#board [data-piece] path')].map(p => p.getAttribute('fill'))")
    assert "#9aa0a6" not in fills, "the end shows every colour"
    assert page_log(page).errors() == []


def check_nimmt_page(page: Any, replay: Replay) -> None:
    """Every hand drawn as its number of face-down cards, and no "hands" option."""
    assert page.evaluate("document.getElementById('option-hands').parentElement.hidden")
    for index in (0, len(replay.frames) // 2):
        page.evaluate(f"replayPlayer.show({index})")
        backs = page.evaluate("[...document.querySelectorAll('tr.seat')].map(r => r.querySelectorAll('.back').length)")
        assert backs == [len(hand) for hand in replay.frames[index].view["hands"]]
        assert page.evaluate("document.querySelectorAll('tr.seat .card:not(.back)').length") == 0
    assert page_log(page).errors() == []
