# SPDX-License-Identifier: MIT
# Pictures from the command line, headless (no display, no QT_QPA_PLATFORM): the trade-off plot,
# the memory timeline and the canvas, as PNG, SVG and PDF.
set(REMAT_CHECK_PICTURE ${CMAKE_CURRENT_LIST_DIR}/support/check_picture.cmake)
set(REMAT_PICTURES ${CMAKE_CURRENT_BINARY_DIR}/pictures)
file(MAKE_DIRECTORY ${REMAT_PICTURES})

function(remat_picture_test name picture)
  cmake_parse_arguments(T "" "CONTAINS" "ARGS;BEFORE" ${ARGN})
  string(REPLACE ";" "@@" command "$<TARGET_FILE:remat-explorer>;${T_ARGS}")
  set(defs "-DCOMMAND=${command}" "-DPICTURE=${REMAT_PICTURES}/${picture}")
  if(T_BEFORE)
    string(REPLACE ";" "@@" before "$<TARGET_FILE:remat-explorer>;${T_BEFORE}")
    list(APPEND defs "-DBEFORE=${before}")
  endif()
  if(DEFINED T_CONTAINS)
    list(APPEND defs "-DCONTAINS=${T_CONTAINS}")
  endif()
  add_test(NAME cli_${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${REMAT_CHECK_PICTURE})
  set_tests_properties(cli_${name} PROPERTIES LABELS cli)
endfunction()

if(REMAT_BUILD_GUI)
  remat_picture_test(pareto_plot_png pareto.png ARGS pareto ${REMAT_ORACLE}/gpt_n2.json --plot ${REMAT_PICTURES}/pareto.png)
  remat_picture_test(pareto_plot_svg pareto.svg ARGS pareto ${REMAT_ORACLE}/mlp3_relu.json --plot ${REMAT_PICTURES}/pareto.svg)
  remat_picture_test(pareto_plot_pdf pareto.pdf ARGS pareto ${REMAT_ORACLE}/mlp3_relu.json --plot ${REMAT_PICTURES}/pareto.pdf)
  remat_picture_test(memory_plot_png memory.png
    ARGS memory ${REMAT_ORACLE}/transformer_encoder_block.json --budget 0.3 --plot ${REMAT_PICTURES}/memory.png)
  # The title says which plan: "the plan" alone left a reader of the picture guessing.
  remat_picture_test(memory_plot_svg memory.svg CONTAINS "memory of the plan at memory budget 0.3, step by step"
    ARGS memory ${REMAT_ORACLE}/transformer_encoder_block.json --budget 0.3 --plot ${REMAT_PICTURES}/memory.svg)
  remat_picture_test(memory_plot_plan_svg memory_plan.svg CONTAINS "memory of mlp3_for_svg.json, step by step"
    BEFORE partition ${REMAT_ORACLE}/mlp3_relu.json --rules newest -o ${REMAT_PICTURES}/mlp3_for_svg.json
    ARGS memory ${REMAT_ORACLE}/mlp3_relu.json --plan ${REMAT_PICTURES}/mlp3_for_svg.json --plot ${REMAT_PICTURES}/memory_plan.svg)
  remat_picture_test(memory_plot_plan_pdf memory.pdf
    BEFORE partition ${REMAT_ORACLE}/mlp3_relu.json --rules newest -o ${REMAT_PICTURES}/mlp3_for_memory.json
    ARGS memory ${REMAT_ORACLE}/mlp3_relu.json --plan ${REMAT_PICTURES}/mlp3_for_memory.json --plot ${REMAT_PICTURES}/memory.pdf)
  remat_picture_test(render_png render.png ARGS render ${REMAT_ORACLE}/mlp3_relu.json -o ${REMAT_PICTURES}/render.png)
  remat_picture_test(render_budget_svg render.svg
    ARGS render ${REMAT_ORACLE}/transformer_encoder_block.json --budget 0.2 -o ${REMAT_PICTURES}/render.svg)
  remat_picture_test(render_plan_pdf render.pdf
    BEFORE partition ${REMAT_ORACLE}/mlp3_relu.json --partitioner default -o ${REMAT_PICTURES}/mlp3_default.json
    ARGS render ${REMAT_ORACLE}/mlp3_relu.json --plan ${REMAT_PICTURES}/mlp3_default.json -o ${REMAT_PICTURES}/render.pdf)
  # The second graph of a TORCH_TRACE log: --graph picks it, as for the commands.
  remat_picture_test(render_trace_graph_png render_trace.png
    ARGS render ${REMAT_TEST_DATA_DIR}/torch_trace/graph_break.log --graph 1/0 -o ${REMAT_PICTURES}/render_trace.png)
  remat_picture_test(screenshot_trace_graph_png screenshot_trace.png
    ARGS ${REMAT_TEST_DATA_DIR}/torch_trace/graph_break.log --graph 0/0_1 --screenshot ${REMAT_PICTURES}/screenshot_trace.png)
  # The window itself, as --screenshot and --export-image take it without a display.
  remat_picture_test(screenshot_png screenshot.png
    ARGS ${REMAT_ORACLE}/mlp3_relu.json --dock compare --compare pytorch --screenshot ${REMAT_PICTURES}/screenshot.png)
  remat_picture_test(screenshot_teach_png teach.png
    ARGS ${REMAT_ORACLE}/mlp3_relu.json --teach 2 --screenshot ${REMAT_PICTURES}/teach.png)
  remat_picture_test(export_image_svg export.svg
    ARGS ${REMAT_ORACLE}/mlp3_relu.json --export-image ${REMAT_PICTURES}/export.svg)
  remat_cli_test(render_needs_output CODE 2 ARGS render ${REMAT_ORACLE}/mlp3_relu.json STDERR "-o OUT[^ ]* is required")
  remat_cli_test(render_trace_needs_graph CODE 1 ONE_LINE_ERROR
    ARGS render ${REMAT_TEST_DATA_DIR}/torch_trace/graph_break.log -o ${REMAT_PICTURES}/render_trace_none.png
    STDERR "graph_break.log: the log holds 2 joint graphs \\(0/0_1, 1/0\\): choose one with a compile id \\(--graph")
  remat_cli_test(render_trace_unknown_graph CODE 1 ONE_LINE_ERROR
    ARGS render ${REMAT_TEST_DATA_DIR}/torch_trace/graph_break.log --graph 7/0 -o ${REMAT_PICTURES}/render_trace_none.png
    STDERR "no compiled graph 7/0 \\(the log has: 0/0_1, 1/0\\)")
  # The desktop program's options: a value it cannot use is refused before anything opens (a bad
  # --zoom or --size was ignored, and --compare budget=abc compared with budget 0).
  remat_cli_test(screenshot_zoom_invalid CODE 2 ARGS ${REMAT_ORACLE}/mlp3_relu.json --zoom abc
    --screenshot ${REMAT_PICTURES}/refused.png STDERR "--zoom must be fit or a positive factor such as 0.5, not \"abc\"")
  remat_cli_test(screenshot_size_invalid CODE 2 ARGS ${REMAT_ORACLE}/mlp3_relu.json --size 10x
    --screenshot ${REMAT_PICTURES}/refused.png STDERR "--size must be WIDTHxHEIGHT in pixels")
  remat_cli_test(screenshot_compare_unknown CODE 2 ARGS ${REMAT_ORACLE}/mlp3_relu.json --compare nonsense
    --screenshot ${REMAT_PICTURES}/refused.png
    STDERR "--compare nonsense: expected pytorch, budget=B, other-rules, without-tags or a plan file")
  remat_cli_test(screenshot_compare_bad_budget CODE 2 ARGS ${REMAT_ORACLE}/mlp3_relu.json --compare budget=abc
    --screenshot ${REMAT_PICTURES}/refused.png STDERR "--compare budget=abc: the budget must be a number in \\[0, 1\\]")
  remat_cli_test(pareto_plot_bad_type CODE 1 ONE_LINE_ERROR
    ARGS pareto ${REMAT_ORACLE}/mlp3_relu.json --plot ${REMAT_PICTURES}/pareto.bmp STDERR "pareto.bmp: unknown picture type '.bmp'")
endif()
