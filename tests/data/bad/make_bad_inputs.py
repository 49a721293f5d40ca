#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes the hand-made broken inputs of tests/data/bad/ (one defect per file) from one small good
graph, plan and device list. Re-run after changing a case; the expected messages are in MANIFEST.tsv.
Usage: /usr/bin/python3 tests/data/bad/make_bad_inputs.py"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor(shape=(8, 8), dtype="float32"):
    stride = []
    step = 1
    for d in reversed(shape):
        stride.insert(0, step)
        step *= max(d, 1)
    return {"shape": list(shape), "dtype": dtype, "stride": stride, "device": "cpu"}


def node(name, op, target=None, args=(), val=None, tag="is_forward"):
    return {"name": name, "op": op, "target": target or name, "args": list(args), "kwargs": {},
            "val": tensor() if val is None and op != "output" else val, "meta": {"partitioner_tag": tag}}


def ref(name):
    return {"node": name}


def good_graph():
    nodes = [
        node("primals_1", "placeholder"),
        node("tangents_1", "placeholder", tag="is_backward"),
        node("cos", "call_function", "aten.cos.default", [ref("primals_1")]),
        node("sin", "call_function", "aten.sin.default", [ref("cos")], tag="is_backward"),
        node("mul", "call_function", "aten.mul.Tensor", [ref("tangents_1"), ref("sin")], tag="is_backward"),
        node("output", "output", "output", [[ref("cos"), ref("mul")]], val=None),
    ]
    nodes[-1]["val"] = None
    return {"format": "joint-graph", "version": 1, "kind": "joint", "num_fwd_outputs": 1, "nodes": nodes}


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def graph_case(name, change):
    g = good_graph()
    change(g)
    write(name, json.dumps(g, indent=1))


def by_name(g, name):
    return next(n for n in g["nodes"] if n["name"] == name)


def set_in(path, value):
    def change(g):
        target = g
        for key in path[:-1]:
            target = by_name(g, key) if isinstance(key, str) and target is g and key not in g else target[key]
        target[path[-1]] = value
    return change


def node_field(name, field, value):
    return lambda g: by_name(g, name).__setitem__(field, value)


def drop(name, field):
    return lambda g: by_name(g, name).pop(field)


def val_field(name, field, value):
    return lambda g: by_name(g, name)["val"].__setitem__(field, value)


