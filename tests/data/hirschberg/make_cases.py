"""PyTorch 2.14's dp_knapsack_sliding_hirschberg, recorded for tests/core/tst_hirschbergknapsack.cpp.

Run inside the 2.14 chroot from the repository root:
    /work/shared/tools/torch2-env.sh run python3 tests/data/hirschberg/make_cases.py

Writes beside this file:
  item_cases.json   the solver called directly on random and edge-case item lists: inputs and its
                    (value, saved, recomputable); floats as float.hex() so they read back exactly;
                    also every call min-cut made on the graphs below (real knapsack inputs).
  graphs/<name>.json  small programs exported with samples/export_joint_graph.py (reference: 2.14's
                    default decisions, as the exporter records them).
  graph_cases.json  for each graph and budget b in BUDGETS, the saved values of 2.14's
                    min_cut_rematerialization_partition with activation_memory_budget=b and
                    activation_memory_budget_solver="dp_knapsack_sliding_hirschberg", and dp's.
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "samples"))

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch._functorch import config as fconfig  # noqa: E402
from torch._functorch import partitioners  # noqa: E402
from torch._functorch._activation_checkpointing.knapsack import dp_knapsack_sliding_hirschberg  # noqa: E402

import export_joint_graph as ejg  # noqa: E402

BUDGETS = (0.1, 0.3, 0.5, 0.7)
SOLVER = "dp_knapsack_sliding_hirschberg"


def case(name, memory, runtime, max_memory):
    value, saved, recomputable = dp_knapsack_sliding_hirschberg(list(memory), list(runtime), max_memory)
    return {"name": name, "memory": [float(m).hex() for m in memory],
            "runtime": [float(r).hex() for r in runtime], "max_memory": float(max_memory).hex(),
            "value": float(value).hex(), "saved": saved, "recomputable": recomputable}


def edge_cases():
    out = [case("empty", [], [], 0.5), case("empty budget 0", [], [], 0.0),
           case("one item fits", [0.2], [3.0], 0.5), case("one item too heavy", [0.6], [3.0], 0.5),
           case("one item zero runtime", [0.2], [0.0], 0.5), case("one item zero memory", [0.0], [2.0], 0.0),
           case("one item exactly the budget", [0.5], [1.0], 0.5)]
    for budget in (0.0, 1e-4, 1.0):
        out.append(case(f"zero memories, budget {budget}", [0.0] * 5, [1.0, 2.0, 0.0, 4.0, 5.0], budget))
        out.append(case(f"mixed, budget {budget}", [0.0, 1e-4, 0.3, 0.0, 2e-4, 0.7, 1.0],
                        [1.0, 2.0, 3.0, 0.0, 5.0, 6.0, 7.0], budget))
    out.append(case("zero runtimes", [0.1, 0.2, 0.3, 0.05], [0.0] * 4, 0.5))
    out.append(case("all heavier than the budget", [0.6, 0.7, 0.9, 2.0], [1.0, 2.0, 3.0, 4.0], 0.5))
    out.append(case("ties", [0.1] * 8, [1.0] * 8, 0.35))
    out.append(case("ties of ratio", [0.1, 0.2, 0.1, 0.2, 0.3, 0.1], [1.0, 2.0, 1.0, 2.0, 3.0, 1.0], 0.4))
    out.append(case("half-even quantization", [0.00005, 0.00015, 0.00025, 0.3], [1.0, 1.0, 1.0, 1.0], 0.00025))
    out.append(case("budget 1, heavy items", [0.4, 0.4, 0.4, 0.3], [5.0, 4.0, 3.0, 2.0], 1.0))
    out.append(case("float32 rounding of big runtimes", [0.1, 0.1, 0.2, 0.15],
                    [16777217.0, 16777216.0, 33554433.0, 3.0], 0.25))
    out.append(case("budget above 1", [0.6, 0.7, 0.2], [1.0, 2.0, 3.0], 1.5))
    out.append(case("right-half slack", [0.0003, 0.0001], [1.0, 2.0], 0.0003))
    return out


def random_cases(count, seed=20261124):
    rng = random.Random(seed)
    out = []
    for k in range(count):
        n = rng.choice([2, 3, 4, 5, 7, 8, 13, 20, 33, 64, 150])
        kind = k % 5
        memory, runtime = [], []
        for _ in range(n):
            if kind == 0:   # continuous
                memory.append(rng.uniform(0.0, 0.5))
                runtime.append(rng.uniform(0.0, 100.0))
            elif kind == 1:   # coarse grid: many ties
                memory.append(rng.randint(0, 10) / 20)
                runtime.append(float(rng.randint(0, 4)))
            elif kind == 2:   # FLOP-like integers, some huge (float32 loses the low bits)
                memory.append(rng.choice([0.0, rng.uniform(0, 0.05), rng.uniform(0, 0.3)]))
                runtime.append(float(rng.choice([1, rng.randint(1, 10**6), rng.randint(10**8, 10**11)])))
            elif kind == 3:   # memories like bytes / activation range
                memory.append(rng.randint(1, 64) * 4096 / rng.choice([1e6, 3e6]))
                runtime.append(float(rng.randint(1, 5000)))
            else:   # tiny memories around the quantum
                memory.append(rng.randint(0, 30) * 0.00005)
                runtime.append(rng.choice([0.0, 1.0, 2.5, rng.uniform(0, 10)]))
        budget = rng.choice([0.0, 1e-4, 1.0, round(rng.uniform(0, 1), 4), rng.uniform(0, 1), 0.00015])
        out.append(case(f"random {k} ({n} items)", memory, runtime, budget))
    return out


def float32_cases(count, seed=2414):
    """Runtimes that float32 cannot tell apart (odd integers past 2**24) next to small ones:
    2.14's sums are float32, so ties and split points differ from a double computation."""
    rng = random.Random(seed)
    out = [case("float32 tie", [0.1, 0.1], [16777216.0, 16777217.0], 0.1),
           case("float32 scalar rounding", [0.1, 0.0, 0.1], [16777216.0, 1.0, 16777217.0], 0.1)]
    for k in range(count):
        n = rng.choice([2, 3, 5, 8, 12])
        memory = [rng.randint(0, 4) / 10 for _ in range(n)]
        runtime = [float(rng.choice([1, 2, 3, 2**24 + rng.randint(-3, 3), 2**25 + rng.randint(-5, 5)]))
                   for _ in range(n)]
        out.append(case(f"float32 {k} ({n} items)", memory, runtime, rng.choice([0.1, 0.2, 0.3, 0.5])))
    return out


