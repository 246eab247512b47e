"""Every test vector of section 9 of rules/geister.md, checked byte-exact from both ends.

Whole games are played through the real ``Referee`` with two scripted in-process bots (``Seat``),
which answer ``SET?`` and ``MOV?`` from their scripts and take acknowledgements and end messages
without a reply. A shared log records every byte the referee sends, to whom, in order. The
transcripts of section 9 are pasted as they are written there and parsed (``transcript``): the
``0→R``/``1→R`` lines become the bots' scripts, the ``R→0``/``R→1`` lines the expected log.
The bot side is checked too: ``GeisterDriver`` fed the bytes a seat received decodes the same
observations as the state gives, and its replies parse back to the same actions.
"""

import ast
import copy
import re

import pytest

from engine.core import Request, Termination
from engine.geister import Geister
from engine.geister.observations import Move, MoveObservation, SetReds, SetupObservation
from engine.geister.protocol import GeisterDriver, GeisterReferee, encode_action, parse_command
from league.match.referee import Referee
from tests.engine.scripted import LEGAL, RecordingBot, ScriptedTransport, line_fault, line_reason

REFEREE = GeisterReferee()
P0, P1 = Request(0), Request(1)
SET_Q = b"SET?\r\n"
OK, OKR, OKB, NG = b"OK \r\n", b"OKR\r\n", b"OKB\r\n", b"NG \r\n"
SILENT = object()  # a scripted reply: the bot reads the request and says nothing (it sleeps)
CLOSE = object()  # after the reply before it, the bot closes its output at once (it exits)
START_0 = "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u"  # 9.1, seat 0 SET:ABCD
START_1 = "14B24B34B44B15R25R35R45R41u31u21u11u40u30u20u10u"  # 9.1, seat 1 SET:EFGH


# -- helpers ----------------------------------------------------------------------------------
def crlf(text):
    return text.encode("ascii") + b"\r\n"


def moves(*words):
    """Scripted reply lines ``MOV:<word>`` ending CR LF."""
    return [crlf(f"MOV:{word}") for word in words]


def transcript(text):
    """A section 9 transcript as (sender, receiver, bytes); ``R`` is the referee, digits are seats."""
    rows = []
    for line in text.strip().splitlines():
        match = re.match(r'\s*(R|\d)→(R|\d)\s+("[^"]*")', line)
        assert match, line
        sender, receiver, literal = match.groups()
        rows.append((sender, receiver, ast.literal_eval(literal).encode("ascii")))
    return rows


def sent_by_referee(rows):
    return [(int(receiver), data) for sender, receiver, data in rows if sender == "R"]


def scripts_of(rows):
    return [[data for sender, _, data in rows if sender == str(seat)] for seat in (0, 1)]


class Seat(ScriptedTransport):
    """A scripted bot that answers requests only (``SET?``, ``MOV?``): acks and end messages get no reply."""

    def send(self, data):
        request = data.startswith((b"SET?", b"MOV?"))
        silent = request and bool(self.replies) and self.replies[0] is SILENT
        if silent:
            self.replies.pop(0)
        self.unanswered = (data,) if silent or not request else ()
        super().send(data)
        if request and self.replies and self.replies[0] is CLOSE:
            self.replies.pop(0)
            self._ended()


class Match:
    """Two scripted seats played through the real Referee; ``log`` is every byte sent, in order."""

    def __init__(self, script_0, script_1, **variant):
        self.log = []
        self.game = Geister(**variant)
        self.seats = [Seat(script, key=seat, log=self.log) for seat, script in enumerate((script_0, script_1))]
        self.record = Referee(self.game, [self.launch, self.launch], seed=0).play()
        self.result = self.record.result

    def launch(self, key):
        assert key.epoch == 0, "geister starts each seat's process once"
        return self.seats[key.seat]

    def sent(self):
        """(seat, bytes) of everything the referee sent, in order; the two closes checked and left out."""
        closes = [key for key, data in self.log if data == "closed"]
        assert sorted(closes) == [0, 1] and all(data == "closed" for _, data in self.log[-2:])
        return [(key, data) for key, data in self.log if data != "closed"]

    def received(self, seat):
        return self.seats[seat].received


def assert_result(result, winner, reason, plies, sets, final, faulted=None):
    assert result.winner == winner
    assert result.ranks == ([1, 1] if winner is None else [1 + (seat != winner) for seat in (0, 1)])
    assert (result.reason_code, result.plies) == (reason, plies)
    assert result.extra["winner"] == winner and result.extra["reason"] == reason
    assert result.extra["sets"] == sets
    assert result.extra["final"] == final
    if faulted is None:
        assert result.offenders == [] and "faulted" not in result.extra
        assert result.termination == Termination.NORMAL
    else:
        assert result.extra["faulted"] == faulted
        assert result.offenders == (faulted if isinstance(faulted, list) else [faulted])
        assert result.termination != Termination.NORMAL


def new_state(**variant):
    return Geister(**variant).new_state(0)


def after_setup(reds_0="ABCD", reds_1="EFGH", **variant):
    state = new_state(**variant)
    state.apply({P0: SetReds(reds_0), P1: SetReds(reds_1)})
    return state