GRAPH_CASES = {
    "json_top_level_array.json": lambda g: None,  # replaced below
    "json_wrong_format.json": set_in(["format"], "joint-graf"),
    "json_format_number.json": set_in(["format"], 1),
    "json_version_2.json": set_in(["version"], 2),
    "json_version_string.json": set_in(["version"], "1"),
    "json_missing_format.json": lambda g: g.pop("format"),
    "json_missing_version.json": lambda g: g.pop("version"),
    "json_missing_nodes.json": lambda g: g.pop("nodes"),
    "json_nodes_not_list.json": set_in(["nodes"], {"cos": 1}),
    "json_nodes_empty.json": set_in(["nodes"], []),
    "json_missing_num_fwd_outputs.json": lambda g: g.pop("num_fwd_outputs"),
    "json_negative_num_fwd_outputs.json": set_in(["num_fwd_outputs"], -1),
    "json_huge_num_fwd_outputs.json": set_in(["num_fwd_outputs"], 2 ** 40),
    "json_too_many_fwd_outputs.json": set_in(["num_fwd_outputs"], 3),
    "json_float_num_fwd_outputs.json": set_in(["num_fwd_outputs"], 1.5),
    "json_bad_kind.json": set_in(["kind"], "backward"),
    "json_static_inputs_negative.json": set_in(["static_lifetime_input_indices"], [0, -3]),
    "json_static_inputs_not_list.json": set_in(["static_lifetime_input_indices"], "0"),
    "json_input_names_not_object.json": set_in(["extra"], {"input_names": ["fc1.weight"]}),
    "json_input_names_not_input.json": set_in(["extra"], {"input_names": {"primals_1": "x", "cos": "y"}}),
    "json_input_names_not_string.json": set_in(["extra"], {"input_names": {"primals_1": 7}}),
    "json_node_not_object.json": lambda g: g["nodes"].insert(2, ["cos"]),
    "json_node_missing_name.json": drop("cos", "name"),
    "json_node_empty_name.json": node_field("cos", "name", ""),
    "json_node_name_number.json": node_field("cos", "name", 7),
    "json_node_missing_op.json": drop("cos", "op"),
    "json_unknown_op.json": node_field("cos", "op", "call_banana"),
    "json_op_number.json": node_field("cos", "op", 3),
    "json_target_number.json": node_field("cos", "target", 12),
    "json_args_not_list.json": node_field("cos", "args", {"node": "primals_1"}),
    "json_kwargs_not_object.json": node_field("cos", "kwargs", [1]),
    "json_args_integer_too_large.json": node_field("cos", "args", [ref("primals_1"), 18446744073709551615]),
    "json_dangling_reference.json": node_field("sin", "args", [ref("cosine")]),
    "json_forward_reference.json": node_field("cos", "args", [ref("mul")]),
    "json_self_reference.json": node_field("cos", "args", [ref("cos")]),
    "json_duplicate_name.json": node_field("sin", "name", "cos"),
    "json_two_output_nodes.json": lambda g: g["nodes"].append(node("output_2", "output", "output", [[ref("cos")]], val=None)),
    "json_no_output_node.json": lambda g: g["nodes"].pop(),
    "json_output_not_last.json": lambda g: g["nodes"].insert(4, g["nodes"].pop()),
    "json_output_args_flat.json": node_field("output", "args", [ref("cos"), ref("mul")]),
    "json_unknown_dtype.json": val_field("cos", "dtype", "float128"),
    "json_dtype_number.json": val_field("cos", "dtype", 32),
    "json_shape_not_list.json": val_field("cos", "shape", "8x8"),
    "json_shape_string_dim.json": val_field("cos", "shape", [8, "s0"]),
    "json_shape_float_dim.json": val_field("cos", "shape", [8, 8.5]),
    "json_negative_shape.json": val_field("cos", "shape", [8, -4]),
    "json_shape_beyond_int64.json": val_field("cos", "shape", [18446744073709551615]),
    "json_shape_bytes_overflow.json": val_field("cos", "shape", [2 ** 62, 2]),
    "json_shape_product_overflow.json": val_field("cos", "shape", [2 ** 32, 2 ** 32, 16]),
    "json_huge_tensor.json": val_field("cos", "shape", [2 ** 47]),
    "json_huge_graph_total.json": lambda g: [by_name(g, n)["val"].__setitem__("shape", [2 ** 45]) for n in ("cos", "sin", "mul")],
    "json_missing_shape.json": lambda g: by_name(g, "cos")["val"].pop("shape"),
    "json_missing_dtype.json": lambda g: by_name(g, "cos")["val"].pop("dtype"),
    "json_val_string.json": node_field("cos", "val", "f32[8, 8]"),
    "json_val_list_bad_element.json": node_field("cos", "val", [tensor(), 5]),
    "json_stride_string.json": val_field("cos", "stride", ["8", 1]),
    "json_device_number.json": val_field("cos", "device", 0),
    "json_meta_not_object.json": node_field("cos", "meta", "is_forward"),
    "json_bad_recompute_policy.json": lambda g: by_name(g, "cos")["meta"].__setitem__("recompute", "ALWAYS_SAVE"),
    "json_recompute_code_out_of_range.json": lambda g: by_name(g, "cos")["meta"].__setitem__("recompute", 9),
    "json_bad_partitioner_tag.json": lambda g: by_name(g, "cos")["meta"].__setitem__("partitioner_tag", "is_sideways"),
    "json_ac_graph_id_string.json": lambda g: by_name(g, "cos")["meta"].__setitem__("ac_graph_id", "2"),
    "json_negative_runtime.json": lambda g: by_name(g, "cos")["meta"].__setitem__("runtime_ms", -1.0),
    "json_memory_budget_string.json": lambda g: by_name(g, "cos")["meta"].__setitem__("memory_budget", "half"),
    "json_backward_hook_string.json": lambda g: by_name(g, "cos")["meta"].__setitem__("has_backward_hook", "yes"),
    "json_module_stack_not_list.json": lambda g: by_name(g, "cos")["meta"].__setitem__("nn_module_stack", "block.0"),
    "json_reference_saved_not_list.json": set_in(["reference"], {"min_cut": {"saved_values": "cos"}}),
    "json_reference_saved_numbers.json": set_in(["reference"], {"min_cut": {"saved_values": [1, 2]}}),
}


