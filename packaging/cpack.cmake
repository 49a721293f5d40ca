# SPDX-License-Identifier: MIT
# `cpack -G DEB` in the build folder: remat-explorer_<version>_<arch>.deb, installed under /usr.
# Its Depends come from the binaries (dpkg-shlibdeps) plus the Qt platform plugins a window needs;
# the Python bridge needs torch, which is recommended rather than required (the tool runs without).
set(CPACK_PACKAGE_NAME remat-explorer)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Remat Explorer")
set(CPACK_PACKAGE_CONTACT "Remat Explorer developers <remat-explorer@users.noreply.localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see which activations PyTorch saves or recomputes, and why")
set(CPACK_PACKAGE_DESCRIPTION
    "Remat Explorer reads a PyTorch AOTAutograd joint graph and shows which activations PyTorch's
partitioners (min-cut, default, memory budget) save for the backward and which they recompute.
It has a desktop app (Qt, Graphviz) and headless commands (partition, explain, compare, budget,
pareto, memory, devices, render) that load no GUI library. The Python bridge exports a model's
joint graph and compiles a model with a chosen plan.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(REMAT_BUILD_GUI)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-torch, python3-networkx")
include(CPack)
