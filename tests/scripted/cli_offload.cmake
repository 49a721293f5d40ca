# SPDX-License-Identifier: MIT
# CPU offload on the command line: the offload policies as tags, --activation-offloading on
# partition and memory (decisions checked against 2.14 in tests/core/tst_offload.cpp).
set(REMAT_OFFLOAD_DATA ${CMAKE_CURRENT_LIST_DIR}/../data/offload)

remat_cli_test(offload_partition CODE 0 ARGS partition ${REMAT_OFFLOAD_DATA}/offload_conv_bn.json --rules torch-2.14
  --activation-offloading
  STDOUT "offloaded +3 values, 12.0 KiB \\(activation offloading\\): convolution, relu, relu_1\nnot offl\\. +convolution_1: Can only offload nodes in fwd_module_outputs\\.")
remat_cli_test(offload_off_by_default CODE 0 ARGS partition ${REMAT_OFFLOAD_DATA}/offload_conv_bn.json --rules torch-2.14
  STDOUT "saved +10 values, [^\n]*\nrecomputed")
remat_cli_test(offload_tag CODE 0 ARGS partition ${REMAT_OFFLOAD_DATA}/offload_mlp_mm.json --rules torch-2.14 --offload
  --tag addmm=MUST_SAVE
  STDOUT "tag +addmm = MUST_SAVE.*offloaded +1 values, 8.0 KiB \\(activation offloading\\): addmm_2")
remat_cli_test(offload_memory CODE 0 ARGS memory ${REMAT_OFFLOAD_DATA}/offload_conv_bn.json --offload --device A100-SXM
  STDOUT "offloaded +3 values, 12.0 KiB; on the host at most 12.0 KiB; copies .* \\(A100-SXM\\)\nsteps.*peak +19.3 KiB")
remat_cli_test(offload_bad_policy CODE 2 ARGS partition ${REMAT_OFFLOAD_DATA}/offload_conv_bn.json
  --tag relu=CPU_OFFLOAD
  STDERR "unknown policy \"CPU_OFFLOAD\" \\(MUST_SAVE, PREFER_SAVE, MUST_RECOMPUTE, PREFER_RECOMPUTE, MUST_CPU_OFFLOAD or PREFER_CPU_OFFLOAD\\)")
