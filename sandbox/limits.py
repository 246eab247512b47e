"""What a bot process may use: the ``limits`` of a league (resources only; time limits are rules)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class SandboxMode(StrEnum):
    """How bots are confined.

    ``auto`` jails program bots with bubblewrap, and refuses them where no jail can be made;
    ``strict`` also refuses a jail without a uid of its own and cgroup caps; ``none`` runs bots as
    plain processes (for bots one trusts, such as one's own while debugging it).
    """

    AUTO = "auto"
    STRICT = "strict"
    NONE = "none"


class Limits(BaseModel):
    """Resource caps of one bot process (the README's The sandbox lists them with their defaults).

    Attributes:
        memory_mb: Memory of the bot and everything it starts (cgroup; rlimit fallback).
        processes: Processes and threads it may run at once (cgroup pids and RLIMIT_NPROC).
        cores: CPUs its processes may use together at any moment (a cgroup CPU quota), however
            many processes, sessions or threads it makes.
        cpu_seconds: CPU time over its whole life (RLIMIT_CPU); None = no cap.
        wall_seconds: Wall time of the whole game before the awaited bot is timed out; None = none.
        file_size_mb: Largest file it may write (RLIMIT_FSIZE).
        scratch_mb: Everything it may keep in its scratch folder (``/tmp``, also HOME) at once: the
            size of the jail's tmpfs, whose pages also count toward ``memory_mb``.
        open_files: Open file descriptors (RLIMIT_NOFILE).
        line_bytes: Longest reply line; more is bad output.
        output_bytes: Everything it may print in one game; more is bad output.
        network: Whether it keeps the host's network (default: only its own loopback).
        read_only: Extra host paths made visible read-only inside the jail.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_mb: int = Field(1024, ge=16)
    processes: int = Field(64, ge=8)  # the jail itself runs three of them
    cores: float = Field(1.0, gt=0, le=1024)
    cpu_seconds: int | None = Field(None, ge=1)
    wall_seconds: float | None = Field(None, gt=0)
    file_size_mb: int = Field(64, ge=0)
    scratch_mb: int = Field(64, ge=1)
    open_files: int = Field(64, ge=8)
    line_bytes: int = Field(1 << 20, ge=64)
    output_bytes: int = Field(16 << 20, ge=1024)
    network: bool = False
    read_only: tuple[str, ...] = ()
