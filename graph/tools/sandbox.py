"""python_repl: run model-written code in an isolated sandbox (only after the user approves).

The code runs under Debian's `bubblewrap` in namespaces of its own:

- **PID**: it sees only its own processes; it cannot signal the app, and when the sandbox's
  init dies (timeout, or the app dying: `--die-with-parent`) the kernel kills every process
  in it, double-forked and `setsid` ones included.
- **network**: only a loopback interface of its own; nothing leaves the machine.
- **mount**: the system's `/usr` read-only and an empty `/tmp` of its own, which the code
  may write (its working directory is in it; a file at most `OUTPUT_FILE_BYTES`, all of
  them at most `SCRATCH_BYTES`); not the project, `.env`,
  the database or anyone's home. `/proc` is the sandbox's own, so `/proc/<ppid>/environ`
  and the app's processes are out of sight.
- **user**: never root. With the app as root, each sandbox runs as a user id of its own,
  taken from a pool (`SANDBOX_UIDS` from `UID_BASE`, held while it runs by an abstract
  Unix socket, so two processes of the app never hand out the same one); RLIMIT_NPROC
  counts processes per user id, so the limit (at most `MAX_PROCESSES`, so forks cannot
  multiply the memory limit past `MAX_PROCESSES x memory_mb`) binds each sandbox alone:
  one user's code holding its processes never blocks another sandbox's forks. Without
  root, the code is `nobody` in a user namespace of its own, and the limit counts the
  app's user. No capabilities, `no_new_privs`.
- **system calls**: a seccomp filter (`seccomp_filter`, loaded by bwrap's `--seccomp`) makes
  `unshare`, `setns`, `clone` with any namespace flag, mounting, `ptrace`, keyrings, `bpf`,
  `perf_event_open`, `userfaultfd`, `io_uring`, module and kexec calls fail with EPERM, and
  `clone3` (whose flags a filter cannot read) with ENOSYS, so the C library falls back to
  `clone`. So the code cannot make a user namespace of its own (where it would be root
  and reach kernel code that `nobody` cannot), nor any other namespace. Everything else
  is allowed: a deny list, like Flatpak's, not an allow list that any new Python or C
  library release could break. A system call of another ABI (x32, or an architecture
  the filter does not know) kills the process.
- **environment**: only PATH and LANG; the interpreter is the system's `/usr/bin/python3 -I`.
- limits on address space, CPU, file size, open files; a wall-clock timeout; output capped.

What it needs from the host: `bwrap` (apt package `bubblewrap`) and `/usr/bin/python3`; as
root, `setpriv` and `prlimit` (util-linux); as another user, unprivileged user namespaces.
The filter is built here, without libseccomp, for x86_64 and
aarch64; on another architecture python_repl is off. Where they are missing or namespaces cannot be made, `isolation_problem()` says why and
python_repl is not offered (the sidebar shows the reason): never a weaker fallback.
"""

from __future__ import annotations

import os
import platform
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from graph.tools.base import ToolError

_PRELUDE = """
import sys
try:
    exec(compile(sys.stdin.read(), "<python_repl>", "exec"), {"__name__": "__main__"})
except MemoryError:
    print("MemoryError", file=sys.stderr)
    sys.exit(137)
"""  # 137 (128 + SIGKILL) is what an OOM-killed process reports too
MEMORY_EXIT = 137
OUTPUT_FILE_BYTES = 1024 * 1024
SCRATCH_BYTES = 16 * 1024 * 1024
"""Size of the sandbox's /tmp (a tmpfs, in memory): all the files the code writes."""


@dataclass(frozen=True)
class Limits:
    """Limits of one run."""

    timeout_s: float = 5.0
    memory_mb: int = 256
    max_output: int = 10_000


PYTHON = "/usr/bin/python3"
"""The interpreter inside the sandbox: the system's, not the app's virtual environment."""
NOBODY = 65534
UID_BASE = 1_610_000_000
"""First user id of the pool a sandbox's user id is taken from when the app runs as root
(far above any user a system makes, and below the 32-bit ids' end)."""
SANDBOX_UIDS = 4096
"""User ids in the pool: sandboxes that can run at once on a machine."""
MAX_PROCESSES = 4
"""Processes the code may have at once (RLIMIT_NPROC of the sandbox user)."""
WORKDIR = "/tmp/python_repl"
"""The code's working directory: empty, in the sandbox's own /tmp."""