def replay(scripts, **variant):
    """The game of two scripts at the state level: per seat the observations of its requests, in order.

    Rejected lines (an NG, with ``ng_terminate: false``) are skipped as the referee skips them.
    """
    state = new_state(**variant)
    lines = [
        [line.decode() for chunk in script if isinstance(chunk, bytes) for line in chunk.splitlines()]
        for script in scripts
    ]
    seen = [[], []]
    while not state.is_over():
        accepted = {}
        for request in state.to_act():
            seen[request.seat].append(state.observation(request))
            while lines[request.seat]:
                line = lines[request.seat].pop(0)
                if line_fault(REFEREE, state, request, line) is None:
                    accepted[request] = REFEREE.parse(state, request, line)
                    break
            else:
                return state, seen  # the script is over: the vectors leave the rest to the referee
        state.apply(accepted)
    return state, seen


def assert_bot_side_agrees(match, scripts, **variant):
    """A GeisterDriver fed each seat's bytes sees the state's observations and replies the same actions.

    Each request the seat received is decoded; where its script had run out (the referee then saw
    the bot close its output) the driver's bot still answers, and that reply is not compared.
    """
    _, seen = replay(scripts, **variant)
    for seat in (0, 1):
        wanted = [_accepted(chunk) for chunk in scripts[seat] if isinstance(chunk, bytes)]
        bot = RecordingBot([*wanted, Move("A", "NORTH")])
        driver = GeisterDriver(bot)
        replies = []
        for data in match.received(seat):
            assert data.endswith(b"\r\n")
            reply = driver.feed(data.decode("ascii")[:-1])  # the line without its LF, the CR still there
            if reply is not None:
                replies.append(parse_command(reply, reply.startswith("SET")))
                assert encode_action(replies[-1]) == reply
        assert bot.seen == seen[seat]
        assert all(isinstance(o, SetupObservation) for o in bot.seen[:1])
        assert all(isinstance(o, MoveObservation) for o in bot.seen[1:])
        assert [o.move_number for o in bot.seen[1:]] == list(range(1, len(bot.seen)))
        assert replies[: len(wanted)] == wanted[: len(replies)]


def _accepted(chunk):
    """The action of a scripted reply: its last line (the earlier ones of a retry were rejected)."""
    line = chunk.decode().splitlines()[-1]
    return parse_command(line, line.startswith("SET"))


# -- 9.1 Initial board strings ----------------------------------------------------------------
VECTOR_9_1 = r"""
R→0  "SET?\r\n"
R→1  "SET?\r\n"
0→R  "SET:ABCD\r\n"
R→0  "OK \r\n"
1→R  "SET:EFGH\n"
R→1  "OK \r\n"
R→0  "MOV?14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u\r\n"
0→R  "MOV:A,N\r\n"
R→0  "OK \r\n"
R→1  "MOV?14B24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u\r\n"
"""


def test_9_1_initial_board_strings():
    state = after_setup("ABCD", "EFGH")
    assert state.board_string(0, reveal=False) == START_0
    assert state.board_string(1, reveal=False) == START_1
    assert REFEREE.request(state, P0) == crlf("MOV?" + START_0)
    assert REFEREE.request(state, P1) == crlf("MOV?" + START_1)
    assert REFEREE.request(new_state(), P0) == REFEREE.request(new_state(), P1) == SET_Q


def test_9_1_transcript_through_the_referee():
    rows = transcript(VECTOR_9_1)
    match = Match(*scripts_of(rows))
    sent = match.sent()
    assert sent[: len(sent_by_referee(rows))] == sent_by_referee(rows)
    # Seat 1's script ends there: it has crashed at ply 2, and seat 0 hears WON: first.
    assert [seat for seat, _ in sent[len(sent_by_referee(rows)) :]] == [0, 1]
    assert sent[-2][1].startswith(b"WON:") and sent[-1][1].startswith(b"LST:")
    assert match.result.reason_code == "crash" and match.result.plies == 1
    assert match.result.extra["sets"] == ["SET:ABCD", "SET:EFGH"]
    assert_bot_side_agrees(match, scripts_of(rows))


