"""Joining Ray: the embedded local cluster, or a cluster's head checked first, then its messages routed.

``league run --address`` and ``league validate --cluster`` ask a head here before anything is
written: a probe in a process of its own says within seconds whether a Ray head answers, takes
this machine's token, and has CPUs, where ``ray.init`` would retry for minutes with a warning a
try. Once joined, Ray's own messages to the driver become one plain line each on stderr, and a run
that waits for a worker says so.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


class ClusterUnreachable(Exception):
    """A Ray cluster the driver cannot join; the message names the address, why, and the fix.

    Attributes:
        why: Why, and the fix, without the address (the command line names the flag that gave it).
    """

    def __init__(self, address: str, why: str) -> None:
        super().__init__(f"cannot join the Ray cluster at {address}: {why}")
        self.why = why


HEAD_WAIT_S = 5
"""How long the probe of a head (``probe_head``) waits for an answer at each of its steps."""
_PROBE = """
import json, sys
try:
    from ray._raylet import GcsClient
except Exception:
    sys.exit(3)
try:
    nodes = GcsClient(address=sys.argv[1]).get_all_node_info(timeout=int(sys.argv[2]))
except Exception as error:
    print(json.dumps({"error": type(error).__name__, "message": str(error)}))
    sys.exit(1)
alive = [node for node in nodes.values() if node.state == getattr(node, "ALIVE", 0)]
print(json.dumps({"cpus": sum(node.resources_total.get("CPU", 0) for node in alive)}))
"""
"""Run in a process of its own: Ray's client of the head's GCS, its C++ warnings kept off our stderr."""


def probe_head(address: str) -> int | None:
    """Ask the Ray head at ``address`` (HOST:PORT) for its alive nodes' CPUs, within seconds and quietly.

    ``ray.init`` would try a refused token 20 times (20 s, a warning each) and wait minutes on a port
    where something else listens (the dashboard's); this asks once, in a process of its own whose
    timeouts are short and whose C++ warnings go nowhere.

    Returns:
        The cluster's CPUs, or None when this version of Ray could not tell (``ray.init`` decides then).

    Raises:
        ClusterUnreachable: The head refused this machine's token, or no Ray head answered there.
    """
    quiet = {"RAY_BACKEND_LOG_LEVEL": "fatal", "RAY_py_gcs_connect_timeout_s": str(HEAD_WAIT_S)}
    quiet["RAY_gcs_rpc_server_connect_timeout_s"] = str(HEAD_WAIT_S)
    try:
        probe = subprocess.run(
            [sys.executable, "-c", _PROBE, address, str(HEAD_WAIT_S)],
            env=os.environ | quiet,
            capture_output=True,
            text=True,
            timeout=6 * HEAD_WAIT_S,
        )
        answer = json.loads(probe.stdout.strip().splitlines()[-1]) if probe.stdout.strip() else {}
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        answer = {"error": "RpcError", "message": "Timed out"}
    if "cpus" in answer:
        return int(answer["cpus"])
    if answer.get("error") == "AuthenticationError":
        raise ClusterUnreachable(address, _token_refused(answer["message"]))
    if answer.get("error") in ("RpcError", "GetTimeoutError") and "Timed out" in answer.get("message", ""):
        raise ClusterUnreachable(address, _not_a_head())
    return None


def _token_refused(message: str) -> str:
    if os.environ.get("RAY_AUTH_MODE") != "token" or "currently 'disabled'" in message:
        return (
            "the head asks for a token and RAY_AUTH_MODE=token is not set here; export RAY_AUTH_MODE=token, with the"
            " head's token in ~/.ray/auth_token (or RAY_AUTH_TOKEN)"
        )
    return "the head refused this machine's token; copy the head's ~/.ray/auth_token here, or set RAY_AUTH_TOKEN to it"


def _not_a_head() -> str:
    return (
        f"something listens there but no Ray head answered in {3 * HEAD_WAIT_S} s; give the port `ray start --head`"
        " printed (6379 unless --port), not the dashboard's (8265) or Ray Client's (10001, as ray://HOST:10001)"
    )


def start_ray(concurrency: int, address: str | None, working_dir: Path | None) -> bool:
    """Connect to Ray (a cluster with an address, else an embedded local one); True if we started it.

    Ray's own messages to the driver (a worker died, a task cannot be scheduled) are then told as one
    line each on stderr (``_route_ray_messages``).

    Raises:
        ClusterUnreachable: The cluster at the address cannot be joined.
    """
    import ray

    if ray.is_initialized():
        return False
    on_sigterm = signal.getsignal(signal.SIGTERM)
    address = address or os.environ.get("RAY_ADDRESS")
    if address:
        project = Path(__file__).resolve().parents[2]
        modules = [str(project / name) for name in ("engine", "league", "sandbox")]
        runtime_env: dict[str, Any] = {"py_modules": modules}
        if working_dir is not None:
            runtime_env["working_dir"] = str(working_dir)
        try:
            ray.init(address=address, runtime_env=runtime_env, log_to_driver=False, logging_level=logging.WARNING)
        except Exception as error:  # noqa: BLE001 - whatever Ray says (a lost head, a version mismatch): one line
            raise ClusterUnreachable(address, _why_unreachable(error)) from None
    else:
        # The embedded cluster turns Ray's token authentication on by itself: good, and not news.
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        ray.init(
            address="local",
            num_cpus=concurrency,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    _route_ray_messages()
    if callable(on_sigterm) and threading.current_thread() is threading.main_thread():
        # Ray's core sets its own SIGTERM handler (a stack dump, then exit): ours stops the run as
        # Ctrl-C does, keeping what is stored and saying how to resume.
        signal.signal(signal.SIGTERM, on_sigterm)
    return True


def _why_unreachable(error: Exception) -> str:
    cause = f"{error} {error.__cause__ or ''}"
    if "InvalidAuthToken" in cause or "Unauthenticated" in cause:
        return _token_refused(cause)
    if isinstance(error, ConnectionError):
        return "no Ray head answered there; start one with `ray start --head`, or give the address it printed"
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return f"Ray said: {lines[-1] if lines else type(error).__name__}"


def cluster_cpus() -> int:
    """The CPUs of the Ray cluster this driver has joined (each worker takes one)."""
    import ray

    return int(ray.cluster_resources().get("CPU", 0))


def leave_ray() -> None:
    """Disconnect from Ray (and stop an embedded cluster), if connected."""
    import ray

    if ray.is_initialized():
        ray.shutdown()


_RAY_COLOURS = re.compile(r"\x1b\[[0-9;]*m")
RAY_MESSAGE_REPEAT_S = 60.0
"""The same message from Ray is told again only after this long."""
_told: dict[str, float] = {}


def _route_ray_messages() -> None:
    """Tell Ray's messages to the driver (``(raylet) A worker died ...``) as one plain line each on stderr.

    Ray prints them from a thread of its own, on stdout (where ``report: ...`` goes), several lines
    long and in colour even when stdout is no terminal. What they are about is the pool's business
    (a dead worker's games are played again), so the first sentence is enough, and the same one at
    most once a minute. Ray's printer is a private name: where it is missing, Ray's way stays.
    """
    from ray._private import worker as ray_worker

    printer = getattr(ray_worker, "print_to_stdstream", None)
    if printer is None or hasattr(printer, "__wrapped__"):
        return

    @functools.wraps(printer)
    def one_line(data: dict[str, Any], *_: Any, **__: Any) -> None:
        for line in data.get("lines", []):
            text = _RAY_COLOURS.sub("", str(line)).strip().split(". ")[0].rstrip(".")
            now = time.monotonic()
            if text and now - _told.get(text, -RAY_MESSAGE_REPEAT_S) >= RAY_MESSAGE_REPEAT_S:
                _told[text] = now
                print(f"league: ray: {text}", file=sys.stderr, flush=True)

    ray_worker.print_to_stdstream = one_line


WORKER_WAIT_NOTE_S = 30.0
"""After this long on a cluster with no worker started, the run says so (once) and goes on waiting."""


def watch_first_worker(started: threading.Event) -> threading.Thread:
    """A thread that tells, once, when no worker has started within ``WORKER_WAIT_NOTE_S`` (the run waits on)."""

    def watch() -> None:
        if not started.wait(WORKER_WAIT_NOTE_S):
            print(f"league: note: {_no_worker_yet()}", file=sys.stderr, flush=True)

    watcher = threading.Thread(target=watch, name="league-first-worker", daemon=True)
    watcher.start()
    return watcher


def _no_worker_yet() -> str:
    import ray

    try:
        total, free = ray.cluster_resources().get("CPU", 0), ray.available_resources().get("CPU", 0)
        cpus = f"the cluster has {total:g} CPUs, {free:g} free; each worker takes one"
    except Exception:  # noqa: BLE001 - the head is gone meanwhile: the note says what it can
        cpus = "the cluster's CPUs could not be read"
    return (
        f"no worker has started in {WORKER_WAIT_NOTE_S:.0f} s ({cpus}): `ray status` shows the nodes and what holds"
        " their CPUs (another league or job?); still waiting, Ctrl-C stops (the same command resumes)"
    )
