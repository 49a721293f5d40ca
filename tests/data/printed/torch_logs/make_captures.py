"""Makes the TORCH_LOGS captures in this folder with a real PyTorch (2.14 in the project's chroot).

    /work/shared/tools/torch2-env.sh run python3 make_captures.py OUT_DIR [SCENARIO...]

Each scenario runs in its own process with TORCH_LOGS="aot_joint_graph,aot_graphs" and its stderr
written to OUT_DIR/<scenario>.log, as a user captures it (`2>capture.log`): every line of a printed
graph sits behind a log prefix naming its compile id ("[1/0] [__aot_joint_graph]"). One training
step under torch.compile with the aot_eager backend (Inductor for inductor_gpt2).
  graph_break: two compiled graphs split by torch._dynamo.graph_break(): compile ids 0/0_1 (2.14
               restarts the first analysis once) and 1/0, each with its joint, forward and backward
               graphs.
  recompile:   a Linear and GELU stepped on batch 4, then 6: the second shape recompiles with dynamic
               shapes (0/1), whose sizes name symbols ("s77") that a capture gives no values for.
  gpt2_checkpointing: Hugging Face's GPT2LMHeadModel (2 layers, d=64, random init) with
               gradient_checkpointing_enable(use_reentrant=False): three compilations (3/0 with 416
               nodes, 4/0_1, 6/0); 3/0 recomputes its dropouts and saves their RNG states, whose
               forward graph returns them as "u8[s62]". Needs `torch2-env.sh setup python3-transformers`.
  inductor_gpt2: the GPT-2 (no dropout, no checkpointing) under torch.compile's default backend,
               Inductor, which the capture does not name: PyTorch partitioned after its joint-graph
               passes removed no-op views and aliases (Inductor's code generation then fails in the
               chroot, which has no C++ compiler; the capture already holds the graphs).
"""

import os
import subprocess
import sys


def graph_break():
    import torch

    class TwoParts(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Linear(8, 16)
            self.b = torch.nn.Linear(16, 4)

        def forward(self, x):
            h = torch.relu(self.a(x))
            torch._dynamo.graph_break()
            return torch.tanh(self.b(h)).sum()

    step = torch.compile(TwoParts(), backend="aot_eager")
    step(torch.randn(4, 8)).backward()


def recompile():
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.Linear(16, 1))
    step = torch.compile(model, backend="aot_eager")
    for batch in (4, 6):
        step(torch.randn(batch, 8)).sum().backward()


def gpt2_checkpointing():
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(n_layer=2, n_head=2, n_embd=64, vocab_size=128, n_positions=32)
    model = GPT2LMHeadModel(config)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    step = torch.compile(model, backend="aot_eager")
    ids = torch.randint(0, 128, (2, 16))
    step(input_ids=ids, labels=ids).loss.backward()


def inductor_gpt2():
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(n_layer=2, n_head=2, n_embd=64, vocab_size=128, n_positions=32,
                        attn_pdrop=0.0, resid_pdrop=0.0, embd_pdrop=0.0)
    step = torch.compile(GPT2LMHeadModel(config))
    ids = torch.randint(0, 128, (2, 16))
    try:
        step(input_ids=ids).logits.sum().backward()
    except Exception as error:  # after the partition: its code generation needs a C++ compiler
        print(f"inductor_gpt2: Inductor stopped after partitioning: {type(error).__name__}")


SCENARIOS = {"graph_break": graph_break, "recompile": recompile, "gpt2_checkpointing": gpt2_checkpointing,
             "inductor_gpt2": inductor_gpt2}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--scenario":
        import torch

        torch.manual_seed(0)
        SCENARIOS[sys.argv[2]]()
        return
    if len(sys.argv) < 2 or any(name not in SCENARIOS for name in sys.argv[2:]):
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    for name in sys.argv[2:] or SCENARIOS:
        env = dict(os.environ, TORCH_LOGS="aot_joint_graph,aot_graphs")
        with open(os.path.join(out, name + ".log"), "w") as stderr:
            subprocess.run([sys.executable, os.path.abspath(__file__), "--scenario", name], env=env,
                           stderr=stderr, check=True)


if __name__ == "__main__":
    main()
