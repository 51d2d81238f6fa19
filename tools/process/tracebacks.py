"""Trimmed tracebacks that point into the pass file, for people and models to read.

A failure inside ``torch.compile`` arrives wrapped several times (Dynamo's
``BackendCompilerFailed``, chained causes) with dozens of frames of PyTorch internals. What a
pass author needs is the frames of their own file and the original exception.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

MAX_CHARS = 2000


def exception_chain(exc: BaseException) -> list[BaseException]:
    """The exception and everything it wraps (``inner_exception``, ``__cause__``, ``__context__``)."""
    chain: list[BaseException] = []
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop(0)
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        chain.append(e)
        todo.extend([getattr(e, "inner_exception", None), e.__cause__, e.__context__])
    return chain


def root_cause(exc: BaseException) -> BaseException:
    """The innermost exception of the chain (the one the failing code raised)."""
    return exception_chain(exc)[-1]


def one_line(exc: BaseException, limit: int = 400) -> str:
    """``TypeName: first line of the message``, cut to ``limit`` characters."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    out = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return out if len(out) <= limit else out[: limit - 3] + "..."


_QUOTED_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)\n?( {4}\S[^\n]*)?')


def _quoted_frames(exc: BaseException, wanted: set[str]) -> list[str]:
    out: list[str] = []
    for e in exception_chain(exc):
        for m in _QUOTED_FRAME.finditer(str(e)):
            if str(Path(m.group(1)).resolve()) in wanted:
                entry = f'File "{Path(m.group(1)).name}", line {m.group(2)}, in {m.group(3)}'
                if entry not in out:
                    out.append(entry)
                    if m.group(4):
                        out.append(f"  {m.group(4).strip()}")
    return out


def trim_traceback(exc: BaseException, pass_files: list[Path] | None = None, max_chars: int = MAX_CHARS) -> str:
    """A short traceback: the frames in ``pass_files`` (else the last 3 frames) + the root error.

    Args:
        exc: the caught exception (possibly a wrapper).
        pass_files: the pass's source files; frames in them are kept with their line text.
        max_chars: cap on the returned text.

    Returns:
        Text in Python's traceback style, e.g.::

            File "my_pass.py", line 12, in fused
              return x @ w.t(
            RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 4x3)
    """
    wanted = {str(Path(p).resolve()) for p in (pass_files or [])}
    root = root_cause(exc)
    frames: list[traceback.FrameSummary] = []
    for e in reversed(exception_chain(exc)):
        for fs in traceback.extract_tb(e.__traceback__):
            try:
                resolved = str(Path(fs.filename).resolve())
            except (OSError, ValueError):
                resolved = fs.filename
            if resolved in wanted and fs not in frames:
                frames.append(fs)
    lines = []
    if not frames:
        # The failing code may be a graph node created from the pass: Inductor then quotes the
        # node's recorded stack ("File ..., line N, in fn") inside its message.
        quoted = _quoted_frames(exc, wanted)
        if quoted:
            lines.extend(quoted)
        else:
            frames = traceback.extract_tb(root.__traceback__)[-3:]
    for fs in frames:
        lines.append(f'File "{Path(fs.filename).name}", line {fs.lineno}, in {fs.name}')
        if fs.line:
            lines.append(f"  {fs.line.strip()}")
    message = "".join(traceback.format_exception_only(type(root), root)).strip()
    lines.append(message)
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars - 20] + "\n...[trimmed]"
