# SPDX-License-Identifier: MIT
# What keeps a build from scratch short on 2 cores (CI builds everything twice: plain and ASan).
# - Precompiled headers: Qt's headers are most of a test's and a widget's compile time (a GUI test
#   14.2 s, 8.6 s with its tier's precompiled Qt headers). One per test tier, reused by its tests.
# - A test's own code compiles at -O1 with line tables (-g1): the code under test is in the
#   libraries, at the build's level; what a test compiles is QTest's macros and inlined helpers,
#   which took most of its time at -O2 -g (with the precompiled headers: 8.6 s -> 5.0 s a test).
# - Test programs link with lld when there is one: ninety programs each link the static engine and
#   widgets libraries with their debug info (GNU ld 4.9 s for one GUI test, lld 1.5 s). What we
#   ship links with the system's linker, as Debian links it.
include(CheckLinkerFlag)
check_linker_flag(CXX -fuse-ld=lld REMAT_HAVE_LLD)

set(REMAT_TEST_PCH_HEADERS
    <QTest> <QDir> <QFile> <QFileInfo> <QJsonArray> <QJsonDocument> <QJsonObject> <QProcess>
    <QString> <QStringList> <QTemporaryDir>
    <algorithm> <functional> <map> <memory> <optional> <string> <string_view> <vector>)
set(REMAT_GUI_PCH_HEADERS
    <QAction> <QApplication> <QComboBox> <QDockWidget> <QGraphicsScene> <QGraphicsView> <QImage>
    <QLabel> <QMainWindow> <QPainter> <QSignalSpy> <QTreeWidget> <QWidget>)
set(REMAT_UI_PCH_HEADERS
    <QAction> <QCoreApplication> <QFileInfo> <QGraphicsItem> <QGraphicsScene> <QLabel> <QObject>
    <QPainter> <QPushButton> <QString> <QStringList> <QVBoxLayout> <QWidget>
    <algorithm> <functional> <memory> <optional> <string> <vector>)

# A test program of `tier` (core, cli, gui): the tier's precompiled headers (made with its first
# test, reused by the others) and lld.
function(remat_speed_up_test target tier)
  get_property(first GLOBAL PROPERTY REMAT_PCH_OWNER_${tier})
  if(first)
    target_precompile_headers(${target} REUSE_FROM ${first})
  else()
    set(headers ${REMAT_TEST_PCH_HEADERS})
    if(tier STREQUAL "gui")
      list(APPEND headers ${REMAT_GUI_PCH_HEADERS})
    endif()
    target_precompile_headers(${target} PRIVATE ${headers})
    set_property(GLOBAL PROPERTY REMAT_PCH_OWNER_${tier} ${target})
  endif()
  target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo>:-O1 -g1>)
  remat_link_with_lld(${target})
endfunction()

function(remat_link_with_lld target)
  if(REMAT_HAVE_LLD)
    target_link_options(${target} PRIVATE -fuse-ld=lld)
  endif()
endfunction()
