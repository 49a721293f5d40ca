"""Makes the TORCH_TRACE logs in this folder with a real PyTorch (2.14 in the project's chroot).

    /work/shared/tools/torch2-env.sh run python3 make_logs.py OUT_DIR [SCENARIO...]

Each scenario runs in its own process with TORCH_TRACE=OUT_DIR/<scenario> (the trace handler is
set up when torch is imported), trains one step of a tiny model under torch.compile with the
aot_eager backend (min-cut partitioner, so 2.14 logs aot_joint_graph, aot_forward_graph and
aot_backward_graph per compiled graph), then keeps only the log file, renamed <scenario>.log.
  graph_break: two graphs, compile ids 0/0 and 1/0, split by torch._dynamo.graph_break().
  sac:         one graph with a selective-checkpointing region (create_selective_checkpoint_contexts).
  budget:      one graph under activation_memory_budget=0.3 with AOT_PARTITIONER_DEBUG=1, which
               makes 2.14 also write its min_cut_information artifact.
  blocks:      three residual blocks (plain, selective checkpointing, plain checkpoint): 18
               parameters, so 2.14 pretty-prints static_input_indices over several lines.
  inductor:    one transformer encoder layer under the default backend, Inductor: it rewrites
               the joint graph (joint_graph_passes) before partitioning it. Inductor's code
               generation may fail afterwards (the chroot has no C++ compiler); the log already
               holds the partition.
  inductor_gpt2, inductor_llama: a two-layer GPT-2 and Llama (Hugging Face transformers, random
               init: `torch2-env.sh setup python3-transformers` first) under Inductor, stepped on
               token ids: its joint-graph passes remove no-op views and aliases of the attention's
               outputs, and pointless views and permutes, before the partition.
  inductor_gpt2_dropout: the GPT-2 with its usual training dropout (0.1): Inductor draws the masks
               with inductor_random.
  inductor_autocast: the GPT-2 stepped under bfloat16 autocast: casts around every matmul.
  inductor_budget: the GPT-2 under Inductor with activation_memory_budget=0.5: the knapsack
               decides on the graph after the joint-graph passes too.
  inductor_checkpointed: the Llama with Hugging Face's gradient checkpointing (non-reentrant):
               recompute tags on every layer.
  inductor_dynamic: the dynamic model under Inductor, on the same three shapes.
  inductor_lora: the Llama with frozen weights and trainable rank-4 adapters (LoRA).
  inductor_nanogpt: two nanoGPT blocks with the attention written out (no SDPA).
  dynamic:     a Conv1d-cat-slice-Linear model stepped on three input shapes: the second shape
               makes Dynamo recompile with dynamic shapes (automatic dynamic), so compile 0/1 has
               SymInt inputs, sym_size nodes and sizes like "s77*(2*(((s53 - 1)//2)) + 1)"; its
               create_symbol records give the example values (s77 = 3, s53 = 13).
  symfloat:    a Linear and GPT-2's tanh GELU (math.sqrt(2.0 / math.pi)) under dynamic=True: Dynamo
               makes the float a graph input (a SymFloat), and 2.14 turns that arithmetic into tensor
               ops (tensorify_python_scalars) after logging aot_joint_graph, so the backward saves
               convert_element_type_default_1, a node the logged joint graph does not have.
  dynamic_budget: the dynamic scenario under activation_memory_budget=0.5: compile 0/1's knapsack
               decision (memory_budget_0.5) saves SymInts beside its tensors.
  replaced_symbol: Hugging Face's causal-LM loss (logits.view(-1, vocab_size), cross entropy) under
               dynamic=True: the logits' last size (s85) and vocab_size (s8) become two SymInt
               inputs, a guard in the view makes s85 == s8, and the log prints both as Sym(s8).
               2.14 binds the saved values' symbols from before that replacement too, so it saves
               primals_3 (s85), which the printed sizes do not call for.
  default_partition: the blocks model under a backend that partitions with 2.14's default_partition
               (aot_autograd with partition_fn=default_partition): it saves by where each node was
               traced (meta["partitioner_tag"], which the printed joint graph does not show). The log
               does not name the partitioner either.
  batchnorm:   a Conv2d, BatchNorm2d and Linear model in training mode: the joint graph ends with
               the copy_ nodes that write the running statistics back to the buffers (input
               mutations, tagged must_be_in_forward and printed without a stack trace).
  rng:         random ops inside checkpoint regions: a dropout and an attention with dropout_p=0.1
               (2.14 recomputes both and saves their RNG states, run_and_save_rng_state, so the
               backward has rng_state_output_* inputs), an attention with dropout_p=0.0 (not a
               random op for 2.14), a dropout a selective-checkpointing policy saves, and a dropout
               outside any region (its mask is saved).
"""