def bad_syntax_cases():
    good = json.dumps(good_graph(), indent=1)
    write("json_empty.json", "")
    write("json_blank.json", " \n\t\n")
    write("json_top_level_array.json", "[]\n")
    write("json_top_level_string.json", "\"joint-graph\"\n")
    write("json_truncated_in_string.json", good[: good.index("aten.sin") + 5])
    write("json_trailing_comma.json", good.replace("\"kind\": \"joint\",", "\"kind\": \"joint\",,"))
    write("json_nan_literal.json", good.replace("\"num_fwd_outputs\": 1", "\"num_fwd_outputs\": NaN"))
    write("json_single_quotes.json", good.replace("\"format\"", "'format'"))
    write("json_garbage_after.json", good + "\n}\n")
    name_at = good.index("\"sin\"") + 2
    write("json_non_utf8_name.json", good[:name_at].encode() + b"\xff\xfe" + good[name_at:].encode())
    write("json_non_utf8_truncated_sequence.json", good[:name_at].encode() + b"\xe2\x82" + good[name_at:].encode())
    write("json_nested_100000.json", "{\"format\": \"joint-graph\", \"extra\": " + "[" * 100000 + "]" * 100000 + "}")
    write("json_nested_args_100000.json", good.replace("\"args\": []", "\"args\": [" + "[" * 100000 + "]" * 100000 + "]", 1))
    write("json_binary_junk.json", bytes(range(256)) * 4)


PRINTED_GOOD = '''class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[4, 4]", tangents_1: "f32[4, 4]"):
        cos: "f32[4, 4]" = torch.ops.aten.cos.default(primals_1)
        sin: "f32[4, 4]" = torch.ops.aten.sin.default(cos)
        mul: "f32[4, 4]" = torch.ops.aten.mul.Tensor(tangents_1, sin)
        return (cos, mul)
'''


def printed_case(name, old, new):
    assert old in PRINTED_GOOD, old
    write(name, PRINTED_GOOD.replace(old, new, 1))


