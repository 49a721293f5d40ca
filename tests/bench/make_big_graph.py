# SPDX-License-Identifier: MIT
"""Write a ~100k-node joint graph for the layout and frame benchmarks (not checked in: ~30 MB).

    /usr/bin/python3 tests/bench/make_big_graph.py [-o /tmp/gpt_n566.json] [--layers 566]
    /usr/bin/python3 tests/bench/make_big_graph.py --oracle-width --layers 48 -o /tmp/gpt_n48.json

--oracle-width makes the oracle's GPT stacks instead (d=256, ctx 128, vocab 2048, as gpt_n24 and
gpt_n96 in ../shared/oracle), with PyTorch 1.13's own partitioner decisions and seconds recorded:
what `bench --processes` compares the whole command with (gpt_n48 is in the oracle's table but not
shipped).

The oracle's gpt_n96 scaled up: the same nanoGPT blocks (samples/make_samples.py's GPT), 566 of
them (177 joint nodes per block + 56 = 100 238 nodes) at a tiny width (d=32, ctx 16) so that
tracing stays cheap. PyTorch's partitioners are not re-run (--no-reference): minutes at this size.
"""
import argparse
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "samples")
sys.path.insert(0, SAMPLES)
from export_joint_graph import export_joint_graph  # noqa: E402
from make_samples import GPT  # noqa: E402


def gpt_stack(layers, oracle_width):
    """The model, its token inputs and targets, seeded: the oracle's width (d=256, ctx 128, vocab
    2048) or the tiny one; returns (model, (tokens, targets), description)."""
    torch.manual_seed(0)
    d, ctx, vocab = (256, 128, 2048) if oracle_width else (32, 16, 128)
    model = GPT(layers=layers, d=d, heads=4, ctx=ctx, vocab=vocab)
    model.train()
    tokens = torch.randint(0, vocab, (2, ctx))
    targets = torch.randint(0, vocab, (2, ctx))
    description = (f"nanoGPT-style LM, {layers} blocks, d={d}, 4 heads, ctx {ctx}, vocab {vocab}, tied head, "
                   "dropout 0.1; batch 2")
    return model, (tokens, targets), description


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=566)
    ap.add_argument("-o", "--output", default="/tmp/gpt_n566.json")
    ap.add_argument("--oracle-width", action="store_true",
                    help="d=256, ctx 128, vocab 2048, with PyTorch's decisions and seconds")
    args = ap.parse_args(argv)
    model, inputs, description = gpt_stack(args.layers, args.oracle_width)
    start = time.perf_counter()
    doc = export_joint_graph(model, inputs, args.output, name=f"gpt_n{args.layers}", description=description,
                             reference=args.oracle_width)
    print(f"{args.output}: {len(doc['nodes'])} nodes, {os.path.getsize(args.output) / 1e6:.1f} MB, "
          f"{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