import functools
import glob
import os
import shutil
import subprocess
import sys


def graph_break_model():
    import torch
    import torch._functorch.config

    class TwoParts(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Linear(8, 16)
            self.b = torch.nn.Linear(16, 4)

        def forward(self, x):
            h = torch.relu(self.a(x))
            torch._dynamo.graph_break()
            return torch.tanh(self.b(h)).sum()

    return TwoParts()


def sac_model():
    import torch
    import torch._functorch.config
    from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

    def policy(ctx, op, *args, **kwargs):
        if op in (torch.ops.aten.addmm.default, torch.ops.aten.mm.default):
            return CheckpointPolicy.MUST_SAVE
        return CheckpointPolicy.PREFER_RECOMPUTE

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up = torch.nn.Linear(8, 16)
            self.down = torch.nn.Linear(16, 8)

        def inner(self, x):
            return self.down(torch.sin(torch.relu(self.up(x)))) + x

        def forward(self, x):
            context = functools.partial(create_selective_checkpoint_contexts, policy)
            y = checkpoint(self.inner, x, use_reentrant=False, context_fn=context)
            return torch.cos(y).sum()

    return Block()


def budget_model():
    import torch
    from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

    def policy(ctx, op, *args, **kwargs):
        if op == torch.ops.aten.addmm.default:
            return CheckpointPolicy.MUST_SAVE
        return CheckpointPolicy.PREFER_RECOMPUTE

    # The saved addmm keeps even the most aggressive min cut above the budget, so 2.14 gets to
    # its knapsack, where AOT_PARTITIONER_DEBUG logs min_cut_information.
    class Mlp(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = torch.nn.ModuleList(torch.nn.Linear(16, 16) for _ in range(3))

        def first(self, x):
            return torch.sin(torch.relu(self.layers[0](x)))

        def forward(self, x):
            context = functools.partial(create_selective_checkpoint_contexts, policy)
            x = checkpoint(self.first, x, use_reentrant=False, context_fn=context)
            for layer in self.layers[1:]:
                x = torch.sin(torch.relu(layer(x)))
            return x.sum()

    return Mlp()


def blocks_model():
    import torch
    from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

    def policy(ctx, op, *args, **kwargs):
        if op == torch.ops.aten.mm.default:
            return CheckpointPolicy.MUST_SAVE
        return CheckpointPolicy.PREFER_RECOMPUTE

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = torch.nn.LayerNorm(16)
            self.up = torch.nn.Linear(16, 32)
            self.down = torch.nn.Linear(32, 16)

        def forward(self, x):
            return x + self.down(torch.nn.functional.silu(self.up(self.norm(x))))

    class Blocks(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = torch.nn.ModuleList(Block() for _ in range(3))

        def forward(self, x):
            x = self.blocks[0](x)
            context = functools.partial(create_selective_checkpoint_contexts, policy)
            x = checkpoint(self.blocks[1], x, use_reentrant=False, context_fn=context)
            x = checkpoint(self.blocks[2], x, use_reentrant=False)
            return x.pow(2).mean()

    return Blocks()


def inductor_model():
    import torch

    return torch.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)


def dynamic_model():
    import torch

    class ConvHead(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv1d(4, 8, 3, stride=2, padding=1)
            self.lin = torch.nn.Linear(8, 8)

        def forward(self, x):  # x: [batch, 4, length]
            h = torch.relu(self.conv(x))  # length (length - 1) // 2 + 1
            h = torch.cat([h, h * 2], dim=2)[:, :, 1:]
            h = self.lin(h.transpose(1, 2)).flatten(0, 1)
            return (h.sigmoid() ** 2).mean()

    return ConvHead()


def symfloat_model():
    import math

    import torch

    class TanhGelu(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(8, 8)

        def forward(self, x):
            h = self.lin(x)
            inner = math.sqrt(2.0 / math.pi) * (h + 0.044715 * torch.pow(h, 3.0))
            return (0.5 * h * (1.0 + torch.tanh(inner))).sum()

    return TanhGelu()


def replaced_symbol_loss():
    import torch

    def causal_lm_loss(logits, labels, vocab_size):  # transformers.loss.loss_utils.ForCausalLMLoss
        logits = logits.float().view(-1, vocab_size)
        return torch.nn.functional.cross_entropy(logits, labels.view(-1))

    return causal_lm_loss


def batchnorm_model():
    import torch

    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1),
        torch.nn.BatchNorm2d(8),
        torch.nn.ReLU(),
        torch.nn.Flatten(),
        torch.nn.Linear(8 * 6 * 6, 4),
    )


def rng_model():
    import torch
    import torch.nn.functional as F
    from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

    def save_dropout(ctx, op, *args, **kwargs):
        if op == torch.ops.aten.native_dropout.default:
            return CheckpointPolicy.MUST_SAVE
        return CheckpointPolicy.PREFER_RECOMPUTE

    class Attention(torch.nn.Module):
        def __init__(self, width):
            super().__init__()
            self.qkv = torch.nn.Linear(width, 3 * width)
            self.up = torch.nn.Linear(width, 2 * width)
            self.down = torch.nn.Linear(2 * width, width)

        def attend(self, x, p):
            q, k, v = self.qkv(x).unflatten(-1, (3, 2, -1)).permute(2, 0, 3, 1, 4)
            return F.scaled_dot_product_attention(q, k, v, dropout_p=p).transpose(1, 2).flatten(2) + x

        def mlp(self, x):
            return self.down(F.dropout(F.gelu(self.up(x)), 0.1, training=True)) + x

        def forward(self, x):
            x = checkpoint(self.attend, x, 0.1, use_reentrant=False)
            x = checkpoint(self.attend, x, 0.0, use_reentrant=False)
            x = checkpoint(self.mlp, x, use_reentrant=False)
            context = functools.partial(create_selective_checkpoint_contexts, save_dropout)
            x = checkpoint(self.mlp, x, use_reentrant=False, context_fn=context)
            return torch.tanh(F.dropout(x, 0.2, training=True)).sum()

    return Attention(8)


def nanogpt_model():
    """Two nanoGPT blocks with the attention written out (no SDPA), as many training scripts do:
    softmax of scores scaled by 1/sqrt(d) under a causal mask."""
    import math

    import torch

    class Block(torch.nn.Module):
        def __init__(self, d=32, heads=4, ctx=16):
            super().__init__()
            self.heads = heads
            self.ln_1 = torch.nn.LayerNorm(d)
            self.c_attn = torch.nn.Linear(d, 3 * d)
            self.c_proj = torch.nn.Linear(d, d)
            self.ln_2 = torch.nn.LayerNorm(d)
            self.fc = torch.nn.Linear(d, 4 * d)
            self.proj = torch.nn.Linear(4 * d, d)
            self.register_buffer("bias", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))

        def attn(self, x):
            b, t, c = x.shape
            q, k, v = self.c_attn(x).split(c, dim=2)
            q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf"))
            att = torch.nn.functional.softmax(att, dim=-1)
            return self.c_proj((att @ v).transpose(1, 2).contiguous().view(b, t, c))

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.proj(torch.nn.functional.gelu(self.fc(self.ln_2(x))))

    class Gpt(torch.nn.Module):
        def __init__(self, d=32, vocab=64):
            super().__init__()
            self.wte = torch.nn.Embedding(vocab, d)
            self.blocks = torch.nn.Sequential(Block(d), Block(d))
            self.head = torch.nn.Linear(d, vocab)

        def forward(self, ids):
            return self.head(self.blocks(self.wte(ids)))

    return Gpt()


def hf_causal_lm(kind, dropout=0.0, checkpointed=False, lora=False):
    """A two-layer Hugging Face causal LM (random init, no download; needs the chroot's
    python3-transformers), returning its logits: SDPA attention, whose outputs the backward reads
    through aliases, and the views and permutes Inductor's joint-graph passes remove."""
    import torch
    import transformers

    if kind == "gpt2":
        config = transformers.GPT2Config(n_layer=2, n_embd=64, n_head=4, vocab_size=256, n_positions=32,
                                         attn_pdrop=dropout, resid_pdrop=dropout, embd_pdrop=dropout)
        model = transformers.GPT2LMHeadModel(config)
    else:
        config = transformers.LlamaConfig(num_hidden_layers=2, hidden_size=64, num_attention_heads=4,
                                          num_key_value_heads=2, intermediate_size=128, vocab_size=256,
                                          max_position_embeddings=32)
        model = transformers.LlamaForCausalLM(config)

    if lora:  # frozen base weights, trainable low-rank adapters on the attention projections
        model.requires_grad_(False)

        class LoRA(torch.nn.Module):
            def __init__(self, base, rank=4):
                super().__init__()
                self.base = base
                self.down = torch.nn.Linear(64, rank, bias=False)
                self.up = torch.nn.Linear(rank, base.weight.shape[0], bias=False)

            def forward(self, x):
                return self.base(x) + self.up(self.down(x))

        for layer in model.model.layers:
            layer.self_attn.q_proj = LoRA(layer.self_attn.q_proj)
            layer.self_attn.v_proj = LoRA(layer.self_attn.v_proj)
    if checkpointed:
        model.train()
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})

    class Logits(torch.nn.Module):
        def __init__(self, lm):
            super().__init__()
            self.lm = lm

        def forward(self, ids):
            return self.lm(input_ids=ids).logits

    return Logits(model)