# -- 9.2 Capture sequence with acknowledgements -----------------------------------------------------
VECTOR_9_2 = r"""
R→0  "SET?\r\n"
R→1  "SET?\r\n"
0→R  "SET:EFGH\r\n"
R→0  "OK \r\n"
1→R  "SET:ABCD\r\n"
R→1  "OK \r\n"
R→0  "MOV?14B24B34B44B15R25R35R45R41u31u21u11u40u30u20u10u\r\n"
0→R  "MOV:B,N\r\n"                                          ply 1: B (2,4)→(2,3)
R→0  "OK \r\n"
R→1  "MOV?14R24R34R44R15B25B35B45B41u32u21u11u40u30u20u10u\r\n"
1→R  "MOV:E,W\r\n"                                          ply 2: E (1,5)→(0,5)
R→1  "OK \r\n"
R→0  "MOV?14B23B34B44B15R25R35R45R41u31u21u11u50u30u20u10u\r\n"
0→R  "MOV:B,N\r\n"                                          ply 3: B →(2,2)
R→0  "OK \r\n"
R→1  "MOV?14R24R34R44R05B25B35B45B41u33u21u11u40u30u20u10u\r\n"
1→R  "MOV:E,E\r\n"                                          ply 4: E back to (1,5)
R→1  "OK \r\n"
R→0  "MOV?14B22B34B44B15R25R35R45R41u31u21u11u40u30u20u10u\r\n"
0→R  "MOV:B,N\r\n"                                          ply 5: B →(2,1), takes c (red)
R→0  "OKR\r\n"
R→1  "MOV?14R24R99r44R15B25B35B45B41u34u21u11u40u30u20u10u\r\n"
1→R  "MOV:B,E\r\n"                                          ply 6: B (2,4)→(3,4), takes b (blue)
R→1  "OKB\r\n"
R→0  "MOV?14B99b34B44B15R25R35R45R41u21u99r11u40u30u20u10u\r\n"
"""


def test_9_2_capture_sequence_byte_exact():
    rows = transcript(VECTOR_9_2)
    match = Match(*scripts_of(rows))
    expected = sent_by_referee(rows)
    sent = match.sent()
    assert sent[: len(expected)] == expected
    # Seat 0's script ends with the request of ply 7: a crash, WON: to seat 1 before LST: to seat 0.
    assert [seat for seat, _ in sent[len(expected) :]] == [1, 0]
    assert match.result.reason_code == "crash" and match.result.plies == 6
    assert match.result.extra["sets"] == ["SET:EFGH", "SET:ABCD"]
    assert_bot_side_agrees(match, scripts_of(rows))


def test_9_2_captured_pieces_as_each_side_sees_them():
    state, _ = replay(scripts_of(transcript(VECTOR_9_2)))
    assert state.plies == 6 and state.to_act() == [P0]
    assert state.board_string(0, reveal=False) == "14B99b34B44B15R25R35R45R41u21u99r11u40u30u20u10u"
    assert state.board_string(1, reveal=False) == "14R34R99r44R15B25B35B45B41u99b21u11u40u30u20u10u"


# -- 9.3 All reds captured, all blues captured ------------------------------------------------------
SEAT_0_9_3 = ["B,N", "B,N", "B,N", "B,W", "B,E", "B,E", "B,E"]
SEAT_1_9_3 = ["E,W", "E,E", "E,W", "E,E", "E,W", "E,E"]


def test_9_3_all_reds_captured_the_capturer_loses():
    scripts = [[crlf("SET:EFGH"), *moves(*SEAT_0_9_3)], [crlf("SET:ABCD"), *moves(*SEAT_1_9_3)]]
    match = Match(*scripts)
    won = "WON:99r99r99r99r15B25B35B45B41b14b21b11b40r30r20r10r"
    lost = "LST:14B41B34B44B15R25R35R45R99r99r99r99r40b30b20b10b"
    assert match.sent()[-3:] == [(0, OKR), (1, crlf(won)), (0, crlf(lost))]
    acks = [data for data in match.received(0) if data.startswith(b"OK")]
    assert acks == [OK, OK, OK, OKR, OKR, OK, OKR, OKR], "SET, then plies 1..13 of seat 0"
    assert_result(match.result, 1, "all_red_captured", 13, ["SET:EFGH", "SET:ABCD"], lost)
    assert match.result.scores == [4, 0], "pieces captured"
    assert_bot_side_agrees(match, scripts)


def test_9_3_all_blues_captured_the_capturer_wins():
    scripts = [[crlf("SET:EFGH"), *moves(*SEAT_0_9_3)], [crlf("SET:EFGH"), *moves(*SEAT_1_9_3)]]
    match = Match(*scripts)
    won = "WON:14B41B34B44B15R25R35R45R99b99b99b99b40r30r20r10r"
    lost = "LST:99b99b99b99b15R25R35R45R41b14b21b11b40r30r20r10r"
    assert match.sent()[-3:] == [(0, OKB), (0, crlf(won)), (1, crlf(lost))]
    acks = [data for data in match.received(0) if data.startswith(b"OK")]
    assert acks == [OK, OK, OK, OKB, OKB, OK, OKB, OKB]
    assert_result(match.result, 0, "all_blue_captured", 13, ["SET:EFGH", "SET:EFGH"], won)
    assert_bot_side_agrees(match, scripts)


# -- 9.4 Escape, default rule ------------------------------------------------------------------------
SEAT_0_9_4 = ["A,W", "A,N", "A,N", "A,N", "A,N"]
SEAT_1_9_4 = ["E,W", "E,E", "E,W", "E,E", "E,W"]
VECTOR_9_4 = r"""
R→0  "MOV?01B24B34B44B15R25R35R45R41u31u21u11u40u30u20u10u\r\n"
0→R  "MOV:A,N\r\n"                                          ply 9: A (0,1)→(0,0)
R→0  "OK \r\n"
R→1  "MOV?14R24R34R44R15B25B35B45B55u31u21u11u40u30u20u10u\r\n"
1→R  "MOV:E,W\r\n"                                          ply 10
R→1  "OK \r\n"
R→0  "WON:88b24B34B44B15R25R35R45R41r31r21r11r50b30b20b10b\r\n"
R→1  "LST:14R24R34R44R05B25B35B45B88b31b21b11b40r30r20r10r\r\n"
"""
WON_9_4 = "WON:88b24B34B44B15R25R35R45R41r31r21r11r50b30b20b10b"


