"""What crosses between the referee and its child processes: JSON lines over pipes, tensors as files.

Messages are one JSON object per line. A child's replies are *claims*: the referee and the clean
process read them as untrusted input (bounded size, validated fields), because a candidate
process runs a pass that can write anything to any of its file descriptors.

Tensors cross as a file the producing process writes into its own folder (``write_values``) and
the clean process reads (``read_values``): a JSON header (dtype, shape, and the producer's claims
about the object it had: its exact type, strides, whether its memory overlapped) followed by the
raw bytes of each tensor, contiguous. What arrives is always a plain dense ``torch.Tensor`` built
from bytes, whatever object the producer had: a subclass, a lazy tensor or a view becomes its
values. Nothing is unpickled.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from pathlib import Path
from typing import Any

import torch

#: Longest message line accepted from a child (bytes): a header of a few hundred outputs fits.
MAX_LINE = 4 * 2**20
#: Longest JSON header of a tensor file (bytes).
MAX_HEADER = 4 * 2**20
_MAGIC = b"PAGT1\n"

#: dtypes a tensor file may carry, by their ``str(dtype)`` name.
DTYPES: dict[str, torch.dtype] = {str(d): d for d in (
    torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128,
    torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool,
    *(getattr(torch, n) for n in ("float8_e4m3fn", "float8_e5m2", "uint16", "uint32", "uint64") if hasattr(torch, n)),
)}


class ChannelClosed(Exception):
    """The other end closed its pipe (the process died or ended)."""


class ChannelTimeout(Exception):
    """No reply within the deadline."""


class ProtocolError(Exception):
    """A child sent something that is not a well-formed reply (too long, not JSON, not an object)."""


class Channel:
    """The referee's end of a child's two pipes: ``send`` a request, ``recv`` its reply.

    Args:
        write_fd: the pipe the child reads requests from.
        read_fd: the pipe the child writes replies to.
    """

    def __init__(self, write_fd: int, read_fd: int):
        self.write_fd, self.read_fd = write_fd, read_fd
        self._buffer = bytearray()

    def send(self, message: dict[str, Any]) -> None:
        """Write one request line.

        Raises:
            ChannelClosed: the child's end is closed.
        """
        self.send_raw((json.dumps(message, separators=(",", ":")) + "\n").encode())

    def send_raw(self, data: bytes) -> None:
        try:
            view = memoryview(data)
            while view:
                n = os.write(self.write_fd, view)
                view = view[n:]
        except (BrokenPipeError, OSError) as exc:
            raise ChannelClosed(str(exc)) from None

    def recv_line(self, deadline: float | None) -> bytes:
        """The next reply line (without its newline), waiting until ``deadline`` (``time.monotonic``).

        Raises:
            ChannelClosed, ChannelTimeout, ProtocolError (a line over :data:`MAX_LINE`).
        """
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > MAX_LINE:
                raise ProtocolError(f"a reply longer than {MAX_LINE} bytes")
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ChannelTimeout("no reply before the deadline")
                ready, _, _ = select.select([self.read_fd], [], [], left)
                if not ready:
                    raise ChannelTimeout("no reply before the deadline")
            try:
                chunk = os.read(self.read_fd, 65536)
            except OSError as exc:
                raise ChannelClosed(str(exc)) from None
            if not chunk:
                raise ChannelClosed("the child closed its reply pipe")
            self._buffer += chunk

    def recv(self, deadline: float | None) -> dict[str, Any]:
        """The next reply as a dict.

        Raises:
            ChannelClosed, ChannelTimeout, ProtocolError (not a JSON object).
        """
        line = self.recv_line(deadline)
        try:
            message = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ProtocolError(f"a reply that is not JSON: {exc}") from None
        if not isinstance(message, dict):
            raise ProtocolError("a reply that is not a JSON object")
        return message

    def close(self) -> None:
        for fd in (self.write_fd, self.read_fd):
            try:
                os.close(fd)
            except OSError:
                pass


class ChildChannel:
    """A child's end: ``recv`` the next request (None when the referee is gone), ``reply``."""

    def __init__(self, read_fd: int, write_fd: int):
        self.read_fd, self.write_fd = read_fd, write_fd
        self._file = os.fdopen(read_fd, "rb", buffering=0)
        self._buffer = bytearray()

    def recv(self) -> dict[str, Any] | None:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return json.loads(line)
            chunk = os.read(self.read_fd, 65536)
            if not chunk:
                return None
            self._buffer += chunk

    def reply(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message, separators=(",", ":"), default=str) + "\n").encode()
        view = memoryview(data)
        while view:
            n = os.write(self.write_fd, view)
            view = view[n:]


# -- tensors as files -------------------------------------------------------------------------


def describe(value: Any) -> dict[str, Any]:
    """What the producing process claims about one value it returned (no data)."""
    if isinstance(value, torch.Tensor):
        claim: dict[str, Any] = {"kind": "tensor", "type": f"{type(value).__module__}.{type(value).__qualname__}",
                                 "exact_type": type(value) is torch.Tensor, "dtype": str(value.dtype),
                                 "shape": list(value.shape), "layout": str(value.layout)}
        if value.layout == torch.strided and not value.is_meta:
            claim["strides"] = list(value.stride())
            claim["dense"] = bool(dense_non_overlapping(value))
        return claim
    if value is None or isinstance(value, (bool, int, float)):
        return {"kind": "value", "value": value}
    return {"kind": "other", "type": f"{type(value).__module__}.{type(value).__qualname__}"}


