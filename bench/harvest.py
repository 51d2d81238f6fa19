"""Capture every variant of one architecture and cut its graphs into candidate subgraphs.

This is the unit of work of ``passagent bench build`` (one worker process per architecture,
so a crash or a leak in one model costs only that model) and of ``passagent bench capture``
(capture only). What happens to an architecture is one JSON record of the capture log:

``ok``       every variant captured and validated;
``partial``  the float32 base variant did, some other variant (a dtype the model's CPU
             kernels lack, say) failed and is listed with its stage and reason;
``failed``   the model could not be built or its base variant failed to trace, serialise or
             reload with equal outputs: nothing of it is used;
``skipped``  its package (timm, torchvision) does not import here.
"""

from __future__ import annotations

import copy
import json
import time
import traceback
from pathlib import Path
from typing import Any

import torch

from .architectures import VARIANTS, Architecture
from .capture import CaptureError, capture_model


def variant_tag(shape_index: int, dtype: torch.dtype) -> str:
    """``s0_float32``-style name of a capture variant."""
    return f"s{shape_index}_{str(dtype).removeprefix('torch.')}"


def harvest(
    arch: Architecture,
    *,
    seed: int,
    captures_dir: Path | None,
    variants: tuple[tuple[int, torch.dtype], ...] = VARIANTS,
    cut: bool = True,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Capture ``arch`` in each variant (and cut its graphs into candidates).

    Args:
        arch: the architecture.
        seed: base seed of weights and inputs.
        captures_dir: full-graph samples go to ``captures_dir/<arch>/<arch>__<variant>``;
            None writes nothing (and skips the reload checks).
        variants: (shape index, dtype) pairs; the first is the base variant.
        cut: also cut every captured graph (:class:`~passagent.bench.cut.Cutter`).

    Returns:
        (capture-log record, candidate dicts as :meth:`Candidate.to_json` gives them).
    """
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()  # config warnings about reduced vocabularies are expected
    except ImportError:
        pass
    t0 = time.perf_counter()
    record: dict[str, Any] = {"arch": arch.name, "domain": arch.domain, "source": arch.source, "like": arch.like,
                              "variants": [], "candidates": 0}
    candidates: list[dict[str, Any]] = []
    why = arch.available()
    if why:
        record.update(status="skipped", stage="build", reason=why, seconds=0.0)
        return record, candidates
    try:
        base_model = arch.build(seed)
    except Exception as exc:  # noqa: BLE001 - reported by name and reason, the run goes on
        record.update(status="failed", stage="build", reason=_reason(exc), seconds=time.perf_counter() - t0)
        return record, candidates
    for n, (shape_index, dtype) in enumerate(variants):
        tag = variant_tag(shape_index, dtype)
        v: dict[str, Any] = {"variant": tag}
        tv = time.perf_counter()
        try:
            model = base_model if dtype == torch.float32 else copy.deepcopy(base_model).to(dtype)
            kwargs = arch.inputs(shape_index, dtype, seed)
            result = capture_model(
                model, (), kwargs, name=f"{arch.name}__{tag}",
                out_dir=(captures_dir / arch.name) if captures_dir else None,
                info={"source": arch.source, "domain": arch.domain, "architecture": arch.name, "variant": tag,
                      "like": arch.like},
                validate=captures_dir is not None,
            )
            v.update(status="ok", graphs=len(result.graphs), nodes=result.nodes)
            if cut:
                v["candidates"], v["rejected"] = _cut(result, arch, tag, candidates)
        except CaptureError as exc:
            v.update(status="failed", stage=exc.stage, reason=exc.reason)
        except Exception as exc:  # noqa: BLE001
            v.update(status="failed", stage="build", reason=_reason(exc))
        v["seconds"] = round(time.perf_counter() - tv, 2)
        record["variants"].append(v)
        if n == 0 and v["status"] != "ok":
            record.update(status="failed", stage=v["stage"], reason=v["reason"])
            break
    else:
        failed = [v for v in record["variants"] if v["status"] != "ok"]
        record["status"] = "partial" if failed else "ok"
        if failed:
            record["reason"] = "; ".join(f"{v['variant']}: {v['stage']}: {v['reason']}" for v in failed)
    record["candidates"] = len(candidates)
    record["seconds"] = round(time.perf_counter() - t0, 2)
    return record, candidates


def _cut(result: Any, arch: Architecture, tag: str, out: list[dict[str, Any]]) -> tuple[int, dict[str, int]]:
    from .cut import Cutter

    count = 0
    rejected: dict[str, int] = {}
    for gi, g in enumerate(result.graphs):
        cutter = Cutter(g.gm, g.example_inputs)
        for cand in cutter.candidates():
            cand.source = {"arch": arch.name, "domain": arch.domain, "model_source": arch.source,
                           "variant": tag, "graph": gi}
            out.append(cand.to_json())
            count += 1
        for k, n in cutter.rejected.items():
            rejected[k] = rejected.get(k, 0) + n
        del cutter
    return count, rejected


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300] if text else ''}"


def harvest_to_files(arch: Architecture, work_dir: Path, seed: int, cut: bool = True) -> dict[str, Any]:
    """Run :func:`harvest` and write ``candidates/<arch>.jsonl`` and, last, ``candidates/<arch>.json``.

    The summary is written last and atomically, so its presence marks the architecture done
    (a resumed build skips it).

    Returns:
        The capture-log record.
    """
    cdir = work_dir / "candidates"
    cdir.mkdir(parents=True, exist_ok=True)
    try:
        record, cands = harvest(arch, seed=seed, captures_dir=work_dir / "captures", cut=cut)
    except Exception as exc:  # noqa: BLE001 - last line of defence: log, never stop the build
        record, cands = {"arch": arch.name, "domain": arch.domain, "source": arch.source, "status": "failed",
                         "stage": "build", "reason": _reason(exc), "traceback": traceback.format_exc()[-2000:]}, []
    with open(cdir / f"{arch.name}.jsonl", "w") as f:
        for c in cands:
            f.write(json.dumps(c) + "\n")
    tmp = cdir / f"{arch.name}.json.tmp"
    tmp.write_text(json.dumps(record, indent=1))
    tmp.replace(cdir / f"{arch.name}.json")
    return record


def capture_architectures(
    archs: list[Architecture],
    out_dir: Path,
    *,
    seed: int = 0,
    variants: tuple[tuple[int, torch.dtype], ...] = VARIANTS[:1],
    on_record: Any = None,
) -> list[dict[str, Any]]:
    """Capture several architectures into ``out_dir``; a failure is logged and the run goes on.

    Each record is appended to ``out_dir/capture_log.jsonl`` as soon as its architecture is done.

    Args:
        archs: the architectures, captured in order.
        out_dir: sample folders go to ``out_dir/<arch>/<arch>__<variant>``.
        seed: seed of weights and inputs.
        variants: which variants (default: the float32 base only).
        on_record: called with each record (progress output).

    Returns:
        The capture-log records, one per architecture.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    records = []
    with open(out_dir / "capture_log.jsonl", "a") as log:
        for arch in archs:
            try:
                record, _ = harvest(arch, seed=seed, captures_dir=out_dir, variants=variants, cut=False)
            except Exception as exc:  # noqa: BLE001 - a broken architecture never stops the run
                record = {"arch": arch.name, "domain": arch.domain, "source": arch.source, "status": "failed",
                          "stage": "build", "reason": _reason(exc), "variants": []}
            log.write(json.dumps(record) + "\n")
            log.flush()
            records.append(record)
            if on_record is not None:
                on_record(record)
    return records
