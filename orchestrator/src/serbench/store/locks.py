"""Which process executes a run: one lock file per running run, beside the store (store/__init__.py).

flock(2) ties the lock to the process: the kernel releases it when the process dies, however it dies
(SIGKILL, OOM, power loss aside), so "status running and nobody holds the lock" means the run was
interrupted, and two commands can never execute the same run at once."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path


class StoreError(RuntimeError):
    """The store cannot be opened or used; the message is one line that names the file."""


class RunBusy(StoreError):
    """Another live serbench process is executing the run."""


class RunLocks:
    """The run locks of a store at `self.path`; `self._claims` maps a claimed run to its lock's descriptor."""

    path: Path
    _claims: dict[str, int]

    # One lock file per running run, beside the store. flock(2) ties the lock to the process: the
    # kernel releases it when the process dies, however it dies (SIGKILL, OOM, power loss aside), so
    # "status running and nobody holds the lock" means the run was interrupted, and two commands
    # can never execute the same run at once.
    def _lock_path(self, run_id: str) -> Path:
        return self.path.parent / f".{self.path.name}.run-{run_id}.lock"

    def claim(self, run_id: str) -> None:
        """Make this process the one executing run_id, or raise RunBusy naming the live one."""
        path = self._lock_path(run_id)
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
                os.close(fd)
                raise RunBusy(
                    f"run {run_id} is being executed by another serbench process (pid {pid}); "
                    f"wait for it to finish, or stop it (kill {pid}) and resume"
                ) from None
            # The file may have been unlinked by a releasing owner between open and flock: retry.
            with contextlib.suppress(FileNotFoundError):
                if os.fstat(fd).st_ino == os.stat(path).st_ino:
                    break
            os.close(fd)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        except OSError:  # a full disk: no lock file left behind that names no process
            with contextlib.suppress(OSError):
                os.unlink(path)
            os.close(fd)
            raise
        self._claims[run_id] = fd

    def release(self, run_id: str) -> None:
        fd = self._claims.pop(run_id, None)
        if fd is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._lock_path(run_id))
            os.close(fd)

    def is_live(self, run_id: str) -> bool:
        """Whether some process (this one included) is executing the run now."""
        if run_id in self._claims:
            return True
        try:
            fd = os.open(self._lock_path(run_id), os.O_RDONLY)
        except FileNotFoundError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
