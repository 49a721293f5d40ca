# SPDX-License-Identifier: MIT
"""Regenerate the sample joint graphs in samples/*.json from real PyTorch models.

    /usr/bin/python3 samples/make_samples.py            # all samples
    /usr/bin/python3 samples/make_samples.py mlp lstm   # some of them

Needs an interpreter that can import torch (Debian: /usr/bin/python3).  Deterministic apart from
the partitioner timings in "reference".
"""
import math
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from export_joint_graph import checkpoint, export_joint_graph  # noqa: E402

aten = torch.ops.aten


class MLP(nn.Module):
    """784-512-256-10 ReLU MLP (the oracle's mlp3_relu)."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                                 nn.Linear(256, 10))

    def forward(self, x):
        return self.net(x)


class SelfAttention(nn.Module):
    """Hand-written multi-head attention (softmax + dropout on the weights), optionally causal."""

    def __init__(self, d, heads, dropout, causal=False):
        super().__init__()
        self.heads, self.dropout, self.causal = heads, dropout, causal
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=2)
        q, k, v = (t.view(b, s, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // self.heads))
        if self.causal:
            mask = torch.ones(s, s, dtype=torch.bool).triu(1)
            att = att.masked_fill(mask, float("-inf"))
        att = F.dropout(F.softmax(att, dim=-1), self.dropout, self.training)
        y = (att @ v).transpose(1, 2).contiguous().view(b, s, d)
        return F.dropout(self.proj(y), self.dropout, self.training)


class TransformerBlock(nn.Module):
    """Pre-LN transformer block: attention + GELU FFN, residuals, dropout 0.1."""

    def __init__(self, d=128, heads=4, hidden=512, dropout=0.1, causal=False):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = SelfAttention(d, heads, dropout, causal)
        self.mlp = nn.Sequential(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d), nn.Dropout(dropout))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class BasicBlock(nn.Module):
    """torchvision-style ResNet BasicBlock with a 1x1 downsample, BatchNorm in train mode."""

    def __init__(self, cin=32, cout=64, stride=2):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += self.downsample(x)
        return self.relu(out)


class LSTMClassifier(nn.Module):
    """nn.LSTM (CPU: decomposed per time step) + linear head + cross-entropy."""

    def __init__(self, vocab=256, d=64, hidden=128, classes=10):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, hidden, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, tokens, labels):
        out, _ = self.lstm(self.embed(tokens))
        return F.cross_entropy(self.head(out[:, -1]), labels)


class GPT(nn.Module):
    """nanoGPT-style LM: token + position embeddings, causal blocks, tied head, loss inside."""

    def __init__(self, layers=4, d=128, heads=4, ctx=64, vocab=512, dropout=0.1):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(TransformerBlock(d, heads, 4 * d, dropout, causal=True) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.wte.weight

    def forward(self, tokens, targets):
        pos = torch.arange(tokens.shape[1])
        x = self.drop(self.wte(tokens) + self.wpe(pos))
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


class CheckpointedStack(nn.Module):
    """Three transformer blocks: plain AC on block 0, selective AC (save matmuls) on block 1,
    none on block 2.  Uses the exporter's torch 2.x tag emulation (meta recompute/ac_graph_id)."""

    SAVE_MATMULS = [aten.mm.default, aten.addmm.default, aten.bmm.default]

    def __init__(self, d=64, heads=4):
        super().__init__()
        self.blocks = nn.ModuleList(TransformerBlock(d, heads, 4 * d, dropout=0.0) for _ in range(3))

    def forward(self, x):
        x = checkpoint(self.blocks[0], x)
        x = checkpoint(self.blocks[1], x, policy=self.SAVE_MATMULS)
        return self.blocks[2](x).sum()


class NonReentrantCheckpointMLP(nn.Module):
    """Real torch.utils.checkpoint(use_reentrant=False) on 1.13: the recomputation is traced into the
    backward half of the joint graph (min-cut's CSE then merges it back into the forward)."""

    def __init__(self, d=256, layers=4):
        super().__init__()
        self.layers = nn.ModuleList(nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Dropout(0.1)) for _ in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = torch.utils.checkpoint.checkpoint(layer, x, use_reentrant=False)
        return x.sum()


def _tokens(shape, vocab):
    return torch.randint(0, vocab, shape)


# file stem -> (factory returning (model, inputs), description)
SAMPLES = {
    "mlp": (lambda: (MLP(), (torch.randn(32, 784),)),
            "3-layer MLP 784-512-256-10 with ReLU, batch 32 (same graph as the oracle's mlp3_relu)"),
    "transformer_block": (lambda: (TransformerBlock(), (torch.randn(4, 64, 128),)),
                          "pre-LN transformer block: hand-written MHA (4 heads, d=128, softmax, dropout 0.1), "
                          "GELU FFN 512, residuals; input 4x64x128"),
    "resnet_block": (lambda: (BasicBlock(), (torch.randn(8, 32, 32, 32),)),
                     "ResNet BasicBlock 32->64 stride 2 (conv3x3-BN-ReLU(inplace) x2, 1x1 downsample, "
                     "in-place residual add), BN train mode; input 8x32x32x32"),
    "lstm": (lambda: (LSTMClassifier(), (_tokens((8, 12), 256), _tokens((8,), 10))),
             "embedding 256x64 + nn.LSTM(64, 128) over 12 steps + linear head + cross-entropy; batch 8"),
    "gpt_small": (lambda: (GPT(), (_tokens((2, 64), 512), _tokens((2, 64), 512))),
                  "nanoGPT-style LM: 4 causal blocks, d=128, 4 heads, ctx 64, vocab 512, tied head, dropout 0.1, "
                  "cross-entropy inside; batch 2"),
    "checkpointed_blocks": (lambda: (CheckpointedStack(), (torch.randn(2, 32, 64),)),
                            "3 transformer blocks (d=64, no dropout): block 0 under plain activation checkpointing, "
                            "block 1 under selective checkpointing saving mm/addmm/bmm, block 2 plain; tags "
                            "emulated as torch 2.x writes them (meta recompute, ac_graph_id)"),
    "checkpoint_nonreentrant": (lambda: (NonReentrantCheckpointMLP(), (torch.randn(16, 256, requires_grad=True),)),
                                "4x (Linear 256 + GELU + dropout) each under real torch.utils.checkpoint"
                                "(use_reentrant=False): recomputation traced into the backward"),
}


def sample(name):
    """(model, example inputs) of one sample, as exported: the recipe each sample file records."""
    torch.manual_seed(0)
    return SAMPLES[name][0]()


def main(argv):
    names = argv or list(SAMPLES)
    for stem in names:
        factory, description = SAMPLES[stem]
        torch.manual_seed(0)
        model, inputs = factory()
        model.train()
        path = os.path.join(HERE, f"{stem}.json")
        start = time.perf_counter()
        recipe = {"factory": "make_samples.py:sample", "kwargs": {"name": stem}, "seed": 0}
        doc = export_joint_graph(model, inputs, path, name=stem, description=description, recipe=recipe)
        ref = doc["reference"]
        print(f"{stem}: {len(doc['nodes'])} nodes, saved min-cut {len(ref['min_cut']['saved_values'])} / "
              f"default {len(ref['default']['saved_values'])}, {os.path.getsize(path) / 1024:.0f} KiB, "
              f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
