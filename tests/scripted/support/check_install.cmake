# SPDX-License-Identifier: MIT
# Installs the build into a fresh prefix and runs the installed program from an unrelated folder,
# with no data-dir override: every file it needs must come from the prefix, and the installed
# binaries (stripped) must name neither the source nor the build tree.
#   -DBUILD_DIR=path -DPREFIX=path -DSOURCE_DIR=path -DGUI=ON|OFF -DSANITIZED=ON|OFF
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX} --strip
                RESULT_VARIABLE code OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${code}): ${err}")
endif()

set(share ${PREFIX}/share/remat-explorer)
set(expected bin/remat-explorer share/remat-explorer/device_profiles.json share/remat-explorer/samples/mlp.json
    share/remat-explorer/samples/make_samples.py share/remat-explorer/python/apply_plan.py
    share/remat-explorer/python/export_joint_graph.py share/remat-explorer/python/joint_input_names.py lib/python3/dist-packages/remat-explorer.pth
    share/applications/remat-explorer.desktop share/icons/hicolor/scalable/apps/remat-explorer.svg
    share/man/man1/remat-explorer.1)
if(GUI)
  list(APPEND expected lib/remat-explorer/remat-explorer-gui)
endif()
foreach(file IN LISTS expected)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "the install lacks ${file}")
  endif()
endforeach()

# No path of the machine that built it.
file(GLOB programs ${PREFIX}/bin/* ${PREFIX}/lib/remat-explorer/*)
if(SANITIZED)
  message(STATUS "SKIPPED: no-build-path check: a sanitizer build keeps each source's path for its "
                 "reports (GCC does not apply -ffile-prefix-map there)")
  set(programs)
endif()
foreach(program IN LISTS programs)
  foreach(tree IN ITEMS ${SOURCE_DIR} ${BUILD_DIR})
    file(STRINGS ${program} baked REGEX "${tree}/")
    if(baked)
      message(FATAL_ERROR "${program} names ${tree}: ${baked}")
    endif()
  endforeach()
endforeach()

# Runs one installed command from a folder of its own, without display or overrides.
set(work ${PREFIX}/../install_tree_work)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
function(run_installed expect_regex)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=REMAT_DATA_DIR --unset=REMAT_DEVICE_PROFILES
                          --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=QT_QPA_PLATFORM ${ARGN}
                  WORKING_DIRECTORY ${work} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT "${out}${err}" MATCHES "${expect_regex}")
    message(FATAL_ERROR "${ARGN}: exit ${code}, expected '${expect_regex}'\nstdout:\n${out}\nstderr:\n${err}")
  endif()
endfunction()

set(exe ${PREFIX}/bin/remat-explorer)
run_installed("commands:" ${exe} --help)
run_installed("49 nodes" ${exe} info ${share}/samples/mlp.json)
# The roofline estimator reads the installed device profiles.
run_installed("estimator +roofline on A100-SXM" ${exe} budget ${share}/samples/mlp.json --budget 0.5 --device A100-SXM)
run_installed("saved +[0-9]+ values" ${exe} partition ${share}/samples/mlp.json -o plan.json --script run.py)
file(READ ${work}/run.py script)
if(NOT script MATCHES "TOOLS = \"${share}/python\"")
  message(FATAL_ERROR "the plan script does not use the installed Python bridge:\n${script}")
endif()
# The .pth makes the bridge importable from the prefix's dist-packages.
execute_process(COMMAND python3 -c "import importlib.util, site, sys; site.addsitedir(sys.argv[1]); \
assert importlib.util.find_spec('apply_plan') and importlib.util.find_spec('export_joint_graph') and importlib.util.find_spec('joint_input_names')"
                        ${PREFIX}/lib/python3/dist-packages RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the installed Python bridge is not importable through remat-explorer.pth: ${err}")
endif()

if(GUI)
  # The desktop program, without a display: a plan export and a screenshot.
  run_installed("" ${exe} ${share}/samples/mlp.json --export-plan gui_plan.json)
  if(NOT EXISTS ${work}/gui_plan.json)
    message(FATAL_ERROR "--export-plan wrote nothing")
  endif()
  run_installed("" ${exe} --screenshot shot.png --size 800x600)
  file(READ ${work}/shot.png magic LIMIT 8 HEX)
  if(NOT magic STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "--screenshot wrote no PNG")
  endif()
  run_installed("budgets_evaluated" ${exe} pareto ${share}/samples/mlp.json --points 5 --plot tradeoff.svg --json)
  file(READ ${work}/tradeoff.svg svg LIMIT 400)
  if(NOT svg MATCHES "<svg")
    message(FATAL_ERROR "pareto --plot wrote no SVG")
  endif()
endif()
message(STATUS "the install in ${PREFIX} runs on its own files")