SCENARIOS = {
    "graph_break": (graph_break_model, 8),
    "sac": (sac_model, 8),
    "budget": (budget_model, 16),
    "blocks": (blocks_model, 16),
    "inductor": (inductor_model, 16),
    "dynamic": (dynamic_model, 4),
    "symfloat": (symfloat_model, 8),
    "replaced_symbol": (replaced_symbol_loss, 10),
    "dynamic_budget": (dynamic_model, 4),
    "rng": (rng_model, 8),
    "default_partition": (blocks_model, 16),
    "batchnorm": (batchnorm_model, 6),
    "inductor_gpt2": (lambda: hf_causal_lm("gpt2"), 16),
    "inductor_llama": (lambda: hf_causal_lm("llama"), 16),
    "inductor_gpt2_dropout": (lambda: hf_causal_lm("gpt2", dropout=0.1), 16),
    "inductor_autocast": (lambda: hf_causal_lm("gpt2"), 16),
    "inductor_budget": (lambda: hf_causal_lm("gpt2"), 16),
    "inductor_checkpointed": (lambda: hf_causal_lm("llama", checkpointed=True), 16),
    "inductor_dynamic": (dynamic_model, 4),
    "inductor_lora": (lambda: hf_causal_lm("llama", lora=True), 16),
    "inductor_nanogpt": (nanogpt_model, 16),
}