# --- graphs -----------------------------------------------------------------------------------
class Mlp(nn.Module):
    def __init__(self, width=64, depth=4):
        super().__init__()
        layers = []
        for _ in range(depth):
            layers += [nn.Linear(width, width), nn.GELU(), nn.LayerNorm(width)]
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(width, 10)

    def forward(self, x):
        return self.head(self.body(x)).sum()


class TinyTransformer(nn.Module):
    def __init__(self, dim=32, heads=4, layers=2):
        super().__init__()
        layer = nn.TransformerEncoderLayer(dim, heads, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        return self.out(self.encoder(x)).pow(2).mean()


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.SiLU())
        self.fc = nn.Linear(16 * 8 * 8, 10)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1)).logsumexp(1).sum()


class ResidualMlp(nn.Module):
    def __init__(self, width=48, blocks=3):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Sequential(nn.Linear(width, 2 * width), nn.Tanh(), nn.Linear(2 * width, width))
                                    for _ in range(blocks))
        self.norm = nn.RMSNorm(width)

    def forward(self, x):
        for block in self.blocks:
            x = x + block(self.norm(x))
        return x.sigmoid().sum()


def graph_programs():
    torch.manual_seed(0)
    return [
        ("mlp", Mlp(), (torch.randn(16, 64),)),
        ("tiny_transformer", TinyTransformer(), (torch.randn(2, 8, 32),)),
        ("convnet", ConvNet(), (torch.randn(4, 3, 16, 16),)),
        ("residual_mlp", ResidualMlp(), (torch.randn(8, 48),)),
        ("transformer_3l", TinyTransformer(dim=48, layers=3), (torch.randn(2, 12, 48),)),
        ("residual_mlp_deep", ResidualMlp(width=64, blocks=6), (torch.randn(16, 64),)),
    ]