def scripts_9_4(reds_0="EFGH", reds_1="ABCD", seat_1=SEAT_1_9_4, seat_0=SEAT_0_9_4):
    return [[crlf(f"SET:{reds_0}"), *moves(*seat_0)], [crlf(f"SET:{reds_1}"), *moves(*seat_1)]]


def test_9_4_escape_on_turn_start():
    rows = transcript(VECTOR_9_4)
    scripts = scripts_9_4()
    assert scripts[0][-1:] + scripts[1][-1:] == [data for sender, _, data in rows if sender != "R"]
    match = Match(*scripts)
    expected = sent_by_referee(rows)
    assert match.sent()[-len(expected) :] == expected
    assert_result(match.result, 0, "escape", 10, ["SET:EFGH", "SET:ABCD"], WON_9_4)
    assert match.record.final_state["squares"][0][0] == [8, 8], "the escaped piece is recorded as escaped"
    assert_bot_side_agrees(match, scripts)


def test_9_4_the_opponent_stops_the_escape_by_capturing():
    scripts = scripts_9_4(seat_1=[*SEAT_1_9_4[:4], "H,E"])
    match = Match(*scripts)
    request = crlf("MOV?99b24B34B44B15R25R35R45R41u31u21u11u40u30u20u00u")
    assert match.sent()[-4:-2] == [(1, OKB), (0, request)]
    # Seat 0's script is over at ply 11: a crash, not an escape.
    assert match.result.reason_code == "crash" and match.result.plies == 10
    assert_bot_side_agrees(match, scripts)


@pytest.mark.parametrize("direction", ["N", "W", "NORTH", "WEST"])
def test_9_4_moving_off_an_exit_is_illegal_under_the_default_rule(direction):
    # A red on (0,0): it did not escape, and it may not leave.
    state, _ = replay(scripts_9_4(reds_0="ABCD", reds_1="EFGH"))
    assert state.plies == 10 and state.to_act() == [P0] and state.squares[0][0] == (0, 0)
    fault = line_fault(REFEREE, state, P0, f"MOV:A,{direction}")
    assert fault.reason_code == "illegal_move" and "off the board" in fault.detail
    # A blue there would already have won; put one there by hand: still no move off the board.
    state.reds[0] = "EFGH"
    assert line_reason(REFEREE, state, P0, f"MOV:A,{direction}") == "illegal_move"
    assert Move("A", "NORTH") not in state.legal_moves(0) and Move("A", "WEST") not in state.legal_moves(0)


def test_9_4_a_red_on_an_exit_does_not_escape():
    state, _ = replay(scripts_9_4(reds_0="ABCD", reds_1="EFGH"))
    assert not state.is_over() and state.to_act() == [P0]
    assert state.board_string(0, reveal=False) == "00R24R34R44R15B25B35B45B41u31u21u11u50u30u20u10u"


# -- 9.5 Escape, server rule -------------------------------------------------------------------------
VECTOR_9_5 = r"""
R→0  "MOV?00B24B34B44B15R25R35R45R41u31u21u11u50u30u20u10u\r\n"
0→R  "MOV:A,N\r\n"                                          ply 11: escape (A,W also works)
R→0  "OK \r\n"
R→0  "WON:88b24B34B44B15R25R35R45R41r31r21r11r50b30b20b10b\r\n"
R→1  "LST:14R24R34R44R05B25B35B45B88b31b21b11b40r30r20r10r\r\n"
"""


@pytest.mark.parametrize("direction", ["N", "W"])
def test_9_5_escape_move_off(direction):
    scripts = scripts_9_4(seat_0=[*SEAT_0_9_4, f"A,{direction}"])
    match = Match(*scripts, escape="move_off")
    expected = sent_by_referee(transcript(VECTOR_9_5))
    assert match.sent()[-len(expected) :] == expected
    assert_result(match.result, 0, "escape", 11, ["SET:EFGH", "SET:ABCD"], WON_9_4)
    assert_bot_side_agrees(match, scripts, escape="move_off")


def test_9_5_a_red_cannot_escape():
    scripts = scripts_9_4(reds_0="ABCD", reds_1="EFGH", seat_0=[*SEAT_0_9_4, "A,N"])
    match = Match(*scripts, escape="move_off")
    lost = "LST:00R24R34R44R15B25B35B45B41b31b21b11b50r30r20r10r"
    assert match.sent()[-4:] == [
        (0, crlf("MOV?00R24R34R44R15B25B35B45B41u31u21u11u50u30u20u10u")),
        (0, NG),
        (1, crlf("WON:14B24B34B44B05R25R35R45R55r31r21r11r40b30b20b10b")),
        (0, crlf(lost)),
    ]
    assert_result(match.result, 1, "illegal_move", 10, ["SET:ABCD", "SET:EFGH"], lost, faulted=0)
    assert "MOV:A,NORTH" in match.result.detail and "red" in match.result.detail