def dense_non_overlapping(t: torch.Tensor) -> bool:
    """Whether ``t``'s elements occupy distinct memory with no gaps (any order of dimensions):
    no zero stride on a dimension of size > 1, no overlap (an ``expand``, ``as_strided`` tricks).

    True exactly when the dimensions of size > 1, ordered by stride, have the strides of a
    contiguous tensor of those sizes (a permutation of a contiguous layout)."""
    if t.numel() <= 1:
        return True
    expected = 1
    for stride, size in sorted((st, sz) for sz, st in zip(t.shape, t.stride()) if sz != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def write_values(path: Path, values: list[Any], claims: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write ``values`` (tensors and plain Python scalars) to ``path``; return the header.

    Each tensor is copied to the host and made contiguous here, in the producing process, so
    what is written is its values, whatever object it was. ``claims`` (JSON) go into the header
    beside the values' own (e.g. which outputs share memory with which inputs).
    """
    entries: list[dict[str, Any]] = []
    blobs: list[memoryview] = []
    offset = 0
    for v in values:
        claim = describe(v)
        if claim["kind"] == "tensor" and claim["layout"] == "torch.strided" and not v.is_meta:
            try:
                data = v.detach().to("cpu").contiguous().reshape(-1)
                raw = data.view(torch.uint8) if data.numel() else torch.empty(0, dtype=torch.uint8)
                blob = memoryview(torch.Tensor.numpy(raw.as_subclass(torch.Tensor)).data).cast("B")
            except Exception as exc:  # noqa: BLE001 - no readable data (a fake or broken subclass): said, not sent
                claim["unreadable"] = f"{type(exc).__name__}: {str(exc)[:200]}"
                entries.append(claim)
                continue
            claim.update(offset=offset, nbytes=len(blob))
            blobs.append(blob)
            offset += len(blob)
        entries.append(claim)
    header = json.dumps({"values": entries, "claims": claims or {}}).encode()
    with open(path, "wb") as f:
        f.write(_MAGIC)
        f.write(struct.pack("<Q", len(header)))
        f.write(header)
        for blob in blobs:
            f.write(blob)
    return {"values": entries, "claims": claims or {}}


class BadValues(Exception):
    """A tensor file that does not parse, or claims sizes its bytes do not have."""


def read_values(path: Path, max_bytes: int) -> tuple[list[Any], list[dict[str, Any]], dict[str, Any]]:
    """Read a tensor file written by another process: the values and the producer's claims.

    Args:
        path: the file (opened without following a symbolic link).
        max_bytes: the largest file accepted (the expected outputs' size plus slack).

    Returns:
        (values, entries, claims): a plain contiguous CPU ``torch.Tensor`` for each tensor entry
        (its type is always exactly ``torch.Tensor``), the scalar for a value entry, None for an
        entry that had no data; each entry's header as the producer wrote it; the producer's
        other claims (a dict, empty if it made none).

    Raises:
        BadValues: the file is missing, larger than ``max_bytes``, or malformed.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise BadValues(f"cannot open {path.name}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > max_bytes:
            raise BadValues(f"{path.name} is {size} bytes, more than the {max_bytes} expected")
        blob = f.read(size)
    if not blob.startswith(_MAGIC) or len(blob) < len(_MAGIC) + 8:
        raise BadValues(f"{path.name} is not a tensor file")
    (hlen,) = struct.unpack_from("<Q", blob, len(_MAGIC))
    start = len(_MAGIC) + 8
    if hlen > MAX_HEADER or start + hlen > len(blob):
        raise BadValues(f"{path.name} has a malformed header")
    try:
        header = json.loads(blob[start:start + hlen])
        entries = header["values"]
        claims = header.get("claims") or {}
        assert isinstance(entries, list) and isinstance(claims, dict)
    except Exception:  # noqa: BLE001 - any malformed header is the same failure
        raise BadValues(f"{path.name} has a malformed header") from None
    data = memoryview(blob)[start + hlen:]
    values: list[Any] = []
    for k, e in enumerate(entries):
        if not isinstance(e, dict):
            raise BadValues(f"entry {k} of {path.name} is not an object")
        if e.get("kind") == "value":
            v = e.get("value")
            if v is not None and not isinstance(v, (bool, int, float)):
                raise BadValues(f"entry {k} of {path.name} is not a scalar")
            values.append(v)
            continue
        if e.get("kind") != "tensor" or "nbytes" not in e:
            values.append(None)
            continue
        dtype = DTYPES.get(str(e.get("dtype")))
        shape = e.get("shape")
        if dtype is None or not isinstance(shape, list) or not all(isinstance(s, int) and s >= 0 for s in shape):
            raise BadValues(f"entry {k} of {path.name} has a bad dtype or shape")
        numel = 1
        for s in shape:
            numel *= s
        itemsize = torch.empty(0, dtype=dtype).element_size()
        off, nbytes = e.get("offset"), e.get("nbytes")
        if not isinstance(off, int) or not isinstance(nbytes, int) or nbytes != numel * itemsize \
                or off < 0 or off + nbytes > len(data):
            raise BadValues(f"entry {k} of {path.name} claims {nbytes} bytes for {numel} elements of {dtype}")
        raw = bytearray(data[off:off + nbytes])
        t = torch.frombuffer(raw, dtype=torch.uint8) if nbytes else torch.empty(0, dtype=torch.uint8)
        values.append(t.view(dtype).reshape(shape) if numel else torch.empty(shape, dtype=dtype))
    return values, entries, claims