_DENIED = (
    "unshare setns mount umount2 pivot_root chroot open_tree move_mount fsopen fsconfig "
    "fsmount fspick mount_setattr keyctl add_key request_key bpf userfaultfd "
    "perf_event_open ptrace process_vm_readv process_vm_writev kexec_load kexec_file_load "
    "init_module finit_module delete_module acct syslog quotactl swapon swapoff reboot "
    "io_uring_setup io_uring_enter io_uring_register open_by_handle_at name_to_handle_at"
).split()
"""System calls that fail with EPERM in the sandbox (besides `clone` with a namespace flag)."""

_SYSCALLS: dict[str, tuple[int, dict[str, int]]] = {
    # machine -> (AUDIT_ARCH_*, system call numbers from the kernel's unistd headers)
    "x86_64": (
        0xC000003E,
        {
            "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
            "chroot": 161, "open_tree": 428, "move_mount": 429, "fsopen": 430,
            "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
            "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321,
            "userfaultfd": 323, "perf_event_open": 298, "ptrace": 101,
            "process_vm_readv": 310, "process_vm_writev": 311, "kexec_load": 246,
            "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
            "delete_module": 176, "acct": 163, "syslog": 103, "quotactl": 179,
            "swapon": 167, "swapoff": 168, "reboot": 169, "io_uring_setup": 425,
            "io_uring_enter": 426, "io_uring_register": 427, "open_by_handle_at": 304,
            "name_to_handle_at": 303, "clone": 56, "clone3": 435,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41,
            "chroot": 51, "open_tree": 428, "move_mount": 429, "fsopen": 430,
            "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
            "keyctl": 219, "add_key": 217, "request_key": 218, "bpf": 280,
            "userfaultfd": 282, "perf_event_open": 241, "ptrace": 117,
            "process_vm_readv": 270, "process_vm_writev": 271, "kexec_load": 104,
            "kexec_file_load": 294, "init_module": 105, "finit_module": 273,
            "delete_module": 106, "acct": 89, "syslog": 116, "quotactl": 60,
            "swapon": 224, "swapoff": 225, "reboot": 142, "io_uring_setup": 425,
            "io_uring_enter": 426, "io_uring_register": 427, "open_by_handle_at": 265,
            "name_to_handle_at": 264, "clone": 220, "clone3": 435,
        },
    ),
}  # fmt: skip

