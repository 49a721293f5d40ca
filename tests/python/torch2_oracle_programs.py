# SPDX-License-Identifier: MIT
"""Export every program of the torch-2.x oracle's generators with this worktree's exporter, without
the generators' workarounds, and compare the recorded decisions with the oracle's files.

Run inside the 2.14 chroot (needs python3-torchvision and python3-transformers there):
  /work/shared/tools/torch2-env.sh run python3 tests/python/torch2_oracle_programs.py OUT_DIR [NAME ...]

The generators (/work/shared/oracle/torch2/make: gen_models.py, gen_sac.py and the four programs
of probe_prefer_save_offload.py) are imported, not run: their export_case() retries failed
exports with patches of the exporter, and the probe swaps default_partition; here every program
goes straight to common._export_case(), i.e. samples/export_joint_graph.py as it is.  Graphs and
manifests go to OUT_DIR; /work/shared is only read.  Prints one line per program and a summary;
exits 1 when an export fails or a decision differs from the oracle file of the same program.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "samples")
ORACLE = "/work/shared/oracle/torch2"
os.environ["REMAT_SAMPLES"] = SAMPLES          # the generators import the exporter from here
sys.path.insert(0, os.path.join(ORACLE, "make"))

import common  # noqa: E402
import gen_models  # noqa: E402
import gen_sac  # noqa: E402
import torch  # noqa: E402

PROBED = ("offload_mlp_must_cpu_offload", "sac_mlp_prefer_save_mm", "sac_tf_prefer_save", "sac_mlp_mixed4")


def programs():
    """(name, category, build, seed) with the generators' own seeds."""
    for i, (name, build) in enumerate(gen_models.CASES.items()):
        yield name, "models", build, i
    sac = {k: v for k, v in gen_sac.CASES.items() if v is not None}
    sac.update(gen_sac.nested_cases())
    probe_index = {k: i for i, k in enumerate(gen_sac.CASES)}
    for i, (name, build) in enumerate(sac.items()):
        seed = probe_index[name] if name in PROBED else i
        yield name, "offload" if name.startswith("offload") else "sac", build, seed


def compare(name, out_dir):
    """Differences between our file and the oracle's for the same program ([] when none is stored)."""
    theirs_path = os.path.join(ORACLE, name + ".json")
    if not os.path.exists(theirs_path):
        return None
    with open(theirs_path) as f:
        theirs = json.load(f)
    with open(os.path.join(out_dir, name + ".json")) as f:
        ours = json.load(f)
    diffs = []
    if [n["name"] for n in ours["nodes"]] != [n["name"] for n in theirs["nodes"]]:
        diffs.append("node names differ")
    for key in sorted(set(ours["reference"]) | set(theirs["reference"])):
        a, b = ours["reference"].get(key), theirs["reference"].get(key)
        if not isinstance(a, dict) and not isinstance(b, dict):
            continue
        if (a is None) != (b is None):
            diffs.append(f"{key}: {'missing here' if a is None else 'missing in the oracle'}")
        elif a["saved_values"] != b["saved_values"]:
            diffs.append(f"{key}: saved {len(a['saved_values'])} here, {len(b['saved_values'])} in the oracle")
    return diffs


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    out_dir, only = os.path.abspath(argv[0]), argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    common.GRAPHS, common.HERE = out_dir, out_dir
    torch.set_num_threads(1)
    failed, differ, compared = [], [], 0
    total = 0
    for name, category, build, seed in programs():
        if only and not any(o in name for o in only):
            continue
        total += 1
        rec = common._export_case(name, category, build, "", seed, None)
        if rec.get("status") != "ok":
            failed.append(name)
            continue
        diffs = compare(name, out_dir)
        with open(os.path.join(out_dir, name + ".json")) as f:
            errors = json.load(f)["extra"].get("reference_errors", {})
        if errors:
            print(f"       {name}: PyTorch raised in {sorted(errors)}: {next(iter(errors.values()))[:120]}")
        if diffs is None:
            continue
        compared += 1
        if diffs:
            differ.append(name)
            print(f"[DIFF] {name}: {'; '.join(diffs)}")
        else:
            print(f"[same] {name}: every reference decision equals the oracle file's")
    print(f"SUMMARY: {total - len(failed)}/{total} programs exported; {compared} compared with oracle files, "
          f"{len(differ)} differ; failed: {failed or 'none'}; differ: {differ or 'none'}")
    return 1 if failed or differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