def test_9_5_escape_squares_and_directions():
    state = after_setup("ABCD", "EFGH", escape="move_off")
    state.squares[0][4] = (0, 0)  # E (blue) on the left exit
    state.squares[0][5] = (5, 0)  # F (blue) on the right exit
    state.squares[0][6] = (2, 0)  # G (blue) on the back row, not an exit
    for line in ("MOV:E,N", "MOV:E,W", "MOV:F,N", "MOV:F,E", "MOV:E,E", "MOV:F,W", "MOV:E,S"):
        assert line_reason(REFEREE, state, P0, line) == LEGAL, line
    assert line_reason(REFEREE, state, P0, "MOV:G,N") == "illegal_move"
    assert line_reason(REFEREE, state, P0, "MOV:H,S") == "illegal_move"
    escape = copy.deepcopy(state)
    escape.apply({P0: Move("F", "EAST")})
    assert (escape.winner, escape.reason, escape.squares[0][5]) == (0, "escape", (8, 8))
    inward = copy.deepcopy(state)
    inward.apply({P0: Move("E", "EAST")})  # onto (1,0), taking seat 1's H
    assert not inward.is_over() and inward.squares[0][4] == (1, 0) and inward.squares[1][7] == (9, 9)
    # F, a blue, still stands on an exit: under move_off that has no effect by itself.
    assert line_reason(REFEREE, inward, P1, "MOV:A,N") == LEGAL
    inward.apply({P1: Move("A", "NORTH")})
    assert not inward.is_over() and inward.to_act() == [P0]


# -- 9.6 Draw at the cap -------------------------------------------------------------------------------
VECTOR_9_6 = r"""
R→1  "MOV?14B24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u\r\n"
1→R  "MOV:A,N\r\n"                                          ply 254
R→1  "OK \r\n"
R→0  "DRW:13R24R34R44R15B25B35B45B42b31b21b11b40r30r20r10r\r\n"
R→1  "DRW:13B24B34B44B15R25R35R45R42r31r21r11r40b30b20b10b\r\n"
"""


def test_9_6_draw_at_the_cap():
    shuffle = ["A,N", "A,S"] * 63 + ["A,N"]
    scripts = [[crlf("SET:ABCD"), *moves(*shuffle)], [crlf("SET:EFGH"), *moves(*shuffle)]]
    match = Match(*scripts)
    expected = sent_by_referee(transcript(VECTOR_9_6))
    assert match.sent()[-len(expected) :] == expected
    requests_0 = [data for data in match.received(0) if data.startswith(b"MOV?")]
    assert len(requests_0) == 127 and requests_0[-1] == crlf("MOV?" + START_0)
    assert len([data for data in match.received(1) if data.startswith(b"MOV?")]) == 127
    final = "DRW:13R24R34R44R15B25B35B45B42b31b21b11b40r30r20r10r"
    assert_result(match.result, None, "max_plies", 254, ["SET:ABCD", "SET:EFGH"], final)
    assert_bot_side_agrees(match, scripts)


@pytest.mark.parametrize("max_plies", [10, 11])
def test_9_6_cap_versus_escape_on_turn_start(max_plies):
    match = Match(*scripts_9_4(), max_plies=max_plies)
    assert match.sent()[-2:] == sent_by_referee(transcript(VECTOR_9_4))[-2:]
    assert_result(match.result, 0, "escape", 10, ["SET:EFGH", "SET:ABCD"], WON_9_4)


def test_9_6_cap_versus_escape_move_off_is_a_draw():
    match = Match(*scripts_9_4(), escape="move_off", max_plies=10)
    draw_0 = "DRW:00B24B34B44B15R25R35R45R41r31r21r11r50b30b20b10b"
    draw_1 = "DRW:14R24R34R44R05B25B35B45B55b31b21b11b40r30r20r10r"
    assert match.sent()[-3:] == [(1, OK), (0, crlf(draw_0)), (1, crlf(draw_1))]
    assert_result(match.result, None, "max_plies", 10, ["SET:EFGH", "SET:ABCD"], draw_0)


def test_9_6_the_cap_counts_plies_not_moves():
    state = after_setup(max_plies=1)
    state.apply({P0: Move("A", "NORTH")})
    assert (state.winner, state.reason, state.plies) == (None, "max_plies", 1)


