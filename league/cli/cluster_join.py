"""The Ray cluster a league is meant for: which one was asked for, checked before anything is written, then joined.

A cluster is asked for with ``--address`` or ``RAY_ADDRESS`` (``validate --cluster`` too). An address
where no head answers, a refused token or a cluster with no CPU for workers is one line
(``UsageError``: exit status 2, ``league.cli.main``), told at once and with nothing written.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
from collections.abc import Iterator

from league.cli.args import RayAddress, UsageError, parse_ray_address
from league.plan.config import League


def on_cluster(args: argparse.Namespace) -> bool:
    """Whether the league is meant for a Ray cluster: ``--address``, ``RAY_ADDRESS``, or ``validate --cluster``."""
    return bool(getattr(args, "address", None) or getattr(args, "cluster", False) or os.environ.get("RAY_ADDRESS"))


def cluster_address(args: argparse.Namespace) -> tuple[str, str] | None:
    """The cluster address asked for and what gave it (``--address``, else ``RAY_ADDRESS``), or None."""
    if getattr(args, "address", None):
        return args.address.strip(), "--address"
    if os.environ.get("RAY_ADDRESS"):
        return os.environ["RAY_ADDRESS"].strip(), "RAY_ADDRESS"
    return None


def check_cluster(address: tuple[str, str] | None) -> int | None:
    """Check a cluster as a run would before it writes anything: the address, its head, the token, the CPUs.

    Ray itself would try a head that does not answer again and again, for ever, and a refused token
    for 20 s; this is one line at once. ``auto`` and a Ray Client address (``ray://``) have no head
    to ask here: ``ray.init`` checks them.

    Args:
        address: ``cluster_address``'s answer (None: no cluster, nothing to check).

    Returns:
        The cluster's CPUs, or None when they could not be counted here.

    Raises:
        UsageError: Naming the address, what gave it, the problem and the fix.
    """
    from league.cluster.session import ClusterUnreachable, probe_head

    if address is None:
        return None
    given, where = address
    parsed = parse_ray_address(given, where)
    if parsed is None:
        return None
    _check_reachable(parsed, given, where)
    if parsed.client:
        return None
    try:
        cpus = probe_head(given)
    except ClusterUnreachable as error:
        raise UsageError(f"{where} {given}: {error.why}") from None
    if cpus == 0:
        raise UsageError(no_cpus(given, where))
    return cpus


def _check_reachable(parsed: RayAddress, given: str, where: str) -> None:
    """Refuse an address where nothing answers (refused, unreachable, an unknown host) at once."""
    try:
        socket.create_connection((parsed.host, parsed.port), timeout=5).close()
    except socket.gaierror as error:
        raise UsageError(
            f"{where} {given}: unknown host {parsed.host!r} ({error.strerror or error}); give the head's address"
            " as `ray start --head` printed it"
        ) from None
    except OSError as error:
        raise UsageError(
            f"{where} {given}: no Ray head answers there ({error.strerror or error}); start one with"
            f" `ray start --head --port={parsed.port}` on that machine, or give the address `ray start --head` printed"
        ) from None


def no_cpus(given: str, where: str) -> str:
    """The line for a cluster whose nodes have no CPU for a worker."""
    join = "HEAD_IP:PORT" if given.startswith("ray://") else given
    return (
        f"{where} {given}: the Ray cluster there has no CPU for workers (its nodes were started with --num-cpus=0,"
        f" or none with CPUs has joined); start one with CPUs on a machine of the cluster: `ray start --address={join}`"
    )


@contextlib.contextmanager
def joined(address: tuple[str, str] | None, league: League, cpus: int | None) -> Iterator[int | None]:
    """Join the cluster at ``address`` for the block (nothing without one), the league's default concurrency fitted.

    Args:
        address: ``cluster_address``'s answer.
        league: The league (its ``concurrency`` follows the cluster's CPUs unless the file gives one).
        cpus: The cluster's CPUs as ``check_cluster`` counted them (None: count them once joined).

    Yields:
        The cluster's CPUs (None without a cluster).

    Raises:
        UsageError: The cluster cannot be joined, or has no CPU for workers (nothing is written then).
    """
    from league.cluster.session import ClusterUnreachable, cluster_cpus, leave_ray, start_ray

    if address is None:
        yield None
        return
    given, where = address
    try:
        start_ray(league.config.concurrency, given, working_dir=None)
    except ClusterUnreachable as error:
        raise UsageError(f"{where} {given}: {error.why}") from None
    try:
        cpus = cluster_cpus() if cpus is None else cpus
        if not cpus:
            raise UsageError(no_cpus(given, where))
        league.fit_to_cluster(cpus)
        yield cpus
    finally:
        leave_ray()
