// SPDX-License-Identifier: MIT
#include "desktop_program.h"

#include "cli/commands.h"
#include "cli/huge_pages.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace remat {
#if REMAT_DESKTOP_PROGRAM
namespace {

/// lib/remat-explorer/ beside bin/, as installed; the build tree has the same layout.
std::filesystem::path desktopProgramPath()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return (exe.parent_path() / ".." / "lib" / "remat-explorer" / "remat-explorer-gui").lexically_normal();
}

} // namespace
#endif

bool drawsPictures(const std::vector<std::string>& args)
{
    if (args.empty())
        return false;
    if (args[0] == "render")
        return true; // the desktop program's command (or, when not built, its message)
#if REMAT_DESKTOP_PROGRAM
    if (!cli::isCommand(args[0]))
        return false;
    for (const std::string& arg : args) {
        if (arg == "--plot" || arg.starts_with("--plot="))
            return true;
    }
#endif
    return false; // without the desktop program, --plot says itself that this build draws nothing
}

int runDesktopProgram(char** argv)
{
#if REMAT_DESKTOP_PROGRAM
    const auto program = desktopProgramPath();
    // A large graph opens faster on huge pages; the exec reads the tunable, so no restart is needed.
    setHugePageTunable();
    execv(program.c_str(), argv);
    std::cerr << "remat-explorer: cannot start the desktop program " << program.string() << ": "
              << std::strerror(errno)
              << " (reinstall remat-explorer; the headless commands work without it: remat-explorer help)\n";
#else
    (void)argv;
    std::cerr << "remat-explorer: this build has no desktop app (configured with REMAT_BUILD_GUI=OFF); "
                 "run 'remat-explorer help' for the headless commands\n";
#endif
    return 2;
}

} // namespace remat
