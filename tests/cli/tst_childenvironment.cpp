// SPDX-License-Identifier: MIT
// A benchmark of whole processes times its children in the user's environment, not in the one
// the huge-page restart made for the benchmark itself.
#include "cli/child_environment.h"

#include <QTest>

#include <string>
#include <vector>

using remat::cli::environmentBeforeRestart;

namespace {

std::vector<std::string> filtered(std::vector<std::string> environment)
{
    std::vector<char*> pointers;
    for (auto& entry : environment)
        pointers.push_back(entry.data());
    pointers.push_back(nullptr);
    return environmentBeforeRestart(pointers.data());
}

} // namespace

class TestChildEnvironment : public QObject {
    Q_OBJECT
private slots:
    void dropsWhatTheRestartAdded()
    {
        const auto kept = filtered({"HOME=/root", "GLIBC_TUNABLES=glibc.malloc.hugetlb=1",
            std::string("REMAT_NO_HUGE_PAGES=") + remat::cli::kHugePageRestartMarker, "LANG=C.UTF-8"});
        QCOMPARE(kept, (std::vector<std::string> {"HOME=/root", "LANG=C.UTF-8"}));
    }

    void keepsWhatTheUserSet()
    {
        // The user's own settings: no restart happened, so both reach the children unchanged.
        const std::vector<std::string> user {
            "GLIBC_TUNABLES=glibc.malloc.arena_max=2", "REMAT_NO_HUGE_PAGES=1"};
        QCOMPARE(filtered(user), user);
    }

    void keepsAnEmptyEnvironmentEmpty() { QVERIFY(filtered({}).empty()); }
};

QTEST_GUILESS_MAIN(TestChildEnvironment)
#include "tst_childenvironment.moc"