# -- 9.7 Command parsing ----------------------------------------------------------------------------
PLAY_LINES = [
    ("MOV:A,NORTH", Move("A", "NORTH")),
    ("MOV:A,N", Move("A", "NORTH")),
    ("MOV:a,north", Move("A", "NORTH")),
    ("  MOV:A,N  ", Move("A", "NORTH")),
    ("MOV:A,N\r", Move("A", "NORTH")),  # "MOV:A,N\r\n" less its LF, as the referee passes it
    ("MOV:A,W", Move("A", "WEST")),
    ("MOV:A,S", "illegal_move"),
    ("MOV:E,N", "illegal_move"),
    ("MOV:E,S", "illegal_move"),
    ("MOV:A,UP", "bad_output"),
    ("MOV:A, N", "bad_output"),
    ("MOV:AB,N", "bad_output"),
    ("MOV:I,N", "bad_output"),
    ("mov:A,N", "bad_output"),
    ("SET:ABCD", "bad_output"),
]
SETUP_LINES = [
    ("SET:ABCD", "ABCD"),
    ("SET:hgfe", "EFGH"),
    ("SET:ABC", "bad_output"),
    ("SET:ABCDE", "bad_output"),
    ("SET:AB1D", "bad_output"),
    ("SET: ABCD", "bad_output"),
    ("SET:ABCI", "bad_output"),
    ("SET:AABC", "illegal_move"),
    ("MOV:A,N", "bad_output"),
]


@pytest.mark.parametrize(("line", "expected"), PLAY_LINES)
def test_9_7_move_lines(line, expected):
    state = after_setup()
    reason = line_reason(REFEREE, state, P0, line)
    if isinstance(expected, Move):
        assert reason == LEGAL
        assert REFEREE.parse(state, P0, line) == expected
    else:
        assert reason == expected


@pytest.mark.parametrize(("line", "expected"), SETUP_LINES)
@pytest.mark.parametrize("seat", [0, 1])
def test_9_7_setup_lines(line, expected, seat):
    state, request = new_state(), Request(seat)
    reason = line_reason(REFEREE, state, request, line)
    if expected in ("bad_output", "illegal_move"):
        assert reason == expected
        return
    assert reason == LEGAL
    other = Request(1 - request.seat)
    state.apply({request: REFEREE.parse(state, request, line)})
    assert state.reds[request.seat] == expected and state.to_act() == [other]
    state.apply({other: SetReds("ABCD")})
    assert state.colour(request.seat, "ABCDEFGH".index(expected[0])) == "R"
    assert sum(state.colour(request.seat, i) == "R" for i in range(8)) == 4


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("MOV:A,S", ["MOV:A,SOUTH", "own E"]),
        ("MOV:E,N", ["MOV:E,NORTH", "own A"]),
        ("MOV:E,S", ["MOV:E,SOUTH", "off the board"]),
        ("MOV:I,N", ["'MOV:I,N'", "A-H"]),
        ("MOV:A,UP", ["'MOV:A,UP'", "direction"]),
        ("SET:ABCD", ["SET"]),
    ],
)
def test_9_7_details_name_the_line(line, words):
    fault = line_fault(REFEREE, after_setup(), P0, line)
    for word in words:
        assert word in fault.detail, fault.detail


@pytest.mark.parametrize(
    "line",
    [b"MOV:A,NORTH\n", b"MOV:a,north\r\n", b"  MOV:A,N  \n", b"MOV:A,N\r\n", b"MOV:A,N\n", b"\tMOV:A,N\t\r\n"],
)
def test_9_7_accepted_lines_through_the_referee(line):
    match = Match([crlf("SET:ABCD"), line], [crlf("SET:EFGH"), *moves("A,N")])
    assert match.received(0)[:4] == [SET_Q, OK, crlf("MOV?" + START_0), OK]
    assert match.received(1)[2] == crlf("MOV?14B24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u")
    assert match.result.plies == 2


def test_7_2_blank_lines_are_skipped():
    match = Match([b"\n  \r\nSET:ABCD\n", b"\r\n\t\nMOV:A,N\n"], [crlf("SET:EFGH"), *moves("A,N")])
    assert match.received(0)[:4] == [SET_Q, OK, crlf("MOV?" + START_0), OK]
    assert match.result.plies == 2


def test_7_2_lines_sent_early_answer_later_requests():
    # Seat 0 sends its moves for plies 1 and 3 at once, then stays silent at ply 3: the queued line answers.
    match = Match([crlf("SET:ABCD"), b"MOV:A,N\r\nMOV:A,N\r\n", SILENT], [crlf("SET:EFGH"), *moves("A,N", "A,S")])
    assert match.received(0)[2:7] == [
        crlf("MOV?" + START_0),
        OK,
        crlf("MOV?13R24R34R44R15B25B35B45B42u31u21u11u40u30u20u10u"),
        OK,
        crlf("MOV?12R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u"),
    ]
    assert match.result.plies == 4 and match.result.reason_code == "crash", "its script ends at ply 5"


LOST_AT_START = "LST:14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r"
WON_AT_START = "WON:14B24B34B44B15R25R35R45R41r31r21r11r40b30b20b10b"