PRINTED_CASES = {
    "printed_truncated.txt": ("aten.mul.Tensor(tangents_1, sin)\n        return (cos, mul)\n", "aten.mul.Ten"),
    "printed_unknown_dtype.txt": ('sin: "f32[4, 4]"', 'sin: "f128[4, 4]"'),
    "printed_negative_size.txt": ('sin: "f32[4, 4]"', 'sin: "f32[4, -4]"'),
    "printed_size_beyond_int64.txt": ('sin: "f32[4, 4]"', 'sin: "f32[4, 99999999999999999999]"'),
    "printed_size_product_overflow.txt": ('sin: "f32[4, 4]"', 'sin: "f32[4294967296, 4294967296]"'),
    "printed_huge_tensor.txt": ('sin: "f32[4, 4]"', 'sin: "f32[140737488355328]"'),
    "printed_symbolic_size.txt": ('sin: "f32[4, 4]"', 'sin: "f32[s0, 4]"'),
    "printed_dangling_reference.txt": ("aten.sin.default(cos)", "aten.sin.default(cosine)"),
    "printed_forward_reference.txt": ("aten.cos.default(primals_1)", "aten.cos.default(mul)"),
    "printed_self_reference.txt": ("aten.cos.default(primals_1)", "aten.cos.default(cos)"),
    "printed_duplicate_name.txt": ('        mul: "f32[4, 4]"', '        sin: "f32[4, 4]"'),
    "printed_two_returns.txt": ("        return (cos, mul)\n", "        return (cos, mul)\n        return (cos,)\n"),
    "printed_no_return.txt": ("        return (cos, mul)\n", ""),
    "printed_unbalanced_call.txt": ("aten.sin.default(cos)", "aten.sin.default((cos)"),
    "printed_unterminated_annotation.txt": ('sin: "f32[4, 4]"', 'sin: "f32[4, 4]'),
    "printed_double_assignment.txt": ("sin: \"f32[4, 4]\" = torch", "sin: \"f32[4, 4]\" = = torch"),
    "printed_bad_indent.txt": ('        sin: "f32[4, 4]"', '  sin: "f32[4, 4]"'),
    "printed_nested_100000.txt": ("aten.sin.default(cos)", "aten.sin.default(cos, " + "[" * 100000 + "]" * 100000 + ")"),
    "printed_unknown_policy.txt": ('        sin: "f32[4, 4]"', '        # recompute: SOMETIMES_SAVE\n        sin: "f32[4, 4]"'),
    "printed_bad_stride_count.txt": ('sin: "f32[4, 4]"', 'sin: "f32[4, 4][4]cpu"'),
    "printed_bad_device.txt": ('sin: "f32[4, 4]"', 'sin: "f32[4, 4][4, 1]cp u"'),
}


def printed_extra_cases():
    write("printed_empty.txt", "")
    write("printed_prose.txt", "This is a note about my model, not a graph.\nIt has two lines.\n")
    write("printed_non_utf8.txt", PRINTED_GOOD.replace("sin", "s\udcffin").encode("utf-8", "surrogateescape"))
    write("printed_only_header.txt", "class GraphModule(torch.nn.Module):\n")
    log = open(os.path.join(HERE, "..", "printed", "handwritten", "aot_graphs.torch_logs.log")).read()
    write("tlparse_truncated_log.log", log[: log.index("gelu_backward")])
    write("tlparse_record_without_graph.log",
          "V0614 10:22:13.456000 140212 torch/_functorch/_aot_autograd/jit_compile_runtime_wrappers.py:210] "
          "{\"aot_joint_graph\": {}, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"00\"}\n")
    trace = open(os.path.join(HERE, "..", "printed", "handwritten", "joint.torch_trace.log")).read()
    write("tlparse_trace_bad_dtype.log", trace.replace("f32[8, 8][8, 1]cpu", "z99[8, 8][8, 1]cpu", 1))
    write("tlparse_trace_truncated.log", trace[: trace.index("gelu_backward")])


def good_plan():
    return {"saved_values": ["cos"], "saved_sym_nodes": [], "fw_nodes": ["primals_1", "cos"],
            "bw_nodes": ["tangents_1", "cos", "sin", "mul"], "recomputed": [], "banned": {}}


PLAN_CASES = {
    "plan_not_object.json": "[\"cos\"]",
    "plan_missing_saved_values.json": lambda p: p.pop("saved_values"),
    "plan_saved_values_string.json": lambda p: p.__setitem__("saved_values", "cos"),
    "plan_saved_values_numbers.json": lambda p: p.__setitem__("saved_values", [3]),
    "plan_recomputed_object.json": lambda p: p.__setitem__("recomputed", {"sin": 1}),
    "plan_truncated.json": None,
    "plan_nested_100000.json": "{\"saved_values\": [], \"x\": " + "[" * 100000 + "]" * 100000 + "}",
    "plan_non_utf8.json": None,
    "plan_empty.json": "",
}

PLAN_NAME_CASES = {
    "plan_unknown_node.json": lambda p: p.__setitem__("saved_values", ["cosine"]),
}