_CLONE_NAMESPACES = 0x7E020000
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID and NEWNET (clone's low byte is
the exit signal, so CLONE_NEWTIME, 0x80, can only come through clone3 and unshare)."""

_X32_BIT = 0x40000000
"""Set in the number of an x32 system call (another ABI on the same x86_64 kernel)."""

# classic BPF, as seccomp takes it (linux/filter.h, linux/seccomp.h)
_LD_ABS_W, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _KILL, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_EPERM, _ENOSYS = 1, 38
_NR, _ARCH, _ARG0 = 0, 4, 16
"""Offsets in `struct seccomp_data` (the low 32 bits of the first argument, little-endian)."""


def seccomp_filter(machine: str | None = None) -> bytes:
    """The sandbox's seccomp program (an array of `struct sock_filter`) for `machine`.

    Raises `KeyError` for an architecture the filter does not know.
    """
    arch, numbers = _SYSCALLS[machine or platform.machine()]
    # (code, jump-if-true label, jump-if-false label, k); a label is None (next instruction)
    # or the name of one of the three returns at the end
    program: list[tuple[int, str | None, str | None, int]] = [
        (_LD_ABS_W, None, None, _ARCH),
        (_JEQ, None, "kill", arch),
        (_LD_ABS_W, None, None, _NR),
    ]
    if arch == _SYSCALLS["x86_64"][0]:
        program.append((_JGE, "kill", None, _X32_BIT))
    program += [(_JEQ, "eperm", None, numbers[name]) for name in _DENIED]
    program += [
        (_JEQ, "enosys", None, numbers["clone3"]),
        (_JEQ, None, "allow", numbers["clone"]),
        (_LD_ABS_W, None, None, _ARG0),
        (_JSET, "eperm", "allow", _CLONE_NAMESPACES),
    ]
    returns = {"allow": _ALLOW, "kill": _KILL, "eperm": _ERRNO | _EPERM, "enosys": _ERRNO | _ENOSYS}
    at = {name: len(program) + i for i, name in enumerate(returns)}
    out = b""
    for index, (code, jt, jf, k) in enumerate(program):
        hops = [0 if label is None else at[label] - index - 1 for label in (jt, jf)]
        out += struct.pack("=HBBI", code, *hops, k)
    return out + b"".join(struct.pack("=HBBI", _RET, 0, 0, k) for k in returns.values())


@contextmanager
def sandbox_uid() -> Iterator[int]:
    """A user id no other running sandbox has (as root), or `nobody` (as another user).

    Held by binding an abstract Unix socket named after it: the kernel frees the name
    when the socket closes or its process dies, so a crashed app leaks no id.
    """
    if os.geteuid() != 0:
        yield NOBODY
        return
    start = secrets.randbelow(SANDBOX_UIDS)  # a freed id is seldom taken again at once
    for i in range(SANDBOX_UIDS):
        slot = (start + i) % SANDBOX_UIDS
        holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            holder.bind(f"\0context-chat-sandbox-uid-{UID_BASE + slot}")
        except OSError:
            holder.close()
            continue
        try:
            yield UID_BASE + slot
        finally:
            holder.close()
        return
    raise ToolError(f"all {SANDBOX_UIDS} sandboxes are in use; try again in a moment")


@contextmanager
def _seccomp_fd() -> Iterator[int]:
    """A file descriptor bwrap reads the filter from (a pipe: the program is under 1 KB)."""
    read, write = os.pipe()
    try:
        os.write(write, seccomp_filter())
        os.close(write)
        yield read
    finally:
        os.close(read)


def sandbox_command(limits: Limits, seccomp_fd: int, uid: int = NOBODY) -> list[str]:
    """The bubblewrap command line that runs `python3 -I -c PRELUDE` isolated and limited.

    `seccomp_fd` is a file descriptor to read `seccomp_filter()` from (inherited by bwrap);
    `uid` is the user id the code runs as when the app is root (`sandbox_uid`).
    """
    memory = limits.memory_mb * 1024 * 1024
    cpu = int(limits.timeout_s) + 1
    rlimits = [
        "/usr/bin/prlimit",
        f"--as={memory}",
        f"--cpu={cpu}",
        f"--fsize={OUTPUT_FILE_BYTES}",
        "--nofile=32",
        f"--nproc={MAX_PROCESSES}",
        "--core=0",
        "--",
    ]
    bwrap = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--setenv", "PATH", "/usr/bin:/bin",
        "--setenv", "LANG", "C.UTF-8",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/lib", "/lib",
        "--symlink", "usr/lib64", "/lib64",
        "--symlink", "usr/bin", "/bin",
        "--proc", "/proc",
        "--dev", "/dev",
        # the sandbox's own /tmp, the code's to write, in memory: bounded as a whole too
        "--perms", "1777", "--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp",
        "--perms", "0777", "--dir", WORKDIR,
        "--chdir", WORKDIR,
        "--seccomp", str(seccomp_fd),
    ]  # fmt: skip
    if os.geteuid() == 0:
        # root makes the namespaces itself and then becomes a user of the sandbox's own,
        # for whom RLIMIT_NPROC counts (it does not bind root) and counts no one else
        drop = [
            "/usr/bin/setpriv",
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
        return [*bwrap, "--", *drop, *rlimits, PYTHON, "-I", "-c", _PRELUDE]
    user = ["--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY)]
    return [*bwrap, *user, "--", *rlimits, PYTHON, "-I", "-c", _PRELUDE]


_problem: list[str | None] = []


def isolation_problem() -> str | None:
    """Why code cannot run isolated on this host, or None when it can (checked once)."""
    if not _problem:
        _problem.append(_probe())
    return _problem[0]


def _probe() -> str | None:
    if shutil.which("bwrap") is None:
        return "the sandbox needs bubblewrap (apt-get install bubblewrap)"
    needed = [PYTHON, "/usr/bin/prlimit"] + (["/usr/bin/setpriv"] if os.geteuid() == 0 else [])
    missing = [path for path in needed if not os.path.exists(path)]
    if missing:
        return f"the sandbox needs {', '.join(missing)}"
    if platform.machine() not in _SYSCALLS:
        return f"the sandbox's seccomp filter does not know the architecture {platform.machine()}"
    check = "import os, socket; socket.create_connection(('192.0.2.1', 9), 0.2)"
    try:
        with sandbox_uid() as uid, _seccomp_fd() as fd:
            proc = subprocess.run(  # noqa: S603 - fixed command
                sandbox_command(Limits(timeout_s=5), fd, uid),
                input=f"{check}".encode(),
                capture_output=True,
                timeout=10,
                pass_fds=(fd,),
            )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the sandbox could not start: {exc}"
    out = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    if "Network is unreachable" not in out and "OSError" not in out:
        return f"the sandbox did not isolate the network or did not start: {out.strip()[:200]}"
    return None


POLL_S = 0.1
"""How often a running sandbox looks at its stop flag."""


def run_python(code: str, limits: Limits, cancelled: Callable[[], bool] | None = None) -> str:
    """Run `code` in the sandbox and return `[status]` plus its output (capped).

    Raises `ToolError` when the host cannot isolate it, or when the wall-clock timeout, the
    memory limit or the CPU limit stops the code. Output goes to an anonymous temporary
    file rather than a pipe, so RLIMIT_FSIZE also bounds what the app ever has to hold.
    `cancelled` is asked while the code runs: True (the user pressed Stop) kills it and
    returns `[stopped]` with the output it had written, so that output is kept.
    """
    problem = isolation_problem()
    if problem is not None:
        raise ToolError(f"python_repl is off: {problem}")
    with tempfile.TemporaryFile() as output, sandbox_uid() as uid:
        with _seccomp_fd() as fd:
            proc = subprocess.Popen(  # noqa: S603 - fixed command, code goes through stdin
                sandbox_command(limits, fd, uid),
                stdin=subprocess.PIPE,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                pass_fds=(fd,),
            )
        try:
            stopped = _wait(proc, code, limits.timeout_s, cancelled)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise ToolError(
                f"the code ran longer than {limits.timeout_s:g} s and was stopped"
            ) from None
        finally:
            _kill_group(proc)  # leftovers the code started in its process group
        output.seek(0)
        text = output.read(limits.max_output * 4 + 4).decode("utf-8", errors="replace")
    if stopped:
        text = text[: limits.max_output]
        return f"[stopped]\n{text}\n… (stopped by the user)" if text else "[stopped] (no output)"
    if proc.returncode == MEMORY_EXIT:
        raise ToolError(f"memory limit of {limits.memory_mb} MB exceeded")
    killed = {-signal.SIGKILL, 128 + signal.SIGKILL}
    if proc.returncode in killed and "MemoryError" in text:
        raise ToolError(f"memory limit of {limits.memory_mb} MB exceeded")
    if proc.returncode in killed:
        raise ToolError(f"the code was killed (memory limit of {limits.memory_mb} MB?)")
    if proc.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        raise ToolError("the code used too much CPU time and was stopped")
    note = ""
    if proc.returncode in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ):
        note = f"\n… (stopped: output exceeded {OUTPUT_FILE_BYTES // 1024} KB)"
    if len(text) > limits.max_output:
        note = f"\n… (output cut at {limits.max_output} characters)"
        text = text[: limits.max_output]
    status = "ok" if proc.returncode == 0 else f"exit status {proc.returncode}"
    text += note
    return f"[{status}]\n{text}" if text else f"[{status}] (no output)"


def _wait(
    proc: subprocess.Popen[bytes],
    code: str,
    timeout_s: float,
    cancelled: Callable[[], bool] | None,
) -> bool:
    """Give the code its stdin and wait for it; True if `cancelled` stopped it first."""
    assert proc.stdin is not None
    try:
        proc.stdin.write(code.encode("utf-8"))
        proc.stdin.close()
    except BrokenPipeError:  # it died before reading: its status says why
        pass
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            proc.wait(timeout=max(0.0, min(POLL_S, deadline - time.monotonic())))
            return False
        except subprocess.TimeoutExpired:
            if cancelled is not None and cancelled():
                return True
            if time.monotonic() >= deadline:
                raise


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