def run_scenario(name):
    import torch
    import torch._functorch.config

    torch.manual_seed(0)
    if name == "budget":
        torch._functorch.config.activation_memory_budget = 0.3
    if name in ("dynamic_budget", "inductor_budget"):
        torch._functorch.config.activation_memory_budget = 0.5
    make, width = SCENARIOS[name]
    model = make()
    if name == "inductor_dynamic":
        step = torch.compile(model)
        for batch, length in ((2, 9), (3, 13), (5, 21)):
            try:
                step(torch.randn(batch, width, length)).backward()
            except Exception as error:
                print(f"{name}: Inductor stopped after partitioning: {type(error).__name__}")
        return
    if name.startswith("inductor"):
        step = torch.compile(model)
        vocab = 64 if name == "inductor_nanogpt" else 256
        example = torch.randint(0, vocab, (2, width)) if name != "inductor" else torch.randn(2, 3, width)
        try:
            if name == "inductor_autocast":
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    out = step(example)
                out.float().sum().backward()
            else:
                step(example).float().sum().backward()
        except Exception as error:  # after the partition: its code generation needs a C++ compiler
            print(f"{name}: Inductor stopped after partitioning: {type(error).__name__}")
        return
    if name == "symfloat":
        step = torch.compile(model, backend="aot_eager", dynamic=True)
        for batch in (4, 6):
            loss = step(torch.randn(batch, width))
            loss.backward()
        print(f"{name}: torch {torch.__version__}, loss {loss.item():.4f}")
        return
    if name == "replaced_symbol":
        step = torch.compile(model, backend="aot_eager", dynamic=True)
        for batch in (2, 3):
            logits = torch.randn(batch, 5, width, requires_grad=True)
            loss = step(logits, torch.randint(0, width, (batch, 5)), width)
            loss.backward()
        print(f"{name}: torch {torch.__version__}, loss {loss.item():.4f}")
        return
    if name == "default_partition":
        from functorch.compile import default_partition, make_boxed_func
        from torch._dynamo.backends.common import aot_autograd

        def keep(gm, _):
            return make_boxed_func(gm.forward)

        step = torch.compile(
            model, backend=aot_autograd(fw_compiler=keep, bw_compiler=keep, partition_fn=default_partition)
        )
        loss = step(torch.randn(4, width))
        loss.backward()
        print(f"{name}: torch {torch.__version__}, loss {loss.item():.4f}")
        return
    step = torch.compile(model, backend="aot_eager")
    if name in ("dynamic", "dynamic_budget"):
        for batch, length in ((2, 9), (3, 13), (5, 21)):
            loss = step(torch.randn(batch, width, length))
            loss.backward()
        print(f"{name}: torch {torch.__version__}, loss {loss.item():.4f}")
        return
    if name == "batchnorm":
        loss = step(torch.randn(2, 3, width, width)).pow(2).mean()
        loss.backward()
        print(f"{name}: torch {torch.__version__}, loss {loss.item():.4f}")
        return
    loss = step(torch.randn(2, 5, width) if name == "rng" else torch.randn(4, width))
    loss.backward()
    print(f"{name}: torch {torch.__version__}, loss {loss.item():.4f}")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--scenario":
        run_scenario(sys.argv[2])
        return
    if len(sys.argv) < 2 or any(name not in SCENARIOS for name in sys.argv[2:]):
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    for name in sys.argv[2:] or SCENARIOS:
        trace_dir = os.path.join(out, name)
        shutil.rmtree(trace_dir, ignore_errors=True)
        env = dict(os.environ, TORCH_TRACE=trace_dir)
        if name == "budget":
            env["AOT_PARTITIONER_DEBUG"] = "1"
        subprocess.run([sys.executable, os.path.abspath(__file__), "--scenario", name], env=env, check=True)
        logs = glob.glob(os.path.join(trace_dir, "dedicated_log_torch_trace_*.log"))
        if len(logs) != 1:
            sys.exit(f"{trace_dir}: expected one log file, found {len(logs)}")
        shutil.move(logs[0], os.path.join(out, name + ".log"))
        shutil.rmtree(trace_dir)


if __name__ == "__main__":
    main()
