"""Capture throughput (graphs per minute) and dedup ratio of the benchmark pipeline.

For each architecture: build it with random weights, capture it with Dynamo into a validated
GraphNet sample (serialise, reload with equal outputs, re-capture, static analysis), then cut
the graph into fusible, typical and sole-op subgraphs. Throughput counts validated graphs per
minute of capture time (model construction is reported apart); the dedup ratio is subgraphs
cut (every range, repeats in other layers and models included) over unique subgraphs (exact
structural hash).

    python benchmarks/bench_capture.py                        # 10 architectures, float32 base shape
    python benchmarks/bench_capture.py --archs bert gpt2 vit --variants 3
    python benchmarks/bench_capture.py --manifest             # also the shipped build's figures

Prints Markdown tables (the README records their output) and the machine it ran on.
"""

from __future__ import annotations

import argparse
import copy
import json
import tempfile
import time
from pathlib import Path

import torch

from passagent.bench.architectures import VARIANTS, get_architecture
from passagent.bench.capture import CaptureError, capture_model
from passagent.bench.cut import Cutter
from passagent.bench.group import dedupe
from passagent.bench.harvest import variant_tag
from passagent.bench.manifest import load_manifest
from passagent.tools.evaluation.evaluate import device_name

DEFAULT_ARCHS = ["bert", "gpt2", "llama", "t5_encoder", "vit", "resnet", "convnext", "wav2vec2", "hubert",
                 "whisper_encoder"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--archs", nargs="+", default=DEFAULT_ARCHS)
    ap.add_argument("--variants", type=int, default=1, help=f"first N capture variants (1..{len(VARIANTS)})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--manifest", action="store_true", help="also print the shipped build's figures")
    args = ap.parse_args()
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
    except ImportError:
        pass

    rows, candidates = [], []
    graphs_total, capture_s_total, build_s_total = 0, 0.0, 0.0
    with tempfile.TemporaryDirectory(prefix="passagent-capture-") as tmp:
        for name in args.archs:
            arch = get_architecture(name)
            t0 = time.perf_counter()
            model = arch.build(args.seed)
            build_s = time.perf_counter() - t0
            build_s_total += build_s
            for shape_index, dtype in VARIANTS[: args.variants]:
                tag = variant_tag(shape_index, dtype)
                m = model if dtype == torch.float32 else copy.deepcopy(model).to(dtype)
                kwargs = arch.inputs(shape_index, dtype, args.seed)
                t0 = time.perf_counter()
                try:
                    result = capture_model(m, (), kwargs, name=f"{name}__{tag}", out_dir=Path(tmp) / name)
                except CaptureError as exc:
                    rows.append((name, tag, arch.domain, 0, 0, build_s, time.perf_counter() - t0, 0.0, 0, f"{exc.stage}: {exc.reason}"))
                    continue
                capture_s = time.perf_counter() - t0
                t0 = time.perf_counter()
                cut = 0
                for g in result.graphs:
                    for c in Cutter(g.gm, g.example_inputs).candidates():
                        c.source = {"arch": name, "domain": arch.domain, "variant": tag}
                        candidates.append(c)
                        cut += c.occurrences
                cut_s = time.perf_counter() - t0
                graphs_total += len(result.graphs)
                capture_s_total += capture_s
                rows.append((name, tag, arch.domain, len(result.graphs), result.nodes, build_s, capture_s, cut_s, cut, "ok"))
                build_s = 0.0  # the model is built once for all its variants
    unique, total = dedupe(candidates)

    print(f"machine: {device_name('cpu')}, torch {torch.__version__}, {torch.get_num_threads()} thread(s)\n")
    print("| architecture | variant | domain | graphs | nodes | build (s) | capture + validate (s) | cut (s) | subgraphs cut | status |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    for name, tag, domain, graphs, nodes, build_s, capture_s, cut_s, cut, status in rows:
        print(f"| {name} | {tag} | {domain} | {graphs} | {nodes} | {build_s:.1f} | {capture_s:.1f} | {cut_s:.1f} | {cut} | {status} |")
    per_min = 60 * graphs_total / capture_s_total if capture_s_total else 0.0
    per_min_all = 60 * graphs_total / (capture_s_total + build_s_total) if capture_s_total else 0.0
    print("\n| metric | value |\n|---|---:|")
    print(f"| graphs captured and validated | {graphs_total} |")
    print(f"| capture throughput (graphs / minute) | {per_min:.1f} |")
    print(f"| capture throughput incl. model construction (graphs / minute) | {per_min_all:.1f} |")
    print(f"| subgraphs cut (incl. repeats) | {total} |")
    print(f"| unique subgraphs (exact structural hash) | {len(unique)} |")
    print(f"| dedup ratio | {total / max(len(unique), 1):.2f} |")
    if args.manifest:
        manifest = load_manifest()
        if not manifest:
            print("\n(no shipped manifest)")
            return
        s = manifest["stats"]
        keys = ["captured", "failed_or_skipped", "graphs_captured", "capture_seconds", "graphs_per_minute",
                "subgraphs_cut", "candidates", "unique_subgraphs", "dedup_ratio", "groups", "task_candidates",
                "measured_subgraphs", "shipped_tasks", "shipped_subgraphs", "shipped_inductor_slower_fraction"]
        print(f"\nshipped build ({manifest['machine']['name']}, torch {manifest['torch_version']}, "
              f"generated {manifest['generated_at']}):\n")
        print("| metric | value |\n|---|---:|")
        for k in keys:
            if k in s:
                print(f"| {k} | {json.dumps(s[k])} |")


if __name__ == "__main__":
    main()