@pytest.mark.parametrize(("line", "expected"), [(line, code) for line, code in PLAY_LINES if isinstance(code, str)])
def test_9_7_rejected_move_lines_through_the_referee(line, expected):
    match = Match([crlf("SET:ABCD"), crlf(line)], [crlf("SET:EFGH")])
    assert match.sent() == [
        (0, SET_Q),
        (1, SET_Q),
        (0, OK),
        (1, OK),
        (0, crlf("MOV?" + START_0)),
        (0, NG),
        (1, crlf(WON_AT_START)),
        (0, crlf(LOST_AT_START)),
    ]
    assert_result(match.result, 1, expected, 0, ["SET:ABCD", "SET:EFGH"], LOST_AT_START, faulted=0)
    assert match.result.detail.startswith("seat 0")


@pytest.mark.parametrize(("line", "expected"), [(line, code) for line, code in SETUP_LINES if code.islower()])
def test_9_7_rejected_setup_lines_through_the_referee(line, expected):
    match = Match([crlf("SET:ABCD")], [crlf(line)])
    lost = "LST:14B24B34B44B15B25B35B45B41r31r21r11r40b30b20b10b"
    assert match.sent() == [
        (0, SET_Q),
        (1, SET_Q),
        (0, OK),
        (1, NG),
        (0, crlf("WON:14R24R34R44R15B25B35B45B41b31b21b11b40b30b20b10b")),
        (1, crlf(lost)),
    ]
    final = "WON:14R24R34R44R15B25B35B45B41b31b21b11b40b30b20b10b"
    assert_result(match.result, 0, expected, 0, ["SET:ABCD", None], final, faulted=1)
    assert match.result.detail.startswith("seat 1")


def test_9_7_setup_fault_aabc():
    match = Match([crlf("SET:ABCD")], [crlf("SET:AABC")])
    assert match.received(1) == [SET_Q, NG, crlf("LST:14B24B34B44B15B25B35B45B41r31r21r11r40b30b20b10b")]
    assert match.received(0) == [SET_Q, OK, crlf("WON:14R24R34R44R15B25B35B45B41b31b21b11b40b30b20b10b")]
    assert_result(
        match.result,
        0,
        "illegal_move",
        0,
        ["SET:ABCD", None],
        "WON:14R24R34R44R15B25B35B45B41b31b21b11b40b30b20b10b",
        faulted=1,
    )
    assert "SET:AABC" in match.result.detail and "A twice" in match.result.detail


ALL_BLUE_DRAW = "DRW:14B24B34B44B15B25B35B45B41b31b21b11b40b30b20b10b"


def test_9_7_double_fault_timeout_and_bad_set():
    match = Match([SILENT], [crlf("SET:AABC")], setup_timeout_s=0.05)
    assert match.sent() == [(0, SET_Q), (1, SET_Q), (1, NG), (0, crlf(ALL_BLUE_DRAW)), (1, crlf(ALL_BLUE_DRAW))]
    assert_result(match.result, None, "double_fault", 0, [None, None], ALL_BLUE_DRAW, faulted=[0, 1])
    assert "seat 0" in match.result.detail and "seat 1" in match.result.detail


def test_9_7_double_fault_two_bad_sets():
    match = Match([crlf("SET:ABC")], [crlf("SET:AABC")])
    assert match.sent() == [
        (0, SET_Q),
        (1, SET_Q),
        (0, NG),
        (1, NG),
        (0, crlf(ALL_BLUE_DRAW)),
        (1, crlf(ALL_BLUE_DRAW)),
    ]
    assert_result(match.result, None, "double_fault", 0, [None, None], ALL_BLUE_DRAW, faulted=[0, 1])


def test_6_2_a_good_setup_is_acknowledged_even_after_the_other_failed():
    # Seat 0 fails; seat 1's SET is still judged and acknowledged before the end messages.
    # (tests/league/match/test_geister_faults.py has the referee wait for a slow second setup.)
    match = Match([crlf("SET:ABCDE")], [crlf("SET:EFGH")])
    assert match.sent()[:4] == [(0, SET_Q), (1, SET_Q), (0, NG), (1, OK)]
    assert match.result.winner == 1 and match.result.reason_code == "bad_output"
    assert match.result.extra["sets"] == [None, "SET:EFGH"]


def test_9_7_retry_with_ng_terminate_false():
    match = Match([crlf("SET:ABCD"), b"MOV:E,N\r\nMOV:A,N\r\n"], [crlf("SET:EFGH")], ng_terminate=False)
    assert match.sent()[:8] == [
        (0, SET_Q),
        (1, SET_Q),
        (0, OK),
        (1, OK),
        (0, crlf("MOV?" + START_0)),
        (0, NG),
        (0, OK),
        (1, crlf("MOV?14B24B34B44B15R25R35R45R42u31u21u11u40u30u20u10u")),
    ]
    assert match.received(0).count(crlf("MOV?" + START_0)) == 1, "no new MOV? after NG"
    # Seat 1's script is over: it crashes at ply 2, so exactly one ply was played.
    assert match.result.plies == 1 and match.result.reason_code == "crash"
    replies = [(m.seat, m.reply, m.fault) for m in match.record.moves]
    assert replies[2:] == [(0, "MOV:E,N\r", "illegal_move"), (0, "MOV:A,N\r", None), (1, "", "crash")]