def plan_cases():
    for name, change in {**PLAN_CASES, **PLAN_NAME_CASES}.items():
        if isinstance(change, str):
            write(name, change)
            continue
        plan = good_plan()
        if change:
            change(plan)
        text = json.dumps(plan, indent=1)
        if name == "plan_truncated.json":
            text = text[:40]
        if name == "plan_non_utf8.json":
            write(name, text.replace("\"cos\"", "\"c\udc80os\"", 1).encode("utf-8", "surrogateescape"))
            continue
        write(name, text)


def good_devices():
    return {"format": "remat-device-profiles", "version": 1, "devices": [
        {"name": "Tiny", "memory_bandwidth_gb_per_s": 100, "matmul_tflops": {"float32": 10},
         "vector_tflops": {"float32": 1}}]}


def device_cases():
    cases = {
        "devices_not_object.json": lambda d: d.__setitem__("devices", None),
        "devices_empty_list.json": lambda d: d.__setitem__("devices", []),
        "devices_entry_not_object.json": lambda d: d["devices"].__setitem__(0, "H100"),
        "devices_missing_name.json": lambda d: d["devices"][0].pop("name"),
        "devices_negative_bandwidth.json": lambda d: d["devices"][0].__setitem__("memory_bandwidth_gb_per_s", -5),
        "devices_huge_bandwidth.json": lambda d: d["devices"][0].__setitem__("memory_bandwidth_gb_per_s", 1e308),
        "devices_bandwidth_string.json": lambda d: d["devices"][0].__setitem__("memory_bandwidth_gb_per_s", "fast"),
        "devices_unknown_dtype.json": lambda d: d["devices"][0]["matmul_tflops"].__setitem__("float128", 3),
        "devices_no_float32_rate.json": lambda d: d["devices"][0].__setitem__("vector_tflops", {"float16": 2}),
        "devices_zero_rate.json": lambda d: d["devices"][0]["matmul_tflops"].__setitem__("float32", 0),
        "devices_listed_twice.json": lambda d: d["devices"].append(copy.deepcopy(d["devices"][0])),
    }
    for name, change in cases.items():
        d = good_devices()
        change(d)
        write(name, json.dumps(d, indent=1))
    write("devices_truncated.json", json.dumps(good_devices(), indent=1)[:70])
    write("devices_nested_100000.json", "{\"devices\": " + "[" * 100000 + "]" * 100000 + "}")


def good_project():
    return {"format": "remat-explorer-project", "version": 1, "graph": "g.json",
            "tags": {"cos": "MUST_SAVE"}, "partition": {"partitioner": "min-cut"}}


def project_cases():
    text = json.dumps(good_project(), indent=1)
    write("project_empty.remat", "")
    write("project_truncated.remat", text[:50])
    write("project_top_level_array.remat", "[" + text + "]")
    write("project_not_json.remat", "tags: cos=MUST_SAVE\n")
    write("project_wrong_format.remat", text.replace("remat-explorer-project", "joint-graph"))
    write("project_nested_100000.remat", "{\"tags\": " + "[" * 100000 + "]" * 100000 + "}")
    write("project_non_utf8.remat", text.replace("\"cos\"", "\"c\udcffos\"").encode("utf-8", "surrogateescape"))
    write("project_unknown_policy.remat", text.replace("MUST_SAVE", "SOMETIMES_SAVE"))
    write("project_tags_not_object.remat", text.replace('{\n  "cos": "MUST_SAVE"\n }', '["cos"]'))
    write("project_bad_partitioner.remat", text.replace("min-cut", "max-flow"))


def main():
    for name, change in GRAPH_CASES.items():
        if name != "json_top_level_array.json":
            graph_case(name, change)
    bad_syntax_cases()
    for name, (old, new) in PRINTED_CASES.items():
        printed_case(name, old, new)
    printed_extra_cases()
    plan_cases()
    device_cases()
    project_cases()


if __name__ == "__main__":
    main()
