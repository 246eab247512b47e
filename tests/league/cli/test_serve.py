"""``league serve``'s refusals: one line each naming the fix, exit status 2, nothing started."""

import socket

import yaml

from league.serve.listen import address_line, bound_socket
from tests.league.contest.serving import contest_file


def test_a_port_in_use_is_one_line(tmp_path, league_cli):
    path = contest_file(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        status, out, err = league_cli("serve", str(path), "--port", str(port))
    assert status == 2 and out == ""
    assert err.strip() == (
        f"league: error: port {port} on 127.0.0.1 is in use (another server?): give another --port, or --port 0"
        " for a free one"
    )


def test_a_format_a_contest_cannot_play_names_those_it_can(tmp_path, league_cli):
    path = contest_file(tmp_path)
    data = yaml.safe_load(path.read_text())
    data.update(format="swiss", swiss={"rounds": 1})
    data.pop("adaptive")
    path.write_text(yaml.safe_dump(data))
    status, out, err = league_cli("serve", str(path), "--port", "0")
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "format 'swiss' cannot be played as a live contest" in err and "adaptive or round_robin" in err


def test_an_unreadable_database_is_one_line_and_starts_nothing(tmp_path, league_cli):
    path = contest_file(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "contest.sqlite").write_bytes(b"not a database, " * 100)
    status, out, err = league_cli("serve", str(path), "--port", "0")
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "contest.sqlite" in err


def test_a_missing_league_file_and_a_bad_port_are_one_line(tmp_path, league_cli):
    status, _, err = league_cli("serve", str(tmp_path / "none.yaml"))
    assert status == 2 and "no such league file" in err
    status, _, err = league_cli("serve", str(contest_file(tmp_path)), "--port", "70000")
    assert status == 2 and "a port is 0 to 65535" in err


def test_port_zero_takes_a_free_port_and_the_address_is_printed_as_opened():
    sock = bound_socket("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert port > 0 and address_line(sock) == f"http://127.0.0.1:{port}/"
    finally:
        sock.close()