def run_budget(cap, order, budget, solver, calls):
    recorded = []

    def recording(memory, runtimes, max_memory):
        result = dp_knapsack_sliding_hirschberg(memory, runtimes, max_memory)
        recorded.append((list(memory), list(runtimes), max_memory, result))
        return result

    original = partitioners.dp_knapsack_sliding_hirschberg
    partitioners.dp_knapsack_sliding_hirschberg = recording
    try:
        with fconfig.patch(activation_memory_budget=budget, activation_memory_budget_solver=solver):
            fw, bw, _ = ejg._run_partitioner(partitioners.min_cut_rematerialization_partition, cap)
    finally:
        partitioners.dp_knapsack_sliding_hirschberg = original
    for memory, runtimes, max_memory, (value, saved, recomputable) in recorded:
        calls.append({"memory": [float(m).hex() for m in memory], "runtime": [float(r).hex() for r in runtimes],
                      "max_memory": float(max_memory).hex(), "value": float(value).hex(),
                      "saved": saved, "recomputable": recomputable})
    decision = ejg._decision(fw, bw, cap["num_fwd_outputs"], order, cap["joint"].graph)
    return decision["saved_values"], len(recorded)


def graph_cases(item_cases):
    os.makedirs(os.path.join(HERE, "graphs"), exist_ok=True)
    out = []
    for name, model, inputs in graph_programs():
        cap = ejg.capture_joint_graph(model, inputs)
        doc = ejg.build_document(cap, name, f"tests/data/hirschberg/make_cases.py: {type(model).__name__}")
        ejg.write_document(doc, os.path.join(HERE, "graphs", name + ".json"))
        order = {n.name: i for i, n in enumerate(cap["joint"].graph.nodes)}
        budgets = {}
        for budget in BUDGETS:
            calls = []
            saved, knapsack_calls = run_budget(cap, order, budget, SOLVER, calls)
            dp_saved, _ = run_budget(cap, order, budget, "dp", [])
            budgets[f"{budget:g}"] = {"saved_values": saved, "knapsack_calls": knapsack_calls,
                                      "dp_saved_values": dp_saved}
            for k, call in enumerate(calls):
                item_cases.append(dict(call, name=f"{name} budget {budget:g} call {k}"))
        out.append({"graph": f"graphs/{name}.json", "nodes": len(doc["nodes"]), "budgets": budgets})
        print(name, len(doc["nodes"]), "nodes;",
              {b: (len(v["saved_values"]), v["knapsack_calls"], v["saved_values"] == v["dp_saved_values"])
               for b, v in budgets.items()}, flush=True)
    return out


def write_json(name, doc):
    path = os.path.join(HERE, name)
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=0, allow_nan=False)
        f.write("\n")
    os.replace(path + ".tmp", path)


def main():
    items = edge_cases() + random_cases(200) + float32_cases(60)
    graphs = graph_cases(items)
    source = f"torch {torch.__version__}: torch._functorch._activation_checkpointing.knapsack"
    write_json("item_cases.json", {"source": source, "function": SOLVER, "cases": items})
    write_json("graph_cases.json", {"source": f"torch {torch.__version__} min_cut_rematerialization_partition",
                                    "solver": SOLVER, "graphs": graphs})
    print(len(items), "item cases,", sum(len(g["budgets"]) for g in graphs), "graph budgets")


if __name__ == "__main__":
    main()
