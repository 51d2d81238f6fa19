"""A found pass on a whole model: eager vs default Inductor vs ``passagent.compile`` vs the
exported Inductor pass, on a transformers model built from its config with random weights.

    python benchmarks/apply_model.py [--device cpu|cuda] [--layers 12] [--batch 4] [--seq 128]
        [--pass examples/passes/b511_pooler_dir] [--threads 1] [--json OUT.json]

The model is BGE-small's architecture (``BertModel`` from a ``BertConfig`` with its sizes: 384
hidden, 12 layers, 12 heads, 1536 intermediate), followed by the two modules
sentence-transformers puts after it for BGE: CLS pooling, written as its ``Pooling`` module
does (``torch.cat`` of the selected pooled vectors, here one) and ``Normalize``
(``F.normalize(x, p=2, dim=1)``). The default pass is the example pass found on the BGE pooler
task (``examples/passes/b511_pooler_dir``): it drops BERT's pooler, which the embedding never
reads (``tanh(linear(cls))``), and the one-tensor ``cat``.

Correctness is the harness's: every variant's outputs against eager's at every tolerance level
(``tools/measure/correctness.py``); times are the harness's interleaved timing (``tools/measure/timing.py``,
``TimingConfig.for_device``), medians per call in µs, and speedups the median over the timed
rounds of the paired ratios, the score's estimator (``shared/docs/SCORING.md``).
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent

# BAAI/bge-small-en-v1.5's config.json sizes (hidden, layers, heads, intermediate, positions, vocab).
BGE_SMALL = dict(hidden_size=384, num_hidden_layers=12, num_attention_heads=12, intermediate_size=1536,
                 max_position_embeddings=512, vocab_size=30522)


class BgeEmbedder(torch.nn.Module):
    """BertModel + CLS pooling + L2 normalisation (sentence-transformers' BGE pipeline)."""

    def __init__(self, layers: int = 12, seed: int = 0):
        super().__init__()
        from transformers import BertConfig, BertModel

        torch.manual_seed(seed)
        self.bert = BertModel(BertConfig(**{**BGE_SMALL, "num_hidden_layers": layers}, attn_implementation="sdpa"))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        tokens = self.bert(input_ids=input_ids, attention_mask=attention_mask)[0]
        pooled = torch.cat([tokens[:, 0]], 1)  # Pooling: cat of the chosen modes' vectors
        return torch.nn.functional.normalize(pooled, p=2, dim=1)  # Normalize


def measure(device: str, layers: int, batch: int, seq: int, passes: list[str], threads: int | None,
            budget_s: float | None) -> dict:
    import passagent
    from passagent.tools.measure.correctness import compare_outputs
    from passagent.tools.passes.inductor_export import export_inductor, inductor_options
    from passagent.tools.measure.timing import TimingConfig, speedup_estimates, time_interleaved

    if threads:
        torch.set_num_threads(threads)
    dev = torch.device(device)
    model = BgeEmbedder(layers).to(dev).eval()
    gen = torch.Generator().manual_seed(1)
    draws = []
    for _ in range(3):
        ids = torch.randint(0, BGE_SMALL["vocab_size"], (batch, seq), generator=gen)
        mask = torch.ones(batch, seq, dtype=torch.long)
        mask[0, seq // 2:] = 0  # one padded row, so the mask matters
        draws.append([ids.to(dev), mask.to(dev)])

    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="apply_model_"))
    export_inductor(passes, tmp / "exported_pass")
    sys.path.insert(0, str(tmp))
    from exported_pass import make_pass  # type: ignore[import-not-found]

    exported = make_pass()
    be = passagent.backend(*passes)
    variants = {
        "eager": model,
        "inductor": torch.compile(model),
        "passagent": torch.compile(model, backend=be),  # the one line
        "exported": torch.compile(model, options=inductor_options(exported)),
    }
    row: dict = {"device": device, "layers": layers, "batch": batch, "seq": seq, "passes": passes,
                 "torch": torch.__version__, "machine": _machine(dev), "threads": torch.get_num_threads()}
    with torch.no_grad():
        ref = [model(*d) for d in draws]
        for name, fn in variants.items():
            if name == "eager":
                continue
            t0 = time.perf_counter()
            outs = [fn(*d) for d in draws]
            row[f"{name}_first_call_s"] = round(time.perf_counter() - t0, 1)
            worst = [compare_outputs(o, r) for o, r in zip(outs, ref)]
            levels = [c.min_correct_t for c in worst]
            row[f"{name}_min_correct_t"] = None if None in levels else max(levels)
            row[f"{name}_max_abs"] = max(c.max_abs for c in worst)
        row["passagent_matches"] = be.matches_by_rule()
        row["passagent_sites"] = be.sites_by_rule(limit=3)
        row["exported_matches"] = exported.matches_by_rule()
        samples: dict[str, list[float]] = {}
        stats = time_interleaved(variants, lambda i: [x.clone() for x in draws[i % 3]], device=dev,
                                 config=TimingConfig.for_device(dev, budget_s), samples_out=samples)
    for name, s in stats.items():
        row[f"{name}_us"] = s.median_us
        row[f"{name}_calls"] = s.n
        if s.graph_median_us:
            row[f"{name}_graph_us"] = s.graph_median_us
    # The score's estimator (shared/docs/SCORING.md): the median over rounds of the paired ratios.
    for base, cand in (("eager", "inductor"), ("eager", "passagent"), ("eager", "exported"),
                       ("inductor", "passagent"), ("inductor", "exported")):
        row[f"{cand}_vs_{base}"] = speedup_estimates(samples[base], samples[cand])["median_of_paired_ratios"]
    return row


def _machine(dev: torch.device) -> str:
    if dev.type == "cuda":
        return torch.cuda.get_device_name(dev)
    return f"{platform.processor() or platform.machine()}"


def table(rows: list[dict]) -> str:
    lines = [
        "| device | model | batch x seq | matches (rule: n) | correct t (Inductor / pass / exported) "
        "| eager us | Inductor us | pass us | exported us | rounds | pass vs eager | pass vs Inductor | exported vs Inductor |",
        "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        m = ", ".join(f"{k}: {v}" for k, v in r["passagent_matches"].items())
        lines.append(
            f"| {r['machine']} ({r['threads']} thr) | BGE-small arch, {r['layers']} layers | {r['batch']}x{r['seq']} | {m} "
            f"| {r['inductor_min_correct_t']} / {r['passagent_min_correct_t']} / {r['exported_min_correct_t']} "
            f"| {r['eager_us']:.0f} | {r['inductor_us']:.0f} | {r['passagent_us']:.0f} | {r['exported_us']:.0f} | {r['eager_calls']} "
            f"| {r['passagent_vs_eager']:.3f}x | {r['passagent_vs_inductor']:.3f}x | {r['exported_vs_inductor']:.3f}x |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--pass", dest="passes", action="append", default=None,
                    help="pass file or pass_dir (repeat for several, applied in order)")
    ap.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's)")
    ap.add_argument("--budget", type=float, default=None, help="seconds of timed calls (TimingConfig.for_device)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    passes = args.passes or [str(REPO / "examples" / "passes" / "b511_pooler_dir")]
    row = measure(args.device, args.layers, args.batch, args.seq, passes, args.threads, args.budget)
    if args.json:
        args.json.write_text(json.dumps(row, indent=1, default=str) + "\n")
    print(json.dumps({k: v for k, v in row.items() if "sites" in k or "matches" in k}, default=str))
    print(table([row]))


if __name__ == "__main__":
    main()
