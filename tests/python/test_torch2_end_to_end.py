# SPDX-License-Identifier: MIT
"""End to end under PyTorch 2.14: export a model with dropout in two checkpoint regions, partition it
with remat-explorer at settings other than PyTorch's choice, replay the plans, and write one as a
selective-checkpointing policy.

    REMAT_EXPLORER=build/app/remat-explorer python3 tests/python/test_torch2_end_to_end.py

Runs on the host (standard library only): the PyTorch steps (tests/python/torch2_steps.py) run in
the 2.14 chroot through TORCH2_ENV (default ../shared/tools/torch2-env.sh, already set up) and
remat-explorer runs here, as the chroot has no Qt.  Prints one PASS or FAIL line per check; exits 1
when any check fails or a step cannot run (nothing here skips: scripts/torch2-end-to-end.sh decides
whether the chroot can be set up at all).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED = os.environ.get("REMAT_SHARED_DIR") or os.path.join(ROOT, "..", "shared")
TORCH2_ENV = os.environ.get("TORCH2_ENV", os.path.join(SHARED, "tools", "torch2-env.sh"))
GRAD_TOLERANCE = 1e-5
failures = []


def check(ok, what, detail=""):
    print(f"{'PASS' if ok else 'FAIL'}: {what}{' (' + detail + ')' if detail else ''}", flush=True)
    if not ok:
        failures.append(what)
    return ok


def run(cmd, what):
    """Run cmd from the project root; its stdout, or a failed check and None."""
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        tail = "\n".join((res.stderr or res.stdout).strip().splitlines()[-12:])
        check(False, what, f"{' '.join(cmd)} exited with {res.returncode}:\n{tail}")
        return None
    return res.stdout


def torch2(*args, what):
    """torch2_steps.py in the chroot -> its JSON result lines."""
    out = run([TORCH2_ENV, "run", "python3", os.path.join(HERE, "torch2_steps.py"), *args], what)
    return None if out is None else [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")]


def cli(*args, what):
    exe = os.environ.get("REMAT_EXPLORER", "")
    if not (exe and os.access(exe, os.X_OK)):
        check(False, what, f"REMAT_EXPLORER={exe!r} is not an executable: point it at the built remat-explorer")
        return None
    return run([exe, *args], what)


def load(path):
    with open(path) as f:
        return json.load(f)


def pick(doc, plan):
    """A node inside a checkpoint region that the plan recomputes, not a view or a getitem: the
    node to tag MUST_SAVE (a decision PyTorch did not make)."""
    saved = set(plan["saved_values"])
    for n in doc["nodes"]:
        if n["op"] == "call_function" and "ac_graph_id" in n["meta"] and n["name"] in plan["recomputed"] \
                and n["name"] not in saved and isinstance(n["val"], dict) \
                and n["target"] not in ("_operator.getitem", "aten.t.default"):
            return n["name"]
    return None


def node_with_target(doc, target):
    return next((n["name"] for n in doc["nodes"] if n["target"] == target), None)


def check_replay(result, plan, label):
    expected = [result["renamed"].get(n, n) for n in plan["saved_values"]]
    check(result["saved_values"] == expected, f"{label}: the compiled forward saves exactly the plan's values",
          f"{len(result['saved_values'])} saved, plan {len(plan['saved_values'])}")
    rng_ops = plan.get("rng_state_ops", [])
    check(result["saved_rng_states"] == len(rng_ops),
          f"{label}: the plan's RNG states ({len(rng_ops)}: {', '.join(rng_ops) or 'none'}) are the ones "
          "2.14 saves when it replays the plan", f"PyTorch saved {result['saved_rng_states']}")
    want = len(plan["saved_values"]) + result["saved_rng_states"]
    check(result["autograd_saved_tensors"] == [want],
          f"{label}: the compiled autograd function holds {want} tensors "
          f"({len(plan['saved_values'])} plan values + {result['saved_rng_states']} RNG states)",
          f"it holds {result['autograd_saved_tensors']}")
    check(result["max_grad_difference"] <= GRAD_TOLERANCE, f"{label}: gradients equal eager's",
          f"max difference {result['max_grad_difference']:.3g}")


def main():
    start = time.perf_counter()
    tmp = tempfile.mkdtemp(prefix="remat-torch2-e2e-", dir="/tmp")   # /tmp is visible in the chroot
    graph = os.path.join(tmp, "graph.json")
    res = torch2("export", graph, what="export under torch 2.x")
    if res is None:
        return 1
    check(res[0]["torch"].startswith("2."), "the export ran under torch 2.x", res[0]["torch"])
    doc = load(graph)
    pytorch = doc["reference"]["min_cut"]
    check(pytorch.get("saved_rng_states", 0) > 0, "PyTorch's min-cut recomputes the regions' dropout "
          "(RNG states saved), the case that needed a TracingContext", f"{pytorch.get('saved_rng_states', 0)} states")

    names = doc.get("extra", {}).get("input_names", {})
    want = {"blocks.0.ln.weight", "blocks.0.fc1.weight", "blocks.1.fc2.bias", "head.weight", "x"}
    check(want <= set(names.values()) and len(names) == 15, "the export names every input as the model does "
          "(Dynamo's order, matched by identity)", f"{len(names)} names, e.g. {sorted(names.items())[:3]}")
    explained = cli("explain", graph, next(p for p, n in names.items() if n == "head.weight") if names else "primals_1",
                    "--json", what="remat-explorer explain an input")
    if explained is not None:
        check(json.loads(explained).get("input_name") == "head.weight", "remat-explorer shows the input's name")

    plans = {}
    if cli("partition", graph, "--rules", "torch-2.14", "-o", os.path.join(tmp, "min_cut.json"),
           what="remat-explorer partition (PyTorch's setting)") is not None:
        same = load(os.path.join(tmp, "min_cut.json"))["saved_values"] == pytorch["saved_values"]
        check(same, "remat-explorer's torch-2.14 min-cut equals PyTorch's recorded decision")
        base = load(os.path.join(tmp, "min_cut.json"))
        tag = pick(doc, base)
        if check(tag is not None, "a region node PyTorch recomputes exists", str(tag)):
            path = os.path.join(tmp, "tagged.json")
            if cli("partition", graph, "--rules", "torch-2.14", "--tag", f"{tag}=MUST_SAVE", "-o", path,
                   what="remat-explorer partition --tag") is not None:
                plans[f"--tag {tag}=MUST_SAVE"] = path
                p = load(path)
                check(tag in p["saved_values"] and p["saved_values"] != pytorch["saved_values"],
                      f"the tagged plan saves {tag} and differs from PyTorch's choice")
    path = os.path.join(tmp, "budget.json")
    if cli("budget", graph, "--budget", "0.1", "-o", path, what="remat-explorer budget 0.1") is not None:
        plans["budget 0.1"] = path
        check(load(path)["saved_values"] != pytorch["saved_values"], "the budget plan differs from PyTorch's min-cut")
    path = os.path.join(tmp, "default.json")
    if cli("partition", graph, "--rules", "torch-2.14", "--partitioner", "default", "-o", path,
           what="remat-explorer partition --partitioner default") is not None:
        plans["default partitioner"] = path

    results = torch2("replay", *plans.values(), what="replay under torch 2.x") if plans else None
    for (label, path), result in zip(plans.items(), results or []):
        check_replay(result, load(path), label)
        check(result["partitioner"] == ("default" if "default" in label else "min-cut"),
              f"{label}: replayed as {result['partitioner']} (CSE only for min-cut)")

    tagged = plans.get(next((k for k in plans if k.startswith("--tag")), ""), None)
    if check(tagged is not None, "a tagged plan to write as a SAC policy"):
        policy = os.path.join(tmp, "policy.py")
        out = run([TORCH2_ENV, "run", "python3", os.path.join(ROOT, "samples", "apply_plan.py"), "--graph", graph,
                   "--plan", tagged, "--sac-policy", policy], "apply_plan.py --sac-policy")
        if out is not None:
            print(out.strip())
            sac = torch2("sac", policy, what="eager step with the SAC policy")
            if sac:
                check(sac[0]["max_grad_difference"] <= GRAD_TOLERANCE, "SAC policy: eager gradients equal plain "
                      "checkpointing's", f"max difference {sac[0]['max_grad_difference']:.3g}")
            sac_graph = os.path.join(tmp, "graph_sac.json")
            res = torch2("export", sac_graph, policy, what="export with the SAC policy")
            if res:
                sdoc = load(sac_graph)
                check([n["name"] for n in sdoc["nodes"]] == [n["name"] for n in doc["nodes"]],
                      "SAC policy: the traced graph has the same nodes")
                check(res[0]["unmatched_policy_calls"] == 0, "SAC policy: every op call under torch.compile "
                      "found its decision")
                got = sdoc["reference"]["min_cut"]["saved_values"]
                want = load(tagged)["saved_values"]
                check(got == want, "SAC policy: PyTorch's own min-cut under the policy saves exactly the plan",
                      f"{len(got)} saved, plan {len(want)}")
    # The head's tanh runs outside the regions: a plan that recomputes it has no SAC policy.
    bad_node = node_with_target(doc, "aten.tanh.default")
    bad = os.path.join(tmp, "outside.json")
    if check(bad_node is not None, "the head's tanh (outside the regions) is in the graph") and \
            cli("partition", graph, "--rules", "torch-2.14", "--tag", f"{bad_node}=MUST_RECOMPUTE", "-o", bad,
                what="remat-explorer partition --tag (outside the regions)") is not None:
        check(bad_node in load(bad)["recomputed"], f"the plan tagged {bad_node}=MUST_RECOMPUTE recomputes it")
        res = subprocess.run([TORCH2_ENV, "run", "python3", os.path.join(ROOT, "samples", "apply_plan.py"),
                              "--graph", graph, "--plan", bad, "--sac-policy", os.path.join(tmp, "no.py")],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        said = [s for s in (res.stderr + res.stdout).strip().splitlines() if "checkpoint region" in s]
        check(res.returncode != 0 and bool(said) and not os.path.exists(os.path.join(tmp, "no.py")),
              f"a plan recomputing {bad_node} outside the regions is refused as a SAC policy",
              said[-1] if said else f"exit {res.returncode}, no message")
    if failures:
        print(f"torch2 end-to-end: FAILED {len(failures)} checks in {time.perf_counter() - start:.0f} s "
              f"(files in {tmp})")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"torch2 end-to-end: all checks passed in {time.perf_counter() - start:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
