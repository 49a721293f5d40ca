# SPDX-License-Identifier: MIT
# A real install: the man page covers --help, headless commands load no GUI library, and an
# installed tree runs on its own files (no path from the source or build tree).
add_test(NAME install_man_page_covers_help
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:remat-explorer> -DMAN_PAGE=${CMAKE_SOURCE_DIR}/resources/remat-explorer.1
          -P ${CMAKE_CURRENT_LIST_DIR}/support/check_man_page.cmake)
add_test(NAME install_cli_loads_no_gui_libraries
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:remat-explorer> -DGRAPH=${REMAT_SHARED_DIR}/oracle/mlp3_relu.json
          -P ${CMAKE_CURRENT_LIST_DIR}/support/check_no_gui_libraries.cmake)
set(_remat_sanitized OFF)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=")
  set(_remat_sanitized ON)
endif()
add_test(NAME install_tree_runs_alone
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/install_tree
          -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DGUI=${REMAT_BUILD_GUI} -DSANITIZED=${_remat_sanitized}
          -P ${CMAKE_CURRENT_LIST_DIR}/support/check_install.cmake)
set_tests_properties(install_man_page_covers_help install_cli_loads_no_gui_libraries install_tree_runs_alone
  PROPERTIES LABELS install)
