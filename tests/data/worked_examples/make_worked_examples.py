"""Joint graphs of the worked examples of pytorch-partitioner-reference.md (sections 4.2.8 and 9.4),
traced by the installed PyTorch with its own decisions recorded.

Run with an interpreter that has torch (Debian: /usr/bin/python3):
    /usr/bin/python3 tests/data/worked_examples/make_worked_examples.py
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "samples"))
from export_joint_graph import export_joint_graph  # noqa: E402


def x8(requires_grad=True):
    return torch.randn(8, 8, requires_grad=requires_grad)


def eight_cos(x, w):
    y = torch.mm(x, w)
    for _ in range(8):
        y = torch.cos(y)
    return torch.mm(y, w)


CASES = {
    "cos_cos": (lambda x: torch.cos(torch.cos(x)), 1),
    "sum_mm_cos": (lambda x, w: torch.mm(torch.cos(x), w).sum(), 2),
    "sigmoid_mm_sin": (lambda x, w: torch.sigmoid(torch.mm(torch.sin(x), w)), 2),
    "cos_mm_chain": (lambda x, w: torch.cos(torch.mm(torch.cos(torch.mm(torch.cos(x), w)), w)).sum(), 2),
    "relu_mul_gelu_mm": (lambda x, w: torch.relu(torch.nn.functional.gelu(torch.mm(x, w)) * 2), 2),
    "softmax_qk": (lambda q, k: torch.softmax(torch.mm(q, k.t()) * 0.5, dim=-1), 2),
    "tanh_rowsum_exp": (lambda x: torch.tanh(torch.exp(x).sum(1, keepdim=True) * x), 1),
    "sin_dropout_cos": (lambda x: torch.sin(torch.nn.functional.dropout(torch.cos(x), 0.5, training=True)), 1),
    "eight_cos_between_mms": (eight_cos, 2),
    "sin_cos_rowsum": (lambda x: torch.sin(torch.cos(x.sum(1, keepdim=True)) * x), 1),
    "mm_cos_view_view": (lambda x, w: torch.mm(torch.cos(x.view(64).view(8, 8)), w), 2),
}


def main():
    for name, (fn, arity) in CASES.items():
        torch.manual_seed(0)
        inputs = tuple(x8() for _ in range(arity))
        export_joint_graph(fn, inputs, os.path.join(HERE, name + ".json"), name=name,
                           description="reference doc worked example")
        print("wrote", name)


if __name__ == "__main__":
    main()
