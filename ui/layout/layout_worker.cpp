// SPDX-License-Identifier: MIT
#include "layout/layout_worker.h"

#include "layout/graphviz_layout.h"
#include "layout/layout_types.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <iterator>

namespace remat::ui {
namespace {

std::atomic<bool> g_servesWorker {false};

int runWorker()
{
    std::ios::sync_with_stdio(false);
    const std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    LayoutRequest request;
    QString error;
    if (!LayoutRequest::deserialize(QByteArray::fromStdString(input), request, &error)) {
        std::cerr << "layout worker: bad request on stdin: " << error.toStdString() << '\n';
        return 1;
    }
    try {
        const QByteArray out = layoutWithGraphviz(request).serialize();
        if (std::fwrite(out.constData(), 1, static_cast<std::size_t>(out.size()), stdout)
            != static_cast<std::size_t>(out.size()))
            return 1;
        return std::fflush(stdout) == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "layout worker: " << e.what() << '\n';
        return 1;
    }
}

} // namespace

bool serveLayoutWorker(int argc, char** argv, int& exitCode)
{
    g_servesWorker = true;
    if (argc < 2 || std::strcmp(argv[1], kLayoutWorkerSwitch) != 0)
        return false;
    exitCode = runWorker();
    return true;
}

bool servesLayoutWorker()
{
    return g_servesWorker;
}

} // namespace remat::ui