def test_9_7_retry_of_a_setup_with_ng_terminate_false():
    match = Match([b"SET:AABC\r\nSET:ABCD\r\n", *moves("A,N")], [b"SET:X\nSET:efgh\n"], ng_terminate=False)
    assert match.received(0)[:3] == match.received(1)[:3] == [SET_Q, NG, OK]
    assert match.sent()[:2] == [(0, SET_Q), (1, SET_Q)]
    assert match.result.extra["sets"] == ["SET:ABCD", "SET:EFGH"]
    assert match.result.plies == 1


def test_6_1_a_crash_still_ends_the_game_with_ng_terminate_false():
    match = Match([crlf("SET:ABCD"), b"MOV:E,N\r\nMOV"], [crlf("SET:EFGH")], ng_terminate=False)
    assert match.received(0)[-2:] == [NG, crlf(LOST_AT_START)]
    assert match.received(1)[-1] == crlf(WON_AT_START)
    assert_result(match.result, 1, "crash", 0, ["SET:ABCD", "SET:EFGH"], LOST_AT_START, faulted=0)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"MOV:A,N" + b" " * 1017 + b"\n", OK),  # 1024 bytes before the LF
        (b"MOV:A,N" + b" " * 1018 + b"\n", NG),  # 1025
        (b"MOV:A,N\x00\n", NG),
        (b"MOV:A,N\x1b\r\n", NG),
        (b"MOV:\xc3\x89,N\n", NG),
        (b"MOV:A,N\r\r\n", NG),  # one CR is removed, not two
    ],
)
def test_6_1_long_lines_and_control_bytes(line, expected):
    match = Match([crlf("SET:ABCD"), line], [crlf("SET:EFGH"), *moves("A,N")])
    assert match.received(0)[3] == expected
    if expected == NG:
        assert match.result.reason_code == "bad_output" and match.result.offenders == [0]
        assert match.received(0)[4:] == [crlf(LOST_AT_START)]
    else:
        assert match.result.plies == 2


@pytest.mark.parametrize(("max_plies", "reason"), [(1, "max_plies"), (2, "crash")])
def test_6_2_a_bot_that_died_unawaited_faults_only_when_next_awaited(max_plies, reason):
    match = Match([crlf("SET:ABCD"), *moves("A,N", "A,S")], [crlf("SET:EFGH"), CLOSE], max_plies=max_plies)
    assert match.result.reason_code == reason and match.result.plies == 1
    assert match.received(1)[-1].startswith(b"DRW:" if reason == "max_plies" else b"LST:")
    assert match.result.offenders == ([] if reason == "max_plies" else [1])


# -- 9.8 Time accounting ------------------------------------------------------------------------------
def test_9_8_budget_then_byoyomi():
    state = after_setup(budget_s=5, move_timeout_s=1)
    assert state.time_allowance_ms(P0) == 6000
    assert state.charge_time(P0, 3200) is None and state.remaining_ms[0] == 1800
    assert state.time_allowance_ms(P0) == 2800
    assert state.charge_time(P0, 2500) is None and state.remaining_ms[0] == -700
    assert state.time_allowance_ms(P0) == 1000
    late = copy.deepcopy(state)
    assert state.charge_time(P0, 1000) is None
    fault = late.charge_time(P0, 1001)
    assert fault.termination == Termination.TIMEOUT and fault.reason_code == "timeout"
    assert "1001 ms" in fault.detail and "1000 ms" in fault.detail
    assert state.time_allowance_ms(P1) == 6000, "each player has its own budget"


def test_7_6_setup_time_and_no_budget():
    state = new_state(setup_timeout_s=2, budget_s=5, move_timeout_s=1)
    assert state.time_allowance_ms(P0) == state.time_allowance_ms(P1) == 2000
    assert state.charge_time(P0, 2000) is None and state.charge_time(P1, 2001).reason_code == "timeout"
    assert state.remaining_ms == [5000, 5000], "the setup is not charged to the budget"
    state = after_setup(budget_s=None, move_timeout_s=1)
    for _ in range(3):
        assert state.time_allowance_ms(P0) == 1000
        assert state.charge_time(P0, 1000) is None


def test_9_8_a_timeout_through_the_referee():
    # budget 0: every move is allowed move_timeout_s; seat 0 sleeps at ply 3.
    match = Match(
        [crlf("SET:ABCD"), *moves("A,N"), SILENT], [crlf("SET:EFGH"), *moves("A,N")], budget_s=0, move_timeout_s=0.05
    )
    won = "WON:13B24B34B44B15R25R35R45R42r31r21r11r40b30b20b10b"
    lost = "LST:13R24R34R44R15B25B35B45B42b31b21b11b40r30r20r10r"
    request = crlf("MOV?13R24R34R44R15B25B35B45B42u31u21u11u40u30u20u10u")
    assert match.sent()[-4:] == [(1, OK), (0, request), (1, crlf(won)), (0, crlf(lost))]
    assert NG not in match.received(0)
    assert_result(match.result, 1, "timeout", 2, ["SET:ABCD", "SET:EFGH"], lost, faulted=0)
    assert match.result.termination == Termination.TIMEOUT
    assert "ply 3" in match.result.detail
